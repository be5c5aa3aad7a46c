//! The Xiangqi engine: search, move ordering, transposition table, evaluation, time
//! management, playing levels, the bench, and the UCI and UCCI protocols.
//!
//! Measured figures — the level ladder, matches against fairy-stockfish, nps — are in
//! `docs/results.md`, each with its command and the `Bench:` signature it was taken at.
pub mod bench;
pub mod book;
mod correction;
pub mod datagen;
mod engine;
pub mod eval;
mod history;
pub mod levels;
mod limits;
pub mod memory;
mod movepick;
pub mod nnue;
pub mod protocol;
pub mod random;
pub mod score;
mod search;
mod see;
pub mod tablebase;
mod tt;
pub mod tune;

pub use engine::{Engine, EngineOptions, Evaluation, SearchRequest};
pub use limits::SearchLimits;
pub use search::params::SearchParams;
pub use search::{SearchInfo, SearchResult};
pub use see::SEE_VALUE;
