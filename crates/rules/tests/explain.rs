//! Tests of `Position::check_move`: one hand-built position per reason, and a property test
//! that the reasons agree with legal move generation on every pair of points.

use proptest::prelude::*;
use std::collections::BTreeSet;
use xiangqi_rules::explain::IllegalMove;
use xiangqi_rules::{
    Color, GenKind, Move, MoveList, Piece, PieceKind, Position, START_FEN, Square,
};

fn sq(text: &str) -> Square {
    text.parse::<Square>()
        .ok()
        .unwrap_or_else(|| panic!("bad point {text}"))
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The reason `from`–`to` is illegal in `fen`.
fn reason(fen: &str, from: &str, to: &str) -> IllegalMove {
    match pos(fen).check_move(sq(from), sq(to)) {
        Ok(m) => panic!("{m} is legal in {fen}"),
        Err(e) => e,
    }
}

fn red(kind: PieceKind) -> Piece {
    Piece::new(Color::Red, kind)
}

fn black(kind: PieceKind) -> Piece {
    Piece::new(Color::Black, kind)
}

#[test]
fn legal_move_is_returned() {
    let p = Position::startpos();
    assert_eq!(
        p.check_move(sq("h2"), sq("e2")),
        Ok(Move::new(sq("h2"), sq("e2")))
    );
    assert_eq!(
        p.check_move(sq("b2"), sq("b9")),
        Ok(Move::new(sq("b2"), sq("b9")))
    );
}

#[test]
fn no_piece_there() {
    let e = reason(START_FEN, "e4", "e5");
    assert_eq!(e, IllegalMove::NoPieceThere { from: sq("e4") });
    assert_eq!(e.code(), "no-piece-there");
    assert_eq!(e.message(), "there is no piece on e4");
}

#[test]
fn opponents_piece() {
    let e = reason(START_FEN, "b9", "c7");
    assert_eq!(
        e,
        IllegalMove::OpponentsPiece {
            from: sq("b9"),
            piece: black(PieceKind::Horse)
        }
    );
    assert_eq!(e.code(), "opponents-piece");
    assert_eq!(e.message(), "that piece belongs to your opponent");
    // With Black to move, Red's pieces are the opponent's.
    let black_to_move = START_FEN.replace(" w ", " b ");
    assert!(matches!(
        reason(&black_to_move, "h2", "e2"),
        IllegalMove::OpponentsPiece { piece, .. } if piece == red(PieceKind::Cannon)
    ));
}

#[test]
fn same_point() {
    let e = reason(START_FEN, "h2", "h2");
    assert_eq!(e, IllegalMove::SamePoint);
    assert_eq!(e.code(), "same-point");
}

#[test]
fn own_piece_on_target() {
    let e = reason(START_FEN, "h2", "h0");
    assert_eq!(
        e,
        IllegalMove::OwnPieceOnTarget {
            to: sq("h0"),
            piece: red(PieceKind::Horse)
        }
    );
    assert_eq!(e.code(), "own-piece-on-target");
    assert_eq!(
        e.message(),
        "you cannot capture your own piece (the red horse on h0)"
    );
    // The own piece on the target is named before a piece in the way.
    let fen = "3k5/9/9/9/9/9/P8/9/N8/R3K4 w";
    assert_eq!(
        reason(fen, "a0", "a3"),
        IllegalMove::OwnPieceOnTarget {
            to: sq("a3"),
            piece: red(PieceKind::Soldier)
        }
    );
}

#[test]
fn general_leaves_palace() {
    let fen = "4k4/9/9/9/9/9/9/9/9/3K5 w";
    let e = reason(fen, "d0", "c0");
    assert_eq!(e, IllegalMove::GeneralLeavesPalace);
    assert_eq!(e.code(), "general-leaves-palace");
    assert_eq!(e.message(), "the general cannot leave the palace");
    // Black's palace too.
    assert_eq!(
        reason("9/9/3k5/9/9/9/9/9/9/4K4 b", "d7", "d6"),
        IllegalMove::GeneralLeavesPalace
    );
}

#[test]
fn advisor_leaves_palace() {
    let fen = "3k5/9/9/9/9/9/9/3A5/9/4K4 w";
    let e = reason(fen, "d2", "c3");
    assert_eq!(e, IllegalMove::AdvisorLeavesPalace);
    assert_eq!(e.code(), "advisor-leaves-palace");
}

#[test]
fn general_move_shape() {
    let e = reason(START_FEN, "e0", "f1");
    assert_eq!(e, IllegalMove::GeneralMoveShape);
    assert_eq!(e.code(), "general-move-shape");
    assert_eq!(reason(START_FEN, "e0", "e2"), IllegalMove::GeneralMoveShape);
    // The "flying general" is an attack, never a move.
    assert_eq!(
        reason("4k4/9/9/9/9/9/9/9/4N4/4K4 w", "e0", "e9"),
        IllegalMove::GeneralMoveShape
    );
}

#[test]
fn advisor_move_shape() {
    let e = reason(START_FEN, "d0", "d1");
    assert_eq!(e, IllegalMove::AdvisorMoveShape);
    assert_eq!(e.code(), "advisor-move-shape");
}

#[test]
fn elephant_move_shape() {
    let e = reason(START_FEN, "c0", "c2");
    assert_eq!(e, IllegalMove::ElephantMoveShape);
    assert_eq!(e.code(), "elephant-move-shape");
    assert_eq!(
        reason(START_FEN, "c0", "d1"),
        IllegalMove::ElephantMoveShape
    );
}

#[test]
fn elephant_crosses_river() {
    let fen = "3k5/9/9/9/9/2B6/9/9/9/4K4 w";
    let e = reason(fen, "c4", "e6");
    assert_eq!(e, IllegalMove::ElephantCrossesRiver);
    assert_eq!(e.code(), "elephant-crosses-river");
    assert_eq!(e.message(), "elephants cannot cross the river");
    // The river is named even when the eye is blocked too.
    let blocked = "3k5/9/9/9/3n5/2B6/9/9/9/4K4 w";
    assert_eq!(
        reason(blocked, "c4", "e6"),
        IllegalMove::ElephantCrossesRiver
    );
}

#[test]
fn elephant_eye_blocked() {
    let fen = "3k5/9/9/9/9/9/9/9/3N5/2B1K4 w";
    let e = reason(fen, "c0", "e2");
    assert_eq!(e, IllegalMove::ElephantEyeBlocked { eye: sq("d1") });
    assert_eq!(e.code(), "elephant-eye-blocked");
    assert_eq!(e.message(), "the elephant's eye at d1 is blocked");
    assert_eq!(e.highlights(), vec![sq("d1")]);
}

#[test]
fn horse_move_shape() {
    let e = reason(START_FEN, "b0", "b2");
    assert_eq!(e, IllegalMove::HorseMoveShape);
    assert_eq!(e.code(), "horse-move-shape");
    assert_eq!(reason(START_FEN, "b0", "d2"), IllegalMove::HorseMoveShape);
}

#[test]
fn horse_leg_blocked() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2N2C1/9/R1BAKABNR w";
    let e = reason(fen, "e2", "d4");
    assert_eq!(e, IllegalMove::HorseLegBlocked { leg: sq("e3") });
    assert_eq!(e.code(), "horse-leg-blocked");
    assert_eq!(e.message(), "the horse's leg at e3 is blocked");
    assert_eq!(
        reason(START_FEN, "b0", "d1"),
        IllegalMove::HorseLegBlocked { leg: sq("c0") }
    );
}

#[test]
fn chariot_move_shape() {
    let e = reason(START_FEN, "a0", "b1");
    assert_eq!(e, IllegalMove::ChariotMoveShape);
    assert_eq!(e.code(), "chariot-move-shape");
}

#[test]
fn chariot_path_blocked() {
    let e = reason(START_FEN, "a0", "a5");
    assert_eq!(e, IllegalMove::ChariotPathBlocked { blocker: sq("a3") });
    assert_eq!(e.code(), "chariot-path-blocked");
    assert_eq!(
        e.message(),
        "the chariot's path is blocked by the piece on a3"
    );
    // Capturing past a piece is blocked as well.
    assert_eq!(
        reason(START_FEN, "a0", "a9"),
        IllegalMove::ChariotPathBlocked { blocker: sq("a3") }
    );
}

#[test]
fn cannon_move_shape() {
    let e = reason(START_FEN, "h2", "g3");
    assert_eq!(e, IllegalMove::CannonMoveShape);
    assert_eq!(e.code(), "cannon-move-shape");
}

#[test]
fn cannon_path_blocked() {
    let e = reason(START_FEN, "h2", "a2");
    assert_eq!(e, IllegalMove::CannonPathBlocked { blocker: sq("b2") });
    assert_eq!(e.code(), "cannon-path-blocked");
}

#[test]
fn cannon_needs_screen() {
    let fen = "3k5/9/9/9/4p4/9/9/4C4/9/4K4 w";
    let e = reason(fen, "e2", "e5");
    assert_eq!(e, IllegalMove::CannonNeedsScreen);
    assert_eq!(e.code(), "cannon-needs-screen");
    // Without a capture it moves over empty points freely.
    assert!(pos(fen).check_move(sq("e2"), sq("e4")).is_ok());
}

#[test]
fn cannon_too_many_screens() {
    let fen = "3k5/4r4/9/4p4/9/4P4/9/4C4/9/4K4 w";
    let e = reason(fen, "e2", "e8");
    assert_eq!(
        e,
        IllegalMove::CannonTooManyScreens {
            screens: vec![sq("e4"), sq("e6")]
        }
    );
    assert_eq!(e.code(), "cannon-too-many-screens");
    assert_eq!(
        e.message(),
        "a cannon captures by jumping over exactly one piece, but there are 2 in between (e4 and e6)"
    );
    assert!(pos(fen).check_move(sq("e2"), sq("e6")).is_ok());
}

#[test]
fn soldier_moves_backward() {
    let fen = "3k5/9/9/9/4P4/9/9/9/9/4K4 w";
    let e = reason(fen, "e5", "e4");
    assert_eq!(e, IllegalMove::SoldierMovesBackward);
    assert_eq!(e.code(), "soldier-moves-backward");
    // Black's backward is towards rank 9.
    let black_to_move = START_FEN.replace(" w ", " b ");
    assert_eq!(
        reason(&black_to_move, "e6", "e7"),
        IllegalMove::SoldierMovesBackward
    );
}

#[test]
fn soldier_sideways_before_river() {
    let e = reason(START_FEN, "e3", "d3");
    assert_eq!(e, IllegalMove::SoldierSidewaysBeforeRiver);
    assert_eq!(e.code(), "soldier-sideways-before-river");
    // Across the river, one point sideways is fine.
    let crossed = "3k5/9/9/9/4P4/9/9/9/9/4K4 w";
    assert!(pos(crossed).check_move(sq("e5"), sq("d5")).is_ok());
}

#[test]
fn soldier_move_shape() {
    let e = reason(START_FEN, "e3", "e5");
    assert_eq!(e, IllegalMove::SoldierMoveShape);
    assert_eq!(e.code(), "soldier-move-shape");
    let crossed = "3k5/9/9/9/4P4/9/9/9/9/4K4 w";
    assert_eq!(reason(crossed, "e5", "d6"), IllegalMove::SoldierMoveShape);
    assert_eq!(reason(crossed, "e5", "c5"), IllegalMove::SoldierMoveShape);
}

#[test]
fn leaves_general_in_check() {
    // The horse is pinned against the general by the chariot on e9.
    let fen = "3kr4/9/9/9/9/9/9/9/4N4/4K4 w";
    let e = reason(fen, "e1", "d3");
    assert_eq!(
        e,
        IllegalMove::LeavesGeneralInCheck {
            attackers: vec![sq("e9")],
            attacker_kinds: vec![PieceKind::Chariot],
        }
    );
    assert_eq!(e.code(), "leaves-general-in-check");
    assert_eq!(
        e.message(),
        "this leaves your general in check (from the chariot on e9)"
    );
    assert_eq!(e.highlights(), vec![sq("e9")]);
}

#[test]
fn leaves_general_in_check_lists_every_attacker() {
    // Red is in check from the horse on d2; moving the pinned cannon also lets the chariot
    // on e9 in.
    let fen = "3kr4/9/9/9/9/9/9/3n5/4C4/4K4 w";
    let e = reason(fen, "e1", "a1");
    assert_eq!(
        e,
        IllegalMove::LeavesGeneralInCheck {
            attackers: vec![sq("d2"), sq("e9")],
            attacker_kinds: vec![PieceKind::Horse, PieceKind::Chariot],
        }
    );
    assert_eq!(
        e.message(),
        "this leaves your general in check (from the horse on d2 and the chariot on e9)"
    );
    // A move that ignores a check already given counts too.
    let e = reason("3k5/9/9/9/9/9/9/3n5/9/R3K4 w", "a0", "a5");
    assert_eq!(
        e,
        IllegalMove::LeavesGeneralInCheck {
            attackers: vec![sq("d2")],
            attacker_kinds: vec![PieceKind::Horse],
        }
    );
}

#[test]
fn generals_face() {
    // Moving the only piece between the generals off the file.
    let fen = "4k4/9/9/9/9/9/9/9/4N4/4K4 w";
    let e = reason(fen, "e1", "d3");
    assert_eq!(e, IllegalMove::GeneralsFace { file: 'e' });
    assert_eq!(e.code(), "generals-face");
    assert_eq!(
        e.message(),
        "the generals would face each other on the e-file"
    );
    // The general stepping onto the open file.
    assert_eq!(
        reason("4k4/9/9/9/9/9/9/9/9/3K5 w", "d0", "e0"),
        IllegalMove::GeneralsFace { file: 'e' }
    );
    // Black's general too, on the f-file.
    assert_eq!(
        reason("4k4/9/9/9/9/9/9/9/9/5K3 b", "e9", "f9"),
        IllegalMove::GeneralsFace { file: 'f' }
    );
}

#[test]
fn codes_are_unique_and_listed() {
    let set: BTreeSet<&str> = IllegalMove::CODES.iter().copied().collect();
    assert_eq!(set.len(), IllegalMove::CODES.len());
    for code in IllegalMove::CODES {
        assert!(
            code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
            "{code}"
        );
    }
}

#[test]
fn display_equals_message() {
    let e = IllegalMove::HorseLegBlocked { leg: sq("e3") };
    assert_eq!(e.to_string(), e.message());
}

// ---------------------------------------------------------------------------------------------
// Property test: agreement with move generation on every pair of points.

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

/// Sparse endgames where pins, checks and facing generals are common.
const ENDGAMES: [&str; 6] = [
    "3k5/4a4/4b4/9/9/4R4/9/9/4A4/5K3 w",
    "4k4/9/9/9/2p3p2/9/9/4C4/4A4/3K1c3 w",
    "3ak4/4a4/9/9/9/9/9/2n6/4r4/3KR4 w",
    "4k4/4a4/9/9/4c4/9/4N4/9/4A4/4K4 b",
    "2b1k4/4r4/9/9/4P4/9/9/9/3C5/3K1A3 w",
    "3k5/9/4n4/9/2P1P4/9/9/4R4/9/5K3 b",
];

/// Whether the generals face each other on an open file in `p`.
fn generals_facing(p: &Position) -> bool {
    let (r, b) = (p.general(Color::Red), p.general(Color::Black));
    r.file() == b.file()
        && (r.rank().min(b.rank()) + 1..r.rank().max(b.rank()))
            .all(|rank| p.is_empty(Square::new(r.file(), rank).unwrap()))
}

/// Checks `check_move` on all 90 × 90 pairs in `p`; records the codes seen.
fn check_every_pair(p: &Position, seen: &mut BTreeSet<&'static str>) {
    let legal = p.legal_moves();
    let mut pseudo = MoveList::new();
    p.generate_pseudo_legal(GenKind::All, &mut pseudo);
    let us = p.side_to_move();
    for from in Square::all() {
        for to in Square::all() {
            let m = Move::new(from, to);
            let result = p.check_move(from, to);
            assert_eq!(
                result.is_ok(),
                legal.contains(m),
                "{m} in {p:?}: {result:?}"
            );
            let reason = match result {
                Ok(got) => {
                    assert_eq!(got, m);
                    continue;
                }
                Err(reason) => reason,
            };
            seen.insert(reason.code());
            assert!(IllegalMove::CODES.contains(&reason.code()));
            // The first checks: whose piece, and the same point.
            match p.piece_at(from) {
                None => assert_eq!(reason, IllegalMove::NoPieceThere { from }),
                Some(piece) if piece.color != us => {
                    assert_eq!(reason, IllegalMove::OpponentsPiece { from, piece })
                }
                Some(_) if from == to => assert_eq!(reason, IllegalMove::SamePoint),
                Some(_) => {}
            }
            let safety = matches!(
                reason,
                IllegalMove::LeavesGeneralInCheck { .. } | IllegalMove::GeneralsFace { .. }
            );
            if !pseudo.contains(m) {
                assert!(!safety, "{m} is not pseudo-legal in {p:?}: {reason:?}");
                continue;
            }
            assert!(safety, "{m} is pseudo-legal in {p:?}: {reason:?}");
            let after = p.after(m);
            let ours = after.general(us);
            match reason {
                IllegalMove::GeneralsFace { file } => {
                    assert!(generals_facing(&after), "{m} in {p:?}");
                    assert_eq!(file, ours.file_char());
                }
                IllegalMove::LeavesGeneralInCheck {
                    attackers,
                    attacker_kinds,
                } => {
                    assert!(!generals_facing(&after), "{m} in {p:?}");
                    // The attackers are exactly the enemy pieces that could take the general.
                    let mut replies = MoveList::new();
                    after.generate_pseudo_legal(GenKind::Captures, &mut replies);
                    let mut expected: Vec<Square> = replies
                        .iter()
                        .filter(|r| r.to() == ours)
                        .map(|r| r.from())
                        .collect();
                    expected.sort();
                    assert!(!attackers.is_empty(), "{m} in {p:?}");
                    assert_eq!(attackers, expected, "{m} in {p:?}");
                    let kinds: Vec<PieceKind> = attackers
                        .iter()
                        .map(|&s| after.piece_at(s).expect("attacker").kind)
                        .collect();
                    assert_eq!(attacker_kinds, kinds);
                }
                _ => unreachable!(),
            }
        }
    }
}

/// Plays `plies` random legal moves from `fen`, checking every position on the way.
fn random_game(fen: &str, rng: &mut Rng, plies: usize, seen: &mut BTreeSet<&'static str>) {
    let mut p = pos(fen);
    for _ in 0..plies {
        check_every_pair(&p, seen);
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        p.make_move(m);
    }
}

#[test]
fn agrees_with_move_generation_on_every_pair() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut seen = BTreeSet::new();
    for _ in 0..8 {
        random_game(START_FEN, &mut rng, 80, &mut seen);
    }
    for fen in ENDGAMES {
        for _ in 0..5 {
            random_game(fen, &mut rng, 30, &mut seen);
        }
    }
    // Random play reaches every reason.
    let missing: Vec<&str> = IllegalMove::CODES
        .iter()
        .copied()
        .filter(|c| !seen.contains(c))
        .collect();
    assert!(missing.is_empty(), "reasons never seen: {missing:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn agrees_with_move_generation_from_any_seed(seed in 1u64.., start in 0usize..=ENDGAMES.len()) {
        let fen = if start == ENDGAMES.len() { START_FEN } else { ENDGAMES[start] };
        let mut seen = BTreeSet::new();
        random_game(fen, &mut Rng::new(seed), 20, &mut seen);
    }
}
