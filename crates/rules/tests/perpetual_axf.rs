//! The public perpetual check and chase cases under the Asian rules
//! (`crates/rules/tests/data/perpetual-axf.tsv`): every row must end with the accepted result.

use xiangqi_rules::{Game, GameRules, Move, Square};

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perpetual-axf.tsv");

/// One row: FEN, ICCS moves (ranks 0–9), expected result, theme.
struct Case {
    line: usize,
    fen: String,
    moves: Vec<Move>,
    expected: String,
    theme: String,
}

fn parse_move(text: &str, line: usize) -> Move {
    let square = |s: &str| {
        s.parse::<Square>()
            .ok()
            .unwrap_or_else(|| panic!("line {line}: bad point {s:?} in {text:?}"))
    };
    assert_eq!(text.len(), 4, "line {line}: bad move {text:?}");
    Move::new(square(&text[..2]), square(&text[2..]))
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(VECTORS).unwrap_or_else(|e| panic!("{VECTORS}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let line = i + 1;
            let fields: Vec<&str> = l.split('\t').collect();
            assert_eq!(
                fields.len(),
                4,
                "line {line}: expected 4 tab-separated fields"
            );
            Case {
                line,
                fen: fields[0].to_string(),
                moves: fields[1]
                    .split_whitespace()
                    .map(|m| parse_move(m, line))
                    .collect(),
                expected: fields[2].to_string(),
                theme: fields[3].to_string(),
            }
        })
        .collect()
}

#[test]
fn every_public_case_gets_the_accepted_result() {
    let cases = cases();
    assert_eq!(cases.len(), 32, "the vector file holds 32 cases");
    let mut failures = Vec::new();
    for case in &cases {
        let mut game = Game::from_fen(&case.fen, GameRules::default())
            .unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        for (i, &m) in case.moves.iter().enumerate() {
            game.play(m)
                .unwrap_or_else(|e| panic!("line {}: move {} ({m}): {e}", case.line, i + 1));
        }
        let got = game
            .outcome()
            .map_or("ongoing".to_string(), |o| o.result.to_string());
        if got != case.expected {
            failures.push(format!(
                "line {} ({}): expected {}, got {} ({})",
                case.line,
                case.theme,
                case.expected,
                got,
                game.outcome()
                    .map_or(String::new(), |o| o.reason.to_string())
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn verdicts_name_the_violator_the_piece_and_the_moves() {
    let case = &cases()[0];
    let mut game = Game::from_fen(&case.fen, GameRules::default()).unwrap();
    for &m in &case.moves {
        game.play(m).unwrap();
    }
    let reason = game.outcome().expect("a verdict").reason.to_string();
    assert_eq!(
        reason,
        "Red chased the chariot on a7 perpetually (moves 1\u{2013}9)"
    );
}
