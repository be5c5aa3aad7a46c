//! The CXQ rule set: counted perpetual checks and attacks, its verdicts, and its automatic
//! draws, played through [`Game`].

use xiangqi_rules::{EndReason, Game, GameResult, GameRules, Move, RuleSet, VerdictKind};

fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// Plays `prefix`, then `cycle` over and over, `plies` moves in all (or until the game ends).
fn play(fen: &str, prefix: &str, cycle: &str, plies: usize) -> Game {
    let mut game = Game::from_fen(fen, GameRules::new(RuleSet::Cxq)).unwrap();
    let prefix: Vec<Move> = prefix.split_whitespace().map(mv).collect();
    let cycle: Vec<Move> = cycle.split_whitespace().map(mv).collect();
    for m in prefix.iter().chain(cycle.iter().cycle()).take(plies) {
        if game.is_over() {
            break;
        }
        game.play(*m).unwrap();
    }
    game
}

/// Plays as [`play`] does, `allowed` plies with no end of the game, then `plies`: that game.
fn play_past_allowed(fen: &str, prefix: &str, cycle: &str, allowed: usize, plies: usize) -> Game {
    assert!(
        play(fen, prefix, cycle, allowed).outcome().is_none(),
        "{allowed} plies are allowed"
    );
    play(fen, prefix, cycle, plies)
}

fn verdict(game: &Game) -> &xiangqi_rules::Verdict {
    match &game.outcome().expect("a verdict").reason {
        EndReason::Verdict(v) => v,
        other => panic!("expected a verdict, got {other}"),
    }
}

/// The horse checks from g7 and h9 in turn; the black general shuttles.
const ONE_CHECKER: (&str, &str) = ("5k1N1/9/9/9/9/8n/9/9/9/3K5 w", "h9g7 f9f8 g7h9 f8f9");

#[test]
fn six_checks_in_a_row_with_one_piece_are_perpetual() {
    let (fen, cycle) = ONE_CHECKER;
    // Five checks are allowed.
    let game = play_past_allowed(fen, "", cycle, 10, 11);
    let v = verdict(&game);
    assert_eq!(v.kind, VerdictKind::PerpetualCheck);
    assert_eq!(v.result(), GameResult::BlackWins);
    assert_eq!((v.count, v.participants), (6, 1));
    assert_eq!(
        v.to_string(),
        "Red checked 6 times in a row with the horse on h9 (moves 1\u{2013}11)"
    );
}

#[test]
fn checks_with_two_pieces_need_twelve() {
    // The cannon (through the horse) and the horse check in turn.
    let fen = "5k3/4N4/9/4C4/r4P3/7c1/P6p1/9/8c/5K2p w";
    let cycle = "e8g7 f9e9 g7e8 e9f9";
    // Eleven checks are allowed.
    let game = play_past_allowed(fen, "", cycle, 21, 23);
    let v = verdict(&game);
    assert_eq!(v.kind, VerdictKind::PerpetualCheck);
    assert_eq!((v.count, v.participants), (12, 2));
    assert_eq!(game.outcome().unwrap().ply, 23);
}

#[test]
fn six_attacks_on_one_piece_are_perpetual() {
    // The cannon attacks the chariot from a2 and b2 in turn (AXF vector "direct chase").
    let fen = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w";
    let cycle = "a7b7 a2b2 b7a7 b2a2";
    let game = play_past_allowed(fen, "c2a2", cycle, 10, 11);
    let v = verdict(&game);
    assert_eq!(v.kind, VerdictKind::PerpetualChase);
    assert_eq!(v.result(), GameResult::BlackWins);
    assert_eq!(v.count, 6);
    assert!(
        v.to_string().starts_with("Red attacked the chariot on "),
        "{v}"
    );
}

#[test]
fn both_sides_checking_is_a_draw() {
    let game = play(
        "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w",
        "",
        "e3d3 d6e6 d3e3 e6d6",
        40,
    );
    let v = verdict(&game);
    assert_eq!(v.kind, VerdictKind::MutualCheck);
    assert_eq!(v.result(), GameResult::Draw);
}

#[test]
fn the_checking_side_loses_against_a_perpetual_attack() {
    // Black's soldier checks from d2 and e2; each red general step makes it the screen of the
    // cannon on i1 against the soldier on b1.
    let game = play(
        "4k1b2/r3a4/b2an1c2/9/C1p6/6B2/6Pp1/2r1p2N1/1p1K4C/3R5 b",
        "",
        "e2d2 d1e1 d2e2 e1d1",
        40,
    );
    let v = verdict(&game);
    assert_eq!(v.kind, VerdictKind::CheckAgainstChase);
    assert_eq!(v.side, Some(xiangqi_rules::Color::Black));
    assert_eq!(game.outcome().unwrap().ply, 11);
}

#[test]
fn checks_alternating_with_idle_moves_are_allowed() {
    // The horse checks, then steps to a square where it does not check, and back.
    let game = play(
        "5k1N1/9/9/9/9/8n/9/9/9/3K5 w",
        "",
        "h9g7 f9f8 g7e8 f8f9 e8g7 f9f8 g7h9 f8f9",
        40,
    );
    assert!(game.outcome().is_none(), "{:?}", game.outcome());
}

#[test]
fn thirty_moves_each_without_progress_draw() {
    let game = play(xiangqi_rules::START_FEN, "", "b0c2 b9c7 c2b0 c7b9", 200);
    let o = game.outcome().expect("a draw");
    assert_eq!(o.result, GameResult::Draw);
    assert_eq!(o.reason, EndReason::CxqProgress { moves: 30 });
    assert_eq!(o.ply, 60);
}

#[test]
fn a_repetition_alone_does_not_end_a_cxq_game() {
    let game = play(xiangqi_rules::START_FEN, "", "b0c2 b9c7 c2b0 c7b9", 59);
    assert!(game.outcome().is_none());
    assert_eq!(game.occurrences(), 15);
}
