//! The engine protocols as a GUI speaks them, through the `xiangqi` binary.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};
use xiangqi_rules::{Move, Position};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(mode: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
            .args(mode.split_whitespace())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start xiangqi");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// Starts the binary in `mode` (`uci`, `ucci` or `uci --tune`) and completes the
    /// handshake: the engine, and its lines up to and including `uciok` or `ucciok`.
    fn started(mode: &str) -> (Engine, Vec<String>) {
        let mut e = Engine::start(mode);
        let mode = mode.split_whitespace().next().unwrap_or(mode);
        e.send(mode);
        let lines = e.expect(&format!("{mode}ok"), LONG);
        (e, lines)
    }

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn expect(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no '{prefix}' within {timeout:?}; got {seen:?}"),
            }
        }
    }

    /// Sends `position`, then `go`; the lines up to and including `bestmove`.
    fn search(&mut self, position: &str, go: &str) -> Vec<String> {
        self.send(position);
        self.send(go);
        self.expect("bestmove", LONG)
    }

    fn bestmove(&mut self, timeout: Duration) -> String {
        best_move_of(&self.expect("bestmove", timeout))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse(m: &str) -> Move {
    m.parse().unwrap()
}

/// The move of the `bestmove` line that ends `lines`.
fn best_move_of(lines: &[String]) -> String {
    lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string()
}

/// Whether the engine said, in `lines`, that it played a book move.
fn said_book(lines: &[String]) -> bool {
    lines.iter().any(|l| l.starts_with("info string book move"))
}

const LONG: Duration = Duration::from_secs(20);

#[test]
fn handshake_lists_the_options() {
    let (mut e, lines) = Engine::started("uci");
    for option in [
        "Hash",
        "Threads",
        "MultiPV",
        "Skill Level",
        "UCI_LimitStrength",
        "UCI_Elo",
        "Move Overhead",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option} missing from {lines:?}"
        );
    }
    e.send("isready");
    e.expect("readyok", LONG);
}

/// The nodes a `go depth` search reports in its last `info` line.
fn nodes_to_depth(e: &mut Engine, depth: u32) -> u64 {
    e.send("position startpos");
    e.send(&format!("go depth {depth}"));
    let lines = e.expect("bestmove", LONG);
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "nodes")?;
            words.get(at + 1)?.parse().ok()
        })
        .expect("an info line with nodes")
}

#[test]
fn the_search_numbers_are_options_only_for_tuning_and_change_the_search() {
    let (mut plain, lines) = Engine::started("uci");
    assert!(!lines.iter().any(|l| l.contains("RfpMargin")), "{lines:?}");
    plain.send("setoption name RfpMargin value 90");
    let error = plain.expect("info string error:", LONG);
    assert!(error[0].contains("unknown option 'RfpMargin'"), "{error:?}");

    let (mut e, lines) = Engine::started("uci --tune");
    for expected in [
        "option name RfpMargin type spin default 80 min 20 max 250",
        "option name LmrBase type spin default 75 min 0 max 200",
        "option name HistoryBonusMax type spin default 1600 min 200 max 8000",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected} missing");
    }
    for (bad, said) in [
        (
            "setoption name RfpMargin value 9999",
            "RfpMargin takes 20 to 250, got 9999",
        ),
        (
            "setoption name LmrBase value many",
            "LmrBase needs a whole number, got 'many'",
        ),
    ] {
        e.send(bad);
        let error = e.expect("info string error:", LONG);
        assert!(error[0].contains(said), "{bad}: {error:?}");
    }
    let standard = nodes_to_depth(&mut e, 7);
    e.send("ucinewgame");
    e.send("setoption name LmrBase value 150");
    e.send("setoption name LmpBase value 0");
    e.send("isready");
    e.expect("readyok", LONG);
    let tuned = nodes_to_depth(&mut e, 7);
    assert_ne!(standard, tuned, "the options changed nothing");
    e.send("ucinewgame");
    e.send("setoption name LmrBase value 75");
    e.send("setoption name LmpBase value 3");
    e.send("isready");
    e.expect("readyok", LONG);
    assert_eq!(
        nodes_to_depth(&mut e, 7),
        standard,
        "the defaults search alike again"
    );
}

#[test]
fn search_to_a_depth_plays_a_legal_move_with_info() {
    let mut e = Engine::start("uci");
    let lines = e.search("position startpos moves h2e2 h9g7", "go depth 5");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 5"))
        .expect("depth 5 info");
    for field in [
        "seldepth",
        "multipv 1",
        "score cp",
        "nodes",
        "nps",
        "hashfull",
        "time",
        "pv",
    ] {
        assert!(info.contains(field), "{field} missing from {info}");
    }
    let best = best_move_of(&lines);
    let mut pos = Position::startpos();
    pos.make_move(parse("h2e2"));
    pos.make_move(parse("h9g7"));
    assert!(pos.is_legal(parse(&best)), "{best}");
}

#[test]
fn bad_input_is_reported_and_the_engine_stays_usable() {
    let mut e = Engine::start("uci");
    for bad in [
        "frobnicate",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
        "position startpos moves h2e2 h2e2",
        "position startpos moves zz99",
        "go depth banana",
        "go sideways 3",
        "setoption name Hash value -5",
        "setoption name NoSuchOption value 1",
        "setoption name UCI_LimitStrength value maybe",
        "setoption",
        "banmoves a0a9",
        "banmoves h2e2 j9",
        "position",
        "position fen",
        "go time 1000",
        "go perft 3",
        "go nodes",
        "go searchmoves h2e2 zz",
        "go searchmoves a0a9",
        "bench deep",
        "\u{1b}[2J garbage \u{0}",
    ] {
        e.send(bad);
        let lines = e.expect("info string error:", LONG);
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
    }
    // A rejected position leaves the previous one in place.
    e.send("position startpos moves h2e2");
    e.send("position startpos moves h2e2 b9c7 c9c7");
    e.expect("info string error:", LONG);
    e.send("isready");
    e.expect("readyok", LONG);
    e.send("go depth 3");
    let best = e.bestmove(LONG);
    let mut pos = Position::startpos();
    pos.make_move(parse("h2e2"));
    assert!(pos.is_legal(parse(&best)), "{best} after h2e2");
}

#[test]
fn stop_ends_an_infinite_search_at_once() {
    let mut e = Engine::start("uci");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    e.send("stop");
    let best = e.bestmove(LONG);
    let waited = sent.elapsed();
    assert!(Position::startpos().is_legal(parse(&best)));
    // The protocol promises 50 ms; the bound here leaves room for a loaded test machine.
    assert!(waited < Duration::from_millis(250), "stop took {waited:?}");
}

#[test]
fn movetime_is_kept() {
    let mut e = Engine::start("uci");
    e.send("position startpos");
    let sent = Instant::now();
    e.send("go movetime 1000");
    e.bestmove(LONG);
    let took = sent.elapsed();
    assert!(
        took >= Duration::from_millis(900),
        "returned early: {took:?}"
    );
    assert!(took < Duration::from_millis(1300), "took {took:?}");
}

#[test]
fn a_fast_game_never_runs_out_of_time() {
    // Both sides play with 1 s + 0.01 s; the test keeps the clocks.
    let mut e = Engine::start("uci");
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    let mut clocks = [1000i64, 1000];
    for _ in 0..80 {
        if pos.legal_moves().is_empty() {
            break;
        }
        let side = pos.side_to_move().index();
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let sent = Instant::now();
        e.send(&format!(
            "go wtime {} btime {} winc 10 binc 10",
            clocks[0], clocks[1]
        ));
        let best = e.bestmove(LONG);
        clocks[side] -= sent.elapsed().as_millis() as i64;
        assert!(
            clocks[side] > 0,
            "flagged after {} plies: {clocks:?}",
            moves.len()
        );
        clocks[side] += 10;
        let m = parse(&best);
        assert!(pos.is_legal(m), "{best}");
        pos.make_move(m);
        moves.push(best);
    }
}

#[test]
fn mate_in_one_is_found_and_announced() {
    let mut e = Engine::start("uci");
    // The chariot checks along rank 9; d8 is covered by the soldier and e9 by the facing
    // general, so a0a9 mates.
    let lines = e.search(
        "position fen 3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1",
        "go mate 1",
    );
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    assert_eq!(best_move_of(&lines), "a0a9");
}

#[test]
fn multipv_reports_several_lines() {
    let mut e = Engine::start("uci");
    e.send("setoption name MultiPV value 3");
    let lines = e.search("position startpos", "go depth 4");
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 4") && l.contains(&format!("multipv {k} "))),
            "line {k} missing: {lines:?}"
        );
    }
}

#[test]
fn weakest_level_answers_within_a_second() {
    let mut e = Engine::start("uci");
    e.send("setoption name Skill Level value 0");
    e.send("position startpos");
    let sent = Instant::now();
    e.send("go wtime 600000 btime 600000");
    let best = e.bestmove(LONG);
    assert!(sent.elapsed() < Duration::from_millis(1200));
    assert!(Position::startpos().is_legal(parse(&best)));
}

#[test]
fn ucci_session() {
    let (mut e, _) = Engine::started("ucci");
    e.send("position startpos moves h2e2");
    e.send("banmoves h9g7 b9c7");
    e.send("go depth 3");
    let lines = e.expect("bestmove", LONG);
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    let best = best_move_of(&lines);
    assert!(
        best != "h9g7" && best != "b9c7",
        "banned move {best} played"
    );
    e.send("go time 2000 increment 0");
    e.bestmove(LONG);
    e.send("position fen 3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1 moves a0a9");
    e.send("go depth 2");
    e.expect("nobestmove", LONG);
    e.send("quit");
    e.expect("bye", LONG);
}

/// Keeps one core busy while it lives, so that the engine's threads start late.
struct Load(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Load {
    fn start() -> Load {
        let running = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let spin = running.clone();
        std::thread::spawn(move || {
            let mut x = 1u64;
            while spin.load(std::sync::atomic::Ordering::Relaxed) {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        });
        Load(running)
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.0.store(false, std::sync::atomic::Ordering::Relaxed);
    }
}

#[test]
fn every_stop_right_after_go_is_answered_with_a_bestmove() {
    let _load = Load::start();
    let pairs = 400;
    for mode in ["uci", "ucci"] {
        let (mut e, _) = Engine::started(mode);
        e.send("position startpos moves h2e2");
        for go in ["go infinite", "go ponder", "go depth 60"] {
            for n in 0..pairs {
                e.send(go);
                // No delay at all, then 1 to 5 ms.
                let delay = n % 6;
                if delay > 0 {
                    std::thread::sleep(Duration::from_millis(delay as u64));
                }
                e.send("stop");
                let best = e.bestmove(Duration::from_secs(5));
                let pos = Position::startpos().after(parse("h2e2"));
                assert!(
                    pos.is_legal(parse(&best)),
                    "{mode}: {go} + stop (pair {n}) answered {best}"
                );
            }
        }
        e.send("isready");
        e.expect("readyok", Duration::from_secs(5));
        // `quit` during a search ends it and the process.
        e.send("go infinite");
        e.send("quit");
        expect_exit(&mut e, &format!("{mode}: quit during a search"));
    }
}

/// Waits up to five seconds for the engine's process to end; panics when it does not.
fn expect_exit(e: &mut Engine, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(status) = e.child.try_wait().unwrap() {
            assert!(status.success(), "{what}: exited {status}");
            return;
        }
        assert!(Instant::now() < deadline, "{what}: the process did not end");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_bench_in_a_session_answers_isready_and_ends_on_stop_or_quit() {
    // Depth 30 would take hours: the session answers around it and ends it when asked.
    let (mut e, _) = Engine::started("uci");
    e.send("bench 30");
    e.send("isready");
    e.expect("readyok", Duration::from_secs(2));
    e.send("stop");
    let lines = e.expect("info string bench stopped", Duration::from_secs(2));
    let of = format!("of {} positions", xiangqi_engine::bench::positions().len());
    assert!(lines.last().unwrap().contains(&of), "{lines:?}");
    // A search after it works as ever.
    e.send("position startpos");
    e.send("go depth 3");
    e.bestmove(LONG);
    e.send("bench 30");
    e.send("quit");
    expect_exit(&mut e, "quit during a bench");
}

#[test]
fn an_eval_file_that_is_a_pipe_a_device_or_a_folder_is_refused_at_once() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("network.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let (mut e, _) = Engine::started("uci");
    for path in [fifo.to_str().unwrap(), "/dev/zero", dir.to_str().unwrap()] {
        e.send(&format!("setoption name EvalFile value {path}"));
        let lines = e.expect("info string error: EvalFile", Duration::from_secs(2));
        assert!(
            lines.last().unwrap().contains("not a regular file"),
            "{path}: {lines:?}"
        );
        e.send("isready");
        e.expect("readyok", Duration::from_secs(2));
    }
    // The built-in network is still the one searching.
    e.send("position startpos");
    e.send("go depth 3");
    e.bestmove(LONG);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The moves of the ECCO book after `moves` from the start, as ICCS.
fn book_moves(moves: &[&str]) -> Vec<String> {
    let moves: Vec<Move> = moves.iter().map(|m| parse(m)).collect();
    xiangqi_teaching::openings::book::book_moves(&moves)
        .unwrap()
        .iter()
        .map(|b| b.mv.to_string())
        .collect()
}

/// Whether the level opens `position` from the book in one of 12 new games (`new_game` starts
/// each). A game's draws may all fail the soundness check, and then the level plays its own
/// move; each new game draws anew. Every book move said must be the move played, and a move
/// of the ECCO book.
fn opens_from_book(e: &mut Engine, new_game: &str, position: &str) -> bool {
    let moves: Vec<&str> = position.split_whitespace().skip(3).collect();
    let moves = if position.starts_with("position startpos") {
        moves
    } else {
        position
            .split_whitespace()
            .skip_while(|w| *w != "moves")
            .skip(1)
            .collect()
    };
    let mut from_book = false;
    for _ in 0..12 {
        e.send(new_game);
        let (lines, best) = choose(e, position);
        if said_book(&lines) {
            assert!(
                lines.contains(&format!("info string book move {best}")),
                "{position}: {lines:?}"
            );
            assert!(book_moves(&moves).contains(&best), "{position}: {best}");
            from_book = true;
        }
    }
    from_book
}

/// Plays `go depth 3` from `position` and answers the search's lines and its move.
fn choose(e: &mut Engine, position: &str) -> (Vec<String>, String) {
    let lines = e.search(position, "go depth 3");
    let best = best_move_of(&lines);
    (lines, best)
}

#[test]
fn a_learner_level_opens_from_the_book_unless_told_not_to() {
    let (mut e, options) = Engine::started("uci");
    assert!(
        options
            .iter()
            .any(|l| l == "option name OwnBook type check default true"),
        "{options:?}"
    );
    e.send("setoption name Skill Level value 2");
    // From the start and a few moves in, the level opens from the book and says so.
    for position in [
        "position startpos",
        "position startpos moves h2e2",
        "position startpos moves h2e2 h9g7 h0g2",
    ] {
        assert!(
            opens_from_book(&mut e, "ucinewgame", position),
            "{position}"
        );
    }
    // Off, at full strength, or from a set-up position, the engine searches for itself.
    e.send("setoption name OwnBook value false");
    let (lines, _) = choose(&mut e, "position startpos");
    assert!(!said_book(&lines), "{lines:?}");
    e.send("setoption name OwnBook value true");
    e.send("setoption name Skill Level value 20");
    let (lines, _) = choose(&mut e, "position startpos");
    assert!(!said_book(&lines), "{lines:?}");
    e.send("setoption name Skill Level value 2");
    let start = Position::startpos().to_fen();
    assert!(
        opens_from_book(
            &mut e,
            "ucinewgame",
            &format!("position fen {start} moves h2e2")
        ),
        "the initial position given as FEN"
    );
    let (lines, _) = choose(&mut e, "position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    assert!(!said_book(&lines), "{lines:?}");
}

#[test]
fn ucci_usebook_turns_the_book_on_and_off() {
    let (mut e, options) = Engine::started("ucci");
    assert!(
        options
            .iter()
            .any(|l| l.starts_with("option usebook type check default true")),
        "{options:?}"
    );
    e.send("setoption skill 2");
    assert!(opens_from_book(
        &mut e,
        "setoption newgame",
        "position startpos"
    ));
    e.send("setoption usebook false");
    for _ in 0..3 {
        e.send("setoption newgame");
        let (lines, _) = choose(&mut e, "position startpos");
        assert!(!said_book(&lines), "{lines:?}");
    }
}

#[test]
fn egtb_path_gives_the_engine_tables_and_a_bad_one_is_reported() {
    let bin = env!("CARGO_BIN_EXE_xiangqi");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-egtb-uci-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let made = Command::new(bin)
        .args(["egtb", "generate", "KRKA", "--out"])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("xiangqi egtb generate");
    assert!(made.success());
    // Chariot against one advisor: the chariot mates on the back rank, a win in 3 plies.
    let fen = "4k4/4a4/9/9/9/9/9/9/9/3RK4 w - - 0 1";
    let probe = Command::new(bin)
        .args(["egtb", "probe", "--fen", fen, "--dir"])
        .arg(&dir)
        .output()
        .expect("xiangqi egtb probe");
    let probe = String::from_utf8(probe.stdout).unwrap();
    let best = probe
        .lines()
        .skip_while(|l| *l != "moves:")
        .nth(1)
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no moves in {probe}"))
        .to_string();

    let (mut e, lines) = Engine::started("uci");
    assert!(
        lines.contains(&"option name EgtbPath type string default <empty>".to_string()),
        "{lines:?}"
    );
    e.send(&format!("setoption name EgtbPath value {}", dir.display()));
    let loaded = e.expect("info string EgtbPath", LONG);
    assert!(
        loaded.last().unwrap().contains("endgame tables from"),
        "{loaded:?}"
    );
    let lines = e.search(&format!("position fen {fen}"), "go wtime 60000 btime 60000");
    assert!(
        lines.iter().any(|l| l.contains("score mate 2")),
        "{lines:?}"
    );
    assert_eq!(
        lines.last().unwrap().split_whitespace().nth(1),
        Some(best.as_str())
    );

    // A folder that is not there: named, and the engine searches on without tables.
    e.send("setoption name EgtbPath value /no/such/egtb");
    let refused = e.expect("info string error: EgtbPath", LONG);
    assert!(
        refused
            .last()
            .unwrap()
            .contains("playing without endgame tables"),
        "{refused:?}"
    );
    let lines = e.search(&format!("position fen {fen}"), "go depth 4");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    e.send("quit");
    expect_exit(&mut e, "quit after the tables");
    std::fs::remove_dir_all(&dir).unwrap();
}
