//! Static exchange evaluation: the material balance of the capture sequence on one point,
//! with cannon screens and horse legs recomputed as pieces leave the board.

use crate::score::Score;
use xiangqi_rules::{Bitboard, Move, PieceKind, Position};

/// Exchange values of the pieces, K A B N R C P.
pub const SEE_VALUE: [Score; 7] = [10_000, 200, 200, 400, 900, 450, 100];

/// The exchange value of the piece on a point, 0 when empty.
#[inline]
pub fn value_at(pos: &Position, sq: xiangqi_rules::Square) -> Score {
    pos.piece_at(sq).map_or(0, |p| SEE_VALUE[p.kind.index()])
}

/// Whether the exchange started by `m` wins at least `threshold` for the mover.
pub fn see_ge(pos: &Position, m: Move, threshold: Score) -> bool {
    let (from, to) = (m.from(), m.to());
    let mut swap = value_at(pos, to) - threshold;
    if swap < 0 {
        return false;
    }
    swap = value_at(pos, from) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = pos.occupied() ^ Bitboard::from_square(from);
    let mut side = pos.side_to_move();
    let mut result = true;
    loop {
        side = side.opponent();
        // Attackers change as pieces leave: a departing screen or leg opens new lines.
        let attackers = pos.attackers_to(to, side, occupied);
        if attackers.is_empty() {
            break;
        }
        let (kind, sq) = least_valuable(pos, attackers);
        if kind == PieceKind::General {
            // The general may only take if the other side has nothing left to recapture.
            let defenders = pos.attackers_to(to, side.opponent(), occupied);
            return if defenders.is_empty() {
                !result
            } else {
                result
            };
        }
        result = !result;
        swap = SEE_VALUE[kind.index()] - swap;
        if swap < result as Score {
            break;
        }
        occupied = occupied ^ Bitboard::from_square(sq);
    }
    result
}

fn least_valuable(pos: &Position, attackers: Bitboard) -> (PieceKind, xiangqi_rules::Square) {
    let mut best: Option<(Score, PieceKind, xiangqi_rules::Square)> = None;
    for sq in attackers {
        let kind = pos.piece_at(sq).expect("attacker stands on the board").kind;
        let v = SEE_VALUE[kind.index()];
        if best.is_none_or(|(bv, _, _)| v < bv) {
            best = Some((v, kind, sq));
        }
    }
    let (_, kind, sq) = best.expect("non-empty attackers");
    (kind, sq)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse::<Move>().unwrap()
    }

    #[test]
    fn free_capture_wins_its_value() {
        // The chariot takes an undefended horse.
        let pos = Position::from_fen("3k5/9/9/9/4n4/9/9/4R4/9/5K3 w").unwrap();
        assert!(see_ge(&pos, mv("e2e5"), 400));
        assert!(!see_ge(&pos, mv("e2e5"), 401));
    }

    #[test]
    fn defended_piece_costs_the_chariot() {
        // The soldier on e5 is guarded by the chariot on e9: chariot takes soldier, loses itself.
        let pos = Position::from_fen("3kr4/9/9/9/4p4/9/9/4R4/9/5K3 w").unwrap();
        assert!(!see_ge(&pos, mv("e2e5"), 0));
    }

    #[test]
    fn cannon_screen_appears_behind_the_capture() {
        // Red's chariot takes on e5; the Black cannon on e9 jumps the elephant on e7 and
        // recaptures: the chariot is lost for a soldier.
        let pos = Position::from_fen("3kc4/9/4b4/9/4p4/9/9/4R4/9/5K3 w").unwrap();
        assert!(!see_ge(&pos, mv("e2e5"), 0));
        // Without the screen the capture is free.
        let pos = Position::from_fen("3kc4/9/9/9/4p4/9/9/4R4/9/5K3 w").unwrap();
        assert!(see_ge(&pos, mv("e2e5"), 100));
    }

    #[test]
    fn horse_leg_blocks_the_recapture() {
        // The Black horse on d7 would guard e5, but a Red soldier stands on its leg, d6.
        let blocked = Position::from_fen("3k5/9/3n5/3P5/4p4/9/9/4R4/9/5K3 w").unwrap();
        assert!(see_ge(&blocked, mv("e2e5"), 100));
        let open = Position::from_fen("3k5/9/3n5/9/4p4/9/9/4R4/9/5K3 w").unwrap();
        assert!(!see_ge(&open, mv("e2e5"), 0));
    }
}
