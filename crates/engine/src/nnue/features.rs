//! The network's input features: which piece stands on which point, seen from one side.
//!
//! Each perspective has [`INPUTS`] = 1260 inputs per palace bucket,
//! `bucket * 1260 + relation * 630 + kind * 90 + square`: `relation` is 0 for the
//! perspective's own pieces and 1 for the opponent's, `kind` is [`PieceKind::index`]
//! (K A B N R C P = 0..6), and `square` is [`Square::index`] for Red's perspective and the
//! point with its rank turned (`(9 - rank) * 9 + file`) for Black's, so both sides see their
//! own pieces from their own back rank.
//!
//! A network of one palace bucket (the first architecture) stops there. A network of
//! [`PALACE_BUCKETS`] gives each point of the palace where the perspective's own general
//! stands its own inputs, mirror-reduced: with the general on the `f` file the board is seen
//! mirrored left to right (files `a` ↔ `i`), so the `d` and `f` files share buckets, and the
//! bucket is `2 · rank + (file ≠ e)` with the rank counted from the perspective's back rank.
//! The trainer builds its inputs with these same functions, so training and inference cannot
//! disagree.
//!
//! [`PieceKind::index`]: xiangqi_rules::PieceKind::index

use xiangqi_rules::square::SQUARE_COUNT;
use xiangqi_rules::{Color, Piece, Position, Square};

/// Inputs per perspective and palace bucket: 2 relations × 7 kinds × 90 points.
pub const INPUTS: usize = 2 * 7 * SQUARE_COUNT;

/// The palace buckets of a network that has them: 3 ranks × (the `e` file, the `d` and `f`
/// files mirrored together).
pub const PALACE_BUCKETS: usize = 6;

/// Inputs of one relation (own or opponent's pieces): 7 kinds × 90 points.
const RELATION_STRIDE: usize = 7 * SQUARE_COUNT;

/// The most pieces that can stand on the board, hence the most active features per perspective.
pub const MAX_ACTIVE: usize = 32;

/// How one side sees the board: the palace bucket of its general and whether the board is
/// mirrored. Every input of that side changes when its view does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// The palace bucket, below the network's palace bucket count.
    pub bucket: usize,
    /// Files are seen mirrored (`a` ↔ `i`).
    pub mirror: bool,
}

impl View {
    /// `perspective`'s view with its general on `general`, in a network of `palace_buckets`
    /// buckets (1: the same view everywhere; otherwise [`PALACE_BUCKETS`]).
    #[inline]
    pub fn new(perspective: Color, general: Square, palace_buckets: usize) -> View {
        if palace_buckets <= 1 {
            return View::default();
        }
        let rank = match perspective {
            Color::Red => general.rank(),
            Color::Black => 9 - general.rank(),
        };
        let file = general.file();
        View {
            bucket: usize::from(rank.min(2)) * 2 + usize::from(file != 4),
            mirror: file > 4,
        }
    }

    /// `perspective`'s view of `pos`.
    #[inline]
    pub fn of(pos: &Position, perspective: Color, palace_buckets: usize) -> View {
        View::new(perspective, pos.general(perspective), palace_buckets)
    }
}

/// The input index of `piece` standing on `square`, seen from `perspective`'s side with
/// `view`.
#[inline]
pub fn feature_index(perspective: Color, view: View, piece: Piece, square: Square) -> usize {
    let relation = usize::from(piece.color != perspective);
    let file = if view.mirror {
        8 - square.file() as usize
    } else {
        square.file() as usize
    };
    let rank = match perspective {
        Color::Red => square.rank() as usize,
        Color::Black => 9 - square.rank() as usize,
    };
    view.bucket * INPUTS
        + relation * RELATION_STRIDE
        + piece.kind.index() * SQUARE_COUNT
        + rank * 9
        + file
}

/// Appends to `out` the index of every input that is on from `perspective`'s side when
/// `pieces` stand on the board and `perspective`'s general on `general`, in a network of
/// `palace_buckets` buckets. `out` is not cleared first.
pub fn features_of(
    pieces: impl IntoIterator<Item = (Piece, Square)>,
    perspective: Color,
    general: Square,
    palace_buckets: usize,
    out: &mut Vec<usize>,
) {
    let view = View::new(perspective, general, palace_buckets);
    out.extend(
        pieces
            .into_iter()
            .map(|(piece, square)| feature_index(perspective, view, piece, square)),
    );
}

/// [`features_of`] the pieces of `pos`, in the order of the points (`a0` first).
pub fn active_features(
    pos: &Position,
    perspective: Color,
    palace_buckets: usize,
    out: &mut Vec<usize>,
) {
    let pieces = pos
        .occupied()
        .filter_map(|square| pos.piece_at(square).map(|piece| (piece, square)));
    features_of(
        pieces,
        perspective,
        pos.general(perspective),
        palace_buckets,
        out,
    );
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
        sorted_bucketed(pos, perspective, 1)
    }

    fn sorted_bucketed(pos: &Position, perspective: Color, palace_buckets: usize) -> Vec<usize> {
        let mut v = Vec::new();
        active_features(pos, perspective, palace_buckets, &mut v);
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
        let flat = View::default();
        // Red general on e0 (index 4): own piece, kind 0.
        assert_eq!(feature_index(Color::Red, flat, red_general, sq("e0")), 4);
        // From Black's side it is an opponent's piece on the turned point e9 = 9*9+4 = 85.
        assert_eq!(
            feature_index(Color::Black, flat, red_general, sq("e0")),
            630 + 85
        );
        // Black cannon on b7 (7*9+1 = 64): from Red, opponent, kind 5 → 630 + 450 + 64.
        assert_eq!(
            feature_index(Color::Red, flat, black_cannon, sq("b7")),
            1144
        );
        // From Black: own piece on the turned point b2 = 2*9+1 = 19 → 450 + 19.
        assert_eq!(
            feature_index(Color::Black, flat, black_cannon, sq("b7")),
            469
        );
        // Red soldier on i6 (6*9+8 = 62): own, kind 6 → 540 + 62.
        assert_eq!(feature_index(Color::Red, flat, red_soldier, sq("i6")), 602);
        // Files are not mirrored: from Black, i6 turns to i3 = 3*9+8 = 35.
        assert_eq!(
            feature_index(Color::Black, flat, red_soldier, sq("i6")),
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
                        let i = feature_index(
                            perspective,
                            View::default(),
                            Piece::new(color, kind),
                            square,
                        );
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
                View::default(),
                Piece::new(Color::Red, PieceKind::General),
                sq("d0"),
            ),
            feature_index(
                Color::Red,
                View::default(),
                Piece::new(Color::Red, PieceKind::Chariot),
                sq("f0"),
            ),
            feature_index(
                Color::Red,
                View::default(),
                Piece::new(Color::Red, PieceKind::Advisor),
                sq("e1"),
            ),
            feature_index(
                Color::Red,
                View::default(),
                Piece::new(Color::Black, PieceKind::General),
                sq("e9"),
            ),
        ];
        expected.sort_unstable();
        assert_eq!(red, expected);
    }

    #[test]
    fn palace_buckets_worked_by_hand() {
        let view = |perspective, square: &str| View::new(perspective, sq(square), PALACE_BUCKETS);
        // (side, general's square, bucket, mirrored); Black counts ranks from its own back
        // rank: f8 is its second rank.
        let cases = [
            (Color::Red, "e0", 0, false),
            (Color::Red, "d0", 1, false),
            (Color::Red, "f0", 1, true),
            (Color::Red, "e1", 2, false),
            (Color::Red, "d2", 5, false),
            (Color::Black, "e9", 0, false),
            (Color::Black, "f8", 3, true),
            (Color::Black, "d7", 5, false),
        ];
        for (perspective, square, bucket, mirror) in cases {
            assert_eq!(
                view(perspective, square),
                View { bucket, mirror },
                "{perspective:?} general on {square}"
            );
        }
        // One bucket: one view wherever the general stands.
        assert_eq!(View::new(Color::Red, sq("f2"), 1), View::default());
        // A Red soldier on a3 seen by Red with its general on f1: bucket 3, mirrored to i3.
        let soldier = Piece::new(Color::Red, PieceKind::Soldier);
        let index = feature_index(Color::Red, view(Color::Red, "f1"), soldier, sq("a3"));
        assert_eq!(index, 3 * INPUTS + 6 * 90 + 3 * 9 + 8);
    }

    #[test]
    fn every_bucket_piece_and_point_has_its_own_index() {
        for perspective in Color::ALL {
            let mut seen = vec![false; PALACE_BUCKETS * INPUTS];
            for bucket in 0..PALACE_BUCKETS {
                let view = View {
                    bucket,
                    mirror: false,
                };
                for color in Color::ALL {
                    for kind in PieceKind::ALL {
                        for square in Square::all() {
                            let i =
                                feature_index(perspective, view, Piece::new(color, kind), square);
                            assert!(!seen[i], "index {i} given twice");
                            seen[i] = true;
                        }
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn a_position_and_its_mirror_image_look_alike_with_palace_buckets() {
        // The generals on d9 and f0, and the same position mirrored with them on f9 and d0.
        let pos: Position = "3k5/4a4/2n6/9/2p6/9/6P2/2C6/4A4/5KR2 w - - 0 1"
            .parse()
            .unwrap();
        let mirror: Position = "5k3/4a4/6n2/9/6p2/9/2P6/6C2/4A4/2RK5 w - - 0 1"
            .parse()
            .unwrap();
        for perspective in Color::ALL {
            assert_eq!(
                sorted_bucketed(&pos, perspective, PALACE_BUCKETS),
                sorted_bucketed(&mirror, perspective, PALACE_BUCKETS)
            );
            // Without buckets the two are different boards.
            assert_ne!(
                sorted_features(&pos, perspective),
                sorted_features(&mirror, perspective)
            );
        }
        // The start position looks the same from both sides.
        let start = Position::startpos();
        assert_eq!(
            sorted_bucketed(&start, Color::Red, PALACE_BUCKETS),
            sorted_bucketed(&start, Color::Black, PALACE_BUCKETS)
        );
    }
}
