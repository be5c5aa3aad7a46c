//! The network's input features: which piece stands on which point, seen from one side.
//!
//! Each perspective has [`INPUTS`] = 1260 inputs, `relation * 630 + kind * 90 + square`:
//! `relation` is 0 for the perspective's own pieces and 1 for the opponent's, `kind` is
//! [`PieceKind::index`] (K A B N R C P = 0..6), and `square` is [`Square::index`] for Red's
//! perspective and the point with its rank turned (`(9 - rank) * 9 + file`, files kept) for
//! Black's, so both sides see their own pieces from their own back rank. The trainer builds its
//! inputs with these same functions, so training and inference cannot disagree.

use xiangqi_rules::square::SQUARE_COUNT;
use xiangqi_rules::{Color, Piece, Position, Square};

/// Inputs per perspective: 2 relations × 7 kinds × 90 points.
pub const INPUTS: usize = 2 * 7 * SQUARE_COUNT;

/// Inputs of one relation (own or opponent's pieces): 7 kinds × 90 points.
const RELATION_STRIDE: usize = 7 * SQUARE_COUNT;

/// The most pieces that can stand on the board, hence the most active features per perspective.
pub const MAX_ACTIVE: usize = 32;

/// The input index of `piece` standing on `square`, seen from `perspective`'s side.
#[inline]
pub fn feature_index(perspective: Color, piece: Piece, square: Square) -> usize {
    let relation = usize::from(piece.color != perspective);
    let point = match perspective {
        Color::Red => square.index(),
        Color::Black => (9 - square.rank() as usize) * 9 + square.file() as usize,
    };
    relation * RELATION_STRIDE + piece.kind.index() * SQUARE_COUNT + point
}

/// Appends to `out` the index of every input that is on in `pos` from `perspective`'s side,
/// in the order of the points (`a0` first). `out` is not cleared first.
pub fn active_features(pos: &Position, perspective: Color, out: &mut Vec<usize>) {
    for square in pos.occupied() {
        if let Some(piece) = pos.piece_at(square) {
            out.push(feature_index(perspective, piece, square));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_rules::PieceKind;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::new(b[0] - b'a', b[1] - b'0').unwrap()
    }

    fn sorted_features(pos: &Position, perspective: Color) -> Vec<usize> {
        let mut v = Vec::new();
        active_features(pos, perspective, &mut v);
        v.sort_unstable();
        v
    }

    #[test]
    fn both_views_of_the_start_position_are_the_same_set() {
        let pos = Position::startpos();
        let red = sorted_features(&pos, Color::Red);
        let black = sorted_features(&pos, Color::Black);
        assert_eq!(red.len(), 32);
        assert_eq!(red, black);
    }

    #[test]
    fn indices_worked_by_hand() {
        let red_general = Piece::new(Color::Red, PieceKind::General);
        let black_cannon = Piece::new(Color::Black, PieceKind::Cannon);
        let red_soldier = Piece::new(Color::Red, PieceKind::Soldier);
        // Red general on e0 (index 4): own piece, kind 0.
        assert_eq!(feature_index(Color::Red, red_general, sq("e0")), 4);
        // From Black's side it is an opponent's piece on the turned point e9 = 9*9+4 = 85.
        assert_eq!(feature_index(Color::Black, red_general, sq("e0")), 630 + 85);
        // Black cannon on b7 (7*9+1 = 64): from Red, opponent, kind 5 → 630 + 450 + 64.
        assert_eq!(feature_index(Color::Red, black_cannon, sq("b7")), 1144);
        // From Black: own piece on the turned point b2 = 2*9+1 = 19 → 450 + 19.
        assert_eq!(feature_index(Color::Black, black_cannon, sq("b7")), 469);
        // Red soldier on i6 (6*9+8 = 62): own, kind 6 → 540 + 62.
        assert_eq!(feature_index(Color::Red, red_soldier, sq("i6")), 602);
        // Files are not mirrored: from Black, i6 turns to i3 = 3*9+8 = 35.
        assert_eq!(
            feature_index(Color::Black, red_soldier, sq("i6")),
            630 + 540 + 35
        );
    }

    #[test]
    fn every_piece_and_point_has_its_own_index_below_inputs() {
        for perspective in Color::ALL {
            let mut seen = vec![false; INPUTS];
            for color in Color::ALL {
                for kind in PieceKind::ALL {
                    for square in Square::all() {
                        let i = feature_index(perspective, Piece::new(color, kind), square);
                        assert!(i < INPUTS);
                        assert!(!seen[i], "index {i} given twice");
                        seen[i] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn active_features_lists_one_index_per_piece() {
        let pos: Position = "4k4/9/9/9/9/9/9/9/4A4/3K1R3 w - - 0 1".parse().unwrap();
        let red = sorted_features(&pos, Color::Red);
        let mut expected = vec![
            feature_index(
                Color::Red,
                Piece::new(Color::Red, PieceKind::General),
                sq("d0"),
            ),
            feature_index(
                Color::Red,
                Piece::new(Color::Red, PieceKind::Chariot),
                sq("f0"),
            ),
            feature_index(
                Color::Red,
                Piece::new(Color::Red, PieceKind::Advisor),
                sq("e1"),
            ),
            feature_index(
                Color::Red,
                Piece::new(Color::Black, PieceKind::General),
                sq("e9"),
            ),
        ];
        expected.sort_unstable();
        assert_eq!(red, expected);
    }
}
