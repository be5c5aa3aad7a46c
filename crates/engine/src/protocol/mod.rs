//! The UCI and UCCI protocols: one set of words for the engine and for the match runner that
//! drives other engines — the dialects ([`Dialect`]), the commands a GUI writes
//! ([`Command`], with [`PositionCommand`] and [`GoParams`]), the lines an engine writes
//! ([`Reply`], with [`Info`] and [`BestMove`]), and scores as `cp N` / `mate N`
//! ([`Reported`]). Every word reads and writes both ways; moves go through the rules
//! crate's coordinate reader and writer with ranks numbered 0–9 or 1–10 ([`RankBase`]).
//! [`Session`] is this engine's end of the conversation.
//!
//! [`RankBase`]: xiangqi_rules::RankBase

mod command;
mod dialect;
mod go;
mod info;
mod position;
mod reply;
mod score;
mod session;

pub use command::{Command, CommandError};
pub use dialect::{Dialect, UnknownDialect};
pub use go::{GoError, GoParams};
pub use info::{Info, ScoreBound};
pub use position::{ParsedPosition, PositionCommand, PositionError};
pub use reply::{BestMove, OptionDecl, OptionKind, Reply, ReplyError};
pub use score::{MATE_CENTIPAWNS, Reported};
pub use session::{ENGINE_NAME, Output, Session, run_stdio};
