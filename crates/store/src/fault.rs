//! What the store tells the program that keeps it: why it is not there, why a write failed,
//! why a change is refused, and what happened to it on its own ([`Event`]), each typed.

use crate::error::{Reason, StoreError};
use std::fmt;

/// Why the store is not there: it was never opened (no data folder, a file that cannot be
/// opened), or it stopped while the program ran (its file damaged, deleted or replaced).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unavailable {
    /// What kind of failure.
    pub reason: Reason,
    /// The reason in English.
    pub message: String,
    /// The file or folder concerned, if any.
    pub path: Option<String>,
}

impl Unavailable {
    /// No store: the program was started without a data folder.
    pub fn off() -> Unavailable {
        Unavailable {
            reason: Reason::Off,
            message: "the server keeps no games: it was started without a data folder".into(),
            path: None,
        }
    }

    /// The store made unavailable by `error`.
    pub fn of(error: &StoreError) -> Unavailable {
        Unavailable {
            reason: error.reason(),
            message: error.to_string(),
            path: error.path().map(|p| p.display().to_string()),
        }
    }

    /// The store made unavailable by the damage `error` found in the file at `place`, with
    /// the advice to move the file aside.
    pub(crate) fn damaged(place: &str, error: &StoreError) -> Unavailable {
        match error {
            StoreError::Corrupt { .. } | StoreError::Gone { .. } => Unavailable::of(error),
            other => Unavailable::of(&StoreError::Corrupt {
                path: place.into(),
                reason: other.to_string(),
            }),
        }
    }
}

/// Why the last save of a game failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveFailure {
    /// What kind of failure: [`Reason::Deleted`] for a game deleted from the store, else
    /// what the database said.
    pub reason: Reason,
    /// The reason in English.
    pub message: String,
}

impl SaveFailure {
    pub(crate) fn of(error: &StoreError) -> SaveFailure {
        SaveFailure {
            reason: error.reason(),
            message: error.to_string(),
        }
    }
}

/// Why a change is refused: it cannot be kept now. The text says what the store met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// What the store met, in English.
    pub why: String,
}

impl Refusal {
    pub(crate) fn new(why: impl Into<String>) -> Refusal {
        Refusal { why: why.into() }
    }
}

/// Why a request run on the store did not answer.
#[derive(Debug)]
pub enum Failure {
    /// The store is not there, or no longer.
    Unavailable(Unavailable),
    /// The request failed.
    Failed(StoreError),
    /// The writer has stopped: the program is going.
    Stopped,
}

/// What the store did on its own, for the program to say on its output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Rooms kept by an earlier version in their own file were taken in.
    RoomsAdopted {
        /// How many.
        count: usize,
        /// Into which store.
        into: String,
    },
    /// The rooms file of an earlier version could not be taken in.
    RoomsNotAdopted(String),
    /// The store stopped for good while the program ran (damage, the file gone).
    Broken(Unavailable),
    /// Writes fail (a full disk, a read-only file, a lock held too long); changes are
    /// refused and the writer tries again until a write passes.
    Stalled(String),
    /// Writes pass again: changes are kept as before.
    Recovered,
    /// A game's save failed.
    GameNotSaved {
        /// The game's key.
        key: String,
        /// What the store said.
        error: String,
    },
    /// A batch of rooms could not be saved.
    RoomsNotSaved {
        /// How many rooms.
        count: usize,
        /// What the store said.
        error: String,
    },
    /// A game's review could not be saved.
    ReviewNotSaved {
        /// The game's key.
        key: String,
        /// What the store said.
        error: String,
    },
    /// A request or an import failed.
    RequestFailed(String),
}

impl Event {
    /// Whether it tells of a failure (for the error output).
    pub fn is_failure(&self) -> bool {
        !matches!(self, Event::RoomsAdopted { .. } | Event::Recovered)
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::RoomsAdopted { count, into } => {
                write!(f, "rooms: {count} rooms taken into {into}")
            }
            Event::RoomsNotAdopted(error) => write!(f, "rooms: {error}"),
            Event::Broken(why) => write!(f, "games archive: {}", why.message),
            Event::Stalled(error) => write!(
                f,
                "games archive: writes fail ({error}); trying again until they pass"
            ),
            Event::Recovered => write!(
                f,
                "games archive: writes pass again; changes are kept as before"
            ),
            Event::GameNotSaved { key, error } => {
                write!(
                    f,
                    "games archive: the game {key} could not be saved: {error}"
                )
            }
            Event::RoomsNotSaved { count, error } => {
                write!(f, "rooms: {count} rooms could not be saved: {error}")
            }
            Event::ReviewNotSaved { key, error } => write!(
                f,
                "games archive: the review of {key} could not be saved: {error}"
            ),
            Event::RequestFailed(error) => write!(f, "games archive: {error}"),
        }
    }
}
