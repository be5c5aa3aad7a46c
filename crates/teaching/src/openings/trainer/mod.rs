//! The opening trainer: lines of the ECCO openings that a learner plays from one side while
//! the app plays the other ([`lines`], data in `crates/teaching/openings/trainer.tsv`), the
//! walk along a line with its branches and the naming of a move that leaves it ([`walk`]),
//! and the spaced-repetition schedule of the cards, one per line, side and branch
//! ([`schedule`]).

pub mod lines;
pub mod schedule;
pub mod walk;

pub use lines::{Branch, TrainerLine, line, lines};
pub use schedule::{CardState, Run, next_card};
pub use walk::{Deviation, Step, WalkError};
