//! `xiangqi match` end to end: our engine against itself, and against Fairy-Stockfish in plain
//! UCI (ranks 1–10) and in UCCI, at low depth; the PGN must replay legally under our rules.
//! The Fairy-Stockfish tests fail (never skip) when it is not installed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use xiangqi_records::{Game, pgn};
use xiangqi_rules::{GameRules, Position};

const XIANGQI: &str = env!("CARGO_BIN_EXE_xiangqi");

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("match-tests");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir.join(name)
}

fn fairy_stockfish() -> String {
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let candidate = dir.join("fairy-stockfish");
            if candidate.is_file() {
                return candidate.to_string_lossy().into_owned();
            }
        }
    }
    let debian = "/usr/games/fairy-stockfish";
    assert!(
        Path::new(debian).is_file(),
        "fairy-stockfish was found neither on PATH nor at {debian}; \
         install it with `apt-get install fairy-stockfish`"
    );
    debian.to_string()
}

/// Runs `xiangqi match` with the arguments given in groups (one option and its values each).
fn run_match(groups: &[&[&str]]) -> Output {
    let out = Command::new(XIANGQI)
        .arg("match")
        .args(groups.iter().flat_map(|g| g.iter()))
        .output()
        .expect("run xiangqi match");
    assert!(
        out.status.success(),
        "xiangqi match failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Checks every game, read back with the records reader (which plays every move): the
/// xqbase tags, the engines' names, a decided or drawn result, the moves legal from the
/// start position under our rules, the ply count and a termination.
fn check_pgn(path: &Path, games_expected: usize, names: [&str; 2]) -> Vec<Game> {
    let text = std::fs::read_to_string(path).expect("PGN written");
    assert_eq!(
        text.matches("[Game \"Chinese Chess\"]").count(),
        games_expected,
        "{text}"
    );
    assert_eq!(text.matches("[Format \"ICCS\"]").count(), games_expected);
    let games = pgn::read_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), games_expected, "{text}");
    for game in &games {
        let red = game.tags.get("Red").expect("Red tag");
        let black = game.tags.get("Black").expect("Black tag");
        assert!(names.contains(&red) && names.contains(&black) && red != black);
        assert_ne!(game.result, None);
        let played = game
            .replay(GameRules::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            game.tags.get("PlyCount"),
            Some(played.len().to_string().as_str())
        );
        assert!(game.tags.get("Termination").is_some());
    }
    games
}

fn assert_no_engine_failure(games: &[Game]) {
    for game in games {
        let termination = game.tags.get("Termination").unwrap();
        assert!(
            ["normal", "adjudication"].contains(&termination),
            "{termination}: {:?}",
            game.mainline().collect::<Vec<_>>()
        );
    }
}

#[test]
fn our_engine_against_itself_writes_a_valid_pgn() {
    let pgn = scratch("self.pgn");
    let engine = format!("cmd={XIANGQI} uci");
    let out = run_match(&[
        &["--engine", "name=a", &engine],
        &["--engine", "name=b", &engine, "proto=uci"],
        &["--each", "option.Hash=4"],
        &["--depth", "2"],
        &["--games", "4"],
        &["--concurrency", "2"],
        &["--pgn", pgn.to_str().unwrap()],
    ]);
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.contains("Games: 4 of 4 planned"), "{summary}");
    assert!(summary.contains("Elo (games):"), "{summary}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Ptnml"), "{stderr}");
    let games = check_pgn(&pgn, 4, ["a", "b"]);
    assert_no_engine_failure(&games);
    // The shipped openings start a few moves in.
    assert!(games.iter().all(|g| g.start != Position::startpos()));
}

#[test]
fn fairy_stockfish_in_uci_with_ranks_one_to_ten() {
    let pgn = scratch("fsf-uci.pgn");
    let ours = format!("cmd={XIANGQI} uci");
    let fsf = format!("cmd={}", fairy_stockfish());
    let out = run_match(&[
        &["--engine", "name=ours", &ours],
        &[
            "--engine",
            "name=fsf",
            &fsf,
            "proto=uci",
            "ranks=1",
            "option.UCI_Variant=xiangqi",
        ],
        &["--each", "option.Hash=4"],
        &["--depth", "2"],
        &["--games", "2"],
        &["--pgn", pgn.to_str().unwrap()],
    ]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Games: 2 of 2 planned"));
    assert_no_engine_failure(&check_pgn(&pgn, 2, ["ours", "fsf"]));
}

#[test]
fn fairy_stockfish_in_ucci() {
    let pgn = scratch("fsf-ucci.pgn");
    let ours = format!("cmd={XIANGQI} ucci");
    let fsf = format!("cmd={}", fairy_stockfish());
    let out = run_match(&[
        &["--engine", "name=ours", &ours, "proto=ucci"],
        &["--engine", "name=fsf", &fsf, "proto=ucci"],
        &["--depth", "2"],
        &["--games", "2"],
        &["--adjudicate", "score=1500", "moves=4"],
        &["--pgn", pgn.to_str().unwrap()],
    ]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Games: 2 of 2 planned"));
    assert_no_engine_failure(&check_pgn(&pgn, 2, ["ours", "fsf"]));
}

#[test]
fn a_match_needs_two_engines_and_one_limit() {
    let engine = format!("cmd={XIANGQI} uci");
    let out = Command::new(XIANGQI)
        .args(["match", "--engine", &engine, "--depth", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("two --engine"));
    let out = Command::new(XIANGQI)
        .args(["match", "--engine", &engine, "--engine", &engine])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--tc, --nodes or --depth"));
    let out = Command::new(XIANGQI)
        .args(["match", "--engine", "name=x", "--depth", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cmd"));
}

#[test]
fn bad_settings_are_reported_with_what_is_wrong() {
    let engine = format!("cmd={XIANGQI} uci");
    let cases: [(&[&str], &str); 6] = [
        (
            &["--sprt", "elo0=5", "elo1=0"],
            "elo0 (5) must be below elo1 (0)",
        ),
        (
            &["--sprt", "elo0=0", "elo1=5", "gamma=1"],
            "unknown SPRT setting 'gamma'",
        ),
        (
            &["--adjudicate", "depth=3"],
            "'depth=3' is not score=N or moves=M",
        ),
        (
            &["--openings", "/nonexistent/book.fens"],
            "cannot read openings from /nonexistent/book.fens",
        ),
        (
            &["--tc", "5+x"],
            "the increment 'x' is not a number of seconds",
        ),
        (
            &["--engine", "cmd=x", "proto=xboard"],
            "proto=xboard: expected uci or ucci",
        ),
    ];
    for (extra, message) in cases {
        let mut args = vec!["match", "--engine", &engine, "--engine", &engine];
        if !extra.contains(&"--tc") {
            args.extend(["--depth", "1"]);
        }
        args.extend(extra);
        let out = Command::new(XIANGQI).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}
