//! A side's moves in sum: accuracy and how many moves fell in each class.

use super::MoveReview;
use super::model::Class;
use std::fmt;

/// One side's moves in sum.
#[derive(Clone, Debug, PartialEq)]
pub struct SideSummary {
    /// Moves made.
    pub moves: usize,
    /// Mean accuracy of the moves in percent ([`super::model::move_accuracy`]); 100 with
    /// no move.
    pub accuracy: f64,
    /// Moves of each class, in the order of [`Class::ALL`].
    pub counts: [usize; 6],
}

impl SideSummary {
    /// The summary of `moves` (one side's).
    pub fn of<'a>(moves: impl IntoIterator<Item = &'a MoveReview>) -> SideSummary {
        let mut counts = [0; 6];
        let mut total = 0.0;
        let mut n = 0;
        for m in moves {
            counts[class_index(m.class)] += 1;
            total += m.accuracy();
            n += 1;
        }
        SideSummary {
            moves: n,
            accuracy: if n == 0 { 100.0 } else { total / n as f64 },
            counts,
        }
    }

    /// How many moves fell in `class`.
    pub fn count(&self, class: Class) -> usize {
        self.counts[class_index(class)]
    }
}

fn class_index(class: Class) -> usize {
    Class::ALL.iter().position(|&c| c == class).unwrap_or(0)
}

impl fmt::Display for SideSummary {
    /// `accuracy 87.3%  best 12  excellent 5  good 3  inaccuracy 2  mistake 1  blunder 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "accuracy {:.1}%", self.accuracy)?;
        for class in Class::ALL {
            write!(f, "  {class} {}", self.count(class))?;
        }
        Ok(())
    }
}
