//! Engine-versus-engine matches for Xiangqi.
//!
//! Engines are external programs speaking UCI or UCCI ([`engine_spec`], [`process`],
//! [`protocol`], [`player`]). Our rules crate judges every game ([`arbiter`]): mate,
//! stalemate (a loss), perpetual check and chase under the Asian or CXQ rules, and the draw
//! rules; an illegal move, a crash, a hang or a time loss ([`limits`]) loses for the engine
//! at fault ([`outcome`]), and the match goes on with a fresh process. [`game`] plays one game, [`tournament`] a whole match with every
//! opening ([`openings`], made by [`generate`]) played twice with colours swapped. Results
//! give Elo with its error and LOS ([`stats`]), a pentanomial SPRT ([`sprt`]), a PGN file
//! ([`pgn`]) and the printed reports ([`report`]).

pub mod adjudication;
pub mod arbiter;
pub mod engine_spec;
pub mod game;
pub mod generate;
pub mod limits;
pub mod openings;
pub mod outcome;
pub mod pgn;
pub mod player;
pub mod process;
pub mod protocol;
pub mod random;
pub mod report;
pub mod sprt;
pub mod stats;
pub mod tournament;

pub use arbiter::{Arbiter, DrawRules, RuleSet};
pub use engine_spec::{EngineSpec, Protocol, RankBase};
pub use game::{GameRecord, GameSettings, play_game};
pub use limits::{Limits, TimeControl};
pub use openings::Opening;
pub use outcome::{GameResult, Outcome, Termination};
pub use sprt::Sprt;
pub use stats::Tally;
pub use tournament::{MatchConfig, Standing, run_match};
