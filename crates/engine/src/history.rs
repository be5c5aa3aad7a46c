//! Move-ordering memory of one search thread: killer moves, history and counter-moves.

use crate::score::Score;
use xiangqi_rules::{Color, Move};

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
const HISTORY_MAX: i32 = 16_384;

/// Killers per ply, butterfly history per side, counter-move per previous move.
pub struct History {
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    butterfly: Vec<i32>,
    counter: Vec<Option<Move>>,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

#[inline]
fn butterfly_index(color: Color, m: Move) -> usize {
    (color.index() * 90 + m.from().index()) * 90 + m.to().index()
}

#[inline]
fn counter_index(previous: Move) -> usize {
    previous.from().index() * 90 + previous.to().index()
}

impl History {
    /// Empty tables.
    pub fn new() -> History {
        History {
            killers: [[None; 2]; MAX_PLY + 1],
            butterfly: vec![0; 2 * 90 * 90],
            counter: vec![None; 90 * 90],
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = History::new();
    }

    /// The two killer moves stored at `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    /// Clears the killers of `ply` (for a fresh child node).
    pub fn clear_killers(&mut self, ply: usize) {
        if ply <= MAX_PLY {
            self.killers[ply] = [None; 2];
        }
    }

    /// The history score of a quiet move.
    #[inline]
    pub fn score(&self, color: Color, m: Move) -> Score {
        self.butterfly[butterfly_index(color, m)]
    }

    /// The reply that refuted `previous` last time.
    #[inline]
    pub fn counter_move(&self, previous: Option<Move>) -> Option<Move> {
        previous.and_then(|p| self.counter[counter_index(p)])
    }

    fn bump(&mut self, color: Color, m: Move, bonus: i32) {
        let entry = &mut self.butterfly[butterfly_index(color, m)];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// Rewards the quiet move `best` that caused a cut at `ply` and punishes the quiet moves
    /// tried before it.
    pub fn update_quiet(
        &mut self,
        color: Color,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Option<Move>],
        previous: Option<Move>,
    ) {
        let bonus = (depth * depth * 16).min(1600);
        self.bump(color, best, bonus);
        for &m in tried.iter().flatten() {
            if m != best {
                self.bump(color, m, -bonus);
            }
        }
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != Some(best) {
            k[1] = k[0];
            k[0] = Some(best);
        }
        if let Some(p) = previous {
            self.counter[counter_index(p)] = Some(best);
        }
    }
}
