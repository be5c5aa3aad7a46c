//! The one interface to everything the app keeps. [`SqliteStore`](crate::SqliteStore) is the
//! embedded implementation; another database implements the same trait and passes the same
//! [conformance checks](crate::conformance).

use crate::entry::{Filter, GameEntry, GameId, GameSummary, ImportReport, StoredGame};
use crate::error::StoreError;
use crate::progress::Progress;
use crate::rooms::StoredRoom;
use crate::sqlite::PreparedImport;
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

    /// The row saved under `key`, if any.
    fn id_of_key(&self, key: &str) -> Result<Option<GameId>, StoreError>;

    /// The games `filter` chooses, newest date first (then the last created first).
    fn list(&self, filter: &Filter) -> Result<Vec<GameSummary>, StoreError>;

    /// How many games `filter` chooses, its limit and offset aside.
    fn count_matching(&self, filter: &Filter) -> Result<usize, StoreError>;

    /// Game `id`, whole.
    fn get(&self, id: GameId) -> Result<Option<StoredGame>, StoreError>;

    /// Deletes game `id`, keeping its key as deleted so that no later save brings it back;
    /// whether it existed.
    fn delete(&mut self, id: GameId) -> Result<bool, StoreError>;

    /// How many games are kept.
    fn count(&self) -> Result<usize, StoreError>;

    /// Every game as one PGN file, oldest first, moves in `notation`: each record as it was
    /// stored (tags, comments, variations, result).
    fn export_pgn(&self, notation: Notation) -> Result<String, StoreError>;

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

    /// Adds the games of a record file read into `collection`, in one transaction: each game
    /// that was read becomes a row (source `imported`, players, date and opening from its
    /// tags); the games that could not be read are reported, not added.
    fn import(&mut self, collection: Collection) -> Result<ImportReport, StoreError> {
        let mut prepared = PreparedImport::of(collection)?;
        self.import_some(&mut prepared, usize::MAX, Duration::MAX)?;
        Ok(prepared.into_report())
    }

    /// Keeps `rooms`, all or none, each replacing the room of its id (a room stamped earlier
    /// than the one kept does not replace it).
    fn put_rooms(&mut self, rooms: &[StoredRoom]) -> Result<(), StoreError>;

    /// Every room that changed at or after `since_ms`.
    fn rooms_since(&self, since_ms: u64) -> Result<Vec<StoredRoom>, StoreError>;

    /// The room with id `id`.
    fn room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError>;

    /// Every trainer card, by line, side and branch.
    fn trainer_cards(&self) -> Result<Vec<TrainerCard>, StoreError>;

    /// Saves `card`, replacing what was kept for its line, side and branch.
    fn save_trainer_card(&mut self, card: &TrainerCard) -> Result<(), StoreError>;

    /// Every value of `owner`'s progress in `topic`, by key.
    fn progress(&self, owner: &str, topic: &str) -> Result<Vec<Progress>, StoreError>;

    /// Saves `value`, replacing what was kept for its owner, topic and key unless that was
    /// saved later.
    fn save_progress(&mut self, value: &Progress) -> Result<(), StoreError>;

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

    /// Where the store is, for messages: the file, or the server.
    fn describe(&self) -> String;
}
