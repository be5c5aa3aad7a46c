//! A player's games kept in a SQLite database: games played in the app (saved from their
//! first move, updated with each change, finished with their result and reason) and games
//! imported from record files, with their review once made.
//!
//! - [`Archive`]: the database file, created and migrated when opened (schema version in
//!   `PRAGMA user_version`, see [`SCHEMA_VERSION`]), in WAL mode with a busy timeout so that
//!   several connections write without losing anything; save, update, finish, list with a
//!   [`Filter`], get, delete, export all as one PGN, import a record file's games.
//! - Each game is stored as its record in PGN (ICCS moves) written by `xiangqi_records`, so
//!   that comments, variations and review glyphs survive, with the fields a list filters and
//!   sorts on in their own columns.
//! - The opening trainer's progress: one [`TrainerCard`] per line, side and branch, saved
//!   and listed ([`Archive::trainer_cards`], [`Archive::save_trainer_card`]).
//! - The rooms of games between two people ([`StoredRoom`], [`Archive::put_rooms`],
//!   [`Archive::rooms_since`]), each kept whole as the room's JSON; an earlier version's
//!   rooms file is taken in once ([`Archive::adopt_rooms_file`]).
//! - [`ArchiveError`] says what is wrong and where: a folder that cannot be made, a file that
//!   is no database or is damaged, a schema newer than this program knows.

mod archive;
mod entry;
mod error;
mod rooms;
mod schema;
mod trainer;

pub use archive::{Archive, BUSY_TIMEOUT, PreparedImport, new_key};
pub use entry::{Filter, GameEntry, GameId, GameSummary, ImportReport, Level, Source, StoredGame};
pub use error::ArchiveError;
pub use rooms::{ADOPTED_SUFFIX, OLD_ROOMS_FILE, StoredRoom};
pub use schema::SCHEMA_VERSION;
pub use trainer::TrainerCard;
pub use xiangqi_records::GameResult;
