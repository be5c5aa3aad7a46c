//! The `xiangqi` command as a user runs it.

mod support;

use std::process::Output;
use support::xiangqi;

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn moves_lists_every_start_move_in_three_notations() {
    let out = xiangqi(&["moves"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 44);
    assert!(lines.contains(&"h2e2\tC2=5\t炮二平五"));
    assert!(lines.contains(&"h0g2\tH2+3\t马二进三"));
    assert!(lines.contains(&"c0e2\tE7+5\t相七进五"));
    let iccs: Vec<&str> = lines
        .iter()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    let mut sorted = iccs.clone();
    sorted.sort();
    assert_eq!(iccs, sorted, "sorted by ICCS");
    for line in lines {
        assert_eq!(line.split('\t').count(), 3, "{line}");
    }
}

#[test]
fn moves_for_black_use_black_notation() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let text = stdout(&xiangqi(&["moves", "--fen", fen]));
    assert!(text.lines().any(|l| l == "h9g7\tH8+7\t马8进7"), "{text}");
}

#[test]
fn bad_fen_is_an_error_with_exit_code_2() {
    for fen in [
        "bad",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
        "4k4/9/9/9/9/9/9/9/9/4K4 w",
    ] {
        for cmd in [
            &["moves", "--fen", fen][..],
            &["perft", "2", "--fen", fen][..],
        ] {
            let out = xiangqi(cmd);
            assert_eq!(out.status.code(), Some(2), "{cmd:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.starts_with("error:"), "{err}");
            assert!(out.stdout.is_empty());
        }
    }
}

#[test]
fn perft_prints_total_last() {
    let text = stdout(&xiangqi(&["perft", "3"]));
    assert_eq!(text.lines().last(), Some("total 79666"));
    let divide = stdout(&xiangqi(&["perft", "2", "--divide"]));
    let lines: Vec<&str> = divide.lines().collect();
    assert_eq!(lines.len(), 45);
    assert_eq!(lines[44], "total 1920");
    let sum: u64 = lines[..44]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 1920);
}

#[test]
fn perft_zero_is_one() {
    assert_eq!(stdout(&xiangqi(&["perft", "0"])).trim(), "total 1");
}

/// The node count on `bench`'s closing line, which has the form `<nodes> nodes <nps> nps`.
fn bench_nodes(args: &[&str]) -> u64 {
    let out = xiangqi(args);
    assert!(out.status.success(), "{:?}", out);
    let text = stdout(&out);
    let words: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(words.len(), 4, "closing line: {text}");
    assert_eq!(
        (words[1], words[3]),
        ("nodes", "nps"),
        "closing line: {text}"
    );
    words[0].parse().unwrap()
}

#[test]
fn bench_searches_with_the_network_or_the_handcrafted_evaluation_as_asked() {
    use xiangqi_engine::{Evaluation, bench::run_with};
    let network = bench_nodes(&["bench", "4"]);
    let handcrafted = bench_nodes(&["bench", "4", "--handcrafted"]);
    let in_process = |evaluation| run_with(4, &evaluation, &mut |_| {}).nodes;
    assert_eq!(network, in_process(Evaluation::Default));
    assert_eq!(handcrafted, in_process(Evaluation::Handcrafted));
    assert_ne!(network, handcrafted, "the two evaluations search alike");
}

#[test]
fn bench_refuses_a_network_file_together_with_the_handcrafted_evaluation() {
    let out = xiangqi(&["bench", "4", "--handcrafted", "--evalfile", "x.xqnn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot be used with"),
        "{out:?}"
    );
}
