//! Search scores: centipawns from the side to move's view, and mate distances.

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

/// How the score is written in UCI: `cp N` or `mate N` (moves, negative when being mated).
pub fn uci_score(score: Score) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate {}", (-MATE - score) / 2)
    } else {
        format!("cp {score}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_print_in_moves() {
        assert_eq!(uci_score(mate_in(1)), "mate 1");
        assert_eq!(uci_score(mate_in(3)), "mate 2");
        assert_eq!(uci_score(mated_in(2)), "mate -1");
        assert_eq!(uci_score(mated_in(0)), "mate 0");
        assert_eq!(uci_score(-35), "cp -35");
    }

    #[test]
    fn table_conversion_round_trips() {
        for s in [mate_in(5), mated_in(7), 100, -100] {
            assert_eq!(from_table(to_table(s, 9), 9), s);
        }
    }
}
