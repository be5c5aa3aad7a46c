//! The search obeys the Asian rules on repetition: a side that would lose by checking or
//! chasing perpetually breaks the cycle. The positions are the public cases in
//! `crates/rules/tests/data/perpetual-axf.tsv`, stopped just before the violator's last move of
//! the cycle; the only way to avoid losing by rule is to play something else.

use xiangqi_engine::score::Reported;
use xiangqi_engine::{Engine, EngineOptions, SearchLimits, SearchRequest};
use xiangqi_rules::{Color, Move, Position};

fn mv(s: &str) -> Move {
    s.parse::<Move>().unwrap()
}

struct Case {
    fen: String,
    moves: Vec<Move>,
    loser: Option<Color>,
    theme: String,
}

fn cases() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../rules/tests/data/perpetual-axf.tsv"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Case {
                fen: f[0].to_string(),
                moves: f[1].split_whitespace().map(mv).collect(),
                loser: match f[2] {
                    "red-wins" => Some(Color::Black),
                    "black-wins" => Some(Color::Red),
                    _ => None,
                },
                theme: f[3].to_string(),
            }
        })
        .collect()
}

#[test]
fn the_violator_breaks_the_cycle() {
    let mut checked = 0;
    let mut would_repeat_blindly = 0;
    for case in cases() {
        let Some(loser) = case.loser else { continue };
        let start = Position::from_fen(&case.fen).unwrap();
        // The violator's last move of the sequence.
        let mut pos = start.clone();
        let mut last = None;
        for (i, &m) in case.moves.iter().enumerate() {
            if pos.side_to_move() == loser {
                last = Some(i);
            }
            pos.make_move(m);
        }
        let k = last.expect("the violator moves");
        let mut pos = start.clone();
        let (mut history, mut history_moves) = (Vec::new(), Vec::new());
        for &m in &case.moves[..k] {
            history.push(pos.hash());
            history_moves.push(m);
            pos.make_move(m);
            if pos.halfmove_clock() == 0 {
                history.clear();
                history_moves.clear();
            }
        }
        let limits = SearchLimits {
            depth: Some(6),
            ..Default::default()
        };
        let violating = case.moves[k];
        // Without the game's history nothing has repeated yet, and the move is often the best.
        let blind = Engine::new(EngineOptions::default()).think(
            &SearchRequest::new(pos.clone(), limits.clone()),
            &mut |_| {},
        );
        if blind.best_move == Some(violating) {
            would_repeat_blindly += 1;
        }
        let engine = Engine::new(EngineOptions::default());
        let request = SearchRequest {
            history,
            history_moves,
            ..SearchRequest::new(pos.clone(), limits)
        };
        let result = engine.think(&request, &mut |_| {});
        assert!(
            // Playing it anyway is right only when every other move gets mated too.
            result.best_move != Some(violating)
                || matches!(result.score, Reported::Mate(n) if n <= 0),
            "{}: {} played the losing repetition {violating} (score {}) in {}",
            case.theme,
            loser,
            result.score,
            pos.to_fen()
        );
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} cases with a violator");
    // The history is what changes the choice: in some cases the repeating move is the
    // engine's choice when it does not know the game.
    assert!(would_repeat_blindly >= 2, "{would_repeat_blindly} cases");
}
