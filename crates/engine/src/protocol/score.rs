//! Scores as the protocols carry them: centipawns or a mate in so many moves, from the side
//! to move's point of view — never the search's raw numbers.
//!
//! UCI writes `cp N` or `mate N`. UCCI has only a number, so a mate in `n` moves is written as
//! `30000 − n` centipawns (`−30000 − n` when being mated, `n ≤ 0`), and numbers within 1000
//! of ±30000 read back as mates.

use super::Dialect;
use std::fmt;

/// A score an engine reports, from the side to move's point of view: the engine's own
/// boundary form of a score, which the protocols read and write.
pub use crate::score::Reported;

/// The centipawns that stand for a mate in UCCI and in score arithmetic.
pub const MATE_CENTIPAWNS: i32 = 30_000;

/// Mates this many moves long or longer are written as if they were this long.
const LONGEST_MATE: i32 = 1_000;

impl Reported {
    /// The score in centipawns: a mate in `n` is `30000 − n`, being mated in `n` is
    /// `−30000 + n`, so that sooner mates weigh more.
    pub fn centipawns(self) -> i32 {
        match self {
            Reported::Cp(cp) => cp,
            Reported::Mate(n) if n > 0 => MATE_CENTIPAWNS - n.min(LONGEST_MATE),
            Reported::Mate(n) => -MATE_CENTIPAWNS - n.max(-LONGEST_MATE),
        }
    }

    /// The score a bare UCCI number stands for: a mate near ±30000, centipawns otherwise.
    pub fn from_centipawns(cp: i32) -> Reported {
        let near = MATE_CENTIPAWNS - LONGEST_MATE;
        if (near..MATE_CENTIPAWNS).contains(&cp) {
            Reported::Mate(MATE_CENTIPAWNS - cp)
        } else if (-MATE_CENTIPAWNS..=-near).contains(&cp) {
            Reported::Mate(-MATE_CENTIPAWNS - cp)
        } else {
            Reported::Cp(cp)
        }
    }

    /// The words after `score` in `dialect`: `cp 35` or `mate -3` in UCI, `35` in UCCI.
    pub fn words(self, dialect: Dialect) -> String {
        match dialect {
            Dialect::Uci => self.to_string(),
            Dialect::Ucci => self.centipawns().to_string(),
        }
    }

    /// Reads the words after `score` (`cp N`, `mate N`, or a bare UCCI number); returns the
    /// score and how many words it took, or `None` when they are not a score.
    pub fn read_words(words: &[&str]) -> Option<(Reported, usize)> {
        match *words {
            ["cp", n, ..] => Some((Reported::Cp(n.parse().ok()?), 2)),
            ["mate", n, ..] => Some((Reported::Mate(n.parse().ok()?), 2)),
            [n, ..] => Some((Reported::from_centipawns(n.parse().ok()?), 1)),
            [] => None,
        }
    }
}

impl fmt::Display for Reported {
    /// The UCI form: `cp 35` or `mate -3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reported::Cp(cp) => write!(f, "cp {cp}"),
            Reported::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_weigh_more_the_sooner_they_come() {
        assert_eq!(Reported::Mate(5).centipawns(), 29_995);
        assert_eq!(Reported::Mate(-3).centipawns(), -29_997);
        assert_eq!(Reported::Mate(0).centipawns(), -30_000);
        assert!(Reported::Mate(2).centipawns() > Reported::Mate(9).centipawns());
        assert!(Reported::Mate(-2).centipawns() < Reported::Mate(-9).centipawns());
    }

    #[test]
    fn every_score_reads_back_in_both_dialects() {
        let scores = [-30_001, -29_000, -1, 0, 28_999, 30_000]
            .map(Reported::Cp)
            .into_iter()
            .chain([-1000, -3, 0, 1, 7, 1000].map(Reported::Mate));
        for score in scores {
            for dialect in Dialect::ALL {
                let text = score.words(dialect);
                let words: Vec<&str> = text.split_whitespace().collect();
                let read = Reported::read_words(&words).map(|(s, _)| s);
                let expected = match (dialect, score) {
                    // A bare number near ±30000 is a mate in UCCI.
                    (Dialect::Ucci, Reported::Cp(cp)) => Reported::from_centipawns(cp),
                    _ => score,
                };
                assert_eq!(read, Some(expected), "{dialect}: {text}");
            }
        }
        assert_eq!(Reported::read_words(&["cp", "x"]), None);
        assert_eq!(Reported::read_words(&["lowerbound"]), None);
    }
}
