//! The Asian rules on whole cycles: which combinations of checks and chases are allowed,
//! several pieces chasing one, the verdict as data, and the search entry point.

use xiangqi_rules::repetition::{judge_cycle, repetition_distance};
use xiangqi_rules::{
    Color, EndReason, Game, GameResult, GameRules, Move, PieceKind, Position, RuleSet, Square,
    Verdict, VerdictKind,
};

fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn play(fen: &str, moves: &str) -> Game {
    let mut game = Game::from_fen(fen, GameRules::default()).unwrap();
    for m in moves.split_whitespace() {
        game.play(mv(m)).unwrap();
    }
    game
}

fn verdict(game: &Game) -> &Verdict {
    match &game.outcome().expect("an outcome").reason {
        EndReason::Verdict(v) => v,
        other => panic!("expected a verdict, got {other}"),
    }
}

#[test]
fn checks_alternating_with_chases_are_allowed() {
    // The black cannon chases the red chariot on b2 from i2 (through the advisor) and checks
    // from i1 (through the cannon on e1) in turn (AXF rule 12: one check, one chase).
    let game = play(
        "8r/5k3/3a4b/9/1rb1P4/4C1B2/9/1R3A3/3K4c/5A3 b",
        "i1i2 e4e1 i2i1 e1e4 i1i2 e4e1 i2i1 e1e4",
    );
    let v = verdict(&game);
    assert_eq!(v.kind, VerdictKind::Repetition);
    assert_eq!(v.result(), GameResult::Draw);
}

#[test]
fn chasing_two_pieces_in_turn_is_allowed() {
    // The red chariot attacks the unprotected advisor from d2 and the unprotected elephant
    // from c2 in turn (AXF rule 32).
    let game = play(
        "8r/5k3/3a4b/9/1rb1P4/6B2/8c/2R2A3/3KC4/5A3 w",
        "c2d2 b5b6 d2c2 b6b5 c2d2 b5b6 d2c2 b6b5",
    );
    assert_eq!(verdict(&game).kind, VerdictKind::Repetition);
}

#[test]
fn two_pieces_chasing_one_lose() {
    // Each black general step uncovers one of the two horses against the red soldier, which
    // shuttles between d9 and e9 (AXF rule: two or more pieces may not chase one perpetually).
    let game = play(
        "3P5/3k5/3nn4/9/9/9/9/9/9/5K3 w",
        "d9e9 d8e8 e9d9 e8d8 d9e9 d8e8 e9d9 e8d8",
    );
    let v = verdict(&game);
    assert_eq!(v.kind, VerdictKind::PerpetualChase);
    assert_eq!(v.side, Some(Color::Black));
    assert_eq!(v.participants, 2);
    assert_eq!(v.pieces.len(), 1);
    assert_eq!(v.pieces[0].piece.kind, PieceKind::Soldier);
}

#[test]
fn perpetual_check_with_two_pieces_loses() {
    let game = play(
        "5k3/4N4/9/4C4/r4P3/7c1/P6p1/9/8c/5K2p w",
        "e8g7 f9e9 g7e8 e9f9 e8g7 f9e9 g7e8 e9f9",
    );
    let v = verdict(&game);
    assert_eq!(v.kind, VerdictKind::PerpetualCheck);
    assert_eq!(v.result(), GameResult::BlackWins);
    assert_eq!(v.participants, 2);
    assert_eq!(
        v.to_string(),
        "Red checked perpetually with the cannon on e6 and the horse on e8 (moves 1\u{2013}8)"
    );
}

#[test]
fn a_verdict_carries_its_data() {
    let game = play(
        "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w",
        "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2",
    );
    let v = verdict(&game);
    assert_eq!(v.kind, VerdictKind::PerpetualChase);
    assert_eq!(v.rules, RuleSet::Asian);
    assert_eq!(v.side, Some(Color::Red));
    assert_eq!(v.pieces.len(), 1);
    assert_eq!(v.pieces[0].piece.kind, PieceKind::Chariot);
    assert_eq!(v.pieces[0].piece.color, Color::Black);
    assert_eq!(v.pieces[0].point, "a7".parse::<Square>().unwrap());
    // The chariot on a7 is protected by the elephant on c9; it is chased because a cannon
    // attacks it, so it is not called unprotected.
    assert!(!v.unprotected);
    assert_eq!((v.moves.first, v.moves.last), (1, 9));
    assert_eq!(v.count, 5, "Red's chasing moves 1, 3, 5, 7 and 9");
    assert_eq!(game.outcome().unwrap().ply, 9);
}

#[test]
fn the_search_entry_point_judges_every_public_cycle_alike() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perpetual-axf.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let game = play(fields[0], fields[1]);
        let ended = game.outcome().unwrap().ply;
        // Replay to the ending, then ask as a search would: the hashes since the last capture
        // and the moves of the last cycle.
        let mut pos = Position::from_fen(fields[0]).unwrap();
        let mut keys = vec![pos.hash()];
        let moves: Vec<Move> = fields[1].split_whitespace().map(mv).take(ended).collect();
        for &m in &moves {
            if !pos.is_empty(m.to()) {
                keys.clear();
            }
            pos.make_move(m);
            keys.push(pos.hash());
        }
        let back = repetition_distance(&keys).expect("a repetition");
        let judgement = judge_cycle(&pos, &moves[moves.len() - back..], RuleSet::Asian);
        assert_eq!(
            judgement.result().map(|r| r.to_string()).as_deref(),
            Some(fields[2]),
            "{}",
            fields[3]
        );
    }
}
