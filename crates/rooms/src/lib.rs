//! Games between two people by link: a [`Room`] holds two seats, each held by a secret token,
//! and the game between them, judged move by move by the rules core, with clocks kept from
//! stamped times, offers (draw, take-back, rematch), resignation, a claim against a player
//! who stays away, and the result. The room decides; a server only carries its messages.
//!
//! Rooms are kept by a [`RoomStore`]: [`SqliteStore`] keeps them in a SQLite file, created
//! and migrated when opened, and [`MemoryStore`] in memory; [`Saver`] writes a store from a
//! thread of its own, so that a move never waits for a disk. Another store (one shared by
//! several servers) replaces them by implementing the trait.

pub mod room;
pub mod store;
pub mod token;

pub use room::{
    AWAY_GRACE_MS, Clocks, Ending, Offer, OfferKind, Role, Room, RoomError, RoomResult,
    RoomSettings, Rules, SideChoice, Status, TimeControl, side_name,
};
pub use store::{MemoryStore, ROOMS_FILE, RoomStore, Saver, SqliteStore, StoreError, StoredRoom};
