//! Everything the app keeps, behind one interface ([`Store`]) with one writer ([`Writer`]):
//! games played in the app (saved from their first move, updated with each change, finished
//! with their result and reason) and games imported from record files, with their review
//! once made; the rooms of games between two people; the opening trainer's cards and a
//! learner's progress ([`Progress`]); and, for a server hosted for many people, the accounts,
//! their sessions and invitation codes ([`Account`]). Every game, card and progress value has
//! an owner (empty for the one learner of the app on their own machine), and a request on
//! them names whose.
//!
//! - [`Store`]: every request on what is kept. [`SqliteStore`] is the embedded
//!   implementation: one database file, created and migrated when opened (schema version in
//!   `PRAGMA user_version`, see [`SCHEMA_VERSION`]; one migration path, tested from every
//!   earlier version), in WAL mode. Each game is stored as its record in PGN (ICCS moves)
//!   written by `xiangqi_records`, so that comments, variations and review glyphs survive,
//!   with the fields a list filters and sorts on in their own columns. Rooms are kept whole
//!   as their JSON ([`StoredRoom`]); an earlier version's rooms file is taken in once
//!   ([`SqliteStore::adopt_rooms_file`]). Trainer cards: [`TrainerCard`].
//! - [`Writer`]: the one thread that writes, in the order changes came, numbering each save
//!   so that the program answers a change only once it is committed; refusing changes while
//!   writes fail and recovering by itself; noticing a file deleted, replaced or overwritten.
//! - Typed failures: [`StoreError`] (what went wrong and where) with its [`Reason`];
//!   [`Unavailable`], [`Refusal`], [`SaveFailure`], [`Failure`] and the [`Event`]s the
//!   writer reports.
//! - [`PostgresStore`]: the same on a PostgreSQL server, for several servers sharing one
//!   database (`xiangqi serve --database postgres://…`); its own schema versions
//!   ([`POSTGRES_SCHEMA_VERSION`]).
//! - [`conformance`] (feature `conformance`): the checks every implementation of [`Store`]
//!   passes, and [`temp_postgres`], a real PostgreSQL server of a test's own.

mod accounts;
#[cfg(feature = "conformance")]
pub mod conformance;
mod entry;
mod error;
mod fault;
mod game_row;
mod postgres;
mod postgres_schema;
mod progress;
mod ratings;
mod rooms;
mod rows;
mod schema;
mod sqlite;
mod store;
#[cfg(feature = "conformance")]
pub mod temp_postgres;
mod trainer;
mod watch;
mod writer;

pub use accounts::{Account, AccountChange, AccountId, Created, NewAccount, account_owner};
pub use entry::{Filter, GameEntry, GameId, GameSummary, ImportReport, Level, Source, StoredGame};
pub use error::{Reason, StoreError};
pub use fault::{Event, Failure, Refusal, SaveFailure, Unavailable};
pub use game_row::{PreparedImport, new_key};
pub use postgres::{
    PostgresStore, ROOMS_CHANNEL, RoomNews, RoomReader, listen_for_rooms, shown_url,
};
pub use postgres_schema::POSTGRES_SCHEMA_VERSION;
pub use progress::Progress;
pub use ratings::{RateFn, RatedGame, RatedResult, StoredRating};
pub use rooms::{ADOPTED_SUFFIX, OLD_ROOMS_FILE, StoredRoom};
pub use rows::RowState;
pub use schema::SCHEMA_VERSION;
pub use sqlite::{BUSY_TIMEOUT, SqliteStore};
pub use store::Store;
pub use trainer::TrainerCard;
pub use writer::{EntryOf, IMPORT_SLICE, Report, STORE_FILE, WRITE_WAIT, Writer};
pub use xiangqi_records::GameResult;
