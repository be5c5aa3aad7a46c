//! Where rooms are kept: the [`RoomStore`] trait, a SQLite store ([`SqliteStore`], the file
//! [`ROOMS_FILE`] in the server's data folder), a store in memory ([`MemoryStore`]), and the
//! [`Saver`] that writes any store from a thread of its own.
//!
//! A room is kept whole, as the JSON of [`Room::to_json`](crate::Room::to_json), under its
//! id, with its short code and when it last changed; a server loads the rooms that changed
//! recently when it starts.

use rusqlite::{Connection, OptionalExtension, params};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// The rooms' database file in the data folder.
pub const ROOMS_FILE: &str = "rooms.sqlite3";

/// A room as a store keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredRoom {
    /// The room's id.
    pub id: String,
    /// Its short code.
    pub code: String,
    /// When it last changed, in milliseconds since 1970.
    pub updated_ms: u64,
    /// The room itself (see [`Room::to_json`](crate::Room::to_json)).
    pub json: String,
}

impl StoredRoom {
    /// `room` as it stands, to be kept.
    pub fn of(room: &crate::Room) -> StoredRoom {
        StoredRoom {
            id: room.id().to_string(),
            code: room.code().to_string(),
            updated_ms: room.updated_ms(),
            json: room.to_json(),
        }
    }
}

/// Why a store failed.
#[derive(Debug)]
pub struct StoreError {
    /// What went wrong, in English.
    pub message: String,
    /// The file concerned, if any.
    pub path: Option<PathBuf>,
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.path {
            Some(p) => write!(f, "{}: {}", p.display(), self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for StoreError {}

/// Where rooms are kept. The server writes every change of a room through it and reads the
/// rooms back when it starts; the game logic never sees it.
pub trait RoomStore: Send + 'static {
    /// Keeps `rooms` (each replacing the room of its id), all or none.
    fn put(&mut self, rooms: &[StoredRoom]) -> Result<(), StoreError>;
    /// Every room that changed at or after `since_ms`.
    fn load(&mut self, since_ms: u64) -> Result<Vec<StoredRoom>, StoreError>;
    /// The room with id `id`.
    fn get(&mut self, id: &str) -> Result<Option<StoredRoom>, StoreError>;
}

/// Rooms in memory, shared by its clones (for tests, and a server without a data folder).
#[derive(Clone, Default)]
pub struct MemoryStore(Arc<Mutex<HashMap<String, StoredRoom>>>);

impl RoomStore for MemoryStore {
    fn put(&mut self, rooms: &[StoredRoom]) -> Result<(), StoreError> {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        for r in rooms {
            map.insert(r.id.clone(), r.clone());
        }
        Ok(())
    }

    fn load(&mut self, since_ms: u64) -> Result<Vec<StoredRoom>, StoreError> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        Ok(map
            .values()
            .filter(|r| r.updated_ms >= since_ms)
            .cloned()
            .collect())
    }

    fn get(&mut self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        Ok(map.get(id).cloned())
    }
}

/// The schema steps: step `i` brings `user_version` `i` to `i + 1`.
const MIGRATIONS: &[&str] = &["CREATE TABLE rooms (
        id          TEXT    PRIMARY KEY,
        code        TEXT    NOT NULL,
        updated_ms  INTEGER NOT NULL,
        room        TEXT    NOT NULL
    );
    CREATE INDEX rooms_by_code ON rooms (code);
    CREATE INDEX rooms_by_time ON rooms (updated_ms);"];

/// Rooms in a SQLite file.
pub struct SqliteStore {
    conn: Connection,
    path: PathBuf,
}

impl SqliteStore {
    /// Opens (creating and migrating when needed) the rooms database at `path`.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let fail = |e: &dyn std::fmt::Display| StoreError {
            message: e.to_string(),
            path: Some(path.to_path_buf()),
        };
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(|e| fail(&e))?;
        }
        let mut conn = Connection::open(path).map_err(|e| fail(&e))?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(|e| fail(&e))?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(|e| fail(&e))?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(|e| fail(&e))?;
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| fail(&e))?;
        let found: i64 = tx
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| fail(&e))?;
        if found > MIGRATIONS.len() as i64 {
            return Err(fail(&format!(
                "the rooms database is of a newer version ({found}) than this program knows"
            )));
        }
        for (step, sql) in MIGRATIONS.iter().enumerate().skip(found.max(0) as usize) {
            tx.execute_batch(sql).map_err(|e| fail(&e))?;
            tx.pragma_update(None, "user_version", step as i64 + 1)
                .map_err(|e| fail(&e))?;
        }
        tx.commit().map_err(|e| fail(&e))?;
        Ok(SqliteStore {
            conn,
            path: path.to_path_buf(),
        })
    }

    fn fail(&self, e: &rusqlite::Error) -> StoreError {
        StoreError {
            message: e.to_string(),
            path: Some(self.path.clone()),
        }
    }
}

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredRoom> {
    Ok(StoredRoom {
        id: r.get(0)?,
        code: r.get(1)?,
        updated_ms: r.get::<_, i64>(2)?.max(0) as u64,
        json: r.get(3)?,
    })
}

impl RoomStore for SqliteStore {
    fn put(&mut self, rooms: &[StoredRoom]) -> Result<(), StoreError> {
        let path = self.path.clone();
        let fail = move |e: rusqlite::Error| StoreError {
            message: e.to_string(),
            path: Some(path.clone()),
        };
        let tx = self.conn.transaction().map_err(&fail)?;
        {
            let mut put = tx
                .prepare(
                    "INSERT INTO rooms (id, code, updated_ms, room) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (id) DO UPDATE SET code = ?2, updated_ms = ?3, room = ?4",
                )
                .map_err(&fail)?;
            for r in rooms {
                put.execute(params![r.id, r.code, r.updated_ms as i64, r.json])
                    .map_err(&fail)?;
            }
        }
        tx.commit().map_err(&fail)
    }

    fn load(&mut self, since_ms: u64) -> Result<Vec<StoredRoom>, StoreError> {
        let mut q = self
            .conn
            .prepare("SELECT id, code, updated_ms, room FROM rooms WHERE updated_ms >= ?1")
            .map_err(|e| self.fail(&e))?;
        let rows = q
            .query_map([since_ms as i64], row)
            .map_err(|e| self.fail(&e))?;
        let out: rusqlite::Result<Vec<_>> = rows.collect();
        out.map_err(|e| self.fail(&e))
    }

    fn get(&mut self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        self.conn
            .query_row(
                "SELECT id, code, updated_ms, room FROM rooms WHERE id = ?1",
                [id],
                row,
            )
            .optional()
            .map_err(|e| self.fail(&e))
    }
}

enum Job {
    Put(StoredRoom),
    Flush(mpsc::Sender<()>),
}

/// Writes rooms to a store from a thread of its own: each change is queued at once, and the
/// thread puts what has queued up meanwhile in one transaction (the latest state of each
/// room standing for the ones before it). A failed write is logged and tried again with the
/// next one.
#[derive(Clone)]
pub struct Saver {
    jobs: mpsc::Sender<Job>,
}

impl Saver {
    /// Starts the writer thread for `store`.
    pub fn start(mut store: impl RoomStore) -> std::io::Result<Saver> {
        let (jobs, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("room-saver".into())
            .spawn(move || {
                let mut waiting: HashMap<String, StoredRoom> = HashMap::new();
                while let Ok(job) = rx.recv() {
                    let mut flushes = Vec::new();
                    let mut take = |job| match job {
                        Job::Put(r) => {
                            waiting.insert(r.id.clone(), r);
                        }
                        Job::Flush(done) => flushes.push(done),
                    };
                    take(job);
                    while let Ok(job) = rx.try_recv() {
                        take(job);
                    }
                    if !waiting.is_empty() {
                        let batch: Vec<StoredRoom> = waiting.values().cloned().collect();
                        match store.put(&batch) {
                            Ok(()) => waiting.clear(),
                            Err(e) => eprintln!("rooms: {e}"),
                        }
                    }
                    for done in flushes {
                        let _ = done.send(());
                    }
                }
            })?;
        Ok(Saver { jobs })
    }

    /// Queues `room` to be kept.
    pub fn save(&self, room: StoredRoom) {
        let _ = self.jobs.send(Job::Put(room));
    }

    /// Waits (blocking) until every room queued so far has been written, or at most
    /// `timeout`.
    pub fn flush(&self, timeout: std::time::Duration) {
        let (done, wait) = mpsc::channel();
        if self.jobs.send(Job::Flush(done)).is_ok() {
            let _ = wait.recv_timeout(timeout);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_keeps_rooms_across_opens() {
        let dir = std::env::temp_dir().join(format!("rooms-store-{}", crate::token::room_id()));
        let path = dir.join(ROOMS_FILE);
        let room = StoredRoom {
            id: "a".into(),
            code: "C".into(),
            updated_ms: 5,
            json: "{}".into(),
        };
        {
            let saver = Saver::start(SqliteStore::open(&path).unwrap()).unwrap();
            saver.save(room.clone());
            saver.save(StoredRoom {
                updated_ms: 7,
                ..room.clone()
            });
            saver.flush(std::time::Duration::from_secs(5));
        }
        let mut store = SqliteStore::open(&path).unwrap();
        let loaded = store.load(0).unwrap();
        assert_eq!(loaded.len(), 1);
        assert_eq!(loaded[0].updated_ms, 7);
        assert!(store.load(8).unwrap().is_empty());
        assert_eq!(store.get("a").unwrap().unwrap().json, "{}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
