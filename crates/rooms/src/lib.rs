//! Games between two people by link: a [`Room`] holds two seats, each held by a secret token,
//! and the game between them, judged move by move by the rules core, with clocks kept from
//! stamped times, offers (draw, take-back, rematch), resignation, a claim against a player
//! who stays away, and the result. The room decides; a server only carries its messages. A
//! [`Seek`] is an open challenge in the lobby, which becomes a room when accepted.
//!
//! A room is kept as its own JSON ([`Room::to_json`], [`Room::from_json`]); where it is kept
//! is not this crate's concern (the server keeps rooms in its archive, beside the games).

pub mod room;
pub mod seek;
pub mod token;

pub use room::{
    AWAY_GRACE_MS, Clocks, Ending, Offer, OfferKind, Player, Role, Room, RoomError, RoomResult,
    RoomSettings, Rules, SideChoice, Status, TimeControl, side_name,
};
pub use seek::{Matched, Seek, SeekError};
