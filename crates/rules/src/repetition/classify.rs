//! What one move threatens: a check, a chase (naming the chased pieces), or nothing (idle).
//!
//! The words, as the Asian (AXF/WXF) rule book uses them:
//!
//! - **Attack.** A piece attacks an opposing piece when it could capture it by a legal move were
//!   it its side's turn. A pinned piece — one that cannot leave its point without exposing its
//!   own general, be it on a line, as a cannon screen, on a horse's leg, or between the two
//!   generals — attacks nothing, not even the piece that pins it (AXF diagrams 39–41).
//! - **Protection.** A piece is protected when, after the attacker captures it, one of its own
//!   side can legally capture the attacker back: a *real* protector. A protector that is pinned,
//!   that loses its cannon screen in the capture, or whose recapture would expose its own
//!   general (including to the facing general) is a *fake* protector and does not count.
//! - **Chase.** An attack that threatens to win the piece: the target is unprotected, or it
//!   is a chariot attacked by a horse or a cannon (chased even when protected). Exemptions: the
//!   general and soldiers may attack freely; a soldier that has not crossed the river is never
//!   chased; attacking a piece of the same kind that can legally capture back is an offer to
//!   exchange, not a chase.
//! - **What a move chases (Asian).** The chases that hold after the move (judged as if the
//!   mover were to move again) and did not hold before it, attacker by attacker: the moved
//!   piece's new attacks, attacks it discovers, and attacks that become chases because the move
//!   pinned or blocked a protector. Attacks that already stood before the move are not chases,
//!   so a piece that stays attacked without moving away is not being chased. When the mover was
//!   in check before its move, attacks held back only by that check still count as standing.
//! - **What a move attacks (CXQ).** Every threat of the moved piece after the move, and of a
//!   cannon for which the moved piece became the screen; threats on protected pieces are
//!   attacks too (they cost efficiency) but only threats that would be chases count toward a
//!   perpetual attack. A threat on a piece of the same kind is a sacrifice or exchange, not an
//!   attack, when some opposing piece can legally capture the moved piece.

use super::RuleSet;
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::piece::{Color, Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;

/// The most threats one move records (attacker and target pairs); far above what a position
/// can hold.
pub const MAX_THREATS: usize = 48;

/// One piece threatening an opposing piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Threat {
    /// The threatening piece's point after the move.
    pub attacker: Square,
    /// The threatened piece's point.
    pub target: Square,
    /// Whether the threatened piece had a real protector.
    pub protected: bool,
    /// Whether the threat counts toward a perpetual chase: the target is unprotected, or it
    /// is a chariot attacked by a horse or a cannon. Under the Asian rules every recorded
    /// threat counts; under CXQ threats on protected pieces are recorded as plain attacks.
    pub counts: bool,
}

/// Check, chase or idle: the one-word class of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// The move gives check (whatever else it does).
    Check,
    /// The move chases at least one piece and gives no check.
    Chase,
    /// Neither.
    Idle,
}

/// What a move does to the opponent, for the perpetual rules.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MoveClass {
    checkers: Bitboard,
    threats: [Threat; MAX_THREATS],
    len: u8,
}

impl MoveClass {
    /// A move that neither checks nor threatens anything.
    pub const IDLE: MoveClass = MoveClass {
        checkers: Bitboard::EMPTY,
        threats: [Threat {
            attacker: Square::from_index_unchecked(0),
            target: Square::from_index_unchecked(0),
            protected: false,
            counts: false,
        }; MAX_THREATS],
        len: 0,
    };

    /// Whether the move gives check.
    #[inline]
    pub fn is_check(&self) -> bool {
        !self.checkers.is_empty()
    }

    /// The mover's pieces that give check after the move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Every threat the move makes (see [`Threat::counts`] for which are chases).
    #[inline]
    pub fn threats(&self) -> &[Threat] {
        &self.threats[..self.len as usize]
    }

    /// The points of the pieces the move chases (threats that count).
    pub fn chased(&self) -> Bitboard {
        let mut b = 0u128;
        for t in self.threats().iter().filter(|t| t.counts) {
            b |= 1u128 << t.target.index();
        }
        Bitboard(b)
    }

    /// Whether the move chases some piece.
    pub fn is_chase(&self) -> bool {
        self.threats().iter().any(|t| t.counts)
    }

    /// Whether the move threatens some piece at all (a CXQ attack, protected target or not).
    pub fn is_attack(&self) -> bool {
        self.len > 0
    }

    /// Check, chase or idle, in that order of precedence.
    pub fn kind(&self) -> MoveKind {
        if self.is_check() {
            MoveKind::Check
        } else if self.is_chase() {
            MoveKind::Chase
        } else {
            MoveKind::Idle
        }
    }

    fn push(&mut self, threat: Threat) {
        if (self.len as usize) < MAX_THREATS {
            self.threats[self.len as usize] = threat;
            self.len += 1;
        }
    }
}

impl Default for MoveClass {
    fn default() -> Self {
        MoveClass::IDLE
    }
}

impl std::fmt::Debug for MoveClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MoveClass")
            .field("checkers", &self.checkers.collect::<Vec<_>>())
            .field("threats", &self.threats())
            .finish()
    }
}

/// Classifies the legal move `m` of `before` under `rules`.
pub fn classify(before: &Position, m: Move, rules: RuleSet) -> MoveClass {
    let mut after = before.clone();
    after.make_move(m);
    classify_played(before, &after, m, rules)
}

/// Like [`classify`], with the position after the move already at hand.
pub fn classify_played(before: &Position, after: &Position, m: Move, rules: RuleSet) -> MoveClass {
    classify_targets(before, after, m, rules, u128::MAX)
}

/// Like [`classify_played`], looking only at threats against pieces on the points of
/// `targets` (after the move); checks are always found.
pub(crate) fn classify_targets(
    before: &Position,
    after: &Position,
    m: Move,
    rules: RuleSet,
    targets: u128,
) -> MoveClass {
    let mover = before.side_to_move();
    let them = mover.opponent();
    let mut class = MoveClass {
        checkers: after.attackers_to(after.general(them), mover, after.occupied()),
        ..MoveClass::IDLE
    };
    match rules {
        RuleSet::Asian => {
            let now = threats_in(after, mover, Scope::All, targets);
            if now.threats().is_empty() {
                return class;
            }
            // Only the chases found after the move need looking up before it.
            let mut was = Board::new(before, mover, Scope::All);
            for t in now.threats() {
                let from = if t.attacker == m.to() {
                    m.from()
                } else {
                    t.attacker
                };
                let standing = was.attacks(from, t.target) && was.judge(from, t.target).is_some();
                if !standing {
                    class.push(*t);
                }
            }
        }
        RuleSet::Cxq => {
            let found = threats_in(after, mover, Scope::MovedPiece(m.to()), targets);
            for t in found.threats() {
                class.push(*t);
            }
        }
    }
    class
}

/// The threats in `scope` that `side` holds in `pos` against pieces on `targets`, judged as
/// if `side` were to move.
fn threats_in(pos: &Position, side: Color, scope: Scope, targets: u128) -> MoveClass {
    let them = side.opponent();
    let occ = pos.occupied().0;
    let targets =
        targets & pos.pieces_of(them).0 & !pos.pieces(Piece::new(them, PieceKind::General)).0;
    if targets == 0 {
        return MoveClass::IDLE;
    }
    let able = pos.pieces_of(side).0
        & !pos.pieces(Piece::new(side, PieceKind::General)).0
        & !pos.pieces(Piece::new(side, PieceKind::Soldier)).0;
    let attackers = match scope {
        Scope::All => able,
        Scope::MovedPiece(moved) => {
            (bit(moved) | pos.pieces(Piece::new(side, PieceKind::Cannon)).0) & able
        }
    };
    // Geometry first, on the position as it is: most positions hold no threat at all.
    let mut pairs = [(Square::default(), 0u128); 16];
    let mut n = 0;
    for a in Bitboard(attackers) {
        let mut hit = pos.attacks_from(a).0 & targets;
        if let Scope::MovedPiece(moved) = scope
            && a != moved
        {
            // A cannon counts only where the moved piece is its screen.
            hit = Bitboard(hit)
                .filter(|&x| line_between(a, x).is_some_and(|b| b & occ == bit(moved)))
                .fold(0, |acc, x| acc | bit(x));
        }
        if hit != 0 && n < pairs.len() {
            pairs[n] = (a, hit);
            n += 1;
        }
    }
    let mut found = MoveClass::IDLE;
    if n == 0 {
        return found;
    }
    let mut board = Board::new(pos, side, scope);
    for &(a, hit) in &pairs[..n] {
        for x in Bitboard(hit) {
            if let Some(t) = board.judge(a, x) {
                found.push(t);
            }
        }
    }
    found
}

/// Which attackers a threat search looks at.
#[derive(Clone, Copy)]
enum Scope {
    /// Every piece of the side (Asian rules).
    All,
    /// The piece on this point, and cannons for which it is the screen; threats on protected
    /// pieces are recorded too, and the CXQ exchange test applies (CXQ).
    MovedPiece(Square),
}

#[inline]
fn bit(sq: Square) -> u128 {
    1u128 << sq.index()
}

/// The points strictly between `a` and `b` when they share a file or a rank.
fn line_between(a: Square, b: Square) -> Option<u128> {
    let (af, ar, bf, br) = (
        a.file() as i8,
        a.rank() as i8,
        b.file() as i8,
        b.rank() as i8,
    );
    if af != bf && ar != br {
        return None;
    }
    let (df, dr) = ((bf - af).signum(), (br - ar).signum());
    let mut mask = 0u128;
    let mut sq = a.offset(df, dr)?;
    while sq != b {
        mask |= bit(sq);
        sq = sq.offset(df, dr)?;
    }
    Some(mask)
}

/// The other general, when it faces `color`'s general on an open file with occupancy `occ`.
fn facing_general(pos: &Position, color: Color, occ: u128) -> u128 {
    let ours = pos.general(color);
    let theirs = pos.general(color.opponent());
    match line_between(ours, theirs) {
        Some(between) if ours.file() == theirs.file() && between & occ == 0 => bit(theirs),
        _ => 0,
    }
}

/// The pieces attacking `color`'s general: pieces of the other side that could capture it,
/// and the other general when the two face each other on an open file.
pub(crate) fn general_attackers(pos: &Position, color: Color) -> u128 {
    pos.attackers_to(pos.general(color), color.opponent(), pos.occupied())
        .0
        | facing_general(pos, color, pos.occupied().0)
}

/// Whether the side to move of `pos` may play `m` without exposing its general to a piece
/// other than those in `checked`, the pieces attacking it already. Checks already on the
/// board are set aside: a threat is judged as if the side had first dealt with them.
fn allowed_despite_checks(pos: &mut Position, m: Move, checked: u128) -> bool {
    if checked == 0 {
        return pos.is_safe_move(m);
    }
    let us = pos.side_to_move();
    let general_moves = m.from() == pos.general(us);
    let undo = pos.make_move(m);
    let after = general_attackers(pos, us);
    pos.unmake_move(m, undo);
    if general_moves {
        after == 0
    } else {
        after & !checked == 0
    }
}

/// Whether `piece` on `sq` is a soldier that has not crossed the river.
fn is_uncrossed_soldier(piece: Piece, sq: Square) -> bool {
    piece.kind == PieceKind::Soldier && piece.color.is_own_half(sq.rank())
}

/// A position seen from `side`, which is to judge its threats as if it were to move.
struct Board {
    /// The position with `side` to move.
    ours: Position,
    /// The position with the other side to move, built when first needed.
    theirs: Option<Position>,
    side: Color,
    scope: Scope,
    /// The pieces attacking `side`'s general already.
    checked: u128,
    /// The pieces attacking the other general already (the move being judged may be a
    /// check; the other side's replies are judged as if it had dealt with it).
    their_checked: u128,
    /// Points of `side` known to be pinned, and known not to be.
    pinned: u128,
    free: u128,
}

impl Board {
    fn new(pos: &Position, side: Color, scope: Scope) -> Board {
        let mut ours = pos.clone();
        ours.set_side(side);
        Board {
            checked: general_attackers(pos, side),
            their_checked: general_attackers(pos, side.opponent()),
            ours,
            theirs: None,
            side,
            scope,
            pinned: 0,
            free: 0,
        }
    }

    /// The position with the other side to move.
    fn theirs(&mut self) -> &mut Position {
        let side = self.side;
        let ours = &self.ours;
        self.theirs.get_or_insert_with(|| {
            let mut p = ours.clone();
            p.set_side(side.opponent());
            p
        })
    }

    /// Whether the piece on `a` attacks the point `x` by the geometry of its moves.
    fn attacks(&self, a: Square, x: Square) -> bool {
        self.ours.attacks_from(a).contains(x)
    }

    /// Whether the piece of `side` on `sq` is pinned: taking it off the board would expose
    /// its general to a piece not attacking it already. A pinned piece attacks nothing, not
    /// even the piece that pins it (AXF diagrams 39–41: a chariot held on a horse's leg does
    /// not chase that horse).
    fn is_pinned(&mut self, sq: Square) -> bool {
        let b = bit(sq);
        if self.pinned & b != 0 {
            return true;
        }
        if self.free & b != 0 {
            return false;
        }
        let pos = &self.ours;
        let occ = pos.occupied().0 & !b;
        let exposed = pos
            .attackers_to(pos.general(self.side), self.side.opponent(), Bitboard(occ))
            .0
            | facing_general(pos, self.side, occ);
        let pinned = exposed & !self.checked != 0;
        if pinned {
            self.pinned |= b;
        } else {
            self.free |= b;
        }
        pinned
    }

    /// Whether `side` may capture with `m` without exposing its general to a piece that was
    /// not attacking it already.
    fn capture_allowed(&mut self, m: Move) -> bool {
        allowed_despite_checks(&mut self.ours, m, self.checked)
    }

    /// Whether, after `side` plays the capture `m`, the other side can legally capture back
    /// on the same point.
    fn has_real_protector(&mut self, m: Move) -> bool {
        let target = m.to();
        let pos = &mut self.ours;
        let undo = pos.make_move(m);
        let defenders = pos.attackers_to(target, pos.side_to_move(), pos.occupied());
        let checked = self.their_checked;
        let protected = defenders
            .into_iter()
            .any(|d| allowed_despite_checks(pos, Move::new(d, target), checked));
        pos.unmake_move(m, undo);
        protected
    }

    /// Whether the other side can legally capture the piece on `target` with the piece on
    /// `from`.
    fn they_can_capture(&mut self, from: Square, target: Square) -> bool {
        let checked = self.their_checked;
        let pos = self.theirs();
        pos.attacks_from(from).contains(target)
            && allowed_despite_checks(pos, Move::new(from, target), checked)
    }

    /// The threat of the piece on `a` against the piece on `x`, which it attacks by
    /// geometry: `None` when it is no threat at all, or (Asian) no chase.
    fn judge(&mut self, a: Square, x: Square) -> Option<Threat> {
        let attacker = self.ours.piece_at(a)?;
        let target = self.ours.piece_at(x)?;
        if attacker.color != self.side
            || target.color == self.side
            || matches!(attacker.kind, PieceKind::General | PieceKind::Soldier)
            || target.kind == PieceKind::General
            || is_uncrossed_soldier(target, x)
        {
            return None;
        }
        let capture = Move::new(a, x);
        if self.is_pinned(a) || !self.capture_allowed(capture) {
            return None;
        }
        if attacker.kind == target.kind {
            let exchange = match self.scope {
                Scope::All => self.they_can_capture(x, a),
                Scope::MovedPiece(moved) => a == moved && self.moved_en_prise(moved),
            };
            if exchange {
                return None;
            }
        }
        let forced = target.kind == PieceKind::Chariot
            && matches!(attacker.kind, PieceKind::Horse | PieceKind::Cannon);
        let protected = self.has_real_protector(capture);
        let counts = forced || !protected;
        (counts || matches!(self.scope, Scope::MovedPiece(_))).then_some(Threat {
            attacker: a,
            target: x,
            protected,
            counts,
        })
    }

    /// CXQ: whether some opposing piece can legally capture the piece on `moved`.
    fn moved_en_prise(&mut self, moved: Square) -> bool {
        let them = self.side.opponent();
        let checked = self.their_checked;
        let pos = self.theirs();
        pos.attackers_to(moved, them, pos.occupied())
            .into_iter()
            .any(|d| allowed_despite_checks(pos, Move::new(d, moved), checked))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse::<Square>().unwrap()
    }

    fn mv(s: &str) -> Move {
        s.parse::<Move>().unwrap()
    }

    fn class(fen: &str, m: &str) -> MoveClass {
        let pos = Position::from_fen(fen).unwrap();
        let m = mv(m);
        assert!(pos.is_legal(m), "{m} is not legal in {fen}");
        classify(&pos, m, RuleSet::Asian)
    }

    fn chased(fen: &str, m: &str) -> Vec<String> {
        class(fen, m).chased().map(|s| s.to_string()).collect()
    }

    #[test]
    fn chariot_attacking_an_unprotected_horse_chases_it() {
        // The red chariot swings to the d-file, where the black horse on d6 has no protector.
        assert_eq!(chased("4k4/9/9/3n5/9/9/9/9/9/R4K3 w", "a0d0"), ["d6"]);
    }

    #[test]
    fn attacking_a_protected_piece_is_idle() {
        // The black chariot on d9 takes back on d6.
        let c = class("3rk4/9/9/3n5/9/9/9/9/9/R4K3 w", "a0d0");
        assert_eq!(c.kind(), MoveKind::Idle, "{c:?}");
    }

    #[test]
    fn fake_protection_by_a_pinned_protector_does_not_count() {
        // The black chariot on e8 guards the cannon on c8 along the rank, but it is pinned to
        // its general by the red chariot on e0: taking back would open the e-file.
        assert_eq!(chased("4k4/2c1r4/9/9/9/9/9/9/9/R3RK3 w", "a0c0"), ["c8"]);
    }

    #[test]
    fn fake_protection_by_facing_generals_does_not_count() {
        // The black general on d9 is the only protector of the horse on d8; taking back on d8
        // would put it on the open d-file facing the red general on d0.
        assert_eq!(chased("3k5/3n5/9/9/9/9/9/9/9/R2K5 w", "a0a8"), ["d8"]);
        // With a piece between the generals the recapture is legal: the horse is protected.
        let c = class("3k5/3n5/9/9/9/3p5/9/9/9/R2K5 w", "a0a8");
        assert_eq!(c.kind(), MoveKind::Idle, "{c:?}");
    }

    #[test]
    fn the_general_and_soldiers_may_chase() {
        // A crossed soldier steps next to an unprotected horse.
        let c = class("3k5/9/9/4n4/3P5/9/9/9/9/4K4 w", "d5d6");
        assert!(!c.is_chase(), "{c:?}");
        // The general steps next to an unprotected cannon.
        let c = class("5k3/9/9/9/9/9/9/9/4c4/3K5 w", "d0e0");
        assert!(!c.is_chase(), "{c:?}");
    }

    #[test]
    fn an_uncrossed_soldier_is_never_chased() {
        // The chariot attacks a black soldier still on its own half: idle.
        let c = class("4k4/9/9/4p4/9/9/9/9/9/R4K3 w", "a0a6");
        assert!(!c.is_chase(), "{c:?}");
        // A soldier that crossed the river can be chased.
        assert_eq!(chased("4k4/9/9/9/9/9/4p4/9/9/R2K5 w", "a0a3"), ["e3"]);
    }

    #[test]
    fn offering_an_exchange_of_like_pieces_is_not_a_chase() {
        // The chariot faces the unprotected black chariot, which can take it: an exchange.
        let c = class("4k4/9/9/3r5/9/9/9/9/9/R4K3 w", "a0d0");
        assert!(!c.is_chase(), "{c:?}");
        // The black chariot on e7 is pinned to its general by the red chariot on e0, so it
        // cannot take back along the rank: attacking it is a chase.
        assert_eq!(chased("4k4/9/4r4/9/9/9/9/9/9/R3RK3 w", "a0a7"), ["e7"]);
    }

    #[test]
    fn a_chariot_attacked_by_a_horse_or_cannon_is_chased_even_when_protected() {
        // The black chariot on d7 is protected by the chariot on d9.
        assert_eq!(chased("3rk4/9/3r5/9/9/3p5/9/9/9/C4K3 w", "a0d0"), ["d7"]);
        assert_eq!(chased("3rk4/9/3r5/9/9/2N6/9/9/9/5K3 w", "c4e5"), ["d7"]);
    }

    #[test]
    fn a_discovered_attack_is_a_chase() {
        // The red horse leaves the a-file and uncovers the chariot's attack on the cannon.
        assert_eq!(chased("4k4/c8/9/9/9/9/N8/9/9/R4K3 w", "a3b5"), ["a8"]);
    }

    #[test]
    fn an_attack_that_stood_before_the_move_is_not_a_chase() {
        // The chariot slides along the a-file and still attacks the cannon on a8.
        let c = class("4k4/c8/9/9/9/9/9/9/9/R4K3 w", "a0a1");
        assert!(!c.is_chase(), "{c:?}");
    }

    #[test]
    fn a_check_can_chase_too() {
        // The horse checks from c8 and attacks the chariot on a9.
        let c = class("r3k4/9/9/1N7/9/9/9/9/9/5K3 w", "b6c8");
        assert_eq!(c.kind(), MoveKind::Check);
        assert_eq!(c.chased().collect::<Vec<_>>(), [sq("a9")]);
    }
}
