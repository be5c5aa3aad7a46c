//! Training data for the learned evaluation: the engine plays itself at a node budget and
//! writes each finished game — start, moves, search scores, result — to a compact file.

pub mod adjudication;
pub mod format;
pub mod run;
pub mod selfplay;

pub use adjudication::{AdjudicationRules, Adjudicator};
pub use format::{DataError, DataErrorKind, DataReader, GameRecord, write_game, write_header};
pub use run::{Event, RunError, RunSettings, Tally, Target, open_output, run};
pub use selfplay::{SelfPlayError, SelfPlaySettings, play_game};
