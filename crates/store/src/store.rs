//! The one interface to everything the app keeps. [`SqliteStore`](crate::SqliteStore) is the
//! embedded implementation, [`PostgresStore`](crate::PostgresStore) the one for several
//! servers; both pass the same [conformance checks](crate::conformance).

use crate::accounts::{Account, AccountChange, AccountId, Created, NewAccount};
use crate::entry::{Filter, GameEntry, GameId, GameSummary, ImportReport, StoredGame};
use crate::error::StoreError;
use crate::game_row::PreparedImport;
use crate::progress::Progress;
use crate::ratings::{RateFn, RatedGame, RatedResult, StoredRating};
use crate::rooms::StoredRoom;
use crate::trainer::TrainerCard;
use std::time::Duration;
use xiangqi_records::Collection;
use xiangqi_rules::notation::Notation;

/// What the app keeps: games (played and imported, with their reviews), rooms, the trainer's
/// cards and a learner's progress. Every write is committed when it returns `Ok`.
pub trait Store: Send {
    /// Saves `entry`: a new row, or the row saved under its key before (keeping when it was
    /// created, where it came from and its review). Its row. A key deleted before is refused
    /// ([`StoreError::Deleted`]).
    fn save(&mut self, entry: &GameEntry) -> Result<GameId, StoreError>;

    /// Keeps `review` (JSON text) with game `id`; whether the row exists.
    fn set_review(&mut self, id: GameId, review: &str) -> Result<bool, StoreError>;

    /// The row saved under `key`, if any, whoever owns it.
    fn id_of_key(&self, key: &str) -> Result<Option<GameId>, StoreError>;

    /// The games `filter` chooses, newest date first (then the last created first).
    fn list(&self, filter: &Filter) -> Result<Vec<GameSummary>, StoreError>;

    /// How many games `filter` chooses, its limit and offset aside.
    fn count_matching(&self, filter: &Filter) -> Result<usize, StoreError>;

    /// Game `id`, whole, when `owner` owns it.
    fn get(&self, owner: &str, id: GameId) -> Result<Option<StoredGame>, StoreError>;

    /// Deletes game `id` when `owner` owns it, keeping its key as deleted so that no later
    /// save brings it back; whether it was deleted.
    fn delete(&mut self, owner: &str, id: GameId) -> Result<bool, StoreError>;

    /// How many games `owner` keeps.
    fn count(&self, owner: &str) -> Result<usize, StoreError>;

    /// Every game of `owner` as one PGN file, oldest first, moves in `notation`: each record
    /// as it was stored (tags, comments, variations, result).
    fn export_pgn(&self, owner: &str, notation: Notation) -> Result<String, StoreError>;

    /// Adds the next games of `prepared` in one transaction: at most `most` of them, and no
    /// more once `budget` has passed (one game at least), so that a large import can be
    /// written a part at a time between other writes. Whether games are left; the games
    /// added so far are in [`PreparedImport::report`].
    fn import_some(
        &mut self,
        prepared: &mut PreparedImport,
        most: usize,
        budget: Duration,
    ) -> Result<bool, StoreError>;

    /// Adds the games of a record file read into `collection` to `owner`'s, in one
    /// transaction: each game that was read becomes a row (source `imported`, players, date and opening from its
    /// tags); the games that could not be read are reported, not added.
    fn import(&mut self, collection: Collection, owner: &str) -> Result<ImportReport, StoreError> {
        let mut prepared = PreparedImport::of(collection, owner)?;
        self.import_some(&mut prepared, usize::MAX, Duration::MAX)?;
        Ok(prepared.into_report())
    }

    /// Keeps `rooms`, all or none, each replacing the room of its id (a room stamped earlier
    /// than the one kept does not replace it).
    fn put_rooms(&mut self, rooms: &[StoredRoom]) -> Result<(), StoreError>;

    /// Keeps each room of `rooms` (with the version it must be kept over) in one
    /// transaction: a room replaces the one kept under its id only when that one is at the
    /// version named (or there is none); the ids of the rooms kept at another version (another
    /// server changed them meanwhile), which are not written. Servers sharing the store are
    /// told of each room written.
    fn put_rooms_checked(&mut self, rooms: &[(StoredRoom, u64)])
    -> Result<Vec<String>, StoreError>;

    /// The room with short code `code` (the latest, should two rooms have had it).
    fn room_with_code(&self, code: &str) -> Result<Option<StoredRoom>, StoreError>;

    /// Every room that changed at or after `since_ms`.
    fn rooms_since(&self, since_ms: u64) -> Result<Vec<StoredRoom>, StoreError>;

    /// The room with id `id`.
    fn room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError>;

    /// Every trainer card of `owner`, by line, side and branch.
    fn trainer_cards(&self, owner: &str) -> Result<Vec<TrainerCard>, StoreError>;

    /// Saves `owner`'s `card`, replacing what was kept for its line, side and branch.
    fn save_trainer_card(&mut self, owner: &str, card: &TrainerCard) -> Result<(), StoreError>;

    /// Every value of `owner`'s progress in `topic`, by key.
    fn progress(&self, owner: &str, topic: &str) -> Result<Vec<Progress>, StoreError>;

    /// Every value of `owner`'s progress, by topic and key.
    fn all_progress(&self, owner: &str) -> Result<Vec<Progress>, StoreError>;

    /// Saves `value`, replacing what was kept for its owner, topic and key unless that was
    /// saved later.
    fn save_progress(&mut self, value: &Progress) -> Result<(), StoreError>;

    /// Makes an account (and uses up its invitation code), unless its name is taken or the
    /// code is not one that can be used.
    fn create_account(&mut self, new: &NewAccount) -> Result<Created, StoreError>;

    /// The account whose name has the key `name_key` (lower case).
    fn account_named(&self, name_key: &str) -> Result<Option<Account>, StoreError>;

    /// Account `id`.
    fn account(&self, id: AccountId) -> Result<Option<Account>, StoreError>;

    /// Every account, by name.
    fn accounts(&self) -> Result<Vec<Account>, StoreError>;

    /// Changes account `id`; whether it exists.
    fn change_account(&mut self, id: AccountId, change: &AccountChange)
    -> Result<bool, StoreError>;

    /// Deletes account `id` with its sessions and everything it owns (games, trainer cards,
    /// progress), all or none; whether it existed.
    fn delete_account(&mut self, id: AccountId) -> Result<bool, StoreError>;

    /// Opens a session for account `id`, kept as its token's hash.
    fn open_session(
        &mut self,
        token_hash: &str,
        id: AccountId,
        now_ms: i64,
    ) -> Result<(), StoreError>;

    /// The account of the session whose token has `token_hash`, and when the session was
    /// opened.
    fn session(&self, token_hash: &str) -> Result<Option<(Account, i64)>, StoreError>;

    /// Closes one session; whether it was open.
    fn close_session(&mut self, token_hash: &str) -> Result<bool, StoreError>;

    /// Closes every session of account `id`; how many were open.
    fn close_sessions(&mut self, id: AccountId) -> Result<usize, StoreError>;

    /// Keeps an invitation code, as its hash, for one account to be made with.
    fn add_invite(&mut self, code_hash: &str, now_ms: i64) -> Result<(), StoreError>;

    /// Gives everything `from` owns to `to` (what a guest did, to the account they make),
    /// all or none: what `to` already has of a trainer card or a progress value is kept.
    /// How many things moved.
    fn reown(&mut self, from: &str, to: &str) -> Result<usize, StoreError>;

    /// Account `id`'s ratings, by speed.
    fn ratings(&self, id: AccountId) -> Result<Vec<StoredRating>, StoreError>;

    /// Records a rated game and both players' new ratings (as `rate` makes them from the
    /// ratings kept), all or none; `None` when the game was recorded before (it counts once).
    fn record_rated_game(
        &mut self,
        game: &RatedResult,
        rate: RateFn<'_>,
    ) -> Result<Option<RatedGame>, StoreError>;

    /// Account `id`'s last `most` rated games, the latest first.
    fn rated_games(&self, id: AccountId, most: usize) -> Result<Vec<RatedGame>, StoreError>;

    /// Whether the store can be written now: a write that changes nothing in the end,
    /// failing as a real write would (a full disk, a read-only file, a lock held too long).
    fn probe_write(&mut self) -> Result<(), StoreError>;

    /// Makes what was written durable in the store's main file (for SQLite: copies the
    /// write-ahead log into the file, as far as no reader needs it).
    fn checkpoint(&mut self) -> Result<(), StoreError>;

    /// Whether the store is still the one opened, as its writer left it: for a file,
    /// [`StoreError::Gone`] when it was deleted, replaced or written by another program,
    /// [`StoreError::Corrupt`] when it was emptied.
    fn intact(&self) -> Result<(), StoreError>;

    /// Spends one token of the bucket `kind`/`key` at `now_ms`: a bucket holds `burst`
    /// tokens and gains one every `every_ms` (fractions count). `None` when one was spent,
    /// else the milliseconds until the next comes. Servers sharing a store share their
    /// limits through it.
    fn take_token(
        &mut self,
        kind: &str,
        key: &str,
        burst: u32,
        every_ms: u64,
        now_ms: i64,
    ) -> Result<Option<u64>, StoreError>;

    /// Keeps how many sockets the holder of the seat `token` in room `room` has open on the
    /// server `server` at `now_ms` (0: none, and the row goes).
    fn set_presence(
        &mut self,
        room: &str,
        token: &str,
        server: &str,
        sockets: u32,
        now_ms: i64,
    ) -> Result<(), StoreError>;

    /// The heartbeat of server `server` at `now_ms`: its presences are seen again, and those
    /// of servers not seen for an hour go.
    fn touch_presence(&mut self, server: &str, now_ms: i64) -> Result<(), StoreError>;

    /// Whether the holder of the seat `token` in room `room` has a socket open on a server
    /// other than `server` that was seen at or after `since_ms`.
    fn present_elsewhere(
        &self,
        room: &str,
        token: &str,
        server: &str,
        since_ms: i64,
    ) -> Result<bool, StoreError>;

    /// Whether several servers may share the store (each then keeps its limits in it).
    fn shared(&self) -> bool {
        false
    }

    /// Where the store is, for messages: the file, or the server.
    fn describe(&self) -> String;
}

/// How long the presences of a server not seen are kept before they go (an hour).
pub(crate) const PRESENCE_FORGOTTEN_MS: i64 = 3_600_000;

/// A token bucket's count at `now_ms`, holding `tokens` at `at_ms`, as
/// [`Store::take_token`] counts it: the tokens now (at most `burst`), and after a take, the
/// tokens left or the milliseconds until the next.
pub(crate) fn bucket_take(
    tokens: f64,
    at_ms: i64,
    burst: u32,
    every_ms: u64,
    now_ms: i64,
) -> (f64, Option<u64>) {
    let every = every_ms.max(1) as f64;
    let now = (tokens + (now_ms - at_ms).max(0) as f64 / every).min(f64::from(burst.max(1)));
    if now >= 1.0 {
        (now - 1.0, None)
    } else {
        (now, Some(((1.0 - now) * every).ceil() as u64))
    }
}
