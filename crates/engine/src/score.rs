//! Search scores: centipawns from the side to move's view, and mate distances; and the form
//! in which scores leave the engine ([`Reported`]).

use std::ops::Neg;
use xiangqi_rules::Color;

/// A score in centipawns from the point of view of the side to move.
pub type Score = i32;

/// Larger than any score.
pub const INFINITE: Score = 32_000;
/// The score of delivering mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: Score = 31_000;
/// Scores beyond this magnitude are mate scores.
pub const MATE_BOUND: Score = MATE - 1_000;
/// A draw.
pub const DRAW: Score = 0;

/// The score for the side to move when it mates in `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> Score {
    MATE - ply as Score
}

/// The score for the side to move when it is mated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> Score {
    -MATE + ply as Score
}

/// Whether `score` announces a mate for either side.
#[inline]
pub const fn is_mate(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// Converts a score found `ply` plies from the root into one relative to the node, for the
/// transposition table.
#[inline]
pub const fn to_table(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// Converts a score read from the transposition table back to one relative to the root.
#[inline]
pub const fn from_table(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

/// A score as it leaves the engine: centipawns, or a mate counted in moves, from one side's
/// point of view — the side to move's, unless turned with [`Reported::for_red`] or negation.
///
/// Search results, progress reports, hints and the protocols give scores in this form, never
/// the search's raw numbers: how the search encodes a mate ([`MATE`] less the plies) is its
/// own business. The protocols write it as `cp N` / `mate N`; with the `serde` feature it
/// is written as `{"cp": n}` / `{"mate": n}`.
///
/// Scores compare by how good they are for the side: a mate beyond every centipawn score, a
/// quicker mate better, a later mate against it better than an earlier one (as
/// [`Reported::centipawns`] counts them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Reported {
    /// Centipawns; positive when the side is better.
    Cp(i32),
    /// Mate in this many moves of the side's own, positive when the side mates and negative
    /// when it is mated; 0 when the side to move is already mated (a root without a legal
    /// move).
    Mate(i32),
}

impl Reported {
    /// The search's `score` for the side to move: mates counted in moves (the mating side's
    /// plies rounded up).
    pub fn from_search(score: Score) -> Reported {
        if score >= MATE_BOUND {
            Reported::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Reported::Mate((-MATE - score) / 2)
        } else {
            Reported::Cp(score)
        }
    }

    /// This score, given for `side_to_move`, from Red's point of view.
    pub fn for_red(self, side_to_move: Color) -> Reported {
        match side_to_move {
            Color::Red => self,
            Color::Black => -self,
        }
    }

    /// Whether the score announces a mate for either side.
    pub fn is_mate(self) -> bool {
        matches!(self, Reported::Mate(_))
    }
}

impl Ord for Reported {
    fn cmp(&self, other: &Reported) -> std::cmp::Ordering {
        self.centipawns().cmp(&other.centipawns())
    }
}

impl PartialOrd for Reported {
    fn partial_cmp(&self, other: &Reported) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Neg for Reported {
    type Output = Reported;

    /// The same score from the other side's point of view.
    fn neg(self) -> Reported {
        match self {
            Reported::Cp(cp) => Reported::Cp(-cp),
            Reported::Mate(n) => Reported::Mate(-n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_compare_by_how_good_they_are_for_the_side() {
        let order = [
            Reported::Mate(0),
            Reported::Mate(-1),
            Reported::Mate(-5),
            Reported::Cp(-3000),
            Reported::Cp(0),
            Reported::Cp(3000),
            Reported::Mate(7),
            Reported::Mate(1),
        ];
        for pair in order.windows(2) {
            assert!(pair[0] < pair[1], "{:?} < {:?}", pair[0], pair[1]);
        }
    }

    #[test]
    fn mates_are_reported_in_moves_for_either_side() {
        // Mating with the first or the third ply of the line is mate in 1 or 2.
        assert_eq!(Reported::from_search(mate_in(1)), Reported::Mate(1));
        assert_eq!(Reported::from_search(mate_in(3)), Reported::Mate(2));
        // Being mated after one or two own moves.
        assert_eq!(Reported::from_search(mated_in(2)), Reported::Mate(-1));
        assert_eq!(Reported::from_search(mated_in(4)), Reported::Mate(-2));
        assert_eq!(Reported::from_search(mated_in(0)), Reported::Mate(0));
        // The longest mate the search can find is still a mate.
        let deepest = crate::history::MAX_PLY;
        assert_eq!(
            Reported::from_search(mate_in(deepest - 1)),
            Reported::Mate(deepest as i32 / 2)
        );
    }

    #[test]
    fn centipawns_pass_unchanged_up_to_the_mate_bound() {
        for cp in [0, -35, 35, 2_500, -2_500, MATE_BOUND - 1, -(MATE_BOUND - 1)] {
            assert_eq!(Reported::from_search(cp), Reported::Cp(cp));
        }
    }

    #[test]
    fn reds_view_turns_the_score_when_black_is_to_move() {
        let black_mates_in_2 = Reported::from_search(mate_in(3));
        assert_eq!(black_mates_in_2.for_red(Color::Black), Reported::Mate(-2));
        assert_eq!(black_mates_in_2.for_red(Color::Red), Reported::Mate(2));
        assert_eq!(Reported::Cp(120).for_red(Color::Black), Reported::Cp(-120));
        assert_eq!(-Reported::Mate(-1), Reported::Mate(1));
        assert!(Reported::Mate(3).is_mate() && !Reported::Cp(30_000).is_mate());
    }

    #[test]
    fn table_conversion_round_trips() {
        for s in [mate_in(5), mated_in(7), 100, -100] {
            assert_eq!(from_table(to_table(s, 9), 9), s);
        }
    }
}
