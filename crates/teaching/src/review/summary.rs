//! A side's moves in sum: accuracy and how many moves fell in each class.

use super::MoveReview;
use super::model::Class;
use std::fmt;

/// One side's moves in sum.
#[derive(Clone, Debug, PartialEq)]
pub struct SideSummary {
    /// Moves made.
    pub moves: usize,
    /// Accuracy in percent ([`accuracy_of`]); 100 with no move.
    pub accuracy: f64,
    /// Moves of each class, in the order of [`Class::ALL`].
    pub counts: [usize; 7],
}

impl SideSummary {
    /// The summary of `moves` (one side's).
    pub fn of<'a>(moves: impl IntoIterator<Item = &'a MoveReview>) -> SideSummary {
        let mut counts = [0; 7];
        let mut accuracies = Vec::new();
        for m in moves {
            counts[class_index(m.class)] += 1;
            accuracies.push(m.accuracy());
        }
        SideSummary {
            moves: accuracies.len(),
            accuracy: accuracy_of(&accuracies),
            counts,
        }
    }

    /// How many moves fell in `class`.
    pub fn count(&self, class: Class) -> usize {
        self.counts[class_index(class)]
    }
}

/// Per-move accuracies below this count as this much in the harmonic mean, so that one
/// move thrown away weighs heavily without wiping out the rest.
pub const HARMONIC_FLOOR: f64 = 10.0;

/// A side's accuracy from its moves' accuracies (percent): the mean of their arithmetic mean
/// and their harmonic mean (each counted at least [`HARMONIC_FLOOR`]); 100 with no move. The
/// arithmetic mean alone lets many easy moves hide the one that lost: once a side is lost,
/// every move it makes loses nothing more and counts 100. The harmonic mean is pulled down
/// by the bad moves, so that a game thrown away by one blunder shows it: forty perfect moves
/// and one at 0 give 97.6 as a plain mean and 89.8 here.
pub fn accuracy_of(accuracies: &[f64]) -> f64 {
    if accuracies.is_empty() {
        return 100.0;
    }
    let n = accuracies.len() as f64;
    let mean = accuracies.iter().sum::<f64>() / n;
    let harmonic = n / accuracies
        .iter()
        .map(|a| 1.0 / a.max(HARMONIC_FLOOR))
        .sum::<f64>();
    (mean + harmonic) / 2.0
}

fn class_index(class: Class) -> usize {
    Class::ALL.iter().position(|&c| c == class).unwrap_or(0)
}

impl fmt::Display for SideSummary {
    /// `accuracy 87.3%  only 1  best 12  excellent 5  good 3  inaccuracy 2  mistake 1
    /// blunder 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "accuracy {:.1}%", self.accuracy)?;
        for class in Class::ALL {
            write!(f, "  {class} {}", self.count(class))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_thrown_away_move_shows_in_the_accuracy() {
        assert_eq!(accuracy_of(&[]), 100.0);
        assert!((accuracy_of(&[100.0; 3]) - 100.0).abs() < 1e-9);
        let mut moves = vec![100.0; 40];
        moves.push(0.0);
        let plain = moves.iter().sum::<f64>() / moves.len() as f64;
        let side = accuracy_of(&moves);
        assert!((plain - 97.56).abs() < 0.01);
        assert!((side - 89.8).abs() < 0.1, "{side}");
        // Worse moves never raise it.
        moves.push(50.0);
        assert!(accuracy_of(&moves) < side);
    }
}
