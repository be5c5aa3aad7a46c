//! The store on PostgreSQL, for several servers sharing one database: the same requests as
//! the embedded SQLite store ([`crate::SqliteStore`]), passing the same
//! [conformance checks](crate::conformance). One connection per store, opened again when the
//! server drops it; every change is one transaction, and the changes that read before they
//! write (a rated game, an account made with an invitation) are made safe against other
//! servers by row locks, unique keys and an advisory lock.

use crate::accounts::{Account, AccountChange, AccountId, Created, NewAccount, account_owner};
use crate::entry::{Filter, GameEntry, GameId, GameSummary, Level, Source, StoredGame};
use crate::error::StoreError;
use crate::game_row::{PreparedImport, Stored, new_key, now_ms, read_pgn, result_text};
use crate::postgres_schema::{self, Migrated, POSTGRES_SCHEMA_VERSION};
use crate::progress::Progress;
use crate::ratings::{RateFn, RatedGame, RatedResult, StoredRating};
use crate::rooms::StoredRoom;
use crate::store::Store;
use crate::trainer::TrainerCard;
use postgres::types::ToSql;
use postgres::{Client, GenericClient, NoTls, Row};
use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Duration;
use xiangqi_records::OutputFormat;
use xiangqi_rules::notation::Notation;

/// The advisory lock a rated game's transaction holds, so that two games ending at once on
/// two servers read and write the ratings one after the other.
const RATINGS_LOCK: i64 = 0x7869_616e_6771_6902;

/// The channel on which every room written is told to the servers that listen
/// ([`listen_for_rooms`]): its id and version.
pub const ROOMS_CHANNEL: &str = "xiangqi_rooms";

/// The longest notification PostgreSQL sends (its limit is 8,000 bytes).
const NOTIFY_MAX: usize = 7_900;

/// How long a connection waits to be made.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The store on a PostgreSQL database.
pub struct PostgresStore {
    client: RefCell<Client>,
    config: postgres::Config,
    /// The database as it is told: the address without its password.
    shown: String,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore")
            .field("database", &self.shown)
            .finish()
    }
}

/// `url` as it may be shown: its password, if any, left out.
pub fn shown_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url
            .split_whitespace()
            .filter(|part| !part.starts_with("password="))
            .collect::<Vec<_>>()
            .join(" ");
    };
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    match authority.rsplit_once('@') {
        Some((user, host)) => {
            let user = user.split(':').next().unwrap_or("");
            format!("{scheme}://{user}@{host}{path}")
        }
        None => url.to_string(),
    }
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/database`, or
    /// `host=… dbname=…`) and brings its tables to the newest schema.
    pub fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let shown = shown_url(url);
        let cannot = |reason: String| StoreError::CannotOpen {
            path: PathBuf::from(&shown),
            reason,
        };
        let mut config = config_of(url)?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        let mut client = config
            .connect(NoTls)
            .map_err(|e| cannot(connection_failure(&e)))?;
        match postgres_schema::migrate(&mut client).map_err(|e| cannot(e.to_string()))? {
            Migrated::Current => {}
            Migrated::Newer(found) => {
                return Err(StoreError::NewerSchema {
                    path: PathBuf::from(&shown),
                    found,
                    known: POSTGRES_SCHEMA_VERSION,
                });
            }
        }
        Ok(PostgresStore {
            client: RefCell::new(client),
            config,
            shown,
        })
    }

    /// The database's schema version.
    pub fn schema_version(&mut self) -> Result<i64, StoreError> {
        Ok(postgres_schema::version(self.client.get_mut())?)
    }

    /// A new connection in place of one the server closed.
    fn reconnect(&mut self) -> Result<(), StoreError> {
        *self.client.get_mut() =
            self.config
                .connect(NoTls)
                .map_err(|e| StoreError::CannotOpen {
                    path: PathBuf::from(&self.shown),
                    reason: connection_failure(&e),
                })?;
        Ok(())
    }
}

/// The connection settings of the address `url`, or why it is no address.
fn config_of(url: &str) -> Result<postgres::Config, StoreError> {
    url.parse()
        .map_err(|e: postgres::Error| StoreError::CannotOpen {
            path: PathBuf::from(shown_url(url)),
            reason: format!("the address is not one: {e}"),
        })
}

/// What a failed connection says, with the server's own words when it answered.
fn connection_failure(error: &postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => db.message().to_string(),
        None => {
            let mut text = error.to_string();
            let mut source = std::error::Error::source(error);
            while let Some(cause) = source {
                text.push_str(": ");
                text.push_str(&cause.to_string());
                source = cause.source();
            }
            text
        }
    }
}

impl Store for PostgresStore {
    fn save(&mut self, entry: &GameEntry) -> Result<GameId, StoreError> {
        let key = entry.key.clone().unwrap_or_else(new_key);
        let row = Stored::of(entry)?;
        let mut tx = self.client.get_mut().transaction()?;
        let id = insert_or_update_row(&mut tx, &key, entry, &row)?;
        tx.commit()?;
        Ok(id)
    }

    fn set_review(&mut self, id: GameId, review: &str) -> Result<bool, StoreError> {
        let changed = self.client.get_mut().execute(
            "UPDATE games SET review = $2, updated_ms = $3 WHERE id = $1",
            &[&id, &review, &now_ms()],
        )?;
        Ok(changed > 0)
    }

    fn id_of_key(&self, key: &str) -> Result<Option<GameId>, StoreError> {
        read(self, |c| {
            Ok(c.query_opt("SELECT id FROM games WHERE key = $1", &[&key])?
                .map(|r| r.get(0)))
        })
    }

    fn list(&self, filter: &Filter) -> Result<Vec<GameSummary>, StoreError> {
        let (condition, values) = conditions_of(filter);
        let limit = filter.limit.map_or("ALL".to_string(), |l| l.to_string());
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM games{condition} \
             ORDER BY date DESC, created_ms DESC, id DESC LIMIT {limit} OFFSET {}",
            filter.offset
        );
        read(self, |c| {
            let params: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| &**v).collect();
            c.query(&sql, &params)?
                .iter()
                .map(summary_of)
                .collect::<Result<_, _>>()
        })
    }

    fn count_matching(&self, filter: &Filter) -> Result<usize, StoreError> {
        let (condition, values) = conditions_of(filter);
        let sql = format!("SELECT count(*) FROM games{condition}");
        read(self, |c| {
            let params: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| &**v).collect();
            let n: i64 = c.query_one(&sql, &params)?.get(0);
            Ok(usize::try_from(n).unwrap_or(0))
        })
    }

    fn get(&self, owner: &str, id: GameId) -> Result<Option<StoredGame>, StoreError> {
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS}, start_fen, pgn, review FROM games \
             WHERE id = $1 AND owner = $2"
        );
        read(self, |c| {
            c.query_opt(&sql, &[&id, &owner])?
                .map(|r| {
                    Ok(StoredGame {
                        summary: summary_of(&r)?,
                        start_fen: r.try_get(17)?,
                        pgn: r.try_get(18)?,
                        review: r.try_get(19)?,
                    })
                })
                .transpose()
        })
    }

    fn delete(&mut self, owner: &str, id: GameId) -> Result<bool, StoreError> {
        let mut tx = self.client.get_mut().transaction()?;
        // The key is kept, so that a board still playing the game never saves it again.
        tx.execute(
            "INSERT INTO deleted_games (key, deleted_ms) \
             SELECT key, $2 FROM games WHERE id = $1 AND owner = $3 \
             ON CONFLICT (key) DO UPDATE SET deleted_ms = excluded.deleted_ms",
            &[&id, &now_ms(), &owner],
        )?;
        let deleted = tx.execute(
            "DELETE FROM games WHERE id = $1 AND owner = $2",
            &[&id, &owner],
        )? > 0;
        tx.commit()?;
        Ok(deleted)
    }

    fn count(&self, owner: &str) -> Result<usize, StoreError> {
        read(self, |c| {
            let n: i64 = c
                .query_one("SELECT count(*) FROM games WHERE owner = $1", &[&owner])?
                .get(0);
            Ok(usize::try_from(n).unwrap_or(0))
        })
    }

    fn export_pgn(&self, owner: &str, notation: Notation) -> Result<String, StoreError> {
        let texts: Vec<String> = read(self, |c| {
            Ok(c.query(
                "SELECT pgn FROM games WHERE owner = $1 ORDER BY date, created_ms, id",
                &[&owner],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect())
        })?;
        let records = texts
            .iter()
            .map(|text| read_pgn(text))
            .collect::<Result<Vec<_>, _>>()?;
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
        let mut tx = self.client.get_mut().transaction()?;
        let mut ids = Vec::new();
        let mut next = prepared.next;
        while next < prepared.rows.len() && ids.len() < most {
            if !ids.is_empty() && started.elapsed() >= budget {
                break;
            }
            let (entry, texts) = &prepared.rows[next];
            let row = Stored::with(entry, texts);
            ids.push(insert_or_update_row(&mut tx, &new_key(), entry, &row)?);
            next += 1;
        }
        tx.commit()?;
        prepared.next = next;
        prepared.report.imported.extend(ids);
        Ok(next < prepared.rows.len())
    }

    fn put_rooms(&mut self, rooms: &[StoredRoom]) -> Result<(), StoreError> {
        if rooms.is_empty() {
            return Ok(());
        }
        let mut tx = self.client.get_mut().transaction()?;
        let put = tx.prepare(
            "INSERT INTO rooms (id, code, updated_ms, room, version) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (id) DO UPDATE SET code = excluded.code, \
             updated_ms = excluded.updated_ms, room = excluded.room, version = excluded.version \
             WHERE excluded.updated_ms >= rooms.updated_ms",
        )?;
        for r in rooms {
            tx.execute(
                &put,
                &[
                    &r.id,
                    &r.code,
                    &stamp(r.updated_ms),
                    &r.json,
                    &stamp(r.version),
                ],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    fn put_rooms_checked(
        &mut self,
        rooms: &[(StoredRoom, u64)],
    ) -> Result<Vec<String>, StoreError> {
        let mut tx = self.client.get_mut().transaction()?;
        // The row's version decides between two servers writing one room: the second finds
        // it moved on (its update waits for the first's transaction, then matches nothing).
        let put = tx.prepare(
            "INSERT INTO rooms (id, code, updated_ms, room, version) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (id) DO UPDATE SET code = excluded.code, \
             updated_ms = excluded.updated_ms, room = excluded.room, version = excluded.version \
             WHERE rooms.version = $6",
        )?;
        let mut conflicts = Vec::new();
        for (r, expected) in rooms {
            let written = tx.execute(
                &put,
                &[
                    &r.id,
                    &r.code,
                    &stamp(r.updated_ms),
                    &r.json,
                    &stamp(r.version),
                    &stamp(*expected),
                ],
            )?;
            if written == 0 {
                conflicts.push(r.id.clone());
            } else {
                // Told to every listening server once the transaction commits, with the room
                // itself when it fits in a notification.
                let told = format!("{} {}", r.id, r.version);
                let payload = if told.len() + 1 + r.json.len() < NOTIFY_MAX {
                    format!("{told} {}", r.json)
                } else {
                    told
                };
                tx.execute("SELECT pg_notify($1, $2)", &[&ROOMS_CHANNEL, &payload])?;
            }
        }
        tx.commit()?;
        Ok(conflicts)
    }

    fn room_with_code(&self, code: &str) -> Result<Option<StoredRoom>, StoreError> {
        read(self, |c| {
            c.query_opt(
                "SELECT id, code, updated_ms, room, version FROM rooms WHERE code = $1 \
                 ORDER BY updated_ms DESC LIMIT 1",
                &[&code],
            )?
            .as_ref()
            .map(room_of)
            .transpose()
        })
    }

    fn rooms_since(&self, since_ms: u64) -> Result<Vec<StoredRoom>, StoreError> {
        read(self, |c| {
            c.query(
                "SELECT id, code, updated_ms, room, version FROM rooms WHERE updated_ms >= $1",
                &[&stamp(since_ms)],
            )?
            .iter()
            .map(room_of)
            .collect()
        })
    }

    fn room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        read(self, |c| {
            c.query_opt(
                "SELECT id, code, updated_ms, room, version FROM rooms WHERE id = $1",
                &[&id],
            )?
            .as_ref()
            .map(room_of)
            .transpose()
        })
    }

    fn trainer_cards(&self, owner: &str) -> Result<Vec<TrainerCard>, StoreError> {
        read(self, |c| {
            c.query(
                "SELECT line, side, branch, box, reps, lapses, due_ms, last_ms \
                 FROM trainer_cards WHERE owner = $1 ORDER BY line, side, branch",
                &[&owner],
            )?
            .iter()
            .map(|r| {
                Ok(TrainerCard {
                    line: r.try_get(0)?,
                    side: r.try_get(1)?,
                    branch: r.try_get(2)?,
                    level: narrow(r.try_get(3)?)?,
                    reps: narrow(r.try_get(4)?)?,
                    lapses: narrow(r.try_get(5)?)?,
                    due_ms: r.try_get(6)?,
                    last_ms: r.try_get(7)?,
                })
            })
            .collect()
        })
    }

    fn save_trainer_card(&mut self, owner: &str, card: &TrainerCard) -> Result<(), StoreError> {
        self.client.get_mut().execute(
            "INSERT INTO trainer_cards \
             (owner, line, side, branch, box, reps, lapses, due_ms, last_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             ON CONFLICT (owner, line, side, branch) DO UPDATE SET box = excluded.box, \
             reps = excluded.reps, lapses = excluded.lapses, due_ms = excluded.due_ms, \
             last_ms = excluded.last_ms",
            &[
                &owner,
                &card.line,
                &card.side,
                &card.branch,
                &i64::from(card.level),
                &i64::from(card.reps),
                &i64::from(card.lapses),
                &card.due_ms,
                &card.last_ms,
            ],
        )?;
        Ok(())
    }

    fn progress(&self, owner: &str, topic: &str) -> Result<Vec<Progress>, StoreError> {
        progress_of(self, owner, Some(topic))
    }

    fn all_progress(&self, owner: &str) -> Result<Vec<Progress>, StoreError> {
        progress_of(self, owner, None)
    }

    fn save_progress(&mut self, value: &Progress) -> Result<(), StoreError> {
        self.client.get_mut().execute(
            "INSERT INTO progress (owner, topic, key, value, updated_ms) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (owner, topic, key) DO UPDATE SET value = excluded.value, \
             updated_ms = excluded.updated_ms \
             WHERE excluded.updated_ms >= progress.updated_ms",
            &[
                &value.owner,
                &value.topic,
                &value.key,
                &value.value,
                &value.updated_ms,
            ],
        )?;
        Ok(())
    }

    fn create_account(&mut self, new: &NewAccount) -> Result<Created, StoreError> {
        let mut tx = self.client.get_mut().transaction()?;
        // The unique name key decides between two servers making the same name at once.
        let made = tx.query_opt(
            &format!(
                "INSERT INTO accounts (name, name_key, password, role, created_ms) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name_key) DO NOTHING \
                 RETURNING {ACCOUNT_COLUMNS}"
            ),
            &[
                &new.name,
                &new.name_key,
                &new.password,
                &new.role,
                &new.created_ms,
            ],
        )?;
        let Some(row) = made else {
            return Ok(Created::NameTaken);
        };
        let account = account_of(&row)?;
        if let Some(invite) = &new.invite {
            // The row lock makes a second use of one code, on any server, find it used.
            let used = tx.execute(
                "UPDATE invites SET used_by = $2 WHERE code_hash = $1 AND used_by IS NULL",
                &[invite, &account.id],
            )?;
            if used == 0 {
                // Dropping the transaction takes the account back.
                return Ok(Created::InviteUnknown);
            }
        }
        tx.commit()?;
        Ok(Created::Made(account))
    }

    fn account_named(&self, name_key: &str) -> Result<Option<Account>, StoreError> {
        read(self, |c| {
            c.query_opt(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = $1"),
                &[&name_key],
            )?
            .as_ref()
            .map(account_of)
            .transpose()
        })
    }

    fn account(&self, id: AccountId) -> Result<Option<Account>, StoreError> {
        read(self, |c| {
            c.query_opt(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = $1"),
                &[&id],
            )?
            .as_ref()
            .map(account_of)
            .transpose()
        })
    }

    fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        read(self, |c| {
            c.query(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts ORDER BY name_key"),
                &[],
            )?
            .iter()
            .map(account_of)
            .collect()
        })
    }

    fn change_account(
        &mut self,
        id: AccountId,
        change: &AccountChange,
    ) -> Result<bool, StoreError> {
        let c = self.client.get_mut();
        let changed = match change {
            AccountChange::Password(hash) => c.execute(
                "UPDATE accounts SET password = $2 WHERE id = $1",
                &[&id, hash],
            )?,
            AccountChange::Disabled(disabled) => c.execute(
                "UPDATE accounts SET disabled = $2 WHERE id = $1",
                &[&id, disabled],
            )?,
            AccountChange::Role(role) => {
                c.execute("UPDATE accounts SET role = $2 WHERE id = $1", &[&id, role])?
            }
        };
        Ok(changed > 0)
    }

    fn delete_account(&mut self, id: AccountId) -> Result<bool, StoreError> {
        let owner = account_owner(id);
        let mut tx = self.client.get_mut().transaction()?;
        // The games' keys are kept as deleted, so that a board still open never saves one
        // again.
        tx.execute(
            "INSERT INTO deleted_games (key, deleted_ms) \
             SELECT key, $2 FROM games WHERE owner = $1 \
             ON CONFLICT (key) DO UPDATE SET deleted_ms = excluded.deleted_ms",
            &[&owner, &now_ms()],
        )?;
        tx.execute("DELETE FROM games WHERE owner = $1", &[&owner])?;
        tx.execute("DELETE FROM trainer_cards WHERE owner = $1", &[&owner])?;
        tx.execute("DELETE FROM progress WHERE owner = $1", &[&owner])?;
        tx.execute("DELETE FROM sessions WHERE account = $1", &[&id])?;
        tx.execute("DELETE FROM ratings WHERE account = $1", &[&id])?;
        let deleted = tx.execute("DELETE FROM accounts WHERE id = $1", &[&id])? > 0;
        tx.commit()?;
        Ok(deleted)
    }

    fn open_session(
        &mut self,
        token_hash: &str,
        id: AccountId,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        self.client.get_mut().execute(
            "INSERT INTO sessions (token_hash, account, created_ms, seen_ms) \
             VALUES ($1, $2, $3, $3)",
            &[&token_hash, &id, &now_ms],
        )?;
        Ok(())
    }

    fn session(&self, token_hash: &str) -> Result<Option<(Account, i64)>, StoreError> {
        read(self, |c| {
            c.query_opt(
                "SELECT a.id, a.name, a.password, a.role, a.disabled, a.created_ms, \
                 s.created_ms FROM sessions s JOIN accounts a ON a.id = s.account \
                 WHERE s.token_hash = $1",
                &[&token_hash],
            )?
            .map(|r| Ok((account_of(&r)?, r.try_get(6)?)))
            .transpose()
        })
    }

    fn close_session(&mut self, token_hash: &str) -> Result<bool, StoreError> {
        Ok(self
            .client
            .get_mut()
            .execute("DELETE FROM sessions WHERE token_hash = $1", &[&token_hash])?
            > 0)
    }

    fn close_sessions(&mut self, id: AccountId) -> Result<usize, StoreError> {
        let closed = self
            .client
            .get_mut()
            .execute("DELETE FROM sessions WHERE account = $1", &[&id])?;
        Ok(usize::try_from(closed).unwrap_or(usize::MAX))
    }

    fn add_invite(&mut self, code_hash: &str, now_ms: i64) -> Result<(), StoreError> {
        self.client.get_mut().execute(
            "INSERT INTO invites (code_hash, created_ms) VALUES ($1, $2)",
            &[&code_hash, &now_ms],
        )?;
        Ok(())
    }

    fn reown(&mut self, from: &str, to: &str) -> Result<usize, StoreError> {
        let mut tx = self.client.get_mut().transaction()?;
        let mut moved = tx.execute(
            "UPDATE games SET owner = $2 WHERE owner = $1",
            &[&from, &to],
        )?;
        // What the new owner already has wins over the guest's.
        moved += tx.execute(
            "UPDATE trainer_cards g SET owner = $2 WHERE owner = $1 AND NOT EXISTS \
             (SELECT 1 FROM trainer_cards t WHERE t.owner = $2 AND t.line = g.line \
             AND t.side = g.side AND t.branch = g.branch)",
            &[&from, &to],
        )?;
        moved += tx.execute(
            "UPDATE progress g SET owner = $2 WHERE owner = $1 AND NOT EXISTS \
             (SELECT 1 FROM progress t WHERE t.owner = $2 AND t.topic = g.topic \
             AND t.key = g.key)",
            &[&from, &to],
        )?;
        tx.execute("DELETE FROM trainer_cards WHERE owner = $1", &[&from])?;
        tx.execute("DELETE FROM progress WHERE owner = $1", &[&from])?;
        tx.commit()?;
        Ok(usize::try_from(moved).unwrap_or(usize::MAX))
    }

    fn ratings(&self, id: AccountId) -> Result<Vec<StoredRating>, StoreError> {
        read(self, |c| {
            c.query(
                &format!("SELECT {RATING_COLUMNS} FROM ratings WHERE account = $1 ORDER BY speed"),
                &[&id],
            )?
            .iter()
            .map(rating_of)
            .collect()
        })
    }

    fn record_rated_game(
        &mut self,
        game: &RatedResult,
        rate: RateFn<'_>,
    ) -> Result<Option<RatedGame>, StoreError> {
        let mut tx = self.client.get_mut().transaction()?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&RATINGS_LOCK])?;
        let number = i64::from(game.number);
        let recorded = tx.query_opt(
            "SELECT 1 FROM rated_games WHERE room = $1 AND number = $2",
            &[&game.room, &number],
        )?;
        if recorded.is_some() {
            return Ok(None);
        }
        let mut now = |id: AccountId| -> Result<Option<StoredRating>, StoreError> {
            tx.query_opt(
                &format!("SELECT {RATING_COLUMNS} FROM ratings WHERE account = $1 AND speed = $2"),
                &[&id, &game.speed],
            )?
            .as_ref()
            .map(rating_of)
            .transpose()
        };
        let (red_now, black_now) = (now(game.red)?, now(game.black)?);
        let ((red_before, red_after), (black_before, black_after)) = rate(red_now, black_now);
        let (red_before, black_before) = (red_before.rating, black_before.rating);
        for (id, after) in [(game.red, &red_after), (game.black, &black_after)] {
            tx.execute(
                "INSERT INTO ratings (account, speed, rating, deviation, volatility, games, \
                 updated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7) \
                 ON CONFLICT (account, speed) DO UPDATE SET rating = excluded.rating, \
                 deviation = excluded.deviation, volatility = excluded.volatility, \
                 games = excluded.games, updated_ms = excluded.updated_ms",
                &[
                    &id,
                    &game.speed,
                    &after.rating,
                    &after.deviation,
                    &after.volatility,
                    &i64::from(after.games),
                    &game.ended_ms,
                ],
            )?;
        }
        tx.execute(
            "INSERT INTO rated_games (room, number, speed, red, black, result, ended_ms, \
             red_before, red_after, black_before, black_after) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            &[
                &game.room,
                &number,
                &game.speed,
                &game.red,
                &game.black,
                &game.result,
                &game.ended_ms,
                &red_before,
                &red_after.rating,
                &black_before,
                &black_after.rating,
            ],
        )?;
        let mut name = |id: AccountId| -> Result<String, StoreError> {
            Ok(tx
                .query_opt("SELECT name FROM accounts WHERE id = $1", &[&id])?
                .map(|r| r.get(0))
                .unwrap_or_default())
        };
        let (red_name, black_name) = (name(game.red)?, name(game.black)?);
        tx.commit()?;
        Ok(Some(RatedGame {
            game: game.clone(),
            red_name,
            black_name,
            red_rating: (red_before, red_after.rating),
            black_rating: (black_before, black_after.rating),
        }))
    }

    fn rated_games(&self, id: AccountId, most: usize) -> Result<Vec<RatedGame>, StoreError> {
        let most = i64::try_from(most).unwrap_or(i64::MAX);
        read(self, |c| {
            c.query(
                "SELECT g.room, g.number, g.speed, g.red, g.black, g.result, g.ended_ms, \
                 coalesce(r.name, ''), coalesce(b.name, ''), g.red_before, g.red_after, \
                 g.black_before, g.black_after \
                 FROM rated_games g LEFT JOIN accounts r ON r.id = g.red \
                 LEFT JOIN accounts b ON b.id = g.black \
                 WHERE g.red = $1 OR g.black = $1 ORDER BY g.ended_ms DESC, g.id DESC LIMIT $2",
                &[&id, &most],
            )?
            .iter()
            .map(|r| {
                Ok(RatedGame {
                    game: RatedResult {
                        room: r.try_get(0)?,
                        number: narrow(r.try_get(1)?)?,
                        speed: r.try_get(2)?,
                        red: r.try_get(3)?,
                        black: r.try_get(4)?,
                        result: r.try_get(5)?,
                        ended_ms: r.try_get(6)?,
                    },
                    red_name: r.try_get(7)?,
                    black_name: r.try_get(8)?,
                    red_rating: (r.try_get(9)?, r.try_get(10)?),
                    black_rating: (r.try_get(11)?, r.try_get(12)?),
                })
            })
            .collect()
        })
    }

    fn probe_write(&mut self) -> Result<(), StoreError> {
        if self.client.get_mut().is_closed() {
            self.reconnect()?;
        }
        let mut tx = self.client.get_mut().transaction()?;
        tx.execute(
            "INSERT INTO deleted_games (key, deleted_ms) VALUES ('~probe', 0) \
             ON CONFLICT (key) DO NOTHING",
            &[],
        )?;
        tx.execute("DELETE FROM deleted_games WHERE key = '~probe'", &[])?;
        tx.commit()?;
        Ok(())
    }

    fn checkpoint(&mut self) -> Result<(), StoreError> {
        // The server writes its own log into its files.
        Ok(())
    }

    fn intact(&self) -> Result<(), StoreError> {
        // The server guards its own files; a lost connection fails the next request, and
        // the writer's probe connects again.
        Ok(())
    }

    fn take_token(
        &mut self,
        kind: &str,
        key: &str,
        burst: u32,
        every_ms: u64,
        now_ms: i64,
    ) -> Result<Option<u64>, StoreError> {
        let mut tx = self.client.get_mut().transaction()?;
        // The bucket's row, made full when new, is locked until the take is written: two
        // servers take from one bucket one after the other.
        tx.execute(
            "INSERT INTO rate_buckets (kind, key, tokens, at_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (kind, key) DO NOTHING",
            &[&kind, &key, &f64::from(burst), &now_ms],
        )?;
        let row = tx.query_one(
            "SELECT tokens, at_ms FROM rate_buckets WHERE kind = $1 AND key = $2 FOR UPDATE",
            &[&kind, &key],
        )?;
        let (tokens, at_ms): (f64, i64) = (row.try_get(0)?, row.try_get(1)?);
        let (left, wait) = crate::store::bucket_take(tokens, at_ms, burst, every_ms, now_ms);
        tx.execute(
            "UPDATE rate_buckets SET tokens = $3, at_ms = $4 WHERE kind = $1 AND key = $2",
            &[&kind, &key, &left, &now_ms.max(at_ms)],
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
        let client = self.client.get_mut();
        if sockets == 0 {
            client.execute(
                "DELETE FROM presence WHERE room = $1 AND token = $2 AND server = $3",
                &[&room, &token, &server],
            )?;
        } else {
            client.execute(
                "INSERT INTO presence (room, token, server, sockets, seen_ms) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (room, token, server) \
                 DO UPDATE SET sockets = excluded.sockets, seen_ms = excluded.seen_ms",
                &[&room, &token, &server, &i64::from(sockets), &now_ms],
            )?;
        }
        Ok(())
    }

    fn touch_presence(&mut self, server: &str, now_ms: i64) -> Result<(), StoreError> {
        let client = self.client.get_mut();
        client.execute(
            "UPDATE presence SET seen_ms = $2 WHERE server = $1",
            &[&server, &now_ms],
        )?;
        client.execute(
            "DELETE FROM presence WHERE seen_ms < $1",
            &[&(now_ms - crate::store::PRESENCE_FORGOTTEN_MS)],
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
        read(self, |c| {
            Ok(c.query_opt(
                "SELECT 1 FROM presence WHERE room = $1 AND token = $2 AND server <> $3 \
                 AND sockets > 0 AND seen_ms >= $4 LIMIT 1",
                &[&room, &token, &server, &since_ms],
            )?
            .is_some())
        })
    }

    fn shared(&self) -> bool {
        true
    }

    fn describe(&self) -> String {
        self.shown.clone()
    }
}

/// Runs a read on the store's connection (the trait reads through `&self`; a request needs
/// the connection mutably, and a store is used by one thread at a time).
fn read<R>(
    store: &PostgresStore,
    request: impl FnOnce(&mut Client) -> Result<R, StoreError>,
) -> Result<R, StoreError> {
    request(&mut store.client.borrow_mut())
}

/// The columns a [`GameSummary`] is read from, in [`summary_of`]'s order.
const SUMMARY_COLUMNS: &str = "id, key, created_ms, updated_ms, finished, red, black, level, \
     level_name, result, end_reason, date, opening, moves_count, source, review IS NOT NULL, \
     time_control";

/// The `WHERE` clause (with its leading space) and its values for `filter`.
fn conditions_of(filter: &Filter) -> (String, Vec<Box<dyn ToSql + Sync>>) {
    let mut conditions = vec!["owner = $1".to_string()];
    let mut values: Vec<Box<dyn ToSql + Sync>> = vec![Box::new(filter.owner.clone())];
    let mut equal = |column: &str, value: Box<dyn ToSql + Sync>| {
        values.push(value);
        format!("{column} = ${}", values.len())
    };
    if let Some(result) = filter.result {
        conditions.push(match result_text(result) {
            Some(text) => equal("result", Box::new(text.to_string())),
            None => "result IS NULL".to_string(),
        });
    }
    if let Some(level) = filter.level {
        conditions.push(equal("level", Box::new(i64::from(level))));
    }
    if let Some(finished) = filter.finished {
        conditions.push(equal("finished", Box::new(finished)));
    }
    (format!(" WHERE {}", conditions.join(" AND ")), values)
}

/// Saves `entry`, whose row is `row`, under `key`: a new row, or the row already under that
/// key with its creation time, source and review kept; the row's id.
fn insert_or_update_row(
    tx: &mut impl GenericClient,
    key: &str,
    entry: &GameEntry,
    row: &Stored<'_>,
) -> Result<GameId, StoreError> {
    let deleted = tx.query_opt("SELECT 1 FROM deleted_games WHERE key = $1", &[&key])?;
    // A key another owner saves under is, to this one, a game it cannot save.
    let owner: Option<String> = tx
        .query_opt("SELECT owner FROM games WHERE key = $1", &[&key])?
        .map(|r| r.get(0));
    if deleted.is_some() || owner.is_some_and(|owner| owner != entry.owner) {
        return Err(StoreError::Deleted {
            key: key.to_string(),
        });
    }
    let level = row.level.map(i64::from);
    let now = now_ms();
    let id: i64 = tx
        .query_one(
            "INSERT INTO games (key, created_ms, updated_ms, finished, red, black, level, \
                 level_name, result, end_reason, date, opening, start_fen, moves_count, pgn, \
                 time_control, source, owner) \
             VALUES ($1, $2, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, \
                 $17) \
             ON CONFLICT (key) DO UPDATE SET updated_ms = excluded.updated_ms, \
                 finished = excluded.finished, red = excluded.red, black = excluded.black, \
                 level = excluded.level, level_name = excluded.level_name, \
                 result = excluded.result, end_reason = excluded.end_reason, \
                 date = excluded.date, opening = coalesce(excluded.opening, games.opening), \
                 start_fen = excluded.start_fen, moves_count = excluded.moves_count, \
                 pgn = excluded.pgn, time_control = excluded.time_control \
             RETURNING id",
            &[
                &key,
                &now,
                &row.entry.finished,
                &row.entry.red,
                &row.entry.black,
                &level,
                &row.level_name,
                &row.result,
                &row.entry.end_reason,
                &row.entry.date,
                &row.entry.opening,
                &row.start_fen,
                &row.moves_count,
                &row.pgn,
                &row.time_control,
                &entry.source.name(),
                &entry.owner,
            ],
        )?
        .get(0);
    Ok(id)
}

fn summary_of(r: &Row) -> Result<GameSummary, StoreError> {
    let level: Option<i64> = r.try_get(7)?;
    let level_name: Option<String> = r.try_get(8)?;
    let result: Option<String> = r.try_get(9)?;
    let source: String = r.try_get(14)?;
    let moves: i64 = r.try_get(13)?;
    let time_control: String = r.try_get(16)?;
    Ok(GameSummary {
        id: r.try_get(0)?,
        key: r.try_get(1)?,
        created_ms: r.try_get(2)?,
        updated_ms: r.try_get(3)?,
        finished: r.try_get(4)?,
        red: r.try_get(5)?,
        black: r.try_get(6)?,
        level: level.map(narrow).transpose()?.map(|number| Level {
            number,
            name: level_name.unwrap_or_default(),
        }),
        result: result.and_then(|text| text.parse().ok()),
        end_reason: r.try_get(10)?,
        date: r.try_get(11)?,
        opening: r.try_get(12)?,
        moves_count: usize::try_from(moves).unwrap_or(0),
        source: Source::from_name(&source),
        reviewed: r.try_get(15)?,
        time_control: Some(time_control).filter(|t| !t.is_empty()),
    })
}

fn progress_of(
    store: &PostgresStore,
    owner: &str,
    topic: Option<&str>,
) -> Result<Vec<Progress>, StoreError> {
    read(store, |c| {
        c.query(
            "SELECT owner, topic, key, value, updated_ms FROM progress \
             WHERE owner = $1 AND ($2::TEXT IS NULL OR topic = $2) ORDER BY topic, key",
            &[&owner, &topic],
        )?
        .iter()
        .map(|r| {
            Ok(Progress {
                owner: r.try_get(0)?,
                topic: r.try_get(1)?,
                key: r.try_get(2)?,
                value: r.try_get(3)?,
                updated_ms: r.try_get(4)?,
            })
        })
        .collect()
    })
}

fn room_of(r: &Row) -> Result<StoredRoom, StoreError> {
    Ok(StoredRoom {
        id: r.try_get(0)?,
        code: r.try_get(1)?,
        updated_ms: r.try_get::<_, i64>(2)?.max(0) as u64,
        json: r.try_get(3)?,
        version: r.try_get::<_, i64>(4)?.max(0) as u64,
    })
}

const ACCOUNT_COLUMNS: &str = "id, name, password, role, disabled, created_ms";

fn account_of(r: &Row) -> Result<Account, StoreError> {
    Ok(Account {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        password: r.try_get(2)?,
        role: r.try_get(3)?,
        disabled: r.try_get(4)?,
        created_ms: r.try_get(5)?,
    })
}

const RATING_COLUMNS: &str = "speed, rating, deviation, volatility, games";

fn rating_of(r: &Row) -> Result<StoredRating, StoreError> {
    Ok(StoredRating {
        speed: r.try_get(0)?,
        rating: r.try_get(1)?,
        deviation: r.try_get(2)?,
        volatility: r.try_get(3)?,
        games: narrow(r.try_get(4)?)?,
    })
}

/// A stamp in milliseconds as a column keeps it.
fn stamp(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// A number kept as BIGINT read back into the narrower type the app uses; a number out of
/// its range is damage to the row.
fn narrow<T: TryFrom<i64>>(value: i64) -> Result<T, StoreError> {
    T::try_from(value)
        .map_err(|_| StoreError::Record(format!("a stored number ({value}) is out of its range")))
}

/// What a listening server hears on [`ROOMS_CHANNEL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoomNews {
    /// The room with this id was written at this version, and the room's JSON as written
    /// when it fitted in the notification.
    Written(String, u64, Option<String>),
    /// The listener connected again after a loss: any room may have changed meanwhile.
    Resync,
}

/// Listens on the database at `url` for every room written by any server and tells `heard`
/// of each, on a thread of its own, for as long as `heard` returns true; a lost connection is
/// made again (every second until it is), then told as [`RoomNews::Resync`]. Returns once
/// the listener listens (or could not connect within [`CONNECT_TIMEOUT`]: it goes on trying).
pub fn listen_for_rooms(
    url: &str,
    heard: impl Fn(RoomNews) -> bool + Send + 'static,
) -> Result<(), StoreError> {
    let config = config_of(url)?;
    let (ready, listening) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("rooms-listener".into())
        .spawn(move || {
            let mut first = true;
            loop {
                let connected = config.connect(NoTls).and_then(|mut client| {
                    client.batch_execute(&format!("LISTEN {ROOMS_CHANNEL}"))?;
                    Ok(client)
                });
                let Ok(mut client) = connected else {
                    std::thread::sleep(Duration::from_secs(1));
                    continue;
                };
                if first {
                    let _ = ready.send(());
                } else if !heard(RoomNews::Resync) {
                    return;
                }
                first = false;
                loop {
                    // Notifications as they come, for five seconds at a time; then the
                    // connection is looked at.
                    let mut lost = false;
                    {
                        let mut notifications = client.notifications();
                        let mut news = notifications.timeout_iter(Duration::from_secs(5));
                        loop {
                            match fallible_iterator::FallibleIterator::next(&mut news) {
                                Ok(Some(n)) => {
                                    let mut parts = n.payload().splitn(3, ' ');
                                    let (Some(id), Some(version)) = (parts.next(), parts.next())
                                    else {
                                        continue;
                                    };
                                    let version = version.parse().unwrap_or(0);
                                    let room = parts.next().map(str::to_string);
                                    if !heard(RoomNews::Written(id.to_string(), version, room)) {
                                        return;
                                    }
                                }
                                Ok(None) => break,
                                Err(_) => {
                                    lost = true;
                                    break;
                                }
                            }
                        }
                    }
                    if lost || client.is_closed() || client.simple_query("").is_err() {
                        break;
                    }
                }
            }
        })
        .map_err(|e| StoreError::CannotOpen {
            path: PathBuf::from("rooms-listener"),
            reason: e.to_string(),
        })?;
    let _ = listening.recv_timeout(CONNECT_TIMEOUT);
    Ok(())
}

/// Reads rooms from the database on a connection and thread of their own, beside the
/// store's writer: a server reads again the rooms other servers changed without waiting
/// behind its own writes. Requests that come while one is read are read together.
#[derive(Clone)]
pub struct RoomReader {
    requests: std::sync::mpsc::Sender<RoomRequest>,
}

/// A room asked of the [`RoomReader`], and where its answer goes.
type RoomRequest = (
    String,
    tokio::sync::oneshot::Sender<Result<Option<StoredRoom>, StoreError>>,
);

impl RoomReader {
    /// A reader of the rooms of the database at `url` (its connection made, and made again
    /// after a loss, on its own thread).
    pub fn start(url: &str) -> Result<RoomReader, StoreError> {
        let config = config_of(url)?;
        let (requests, asked) = std::sync::mpsc::channel::<RoomRequest>();
        std::thread::Builder::new()
            .name("rooms-reader".into())
            .spawn(move || {
                let mut client: Option<Client> = None;
                while let Ok(first) = asked.recv() {
                    let mut batch = vec![first];
                    batch.extend(asked.try_iter());
                    if client.as_ref().is_none_or(Client::is_closed) {
                        client = config.connect(NoTls).ok();
                    }
                    let Some(c) = client.as_mut() else {
                        for (_, answer) in batch {
                            let _ = answer.send(Err(StoreError::CannotOpen {
                                path: PathBuf::from("rooms-reader"),
                                reason: "the database cannot be reached".into(),
                            }));
                        }
                        continue;
                    };
                    let ids: Vec<&str> = batch.iter().map(|(id, _)| id.as_str()).collect();
                    let read: Result<Vec<StoredRoom>, StoreError> = c
                        .query(
                            "SELECT id, code, updated_ms, room, version FROM rooms \
                             WHERE id = ANY($1)",
                            &[&ids],
                        )
                        .map_err(StoreError::from)
                        .and_then(|rows| rows.iter().map(room_of).collect());
                    match read {
                        Ok(rooms) => {
                            for (id, answer) in batch {
                                let room = rooms.iter().find(|r| r.id == id).cloned();
                                let _ = answer.send(Ok(room));
                            }
                        }
                        Err(e) => {
                            let said = e.to_string();
                            for (_, answer) in batch {
                                let _ = answer.send(Err(StoreError::Record(said.clone())));
                            }
                        }
                    }
                }
            })
            .map_err(|e| StoreError::CannotOpen {
                path: PathBuf::from("rooms-reader"),
                reason: e.to_string(),
            })?;
        Ok(RoomReader { requests })
    }

    /// The room with id `id` as the database keeps it now.
    pub async fn room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        self.requests
            .send((id.to_string(), answer))
            .map_err(|_| StoreError::Record("the rooms reader has stopped".into()))?;
        answered
            .await
            .map_err(|_| StoreError::Record("the rooms reader has stopped".into()))?
    }
}
