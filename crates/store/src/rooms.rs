//! The rooms of games between two people (play a friend), each kept whole as the room's own
//! JSON under its id, with its short code and when it last changed; a server loads the rooms
//! that changed recently when it starts. Rooms kept in their own file by earlier versions
//! (`rooms.sqlite3` beside the archive) are taken in once ([`SqliteStore::adopt_rooms_file`]).

use crate::error::StoreError;
use crate::sqlite::SqliteStore;
use rusqlite::{OpenFlags, OptionalExtension, params};
use std::path::Path;

/// The file earlier versions kept rooms in, beside the archive.
pub const OLD_ROOMS_FILE: &str = "rooms.sqlite3";

/// What an old rooms file is renamed to once its rooms are in the archive.
pub const ADOPTED_SUFFIX: &str = ".adopted";

/// A room as the archive keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredRoom {
    /// The room's id.
    pub id: String,
    /// Its short code.
    pub code: String,
    /// When it last changed, in milliseconds since 1970.
    pub updated_ms: u64,
    /// The room itself, as its own JSON.
    pub json: String,
    /// How many changes of the room were kept before this one and with it: each save is one
    /// more (0 for a room kept before rooms had versions). Servers sharing a store write a
    /// room only over the version they last read ([`crate::Store::put_rooms_checked`]).
    pub version: u64,
}

fn room_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredRoom> {
    Ok(StoredRoom {
        id: r.get(0)?,
        code: r.get(1)?,
        updated_ms: r.get::<_, i64>(2)?.max(0) as u64,
        json: r.get(3)?,
        version: r.get::<_, i64>(4)?.max(0) as u64,
    })
}

/// The rows of `rooms` put in one transaction of `conn`: each replaces the room of its id
/// unless that one changed later.
fn put_all(conn: &mut rusqlite::Connection, rooms: &[StoredRoom]) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    {
        let mut put = tx.prepare(
            "INSERT INTO rooms (id, code, updated_ms, room, version) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (id) DO UPDATE SET code = ?2, updated_ms = ?3, room = ?4, version = ?5
             WHERE excluded.updated_ms >= rooms.updated_ms",
        )?;
        for r in rooms {
            put.execute(params![
                r.id,
                r.code,
                r.updated_ms as i64,
                r.json,
                r.version as i64
            ])?;
        }
    }
    tx.commit()
}

/// Keeps `rooms`, all or none, each replacing the room of its id (a room stamped earlier
/// than the one kept does not replace it).
pub(crate) fn put_rooms(store: &mut SqliteStore, rooms: &[StoredRoom]) -> Result<(), StoreError> {
    if rooms.is_empty() {
        return Ok(());
    }
    let path = store.path().to_path_buf();
    put_all(store.connection_mut(), rooms).map_err(|e| StoreError::at(&path, e))
}

/// Keeps each room of `rooms` over the version it names, in one transaction; the ids of
/// those kept at another version meanwhile, which are not written.
pub(crate) fn put_rooms_checked(
    store: &mut SqliteStore,
    rooms: &[(StoredRoom, u64)],
) -> Result<Vec<String>, StoreError> {
    let path = store.path().to_path_buf();
    let at = |e| StoreError::at(&path, e);
    let tx = store
        .connection_mut()
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(at)?;
    let mut conflicts = Vec::new();
    {
        let mut put = tx
            .prepare(
                "INSERT INTO rooms (id, code, updated_ms, room, version) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (id) DO UPDATE SET code = ?2, updated_ms = ?3, room = ?4, version = ?5
                 WHERE rooms.version = ?6",
            )
            .map_err(at)?;
        for (r, expected) in rooms {
            let written = put
                .execute(params![
                    r.id,
                    r.code,
                    r.updated_ms as i64,
                    r.json,
                    r.version as i64,
                    *expected as i64
                ])
                .map_err(at)?;
            if written == 0 {
                conflicts.push(r.id.clone());
            }
        }
    }
    tx.commit().map_err(at)?;
    Ok(conflicts)
}

/// The room with short code `code`.
pub(crate) fn room_with_code(
    store: &SqliteStore,
    code: &str,
) -> Result<Option<StoredRoom>, StoreError> {
    Ok(store
        .connection()
        .query_row(
            "SELECT id, code, updated_ms, room, version FROM rooms WHERE code = ?1 \
             ORDER BY updated_ms DESC LIMIT 1",
            [code],
            room_of,
        )
        .optional()?)
}

/// Every room that changed at or after `since_ms`.
pub(crate) fn rooms_since(
    store: &SqliteStore,
    since_ms: u64,
) -> Result<Vec<StoredRoom>, StoreError> {
    let mut q = store
        .connection()
        .prepare("SELECT id, code, updated_ms, room, version FROM rooms WHERE updated_ms >= ?1")?;
    let rows = q.query_map([since_ms as i64], room_of)?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// The room with id `id`.
pub(crate) fn room(store: &SqliteStore, id: &str) -> Result<Option<StoredRoom>, StoreError> {
    Ok(store
        .connection()
        .query_row(
            "SELECT id, code, updated_ms, room, version FROM rooms WHERE id = ?1",
            [id],
            room_of,
        )
        .optional()?)
}

impl SqliteStore {
    /// Takes in the rooms of an earlier version's rooms file at `old` (when there is one):
    /// they are put in the archive, and the file is then renamed with [`ADOPTED_SUFFIX`] so
    /// that it is read once. How many rooms it held.
    pub fn adopt_rooms_file(&mut self, old: &Path) -> Result<usize, StoreError> {
        if !old.is_file() {
            return Ok(0);
        }
        let at = |e| StoreError::at(old, e);
        let rooms = {
            let conn =
                rusqlite::Connection::open_with_flags(old, OpenFlags::SQLITE_OPEN_READ_WRITE)
                    .map_err(at)?;
            let mut q = conn
                .prepare("SELECT id, code, updated_ms, room, 0 FROM rooms")
                .map_err(at)?;
            let rows = q.query_map([], room_of).map_err(at)?;
            rows.collect::<rusqlite::Result<Vec<_>>>().map_err(at)?
        };
        put_rooms(self, &rooms)?;
        let mut adopted = old.as_os_str().to_owned();
        adopted.push(ADOPTED_SUFFIX);
        for suffix in ["-wal", "-shm"] {
            let mut side = old.as_os_str().to_owned();
            side.push(suffix);
            let _ = std::fs::remove_file(side);
        }
        std::fs::rename(old, &adopted).map_err(|source| StoreError::CannotOpen {
            path: old.to_path_buf(),
            reason: format!("its rooms were taken in, but it cannot be renamed: {source}"),
        })?;
        Ok(rooms.len())
    }
}
