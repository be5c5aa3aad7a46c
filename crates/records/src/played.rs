//! The bridge between played games and records: a game of the rules (`xiangqi_rules::Game`)
//! becomes a record with its result and the reason it ended, and a record's main line is
//! played again under the rules.

use crate::error::UnplayableMove;
use crate::game::{Game, Line, MoveNumber};
use xiangqi_rules::{GameRules, Outcome};

/// The sentence a record gives for why a game ended: the rules' reason with a capital and a
/// full stop, e.g. `Black is checkmated.`
pub fn end_comment(outcome: &Outcome) -> String {
    let reason = outcome.reason.to_string();
    let mut chars = reason.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => reason,
    }
}

impl Game {
    /// The record of a played game: its start, the moves played (not those taken back), the
    /// result, and for a finished game the reason it ended ([`end_comment`]) as the comment
    /// after its last move. No tags.
    pub fn from_played(game: &xiangqi_rules::Game) -> Game {
        let mut record = Game::new(game.start().clone());
        record.moves = Line::from_moves(game.moves().iter().copied());
        if let Some(outcome) = game.outcome() {
            record.result = Some(outcome.result);
            record.add_final_comment(&end_comment(outcome));
        }
        record
    }

    /// Adds `text` after the last move of the main line (on the game when it has no move),
    /// a line below what is already said there.
    pub fn add_final_comment(&mut self, text: &str) {
        let slot = match self.moves.moves.last_mut() {
            Some(last) => &mut last.comment,
            None => &mut self.moves.comment,
        };
        *slot = Some(match slot.take() {
            Some(before) => format!("{before}\n{text}"),
            None => text.to_string(),
        });
    }

    /// The main line played under `rules` from the start position: the rules' game, with
    /// its verdicts. The first move the rules do not allow is the error, with the rule it
    /// breaks.
    pub fn replay(&self, rules: GameRules) -> Result<xiangqi_rules::Game, UnplayableMove> {
        let mut game = xiangqi_rules::Game::with_rules(self.start.clone(), rules);
        for (ply, mv) in self.mainline().enumerate() {
            game.play(mv).map_err(|reason| UnplayableMove {
                number: MoveNumber::of_ply(&self.start, ply),
                mv,
                reason,
            })?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::mv;
    use xiangqi_rules::{GameResult, Position};

    #[test]
    fn a_mated_game_keeps_its_result_and_reason() {
        let mut played = xiangqi_rules::Game::with_rules(
            Position::from_fen("3k5/2R6/9/9/9/9/9/9/9/4K3R w - - 0 1").unwrap(),
            GameRules::default(),
        );
        played.play(mv("i0i9")).unwrap();
        assert!(played.is_over());
        let record = Game::from_played(&played);
        assert_eq!(record.result, Some(GameResult::RedWins));
        assert_eq!(record.mainline().collect::<Vec<_>>(), [mv("i0i9")]);
        assert_eq!(
            record.moves.moves[0].comment.as_deref(),
            Some("Black is checkmated.")
        );
        let again = record.replay(GameRules::default()).unwrap();
        assert_eq!(again.moves(), played.moves());
        assert_eq!(again.outcome(), played.outcome());
    }

    #[test]
    fn an_unfinished_game_has_no_result_and_no_comment() {
        let mut played = xiangqi_rules::Game::new(Position::startpos());
        played.play(mv("h2e2")).unwrap();
        let record = Game::from_played(&played);
        assert_eq!(record.result, None);
        assert_eq!(record.moves.moves[0].comment, None);
    }

    #[test]
    fn replaying_names_the_illegal_move_and_its_rule() {
        let mut record = Game::new(Position::startpos());
        record.moves = Line::from_moves([mv("h2e2"), mv("h9g7"), mv("a0a5")]);
        let e = record.replay(GameRules::default()).unwrap_err();
        assert_eq!(e.number.to_string(), "2.");
        assert_eq!(e.mv, mv("a0a5"));
        assert_eq!(e.reason.code(), "chariot-path-blocked");
    }

    #[test]
    fn a_final_comment_goes_below_the_last_one() {
        let mut record = Game::new(Position::startpos());
        record.add_final_comment("no moves");
        assert_eq!(record.moves.comment.as_deref(), Some("no moves"));
        record.moves = Line::from_moves([mv("h2e2")]);
        record.moves.moves[0].comment = Some("+0.10/5 0.100s".to_string());
        record.add_final_comment("adjudicated");
        assert_eq!(
            record.moves.moves[0].comment.as_deref(),
            Some("+0.10/5 0.100s\nadjudicated")
        );
    }
}
