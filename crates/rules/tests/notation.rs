//! ICCS, WXF and Chinese move notation: examples, tandem pieces, the soldier special cases,
//! input variants, errors, and round trips over every legal move of many positions.

use proptest::prelude::*;
use xiangqi_rules::notation::{Notation, NotationError, format_move, parse_any, parse_move};
use xiangqi_rules::{Move, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(iccs: &str) -> Move {
    iccs.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// Checks that `iccs` is legal in `p` and is written `wxf` and `chinese`, and that those
/// texts (and the ICCS) read back as the move.
fn check(p: &Position, iccs: &str, wxf: &str, chinese: &str) {
    let m = mv(iccs);
    assert!(p.legal_moves().contains(m), "{iccs} is not legal in {p:?}");
    assert_eq!(format_move(p, m, Notation::Iccs), iccs, "ICCS of {iccs}");
    assert_eq!(
        format_move(p, m, Notation::Wxf),
        wxf,
        "WXF of {iccs} in {p:?}"
    );
    assert_eq!(
        format_move(p, m, Notation::Chinese),
        chinese,
        "Chinese of {iccs} in {p:?}"
    );
    assert_eq!(parse_move(p, iccs, Notation::Iccs), Ok(m), "{iccs}");
    assert_eq!(parse_move(p, wxf, Notation::Wxf), Ok(m), "{wxf}");
    assert_eq!(
        parse_move(p, chinese, Notation::Chinese),
        Ok(m),
        "{chinese}"
    );
    for text in [iccs, wxf, chinese] {
        assert_eq!(parse_any(p, text), Ok(m), "parse_any {text}");
    }
}

/// Checks that `text` reads as `iccs` in `notation` (and through `parse_any`).
fn reads(p: &Position, notation: Notation, text: &str, iccs: &str) {
    assert_eq!(
        parse_move(p, text, notation),
        Ok(mv(iccs)),
        "{notation} {text:?} in {p:?}"
    );
    assert_eq!(parse_any(p, text), Ok(mv(iccs)), "parse_any {text:?}");
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

// ---------------------------------------------------------------------------------------------
// The examples of the spec and of public game records
// ---------------------------------------------------------------------------------------------

#[test]
fn spec_examples_from_the_start_position() {
    let p = Position::startpos();
    check(&p, "h2e2", "C2=5", "炮二平五");
    check(&p, "h0g2", "H2+3", "马二进三");
    check(&p, "c0e2", "E7+5", "相七进五");
    check(&p, "h2h9", "C2+7", "炮二进七");
    check(&p, "b2e2", "C8=5", "炮八平五");
    check(&p, "g3g4", "P3+1", "兵三进一");
    check(&p, "a0a2", "R9+2", "车九进二");
    check(&p, "e0e1", "K5+1", "帅五进一");
    check(&p, "d0e1", "A6+5", "仕六进五");
}

/// A public game record: Liu Dianzhong – Liu Dahua, 1997 (ICCS from the record; WXF and
/// Chinese checked by hand against the file counting rules, and the opening against the
/// usual Chinese names of these moves).
#[test]
fn a_public_game_opening() {
    let moves = [
        ("h2e2", "C2=5", "炮二平五"),
        ("b9c7", "H2+3", "马2进3"),
        ("h0g2", "H2+3", "马二进三"),
        ("h7f7", "C8=6", "炮8平6"),
        ("g3g4", "P3+1", "兵三进一"),
        ("h9g7", "H8+7", "马8进7"),
        ("b2c2", "C8=7", "炮八平七"),
        ("i9h9", "R9=8", "车9平8"),
        ("b0a2", "H8+9", "马八进九"),
        ("a9b9", "R1=2", "车1平2"),
    ];
    let mut p = Position::startpos();
    for (iccs, wxf, chinese) in moves {
        check(&p, iccs, wxf, chinese);
        p.make_move(mv(iccs));
    }
}

/// The WXF sequence Fairy-Stockfish's tests give (its ranks 1–10 converted to 0–9).
#[test]
fn fairy_stockfish_wxf_sequence() {
    let moves = [
        ("h2e2", "C2=5", "炮二平五"),
        ("h9g7", "H8+7", "马8进7"),
        ("h0g2", "H2+3", "马二进三"),
        ("c9e7", "E3+5", "象3进5"),
        ("a0a2", "R9+2", "车九进二"),
        ("i9h9", "R9=8", "车9平8"),
    ];
    let mut p = Position::startpos();
    for (iccs, wxf, chinese) in moves {
        check(&p, iccs, wxf, chinese);
        p.make_move(mv(iccs));
    }
}

#[test]
fn black_moves_count_files_from_blacks_right() {
    let p = pos(START).after(mv("h2e2"));
    check(&p, "h9g7", "H8+7", "马8进7");
    check(&p, "b9c7", "H2+3", "马2进3");
    check(&p, "c6c5", "P3+1", "卒3进1");
    check(&p, "h7e7", "C8=5", "炮8平5");
    check(&p, "b7b0", "C2+7", "炮2进7");
    check(&p, "d9e8", "A4+5", "士4进5");
    check(&p, "g9e7", "E7+5", "象7进5");
    check(&p, "e9e8", "K5+1", "将5进1");
}

#[test]
fn no_check_suffix() {
    // Fairy-Stockfish's check example: the chariot takes the advisor with check.
    let p = pos("4k4/4a3R/9/9/9/9/9/9/4K4/9 w - - 0 1");
    check(&p, "i8e8", "R1=5", "车一平五");
    check(&p, "i8i9", "R1+1", "车一进一");
}

#[test]
fn backward_moves() {
    let p = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/4P4/1NB6/P1P1P3P/1C1A3C1/9/RNBAK4 w - - 0 1");
    // Advisors and elephants never need + or -, even two on one file.
    check(&p, "c4e2", "E7-5", "相七退五");
    check(&p, "d0e1", "A6+5", "仕六进五");
    check(&p, "d2e1", "A6-5", "仕六退五");
    check(&p, "c0e2", "E7+5", "相七进五");
    // Two horses on one file.
    check(&p, "b4c6", "H++7", "前马进七");
    check(&p, "b0a2", "H-+9", "后马进九");
    // Two soldiers on one file, no other file with two.
    check(&p, "e5e6", "P++1", "前兵进一");
    check(&p, "e3e4", "P-+1", "后兵进一");
    check(&p, "h2h1", "C2-1", "炮二退一");
}

// ---------------------------------------------------------------------------------------------
// Tandem pieces
// ---------------------------------------------------------------------------------------------

#[test]
fn tandem_chariots_cannons_horses_black_to_move() {
    let p = pos("4k4/1r7/1r5c1/7c1/4n4/4n4/9/9/9/3K5 b - - 0 1");
    check(&p, "b7b6", "R++1", "前车进1");
    check(&p, "b8c8", "R-=3", "后车平3");
    check(&p, "b7a7", "R+=1", "前车平1");
    check(&p, "h6h0", "C++6", "前炮进6");
    check(&p, "h7h8", "C--1", "后炮退1");
    check(&p, "e4d2", "H++4", "前马进4");
    check(&p, "e5f7", "H--6", "后马退6");
}

#[test]
fn tandem_cannons_red() {
    let p = pos("3k5/9/9/9/9/9/9/7C1/9/4K2C1 w - - 0 1");
    check(&p, "h2e2", "C+=5", "前炮平五");
    check(&p, "h0f0", "C-=4", "后炮平四");
    check(&p, "h2h9", "C++7", "前炮进七");
    check(&p, "h0h1", "C-+1", "后炮进一");
}

// ---------------------------------------------------------------------------------------------
// Soldiers (2018 WXF rules)
// ---------------------------------------------------------------------------------------------

#[test]
fn three_soldiers_on_a_file() {
    // Fairy-Stockfish's example: Red soldiers e6, e5, e3 (and a3, i3).
    let p = pos("rnbakabnr/9/1c5c1/p1p1P1p1p/4P4/9/P3P3P/1C5C1/9/RNBAKABNR w - - 0 1");
    check(&p, "e6d6", "15=6", "前兵平六");
    check(&p, "e5d5", "25=6", "中兵平六");
    check(&p, "e3e4", "35+1", "后兵进一");
    // The lone soldiers keep the ordinary form.
    check(&p, "a3a4", "P9+1", "兵九进一");
}

#[test]
fn two_files_with_two_soldiers() {
    // Fairy-Stockfish's example: Red soldiers d7, d6, f6, f5, h6.
    let p = pos("5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w - - 0 1");
    check(&p, "d6e6", "26=5", "后兵六平五");
    check(&p, "f5e5", "24=5", "后兵四平五");
    check(&p, "d7e7", "16=5", "前兵六平五");
    check(&p, "f6g6", "14=3", "前兵四平三");
    check(&p, "h6h7", "P2+1", "兵二进一");
}

#[test]
fn two_files_with_two_soldiers_file_nine() {
    // The xqbase example 前兵九平八, with its four-character form 前九平八.
    let p = pos("3k5/9/9/P1P6/P1P6/9/9/9/9/4K4 w - - 0 1");
    check(&p, "a6b6", "19=8", "前兵九平八");
    check(&p, "c5d5", "27=6", "后兵七平六");
    reads(&p, Notation::Chinese, "前九平八", "a6b6");
    reads(&p, Notation::Chinese, "后七平六", "c5d5");
}

#[test]
fn three_and_two_soldiers() {
    let p = pos("3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1");
    check(&p, "g7g8", "13+1", "前兵三进一");
    check(&p, "g6f6", "23=4", "中兵三平四");
    check(&p, "g5h5", "33=2", "后兵三平二");
    check(&p, "c6c7", "17+1", "前兵七进一");
    check(&p, "c5b5", "27=8", "后兵七平八");
}

#[test]
fn five_soldiers_on_a_file() {
    let p = pos("P2k5/P8/P8/P8/P8/9/9/9/9/4K4 w - - 0 1");
    check(&p, "a9b9", "19=8", "一兵平八");
    check(&p, "a8b8", "29=8", "二兵平八");
    check(&p, "a7b7", "39=8", "三兵平八");
    check(&p, "a6b6", "49=8", "四兵平八");
    check(&p, "a5b5", "59=8", "五兵平八");
    // Older WXF forms: ++ foremost, P+ second, P3 middle, P- second from the rear, -- rearmost.
    reads(&p, Notation::Wxf, "++.8", "a9b9");
    reads(&p, Notation::Wxf, "P+.8", "a8b8");
    reads(&p, Notation::Wxf, "P3.8", "a7b7");
    reads(&p, Notation::Wxf, "P-=8", "a6b6");
    reads(&p, Notation::Wxf, "--=8", "a5b5");
    // Chinese: 前 and 后 for the foremost and the rearmost, too.
    reads(&p, Notation::Chinese, "前兵平八", "a9b9");
    reads(&p, Notation::Chinese, "后兵平八", "a5b5");
    reads(&p, Notation::Chinese, "中兵平八", "a7b7");
}

#[test]
fn four_soldiers_on_a_file() {
    let p = pos("3k5/P8/P8/P8/P8/9/9/9/9/4K4 w - - 0 1");
    check(&p, "a8a9", "19+1", "一兵进一");
    check(&p, "a8b8", "19=8", "一兵平八");
    check(&p, "a7b7", "29=8", "二兵平八");
    check(&p, "a6b6", "39=8", "三兵平八");
    check(&p, "a5b5", "49=8", "四兵平八");
}

#[test]
fn black_soldiers_on_a_file() {
    let p = pos("4k4/9/9/9/9/p8/p8/p8/p8/p2K5 b - - 0 1");
    check(&p, "a0b0", "11=2", "一卒平2");
    check(&p, "a1b1", "21=2", "二卒平2");
    check(&p, "a4b4", "51=2", "五卒平2");
    // Black's 3 soldiers on one file and a pair on another.
    let p = pos("4k4/9/9/9/9/p8/p1p6/p1p6/9/3K5 b - - 0 1");
    check(&p, "a2a1", "11+1", "前卒1进1");
    check(&p, "a3b3", "21=2", "中卒1平2");
    check(&p, "a4b4", "31=2", "后卒1平2");
    check(&p, "c2c1", "13+1", "前卒3进1");
    check(&p, "c3d3", "23=4", "后卒3平4");
    // Two Black soldiers on one file only.
    let p = pos("4k4/9/9/9/9/9/2p6/2p6/9/3K5 b - - 0 1");
    check(&p, "c2c1", "P++1", "前卒进1");
    check(&p, "c3b3", "P-=2", "后卒平2");
}

#[test]
fn old_three_soldier_forms() {
    let p = pos("rnbakabnr/9/1c5c1/p1p1P1p1p/4P4/9/P3P3P/1C5C1/9/RNBAKABNR w - - 0 1");
    reads(&p, Notation::Wxf, "P+.6", "e6d6");
    reads(&p, Notation::Wxf, "P3=6", "e5d5");
    reads(&p, Notation::Wxf, "P-+1", "e3e4");
    reads(&p, Notation::Wxf, "+P=6", "e6d6");
}

// ---------------------------------------------------------------------------------------------
// Input variants
// ---------------------------------------------------------------------------------------------

#[test]
fn iccs_variants() {
    let p = Position::startpos();
    for text in ["h2e2", "h2-e2", "H2E2", "H2-E2", "  h2e2\n", "\th2-E2 "] {
        reads(&p, Notation::Iccs, text, "h2e2");
    }
}

#[test]
fn wxf_variants() {
    let p = Position::startpos();
    for text in ["C2=5", "C2.5", "c2=5", "c2.5", " C2=5 ", "C25", "C 2 = 5"] {
        reads(&p, Notation::Wxf, text, "h2e2");
    }
    for text in ["H2+3", "h2+3", "N2+3", "n2+3"] {
        reads(&p, Notation::Wxf, text, "h0g2");
    }
    for text in ["E7+5", "B7+5", "e7+5", "b7+5"] {
        reads(&p, Notation::Wxf, text, "c0e2");
    }
    let p = pos("3k5/9/9/9/9/9/9/7C1/9/4K2C1 w - - 0 1");
    for text in ["C+=5", "+C=5", "c+.5", "+c.5"] {
        reads(&p, Notation::Wxf, text, "h2e2");
    }
    for text in ["C-=4", "-C=4", "C-.4"] {
        reads(&p, Notation::Wxf, text, "h0f0");
    }
}

#[test]
fn chinese_variants() {
    let p = Position::startpos();
    for text in [
        "炮二平五",
        "砲二平五",
        "包二平五",
        "炮2平5",
        "炮２平５",
        " 炮二平五 ",
    ] {
        reads(&p, Notation::Chinese, text, "h2e2");
    }
    for text in ["马二进三", "馬二進三", "傌二进三", "马2进3"] {
        reads(&p, Notation::Chinese, text, "h0g2");
    }
    for text in ["相七进五", "象七进五", "相七進五"] {
        reads(&p, Notation::Chinese, text, "c0e2");
    }
    for text in ["车九进二", "車九進二", "俥九进二"] {
        reads(&p, Notation::Chinese, text, "a0a2");
    }
    for text in ["仕六进五", "士六进五"] {
        reads(&p, Notation::Chinese, text, "d0e1");
    }
    for text in ["帅五进一", "帥五進一"] {
        reads(&p, Notation::Chinese, text, "e0e1");
    }
    let p = p.after(mv("h2e2"));
    for text in ["马8进7", "馬8進7", "马８进７", "马八进七"] {
        reads(&p, Notation::Chinese, text, "h9g7");
    }
    for text in ["将5进1", "將5進1"] {
        reads(&p, Notation::Chinese, text, "e9e8");
    }
    for text in ["卒3进1", "卒三进一"] {
        reads(&p, Notation::Chinese, text, "c6c5");
    }
    let p = pos("3k5/9/9/9/9/9/9/7C1/9/4K2C1 w - - 0 1");
    for text in ["前炮平五", "前砲平五", "炮前平五"] {
        reads(&p, Notation::Chinese, text, "h2e2");
    }
    for text in ["后炮平四", "後炮平四", "後砲平四"] {
        reads(&p, Notation::Chinese, text, "h0f0");
    }
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

fn error(p: &Position, text: &str, notation: Notation) -> NotationError {
    let e = parse_move(p, text, notation).expect_err(text);
    let message = e.to_string();
    assert!(!message.is_empty());
    e
}

#[test]
fn garbage_is_malformed() {
    let p = Position::startpos();
    for notation in Notation::ALL {
        for text in [
            "xyz",
            "C2x5",
            "h2e",
            "炮二平",
            "🙂🙂🙂🙂",
            "h2 e2 e3",
            "C0+1",
            "Z2=5",
            "a",
        ] {
            let e = error(&p, text, notation);
            assert!(
                matches!(e, NotationError::Malformed { .. }),
                "{notation} {text}: {e:?}"
            );
            assert!(e.to_string().contains(text), "{e}");
        }
        assert_eq!(error(&p, "", notation), NotationError::Empty);
        assert_eq!(error(&p, " \t\n", notation), NotationError::Empty);
        let long = "炮".repeat(1000);
        assert!(matches!(
            error(&p, &long, notation),
            NotationError::TooLong { length: 1000, .. }
        ));
    }
    assert!(matches!(
        parse_any(&p, "xyz"),
        Err(NotationError::Malformed { .. })
    ));
    assert_eq!(parse_any(&p, ""), Err(NotationError::Empty));
}

#[test]
fn ambiguous_texts() {
    // Two files with two soldiers each: 前兵 and P+ alone do not say which.
    let p = pos("5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w - - 0 1");
    for (text, notation) in [("P+=5", Notation::Wxf), ("前兵平五", Notation::Chinese)] {
        let e = error(&p, text, notation);
        match &e {
            NotationError::Ambiguous { candidates, .. } => {
                let mut c = candidates.clone();
                c.sort();
                let mut want = vec![mv("d7e7"), mv("f6e6")];
                want.sort();
                assert_eq!(c, want);
            }
            other => panic!("{text}: {other:?}"),
        }
        assert!(e.to_string().contains("ambiguous"), "{e}");
        assert_eq!(parse_any(&p, text), Err(e));
    }
}

#[test]
fn illegal_moves() {
    let p = Position::startpos();
    // The chariot is blocked by its own soldier.
    let want = NotationError::IllegalMove {
        text: "a0a5".into(),
        iccs: "a0a5".into(),
    };
    assert_eq!(error(&p, "a0a5", Notation::Iccs), want);
    assert!(matches!(
        error(&p, "R9+5", Notation::Wxf),
        NotationError::IllegalMove { iccs, .. } if iccs == "a0a5"
    ));
    assert!(matches!(
        error(&p, "车九进五", Notation::Chinese),
        NotationError::IllegalMove { iccs, .. } if iccs == "a0a5"
    ));
    // A horse cannot jump from file 2 to file 5; a cannon cannot leave the board.
    for text in ["H2+5", "C2+9", "A6=5"] {
        assert!(matches!(
            error(&p, text, Notation::Wxf),
            NotationError::Impossible { .. }
        ));
    }
    assert!(matches!(
        error(&p, "马二进五", Notation::Chinese),
        NotationError::Impossible { .. }
    ));
    // A pinned piece: the Red chariot on e4 shields its general from the Black chariot.
    let p = pos("3k5/9/9/9/4r4/9/4R4/9/9/4K4 w - - 0 1");
    assert!(matches!(
        error(&p, "e3d3", Notation::Iccs),
        NotationError::IllegalMove { .. }
    ));
    assert!(matches!(
        error(&p, "R5=6", Notation::Wxf),
        NotationError::IllegalMove { iccs, .. } if iccs == "e3d3"
    ));
    assert!(
        error(&p, "R5=6", Notation::Wxf)
            .to_string()
            .contains("e3d3")
    );
}

#[test]
fn missing_pieces_and_wrong_side() {
    let p = Position::startpos();
    assert!(matches!(
        error(&p, "e5e6", Notation::Iccs),
        NotationError::NoSuchPiece { kind: None, .. }
    ));
    assert!(matches!(
        error(&p, "C5=4", Notation::Wxf),
        NotationError::NoSuchPiece { .. }
    ));
    assert!(matches!(
        error(&p, "炮五平四", Notation::Chinese),
        NotationError::NoSuchPiece { .. }
    ));
    // No two cannons on one file.
    assert!(matches!(
        error(&p, "C+=5", Notation::Wxf),
        NotationError::NoSuchPiece { .. }
    ));
    // Black pieces while Red is to move, and the other way round.
    let wrong = error(&p, "h7e7", Notation::Iccs);
    assert!(
        matches!(wrong, NotationError::WrongSide { .. }),
        "{wrong:?}"
    );
    assert!(wrong.to_string().contains("Red"), "{wrong}");
    for text in ["卒3进1", "将5进1"] {
        assert!(matches!(
            error(&p, text, Notation::Chinese),
            NotationError::WrongSide { .. }
        ));
    }
    let p = p.after(mv("h2e2"));
    assert!(matches!(
        error(&p, "兵三进一", Notation::Chinese),
        NotationError::WrongSide { .. }
    ));
    assert!(matches!(
        error(&p, "e3e4", Notation::Iccs),
        NotationError::WrongSide { .. }
    ));
    assert!(matches!(
        parse_any(&p, "e3e4"),
        Err(NotationError::WrongSide { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------------
#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

/// Every legal move of `p`, written in every notation, reads back as itself; the written
/// forms of different moves differ.
fn round_trip_all(p: &Position) {
    let moves = p.legal_moves();
    for notation in Notation::ALL {
        let mut seen = std::collections::HashSet::new();
        for &m in moves.iter() {
            let text = format_move(p, m, notation);
            assert!(
                seen.insert(text.clone()),
                "{notation} {text} twice in {p:?}"
            );
            assert_eq!(
                parse_move(p, &text, notation),
                Ok(m),
                "{notation} {text} for {m} in {p:?}"
            );
            assert_eq!(parse_any(p, &text), Ok(m), "parse_any {text} in {p:?}");
        }
    }
}

#[test]
fn round_trip_random_games() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut positions = 0;
    for _game in 0..300 {
        let mut p = Position::startpos();
        for _ply in 0..80 {
            round_trip_all(&p);
            positions += 1;
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            p.make_move(m);
        }
    }
    assert!(positions > 10_000);
}

#[test]
fn round_trip_crafted_positions() {
    for fen in [
        START,
        "rnbakabnr/9/1c5c1/p1p1P1p1p/4P4/9/P3P3P/1C5C1/9/RNBAKABNR w - - 0 1",
        "5k3/9/3P5/3P1P1P1/5P3/9/9/9/9/4K4 w - - 0 1",
        "3k5/9/9/P1P6/P1P6/9/9/9/9/4K4 w - - 0 1",
        "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1",
        "P2k5/P8/P8/P8/P8/9/9/9/9/4K4 w - - 0 1",
        "3k5/P8/P8/P8/P8/9/9/9/9/4K4 w - - 0 1",
        "4k4/9/9/9/9/p8/p8/p8/p8/p2K5 b - - 0 1",
        "4k4/9/9/9/9/p8/p1p6/p1p6/9/3K5 b - - 0 1",
        "4k4/1r7/1r5c1/7c1/4n4/4n4/9/9/9/3K5 b - - 0 1",
        "3k5/9/9/9/9/9/9/7C1/9/4K2C1 w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/4P4/1NB6/P1P1P3P/1C1A3C1/9/RNBAK4 w - - 0 1",
    ] {
        round_trip_all(&pos(fen));
    }
}

/// The points a piece may stand on, as `(file, rank)` in its owner's frame (rank 0 = own
/// back rank).
fn own_points(kind: char) -> Vec<(u8, u8)> {
    let all = || (0..9u8).flat_map(|f| (0..10u8).map(move |r| (f, r)));
    match kind {
        'K' => all()
            .filter(|&(f, r)| (3..=5).contains(&f) && r <= 2)
            .collect(),
        'A' => vec![(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)],
        'B' => vec![(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)],
        'P' => all()
            .filter(|&(f, r)| r >= 5 || ((r == 3 || r == 4) && f % 2 == 0))
            .collect(),
        _ => all().collect(),
    }
}

/// A random position rich in soldiers stacked on few files, and in doubled pieces, as FEN.
fn random_fen(rng: &mut Rng) -> String {
    let mut board = [['.'; 9]; 10];
    for red in [true, false] {
        let to_board = |(f, r): (u8, u8)| {
            if red {
                (f as usize, r as usize)
            } else {
                (f as usize, 9 - r as usize)
            }
        };
        let mut put = |rng: &mut Rng, letter: char, points: &[(u8, u8)]| {
            for _ in 0..20 {
                let (f, r) = to_board(points[rng.below(points.len())]);
                if board[r][f] == '.' {
                    board[r][f] = if red {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    };
                    return;
                }
            }
        };
        put(rng, 'K', &own_points('K'));
        // Soldiers: mostly on one or two files.
        let soldier_points = own_points('P');
        let files = [rng.below(9) as u8, rng.below(9) as u8];
        for _ in 0..rng.below(6) {
            let file = files[rng.below(2)];
            let on_file: Vec<(u8, u8)> = soldier_points
                .iter()
                .copied()
                .filter(|&(f, _)| f == file || rng.below(6) == 0)
                .collect();
            if !on_file.is_empty() {
                put(rng, 'P', &on_file);
            }
        }
        for letter in ['A', 'B', 'N', 'R', 'C'] {
            let points = own_points(letter);
            for _ in 0..rng.below(3) {
                // Often on one file, to make doubled pieces.
                let file = rng.below(9) as u8;
                let on_file: Vec<(u8, u8)> =
                    points.iter().copied().filter(|&(f, _)| f == file).collect();
                if rng.below(2) == 0 && !on_file.is_empty() {
                    put(rng, letter, &on_file);
                } else {
                    put(rng, letter, &points);
                }
            }
        }
    }
    let mut fen = String::new();
    for (rank, row) in board.iter().enumerate().rev() {
        let mut empty = 0;
        for &c in row {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    fen.push_str(&empty.to_string());
                    empty = 0;
                }
                fen.push(c);
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if rng.below(2) == 0 {
        " w - - 0 1"
    } else {
        " b - - 0 1"
    });
    fen
}

#[test]
fn round_trip_random_crowded_positions() {
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let mut tested = 0;
    let mut crowded = 0;
    for _ in 0..6_000 {
        let fen = random_fen(&mut rng);
        let Ok(p) = Position::from_fen(&fen) else {
            continue;
        };
        tested += 1;
        let moves = p.legal_moves();
        if moves.iter().any(|&m| {
            let w = format_move(&p, m, Notation::Wxf);
            w.starts_with(|c: char| c.is_ascii_digit())
        }) {
            crowded += 1;
        }
        round_trip_all(&p);
        // Play a few moves on, to reach positions no FEN above lists.
        let mut q = p.clone();
        for _ in 0..4 {
            let moves = q.legal_moves();
            if moves.is_empty() {
                break;
            }
            q.make_move(moves[rng.below(moves.len())]);
            round_trip_all(&q);
        }
    }
    eprintln!("{tested} random positions, {crowded} with crowded soldiers");
    assert!(tested > 2_000, "only {tested} random positions were valid");
    assert!(
        crowded > 150,
        "only {crowded} positions with crowded soldiers"
    );
}

// ---------------------------------------------------------------------------------------------
// Never panic
// ---------------------------------------------------------------------------------------------

const ALPHABET: &str = "KAEHRCPBNkaehrcpbn0123456789+-=. abcdefghij\
    帅将仕士相象马车炮兵卒帥將傌馬俥車砲包前中后後进進退平上下一二三四五六七八九１２３９\u{0}\u{feff}é";

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let p = Position::startpos();
        for notation in Notation::ALL {
            if let Err(e) = parse_move(&p, &text, notation) {
                let _ = e.to_string();
            }
        }
        let _ = parse_any(&p, &text);
    }

    #[test]
    fn notation_like_text_never_panics(
        picks in proptest::collection::vec(0usize..1000, 0..8),
        black in any::<bool>(),
    ) {
        let chars: Vec<char> = ALPHABET.chars().collect();
        let text: String = picks.iter().map(|&i| chars[i % chars.len()]).collect();
        let p = if black {
            pos("4k4/9/9/9/9/p8/p1p6/p1p6/9/3K5 b - - 0 1")
        } else {
            pos("rnbakabnr/9/1c5c1/p1p1P1p1p/4P4/9/P3P3P/1C5C1/9/RNBAKABNR w - - 0 1")
        };
        for notation in Notation::ALL {
            match parse_move(&p, &text, notation) {
                Ok(m) => prop_assert!(p.legal_moves().contains(m)),
                Err(e) => { let _ = e.to_string(); }
            }
        }
        if let Ok(m) = parse_any(&p, &text) {
            prop_assert!(p.legal_moves().contains(m));
        }
    }

    #[test]
    fn random_play_round_trips(seed in any::<u64>(), plies in 0usize..120) {
        let mut rng = Rng::new(seed | 1);
        let mut p = Position::startpos();
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.make_move(moves[rng.below(moves.len())]);
        }
        for &m in p.legal_moves().iter() {
            for notation in Notation::ALL {
                let text = format_move(&p, m, notation);
                prop_assert_eq!(parse_move(&p, &text, notation), Ok(m));
            }
        }
    }
}
