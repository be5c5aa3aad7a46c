//! Cycles on which Fairy-Stockfish (pyffish) rules otherwise than the AXF rule book: our
//! results, with the reasoning for each in `data/perpetual-pyffish-disagreements.tsv`
//! (undermining a root by a block or a screen, new attacks through a changed cannon screen,
//! and protectors that are not real).

use xiangqi_rules::{Game, GameRules, Move, Square};

const CASES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/perpetual-pyffish-disagreements.tsv"
);

fn parse_move(text: &str) -> Move {
    let sq = |s: &str| {
        s.parse::<Square>()
            .ok()
            .unwrap_or_else(|| panic!("bad point in {text:?}"))
    };
    Move::new(sq(&text[..2]), sq(&text[2..]))
}

#[test]
fn our_rulings_where_pyffish_differs_follow_the_axf_book() {
    let text = std::fs::read_to_string(CASES).unwrap_or_else(|e| panic!("{CASES}: {e}"));
    let mut rows = 0;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 5, "line {}: five fields", i + 1);
        let (fen, moves, ours, pyffish, why) =
            (fields[0], fields[1], fields[2], fields[3], fields[4]);
        assert_ne!(ours, pyffish, "line {}: not a disagreement", i + 1);
        let mut game = Game::from_fen(fen, GameRules::default()).unwrap();
        for m in moves.split_whitespace() {
            game.play(parse_move(m)).unwrap();
        }
        let got = game
            .outcome()
            .map_or("ongoing".to_string(), |o| o.result.to_string());
        assert_eq!(got, ours, "line {}: {why}", i + 1);
        rows += 1;
    }
    assert!(rows >= 9, "{rows} cases");
}
