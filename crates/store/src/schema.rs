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
    // 6: a learner's progress (a course's lessons, the puzzle rating …), one JSON value per
    // owner, topic and key; the owner is empty for the one learner of the app on their own
    // machine.
    "CREATE TABLE progress (
        owner       TEXT    NOT NULL,
        topic       TEXT    NOT NULL,
        key         TEXT    NOT NULL,
        value       TEXT    NOT NULL,
        updated_ms  INTEGER NOT NULL,
        PRIMARY KEY (owner, topic, key)
    );",
    // 7: accounts, their sessions and the invitation codes of a server hosted for many
    // people; every game and trainer card gets an owner (empty: the one learner of the app
    // on their own machine, who owns everything kept before).
    "ALTER TABLE games ADD COLUMN owner TEXT NOT NULL DEFAULT '';
    CREATE INDEX games_by_owner ON games (owner, date DESC, created_ms DESC, id DESC);
    CREATE TABLE trainer_cards_owned (
        owner       TEXT    NOT NULL,
        line        TEXT    NOT NULL,
        side        TEXT    NOT NULL,
        branch      TEXT    NOT NULL,
        box         INTEGER NOT NULL,
        reps        INTEGER NOT NULL,
        lapses      INTEGER NOT NULL,
        due_ms      INTEGER NOT NULL,
        last_ms     INTEGER NOT NULL,
        PRIMARY KEY (owner, line, side, branch)
    );
    INSERT INTO trainer_cards_owned
        SELECT '', line, side, branch, box, reps, lapses, due_ms, last_ms FROM trainer_cards;
    DROP TABLE trainer_cards;
    ALTER TABLE trainer_cards_owned RENAME TO trainer_cards;
    CREATE TABLE accounts (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        name        TEXT    NOT NULL,
        name_key    TEXT    NOT NULL UNIQUE,
        password    TEXT    NOT NULL,
        role        TEXT    NOT NULL,
        disabled    INTEGER NOT NULL DEFAULT 0,
        created_ms  INTEGER NOT NULL
    );
    CREATE TABLE sessions (
        token_hash  TEXT    PRIMARY KEY,
        account     INTEGER NOT NULL,
        created_ms  INTEGER NOT NULL,
        seen_ms     INTEGER NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions (account);
    CREATE TABLE invites (
        code_hash   TEXT    PRIMARY KEY,
        created_ms  INTEGER NOT NULL,
        used_by     INTEGER
    );",
    // 8: the players' ratings, one per account and speed, and the rated games that made
    // them (each recorded once: by its room and number).
    "CREATE TABLE ratings (
        account     INTEGER NOT NULL,
        speed       TEXT    NOT NULL,
        rating      REAL    NOT NULL,
        deviation   REAL    NOT NULL,
        volatility  REAL    NOT NULL,
        games       INTEGER NOT NULL,
        updated_ms  INTEGER NOT NULL,
        PRIMARY KEY (account, speed)
    );
    CREATE TABLE rated_games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        room        TEXT    NOT NULL,
        number      INTEGER NOT NULL,
        speed       TEXT    NOT NULL,
        red         INTEGER NOT NULL,
        black       INTEGER NOT NULL,
        result      TEXT    NOT NULL,
        ended_ms    INTEGER NOT NULL,
        red_before  REAL    NOT NULL,
        red_after   REAL    NOT NULL,
        black_before REAL   NOT NULL,
        black_after REAL    NOT NULL,
        UNIQUE (room, number)
    );
    CREATE INDEX rated_games_by_red ON rated_games (red, ended_ms DESC);
    CREATE INDEX rated_games_by_black ON rated_games (black, ended_ms DESC);",
    // 9: the token buckets of the limits on how often a client may do something costly,
    // for servers that share their limits through the store.
    "CREATE TABLE rate_buckets (
        kind        TEXT    NOT NULL,
        key         TEXT    NOT NULL,
        tokens      REAL    NOT NULL,
        at_ms       INTEGER NOT NULL,
        PRIMARY KEY (kind, key)
    );",
    // 10: each room's version (one more for each change kept), so that servers sharing a
    // store write a room only over the version they last read.
    "ALTER TABLE rooms ADD COLUMN version INTEGER NOT NULL DEFAULT 0;",
    // 11: who of a room's players has a socket open on which server, for servers sharing a
    // store (each server's rows seen again every few seconds while it lives).
    "CREATE TABLE presence (
        room        TEXT    NOT NULL,
        token       TEXT    NOT NULL,
        server      TEXT    NOT NULL,
        sockets     INTEGER NOT NULL,
        seen_ms     INTEGER NOT NULL,
        PRIMARY KEY (room, token, server)
    );",
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables of a database, by name.
    fn tables(conn: &Connection) -> Vec<String> {
        let mut q = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .unwrap();
        q.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn a_database_of_every_earlier_version_comes_to_the_newest_and_keeps_its_rows() {
        for from in 0..SCHEMA_VERSION {
            let mut conn = Connection::open_in_memory().unwrap();
            // The database as the version `from` left it, with a game when it has games.
            for (step, sql) in MIGRATIONS.iter().enumerate().take(from as usize) {
                conn.execute_batch(sql).unwrap();
                conn.pragma_update(None, "user_version", step as i64 + 1)
                    .unwrap();
            }
            if from >= 1 {
                conn.execute(
                    "INSERT INTO games (key, created_ms, updated_ms, date, start_fen, \
                     moves_count, pgn, source) VALUES ('k', 1, 2, '2026.01.01', 'fen', 1, \
                     'pgn', 'played')",
                    [],
                )
                .unwrap();
            }
            if from >= 2 {
                // Trainer cards have an owner from version 7 on.
                let owner = if from >= 7 { "owner, " } else { "" };
                let value = if from >= 7 { "'', " } else { "" };
                conn.execute(
                    &format!(
                        "INSERT INTO trainer_cards ({owner}line, side, branch, box, reps, \
                         lapses, due_ms, last_ms) VALUES ({value}'line', 'red', 'main', 1, 1, \
                         0, 5, 4)"
                    ),
                    [],
                )
                .unwrap();
            }
            assert_eq!(version(&conn).unwrap(), from);
            assert!(matches!(migrate(&mut conn).unwrap(), Migrated::Current));
            // What was kept before accounts is the app's own owner's.
            let owned: (i64, i64) = conn
                .query_row(
                    "SELECT (SELECT count(*) FROM games WHERE owner = ''), \
                     (SELECT count(*) FROM trainer_cards WHERE owner = '' AND box = 1)",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .unwrap();
            assert_eq!(
                owned,
                (i64::from(from >= 1), i64::from(from >= 2)),
                "from {from}"
            );
            assert_eq!(version(&conn).unwrap(), SCHEMA_VERSION, "from {from}");
            for table in [
                "accounts",
                "deleted_games",
                "invites",
                "sessions",
                "games",
                "presence",
                "progress",
                "rate_buckets",
                "rated_games",
                "ratings",
                "rooms",
                "trainer_cards",
            ] {
                assert!(
                    tables(&conn).contains(&table.to_string()),
                    "from {from}: {table}"
                );
            }
            let games: i64 = conn
                .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
                .unwrap();
            assert_eq!(games, i64::from(from >= 1), "from {from}");
            let time_control: String = conn
                .query_row("SELECT time_control FROM games", [], |r| r.get(0))
                .unwrap_or_default();
            assert_eq!(time_control, "", "from {from}");
            // Migrating again changes nothing.
            assert!(matches!(migrate(&mut conn).unwrap(), Migrated::Current));
            assert_eq!(version(&conn).unwrap(), SCHEMA_VERSION);
        }
    }

    #[test]
    fn a_newer_database_is_left_as_it_is() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 3)
            .unwrap();
        assert!(matches!(
            migrate(&mut conn).unwrap(),
            Migrated::Newer(found) if found == SCHEMA_VERSION + 3
        ));
        assert!(tables(&conn).is_empty());
    }
}
