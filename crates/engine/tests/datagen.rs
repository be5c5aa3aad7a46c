//! Data generation runs: the file they write, resuming after a kill, and refusing a file that
//! is not theirs.

use std::path::{Path, PathBuf};
use std::time::Duration;
use xiangqi_engine::datagen::{
    AdjudicationRules, DataReader, Event, RunError, RunSettings, SelfPlaySettings, Tally, Target,
    open_output, run,
};

/// A fresh path in the temporary folder for `name`.
fn temp_file(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-datagen-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn settings(target: Target, threads: usize) -> RunSettings {
    RunSettings {
        selfplay: SelfPlaySettings {
            seed: 42,
            nodes: 300,
            adjudication: AdjudicationRules {
                max_plies: 40,
                ..AdjudicationRules::default()
            },
            ..SelfPlaySettings::default()
        },
        target,
        threads,
        progress_every: Duration::from_secs(60),
    }
}

/// Runs to `target` and returns the tally and the events.
fn generate(path: &Path, target: Target, threads: usize) -> (Tally, Vec<Event>) {
    let mut events = Vec::new();
    let tally = run(path, &settings(target, threads), &mut |e| events.push(e)).unwrap();
    (tally, events)
}

fn read_tally(path: &Path) -> Tally {
    let mut tally = Tally::default();
    for game in DataReader::open(path).unwrap() {
        let game = game.unwrap();
        tally.games += 1;
        tally.positions += game.plies.len() as u64;
        match game.result.winner() {
            Some(xiangqi_rules::Color::Red) => tally.red_wins += 1,
            Some(xiangqi_rules::Color::Black) => tally.black_wins += 1,
            None => tally.draws += 1,
        }
    }
    tally
}

#[test]
fn a_run_writes_the_games_it_counts_and_the_same_bytes_with_more_threads() {
    let one = temp_file("one-thread.xqdg");
    let (tally, events) = generate(&one, Target::Games(4), 1);
    assert_eq!(tally.games, 4);
    assert_eq!(read_tally(&one), tally);
    assert!(matches!(events.last(), Some(Event::Progress { tally: t, .. }) if *t == tally));

    let two = temp_file("two-threads.xqdg");
    generate(&two, Target::Games(4), 2);
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
}

#[test]
fn a_positions_target_stops_after_the_game_that_reaches_it() {
    let path = temp_file("positions.xqdg");
    let (tally, _) = generate(&path, Target::Positions(50), 2);
    assert!(tally.positions >= 50);
    let games: Vec<_> = DataReader::open(&path)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let before_last: usize = games[..games.len() - 1].iter().map(|g| g.plies.len()).sum();
    assert!(before_last < 50, "one game too many");
}

#[test]
fn a_run_resumed_after_a_kill_writes_what_an_uninterrupted_run_writes() {
    let whole = temp_file("whole.xqdg");
    generate(&whole, Target::Games(3), 1);
    let bytes = std::fs::read(&whole).unwrap();

    // A kill in the middle of writing the third game leaves two and a piece.
    let two_games = temp_file("two-games.xqdg");
    generate(&two_games, Target::Games(2), 1);
    let two_len = std::fs::metadata(&two_games).unwrap().len() as usize;
    let killed = temp_file("killed.xqdg");
    std::fs::write(&killed, &bytes[..two_len + 7]).unwrap();

    let (tally, events) = generate(&killed, Target::Games(3), 1);
    assert_eq!(tally.games, 3);
    match events.first() {
        Some(Event::Resumed { tally, cut_bytes }) => {
            assert_eq!(tally.games, 2);
            assert_eq!(*cut_bytes, 7);
        }
        other => panic!("expected a resume event first, got {other:?}"),
    }
    assert_eq!(std::fs::read(&killed).unwrap(), bytes);

    // A finished file run again with the same target is left as it is.
    let (again, _) = generate(&killed, Target::Games(3), 1);
    assert_eq!(again.games, 3);
    assert_eq!(std::fs::read(&killed).unwrap(), bytes);
}

#[test]
fn a_file_that_is_not_a_data_file_is_refused_and_left_alone() {
    let path = temp_file("notes.txt");
    std::fs::write(&path, "my notes, not games\n").unwrap();
    let err = run(&path, &settings(Target::Games(1), 1), &mut |_| {}).unwrap_err();
    assert!(matches!(err, RunError::BadOutput { .. }), "{err}");
    assert!(err.to_string().contains("not a datagen file"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "my notes, not games\n"
    );
}

#[test]
fn an_output_in_a_missing_folder_is_refused() {
    let path = temp_file("x").join("no-such-folder").join("out.xqdg");
    let err = run(&path, &settings(Target::Games(1), 1), &mut |_| {}).unwrap_err();
    assert!(matches!(err, RunError::Io { .. }), "{err}");
    assert!(err.to_string().contains("no-such-folder"), "{err}");
}

#[test]
fn a_second_run_on_a_file_being_written_is_refused_and_leaves_it_whole() {
    let path = temp_file("busy.xqdg");
    generate(&path, Target::Games(2), 1);
    let before = std::fs::read(&path).unwrap();
    let (held, tally, _) = open_output(&path).unwrap();
    assert_eq!(tally.games, 2);
    let err = run(&path, &settings(Target::Games(4), 1), &mut |_| {}).unwrap_err();
    assert!(matches!(err, RunError::InUse { .. }), "{err}");
    assert!(err.to_string().contains("another datagen run"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    drop(held);
    let (tally, _) = generate(&path, Target::Games(4), 1);
    assert_eq!(tally.games, 4, "the file continues once the first run ends");
}
