//! A puzzle's difficulty from how hard the engine finds it.
//!
//! Two measures, both taken with the table cleared, one thread, one line:
//! - **settle depth** `d`: the depth from which the engine's best first move is the
//!   solution's and stays so up to [`RATING_DEPTH`] (one more than that when it never does);
//! - **failing tries** `t`: the other first moves that look good — every check and capture,
//!   and every move the engine preferred at some depth before it settled — counted up to
//!   [`MAX_TRIES`].
//!
//! With `s` the solver's moves in the solution, the rating is
//! `600 + 110·(d − 1) + 40·t + 60·(s − 1)`, clamped to 600–2400: it never falls when the
//! engine needs to look deeper, when more tempting moves fail, or when the line is longer.

use super::tactic::ProofEngine;
use std::collections::BTreeSet;
use xiangqi_rules::{Move, Position};

/// The deepest search the rating looks at.
pub const RATING_DEPTH: i32 = 9;
/// The most failing tries counted.
pub const MAX_TRIES: u32 = 12;
/// The easiest rating.
pub const MIN_RATING: u32 = 600;
/// The hardest rating.
pub const MAX_RATING: u32 = 2400;

/// What the rating is computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difficulty {
    /// The depth from which the engine keeps the solution's first move.
    pub settle_depth: u32,
    /// Tempting first moves that fail.
    pub failing_tries: u32,
    /// The solver's moves in the solution.
    pub solver_moves: u32,
}

impl Difficulty {
    /// The rating on the 600–2400 scale (see the module docs).
    pub fn rating(self) -> u32 {
        let raw = 600
            + 110 * self.settle_depth.saturating_sub(1)
            + 40 * self.failing_tries.min(MAX_TRIES)
            + 60 * self.solver_moves.saturating_sub(1);
        raw.clamp(MIN_RATING, MAX_RATING)
    }
}

/// Measures the difficulty of the puzzle at `position` with solution `line`.
pub fn measure(engine: &ProofEngine, position: &Position, line: &[Move]) -> Difficulty {
    let key = line[0];
    let by_depth = engine.best_by_depth(position, RATING_DEPTH);
    let settle = match by_depth.iter().rposition(|&m| m != key) {
        None if by_depth.is_empty() => RATING_DEPTH as u32 + 1,
        None => 1,
        Some(last_wrong) => last_wrong as u32 + 2,
    };
    let mut tries: BTreeSet<Move> = by_depth.iter().copied().filter(|&m| m != key).collect();
    let mut pos = position.clone();
    for &m in position.legal_moves().iter() {
        if m == key {
            continue;
        }
        let capture = pos.piece_at(m.to()).is_some();
        let undo = pos.make_move(m);
        let check = pos.in_check();
        pos.unmake_move(m, undo);
        if capture || check {
            tries.insert(m);
        }
    }
    Difficulty {
        settle_depth: settle,
        failing_tries: (tries.len() as u32).min(MAX_TRIES),
        solver_moves: line.len().div_ceil(2) as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rating_grows_with_each_measure_and_stays_in_range() {
        let base = Difficulty {
            settle_depth: 3,
            failing_tries: 2,
            solver_moves: 2,
        };
        let deeper = Difficulty {
            settle_depth: 5,
            ..base
        };
        let tempting = Difficulty {
            failing_tries: 6,
            ..base
        };
        let longer = Difficulty {
            solver_moves: 3,
            ..base
        };
        for harder in [deeper, tempting, longer] {
            assert!(harder.rating() > base.rating());
        }
        let easiest = Difficulty {
            settle_depth: 1,
            failing_tries: 0,
            solver_moves: 1,
        };
        assert_eq!(easiest.rating(), MIN_RATING);
        let hardest = Difficulty {
            settle_depth: 40,
            failing_tries: 40,
            solver_moves: 5,
        };
        assert_eq!(hardest.rating(), MAX_RATING);
    }
}
