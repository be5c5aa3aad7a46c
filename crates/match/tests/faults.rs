//! Engines that misbehave lose the game with the right reason, and the match goes on.
//!
//! The fake engines are this test program itself: started with `XQ_FAKE_ENGINE=<mode>` it
//! speaks just enough UCI/UCCI to play the first legal move, and misbehaves as the mode says
//! (`crash:N`, `hang:N`, `illegal:N`, `garbage:N`, `nomove:N`, `slow:N` — at its N-th move, or
//! `good`). Without the variable it runs the tests below (this target has no test harness).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use xiangqi_engine::protocol::{BestMove, Command, Info, Reply, Reported};
use xiangqi_match::{
    Dialect, EngineSpec, Fault, FinishedGame, GameResult, GameSettings, Limits, MatchConfig,
    MoveFault, Opening, ProcessEnd, SpawnError, Sprt, SprtDecision, Standing, Termination,
    TimeControl, run_match,
};
use xiangqi_rules::{Color, Position, RankBase};

const MODE_VARIABLE: &str = "XQ_FAKE_ENGINE";

/// Set to 1, the fake engine numbers ranks 1–10 like Fairy-Stockfish.
const RANKS_VARIABLE: &str = "XQ_FAKE_RANKS";

/// The fake engine's exit status when the match runner wrote a line the engine crate's reader
/// refuses (or a position whose moves are not legal).
const UNREADABLE_COMMAND: i32 = 90;

/// `[(name, function), …]` for the listed test functions.
macro_rules! named_tests {
    ($($test:ident),* $(,)?) => {
        [$((stringify!($test), $test as fn())),*]
    };
}

fn main() {
    if let Ok(mode) = std::env::var(MODE_VARIABLE) {
        fake_engine(&mode);
        return;
    }
    let tests = named_tests![
        crashing_engine_loses_every_game_and_is_restarted,
        hanging_engine_loses_after_the_hang_timeout,
        illegal_move_loses_with_the_move_and_reason,
        unreadable_move_loses,
        no_move_loses,
        slow_engine_loses_on_time,
        engine_that_cannot_start_loses,
        ucci_fake_engines_play_a_game,
        every_line_the_runner_writes_reads_in_both_dialects_and_rank_numberings,
        sprt_stops_the_match_at_a_decision,
    ];
    let started = Instant::now();
    for (name, test) in tests {
        print!("test {name} ... ");
        let _ = std::io::stdout().flush();
        test();
        println!("ok");
    }
    println!(
        "test result: ok. {} passed; finished in {:.2}s",
        tests.len(),
        started.elapsed().as_secs_f64()
    );
}

// ---------------------------------------------------------------------------------------------
// The fake engine.

fn fake_engine(mode: &str) {
    let (kind, at) = match mode.split_once(':') {
        Some((kind, n)) => (kind, n.parse::<u32>().unwrap_or(1)),
        None => (mode, u32::MAX),
    };
    let ranks = match std::env::var(RANKS_VARIABLE).as_deref() {
        Ok("1") => RankBase::One,
        _ => RankBase::Zero,
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut dialect = Dialect::Uci;
    let mut position = Position::startpos();
    let mut moves_made = 0u32;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        // Every line the match runner writes must read in the engine crate's own reader.
        let command = match Command::parse(&line, dialect, ranks) {
            Ok(Some(command)) => command,
            Ok(None) => continue,
            Err(_) => std::process::exit(UNREADABLE_COMMAND),
        };
        let reply = match command {
            Command::Hello(hello) => {
                dialect = hello;
                vec![Reply::IdName("fake".into()), Reply::HandshakeDone(hello)]
            }
            Command::IsReady => vec![Reply::ReadyOk],
            Command::Position(command) => {
                match command.replay() {
                    Ok(parsed) => position = parsed.position,
                    Err(_) => std::process::exit(UNREADABLE_COMMAND),
                }
                continue;
            }
            Command::Go(_) => {
                moves_made += 1;
                let first_legal = Reply::BestMove(BestMove {
                    best: position.legal_moves().first().copied(),
                    ponder: None,
                });
                let answer = if moves_made >= at {
                    match kind {
                        "crash" => std::process::exit(3),
                        "hang" => loop {
                            std::thread::sleep(Duration::from_secs(60));
                        },
                        "illegal" => "bestmove e3e5".to_string(),
                        "garbage" => "bestmove hello".to_string(),
                        "nomove" => "bestmove (none)".to_string(),
                        "slow" => {
                            std::thread::sleep(Duration::from_millis(400));
                            first_legal.format(dialect, ranks)
                        }
                        _ => first_legal.format(dialect, ranks),
                    }
                } else {
                    first_legal.format(dialect, ranks)
                };
                let info = Info {
                    depth: Some(1),
                    score: Some(Reported::Cp(0)),
                    pv: vec!["a0a1".parse().unwrap()],
                    ..Info::default()
                };
                let _ = writeln!(out, "{}", Reply::Info(info).format(dialect, ranks));
                let _ = writeln!(out, "{answer}");
                let _ = out.flush();
                continue;
            }
            Command::Quit => break,
            _ => continue,
        };
        for line in reply {
            let _ = writeln!(out, "{}", line.format(dialect, ranks));
        }
        let _ = out.flush();
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers.

fn fake(name: &str, mode: &str) -> EngineSpec {
    fake_with_ranks(name, mode, RankBase::Zero)
}

/// A fake engine numbering its ranks from `ranks`.
fn fake_with_ranks(name: &str, mode: &str, ranks: RankBase) -> EngineSpec {
    let exe: PathBuf = std::env::current_exe().expect("own path");
    let ranks_setting = match ranks {
        RankBase::Zero => "0",
        RankBase::One => "1",
    };
    let mut spec = EngineSpec::new(vec![
        "env".into(),
        format!("{MODE_VARIABLE}={mode}"),
        format!("{RANKS_VARIABLE}={ranks_setting}"),
        exe.to_string_lossy().into_owned(),
    ]);
    spec.name = name.into();
    spec.ranks = ranks;
    spec
}

fn openings(count: usize) -> Vec<Opening> {
    let mut list = vec![Opening::start()];
    // A second opening: the central cannon.
    let mut position = Position::startpos();
    position.make_move("h2e2".parse().unwrap());
    list.push(Opening {
        fen: position.to_fen(),
        position,
        comment: None,
    });
    list.truncate(count);
    list
}

fn play(engines: [EngineSpec; 2], limits: Limits, games: usize) -> (Standing, Vec<FinishedGame>) {
    let mut settings = GameSettings::new(limits);
    settings.hang_timeout = Duration::from_millis(500);
    let config = MatchConfig {
        engines,
        settings,
        openings: openings(2),
        games,
        concurrency: 2,
        sprt: None,
        pgn: None,
        event: "faults".into(),
        log: None,
    };
    run_with(&config)
}

fn run_with(config: &MatchConfig) -> (Standing, Vec<FinishedGame>) {
    let mut finished = Vec::new();
    let standing = run_match(config, &mut |game, _| finished.push(game.clone())).expect("match");
    finished.sort_by_key(|g| g.number);
    (standing, finished)
}

/// The colour the first engine ("bad") played in `game`.
fn bad_side(game: &FinishedGame) -> Color {
    if game.first_is_red {
        Color::Red
    } else {
        Color::Black
    }
}

/// Every game was played and lost by the bad (first) engine for a reason `check` accepts.
fn assert_all_lost(
    standing: &Standing,
    games: &[FinishedGame],
    planned: usize,
    check: impl Fn(&Termination, Color) -> bool,
) {
    assert_eq!(games.len(), planned, "every game is played");
    assert_eq!(standing.tally.losses as usize, planned, "{standing:?}");
    for game in games {
        let side = bad_side(game);
        let outcome = &game.record.outcome;
        assert_eq!(
            outcome.result,
            GameResult::win_for(side.opponent()),
            "{outcome:?}"
        );
        assert!(
            check(&outcome.termination, side),
            "game {}: {:?}",
            game.number,
            outcome
        );
        assert!(outcome.termination.is_engine_failure());
    }
}

// ---------------------------------------------------------------------------------------------
// The tests.

fn crashing_engine_loses_every_game_and_is_restarted() {
    let engines = [fake("bad", "crash:3"), fake("good", "good")];
    let (standing, games) = play(engines, Limits::Depth(1), 4);
    assert_all_lost(&standing, &games, 4, |t, side| {
        matches!(t, Termination::Fault { side: s, fault: Fault::Crash(ProcessEnd::Exited(3)) }
            if *s == side)
    });
    // It played its two moves in every game: it was restarted after each crash.
    for game in &games {
        let first_mover = Position::from_fen(&game.record.start_fen)
            .unwrap()
            .side_to_move();
        let own = (0..game.record.moves.len())
            .filter(|i| (i % 2 == 0) == (first_mover == bad_side(game)))
            .count();
        assert_eq!(own, 2, "game {}", game.number);
    }
    assert!(
        standing.terminations.contains_key("crash of bad"),
        "{:?}",
        standing.terminations
    );
}

fn hanging_engine_loses_after_the_hang_timeout() {
    let engines = [fake("bad", "hang:2"), fake("good", "good")];
    let started = Instant::now();
    let (standing, games) = play(engines, Limits::Nodes(100), 2);
    assert_all_lost(&standing, &games, 2, |t, side| {
        matches!(t, Termination::Fault { side: s, fault: Fault::Hang { awaiting: "bestmove", waited } }
            if *s == side && *waited >= Duration::from_millis(500))
    });
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(
        games[0].record.outcome.termination.pgn_tag(),
        "stalled connection"
    );
}

fn illegal_move_loses_with_the_move_and_reason() {
    let engines = [fake("bad", "illegal:2"), fake("good", "good")];
    let (standing, games) = play(engines, Limits::Depth(1), 2);
    assert_all_lost(&standing, &games, 2, |t, side| {
        matches!(t, Termination::IllegalMove { side: s, text, why: MoveFault::Illegal(_) }
            if *s == side && text == "e3e5")
    });
    assert_eq!(
        games[0].record.outcome.termination.pgn_tag(),
        "rules infraction"
    );
}

fn unreadable_move_loses() {
    let engines = [fake("bad", "garbage:1"), fake("good", "good")];
    let (standing, games) = play(engines, Limits::Depth(1), 2);
    assert_all_lost(&standing, &games, 2, |t, side| {
        matches!(t, Termination::IllegalMove { side: s, text, why: MoveFault::Unreadable(_) }
                if *s == side && text == "hello")
    });
}

fn no_move_loses() {
    let engines = [fake("bad", "nomove:2"), fake("good", "good")];
    let (standing, games) = play(engines, Limits::Depth(1), 2);
    assert_all_lost(
        &standing,
        &games,
        2,
        |t, side| matches!(t, Termination::NoMove { side: s } if *s == side),
    );
}

fn slow_engine_loses_on_time() {
    // 0.2 s for the game; the slow move takes 0.4 s, within the grace period that tells a
    // slow engine from a hung one.
    let tc: TimeControl = "0.2+0".parse().unwrap();
    let engines = [fake("bad", "slow:2"), fake("good", "good")];
    let (standing, games) = play(engines, Limits::Clock(tc), 2);
    assert_all_lost(&standing, &games, 2, |t, side| {
        matches!(t, Termination::TimeForfeit { side: s, used, had }
            if *s == side && *used >= Duration::from_millis(400) && *had <= Duration::from_millis(200))
    });
    assert_eq!(
        games[0].record.outcome.termination.pgn_tag(),
        "time forfeit"
    );
}

fn engine_that_cannot_start_loses() {
    let mut missing = EngineSpec::new(vec!["/nonexistent/engine".into()]);
    missing.name = "bad".into();
    let (standing, games) = play([missing, fake("good", "good")], Limits::Depth(1), 2);
    assert_all_lost(&standing, &games, 2, |t, side| {
        matches!(t, Termination::Fault { side: s, fault: Fault::Spawn(SpawnError::Start { command, .. }) }
            if *s == side && command == "/nonexistent/engine")
    });
}

fn ucci_fake_engines_play_a_game() {
    let mut first = fake("first", "good");
    first.dialect = Dialect::Ucci;
    let mut second = fake("second", "good");
    second.dialect = Dialect::Ucci;
    let (standing, games) = play([first, second], Limits::Clock("5+0.05".parse().unwrap()), 2);
    assert_eq!(standing.tally.games(), 2);
    assert_games_end_normally(&games);
}

/// Every game ended by the rules (or adjudication), after at least a few moves: no engine
/// refused a line the match runner wrote.
fn assert_games_end_normally(games: &[FinishedGame]) {
    for game in games {
        assert!(
            !game.record.outcome.termination.is_engine_failure(),
            "{:?}",
            game.record.outcome
        );
        assert!(game.record.moves.len() >= 8);
    }
}

fn every_line_the_runner_writes_reads_in_both_dialects_and_rank_numberings() {
    for dialect in [Dialect::Uci, Dialect::Ucci] {
        for ranks in [RankBase::Zero, RankBase::One] {
            let engines = ["first", "second"].map(|name| {
                let mut spec = fake_with_ranks(name, "good", ranks);
                spec.dialect = dialect;
                spec.options = vec![
                    ("Hash".into(), "16".into()),
                    ("Clear Hash".into(), String::new()),
                ];
                spec
            });
            for limits in [Limits::Clock("5+0.05".parse().unwrap()), Limits::Nodes(100)] {
                let (standing, games) = play(engines.clone(), limits, 2);
                assert_eq!(standing.tally.games(), 2, "{dialect} {ranks:?} {limits}");
                assert_games_end_normally(&games);
            }
        }
    }
}

fn sprt_stops_the_match_at_a_decision() {
    let config = MatchConfig {
        engines: [fake("good", "good"), fake("bad", "illegal:1")],
        settings: GameSettings::new(Limits::Depth(1)),
        openings: openings(2),
        games: 200,
        concurrency: 1,
        sprt: Some(Sprt::parse(&["elo0=0", "elo1=100"]).unwrap()),
        pgn: None,
        event: "sprt".into(),
        log: None,
    };
    let (standing, games) = run_with(&config);
    assert_eq!(standing.decision, Some(SprtDecision::AcceptH1));
    assert!(
        games.len() < 200,
        "stopped early after {} games",
        games.len()
    );
    assert_eq!(standing.tally.wins as usize, games.len());
}
