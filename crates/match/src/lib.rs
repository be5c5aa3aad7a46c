//! Engine-versus-engine matches for Xiangqi.
//!
//! Engines are external programs speaking UCI or UCCI in the engine crate's protocol words;
//! this crate starts them ([`EngineSpec`], [`EngineLog`]) and drives them ([`Player`]). Our
//! rules crate judges every game ([`Arbiter`]): mate, stalemate (a loss), perpetual check and
//! chase under the Asian or CXQ rules, and the draw rules; an illegal move, a crash, a hang or
//! a time loss ([`Limits`]) loses for the engine at fault ([`Termination`]), and the match goes
//! on with a fresh process. [`play_game`] plays one game, [`run_match`] a whole match with
//! every opening ([`Opening`], made by [`generate_openings`]) played twice with colours
//! swapped. Results give Elo with its error and LOS ([`Tally`]), a pentanomial SPRT
//! ([`Sprt`]), a PGN file and the printed reports ([`progress_line`], [`summary`]). [`Spsa`]
//! tunes an engine's parameters by game pairs ([`play_step`]).

mod adjudication;
mod arbiter;
mod engine_spec;
mod game;
mod generate;
mod limits;
mod openings;
mod outcome;
mod pgn;
mod player;
mod process;
mod random;
mod report;
mod sprt;
mod spsa;
mod stats;
mod tournament;

pub use adjudication::{ScoreRule, ScoreRuleError};
pub use arbiter::{Arbiter, DrawRules, RuleSet};
pub use engine_spec::{EngineSpec, SpecError};
pub use game::{GameRecord, GameSettings, PlayedMove, play_game};
pub use generate::{
    GenerateError, GenerateSettings, GeneratedOpening, format_openings, generate_openings,
};
pub use limits::{Limits, TimeControl, TimeControlError, TimePart};
pub use openings::{Opening, OpeningsError, load_openings, parse_openings, shipped_openings};
pub use outcome::{GameEnd, GameResult, MoveFault, Termination, points_for};
pub use player::{Fault, Player, Thought};
pub use process::{EngineLog, ProcessEnd, SpawnError};
pub use random::SplitMix64;
pub use report::{progress_line, summary};
pub use sprt::{Sprt, SprtDecision, SprtError};
pub use spsa::{Perturbation, Spsa, SpsaError, SpsaParam, play_step};
pub use stats::{EloEstimate, Tally};
pub use tournament::{FinishedGame, MatchConfig, MatchError, Standing, run_match};
pub use xiangqi_engine::protocol::Dialect;
pub use xiangqi_rules::RankBase;
