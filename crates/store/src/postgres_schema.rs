//! The tables of the store on PostgreSQL, and the steps that bring a database of any earlier
//! version to the newest. The version is kept in the table `schema_version`; each step runs
//! once, in order, in one transaction with the version bump, under an advisory lock, so that
//! several servers starting at once on one database migrate it once.

use postgres::Client;

/// The steps, in order: step `i` brings version `i` to `i + 1`. The first is the whole of
/// what the SQLite store keeps at its version 8, in PostgreSQL's types.
const MIGRATIONS: &[&str] = &[
    // 1: every table the app keeps.
    "CREATE TABLE games (
        id          BIGSERIAL PRIMARY KEY,
        key         TEXT    NOT NULL UNIQUE,
        created_ms  BIGINT  NOT NULL,
        updated_ms  BIGINT  NOT NULL,
        finished    BOOLEAN NOT NULL DEFAULT FALSE,
        red         TEXT    NOT NULL DEFAULT '',
        black       TEXT    NOT NULL DEFAULT '',
        level       BIGINT,
        level_name  TEXT,
        result      TEXT,
        end_reason  TEXT,
        date        TEXT    NOT NULL,
        opening     TEXT,
        start_fen   TEXT    NOT NULL,
        moves_count BIGINT  NOT NULL,
        pgn         TEXT    NOT NULL,
        source      TEXT    NOT NULL,
        review      TEXT,
        time_control TEXT   NOT NULL DEFAULT '',
        owner       TEXT    NOT NULL DEFAULT ''
    );
    CREATE INDEX games_by_owner ON games (owner, date DESC, created_ms DESC, id DESC);
    CREATE TABLE deleted_games (
        key         TEXT    PRIMARY KEY,
        deleted_ms  BIGINT  NOT NULL
    );
    CREATE TABLE trainer_cards (
        owner       TEXT    NOT NULL,
        line        TEXT    NOT NULL,
        side        TEXT    NOT NULL,
        branch      TEXT    NOT NULL,
        box         BIGINT  NOT NULL,
        reps        BIGINT  NOT NULL,
        lapses      BIGINT  NOT NULL,
        due_ms      BIGINT  NOT NULL,
        last_ms     BIGINT  NOT NULL,
        PRIMARY KEY (owner, line, side, branch)
    );
    CREATE TABLE rooms (
        id          TEXT    PRIMARY KEY,
        code        TEXT    NOT NULL,
        updated_ms  BIGINT  NOT NULL,
        room        TEXT    NOT NULL
    );
    CREATE INDEX rooms_by_code ON rooms (code);
    CREATE INDEX rooms_by_time ON rooms (updated_ms);
    CREATE TABLE progress (
        owner       TEXT    NOT NULL,
        topic       TEXT    NOT NULL,
        key         TEXT    NOT NULL,
        value       TEXT    NOT NULL,
        updated_ms  BIGINT  NOT NULL,
        PRIMARY KEY (owner, topic, key)
    );
    CREATE TABLE accounts (
        id          BIGSERIAL PRIMARY KEY,
        name        TEXT    NOT NULL,
        name_key    TEXT    NOT NULL UNIQUE,
        password    TEXT    NOT NULL,
        role        TEXT    NOT NULL,
        disabled    BOOLEAN NOT NULL DEFAULT FALSE,
        created_ms  BIGINT  NOT NULL
    );
    CREATE TABLE sessions (
        token_hash  TEXT    PRIMARY KEY,
        account     BIGINT  NOT NULL,
        created_ms  BIGINT  NOT NULL,
        seen_ms     BIGINT  NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions (account);
    CREATE TABLE invites (
        code_hash   TEXT    PRIMARY KEY,
        created_ms  BIGINT  NOT NULL,
        used_by     BIGINT
    );
    CREATE TABLE ratings (
        account     BIGINT  NOT NULL,
        speed       TEXT    NOT NULL,
        rating      DOUBLE PRECISION NOT NULL,
        deviation   DOUBLE PRECISION NOT NULL,
        volatility  DOUBLE PRECISION NOT NULL,
        games       BIGINT  NOT NULL,
        updated_ms  BIGINT  NOT NULL,
        PRIMARY KEY (account, speed)
    );
    CREATE TABLE rated_games (
        id          BIGSERIAL PRIMARY KEY,
        room        TEXT    NOT NULL,
        number      BIGINT  NOT NULL,
        speed       TEXT    NOT NULL,
        red         BIGINT  NOT NULL,
        black       BIGINT  NOT NULL,
        result      TEXT    NOT NULL,
        ended_ms    BIGINT  NOT NULL,
        red_before  DOUBLE PRECISION NOT NULL,
        red_after   DOUBLE PRECISION NOT NULL,
        black_before DOUBLE PRECISION NOT NULL,
        black_after DOUBLE PRECISION NOT NULL,
        UNIQUE (room, number)
    );
    CREATE INDEX rated_games_by_red ON rated_games (red, ended_ms DESC);
    CREATE INDEX rated_games_by_black ON rated_games (black, ended_ms DESC);",
    // 2: the token buckets of the limits every server shares.
    "CREATE TABLE rate_buckets (
        kind        TEXT    NOT NULL,
        key         TEXT    NOT NULL,
        tokens      DOUBLE PRECISION NOT NULL,
        at_ms       BIGINT  NOT NULL,
        PRIMARY KEY (kind, key)
    );",
    // 3: each room's version (one more for each change kept): a room is written only over
    // the version its server last read.
    "ALTER TABLE rooms ADD COLUMN version BIGINT NOT NULL DEFAULT 0;",
    // 4: who of a room's players has a socket open on which server.
    "CREATE TABLE presence (
        room        TEXT    NOT NULL,
        token       TEXT    NOT NULL,
        server      TEXT    NOT NULL,
        sockets     BIGINT  NOT NULL,
        seen_ms     BIGINT  NOT NULL,
        PRIMARY KEY (room, token, server)
    );",
];

/// The newest schema version of the PostgreSQL store.
pub const POSTGRES_SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The advisory lock every migration holds (any number no other lock of the app uses).
const MIGRATION_LOCK: i64 = 0x7869_616e_6771_6901;

/// Outcome of [`migrate`]: the version found, when it is newer than this program knows.
pub(crate) enum Migrated {
    /// The database is at [`POSTGRES_SCHEMA_VERSION`].
    Current,
    /// The database is at a newer version.
    Newer(i64),
}

/// The database's schema version (0 for a database this program never wrote).
pub(crate) fn version(client: &mut Client) -> Result<i64, postgres::Error> {
    let exists: bool = client
        .query_one("SELECT to_regclass('schema_version') IS NOT NULL", &[])?
        .get(0);
    if !exists {
        return Ok(0);
    }
    Ok(client
        .query_opt("SELECT version FROM schema_version", &[])?
        .map_or(0, |r| r.get(0)))
}

/// Brings the database to [`POSTGRES_SCHEMA_VERSION`], step by step; another server migrating
/// at the same time waits for the lock, then finds the work done.
pub(crate) fn migrate(client: &mut Client) -> Result<Migrated, postgres::Error> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")?;
    let found: i64 = tx
        .query_opt("SELECT version FROM schema_version", &[])?
        .map_or(0, |r| r.get(0));
    if found > POSTGRES_SCHEMA_VERSION {
        return Ok(Migrated::Newer(found));
    }
    for (step, sql) in MIGRATIONS.iter().enumerate().skip(found.max(0) as usize) {
        tx.batch_execute(sql)?;
        let next = step as i64 + 1;
        tx.execute("DELETE FROM schema_version", &[])?;
        tx.execute("INSERT INTO schema_version (version) VALUES ($1)", &[&next])?;
    }
    tx.commit()?;
    Ok(Migrated::Current)
}
