//! The database's tables, and the steps that bring a database of any earlier version to the
//! newest. The version is kept in `PRAGMA user_version`; each step runs once, in order, in
//! one transaction with the version bump, so a later version only appends steps.

use rusqlite::{Connection, TransactionBehavior};

/// The steps, in order: step `i` brings version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: the games.
    "CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        key         TEXT    NOT NULL UNIQUE,
        created_ms  INTEGER NOT NULL,
        updated_ms  INTEGER NOT NULL,
        finished    INTEGER NOT NULL DEFAULT 0,
        red         TEXT    NOT NULL DEFAULT '',
        black       TEXT    NOT NULL DEFAULT '',
        level       INTEGER,
        level_name  TEXT,
        result      TEXT,
        end_reason  TEXT,
        date        TEXT    NOT NULL,
        opening     TEXT,
        start_fen   TEXT    NOT NULL,
        moves_count INTEGER NOT NULL,
        pgn         TEXT    NOT NULL,
        source      TEXT    NOT NULL,
        review      TEXT
    );
    CREATE INDEX games_by_date ON games (date DESC, created_ms DESC, id DESC);",
    // 2: the opening trainer's cards, one per line, side and branch.
    "CREATE TABLE trainer_cards (
        line        TEXT    NOT NULL,
        side        TEXT    NOT NULL,
        branch      TEXT    NOT NULL,
        box         INTEGER NOT NULL,
        reps        INTEGER NOT NULL,
        lapses      INTEGER NOT NULL,
        due_ms      INTEGER NOT NULL,
        last_ms     INTEGER NOT NULL,
        PRIMARY KEY (line, side, branch)
    );",
    // 3: the keys of deleted games, so that a board still playing one never brings it back.
    "CREATE TABLE deleted_games (
        key         TEXT    PRIMARY KEY,
        deleted_ms  INTEGER NOT NULL
    );",
    // 4: the time control a game was played at, as PGN's `TimeControl` tag writes it
    // (`300+3`: seconds and increment), empty for a game without a clock; games saved before
    // it have none.
    "ALTER TABLE games ADD COLUMN time_control TEXT NOT NULL DEFAULT '';",
    // 5: the rooms of games between two people, each whole as its JSON (they were kept in a
    // file of their own before, `rooms.sqlite3`, which the server then takes in once).
    "CREATE TABLE rooms (
        id          TEXT    PRIMARY KEY,
        code        TEXT    NOT NULL,
        updated_ms  INTEGER NOT NULL,
        room        TEXT    NOT NULL
    );
    CREATE INDEX rooms_by_code ON rooms (code);
    CREATE INDEX rooms_by_time ON rooms (updated_ms);",
];

/// The newest schema version this program knows.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The database's schema version.
pub fn version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |row| row.get(0))
}

/// Outcome of [`migrate`]: the version found, when it is newer than this program knows.
pub enum Migrated {
    /// The database is at [`SCHEMA_VERSION`].
    Current,
    /// The database is at a newer version.
    Newer(i64),
}

/// Brings the database to [`SCHEMA_VERSION`], step by step; another process migrating at
/// the same time waits for the lock, then finds the work done.
pub fn migrate(conn: &mut Connection) -> rusqlite::Result<Migrated> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found = version(&tx)?;
    if found > SCHEMA_VERSION {
        return Ok(Migrated::Newer(found));
    }
    for (step, sql) in MIGRATIONS.iter().enumerate().skip(found.max(0) as usize) {
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", step as i64 + 1)?;
    }
    tx.commit()?;
    Ok(Migrated::Current)
}
