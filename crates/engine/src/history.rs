//! What one search thread remembers from search to search: killer moves, history,
//! counter-moves and continuation history (how well a quiet move did after a given move one
//! and two plies before), and the static evaluation's corrections.

use crate::correction::Correction;
use crate::score::Score;
use crate::search::params::HISTORY_MAX;
use xiangqi_rules::{Color, Move, Piece, Square};

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;

/// Piece-and-destination slots: 14 pieces × 90 squares.
const PIECE_TO: usize = 14 * 90;

/// A move as continuation history sees it: the piece that moved and where it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    /// The slot of `piece` arriving on `to`.
    #[inline]
    pub fn new(piece: Piece, to: Square) -> PieceTo {
        PieceTo((piece.index() * 90 + to.index()) as u16)
    }
}

/// The moves one and two plies before a node, as continuation history keys.
pub type Continuation = [Option<PieceTo>; 2];

/// Killers per ply, butterfly history per side, counter-move per previous move,
/// continuation history per (earlier move, this move), and the evaluation's corrections.
pub struct History {
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    butterfly: Vec<i32>,
    counter: Vec<Option<Move>>,
    continuation: Vec<i16>,
    /// How far searches found the static evaluation off (kept whole from search to search).
    pub correction: Correction,
    /// Whether any score was ever set: halving the scores of a history that never learned
    /// anything changes nothing, and would only touch its few megabytes for the first time.
    learned: bool,
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

/// A history entry after a bonus (or, negative, a malus): the bigger the entry already is in
/// the bonus's direction, the less it moves, so entries stay within ±`HISTORY_MAX`.
#[inline]
fn gravity(entry: i32, bonus: i32) -> i32 {
    entry + bonus - entry * bonus.abs() / HISTORY_MAX
}

/// The continuation-history slot of the move `here` played after the move `earlier`.
#[inline]
fn continuation_index(earlier: PieceTo, here: PieceTo) -> usize {
    earlier.0 as usize * PIECE_TO + here.0 as usize
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
            continuation: vec![0; PIECE_TO * PIECE_TO],
            correction: Correction::new(),
            learned: false,
        }
    }

    /// Prepares for a new search: killers are forgotten, and the history scores halved so
    /// that what the last search learned guides this one without outweighing it.
    pub fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        if !self.learned {
            return;
        }
        for h in &mut self.butterfly {
            *h /= 2;
        }
        for h in &mut self.continuation {
            *h /= 2;
        }
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

    /// The ordering score of the quiet move `m` of `piece`: the butterfly history of its
    /// side plus its continuation history after each of the earlier moves in `context`.
    #[inline]
    pub fn quiet_score(&self, piece: Piece, m: Move, context: &Continuation) -> Score {
        let here = PieceTo::new(piece, m.to());
        let mut score = self.butterfly[butterfly_index(piece.color, m)];
        for earlier in context.iter().flatten() {
            score += self.continuation[continuation_index(*earlier, here)] as i32;
        }
        score
    }

    /// Whether the quiet move `m` of `piece` did badly after each of the two earlier moves
    /// in `context`: both are known and its continuation history after each is below zero.
    #[inline]
    pub fn unpromising(&self, piece: Piece, m: Move, context: &Continuation) -> bool {
        let here = PieceTo::new(piece, m.to());
        context.iter().all(|earlier| {
            earlier.is_some_and(|e| self.continuation[continuation_index(e, here)] < 0)
        })
    }

    /// The reply that refuted `previous` last time.
    #[inline]
    pub fn counter_move(&self, previous: Option<Move>) -> Option<Move> {
        previous.and_then(|p| self.counter[counter_index(p)])
    }

    fn bump(&mut self, piece: Piece, m: Move, context: &Continuation, bonus: i32) {
        self.learned = true;
        let entry = &mut self.butterfly[butterfly_index(piece.color, m)];
        *entry = gravity(*entry, bonus);
        let here = PieceTo::new(piece, m.to());
        for earlier in context.iter().flatten() {
            let entry = &mut self.continuation[continuation_index(*earlier, here)];
            *entry = gravity(*entry as i32, bonus) as i16;
        }
    }

    /// Rewards the quiet move `best` that caused a cut at `ply` by `bonus` (see
    /// [`SearchParams::history_bonus`](crate::search::params::SearchParams::history_bonus))
    /// and punishes the quiet moves tried before it by as much; each move comes with the
    /// piece that made it, and `context` holds the moves one and two plies before.
    pub fn update_quiet(
        &mut self,
        ply: usize,
        bonus: i32,
        best: (Piece, Move),
        tried: &[Option<(Piece, Move)>],
        previous: Option<Move>,
        context: &Continuation,
    ) {
        self.bump(best.0, best.1, context, bonus);
        for &(piece, m) in tried.iter().flatten() {
            if m != best.1 {
                self.bump(piece, m, context, -bonus);
            }
        }
        let best = best.1;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::SearchParams;
    use xiangqi_rules::PieceKind;

    fn mv(text: &str) -> Move {
        text.parse::<Move>().expect("valid move")
    }

    #[test]
    fn a_cut_raises_the_move_after_the_same_earlier_moves_most() {
        let red = Color::Red;
        let chariot = Piece::new(red, PieceKind::Chariot);
        let horse = Piece::new(Color::Black, PieceKind::Horse);
        let cannon = Piece::new(Color::Black, PieceKind::Cannon);
        let after_horse: Continuation = [Some(PieceTo::new(horse, mv("b9c7").to())), None];
        let after_cannon: Continuation = [Some(PieceTo::new(cannon, mv("h7e7").to())), None];
        let (best, other) = (mv("a0a1"), mv("i0i1"));
        let mut h = History::new();
        h.update_quiet(
            3,
            SearchParams::default().history_bonus(6),
            (chariot, best),
            &[Some((chariot, other)), Some((chariot, best))],
            None,
            &after_horse,
        );
        let same = h.quiet_score(chariot, best, &after_horse);
        let different = h.quiet_score(chariot, best, &after_cannon);
        assert!(same > different && different > 0, "{same} {different}");
        assert!(h.quiet_score(chariot, other, &after_horse) < 0);
        assert_eq!(h.killers(3)[0], Some(best));

        // A new search keeps half of what was learned and forgets the killers.
        h.new_search();
        assert_eq!(h.quiet_score(chariot, best, &after_horse), same / 2);
        assert_eq!(h.killers(3), [None; 2]);
    }

    /// A quiet move is unpromising only when it did badly after both earlier moves.
    #[test]
    fn a_move_is_unpromising_after_failing_behind_both_earlier_moves() {
        let chariot = Piece::new(Color::Red, PieceKind::Chariot);
        let horse = Piece::new(Color::Black, PieceKind::Horse);
        let cannon = Piece::new(Color::Red, PieceKind::Cannon);
        let both: Continuation = [
            Some(PieceTo::new(horse, mv("b9c7").to())),
            Some(PieceTo::new(cannon, mv("h2e2").to())),
        ];
        let one_known: Continuation = [both[0], None];
        let (best, tried) = (mv("a0a1"), mv("i0i1"));
        let mut h = History::new();
        assert!(
            !h.unpromising(chariot, tried, &both),
            "an empty history condemns nothing"
        );
        h.update_quiet(
            4,
            SearchParams::default().history_bonus(5),
            (chariot, best),
            &[Some((chariot, tried))],
            None,
            &both,
        );
        assert!(h.unpromising(chariot, tried, &both));
        assert!(!h.unpromising(chariot, best, &both));
        assert!(!h.unpromising(chariot, tried, &one_known));
    }
}
