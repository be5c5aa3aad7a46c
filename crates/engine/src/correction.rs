//! Correction history: how far the searches of one thread found the static evaluation off,
//! by side to move and the placement of the slow-moving pieces (soldiers, advisors and
//! elephants of both sides). A node whose search settles a score away from its static
//! evaluation moves that placement's entry towards the difference; later nodes with the same
//! placement add the entry to their static evaluation before pruning on it.

use crate::score::{MATE_BOUND, Score};
use xiangqi_rules::{Color, Piece, PieceKind, Position};

/// Entries per side to move (a power of two).
const ENTRIES: usize = 1 << 14;

/// Entries are kept in 1/`GRAIN` centipawn.
const GRAIN: i32 = 256;

/// The weight of a new difference, out of [`WEIGHT_SCALE`], is the node's depth plus one up
/// to this.
const WEIGHT_MAX: i32 = 16;

/// The scale of the weights.
const WEIGHT_SCALE: i32 = 256;

/// The pieces whose placement keys the table.
const KEY_KINDS: [PieceKind; 3] = [PieceKind::Soldier, PieceKind::Advisor, PieceKind::Elephant];

/// One thread's corrections.
pub struct Correction {
    entries: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

/// Where the correction of a position is kept: its side to move and a hash of where the
/// [`KEY_KINDS`] stand. A node finds it once and uses it both to correct its evaluation and to
/// learn from its search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot(usize);

impl Slot {
    /// The slot of `pos`.
    pub fn of(pos: &Position) -> Slot {
        let mut key = 0u64;
        for color in [Color::Red, Color::Black] {
            for kind in KEY_KINDS {
                let bits = pos.pieces(Piece::new(color, kind)).0;
                let folded = (bits as u64) ^ ((bits >> 64) as u64).rotate_left(29);
                key = (key ^ folded).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                key ^= key >> 31;
            }
        }
        let index = (key >> (64 - ENTRIES.trailing_zeros())) as usize;
        Slot(pos.side_to_move().index() * ENTRIES + index)
    }
}

impl Correction {
    /// An empty table: every correction zero.
    pub fn new() -> Correction {
        Correction {
            entries: vec![0; 2 * ENTRIES],
        }
    }

    /// `raw`, the static evaluation of the position at `slot`, with the correction its
    /// placement has learned; never a mate score. Corrections are learned at most `limit`
    /// centipawns either way (see [`Correction::learn`]), so a limit of 0 leaves `raw` as it is.
    #[inline]
    pub fn corrected(&self, slot: Slot, raw: Score) -> Score {
        (raw + self.entries[slot.0] / GRAIN).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the entry at `slot` towards `searched - raw`, the difference a search of `depth`
    /// found between the position's settled score and its static evaluation `raw`, held to
    /// `limit` centipawns either way.
    pub fn learn(&mut self, slot: Slot, depth: i32, raw: Score, searched: Score, limit: i32) {
        let target = (searched - raw).clamp(-limit, limit) * GRAIN;
        let weight = (depth + 1).min(WEIGHT_MAX);
        let entry = &mut self.entries[slot.0];
        *entry = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(fen: &str) -> Slot {
        Slot::of(&fen.parse().expect("valid FEN"))
    }

    const LIMIT: i32 = 48;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn an_empty_table_leaves_the_evaluation_alone() {
        let c = Correction::new();
        assert_eq!(c.corrected(slot(START), 37), 37);
    }

    #[test]
    fn learned_differences_move_the_evaluation_towards_them_within_the_limit() {
        let mut c = Correction::new();
        let start = slot(START);
        for _ in 0..200 {
            c.learn(start, 10, 0, 30, LIMIT);
        }
        assert!(
            (28..=30).contains(&c.corrected(start, 0)),
            "{}",
            c.corrected(start, 0)
        );
        for _ in 0..400 {
            c.learn(start, 10, 0, -1000, LIMIT);
        }
        // Within a centipawn of the limit (the entry approaches it from inside), never past.
        let held = c.corrected(start, 100);
        assert!((100 - LIMIT..=100 - LIMIT + 1).contains(&held), "{held}");
        // A deep search moves the entry further than a shallow one.
        let (mut deep, mut shallow) = (Correction::new(), Correction::new());
        deep.learn(start, 12, 0, 40, LIMIT);
        shallow.learn(start, 1, 0, 40, LIMIT);
        assert!(deep.corrected(start, 0) > shallow.corrected(start, 0));
    }

    #[test]
    fn the_side_to_move_and_the_defenders_select_the_entry() {
        let mut c = Correction::new();
        let start = slot(START);
        for _ in 0..100 {
            c.learn(start, 10, 0, 40, LIMIT);
        }
        // The same placement with Black to move, and a chariot moved (not a key piece): the
        // first has its own entry, the second shares this one.
        let black = slot(&START.replace(" w ", " b "));
        let chariot =
            slot("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/1NBAKABNR w - - 0 1");
        let advisor =
            slot("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4A4/RNB1KABNR w - - 0 1");
        assert_eq!(c.corrected(black, 0), 0);
        assert_eq!(c.corrected(chariot, 0), c.corrected(start, 0));
        assert_eq!(c.corrected(advisor, 0), 0);
    }

    #[test]
    fn a_limit_of_zero_learns_nothing() {
        let mut c = Correction::new();
        let start = slot(START);
        for _ in 0..100 {
            c.learn(start, 10, 0, 300, 0);
        }
        assert_eq!(c.corrected(start, 25), 25);
    }
}
