//! Judging a repeated cycle of moves: how each side behaved over it, and the ruling.
//!
//! This is the entry point for search: it needs only the current position and the moves that
//! led back to it from its earlier occurrence, works on a private copy of the position and
//! costs a few microseconds per move of the cycle. A search finds the cycle with
//! [`repetition_distance`] over the hashes since the last capture, then calls
//! [`judge_cycle`] with the last `distance` moves.

use super::classify::{MoveClass, classify_targets};
use super::{RuleSet, VerdictKind, asian, cxq};
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::outcome::GameResult;
use crate::piece::Color;
use crate::position::Position;
use crate::square::{SQUARE_COUNT, Square};

/// Marks an empty point in [`PieceIds`].
const NO_PIECE: u8 = u8::MAX;

/// Names the pieces of a position by the point each stood on at the start of a stretch of
/// moves, and follows them as they move, so that "the same piece" is well defined.
#[derive(Clone, Debug)]
pub(crate) struct PieceIds {
    ids: [u8; SQUARE_COUNT],
}

impl PieceIds {
    /// Every piece of `pos` named by its own point.
    pub(crate) fn new(pos: &Position) -> PieceIds {
        let mut ids = [NO_PIECE; SQUARE_COUNT];
        for sq in pos.occupied() {
            ids[sq.index()] = sq.index() as u8;
        }
        PieceIds { ids }
    }

    /// Follows the move `m`; a captured piece loses its name.
    pub(crate) fn apply(&mut self, m: Move) {
        self.ids[m.to().index()] = self.ids[m.from().index()];
        self.ids[m.from().index()] = NO_PIECE;
    }

    /// The name of the piece on `sq` as a one-bit mask (0 for an empty point).
    #[inline]
    pub(crate) fn mask(&self, sq: Square) -> u128 {
        match self.ids[sq.index()] {
            NO_PIECE => 0,
            id => 1u128 << id,
        }
    }

    /// The names of the pieces on the points of `points`.
    pub(crate) fn masks(&self, points: Bitboard) -> u128 {
        points.fold(0, |acc, sq| acc | self.mask(sq))
    }

    /// The points where the pieces named in `names` stand now.
    pub(crate) fn points(&self, names: u128) -> Bitboard {
        let mut b = 0u128;
        for (sq, &id) in self.ids.iter().enumerate() {
            if id != NO_PIECE && names >> id & 1 != 0 {
                b |= 1u128 << sq;
            }
        }
        Bitboard(b)
    }
}

/// How one side behaved over a stretch of moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Conduct {
    /// Moves the side made in the stretch.
    pub moves: u32,
    /// How many of them gave check.
    pub checks: u32,
    /// The opposing pieces chased by every one of the side's moves, at their points at the end
    /// of the stretch.
    pub chased: Bitboard,
    /// Those of `chased` that were unprotected at every chase.
    pub unprotected: Bitboard,
    /// The side's pieces that gave check in the stretch, at their points at the end.
    pub checkers: Bitboard,
    /// The side's pieces that chased the pieces of `chased`, at their points at the end.
    pub chasers: Bitboard,
}

impl Conduct {
    /// Whether every move of the side gave check.
    pub fn checks_perpetually(&self) -> bool {
        self.moves > 0 && self.checks == self.moves
    }

    /// Whether every move of the side chased one and the same piece (or the same pieces).
    pub fn chases_perpetually(&self) -> bool {
        !self.chased.is_empty()
    }
}

/// How both sides behaved over the moves `moves` played from `start`, whose classes are
/// `classes` (same length). Indexed by [`Color::index`].
pub(crate) fn conduct_over(
    start: &Position,
    moves: &[Move],
    classes: &[MoveClass],
) -> [Conduct; 2] {
    debug_assert_eq!(moves.len(), classes.len());
    let mut ids = PieceIds::new(start);
    let mut side = start.side_to_move();
    let mut moves_made = [0u32; 2];
    let mut checks = [0u32; 2];
    let mut checkers = [0u128; 2];
    let mut chased = [u128::MAX; 2];
    let mut unprotected = [u128::MAX; 2];
    let mut names = Vec::with_capacity(moves.len());
    for (&m, class) in moves.iter().zip(classes) {
        ids.apply(m);
        let s = side.index();
        moves_made[s] += 1;
        if class.is_check() {
            checks[s] += 1;
            checkers[s] |= ids.masks(class.checkers());
        }
        let (mut targets, mut loose) = (0u128, 0u128);
        for t in class.threats().iter().filter(|t| t.counts) {
            targets |= ids.mask(t.target);
            if !t.protected {
                loose |= ids.mask(t.target);
            }
        }
        chased[s] &= targets;
        unprotected[s] &= loose;
        names.push(ids.clone());
        side = side.opponent();
    }
    // Second pass: which pieces chased the pieces chased throughout.
    let mut chasers = [0u128; 2];
    let mut side = start.side_to_move();
    for (class, at) in classes.iter().zip(&names) {
        let s = side.index();
        for t in class.threats().iter().filter(|t| t.counts) {
            if at.mask(t.target) & chased[s] != 0 {
                chasers[s] |= at.mask(t.attacker);
            }
        }
        side = side.opponent();
    }
    let mut out = [Conduct::default(); 2];
    for c in Color::ALL {
        let s = c.index();
        let chased_now = if moves_made[s] == 0 { 0 } else { chased[s] };
        out[s] = Conduct {
            moves: moves_made[s],
            checks: checks[s],
            chased: ids.points(chased_now),
            unprotected: ids.points(chased_now & unprotected[s]),
            checkers: ids.points(checkers[s]),
            chasers: ids.points(chasers[s]),
        };
    }
    out
}

/// The ruling on a repeated cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleJudgement {
    /// The rule set that judged.
    pub rules: RuleSet,
    /// How Red (index 0) and Black (index 1) behaved over the cycle.
    pub conduct: [Conduct; 2],
    /// What was found.
    pub kind: VerdictKind,
    /// The side that broke the rules and loses, if any.
    pub loser: Option<Color>,
}

impl CycleJudgement {
    /// How `side` behaved over the cycle.
    pub fn conduct_of(&self, side: Color) -> &Conduct {
        &self.conduct[side.index()]
    }

    /// The game result the cycle gives: a win for the other side when someone broke the
    /// rules; a draw for any other repetition under the Asian rules; `None` under CXQ, where
    /// a repetition without a violation does not end the game.
    pub fn result(&self) -> Option<GameResult> {
        match self.loser {
            Some(loser) => Some(GameResult::win_for(loser.opponent())),
            None if self.kind == VerdictKind::Repetition && self.rules == RuleSet::Cxq => None,
            None => Some(GameResult::Draw),
        }
    }

    /// The result from the point of view of `side`: 1 for a win, 0 for a draw, −1 for a
    /// loss; `None` when the repetition does not end the game.
    pub fn score_for(&self, side: Color) -> Option<i32> {
        self.result().map(|r| match r.winner() {
            Some(w) if w == side => 1,
            Some(_) => -1,
            None => 0,
        })
    }
}

/// How many plies back the last position of `keys` occurred before with the same side to
/// move, looking only within `keys`: the hashes since the last capture, oldest first, the
/// current position's last. `None` when it did not occur. The smallest possible answer is 4.
pub fn repetition_distance(keys: &[u64]) -> Option<usize> {
    let (&current, earlier) = keys.split_last()?;
    let n = earlier.len();
    let mut back = 4;
    while back <= n {
        if earlier[n - back] == current {
            return Some(back);
        }
        back += 2;
    }
    None
}

/// Judges the cycle `cycle`, the moves that led from an earlier occurrence of `current` back
/// to `current` (so `current` is also where the cycle starts), under `rules`.
///
/// The ruling covers the moves of the cycle only: a side checks perpetually when all its
/// moves in the cycle give check, and chases perpetually when all of them chase one and the
/// same piece. The cycle must be a legal sequence of moves from `current` without captures.
pub fn judge_cycle(current: &Position, cycle: &[Move], rules: RuleSet) -> CycleJudgement {
    let mut classes = Vec::with_capacity(cycle.len());
    let mut before = current.clone();
    let mut after = current.clone();
    let mut ids = PieceIds::new(current);
    let mut side = current.side_to_move();
    // The pieces (by name) each side has chased with every move so far; after a side's first
    // move only those can still be chased perpetually, so only they are looked at.
    let mut chased: [Option<u128>; 2] = [None, None];
    for &m in cycle {
        after.make_move(m);
        ids.apply(m);
        let s = side.index();
        let targets = chased[s].map_or(u128::MAX, |names| ids.points(names).0);
        let class = classify_targets(&before, &after, m, rules, targets);
        let names = class
            .threats()
            .iter()
            .filter(|t| t.counts)
            .fold(0, |acc, t| acc | ids.mask(t.target));
        chased[s] = Some(chased[s].map_or(names, |c| c & names));
        classes.push(class);
        before.make_move(m);
        side = side.opponent();
    }
    judge_classes(current, cycle, &classes, rules)
}

/// Judges a stretch of moves whose classes are already known.
pub(crate) fn judge_classes(
    start: &Position,
    moves: &[Move],
    classes: &[MoveClass],
    rules: RuleSet,
) -> CycleJudgement {
    let conduct = conduct_over(start, moves, classes);
    let (kind, loser) = match rules {
        RuleSet::Asian => asian::ruling(&conduct),
        RuleSet::Cxq => cxq::cycle_ruling(&conduct),
    };
    CycleJudgement {
        rules,
        conduct,
        kind,
        loser,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|t| t.parse::<Move>().unwrap())
            .collect()
    }

    #[test]
    fn repetition_distance_finds_the_last_occurrence() {
        assert_eq!(repetition_distance(&[1, 2, 3, 4, 1]), Some(4));
        assert_eq!(repetition_distance(&[1, 2, 3, 4, 5, 6, 1]), Some(6));
        assert_eq!(
            repetition_distance(&[1, 2, 1]),
            None,
            "two plies cannot repeat"
        );
        assert_eq!(repetition_distance(&[9, 2, 3, 4, 5]), None);
        assert_eq!(repetition_distance(&[]), None);
    }

    #[test]
    fn a_cycle_of_chases_against_idle_moves_loses_for_the_chaser() {
        // Black's chariot attacks the red chariot from c3 and c4 in turn; the red chariot
        // cannot take back (it screens the black cannon's check) and nothing protects it.
        let pos = Position::from_fen("4ck3/9/9/9/9/2r1R4/9/9/4A4/3AK4 w").unwrap();
        let j = judge_cycle(&pos, &moves("e4e3 c4c3 e3e4 c3c4"), RuleSet::Asian);
        assert_eq!(j.kind, VerdictKind::PerpetualChase, "{j:?}");
        assert_eq!(j.loser, Some(Color::Black));
        assert_eq!(j.result(), Some(GameResult::RedWins));
        assert_eq!(j.score_for(Color::Black), Some(-1));
        let black = j.conduct_of(Color::Black);
        assert_eq!(
            black.chased.collect::<Vec<_>>(),
            ["e4".parse::<Square>().unwrap()]
        );
        assert_eq!(
            black.chasers.collect::<Vec<_>>(),
            ["c4".parse::<Square>().unwrap()]
        );
    }

    /// Random shuttles: a piece of each side steps out and back.
    fn random_cycles(count: usize) -> Vec<(Position, Vec<Move>)> {
        let mut rng = crate::random::SplitMix64::new(0x2545_F491_4F6C_DD1D);
        let mut next = move |n: usize| rng.below(n);
        let mut out = Vec::new();
        let mut pos = Position::startpos();
        while out.len() < count {
            let legal = pos.legal_moves();
            if legal.is_empty() || pos.halfmove_clock() > 200 {
                pos = Position::startpos();
                continue;
            }
            pos.make_move(legal[next(legal.len())]);
            let quiet = |p: &Position| -> Vec<Move> {
                p.legal_moves()
                    .iter()
                    .copied()
                    .filter(|m| p.is_empty(m.to()))
                    .collect()
            };
            let ours = quiet(&pos);
            if ours.is_empty() {
                continue;
            }
            let a = ours[next(ours.len())];
            let mid = pos.after(a);
            let theirs = quiet(&mid);
            if theirs.is_empty() {
                continue;
            }
            let b = theirs[next(theirs.len())];
            let cycle = vec![
                a,
                b,
                Move::new(a.to(), a.from()),
                Move::new(b.to(), b.from()),
            ];
            let mut probe = pos.clone();
            if cycle.iter().all(|&m| {
                let ok = probe.is_legal(m);
                if ok {
                    probe.make_move(m);
                }
                ok
            }) {
                out.push((pos.clone(), cycle));
            }
        }
        out
    }

    #[test]
    fn the_search_entry_point_agrees_with_full_classification() {
        for (pos, cycle) in random_cycles(300) {
            for rules in RuleSet::ALL {
                let fast = judge_cycle(&pos, &cycle, rules);
                let mut before = pos.clone();
                let classes: Vec<MoveClass> = cycle
                    .iter()
                    .map(|&m| {
                        let c = super::super::classify(&before, m, rules);
                        before.make_move(m);
                        c
                    })
                    .collect();
                let full = judge_classes(&pos, &cycle, &classes, rules);
                assert_eq!(fast, full, "{pos:?} {cycle:?}");
            }
        }
    }

    #[test]
    fn cxq_repetition_without_violation_plays_on() {
        let pos = Position::startpos();
        let j = judge_cycle(&pos, &moves("b0c2 b9c7 c2b0 c7b9"), RuleSet::Cxq);
        assert_eq!(j.kind, VerdictKind::Repetition);
        assert_eq!(j.result(), None);
        let j = judge_cycle(&pos, &moves("b0c2 b9c7 c2b0 c7b9"), RuleSet::Asian);
        assert_eq!(j.result(), Some(GameResult::Draw));
    }
}
