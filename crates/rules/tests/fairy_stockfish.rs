//! Cross-checks our move generator against the reference engine Fairy-Stockfish.
//!
//! One `fairy-stockfish` process (Debian package `fairy-stockfish`) is driven over UCI with
//! `UCI_Variant` set to `xiangqi`. For a few thousand positions reached by seeded random play
//! from the start position and from the shared perft positions we compare:
//!
//! * the FEN the engine echoes back (`d`) with ours, and whether the side to move is in check;
//! * the legal move list (`go perft 1`) of every position;
//! * the perft divide counts at depth 2 for a few hundred positions, and at depth 3 for a
//!   subset, including positions in check and positions without legal moves.
//!
//! In plain UCI mode the engine writes ranks 1–10 (`h3e3`, `a10a9`); we convert to our
//! ranks 0–9. The test fails (never skips) when the engine is not installed.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use xiangqi_rules::{Position, START_FEN, perft_divide};

/// How long any single answer from the engine may take.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

const ENGINE_NAME: &str = "fairy-stockfish";
const DEBIAN_PATH: &str = "/usr/games/fairy-stockfish";

fn engine_path() -> PathBuf {
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let candidate = dir.join(ENGINE_NAME);
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    let debian = PathBuf::from(DEBIAN_PATH);
    if debian.is_file() {
        return debian;
    }
    panic!(
        "the reference engine `{ENGINE_NAME}` was found neither on PATH nor at {DEBIAN_PATH}; \
         install it with `apt-get install fairy-stockfish` (Debian/Ubuntu package)"
    );
}

/// A running Fairy-Stockfish speaking UCI, its output read by a helper thread so that every
/// wait has a timeout.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let path = engine_path();
        let mut child = Command::new(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "starting {}: {e}; install it with `apt-get install fairy-stockfish`",
                    path.display()
                )
            });
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines: rx,
        };
        engine.send("uci");
        engine.read_until(|l| l == "uciok");
        engine.send("setoption name UCI_Variant value xiangqi");
        engine.sync();
        engine
    }

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .unwrap_or_else(|e| panic!("writing `{command}` to {ENGINE_NAME}: {e}"));
    }

    fn next_line(&self) -> String {
        match self.lines.recv_timeout(ANSWER_TIMEOUT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                panic!("{ENGINE_NAME} gave no answer within {ANSWER_TIMEOUT:?}")
            }
            Err(RecvTimeoutError::Disconnected) => panic!("{ENGINE_NAME} exited unexpectedly"),
        }
    }

    /// Reads lines up to and including the first one for which `last` holds.
    fn read_until(&self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self.next_line();
            let done = last(line.trim());
            out.push(line);
            if done {
                return out;
            }
        }
    }

    /// Waits until the engine has handled every command sent so far (except a running `go`).
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.read_until(|l| l == "readyok")
    }

    /// Sets up `fen` and returns the FEN the engine reports back and whether it sees the side
    /// to move in check.
    fn describe(&mut self, fen: &str) -> (String, bool) {
        self.send(&format!("position fen {fen}"));
        self.send("d");
        let lines = self.sync();
        let field = |name: &str| {
            lines
                .iter()
                .find_map(|l| l.trim().strip_prefix(name).map(|v| v.trim().to_string()))
                .unwrap_or_else(|| panic!("no `{name}` line from `d` for {fen}: {lines:#?}"))
        };
        (field("Fen:"), !field("Checkers:").is_empty())
    }

    /// Runs `go perft depth` on the position last set up and returns the divide counts, with
    /// the moves in our notation, and the total the engine reports.
    fn perft(&mut self, depth: u32) -> (BTreeMap<String, u64>, u64) {
        self.send(&format!("go perft {depth}"));
        let mut divide = BTreeMap::new();
        loop {
            let line = self.next_line();
            let line = line.trim();
            if let Some(total) = line.strip_prefix("Nodes searched:") {
                let total = total.trim().parse().expect("perft total");
                return (divide, total);
            }
            let Some((mv, count)) = line.split_once(':') else {
                continue;
            };
            let (Some(mv), Ok(count)) = (engine_move_to_ours(mv.trim()), count.trim().parse())
            else {
                continue;
            };
            assert!(
                divide.insert(mv.clone(), count).is_none(),
                "{ENGINE_NAME} listed {mv} twice"
            );
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `a10a9` (ranks 1–10) → `a9a8` (ranks 0–9); `None` for anything else.
fn engine_move_to_ours(text: &str) -> Option<String> {
    fn square(text: &str) -> Option<(char, u32, &str)> {
        let mut chars = text.chars();
        let file = chars.next().filter(|c| ('a'..='i').contains(c))?;
        let rest = chars.as_str();
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let rank: u32 = rest[..digits].parse().ok()?;
        if !(1..=10).contains(&rank) {
            return None;
        }
        Some((file, rank - 1, &rest[digits..]))
    }
    let (f1, r1, rest) = square(text)?;
    let (f2, r2, rest) = square(rest)?;
    rest.is_empty().then(|| format!("{f1}{r1}{f2}{r2}"))
}

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

#[path = "support/vectors.rs"]
mod vectors;

fn start_fens() -> Vec<String> {
    let fens = vectors::perft_start_fens();
    assert!(fens.len() >= 10, "expected the shared perft positions");
    fens
}

/// The positions to compare: every position visited (`all`), the ones whose divide counts
/// are compared at depth 2, and the subset also compared at depth 3.
struct Sample {
    all: Vec<String>,
    depth2: Vec<String>,
    depth3: Vec<String>,
}

const GAMES: usize = 260;
const MAX_PLIES: usize = 60;
/// Random games tend to keep generals safe; a quarter of the moves prefer giving check.
const CHECK_BIAS: usize = 4;
/// Of the positions compared at depth 2, every this many also at depth 3.
const DEPTH3_EVERY: usize = 3;

fn sample_positions() -> Sample {
    let bases = start_fens();
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut seen_all = HashSet::new();
    let mut seen_deep = HashSet::new();
    let mut sample = Sample {
        all: Vec::new(),
        depth2: Vec::new(),
        depth3: Vec::new(),
    };
    let mut add_deep = |fen: &str, sample: &mut Sample| {
        if seen_deep.insert(fen.to_string()) {
            if sample.depth2.len().is_multiple_of(DEPTH3_EVERY) {
                sample.depth3.push(fen.to_string());
            }
            sample.depth2.push(fen.to_string());
        }
    };
    for base in &bases {
        add_deep(base, &mut sample);
    }
    for game in 0..GAMES {
        let base = &bases[game % bases.len()];
        let mut pos = Position::from_fen(base).expect("shared FEN parses");
        let plies = rng.below(MAX_PLIES + 1);
        for ply in 0..=plies {
            let fen = pos.to_fen();
            if seen_all.insert(fen.clone()) {
                sample.all.push(fen.clone());
            }
            let moves = pos.legal_moves();
            // The game's last position, every position in check, and mate or stalemate.
            if ply == plies || pos.in_check() || moves.is_empty() {
                add_deep(&fen, &mut sample);
            }
            if ply == plies || moves.is_empty() {
                break;
            }
            let checking: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| pos.after(m).in_check())
                .collect();
            let m = if !checking.is_empty() && rng.below(CHECK_BIAS) == 0 {
                checking[rng.below(checking.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.make_move(m);
        }
    }
    sample
}

/// Compares our divide counts with the engine's for the position last set up; returns a
/// description of the differences, if any.
fn compare_divide(engine: &mut Engine, fen: &str, depth: u32) -> Option<String> {
    let mut pos = Position::from_fen(fen).expect("sampled FEN parses");
    let ours: BTreeMap<String, u64> = perft_divide(&mut pos, depth)
        .into_iter()
        .map(|(m, n)| (m.to_string(), n))
        .collect();
    let ours_total: u64 = ours.values().sum();
    let (theirs, theirs_total) = engine.perft(depth);
    if ours == theirs && ours_total == theirs_total {
        return None;
    }
    let keys: BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
    let mut report = format!(
        "FEN {fen}\n  depth {depth}: ours {ours_total} ({} moves), {ENGINE_NAME} {theirs_total} ({} moves)\n",
        ours.len(),
        theirs.len()
    );
    for key in keys {
        match (ours.get(key), theirs.get(key)) {
            (Some(a), Some(b)) if a == b => {}
            (a, b) => {
                let show = |v: Option<&u64>| v.map_or("missing".to_string(), u64::to_string);
                report += &format!("  {key}: ours {}, {ENGINE_NAME} {}\n", show(a), show(b));
            }
        }
    }
    Some(report)
}

#[test]
fn move_generation_matches_fairy_stockfish() {
    let started = Instant::now();
    let mut engine = Engine::start();

    // The engine must really be playing Xiangqi and read our FEN dialect (`w`/`b`, `- - 0 1`).
    let (echo, _) = engine.describe(START_FEN);
    assert_eq!(
        echo, START_FEN,
        "{ENGINE_NAME} did not read our start FEN back unchanged"
    );
    let (start_divide, start_total) = engine.perft(1);
    assert_eq!(
        (start_divide.len(), start_total),
        (44, 44),
        "{ENGINE_NAME} does not seem to be in Xiangqi mode"
    );

    let sample = sample_positions();
    let in_check = sample
        .depth2
        .iter()
        .filter(|f| Position::from_fen(f).unwrap().in_check())
        .count();
    let no_moves = sample
        .depth2
        .iter()
        .filter(|f| Position::from_fen(f).unwrap().legal_moves().is_empty())
        .count();
    assert!(
        sample.depth2.len() >= 200,
        "only {} positions",
        sample.depth2.len()
    );
    assert!(
        sample.depth3.len() >= 40,
        "only {} positions",
        sample.depth3.len()
    );
    assert!(in_check >= 30, "only {in_check} positions in check");

    let mut failures = Vec::new();
    let fail = |report: String, failures: &mut Vec<String>| {
        eprintln!("MISMATCH: {report}");
        failures.push(report);
    };

    // Every visited position: the FEN the engine reads, check status, and the legal moves.
    for fen in &sample.all {
        let pos = Position::from_fen(fen).expect("sampled FEN parses");
        let (echo, engine_check) = engine.describe(fen);
        if echo != *fen {
            fail(
                format!("FEN {fen}\n  {ENGINE_NAME} read it as {echo}\n"),
                &mut failures,
            );
        }
        if engine_check != pos.in_check() {
            fail(
                format!(
                    "FEN {fen}\n  in check: ours {}, {ENGINE_NAME} {engine_check}\n",
                    pos.in_check()
                ),
                &mut failures,
            );
        }
        if let Some(report) = compare_divide(&mut engine, fen, 1) {
            fail(report, &mut failures);
        }
    }

    for (fens, depth) in [(&sample.depth2, 2), (&sample.depth3, 3)] {
        for fen in fens {
            engine.send(&format!("position fen {fen}"));
            if let Some(report) = compare_divide(&mut engine, fen, depth) {
                fail(report, &mut failures);
            }
        }
    }

    eprintln!(
        "compared with {ENGINE_NAME}: {} positions at depth 1, {} at depth 2 ({in_check} in check, \
         {no_moves} without moves), {} at depth 3, in {:.1?}",
        sample.all.len(),
        sample.depth2.len(),
        sample.depth3.len(),
        started.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements with {ENGINE_NAME} (the first 20 shown; all are printed above):\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn engine_moves_convert_to_our_ranks() {
    assert_eq!(engine_move_to_ours("h3e3").as_deref(), Some("h2e2"));
    assert_eq!(engine_move_to_ours("a10a9").as_deref(), Some("a9a8"));
    assert_eq!(engine_move_to_ours("b3b10").as_deref(), Some("b2b9"));
    assert_eq!(engine_move_to_ours("Nodes searched"), None);
    assert_eq!(engine_move_to_ours("a0a1"), None);
    assert_eq!(engine_move_to_ours("j1j2"), None);
}
