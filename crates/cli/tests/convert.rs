//! `xiangqi convert` as a user runs it: formats read and written, the output format from
//! `--to` or the extension, and errors on stderr with exit code 2.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;
use support::xiangqi;
use xiangqi_records::{RecordFormat, pgn};

/// A file of the records crate's tests, in `folder` (`data` or `real-world`).
fn records_file(folder: &str, name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../records/tests")
        .join(folder)
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// A sample record of the records crate.
fn sample(name: &str) -> String {
    records_file("data", name)
}

/// A real-world-shaped record of the records crate.
fn real_world(name: &str) -> String {
    records_file("real-world", name)
}

/// A fresh folder for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-convert-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_string_lossy().into_owned()
}

fn convert(args: &[&str]) -> Output {
    let mut all = vec!["convert"];
    all.extend_from_slice(args);
    xiangqi(&all)
}

fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn assert_error(out: &Output, needles: &[&str]) {
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{n:?} not in {err}");
    }
}

#[test]
fn pgn_to_xqf_and_back_keeps_moves_variations_and_comments() {
    let dir = scratch("pgn-xqf");
    let (xqf, back) = (path(&dir, "game.xqf"), path(&dir, "back.pgn"));
    assert_ok(&convert(&[&sample("xqbase-chinese.pgn"), &xqf]));
    let bytes = std::fs::read(&xqf).unwrap();
    assert_eq!(&bytes[..3], b"XQ\x0A");
    let out = convert(&[&xqf, &back, "--to", "pgn-iccs"]);
    assert_ok(&out);
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 game from XQF"));
    let original = pgn::read(&std::fs::read(sample("xqbase-chinese.pgn")).unwrap()).unwrap();
    let text = std::fs::read_to_string(&back).unwrap();
    assert!(text.contains("[Format \"ICCS\"]"), "{text}");
    assert!(text.contains("1. H2-E2 H9-G7"), "{text}");
    let read = pgn::read_str(&text).unwrap();
    let moves = |g: &xiangqi_records::Game| g.mainline().collect::<Vec<_>>();
    assert_eq!(moves(&read[0]), moves(&original[0]));
    assert_eq!(read[0].move_count(), original[0].move_count());
    assert_eq!(read[0].moves.comment, original[0].moves.comment);
    assert_eq!(read[0].tags.get("Red"), Some("吕钦"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_target_format_is_written() {
    let dir = scratch("targets");
    let input = sample("dpxq.txt");
    let cases = [
        ("pgn-iccs", "a.out", "1. H2-E2 {中炮} 1... H9-G7"),
        ("pgn-wxf", "b.out", "1. C2=5 {中炮} 1... H8+7"),
        ("pgn-chinese", "c.out", "1. 炮二平五 {中炮} 1... 马8进7"),
        ("dhtmlxq", "d.out", "[DhtmlXQ_movelist]7747706279678070"),
    ];
    for (to, name, needle) in cases {
        let out = path(&dir, name);
        assert_ok(&convert(&[&input, &out, "--to", to]));
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains(needle), "{to}: {text}");
    }
    let out = path(&dir, "e.out");
    assert_ok(&convert(&[&input, &out, "--to", "xqf"]));
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(RecordFormat::detect(&bytes, None), RecordFormat::Xqf);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_output_extension_picks_the_format() {
    let dir = scratch("extensions");
    let input = sample("hand-made-v18.xqf");
    let pgn_out = path(&dir, "game.pgn");
    assert_ok(&convert(&[&input, &pgn_out]));
    let text = std::fs::read_to_string(&pgn_out).unwrap();
    assert!(
        text.contains("[Format \"Chinese\"]") && text.contains("炮二平五"),
        "{text}"
    );
    let ubb = path(&dir, "game.ubb");
    assert_ok(&convert(&[&input, &ubb]));
    assert!(
        std::fs::read_to_string(&ubb)
            .unwrap()
            .starts_with("[DhtmlXQ]")
    );
    let unknown = path(&dir, "game.doc");
    assert_error(
        &convert(&[&input, &unknown]),
        &["cannot tell the format", "--to"],
    );
    assert!(!Path::new(&unknown).exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn gbk_input_becomes_utf8_output() {
    let dir = scratch("gbk");
    let out = path(&dir, "game.pgn");
    assert_ok(&convert(&[&sample("gbk.pgn"), &out, "--to", "pgn-wxf"]));
    let text = std::fs::read_to_string(&out).expect("UTF-8 output");
    assert!(text.contains("[Red \"吕钦\"]"), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_records_are_errors_that_say_where() {
    let dir = scratch("errors");
    let out = path(&dir, "out.pgn");

    let illegal = path(&dir, "illegal.pgn");
    std::fs::write(&illegal, "1. h2e2 h2e2 *\n").unwrap();
    assert_error(
        &convert(&[&illegal, &out]),
        &["illegal.pgn (PGN)", "line 1, column 9", "move 1... h2e2"],
    );

    let cut = path(&dir, "cut.xqf");
    let bytes = std::fs::read(sample("hand-made-v10.xqf")).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    assert_error(
        &convert(&[&cut, &out]),
        &["cut off", "byte offset", "partial game"],
    );

    let missing = path(&dir, "missing.pgn");
    assert_error(&convert(&[&missing, &out]), &["cannot read"]);
    assert!(!Path::new(&out).exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_broken_game_is_named_on_stderr_and_the_others_converted() {
    let dir = scratch("broken");
    let out = path(&dir, "out.pgn");
    let run = convert(&[&real_world("collection-one-broken.pgn"), &out]);
    assert_ok(&run);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.starts_with("error: ") && err.contains("game 2, line 18, column 4"),
        "{err}"
    );
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(
        said.contains("2 games") && said.contains("1 game could not be read"),
        "{said}"
    );
    let games = pgn::read(&std::fs::read(&out).unwrap()).unwrap();
    let events: Vec<_> = games.iter().map(|g| g.tags.get("Event").unwrap()).collect();
    assert_eq!(events, ["第一局", "第三局"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn skipped_text_and_cut_fields_are_warnings_on_stderr() {
    let dir = scratch("warnings");
    let out = path(&dir, "out.pgn");
    let run = convert(&[&real_world("xqbase-gbk-crlf.pgn"), &out]);
    assert_ok(&run);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.starts_with("warning: "), "{err}");
    assert!(
        err.contains("line 26") && err.contains("text outside any game"),
        "{err}"
    );

    let out = path(&dir, "out.xqf");
    let run = convert(&[&real_world("long-names.pgn"), &out]);
    assert_ok(&run);
    let err = String::from_utf8_lossy(&run.stderr);
    for needle in ["tag Red", "15-byte field", "tag ECCO", "NAG"] {
        assert!(err.contains(needle), "{needle:?} not in {err}");
    }
    assert!(err.lines().all(|l| l.starts_with("warning: ")), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn xqf_holds_one_game() {
    let dir = scratch("one-game");
    let out = path(&dir, "out.xqf");
    assert_error(
        &convert(&[&sample("collection.pgn"), &out]),
        &["XQF holds exactly one game", "there are 3"],
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_unknown_target_format_is_refused() {
    let out = convert(&["a.pgn", "b.pgn", "--to", "cbf"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pgn-iccs, pgn-wxf"));
}

#[test]
fn a_file_is_never_converted_onto_itself() {
    let dir = scratch("in-place");
    let file = path(&dir, "games.pgn");
    let text =
        "Games from the club\n\n[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 *\n";
    std::fs::write(&file, text).unwrap();
    let out = convert(&[&file, &file]);
    assert_error(&out, &["same file"]);
    // Another spelling of the same path is the same file too.
    let other = format!("{}/./games.pgn", dir.display());
    assert_error(&convert(&[&file, &other]), &["same file"]);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        text,
        "the file is untouched"
    );
    // Into another file it converts, and no temporary file is left beside it.
    let out_file = path(&dir, "games.xqf");
    assert_ok(&convert(&[&file, &out_file]));
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
}

#[test]
fn a_big5_file_from_a_taiwan_site_converts_and_says_its_encoding() {
    let dir = scratch("big5");
    let out_file = path(&dir, "game.pgn");
    let out = convert(&[
        &real_world("ccpd-big5-game.pgn"),
        &out_file,
        "--to",
        "pgn-wxf",
    ]);
    assert_ok(&out);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("1 game from PGN (Big5) written"), "{said}");
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert!(text.contains("[Red \"東北韓福德\"]"), "{text}");
    assert!(text.contains("1. C8=5 C2=5"), "{text}");
    // A GBK file says GBK.
    let out = convert(&[
        &real_world("xqbase-gbk-crlf.pgn"),
        &out_file,
        "--to",
        "pgn-wxf",
    ]);
    assert_ok(&out);
    assert!(String::from_utf8_lossy(&out.stdout).contains("from PGN (GBK)"));
}
