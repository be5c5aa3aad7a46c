//! A game being played with its lines: moves from an earlier position replacing the rest or
//! starting a variation, undo and redo along a line, switching, promoting and deleting lines,
//! the marks the page reads from the tree, and the record with every line.

use xiangqi_records::{Branch, LineAction, PlayError, PlayedGame};
use xiangqi_rules::{Game, GameRules, Move, Position};

/// Ten moves of a cannon opening.
const GAME: [&str; 10] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "b7b3", "a0a1", "g6g5",
];

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn texts(moves: &[Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

/// The game of `moves` (ICCS) from `fen`.
fn game_of(fen: &str, moves: &[&str]) -> Game {
    let mut game = Game::with_rules(Position::from_fen(fen).unwrap(), GameRules::default());
    for m in moves {
        game.play(mv(m)).unwrap();
    }
    game
}

fn ten_moves() -> PlayedGame {
    PlayedGame::new(game_of(xiangqi_rules::START_FEN, &GAME))
}

fn played(g: &PlayedGame) -> Vec<String> {
    texts(g.game().moves())
}

/// The main line of the tree.
fn main_line(g: &PlayedGame) -> Vec<String> {
    texts(&g.tree().continuation(&[]).unwrap())
}

#[test]
fn replace_drops_the_rest_of_the_game() {
    let mut g = ten_moves();
    g.play_at(3, mv("b9c7"), Some(Branch::Replace)).unwrap();
    assert_eq!(played(&g), ["h2e2", "h9g7", "h0g2", "b9c7"]);
    assert_eq!(g.tree().branches().len(), 1, "one line");
    assert!(g.ahead().is_empty());
    // Undo and redo step through the new line only.
    assert_eq!(g.undo(2), 2);
    assert_eq!(played(&g), ["h2e2", "h9g7"]);
    assert_eq!(texts(&g.ahead()), ["h0g2", "b9c7"]);
    assert_eq!(g.redo(2), 2);
    assert_eq!(played(&g), ["h2e2", "h9g7", "h0g2", "b9c7"]);
}

#[test]
fn undo_and_redo_stop_at_the_ends() {
    let mut g = ten_moves();
    assert_eq!(g.redo(3), 0, "nothing to redo");
    assert_eq!(g.undo(25), 10);
    assert!(g.game().moves().is_empty());
    assert_eq!(g.undo(1), 0);
    assert_eq!(texts(&g.ahead()), GAME);
    assert_eq!(g.redo(1000), 10);
    assert_eq!(played(&g), GAME);
}

#[test]
fn a_variation_keeps_the_main_line_and_play_goes_on_in_it() {
    let mut g = ten_moves();
    g.play_at(3, mv("b9c7"), Some(Branch::Variation)).unwrap();
    assert_eq!(played(&g), ["h2e2", "h9g7", "h0g2", "b9c7"]);
    assert_eq!(g.current_line(), 1);
    assert_eq!(main_line(&g), GAME);
    let tree = g.tree_moves();
    // The variation stands beside the main line's fourth move.
    assert_eq!(tree[3].variations.len(), 1);
    let variation = &tree[3].variations[0];
    assert_eq!(variation.len(), 1);
    assert_eq!(variation[0].mv, mv("b9c7"));
    assert_eq!(variation[0].line, 1);
    assert!(variation[0].played);
    assert_eq!(variation[0].ply, 4);
    assert!(!tree[3].played);
    assert!(tree[2].played);
    // Play goes on in the variation.
    g.play(mv("i0i1")).unwrap();
    let tree = g.tree_moves();
    let variation: Vec<Move> = tree[3].variations[0].iter().map(|m| m.mv).collect();
    assert_eq!(texts(&variation), ["b9c7", "i0i1"]);
    assert_eq!(main_line(&g), GAME, "the main line is still there");
}

#[test]
fn a_main_line_move_switches_back_and_lines_can_be_promoted_and_deleted() {
    let mut g = ten_moves();
    g.play_at(3, mv("b9c7"), Some(Branch::Variation)).unwrap();

    let mut main = g.clone();
    main.change_line(0, LineAction::Switch).unwrap();
    assert_eq!(played(&main), GAME);
    assert_eq!(main.current_line(), 0);
    assert!(!main.tree_moves()[3].variations[0][0].played);

    let mut promoted = g.clone();
    promoted.change_line(1, LineAction::Promote).unwrap();
    assert_eq!(main_line(&promoted), ["h2e2", "h9g7", "h0g2", "b9c7"]);
    let branches = promoted.tree().branches();
    assert_eq!(texts(&branches[1][3..]), GAME[3..]);
    assert_eq!(
        played(&promoted),
        ["h2e2", "h9g7", "h0g2", "b9c7"],
        "play stays where it was"
    );

    assert_eq!(
        g.change_line(0, LineAction::Delete),
        Err(PlayError::MainLine)
    );
    assert_eq!(
        g.change_line(5, LineAction::Switch),
        Err(PlayError::NoLine { line: 5, lines: 2 })
    );

    // Deleting the line being played goes back to the main line.
    g.change_line(1, LineAction::Delete).unwrap();
    assert_eq!(g.tree().branches().len(), 1);
    assert_eq!(played(&g), GAME);
    assert_eq!(g.current_line(), 0);
}

#[test]
fn deleting_another_line_keeps_the_position_shown() {
    let mut g = ten_moves();
    g.play_at(3, mv("b9c7"), Some(Branch::Variation)).unwrap();
    g.change_line(0, LineAction::Switch).unwrap();
    g.undo(4);
    g.change_line(1, LineAction::Delete).unwrap();
    assert_eq!(played(&g), GAME[..6]);
    assert_eq!(texts(&g.ahead()), GAME[6..]);
}

#[test]
fn playing_the_next_move_of_the_line_needs_no_choice() {
    let mut g = ten_moves();
    g.play_at(2, mv("h0g2"), None).unwrap();
    assert_eq!(played(&g), GAME[..3]);
    assert_eq!(g.ahead().len(), 7);
    assert_eq!(g.tree().branches().len(), 1);
}

#[test]
fn a_bad_ply_a_missing_choice_or_an_illegal_move_is_refused_and_changes_nothing() {
    let mut g = ten_moves();
    let before = (played(&g), g.tree().clone());
    assert_eq!(
        g.play_at(11, mv("b9c7"), Some(Branch::Variation)),
        Err(PlayError::BadPly { ply: 11, moves: 10 })
    );
    assert_eq!(
        g.play_at(3, mv("b9c7"), None),
        Err(PlayError::ChoiceNeeded { ply: 3 })
    );
    // Black's chariot is blocked by its own soldier.
    let refused = g.play_at(3, mv("a9a5"), Some(Branch::Replace));
    let Err(PlayError::Illegal(reason)) = refused else {
        panic!("{refused:?}");
    };
    assert_eq!(reason.code(), "chariot-path-blocked");
    // Red's chariot on a1 is blocked by its own soldier.
    assert!(matches!(g.play(mv("a1a5")), Err(PlayError::Illegal(_))));
    assert_eq!((played(&g), g.tree().clone()), before);
}

#[test]
fn a_finished_game_can_be_played_on_from_an_earlier_position() {
    // The chariot to c9 mates: Red's other chariot holds the eighth rank.
    let fen = "4k4/7R1/9/9/6n2/2R1N4/9/9/9/3K5 w - - 0 1";
    let mut g = PlayedGame::new(game_of(fen, &["c4c9"]));
    assert!(g.game().outcome().is_some());
    g.play_at(0, mv("c4c3"), Some(Branch::Variation)).unwrap();
    assert!(g.game().outcome().is_none());
    assert_eq!(main_line(&g), ["c4c9"]);
}

#[test]
fn a_new_move_after_undo_drops_the_variations_of_the_moves_taken_back() {
    let mut g = ten_moves();
    g.play_at(3, mv("b9c7"), Some(Branch::Variation)).unwrap();
    g.change_line(0, LineAction::Switch).unwrap();
    g.undo(8);
    assert_eq!(played(&g), GAME[..2]);
    assert_eq!(g.tree().branches().len(), 2, "undo keeps the variation");
    g.play(mv("b0c2")).unwrap();
    assert_eq!(played(&g), ["h2e2", "h9g7", "b0c2"]);
    assert_eq!(
        g.tree().branches().len(),
        1,
        "the variation left a move taken back"
    );
    assert!(g.ahead().is_empty());
}

#[test]
fn a_variation_played_into_the_main_line_follows_it() {
    let mut g = ten_moves();
    g.play_at(3, mv("b9c7"), Some(Branch::Variation)).unwrap();
    g.undo(1);
    assert_eq!(texts(&g.ahead()), ["b9c7"], "redo replays the variation");
    // The main line's own move instead: play follows the main line, its rest ready for redo.
    g.play(mv("i9h9")).unwrap();
    assert_eq!(played(&g), GAME[..4]);
    assert_eq!(g.current_line(), 0);
    assert_eq!(g.ahead().len(), 6);
    assert_eq!(g.tree().branches().len(), 1, "the variation was replaced");
}

#[test]
fn the_move_redo_would_play_keeps_the_rest_of_the_line() {
    let mut g = ten_moves();
    g.undo(5);
    g.play(mv("b9c7")).unwrap();
    assert_eq!(played(&g), GAME[..6]);
    assert_eq!(texts(&g.ahead()), GAME[6..]);
}

#[test]
fn moves_to_redo_are_kept_while_they_replay() {
    let game = game_of(xiangqi_rules::START_FEN, &GAME[..2]);
    // The third move is Red's, played again by Red: it and what follows are dropped.
    let g = PlayedGame::with_redo(game, vec![mv("h0g2"), mv("i9h9"), mv("i9h9"), mv("b0c2")]);
    assert_eq!(texts(&g.ahead()), ["h0g2", "i9h9"]);
    assert_eq!(main_line(&g), GAME[..4]);
}

#[test]
fn the_record_carries_every_line_but_moves_taken_back() {
    let mut g = ten_moves();
    g.play_at(3, mv("b9c7"), Some(Branch::Variation)).unwrap();
    let record = g.record();
    assert_eq!(
        texts(&record.mainline().collect::<Vec<_>>()),
        GAME,
        "the main line is whole"
    );
    assert_eq!(record.moves.moves[3].variations.len(), 1);
    // Moves taken back on their own line are not part of the game.
    let mut g = ten_moves();
    g.undo(3);
    let record = g.record();
    assert_eq!(texts(&record.mainline().collect::<Vec<_>>()), GAME[..7]);
    assert!(record.result.is_none());
}

#[test]
fn the_record_of_a_finished_main_line_says_how_it_ended() {
    let fen = "4k4/7R1/9/9/6n2/2R1N4/9/9/9/3K5 w - - 0 1";
    let g = PlayedGame::new(game_of(fen, &["c4c9"]));
    let record = g.record();
    assert!(record.result.is_some());
    let last = record.moves.moves.last().unwrap();
    assert!(
        last.comment
            .as_deref()
            .is_some_and(|c| c.contains("checkmated"))
    );
}
