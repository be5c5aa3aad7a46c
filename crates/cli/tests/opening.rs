//! `xiangqi opening` and the ECCO tags of `xiangqi convert`, as a user runs them.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;
use support::xiangqi;

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

fn refused(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "expected a refusal");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const C48: &str = "h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 c3c4 h7i7 h6g6 i7i8 b2d2";

#[test]
fn prints_code_opening_and_variation_in_chinese() {
    let out = stdout(&xiangqi(&["opening", "--moves", C48]));
    assert_eq!(
        out,
        "C48\t中炮过河车互进七兵对屏风马平炮兑车\t红仕角炮对黑退边炮\n"
    );
    // An opening without a variation ends with an empty column.
    let out = stdout(&xiangqi(&["opening", "--moves", "h2e2 h9g7"]));
    assert_eq!(out, "B05\t中炮对进左马\t\n");
}

#[test]
fn english_and_russian_print_the_codes_own_opening_and_variation() {
    let en = stdout(&xiangqi(&["opening", "--moves", C48, "--lang", "en"]));
    assert_eq!(
        en,
        "C48\tCentral Cannon with Cross-river Chariot and Both 7th Pawns Advanced vs Screen \
         Horses with Cannon Shift to Exchange Chariots\tRed: palcorner cannon; Black: edge cannon \
         back\n"
    );
    let ru = stdout(&xiangqi(&["opening", "--moves", C48, "--lang", "ru"]));
    assert_eq!(
        ru,
        "C48\tЦентральная пушка с колесницей за рекой и продвижением обоих 7-х солдат против \
         ширмы из коней со сдвигом пушки для размена колесниц\tкрасные: пушка в углу дворца; \
         чёрные: отход пушки с края\n"
    );
    // Two codes of one family get names of their own; no variation, an empty column.
    let b00 = |lang| stdout(&xiangqi(&["opening", "--moves", "h2e2", "--lang", lang]));
    let b05 = |lang| {
        stdout(&xiangqi(&[
            "opening",
            "--moves",
            "h2e2 h9g7",
            "--lang",
            lang,
        ]))
    };
    assert_eq!(b00("en"), "B00\tCentral Cannon Opening\t\n");
    assert_eq!(b05("en"), "B05\tCentral Cannon vs Left Horse\t\n");
    assert_eq!(b00("ru"), "B00\tДебют центральной пушки\t\n");
    assert_eq!(b05("ru"), "B05\tЦентральная пушка против левого коня\t\n");
    let ru = stdout(&xiangqi(&[
        "opening",
        "--moves",
        "g0e2 h9g7",
        "--lang",
        "ru",
    ]));
    assert_eq!(ru, "A13\tДебют слона против левого коня\t\n");
}

#[test]
fn a_transposed_order_prints_the_same_line() {
    let transposed = "h2e2 h9g7 h0g2 b9c7 i0h0 i9h9 c3c4 g6g5 h0h6 h7i7 h6g6 i7i8 b2d2";
    assert_eq!(
        stdout(&xiangqi(&["opening", "--moves", transposed])),
        stdout(&xiangqi(&["opening", "--moves", C48]))
    );
}

#[test]
fn illegal_and_unreadable_moves_are_refused_with_their_number() {
    let err = refused(&xiangqi(&["opening", "--moves", "h2e2 h2e3"]));
    assert!(
        err.contains("move 1 (Black) h2e3 is not legal"),
        "stderr: {err}"
    );
    let err = refused(&xiangqi(&["opening", "--moves", "h2e2 x9"]));
    assert!(
        err.contains("move 2 'x9' is not an ICCS move"),
        "stderr: {err}"
    );
    let err = refused(&xiangqi(&["opening", "--moves", ""]));
    assert!(err.contains("no move"), "stderr: {err}");
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-opening-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.to_string_lossy().into_owned()
}

#[test]
fn a_record_not_from_the_initial_position_is_refused() {
    let dir = scratch("endgame");
    let file = write(
        &dir,
        "study.pgn",
        "[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n\n1. e0e1 *\n",
    );
    let err = refused(&xiangqi(&["opening", "--file", &file]));
    assert!(err.contains("initial position"), "stderr: {err}");
}

#[test]
fn a_record_file_is_named_by_its_main_line() {
    let dir = scratch("file");
    let file = write(
        &dir,
        "game.pgn",
        "[Event \"x\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n",
    );
    assert_eq!(
        stdout(&xiangqi(&["opening", "--file", &file])),
        "B05\t中炮对进左马\t\n"
    );
}

#[test]
fn convert_writes_ecco_tags_when_the_source_has_none() {
    let dir = scratch("convert");
    let input = write(
        &dir,
        "in.pgn",
        "[Event \"club\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 g6g5 4. h0h6 b9c7 5. c3c4 h7i7 \
         6. h6g6 i7i8 7. b2d2 *\n",
    );
    let output = dir.join("out.pgn").to_string_lossy().into_owned();
    stdout(&xiangqi(&["convert", &input, &output]));
    let written = std::fs::read_to_string(&output).expect("written");
    assert!(written.contains("[ECCO \"C48\"]"), "{written}");
    assert!(
        written.contains("[Opening \"中炮过河车互进七兵对屏风马平炮兑车\"]"),
        "{written}"
    );
    assert!(
        written.contains("[Variation \"红仕角炮对黑退边炮\"]"),
        "{written}"
    );

    // A record that names its opening keeps its own code.
    let tagged = write(&dir, "tagged.pgn", "[ECCO \"A00\"]\n\n1. h2e2 h9g7 *\n");
    let output = dir.join("tagged-out.pgn").to_string_lossy().into_owned();
    stdout(&xiangqi(&["convert", &tagged, &output]));
    let written = std::fs::read_to_string(&output).expect("written");
    assert!(written.contains("[ECCO \"A00\"]"), "{written}");
    assert!(!written.contains("B05"), "{written}");
}
