//! `xiangqi spsa` end to end: a short tuning run of our own search's numbers at a few hundred
//! nodes a move, stopped and continued from its state file, and the inputs it refuses.

use std::path::PathBuf;
use std::process::{Command, Output};

const XIANGQI: &str = env!("CARGO_BIN_EXE_xiangqi");

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("spsa-tests");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(dir.join(format!("{name}.history")));
    path
}

fn spsa(args: &[&str]) -> Output {
    Command::new(XIANGQI)
        .arg("spsa")
        .args(args)
        .output()
        .expect("run xiangqi spsa")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn done(state: &PathBuf) -> u64 {
    let text = std::fs::read_to_string(state).expect("state written");
    text.lines()
        .find_map(|l| l.strip_prefix("done "))
        .and_then(|n| n.parse().ok())
        .expect("a done line")
}

#[test]
fn a_run_stops_and_continues_from_its_state() {
    let state = scratch("run.spsa");
    let s = state.to_str().unwrap();
    let first = spsa(&[
        "--state",
        s,
        "--param",
        "RfpMargin",
        "--param",
        "LmrBase=10",
        "--iterations",
        "3",
        "--nodes",
        "300",
        "--concurrency",
        "2",
        "--steps",
        "1",
    ]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(done(&state), 1);
    let text = std::fs::read_to_string(&state).unwrap();
    assert!(text.contains("param RfpMargin "), "{text}");
    assert!(
        text.contains(" 20 250 11.5 0.002\n"),
        "range and schedule from the engine: {text}"
    );
    assert!(
        text.contains("param LmrBase ") && text.contains(" 0 200 10 0.002\n"),
        "{text}"
    );

    // A new --param on an existing run is refused; the run continues without it.
    let again = spsa(&["--state", s, "--param", "RfpMargin", "--nodes", "300"]);
    assert!(!again.status.success());
    assert!(
        stderr(&again).contains("already holds a run"),
        "{}",
        stderr(&again)
    );
    let rest = spsa(&["--state", s, "--nodes", "300", "--concurrency", "2"]);
    assert!(rest.status.success(), "{}", stderr(&rest));
    let said = String::from_utf8_lossy(&rest.stdout);
    assert!(
        said.contains("continuing") && said.contains("1 of 3 iterations done"),
        "{said}"
    );
    assert!(said.contains("iteration 3/3"), "{said}");
    assert_eq!(done(&state), 3);
    let history = std::fs::read_to_string(format!("{s}.history")).unwrap();
    assert_eq!(history.lines().count(), 3, "{history}");
    // Each step's result is θ⁺'s wins less its losses over one pair: between −2 and 2.
    for line in history.lines() {
        let result: i32 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!((-2..=2).contains(&result), "{line}");
    }
}

#[test]
fn bad_settings_and_states_are_named() {
    let state = scratch("bad.spsa");
    let s = state.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["--state", s, "--param", "RfpMargin"],
            "give one of --tc or --nodes",
        ),
        (
            &["--state", s, "--nodes", "100"],
            "a new run needs at least one --param",
        ),
        (
            &["--state", s, "--param", "Nope", "--nodes", "100"],
            "--param Nope: the engine offers no such option",
        ),
        (
            &["--state", s, "--param", "UseNNUE", "--nodes", "100"],
            "only whole-number (spin) options",
        ),
        (
            &["--state", s, "--param", "RfpMargin=-1", "--nodes", "100"],
            "C_END must be a number above 0",
        ),
    ];
    for (args, said) in cases {
        let out = spsa(args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(said), "{args:?}: {}", stderr(&out));
        assert!(!state.exists(), "{args:?} left a state behind");
    }
    std::fs::write(
        &state,
        "iterations 10\ndone 0\nseed 1\nparam RfpMargin 80 20 250 oops 0.002\n",
    )
    .unwrap();
    let out = spsa(&["--state", s, "--nodes", "100"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("line 4: param RfpMargin needs five numbers"),
        "{}",
        stderr(&out)
    );
}
