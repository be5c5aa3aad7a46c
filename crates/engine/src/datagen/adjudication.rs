//! Ending self-play games early from the search scores: a win when both sides agree one side
//! is far ahead (or a mate is announced), a draw when a long game has stayed level, and a
//! draw at a ply cap. The rules' own endings (mate, stalemate, repetition verdicts, the
//! no-capture draw) are judged by the game itself before these.

use super::format::is_stored_mate;
use xiangqi_rules::{Color, GameResult};

/// When a self-play game is adjudicated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdjudicationRules {
    /// A side wins when every score of the last `win_plies` plies gives it at least this
    /// many centipawns.
    pub win_score: i16,
    /// Plies in a row the win score must hold (both sides' searches, so an even number).
    pub win_plies: usize,
    /// The game is drawn when every score of the last `draw_plies` plies is at most this
    /// far from 0 ...
    pub draw_score: i16,
    /// ... for this many plies in a row ...
    pub draw_plies: usize,
    /// ... once the game has at least this many plies.
    pub draw_after: usize,
    /// The game is drawn when it reaches this many plies.
    pub max_plies: usize,
}

impl Default for AdjudicationRules {
    fn default() -> Self {
        AdjudicationRules {
            win_score: 1000,
            win_plies: 4,
            draw_score: 10,
            draw_plies: 16,
            draw_after: 80,
            max_plies: 400,
        }
    }
}

/// Watches the scores of one game, ply by ply.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: AdjudicationRules,
    plies: usize,
    /// Plies in a row that Red's view has been at least the win score.
    red_ahead: usize,
    /// Plies in a row that Black's view has been at least the win score.
    black_ahead: usize,
    /// Plies in a row that the score has been within the draw margin.
    level: usize,
}

impl Adjudicator {
    /// An adjudicator for a new game.
    pub fn new(rules: AdjudicationRules) -> Adjudicator {
        Adjudicator {
            rules,
            plies: 0,
            red_ahead: 0,
            black_ahead: 0,
            level: 0,
        }
    }

    /// Records the stored score (from `mover`'s view) of the position `mover` just moved
    /// from, and says whether the game is now adjudicated.
    pub fn record(&mut self, mover: Color, score: i16) -> Option<GameResult> {
        self.plies += 1;
        if is_stored_mate(score) {
            let winner = if score > 0 { mover } else { mover.opponent() };
            return Some(GameResult::win_for(winner));
        }
        let red_view = match mover {
            Color::Red => score,
            Color::Black => -score,
        };
        let rules = &self.rules;
        self.red_ahead = if red_view >= rules.win_score {
            self.red_ahead + 1
        } else {
            0
        };
        self.black_ahead = if red_view <= -rules.win_score {
            self.black_ahead + 1
        } else {
            0
        };
        self.level = if red_view.abs() <= rules.draw_score {
            self.level + 1
        } else {
            0
        };
        if self.red_ahead >= rules.win_plies {
            Some(GameResult::RedWins)
        } else if self.black_ahead >= rules.win_plies {
            Some(GameResult::BlackWins)
        } else if (self.plies >= rules.draw_after && self.level >= rules.draw_plies)
            || self.plies >= rules.max_plies
        {
            Some(GameResult::Draw)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::format::SCORE_CLAMP;

    /// Feeds scores from alternating movers (Red first) and returns the ply (from 1) and the
    /// result of the first adjudication.
    fn adjudicate(scores: &[i16]) -> Option<(usize, GameResult)> {
        let mut adjudicator = Adjudicator::new(AdjudicationRules::default());
        let mut mover = Color::Red;
        for (ply, &score) in scores.iter().enumerate() {
            if let Some(result) = adjudicator.record(mover, score) {
                return Some((ply + 1, result));
            }
            mover = mover.opponent();
        }
        None
    }

    #[test]
    fn a_win_needs_four_plies_of_agreement() {
        // Red +1200, Black sees -1200 for itself: both agree Red is winning.
        assert_eq!(
            adjudicate(&[50, -40, 1200, -1200, 1100, -1000]),
            Some((6, GameResult::RedWins))
        );
        // One ply below the threshold restarts the count.
        assert_eq!(adjudicate(&[1200, -1200, 1200, -999, 1200, -1200]), None);
        // Black's win, seen from both sides.
        assert_eq!(
            adjudicate(&[-1500, 1500, -1500, 1500]),
            Some((4, GameResult::BlackWins))
        );
    }

    #[test]
    fn a_mate_score_ends_the_game_at_once() {
        assert_eq!(
            adjudicate(&[20, SCORE_CLAMP]),
            Some((2, GameResult::BlackWins))
        );
        assert_eq!(
            adjudicate(&[20, -SCORE_CLAMP]),
            Some((2, GameResult::RedWins))
        );
    }

    #[test]
    fn a_level_game_is_drawn_only_after_the_opening_phase() {
        let level = vec![5i16; 79];
        assert_eq!(adjudicate(&level), None);
        let mut level = vec![5i16; 80];
        assert_eq!(adjudicate(&level), Some((80, GameResult::Draw)));
        // A score outside the margin at ply 70 delays the draw to 16 plies after it.
        level[69] = 11;
        level.resize(200, 0);
        assert_eq!(adjudicate(&level), Some((86, GameResult::Draw)));
    }

    #[test]
    fn the_ply_cap_draws() {
        let scores: Vec<i16> = (0..500)
            .map(|i| if i % 2 == 0 { 300 } else { -300 })
            .collect();
        assert_eq!(adjudicate(&scores), Some((400, GameResult::Draw)));
    }
}
