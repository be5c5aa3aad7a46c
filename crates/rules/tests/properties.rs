//! Property tests of positions and move generation over random games.
//!
//! Random positions come from random walks: proptest picks a start position (the standard one
//! or one of the shared perft positions) and a list of move choices, and every position along
//! the walk is checked. The search for positions without legal moves uses a seeded random
//! walk instead, since long games are needed to reach them.

use std::collections::HashSet;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use xiangqi_rules::{
    Color, GameStatus, GenKind, Move, MoveList, Position, Square, perft, perft_divide,
};

#[path = "support/vectors.rs"]
mod vectors;

/// The standard start position and the shared perft positions.
fn start_fens() -> &'static [String] {
    static FENS: OnceLock<Vec<String>> = OnceLock::new();
    FENS.get_or_init(vectors::perft_start_fens)
}

fn checking_moves(pos: &Position, moves: &MoveList) -> Vec<Move> {
    moves
        .iter()
        .copied()
        .filter(|&m| pos.after(m).in_check())
        .collect()
}

/// The positions of a random game from start position `base`, one move per choice until the
/// choices run out or the side to move has no move. A choice whose top two bits are clear
/// plays a checking move when there is one, so that positions in check come up often.
fn walk(base: usize, choices: &[u32]) -> Vec<Position> {
    let fens = start_fens();
    let mut pos = Position::from_fen(&fens[base % fens.len()]).expect("start FEN parses");
    let mut out = vec![pos.clone()];
    for &choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let checking = if choice >> 30 == 0 {
            checking_moves(&pos, &moves)
        } else {
            Vec::new()
        };
        let m = if checking.is_empty() {
            moves[choice as usize % moves.len()]
        } else {
            checking[choice as usize % checking.len()]
        };
        pos.make_move(m);
        out.push(pos.clone());
    }
    out
}

fn pseudo_legal(pos: &Position, kind: GenKind) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.generate_pseudo_legal(kind, &mut list);
    list.to_vec()
}

fn legal(pos: &Position, kind: GenKind) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.generate_legal(kind, &mut list);
    list.to_vec()
}

fn set(moves: &[Move]) -> HashSet<Move> {
    let s: HashSet<Move> = moves.iter().copied().collect();
    assert_eq!(s.len(), moves.len(), "duplicate moves in {moves:?}");
    s
}

/// Whether the two generals stand on one file with nothing between them.
fn generals_facing(pos: &Position) -> bool {
    let red = pos.general(Color::Red);
    let black = pos.general(Color::Black);
    red.file() == black.file()
        && (red.rank() + 1..black.rank())
            .all(|rank| pos.is_empty(Square::new(red.file(), rank).expect("on board")))
}

/// An oracle independent of the attack tables: whether the side to move could capture the
/// waiting side's general with a pseudo-legal move, or the generals face each other.
fn waiting_general_exposed(pos: &Position) -> bool {
    let target = pos.general(pos.side_to_move().opponent());
    pseudo_legal(pos, GenKind::All)
        .iter()
        .any(|m| m.to() == target)
        || generals_facing(pos)
}

/// The same oracle for the side to move (whether it is in check).
fn mover_in_check(pos: &Position) -> bool {
    let mut passed = pos.clone();
    passed.make_null_move();
    waiting_general_exposed(&passed)
}

fn walk_strategy() -> impl Strategy<Value = (usize, Vec<u32>)> {
    (any::<usize>(), prop::collection::vec(any::<u32>(), 0..=120))
}

proptest! {
    // Failing cases are saved next to this file, in `properties.proptest-regressions`.
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions"
        ))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn make_unmake_restores_position_and_hash((base, choices) in walk_strategy()) {
        for pos in walk(base, &choices) {
            let fen = pos.to_fen();
            let mut work = pos.clone();
            // Every pseudo-legal move, legal or not, must be taken back exactly.
            for m in pseudo_legal(&pos, GenKind::All) {
                let undo = work.make_move(m);
                prop_assert_eq!(work.hash(), work.compute_hash(), "{} after {}", fen, m);
                prop_assert_ne!(work.side_to_move(), pos.side_to_move());
                prop_assert_eq!(undo.captured(), pos.piece_at(m.to()), "{} {}", fen, m);
                // The check flag kept by the move agrees with the board.
                prop_assert_eq!(work.in_check(), mover_in_check(&work), "{} after {}", fen, m);
                work.unmake_move(m, undo);
                prop_assert_eq!(&work, &pos, "{} after {} and back", fen, m);
                prop_assert_eq!(work.to_fen(), fen.clone());
                prop_assert_eq!(work.hash(), pos.hash());
            }
            let undo = work.make_null_move();
            prop_assert_eq!(work.hash(), work.compute_hash(), "{} after a null move", fen);
            prop_assert_eq!(work.in_check(), mover_in_check(&work), "{} after a null move", fen);
            work.unmake_null_move(undo);
            prop_assert_eq!(&work, &pos, "{} after a null move and back", fen);
        }
    }

    #[test]
    fn incremental_hash_matches_recomputed((base, choices) in walk_strategy()) {
        for pos in walk(base, &choices) {
            prop_assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.to_fen());
            // The same placement reached by FEN (no move history) hashes the same.
            let parsed = Position::from_fen(&pos.to_fen()).expect("our FEN parses");
            prop_assert_eq!(parsed.hash(), pos.hash());
        }
    }

    #[test]
    fn fen_round_trips((base, choices) in walk_strategy()) {
        for pos in walk(base, &choices) {
            let fen = pos.to_fen();
            let parsed = Position::from_fen(&fen);
            prop_assert!(parsed.is_ok(), "{} does not parse: {:?}", fen, parsed);
            let parsed = parsed.unwrap();
            prop_assert_eq!(&parsed, &pos, "{}", fen);
            prop_assert_eq!(parsed.to_fen(), fen);
        }
    }

    #[test]
    fn perft_1_counts_the_legal_moves((base, choices) in walk_strategy()) {
        let positions = walk(base, &choices);
        for pos in &positions {
            let moves = pos.legal_moves();
            let mut work = pos.clone();
            prop_assert_eq!(perft(&mut work, 1), moves.len() as u64, "{}", pos.to_fen());
            prop_assert_eq!(perft(&mut work, 0), 1);
            let divide = perft_divide(&mut work, 1);
            prop_assert_eq!(divide.len(), moves.len());
            prop_assert!(divide.iter().all(|&(m, n)| n == 1 && moves.contains(m)));
            prop_assert_eq!(pos.has_legal_move(), !moves.is_empty());
            let winner = pos.side_to_move().opponent();
            let expected = match (moves.is_empty(), pos.in_check()) {
                (false, _) => GameStatus::Ongoing,
                (true, true) => GameStatus::Checkmate { winner },
                (true, false) => GameStatus::Stalemate { winner },
            };
            prop_assert_eq!(pos.status(), expected, "{}", pos.to_fen());
        }
        // Depth 2 is the sum of the replies' depth 1, at the walk's last position.
        let last = positions.last().expect("the walk has its start");
        let mut work = last.clone();
        let sum: u64 = last
            .legal_moves()
            .iter()
            .map(|&m| last.after(m).legal_moves().len() as u64)
            .sum();
        prop_assert_eq!(perft(&mut work, 2), sum, "{}", last.to_fen());
    }

    #[test]
    fn legal_moves_are_exactly_the_safe_pseudo_legal_moves((base, choices) in walk_strategy()) {
        for pos in walk(base, &choices) {
            let fen = pos.to_fen();
            let us = pos.side_to_move();
            prop_assert_eq!(pos.in_check(), mover_in_check(&pos), "in check? {}", fen);
            prop_assert!(!waiting_general_exposed(&pos), "the waiting side is in check: {}", fen);
            let pseudo = set(&pseudo_legal(&pos, GenKind::All));
            let legal = set(&pos.legal_moves());
            prop_assert!(legal.is_subset(&pseudo), "{}", fen);
            for &m in &pseudo {
                let piece = pos.piece_at(m.from());
                prop_assert!(piece.is_some_and(|p| p.color == us), "{} {}", fen, m);
                let after = pos.after(m);
                let attacked = after.is_general_attacked(us);
                let exposed = waiting_general_exposed(&after);
                prop_assert_eq!(attacked, exposed, "{} {}: attack tables disagree", fen, m);
                if legal.contains(&m) {
                    prop_assert!(!exposed, "legal {} leaves the general exposed in {}", m, fen);
                    prop_assert!(!generals_facing(&after), "{} {}", fen, m);
                } else {
                    prop_assert!(exposed, "safe {} is missing from the legal moves of {}", m, fen);
                }
                prop_assert_eq!(pos.is_legal(m), legal.contains(&m), "{} {}", fen, m);
                prop_assert_eq!(pos.is_safe_move(m), !exposed, "{} {}", fen, m);
                prop_assert!(pos.is_pseudo_legal(m), "{} {}", fen, m);
            }
        }
    }

    #[test]
    fn single_move_checks_agree_with_the_generators((base, choices) in walk_strategy()) {
        let positions = walk(base, &choices);
        let pos = positions.last().expect("the walk has its start");
        let fen = pos.to_fen();
        let pseudo = set(&pseudo_legal(pos, GenKind::All));
        let legal = set(&pos.legal_moves());
        // Every move from one of the mover's pieces, plus some from empty or enemy points.
        for from in Square::all() {
            let own = pos.piece_at(from).is_some_and(|p| p.color == pos.side_to_move());
            if !own && from.index() % 7 != 0 {
                continue;
            }
            for to in Square::all() {
                let m = Move::new(from, to);
                prop_assert_eq!(pos.is_pseudo_legal(m), pseudo.contains(&m), "{} {}", fen, m);
                prop_assert_eq!(pos.is_legal(m), legal.contains(&m), "{} {}", fen, m);
            }
        }
    }

    #[test]
    fn captures_and_quiets_make_up_all_moves((base, choices) in walk_strategy()) {
        for pos in walk(base, &choices) {
            let fen = pos.to_fen();
            let them = pos.side_to_move().opponent();
            let generators: [fn(&Position, GenKind) -> Vec<Move>; 2] = [pseudo_legal, legal];
            for generate in generators {
                let all = set(&generate(&pos, GenKind::All));
                let captures = set(&generate(&pos, GenKind::Captures));
                let quiets = set(&generate(&pos, GenKind::Quiets));
                prop_assert!(captures.is_disjoint(&quiets), "{}", fen);
                let union: HashSet<Move> = captures.union(&quiets).copied().collect();
                prop_assert_eq!(&union, &all, "{}", fen);
                for m in &captures {
                    prop_assert!(pos.piece_at(m.to()).is_some_and(|p| p.color == them), "{} {}", fen, m);
                }
                for m in &quiets {
                    prop_assert!(pos.is_empty(m.to()), "{} {}", fen, m);
                }
            }
        }
    }
}

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

/// Plays seeded random games, preferring checks and captures, until a side has no legal
/// move, and checks that every such position is recognised as mate or stalemate.
#[test]
fn positions_without_moves_are_recognised() {
    const GAMES: usize = 300;
    const MAX_PLIES: usize = 300;
    let fens = start_fens();
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let (mut mates, mut stalemates) = (0, 0);
    for game in 0..GAMES {
        let mut pos = Position::from_fen(&fens[game % fens.len()]).expect("start FEN parses");
        for _ in 0..MAX_PLIES {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                let fen = pos.to_fen();
                assert!(!pos.has_legal_move(), "{fen}");
                let mut work = pos.clone();
                assert_eq!(perft(&mut work, 1), 0, "{fen}");
                assert_eq!(perft(&mut work, 2), 0, "{fen}");
                assert!(perft_divide(&mut work, 3).is_empty(), "{fen}");
                for m in pseudo_legal(&pos, GenKind::All) {
                    assert!(!pos.is_legal(m), "{fen}: {m} is legal");
                    assert!(waiting_general_exposed(&pos.after(m)), "{fen}: {m} is safe");
                }
                assert_eq!(pos.in_check(), mover_in_check(&pos), "{fen}");
                let winner = pos.side_to_move().opponent();
                if pos.in_check() {
                    assert_eq!(pos.status(), GameStatus::Checkmate { winner }, "{fen}");
                    mates += 1;
                } else {
                    assert_eq!(pos.status(), GameStatus::Stalemate { winner }, "{fen}");
                    stalemates += 1;
                }
                break;
            }
            let checking = checking_moves(&pos, &moves);
            let captures = legal(&pos, GenKind::Captures);
            assert_eq!(pos.status(), GameStatus::Ongoing, "{}", pos.to_fen());
            let m = match rng.below(4) {
                0 if !checking.is_empty() => checking[rng.below(checking.len())],
                1 if !captures.is_empty() => captures[rng.below(captures.len())],
                _ => moves[rng.below(moves.len())],
            };
            pos.make_move(m);
        }
    }
    eprintln!("{mates} mates and {stalemates} stalemates in {GAMES} random games");
    assert!(
        mates >= 20,
        "only {mates} mates (and {stalemates} stalemates) in {GAMES} random games"
    );
}

/// Hand-made positions without moves: a mate and a stalemate.
#[test]
fn known_mate_and_stalemate() {
    // Black's general on e9 is checked along rank 9 by the chariot on a9; the chariot on a8
    // covers e8, and d9 and f9 stay on the first chariot's rank.
    let mate = Position::from_fen("R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1").expect("mate FEN");
    // Black's general on d9 is not in check, but e9 faces Red's general and d8 is covered.
    let stalemate =
        Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1").expect("stalemate FEN");
    for (pos, in_check) in [(mate, true), (stalemate, false)] {
        let fen = pos.to_fen();
        let expected = if in_check {
            GameStatus::Checkmate { winner: Color::Red }
        } else {
            GameStatus::Stalemate { winner: Color::Red }
        };
        assert_eq!(pos.status(), expected, "{fen}");
        assert_eq!(pos.status().winner(), Some(Color::Red), "{fen}");
        assert!(
            pos.legal_moves().is_empty(),
            "{fen}: {:?}",
            pos.legal_moves()
        );
        assert!(!pos.has_legal_move(), "{fen}");
        assert_eq!(pos.in_check(), in_check, "{fen}");
        assert_eq!(mover_in_check(&pos), in_check, "{fen}");
        assert!(!pseudo_legal(&pos, GenKind::All).is_empty(), "{fen}");
        assert_eq!(perft(&mut pos.clone(), 1), 0, "{fen}");
    }
}
