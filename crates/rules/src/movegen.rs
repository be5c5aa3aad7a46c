//! Move generation: pseudo-legal moves per piece, attacks on points, and the legality test
//! (own general not attacked, generals not facing).

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::piece::{Color, Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;
use crate::tables::{
    ADVISOR_MOVES, EAST, ELEPHANT_MOVES, GENERAL_MOVES, HORSE_ATTACKERS, HORSE_MOVES, LINES, NORTH,
    RAYS, SOLDIER_ATTACKERS, SOLDIER_MOVES, SOUTH, Steps, WEST,
};

/// Which moves a generator emits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenKind {
    /// Every pseudo-legal move.
    All,
    /// Captures only.
    Captures,
    /// Non-captures only.
    Quiets,
}

#[inline]
fn bit(sq: usize) -> u128 {
    1u128 << sq
}

/// The nearest point of `mask` to the ray's origin, for ray direction `dir`.
#[inline]
fn nearest(mask: u128, dir: usize) -> Option<usize> {
    if mask == 0 {
        None
    } else if dir == NORTH || dir == EAST {
        Some(mask.trailing_zeros() as usize)
    } else {
        Some(127 - mask.leading_zeros() as usize)
    }
}

/// The nearest point of `mask` to the ray's origin and the one after it, for ray direction
/// `dir`: on the blockers of a ray, the piece a chariot reaches and the one a cannon reaches.
#[inline]
fn first_two(mask: u128, dir: usize) -> Option<(usize, Option<usize>)> {
    let first = nearest(mask, dir)?;
    Some((first, nearest(mask & !bit(first), dir)))
}

impl Position {
    #[inline]
    fn piece_mask(&self, color: Color, kind: PieceKind) -> u128 {
        self.by_piece[Piece::new(color, kind).index()]
    }

    /// Whether `color`'s general would be attacked with occupancy `occ`, the general on `king`,
    /// and the opponent's pieces at `exclude` removed (a capture). The board array is not read,
    /// so a move can be tested without being made.
    #[inline]
    fn general_attacked_with(&self, color: Color, king: usize, occ: u128, exclude: u128) -> bool {
        let them = color.opponent();
        let keep = !exclude;
        let chariots = self.piece_mask(them, PieceKind::Chariot) & keep;
        let cannons = self.piece_mask(them, PieceKind::Cannon) & keep;
        let horses = self.piece_mask(them, PieceKind::Horse) & keep;
        let soldiers = self.piece_mask(them, PieceKind::Soldier) & keep;
        let general = self.piece_mask(them, PieceKind::General);

        if SOLDIER_ATTACKERS[them.index()][king] & soldiers != 0 {
            return true;
        }
        if horses != 0 {
            let legs = &HORSE_ATTACKERS[king];
            for i in 0..legs.len as usize {
                if horses & bit(legs.to[i] as usize) != 0 && occ & bit(legs.block[i] as usize) == 0
                {
                    return true;
                }
            }
        }
        let straight = chariots | cannons | general;
        if LINES[king] & straight == 0 {
            return false;
        }
        for (dir, ray) in RAYS[king].iter().enumerate() {
            let ray = ray.mask;
            if ray & straight == 0 {
                continue;
            }
            let Some((first, second)) = first_two(ray & occ, dir) else {
                continue;
            };
            let direct = if dir == NORTH || dir == SOUTH {
                chariots | general
            } else {
                chariots
            };
            if direct & bit(first) != 0 || second.is_some_and(|s| cannons & bit(s) != 0) {
                return true;
            }
        }
        false
    }

    /// Whether `color`'s general is attacked now, counting facing generals as an attack.
    #[inline]
    pub fn is_general_attacked(&self, color: Color) -> bool {
        self.general_attacked_with(
            color,
            self.generals[color.index()].index(),
            self.by_color[0] | self.by_color[1],
            0,
        )
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checked
    }

    /// Whether the pseudo-legal move `m` for the side to move leaves its own general safe.
    #[inline]
    pub fn is_safe_move(&self, m: Move) -> bool {
        let us = self.side;
        let (from, to) = (m.from().index(), m.to().index());
        let occ = ((self.by_color[0] | self.by_color[1]) & !bit(from)) | bit(to);
        let mut king = self.generals[us.index()].index();
        if king == from {
            king = to;
        }
        !self.general_attacked_with(us, king, occ, bit(to))
    }

    /// Whether `sq` is attacked by any piece of `by` (a general attacks the points it could
    /// step to, and the opposing general along an open file).
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        let target = sq.index();
        let occ = self.by_color[0] | self.by_color[1];
        let chariots = self.piece_mask(by, PieceKind::Chariot);
        let cannons = self.piece_mask(by, PieceKind::Cannon);
        let horses = self.piece_mask(by, PieceKind::Horse);
        if SOLDIER_ATTACKERS[by.index()][target] & self.piece_mask(by, PieceKind::Soldier) != 0 {
            return true;
        }
        let legs = &HORSE_ATTACKERS[target];
        for i in 0..legs.len as usize {
            if horses & bit(legs.to[i] as usize) != 0 && occ & bit(legs.block[i] as usize) == 0 {
                return true;
            }
        }
        for (dir, ray) in RAYS[target].iter().enumerate() {
            let Some((first, second)) = first_two(ray.mask & occ, dir) else {
                continue;
            };
            if chariots & bit(first) != 0 || second.is_some_and(|s| cannons & bit(s) != 0) {
                return true;
            }
        }
        let general = self.generals[by.index()];
        if steps_contain(&GENERAL_MOVES[general.index()], target) {
            return true;
        }
        let defender = self.piece_at(sq);
        if defender == Some(Piece::new(by.opponent(), PieceKind::General)) {
            let between = RAYS[target][if by == Color::Red { SOUTH } else { NORTH }].mask & occ;
            let first = nearest(between, if by == Color::Red { SOUTH } else { NORTH });
            if first == Some(general.index()) {
                return true;
            }
        }
        let elephants = self.piece_mask(by, PieceKind::Elephant);
        for from in Bitboard(elephants) {
            let st = &ELEPHANT_MOVES[from.index()];
            for i in 0..st.len as usize {
                if st.to[i] as usize == target && occ & bit(st.block[i] as usize) == 0 {
                    return true;
                }
            }
        }
        for from in Bitboard(self.piece_mask(by, PieceKind::Advisor)) {
            if steps_contain(&ADVISOR_MOVES[from.index()], target) {
                return true;
            }
        }
        false
    }

    /// Appends the pseudo-legal moves of the side to move (own general may be left attacked).
    pub fn generate_pseudo_legal(&self, kind: GenKind, list: &mut MoveList) {
        let us = self.side;
        let own = self.by_color[us.index()];
        let theirs = self.by_color[us.index() ^ 1];
        let targets = match kind {
            GenKind::All => !own,
            GenKind::Captures => theirs,
            GenKind::Quiets => !(own | theirs),
        };
        let base = us.index() * 7;
        let occ = own | theirs;

        if kind == GenKind::Captures {
            // Only the first piece on a ray (a chariot's) or the second (a cannon's) can be
            // taken: found from the ray's blockers without walking its empty points.
            for (kind, over_screen) in [(PieceKind::Chariot, false), (PieceKind::Cannon, true)] {
                for from in Bitboard(self.by_piece[base + kind.index()]) {
                    for (dir, ray) in RAYS[from.index()].iter().enumerate() {
                        let blockers = ray.mask & occ;
                        let target = if over_screen {
                            first_two(blockers, dir).and_then(|(_, second)| second)
                        } else {
                            nearest(blockers, dir)
                        };
                        if let Some(t) = target
                            && theirs & bit(t) != 0
                        {
                            list.push(Move::new(from, Square::from_index_unchecked(t)));
                        }
                    }
                }
            }
        } else {
            self.push_line_moves(kind, list, base, occ, theirs);
        }
        for from in Bitboard(self.by_piece[base + PieceKind::Horse.index()]) {
            push_blockable(list, from, &HORSE_MOVES[from.index()], occ, targets);
        }
        for from in Bitboard(self.by_piece[base + PieceKind::Elephant.index()]) {
            push_blockable(list, from, &ELEPHANT_MOVES[from.index()], occ, targets);
        }
        for from in Bitboard(self.by_piece[base + PieceKind::Advisor.index()]) {
            push_steps(list, from, &ADVISOR_MOVES[from.index()], targets);
        }
        for from in Bitboard(self.by_piece[base + PieceKind::Soldier.index()]) {
            push_steps(
                list,
                from,
                &SOLDIER_MOVES[us.index()][from.index()],
                targets,
            );
        }
        let general = self.generals[us.index()];
        push_steps(list, general, &GENERAL_MOVES[general.index()], targets);
    }

    /// Appends the chariots' and cannons' moves of `kind` (all, or quiet moves only: never
    /// captures only) by walking each ray point by point.
    #[inline]
    fn push_line_moves(
        &self,
        kind: GenKind,
        list: &mut MoveList,
        base: usize,
        occ: u128,
        theirs: u128,
    ) {
        for from in Bitboard(self.by_piece[base + PieceKind::Chariot.index()]) {
            for ray in &RAYS[from.index()] {
                for &t in &ray.squares[..ray.len as usize] {
                    let t = t as usize;
                    if occ & bit(t) == 0 {
                        list.push(Move::new(from, Square::from_index_unchecked(t)));
                    } else {
                        if theirs & bit(t) != 0 && kind != GenKind::Quiets {
                            list.push(Move::new(from, Square::from_index_unchecked(t)));
                        }
                        break;
                    }
                }
            }
        }
        for from in Bitboard(self.by_piece[base + PieceKind::Cannon.index()]) {
            for ray in &RAYS[from.index()] {
                let squares = &ray.squares[..ray.len as usize];
                let mut i = 0;
                while i < squares.len() {
                    let t = squares[i] as usize;
                    if occ & bit(t) != 0 {
                        break;
                    }
                    list.push(Move::new(from, Square::from_index_unchecked(t)));
                    i += 1;
                }
                if kind == GenKind::Quiets {
                    continue;
                }
                // Past the screen: the first piece is the only possible capture.
                i += 1;
                while i < squares.len() {
                    let t = squares[i] as usize;
                    if occ & bit(t) != 0 {
                        if theirs & bit(t) != 0 {
                            list.push(Move::new(from, Square::from_index_unchecked(t)));
                        }
                        break;
                    }
                    i += 1;
                }
            }
        }
    }

    /// Appends the legal moves of the given kind to `list`.
    pub fn generate_legal(&self, kind: GenKind, list: &mut MoveList) {
        let start = list.len();
        self.generate_pseudo_legal(kind, list);
        let (risky_from, risky_to) = self.risky_masks();
        let mut kept = start;
        let moves = list_tail(list, start);
        for i in 0..moves.len() {
            let m = moves[i];
            let (from, to) = (m.from().index(), m.to().index());
            let risky = risky_from & bit(from) != 0 || risky_to & bit(to) != 0;
            if !risky || self.is_safe_move(m) {
                moves[kept - start] = m;
                kept += 1;
            }
        }
        list.truncate(kept);
    }

    /// Points from which a move, and empty points onto which a move, might expose the side to
    /// move's general; any other move of a pseudo-legal move list is legal. In check, or for a
    /// move of the general itself, everything counts as risky.
    #[inline]
    fn risky_masks(&self) -> (u128, u128) {
        let us = self.side;
        let them = us.opponent();
        let king = self.generals[us.index()].index();
        if self.in_check() {
            return (u128::MAX, u128::MAX);
        }
        let occ = self.by_color[0] | self.by_color[1];
        let chariots = self.piece_mask(them, PieceKind::Chariot);
        let cannons = self.piece_mask(them, PieceKind::Cannon);
        let general = self.piece_mask(them, PieceKind::General);
        let mut risky_from = bit(king);
        let mut risky_to = 0u128;
        for (dir, ray) in RAYS[king].iter().enumerate() {
            let ray = ray.mask;
            let direct = if dir == NORTH || dir == SOUTH {
                chariots | general
            } else {
                chariots
            };
            if ray & (direct | cannons) == 0 {
                continue;
            }
            let blockers = ray & occ;
            let Some(b1) = nearest(blockers, dir) else {
                continue;
            };
            let rest = blockers & !bit(b1);
            if cannons & bit(b1) != 0 {
                // A piece dropped between the general and this cannon becomes its screen.
                risky_to |= ray & !RAYS[b1][dir].mask & !bit(b1);
            }
            let Some(b2) = nearest(rest, dir) else {
                continue;
            };
            let b3 = nearest(rest & !bit(b2), dir);
            let b3_is_cannon = b3.is_some_and(|b| cannons & bit(b) != 0);
            if direct & bit(b2) != 0 || b3_is_cannon {
                risky_from |= bit(b1);
            }
            if b3_is_cannon {
                risky_from |= bit(b2);
            }
        }
        let horses = self.piece_mask(them, PieceKind::Horse);
        if horses != 0 {
            let legs = &HORSE_ATTACKERS[king];
            for i in 0..legs.len as usize {
                if horses & bit(legs.to[i] as usize) != 0 {
                    risky_from |= bit(legs.block[i] as usize);
                }
            }
        }
        (risky_from, risky_to)
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(GenKind::All, &mut list);
        list
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.is_safe_move(m)
    }

    /// Whether `m` obeys how the moving piece moves (the general's safety aside). Cheap: it
    /// checks the geometry of the one move, for validating moves from tables and killers.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from().index(), m.to().index());
        let Some(piece) = self.piece_at(m.from()) else {
            return false;
        };
        if piece.color != self.side || from == to || self.by_color[self.side.index()] & bit(to) != 0
        {
            return false;
        }
        let occ = self.by_color[0] | self.by_color[1];
        match piece.kind {
            PieceKind::General => steps_contain(&GENERAL_MOVES[from], to),
            PieceKind::Advisor => steps_contain(&ADVISOR_MOVES[from], to),
            PieceKind::Soldier => steps_contain(&SOLDIER_MOVES[self.side.index()][from], to),
            PieceKind::Elephant => blockable_reaches(&ELEPHANT_MOVES[from], to, occ),
            PieceKind::Horse => blockable_reaches(&HORSE_MOVES[from], to, occ),
            PieceKind::Chariot => between(from, to).is_some_and(|b| b & occ == 0),
            PieceKind::Cannon => between(from, to).is_some_and(|b| {
                let screens = (b & occ).count_ones();
                if occ & bit(to) == 0 {
                    screens == 0
                } else {
                    screens == 1
                }
            }),
        }
    }

    /// The points the piece on `sq` reaches: empty points it can move to and occupied points it
    /// attacks, of either colour (so own pieces it protects are included). A cannon reaches the
    /// empty points before its screen and the first piece beyond it; the general its palace
    /// steps. Empty when `sq` is empty.
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        let Some(piece) = self.piece_at(sq) else {
            return Bitboard::EMPTY;
        };
        let from = sq.index();
        let occ = self.by_color[0] | self.by_color[1];
        let steps_mask = |steps: &Steps, blockable: bool| {
            let mut m = 0u128;
            for i in 0..steps.len as usize {
                if !blockable || occ & bit(steps.block[i] as usize) == 0 {
                    m |= bit(steps.to[i] as usize);
                }
            }
            m
        };
        let mask = match piece.kind {
            PieceKind::General => steps_mask(&GENERAL_MOVES[from], false),
            PieceKind::Advisor => steps_mask(&ADVISOR_MOVES[from], false),
            PieceKind::Soldier => steps_mask(&SOLDIER_MOVES[piece.color.index()][from], false),
            PieceKind::Elephant => steps_mask(&ELEPHANT_MOVES[from], true),
            PieceKind::Horse => steps_mask(&HORSE_MOVES[from], true),
            PieceKind::Chariot | PieceKind::Cannon => {
                let mut m = 0u128;
                for (dir, ray) in RAYS[from].iter().enumerate() {
                    let ray = ray.mask;
                    let Some((first, second)) = first_two(ray & occ, dir) else {
                        m |= ray;
                        continue;
                    };
                    let before = ray & !RAYS[first][dir].mask & !bit(first);
                    if piece.kind == PieceKind::Chariot {
                        m |= before | bit(first);
                    } else {
                        m |= before | second.map_or(0, bit);
                    }
                }
                m
            }
        };
        Bitboard(mask)
    }

    /// The pieces of `by` among `occupied` that attack `sq` when exactly the points of
    /// `occupied` hold pieces (so pieces can be taken away, as in an exchange). The general
    /// counts only for its steps inside the palace.
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let target = sq.index();
        let occ = occupied.0;
        let mine = |kind: PieceKind| self.piece_mask(by, kind) & occ;
        let mut attackers = SOLDIER_ATTACKERS[by.index()][target] & mine(PieceKind::Soldier);
        attackers |= unblocked(&HORSE_ATTACKERS[target], mine(PieceKind::Horse), occ);
        let chariots = mine(PieceKind::Chariot);
        let cannons = mine(PieceKind::Cannon);
        if LINES[target] & (chariots | cannons) != 0 {
            for (dir, ray) in RAYS[target].iter().enumerate() {
                let Some((first, second)) = first_two(ray.mask & occ, dir) else {
                    continue;
                };
                attackers |= (chariots & bit(first)) | second.map_or(0, |s| cannons & bit(s));
            }
        }
        // Elephant steps are symmetric: the points it comes from are the points it goes to.
        attackers |= unblocked(&ELEPHANT_MOVES[target], mine(PieceKind::Elephant), occ);
        let advisors = mine(PieceKind::Advisor);
        let general = mine(PieceKind::General);
        for (steps, pieces) in [
            (&ADVISOR_MOVES[target], advisors),
            (&GENERAL_MOVES[target], general),
        ] {
            for i in 0..steps.len as usize {
                attackers |= pieces & bit(steps.to[i] as usize);
            }
        }
        Bitboard(attackers)
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }
}

#[inline]
fn steps_contain(steps: &Steps, target: usize) -> bool {
    steps.to[..steps.len as usize]
        .iter()
        .any(|&t| t as usize == target)
}

/// The points strictly between `from` and `to` when they share a file or rank.
#[inline]
fn between(from: usize, to: usize) -> Option<u128> {
    let (ff, fr, tf, tr) = (from % 9, from / 9, to % 9, to / 9);
    let dir = if ff == tf {
        if tr > fr { NORTH } else { SOUTH }
    } else if fr == tr {
        if tf > ff { EAST } else { WEST }
    } else {
        return None;
    };
    Some(RAYS[from][dir].mask & !RAYS[to][dir].mask & !bit(to))
}

/// The points of `steps` that hold one of `pieces` and whose blocking point is empty.
#[inline]
fn unblocked(steps: &Steps, pieces: u128, occ: u128) -> u128 {
    let mut found = 0;
    for i in 0..steps.len as usize {
        let from = steps.to[i] as usize;
        if pieces & bit(from) != 0 && occ & bit(steps.block[i] as usize) == 0 {
            found |= bit(from);
        }
    }
    found
}

#[inline]
fn blockable_reaches(steps: &Steps, target: usize, occ: u128) -> bool {
    (0..steps.len as usize)
        .any(|i| steps.to[i] as usize == target && occ & bit(steps.block[i] as usize) == 0)
}

#[inline]
fn push_steps(list: &mut MoveList, from: Square, steps: &Steps, targets: u128) {
    for i in 0..steps.len as usize {
        let t = steps.to[i] as usize;
        if targets & bit(t) != 0 {
            list.push(Move::new(from, Square::from_index_unchecked(t)));
        }
    }
}

#[inline]
fn push_blockable(list: &mut MoveList, from: Square, steps: &Steps, occ: u128, targets: u128) {
    for i in 0..steps.len as usize {
        let t = steps.to[i] as usize;
        if targets & bit(t) != 0 && occ & bit(steps.block[i] as usize) == 0 {
            list.push(Move::new(from, Square::from_index_unchecked(t)));
        }
    }
}

fn list_tail(list: &mut MoveList, start: usize) -> &mut [Move] {
    &mut list.as_mut_slice()[start..]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays a fixed pseudo-random game and calls `visit` on every position.
    fn random_positions(seed: u64, plies: usize, mut visit: impl FnMut(&Position)) {
        let mut rng = crate::random::SplitMix64::new(seed);
        let mut pos = Position::startpos();
        for _ in 0..plies {
            visit(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.below(moves.len())]);
        }
    }

    #[test]
    fn single_move_check_agrees_with_generation() {
        for seed in 1..40 {
            random_positions(seed * 7919, 120, |pos| {
                let mut list = MoveList::new();
                pos.generate_pseudo_legal(GenKind::All, &mut list);
                for from in Square::all() {
                    for to in Square::all() {
                        let m = Move::new(from, to);
                        assert_eq!(pos.is_pseudo_legal(m), list.contains(m), "{pos:?} {m}");
                    }
                }
            });
        }
    }

    #[test]
    fn reach_agrees_with_generation() {
        for seed in 1..30 {
            random_positions(seed * 31, 120, |pos| {
                let us = pos.side_to_move();
                let mut list = MoveList::new();
                pos.generate_pseudo_legal(GenKind::All, &mut list);
                for from in pos.pieces_of(us) {
                    let generated: Vec<Square> = list
                        .iter()
                        .filter(|m| m.from() == from)
                        .map(|m| m.to())
                        .collect();
                    let reach = pos.attacks_from(from) & !pos.pieces_of(us);
                    let mut generated = generated;
                    generated.sort();
                    assert_eq!(reach.collect::<Vec<_>>(), generated, "{pos:?} from {from}");
                }
            });
        }
    }

    #[test]
    fn attackers_agree_with_captures() {
        for seed in 1..40 {
            random_positions(seed * 104_729, 120, |pos| {
                let us = pos.side_to_move();
                let mut captures = MoveList::new();
                pos.generate_pseudo_legal(GenKind::Captures, &mut captures);
                for to in pos.pieces_of(us.opponent()) {
                    let expected: Vec<Square> = captures
                        .iter()
                        .filter(|m| m.to() == to)
                        .map(|m| m.from())
                        .collect();
                    let found: Vec<Square> = pos.attackers_to(to, us, pos.occupied()).collect();
                    let mut expected = expected;
                    expected.sort();
                    assert_eq!(found, expected, "{pos:?} attackers of {to}");
                }
            });
        }
    }
}
