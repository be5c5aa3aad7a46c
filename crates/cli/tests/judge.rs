//! `xiangqi judge` as a user runs it.

mod support;

use support::xiangqi;

const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../rules/tests/data/perpetual-axf.tsv"
);

fn judge(fen: &str, moves: &str, rules: &str) -> String {
    let out = xiangqi(&["judge", "--fen", fen, "--moves", moves, "--rules", rules]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    assert_eq!(text.lines().count(), 1, "exactly one line: {text}");
    text.trim_end().to_string()
}

#[test]
fn a_perpetual_chase_names_the_chaser_the_piece_and_the_moves() {
    let fen = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1";
    let moves = "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2";
    assert_eq!(
        judge(fen, moves, "asian"),
        "result: black-wins reason: Red chased the chariot on a7 perpetually (moves 1\u{2013}9)"
    );
}

#[test]
fn every_public_case_gets_the_accepted_result() {
    let text = std::fs::read_to_string(VECTORS).expect("the vector file");
    let mut rows = 0;
    for line in text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let got = judge(fields[0], fields[1], "asian");
        let expected = format!("result: {} reason: ", fields[2]);
        assert!(got.starts_with(&expected), "{}: {got}", fields[3]);
        rows += 1;
    }
    assert_eq!(rows, 32);
}

#[test]
fn the_asian_rules_are_the_default() {
    let out = xiangqi(&[
        "judge",
        "--moves",
        "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.trim_end(),
        "result: draw reason: The position repeated with no perpetual check or chase by either \
         side (moves 1\u{2013}8)"
    );
}

#[test]
fn an_unfinished_game_is_ongoing() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert_eq!(
        judge(start, "h2e2 h9g7", "asian"),
        "result: ongoing reason: the game goes on with Red to move"
    );
    let line = judge(start, "b0c2 b9c7 c2b0 c7b9", "asian");
    assert!(
        line.ends_with("the position has occurred 2 times"),
        "{line}"
    );
}

#[test]
fn the_cxq_rules_play_on_after_a_repetition() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let line = judge(start, "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9", "cxq");
    assert!(line.starts_with("result: ongoing"), "{line}");
}

#[test]
fn mate_is_reported_with_its_move() {
    let line = judge("3k5/4R4/2R6/9/9/9/9/9/9/5K3 w", "c7d7", "asian");
    assert_eq!(
        line,
        "result: red-wins reason: Black is checkmated (move 1)"
    );
}

#[test]
fn moves_may_be_written_in_wxf_or_chinese() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let line = judge(start, "C2=5 马8进7", "asian");
    assert_eq!(
        line,
        "result: ongoing reason: the game goes on with Red to move"
    );
}

#[test]
fn an_illegal_move_is_an_error_naming_the_move() {
    let out = xiangqi(&["judge", "--moves", "h2e2 h9g7 h0h9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: move 3 (h0h9):"), "{err}");
}

#[test]
fn an_unreadable_move_is_an_error_naming_the_move() {
    let out = xiangqi(&["judge", "--moves", "h2e2 zz99"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: move 2 (zz99):"), "{err}");
}

#[test]
fn a_bad_fen_is_an_error() {
    let out = xiangqi(&["judge", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w", "--moves", ""]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: bad FEN:"), "{err}");
}

#[test]
fn an_unknown_rule_set_is_an_error() {
    let out = xiangqi(&["judge", "--rules", "chinese"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error:"));
}
