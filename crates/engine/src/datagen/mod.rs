//! Training data for the learned evaluation: the engine plays itself at a node budget and
//! writes each finished game — start, moves, search scores, result — to a compact file.

pub mod format;

pub use format::{DataError, DataErrorKind, DataReader, GameRecord, write_game, write_header};
