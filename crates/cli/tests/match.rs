//! `xiangqi match` end to end: our engine against itself, and against Fairy-Stockfish in plain
//! UCI (ranks 1–10) and in UCCI, at low depth; the PGN must replay legally under our rules.
//! The Fairy-Stockfish tests fail (never skip) when it is not installed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use xiangqi_rules::{Move, Position, Square};

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

/// One game read back from the PGN.
struct PgnGame {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
    result: String,
}

impl PgnGame {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads the games of a PGN file written in the xqbase convention with ICCS moves.
fn read_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    for chunk in text.split("[Game ").skip(1) {
        let chunk = format!("[Game {chunk}");
        let (head, body) = chunk.split_once("\n\n").expect("tags, blank line, moves");
        let tags = head
            .lines()
            .map(|line| {
                let inner = line
                    .trim()
                    .strip_prefix('[')
                    .and_then(|l| l.strip_suffix(']'));
                let (name, value) = inner.expect("tag line").split_once(' ').expect("tag");
                (name.to_string(), value.trim_matches('"').to_string())
            })
            .collect();
        // Drop comments, then take the move tokens.
        let mut plain = String::new();
        let mut depth = 0;
        for c in body.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                c if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        let mut tokens: Vec<String> = plain
            .split_whitespace()
            .filter(|t| !t.ends_with('.'))
            .map(str::to_string)
            .collect();
        let result = tokens.pop().expect("result token");
        games.push(PgnGame {
            tags,
            moves: tokens,
            result,
        });
    }
    games
}

/// Checks every game: tags present, moves legal from the start position, result consistent.
fn check_pgn(path: &Path, games_expected: usize, names: [&str; 2]) -> Vec<PgnGame> {
    let text = std::fs::read_to_string(path).expect("PGN written");
    let games = read_pgn(&text);
    assert_eq!(games.len(), games_expected, "{text}");
    for game in &games {
        assert_eq!(game.tag("Game"), Some("Chinese Chess"));
        assert_eq!(game.tag("Format"), Some("ICCS"));
        let red = game.tag("Red").expect("Red tag");
        let black = game.tag("Black").expect("Black tag");
        assert!(names.contains(&red) && names.contains(&black) && red != black);
        assert_eq!(game.tag("Result"), Some(game.result.as_str()));
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&game.result.as_str()));
        let mut position = match game.tag("FEN") {
            Some(fen) => Position::from_fen(fen).expect("FEN tag"),
            None => Position::startpos(),
        };
        for text in &game.moves {
            let m = Move::new(
                Square::parse(&text[..2]).expect("ICCS from"),
                Square::parse(&text[2..]).expect("ICCS to"),
            );
            assert!(position.is_legal(m), "{text} in {}", position.to_fen());
            position.make_move(m);
        }
        assert_eq!(
            game.tag("PlyCount"),
            Some(game.moves.len().to_string().as_str())
        );
        assert!(game.tag("Termination").is_some());
    }
    games
}

fn assert_no_engine_failure(games: &[PgnGame]) {
    for game in games {
        let termination = game.tag("Termination").unwrap();
        assert!(
            ["normal", "adjudication"].contains(&termination),
            "{termination}: {:?}",
            game.moves
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
    assert!(games.iter().all(|g| g.tag("FEN").is_some()));
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
