//! The archive itself: one SQLite connection on the database file, and every request on it.

use crate::accounts::{self, Account, AccountChange, AccountId, Created, NewAccount};
use crate::entry::{Filter, GameEntry, GameId, GameSummary, Level, Source, StoredGame};
use crate::error::StoreError;
use crate::game_row::{PreparedImport, Stored, new_key, now_ms, read_pgn, result_text};
use crate::progress::Progress;
use crate::ratings::{RateFn, RatedGame, RatedResult, StoredRating};
use crate::rooms::StoredRoom;
use crate::schema::{self, Migrated, SCHEMA_VERSION};
use crate::store::{PRESENCE_FORGOTTEN_MS, Store};
use crate::trainer::TrainerCard;
use crate::watch::FileWatch;
use rusqlite::types::Value;
use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, ToSql, TransactionBehavior, params};
use std::path::{Path, PathBuf};
use std::time::Duration;
use xiangqi_records::OutputFormat;
use xiangqi_rules::notation::Notation;

/// How long a request waits for another connection's write to finish before it fails.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The columns a [`GameSummary`] is read from, in [`summary_of`]'s order.
const SUMMARY_COLUMNS: &str = "id, key, created_ms, updated_ms, finished, red, black, level, \
     level_name, result, end_reason, date, opening, moves_count, source, review IS NOT NULL, \
     time_control";

/// A games archive: a SQLite database file, created and brought to the newest schema when
/// opened, in WAL mode so that readers never wait for a writer, with a busy timeout so that
/// writers from several connections (threads, processes) wait for each other instead of
/// failing.
pub struct SqliteStore {
    conn: Connection,
    path: PathBuf,
    /// The file as its one writer left it, once [`SqliteStore::written_alone`] made this
    /// connection the writer.
    watch: Option<FileWatch>,
    /// How long the one writer waits for another program's lock.
    wait: Option<Duration>,
    /// False while a stand-in takes the place of a connection that could not be opened
    /// again.
    reopened: bool,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore")
            .field("path", &self.path)
            .finish()
    }
}

impl SqliteStore {
    /// Opens the archive at `path`, creating its folder and the file when missing and
    /// migrating an older schema.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref().to_path_buf();
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(|source| StoreError::CannotCreateFolder {
                path: folder.to_path_buf(),
                source,
            })?;
        }
        let at = |e| StoreError::at(&path, e);
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut conn = Connection::open_with_flags(&path, flags).map_err(at)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(at)?;
        // The first read of the file: garbage fails here as "not a database".
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(at)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::CannotOpen {
                path,
                reason: format!("the journal cannot be switched to WAL (it is {mode})"),
            });
        }
        // In WAL mode NORMAL loses nothing when the program dies, only on a power cut.
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(at)?;
        match schema::migrate(&mut conn).map_err(at)? {
            Migrated::Current => {}
            Migrated::Newer(found) => {
                return Err(StoreError::NewerSchema {
                    path,
                    found,
                    known: SCHEMA_VERSION,
                });
            }
        }
        // A damaged file shows now rather than on a later read or save: every page is read
        // and checked (a quick check, without the slower index cross-checks).
        let verdict: String = conn
            .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
            .map_err(at)?;
        if !verdict.eq_ignore_ascii_case("ok") {
            return Err(StoreError::Corrupt {
                path,
                reason: format!("the integrity check says: {verdict}"),
            });
        }
        Ok(SqliteStore {
            conn,
            path,
            watch: None,
            wait: None,
            reopened: true,
        })
    }

    /// The connection, for the requests kept in other modules of this crate.
    pub(crate) fn connection(&self) -> &Connection {
        &self.conn
    }

    /// The connection, to write, for the requests kept in other modules of this crate.
    pub(crate) fn connection_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Makes this connection a guest of the file's one writer (another program, such as
    /// `xiangqi users`, changing accounts while the server runs): it never copies the
    /// write-ahead log into the file, not even when it closes, so that the writer still finds
    /// the file as it left it; the writer's own checkpoints take its changes in.
    pub fn beside_the_writer(&mut self) -> Result<(), StoreError> {
        let path = self.path.clone();
        let at = |e| StoreError::at(&path, e);
        self.conn
            .pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(at)?;
        self.conn
            .set_db_config(
                rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
                true,
            )
            .map_err(at)?;
        Ok(())
    }

    /// Makes this connection the file's one writer: the write-ahead log is copied into the
    /// file only by [`Store::checkpoint`], a lock held by another program is waited for no
    /// longer than `wait` (so that a change is refused in good time rather than held), and
    /// [`Store::intact`] then finds the file deleted, replaced, emptied or written by anyone
    /// else.
    pub fn written_alone(&mut self, wait: Duration) -> Result<(), StoreError> {
        self.alone_settings(wait)?;
        self.watch = Some(FileWatch::of(&self.path));
        self.wait = Some(wait);
        Ok(())
    }

    /// The settings of the one writer's connection.
    fn alone_settings(&mut self, wait: Duration) -> Result<(), StoreError> {
        let path = self.path.clone();
        let at = |e| StoreError::at(&path, e);
        self.conn.busy_timeout(wait).map_err(at)?;
        self.conn
            .pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(at)?;
        Ok(())
    }

    /// A new connection on the same file (which must still be the one opened), with the
    /// same settings.
    fn reopen(&mut self) -> Result<(), StoreError> {
        if let Some(watch) = &self.watch {
            watch.check()?;
        }
        // The old connection goes first: SQLite shares a file's locks and shared memory
        // among the connections of one process, and a new one would inherit its read-only
        // state. Meanwhile an empty database that takes no writes stands in.
        let stand_in = Connection::open_in_memory()?;
        stand_in.pragma_update(None, "query_only", true)?;
        drop(std::mem::replace(&mut self.conn, stand_in));
        self.reopened = false;
        self.conn = SqliteStore::open(&self.path)?.conn;
        self.reopened = true;
        match self.wait {
            Some(wait) => self.alone_settings(wait),
            None => Ok(()),
        }
    }

    /// The schema version of the file.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(schema::version(&self.conn)?)
    }
}

impl Store for SqliteStore {
    fn probe_write(&mut self) -> Result<(), StoreError> {
        // SQLite opens a file it cannot write read-only, and the connection stays so: once
        // the file may be written again, only a new connection writes.
        if !self.reopened || self.conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false) {
            self.reopen()?;
        }
        let path = self.path.clone();
        let at = |e| StoreError::at(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(at)?;
        tx.execute(
            "INSERT OR REPLACE INTO deleted_games (key, deleted_ms) VALUES ('~probe', 0)",
            [],
        )
        .map_err(at)?;
        tx.execute("DELETE FROM deleted_games WHERE key = '~probe'", [])
            .map_err(at)?;
        tx.commit().map_err(at)
    }

    fn checkpoint(&mut self) -> Result<(), StoreError> {
        let path = self.path.clone();
        self.conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
            .map_err(|e| StoreError::at(&path, e))?;
        if let Some(watch) = &mut self.watch {
            watch.rebase();
        }
        Ok(())
    }

    fn save(&mut self, entry: &GameEntry) -> Result<GameId, StoreError> {
        let key = entry.key.clone().unwrap_or_else(new_key);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let id = insert_or_update(&tx, &key, entry)?;
        tx.commit()?;
        Ok(id)
    }

    fn set_review(&mut self, id: GameId, review: &str) -> Result<bool, StoreError> {
        let changed = self.conn.execute(
            "UPDATE games SET review = ?2, updated_ms = ?3 WHERE id = ?1",
            params![id, review, now_ms()],
        )?;
        Ok(changed > 0)
    }

    fn id_of_key(&self, key: &str) -> Result<Option<GameId>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT id FROM games WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    }

    fn list(&self, filter: &Filter) -> Result<Vec<GameSummary>, StoreError> {
        let (condition, values) = conditions_of(filter);
        let mut sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM games{condition} \
             ORDER BY date DESC, created_ms DESC, id DESC"
        );
        // SQLite needs a LIMIT for an OFFSET; -1 is none.
        let limit = filter
            .limit
            .map_or(-1, |l| i64::try_from(l).unwrap_or(i64::MAX));
        sql.push_str(&format!(" LIMIT {limit} OFFSET {}", filter.offset));
        let mut statement = self.conn.prepare(&sql)?;
        let rows = statement.query_map(rusqlite::params_from_iter(values), summary_of)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn count_matching(&self, filter: &Filter) -> Result<usize, StoreError> {
        let (condition, values) = conditions_of(filter);
        let n: i64 = self.conn.query_row(
            &format!("SELECT count(*) FROM games{condition}"),
            rusqlite::params_from_iter(values),
            |r| r.get(0),
        )?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    fn get(&self, owner: &str, id: GameId) -> Result<Option<StoredGame>, StoreError> {
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS}, start_fen, pgn, review FROM games \
             WHERE id = ?1 AND owner = ?2"
        );
        Ok(self
            .conn
            .query_row(&sql, params![id, owner], |r| {
                Ok(StoredGame {
                    summary: summary_of(r)?,
                    start_fen: r.get(17)?,
                    pgn: r.get(18)?,
                    review: r.get(19)?,
                })
            })
            .optional()?)
    }

    fn delete(&mut self, owner: &str, id: GameId) -> Result<bool, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        // The key is kept, so that a board still playing the game never saves it again.
        tx.execute(
            "INSERT OR REPLACE INTO deleted_games (key, deleted_ms)
             SELECT key, ?2 FROM games WHERE id = ?1 AND owner = ?3",
            rusqlite::params![id, now_ms(), owner],
        )?;
        let deleted = tx.execute(
            "DELETE FROM games WHERE id = ?1 AND owner = ?2",
            params![id, owner],
        )? > 0;
        tx.commit()?;
        Ok(deleted)
    }

    fn count(&self, owner: &str) -> Result<usize, StoreError> {
        let n: i64 = self.conn.query_row(
            "SELECT count(*) FROM games WHERE owner = ?1",
            [owner],
            |r| r.get(0),
        )?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    fn export_pgn(&self, owner: &str, notation: Notation) -> Result<String, StoreError> {
        let mut statement = self
            .conn
            .prepare("SELECT pgn FROM games WHERE owner = ?1 ORDER BY date, created_ms, id")?;
        let texts = statement.query_map([owner], |r| r.get::<_, String>(0))?;
        let mut records = Vec::new();
        for text in texts {
            records.push(read_pgn(&text?)?);
        }
        let written = OutputFormat::Pgn(notation)
            .write(&records)
            .map_err(|e| StoreError::Record(e.to_string()))?;
        String::from_utf8(written.bytes).map_err(|e| StoreError::Record(e.to_string()))
    }

    fn import_some(
        &mut self,
        prepared: &mut PreparedImport,
        most: usize,
        budget: Duration,
    ) -> Result<bool, StoreError> {
        let started = std::time::Instant::now();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut ids = Vec::new();
        let mut next = prepared.next;
        while next < prepared.rows.len() && ids.len() < most {
            if !ids.is_empty() && started.elapsed() >= budget {
                break;
            }
            let (entry, texts) = &prepared.rows[next];
            let row = Stored::with(entry, texts);
            ids.push(insert_or_update_row(&tx, &new_key(), entry, &row)?);
            next += 1;
        }
        tx.commit()?;
        prepared.next = next;
        prepared.report.imported.extend(ids);
        Ok(next < prepared.rows.len())
    }

    fn put_rooms(&mut self, rooms: &[StoredRoom]) -> Result<(), StoreError> {
        crate::rooms::put_rooms(self, rooms)
    }

    fn put_rooms_checked(
        &mut self,
        rooms: &[(StoredRoom, u64)],
    ) -> Result<Vec<String>, StoreError> {
        crate::rooms::put_rooms_checked(self, rooms)
    }

    fn room_with_code(&self, code: &str) -> Result<Option<StoredRoom>, StoreError> {
        crate::rooms::room_with_code(self, code)
    }

    fn rooms_since(&self, since_ms: u64) -> Result<Vec<StoredRoom>, StoreError> {
        crate::rooms::rooms_since(self, since_ms)
    }

    fn room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        crate::rooms::room(self, id)
    }

    fn trainer_cards(&self, owner: &str) -> Result<Vec<TrainerCard>, StoreError> {
        crate::trainer::trainer_cards(self, owner)
    }

    fn save_trainer_card(&mut self, owner: &str, card: &TrainerCard) -> Result<(), StoreError> {
        crate::trainer::save_trainer_card(self, owner, card)
    }

    fn progress(&self, owner: &str, topic: &str) -> Result<Vec<Progress>, StoreError> {
        crate::progress::progress(self, owner, Some(topic))
    }

    fn all_progress(&self, owner: &str) -> Result<Vec<Progress>, StoreError> {
        crate::progress::progress(self, owner, None)
    }

    fn save_progress(&mut self, value: &Progress) -> Result<(), StoreError> {
        crate::progress::save_progress(self, value)
    }

    fn create_account(&mut self, new: &NewAccount) -> Result<Created, StoreError> {
        accounts::create_account(self, new)
    }

    fn account_named(&self, name_key: &str) -> Result<Option<Account>, StoreError> {
        accounts::account_named(self, name_key)
    }

    fn account(&self, id: AccountId) -> Result<Option<Account>, StoreError> {
        accounts::account(self, id)
    }

    fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        accounts::accounts(self)
    }

    fn change_account(
        &mut self,
        id: AccountId,
        change: &AccountChange,
    ) -> Result<bool, StoreError> {
        accounts::change_account(self, id, change)
    }

    fn delete_account(&mut self, id: AccountId) -> Result<bool, StoreError> {
        accounts::delete_account(self, id)
    }

    fn open_session(
        &mut self,
        token_hash: &str,
        id: AccountId,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        accounts::open_session(self, token_hash, id, now_ms)
    }

    fn session(&self, token_hash: &str) -> Result<Option<(Account, i64)>, StoreError> {
        accounts::session(self, token_hash)
    }

    fn close_session(&mut self, token_hash: &str) -> Result<bool, StoreError> {
        accounts::close_session(self, token_hash)
    }

    fn close_sessions(&mut self, id: AccountId) -> Result<usize, StoreError> {
        accounts::close_sessions(self, id)
    }

    fn add_invite(&mut self, code_hash: &str, now_ms: i64) -> Result<(), StoreError> {
        accounts::add_invite(self, code_hash, now_ms)
    }

    fn reown(&mut self, from: &str, to: &str) -> Result<usize, StoreError> {
        accounts::reown(self, from, to)
    }

    fn ratings(&self, id: AccountId) -> Result<Vec<StoredRating>, StoreError> {
        crate::ratings::ratings(self, id)
    }

    fn record_rated_game(
        &mut self,
        game: &RatedResult,
        rate: RateFn<'_>,
    ) -> Result<Option<RatedGame>, StoreError> {
        crate::ratings::record_rated_game(self, game, rate)
    }

    fn rated_games(&self, id: AccountId, most: usize) -> Result<Vec<RatedGame>, StoreError> {
        crate::ratings::rated_games(self, id, most)
    }

    fn take_token(
        &mut self,
        kind: &str,
        key: &str,
        burst: u32,
        every_ms: u64,
        now_ms: i64,
    ) -> Result<Option<u64>, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let (tokens, at_ms) = tx
            .query_row(
                "SELECT tokens, at_ms FROM rate_buckets WHERE kind = ?1 AND key = ?2",
                params![kind, key],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?
            .unwrap_or((f64::from(burst), now_ms));
        let (left, wait) = crate::store::bucket_take(tokens, at_ms, burst, every_ms, now_ms);
        tx.execute(
            "INSERT INTO rate_buckets (kind, key, tokens, at_ms) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT (kind, key) DO UPDATE SET tokens = ?3, at_ms = ?4",
            params![kind, key, left, now_ms.max(at_ms)],
        )?;
        tx.commit()?;
        Ok(wait)
    }

    fn set_presence(
        &mut self,
        room: &str,
        token: &str,
        server: &str,
        sockets: u32,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        if sockets == 0 {
            self.conn.execute(
                "DELETE FROM presence WHERE room = ?1 AND token = ?2 AND server = ?3",
                params![room, token, server],
            )?;
        } else {
            self.conn.execute(
                "INSERT INTO presence (room, token, server, sockets, seen_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (room, token, server) \
                 DO UPDATE SET sockets = ?4, seen_ms = ?5",
                params![room, token, server, sockets, now_ms],
            )?;
        }
        Ok(())
    }

    fn touch_presence(&mut self, server: &str, now_ms: i64) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE presence SET seen_ms = ?2 WHERE server = ?1",
            params![server, now_ms],
        )?;
        self.conn.execute(
            "DELETE FROM presence WHERE seen_ms < ?1",
            params![now_ms - PRESENCE_FORGOTTEN_MS],
        )?;
        Ok(())
    }

    fn present_elsewhere(
        &self,
        room: &str,
        token: &str,
        server: &str,
        since_ms: i64,
    ) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT 1 FROM presence WHERE room = ?1 AND token = ?2 AND server <> ?3 \
                 AND sockets > 0 AND seen_ms >= ?4 LIMIT 1",
                params![room, token, server, since_ms],
                |r| r.get::<_, i64>(0),
            )
            .optional()?
            .is_some())
    }

    fn intact(&self) -> Result<(), StoreError> {
        self.watch.as_ref().map_or(Ok(()), FileWatch::check)
    }

    fn describe(&self) -> String {
        self.path.display().to_string()
    }
}

/// The columns of a game's row that its entry sets, as `?3` to `?15` of a statement that
/// saves it (`?2` is the time of the save).
const ENTRY_SET: &str = "updated_ms = ?2, finished = ?3, red = ?4, black = ?5, level = ?6,
    level_name = ?7, result = ?8, end_reason = ?9, date = ?10,
    opening = coalesce(?11, opening), start_fen = ?12, moves_count = ?13, pgn = ?14,
    time_control = ?15";

/// Saves `entry` under `key`: a new row, or the row already under that key with its
/// creation time, source and review kept; the row's id.
/// The `WHERE` clause (with its leading space) and its values for `filter`.
fn conditions_of(filter: &Filter) -> (String, Vec<Value>) {
    let mut conditions = vec!["owner = ?"];
    let mut values: Vec<Value> = vec![Value::Text(filter.owner.clone())];
    if let Some(result) = filter.result {
        match result_text(result) {
            Some(text) => {
                conditions.push("result = ?");
                values.push(Value::Text(text.to_string()));
            }
            None => conditions.push("result IS NULL"),
        }
    }
    if let Some(level) = filter.level {
        conditions.push("level = ?");
        values.push(Value::Integer(i64::from(level)));
    }
    if let Some(finished) = filter.finished {
        conditions.push("finished = ?");
        values.push(Value::Integer(i64::from(finished)));
    }
    (format!(" WHERE {}", conditions.join(" AND ")), values)
}

fn insert_or_update(conn: &Connection, key: &str, entry: &GameEntry) -> Result<GameId, StoreError> {
    let row = Stored::of(entry)?;
    insert_or_update_row(conn, key, entry, &row)
}

/// Saves `entry`, whose row is `row`, under `key`, as [`insert_or_update`] does.
fn insert_or_update_row(
    conn: &Connection,
    key: &str,
    entry: &GameEntry,
    row: &Stored<'_>,
) -> Result<GameId, StoreError> {
    let deleted: Option<i64> = conn
        .query_row("SELECT 1 FROM deleted_games WHERE key = ?1", [key], |r| {
            r.get(0)
        })
        .optional()?;
    // A key another owner saves under is, to this one, a game it cannot save.
    let owner: Option<String> = conn
        .query_row("SELECT owner FROM games WHERE key = ?1", [key], |r| {
            r.get(0)
        })
        .optional()?;
    if deleted.is_some() || owner.is_some_and(|owner| owner != entry.owner) {
        return Err(StoreError::Deleted {
            key: key.to_string(),
        });
    }
    let source = entry.source.name();
    let now = now_ms();
    let mut values: Vec<&dyn ToSql> = vec![&key, &now];
    values.extend(columns(row));
    values.push(&source);
    values.push(&entry.owner);
    let id = conn.query_row(
        &format!(
            "INSERT INTO games (key, created_ms, updated_ms, finished, red, black, level,
                 level_name, result, end_reason, date, opening, start_fen, moves_count, pgn,
                 time_control, source, owner)
             VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                 ?17)
             ON CONFLICT (key) DO UPDATE SET {ENTRY_SET}
             RETURNING id"
        ),
        &*values,
        |r| r.get(0),
    )?;
    Ok(id)
}

fn summary_of(r: &Row<'_>) -> rusqlite::Result<GameSummary> {
    let level: Option<u32> = r.get(7)?;
    let level_name: Option<String> = r.get(8)?;
    let result: Option<String> = r.get(9)?;
    let source: String = r.get(14)?;
    let moves: i64 = r.get(13)?;
    Ok(GameSummary {
        id: r.get(0)?,
        key: r.get(1)?,
        created_ms: r.get(2)?,
        updated_ms: r.get(3)?,
        finished: r.get(4)?,
        red: r.get(5)?,
        black: r.get(6)?,
        level: level.map(|number| Level {
            number,
            name: level_name.unwrap_or_default(),
        }),
        result: result.and_then(|text| text.parse().ok()),
        end_reason: r.get(10)?,
        date: r.get(11)?,
        opening: r.get(12)?,
        moves_count: usize::try_from(moves).unwrap_or(0),
        source: Source::from_name(&source),
        reviewed: r.get(15)?,
        time_control: Some(r.get::<_, String>(16)?).filter(|t| !t.is_empty()),
    })
}

/// The values of `?3` to `?15` in [`ENTRY_SET`], in order.
fn columns<'r>(row: &'r Stored<'_>) -> [&'r dyn ToSql; 13] {
    [
        &row.entry.finished,
        &row.entry.red,
        &row.entry.black,
        &row.level,
        &row.level_name,
        &row.result,
        &row.entry.end_reason,
        &row.entry.date,
        &row.entry.opening,
        &row.start_fen,
        &row.moves_count,
        &row.pgn,
        &row.time_control,
    ]
}
