//! Training positions held compactly in memory: each position's active features for the side
//! to move and for the other side (`u16` each, at most 32 per perspective), its search score
//! and the game's result, both from the side to move's view.

use crate::rng::Rng;
use xiangqi_engine::nnue::{INPUTS, PALACE_BUCKETS};

/// Input indices of the largest network: every palace bucket's.
const MAX_INPUTS: usize = PALACE_BUCKETS * INPUTS;

/// The most pieces on the board, hence the most active features per perspective.
pub const MAX_FEATURES: usize = 32;

/// A game result from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wdl {
    /// The side to move lost the game.
    Loss,
    /// The game was drawn.
    Draw,
    /// The side to move won the game.
    Win,
}

impl Wdl {
    /// 0, 0.5 or 1: the result as the training target uses it.
    pub fn value(self) -> f32 {
        match self {
            Wdl::Loss => 0.0,
            Wdl::Draw => 0.5,
            Wdl::Win => 1.0,
        }
    }
}

/// One training position, 132 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainingPosition {
    /// The side to move's features in `[0, count)`, the other side's in `[32, 32 + count)`.
    features: [u16; 2 * MAX_FEATURES],
    count: u8,
    /// The search score in centipawns, from the side to move's view.
    pub score: i16,
    /// The game's result, from the side to move's view.
    pub outcome: Wdl,
}

/// Why a position's features cannot be stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FeatureError {
    /// The two perspectives list different numbers of pieces.
    CountMismatch {
        /// Features for the side to move.
        side_to_move: usize,
        /// Features for the other side.
        other: usize,
    },
    /// More than [`MAX_FEATURES`] pieces.
    TooMany(usize),
    /// A feature index at or above the largest network's input count.
    OutOfRange(usize),
}

impl std::fmt::Display for FeatureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FeatureError::CountMismatch {
                side_to_move,
                other,
            } => write!(
                f,
                "{side_to_move} features for the side to move but {other} for the other side"
            ),
            FeatureError::TooMany(n) => write!(f, "{n} features, more than {MAX_FEATURES}"),
            FeatureError::OutOfRange(i) => write!(f, "feature index {i} is not below {MAX_INPUTS}"),
        }
    }
}

impl std::error::Error for FeatureError {}

impl TrainingPosition {
    /// A position from its active features for the side to move and the other side.
    pub fn new(
        side_to_move: &[usize],
        other: &[usize],
        score: i16,
        outcome: Wdl,
    ) -> Result<TrainingPosition, FeatureError> {
        if side_to_move.len() != other.len() {
            return Err(FeatureError::CountMismatch {
                side_to_move: side_to_move.len(),
                other: other.len(),
            });
        }
        if side_to_move.len() > MAX_FEATURES {
            return Err(FeatureError::TooMany(side_to_move.len()));
        }
        let mut features = [0u16; 2 * MAX_FEATURES];
        for (slot, &index) in features.iter_mut().zip(side_to_move) {
            *slot = checked_index(index)?;
        }
        for (slot, &index) in features[MAX_FEATURES..].iter_mut().zip(other) {
            *slot = checked_index(index)?;
        }
        Ok(TrainingPosition {
            features,
            count: side_to_move.len() as u8,
            score,
            outcome,
        })
    }

    /// The side to move's active features.
    pub fn side_to_move(&self) -> &[u16] {
        &self.features[..self.count as usize]
    }

    /// The other side's active features.
    pub fn other(&self) -> &[u16] {
        &self.features[MAX_FEATURES..MAX_FEATURES + self.count as usize]
    }
}

fn checked_index(index: usize) -> Result<u16, FeatureError> {
    if index < MAX_INPUTS {
        Ok(index as u16)
    } else {
        Err(FeatureError::OutOfRange(index))
    }
}

/// Positions split into a training set and a held-out validation set.
#[derive(Clone, Debug, Default)]
pub struct Split {
    /// Positions trained on.
    pub train: Vec<TrainingPosition>,
    /// Positions only measured, never trained on.
    pub validation: Vec<TrainingPosition>,
}

/// Whether the game numbered `game` goes to the validation set: about `fraction` of games do,
/// drawn from `seed`. Whole games are held out, since positions of one game are alike.
pub fn is_validation_game(seed: u64, game: u64, fraction: f64) -> bool {
    let draw = Rng::new(seed ^ game.wrapping_mul(0xa076_1d64_78bd_642f)).next_u64();
    (draw >> 11) as f64 / (1u64 << 53) as f64 <= fraction && fraction > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_come_back_per_perspective() {
        let p = TrainingPosition::new(&[1, 2, 1259], &[3, 4, 5], -37, Wdl::Win).unwrap();
        assert_eq!(p.side_to_move(), &[1, 2, 1259]);
        assert_eq!(p.other(), &[3, 4, 5]);
        assert_eq!(p.score, -37);
        assert_eq!(p.outcome.value(), 1.0);
    }

    #[test]
    fn bad_feature_lists_are_refused() {
        assert!(matches!(
            TrainingPosition::new(&[1], &[1, 2], 0, Wdl::Draw),
            Err(FeatureError::CountMismatch { .. })
        ));
        assert_eq!(
            TrainingPosition::new(&[MAX_INPUTS], &[0], 0, Wdl::Draw),
            Err(FeatureError::OutOfRange(MAX_INPUTS))
        );
        let many: Vec<usize> = (0..33).collect();
        assert_eq!(
            TrainingPosition::new(&many, &many, 0, Wdl::Draw),
            Err(FeatureError::TooMany(33))
        );
    }

    #[test]
    fn validation_split_takes_about_its_fraction_of_games() {
        let held = (0..10_000)
            .filter(|&g| is_validation_game(5, g, 0.1))
            .count();
        assert!((800..1200).contains(&held), "{held} of 10000 held out");
        assert_eq!(
            (0..1000).filter(|&g| is_validation_game(5, g, 0.0)).count(),
            0
        );
    }
}
