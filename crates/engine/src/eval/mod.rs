//! Static evaluation behind one interface, so a learned evaluation can replace the
//! handcrafted one.

pub mod features;
mod handcrafted;
pub mod params;
pub mod weights;

pub use handcrafted::HandcraftedEval;
pub use params::EvalParams;

use crate::score::Score;
use xiangqi_rules::Position;

/// Scores a quiet position from the side to move's view, in centipawns.
pub trait Evaluator: Send + Sync {
    /// The score of `pos` for the side to move.
    fn evaluate(&self, pos: &Position) -> Score;
}
