//! The Xiangqi engine: search, move ordering, transposition table, evaluation, time
//! management, playing levels, the bench, and the UCI and UCCI protocols.

pub mod bench;
pub mod engine;
pub mod eval;
pub mod history;
pub mod levels;
pub mod limits;
pub mod movepick;
pub mod protocol;
pub mod score;
pub mod search;
pub mod see;
pub mod tt;
pub mod tune;

pub use engine::{Engine, EngineOptions, SearchRequest};
pub use limits::SearchLimits;
pub use search::{SearchInfo, SearchResult};
