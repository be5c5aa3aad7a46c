//! Truncated and malformed input for each reader: an error that names the place and what was
//! expected, a cut-off game kept as partial, an illegal move named by number and text.

mod support;

use support::data;
use xiangqi_records::{ErrorKind, Game, Place, RecordError, dhtmlxq, pgn, xqf};

/// Whether `partial`'s main line is a prefix of `full`'s.
fn is_prefix(partial: &Game, full: &Game) -> bool {
    let p: Vec<_> = partial.mainline().collect();
    let f: Vec<_> = full.mainline().collect();
    p.len() <= f.len() && f[..p.len()] == p[..]
}

fn text_place(e: &RecordError) -> (usize, usize) {
    match e.place {
        Place::Text { line, column } => (line, column),
        Place::Byte(_) => panic!("a text reader gave a byte offset: {e}"),
    }
}

#[test]
fn pgn_cut_anywhere_is_a_partial_game() {
    let text = String::from_utf8(data("xqbase-chinese.pgn")).unwrap();
    let full = pgn::read_str(&text).unwrap().remove(0);
    let complete = text.trim_end().len();
    let mut partial_moves = 0;
    for (cut, _) in text.char_indices().skip(1) {
        let result = pgn::read_str(&text[..cut]);
        if cut >= complete {
            assert_eq!(result.unwrap()[0], full);
            continue;
        }
        let e = result.expect_err("a cut game is an error");
        assert!(e.is_truncated(), "cut at {cut}: {e}");
        text_place(&e);
        let partial = e.partial.as_ref().expect("a partial game");
        assert!(is_prefix(partial, &full), "cut at {cut}: {e}");
        partial_moves = partial_moves.max(partial.mainline().count());
    }
    assert_eq!(partial_moves, full.mainline().count());
}

#[test]
fn pgn_errors_name_line_column_and_what_was_expected() {
    let cases: [(&str, (usize, usize), &str); 9] = [
        ("1. h2e2 h2e2 *", (1, 9), "move 1... h2e2 cannot be played"),
        (
            "1. h2e2\n1... 马8进7 2. 马八进七 马2进9 *",
            (2, 19),
            "move 2... 马2进9",
        ),
        (
            "[Event \"x\"\n1. h2e2 *",
            (1, 11),
            "expected `]` to close the tag",
        ),
        ("[FEN \"bad\"]\n*", (1, 1), "bad start position"),
        (
            "1. h2e2 ) *",
            (1, 9),
            "expected a move, a comment or a result",
        ),
        ("( 1. h2e2 ) *", (1, 1), "expected a move before `(`"),
        (
            "$3 1. h2e2 *",
            (1, 1),
            "expected a move before the annotation",
        ),
        ("1. h2e2 $300 *", (1, 9), "NAG number from 0 to 255"),
        (
            "[Variant \"chess\"]\n1. e4 *",
            (1, 1),
            "expected [Variant \"xiangqi\"]",
        ),
    ];
    for (text, place, message) in cases {
        let e = pgn::read_str(text).expect_err(text);
        assert_eq!(text_place(&e), place, "{text}: {e}");
        assert!(e.to_string().contains(message), "{text}: {e}");
    }
}

#[test]
fn pgn_illegal_move_keeps_the_moves_before_it() {
    let e = pgn::read_str("1. 炮二平五 马8进7 2. 马二进三 马8进7 *").unwrap_err();
    match &e.kind {
        ErrorKind::IllegalMove { number, text, .. } => {
            assert_eq!(number.to_string(), "2...");
            assert_eq!(text, "马8进7");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(e.partial.as_ref().unwrap().mainline().count(), 3);
}

#[test]
fn pgn_unclosed_variation_and_deep_nesting() {
    let e = pgn::read_str("1. h2e2 (1. b2e2 h9g7").unwrap_err();
    assert!(e.is_truncated());
    assert!(
        e.to_string()
            .contains("variation opened at line 1, column 9"),
        "{e}"
    );
    assert_eq!(e.partial.unwrap().move_count(), 3);

    let deep = format!("1. h2e2 h9g7 {} *", "(1... b9c7 ".repeat(150));
    let e = pgn::read_str(&deep).unwrap_err();
    assert_eq!(e.kind, ErrorKind::TooDeep, "{e}");
}

#[test]
fn pgn_reading_goes_on_after_a_bad_game() {
    let text = "[Event \"1\"]\n1. h2e2 *\n\n[Event \"2\"]\n1. h2h8 *\n\n[Event \"3\"]\n1. b2e2 *\n";
    let results: Vec<_> = pgn::games(text).collect();
    assert_eq!(results.len(), 3);
    assert!(results[0].is_ok() && results[2].is_ok());
    let e = results[1].as_ref().unwrap_err();
    assert_eq!(e.game, Some(2));
    assert!(e.to_string().starts_with("game 2, line 5, column 4"), "{e}");
    assert!(pgn::read_str(text).is_err());
}

#[test]
fn garbage_is_not_pgn() {
    for text in [
        "\u{0}\u{1}garbage",
        "{",
        "[",
        "%x\n]",
        "1. ??",
        "((((",
        "1. 炮二平",
    ] {
        let e = pgn::read_str(text).expect_err(text);
        text_place(&e);
    }
    let e = pgn::read(b"\xff\xfe\xfd\x80\x81").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Encoding);
    assert!(matches!(e.place, Place::Byte(_)));
}

#[test]
fn xqf_cut_anywhere_is_an_error_and_after_the_header_a_partial_game() {
    for name in ["hand-made-v10.xqf", "hand-made-v18.xqf"] {
        let bytes = data(name);
        let full = xqf::read(&bytes).unwrap();
        for cut in 0..bytes.len() {
            let e = xqf::read(&bytes[..cut]).expect_err("cut");
            assert!(e.is_truncated() || cut < 2, "{name} cut at {cut}: {e}");
            assert!(matches!(e.place, Place::Byte(_)));
            if cut >= 0x400 {
                let partial = e.partial.as_ref().expect("partial");
                assert!(is_prefix(partial, &full), "{name} cut at {cut}");
            }
        }
    }
}

#[test]
fn xqf_errors_name_the_byte_offset() {
    let good = data("hand-made-v10.xqf");
    let e = xqf::read(b"PK\x03\x04").unwrap_err();
    assert_eq!(e.place, Place::Byte(0));
    assert!(e.to_string().contains("XQF signature"), "{e}");

    // Two pieces on one point.
    let mut twice = good.clone();
    twice[0x11] = twice[0x10];
    let e = xqf::read(&twice).unwrap_err();
    assert!(e.to_string().contains("two pieces on a0"), "{e}");

    // The second record's origin off the board.
    let mut off = good.clone();
    off[0x40C] = 0xF0;
    let e = xqf::read(&off).unwrap_err();
    assert_eq!(e.place, Place::Byte(0x40C));

    // The second record moves the cannon where it cannot go.
    let mut illegal = good.clone();
    illegal[0x40D] = 20 + 32; // h2 to c0, not a cannon move
    let e = xqf::read(&illegal).unwrap_err();
    assert_eq!(e.place, Place::Byte(0x40C));
    match &e.kind {
        ErrorKind::IllegalMove { number, text, .. } => {
            assert_eq!(number.to_string(), "1.");
            assert_eq!(text, "h2c0");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn dhtmlxq_cut_anywhere_is_an_error_or_a_partial_game() {
    let text = String::from_utf8(data("dpxq.txt")).unwrap();
    let full = dhtmlxq::read_str(&text).unwrap().remove(0);
    let close = text.find("[/DhtmlXQ]").unwrap() + "[/DhtmlXQ]".len();
    let first_element = text.find("[/DhtmlXQ_ver]").unwrap();
    // Cut inside `binit`, the start position is unknown and no partial game can be kept.
    let binit = text.find("[DhtmlXQ_binit]").unwrap()..text.find("[/DhtmlXQ_binit]").unwrap() + 16;
    for (cut, _) in text.char_indices() {
        let result = dhtmlxq::read_str(&text[..cut]);
        if cut >= close {
            assert_eq!(result.unwrap()[0], full, "cut at {cut}");
            continue;
        }
        let e = result.expect_err("cut");
        text_place(&e);
        if cut > first_element {
            assert!(e.is_truncated(), "cut at {cut}: {e}");
            if binit.contains(&cut) {
                continue;
            }
            let partial = e
                .partial
                .as_ref()
                .unwrap_or_else(|| panic!("cut at {cut}: {e}"));
            assert!(is_prefix(partial, &full), "cut at {cut}: {e}");
        }
    }
}

#[test]
fn dhtmlxq_errors_name_line_column_and_what_was_expected() {
    let cases: [(&str, (usize, usize), &str); 7] = [
        ("no record here", (1, 1), "expected a DhtmlXQ record"),
        (
            "[DhtmlXQ_movelist]774[/DhtmlXQ_movelist]",
            (1, 19),
            "four digits a move",
        ),
        (
            "[DhtmlXQ_movelist]7a47[/DhtmlXQ_movelist]",
            (1, 20),
            "a digit of a move",
        ),
        (
            "[DhtmlXQ_movelist]77477747[/DhtmlXQ_movelist]",
            (1, 23),
            "move 1... h2e2",
        ),
        ("[DhtmlXQ_binit]123[/DhtmlXQ_binit]", (1, 16), "64 digits"),
        (
            "[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[DhtmlXQ_move_5_1_1]1927[/DhtmlXQ_move_5_1_1]",
            (2, 1),
            "a variation that replaces a move of branch 5",
        ),
        (
            "[DhtmlXQ_move_x]1[/DhtmlXQ_move_x]",
            (1, 1),
            "move_<branch>_<ply>_<number>",
        ),
    ];
    for (text, place, message) in cases {
        let e = dhtmlxq::read_str(text).expect_err(text);
        assert_eq!(text_place(&e), place, "{text}: {e}");
        assert!(e.to_string().contains(message), "{text}: {e}");
    }
}

#[test]
fn a_game_with_a_hundred_thousand_tags_reads_in_linear_time() {
    // Each tag was once looked up among all the tags before it: 100k tags took over 20 s.
    let mut text = String::from("[Game \"Chinese Chess\"]\n");
    for i in 0..100_000 {
        text.push_str(&format!("[Tag{i} \"value {i}\"]\n"));
    }
    text.push_str("[Red \"Ann\"]\n[Format \"ICCS\"]\n\n1. h2e2 *\n");
    let start = std::time::Instant::now();
    let game = pgn::read_str(&text).unwrap().remove(0);
    let took = start.elapsed();
    assert_eq!(game.tags.len(), 100_001);
    assert_eq!(game.tags.get("Tag99999"), Some("value 99999"));
    assert_eq!(
        game.tags.iter().next(),
        Some(("Red", "Ann")),
        "the roster comes first"
    );
    // A bound far above linear time (about 0.1 s) and far below the quadratic one.
    assert!(took < std::time::Duration::from_secs(5), "took {took:?}");
    let written = pgn::write_game(&game, xiangqi_rules::notation::Notation::Iccs).unwrap();
    assert_eq!(pgn::read_str(&written).unwrap()[0], game);
}
