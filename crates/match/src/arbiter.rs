//! The arbiter: checks every move an engine plays and says when and how the game ends. The
//! rules crate's [`Game`] judges — mate, stalemate (a loss for the stalemated side), perpetual
//! check and chase under the chosen rule set, and its draw rules; the arbiter adds the match's
//! own length limit.

use crate::outcome::{GameEnd, Termination};
use xiangqi_rules::draw::NO_CAPTURE_PLIES;
use xiangqi_rules::explain::IllegalMove;
use xiangqi_rules::{Game, GameRules, Move, Position};

pub use xiangqi_rules::RuleSet;

/// The draw limits the arbiter applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRules {
    /// Plies without a capture after which the game is drawn (Asian rules).
    pub no_capture_plies: u32,
    /// Plies after which the game is drawn whatever happens (0: no limit).
    pub max_plies: u32,
}

impl Default for DrawRules {
    fn default() -> DrawRules {
        DrawRules {
            no_capture_plies: NO_CAPTURE_PLIES,
            max_plies: 0,
        }
    }
}

/// Watches one game from its start position.
pub struct Arbiter {
    game: Game,
    max_plies: u32,
}

impl Arbiter {
    /// An arbiter for a game starting at `start`.
    pub fn new(start: Position, rules: RuleSet, draw_rules: DrawRules) -> Arbiter {
        let game_rules = GameRules {
            no_capture_plies: draw_rules.no_capture_plies,
            ..GameRules::new(rules)
        };
        Arbiter {
            game: Game::with_rules(start, game_rules),
            max_plies: draw_rules.max_plies,
        }
    }

    /// The rule set in force.
    pub fn rules(&self) -> RuleSet {
        self.game.rules().rule_set
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The outcome if the start position is already over (mate, stalemate, no material).
    pub fn verdict_at_start(&self) -> Option<GameEnd> {
        self.game.outcome().map(rules_outcome)
    }

    /// Plays `m` for the side to move. Returns the rule it breaks, or the outcome if the game
    /// is now over.
    pub fn play(&mut self, m: Move) -> Result<Option<GameEnd>, IllegalMove> {
        self.game.play(m)?;
        if let Some(outcome) = self.game.outcome() {
            return Ok(Some(rules_outcome(outcome)));
        }
        if self.max_plies > 0 && self.game.len() >= self.max_plies as usize {
            return Ok(Some(GameEnd::draw(Termination::MaxPlies {
                plies: self.max_plies,
            })));
        }
        Ok(None)
    }
}

fn rules_outcome(outcome: &xiangqi_rules::Outcome) -> GameEnd {
    GameEnd {
        result: outcome.result,
        termination: Termination::Rules(outcome.reason.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::GameResult;
    use xiangqi_rules::{Color, EndReason, VerdictKind};

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    fn arbiter(fen: &str, rules: RuleSet) -> Arbiter {
        Arbiter::new(
            Position::from_fen(fen).unwrap(),
            rules,
            DrawRules::default(),
        )
    }

    #[test]
    fn illegal_moves_are_refused_with_a_reason() {
        let mut a = arbiter(xiangqi_rules::START_FEN, RuleSet::Asian);
        let why = a.play(mv("e3e5")).unwrap_err();
        assert!(!why.to_string().is_empty());
        assert!(a.play(mv("a0a5")).is_err());
        assert_eq!(a.play(mv("h2e2")), Ok(None));
    }

    #[test]
    fn mate_ends_the_game() {
        // The chariot on e8 covers d8 and e9; the other chariot checks on the d-file.
        let mut a = arbiter("3k5/4R4/2R6/9/9/9/9/9/9/5K3 w", RuleSet::Asian);
        let outcome = a.play(mv("c7d7")).unwrap().unwrap();
        assert_eq!(outcome.result, GameResult::RedWins);
        assert_eq!(
            outcome.termination,
            Termination::Rules(EndReason::Checkmate {
                loser: Color::Black
            })
        );
    }

    #[test]
    fn stalemate_loses() {
        // After e1e0 Black's general on d9 has no move: d8 is covered by the soldier on d7,
        // e9 by the chariot on the e-file.
        let mut a = arbiter("3k5/9/3P5/9/9/9/9/9/4R4/5K3 w", RuleSet::Asian);
        let outcome = a.play(mv("e1e0")).unwrap().unwrap();
        assert_eq!(outcome.result, GameResult::RedWins);
        assert_eq!(
            outcome.termination,
            Termination::Rules(EndReason::Stalemate {
                loser: Color::Black
            })
        );
    }

    #[test]
    fn quiet_repetition_is_a_draw_under_asian_rules() {
        let mut a = arbiter(xiangqi_rules::START_FEN, RuleSet::Asian);
        let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
        for m in cycle.iter().chain(cycle.iter().take(3)) {
            assert_eq!(a.play(mv(m)), Ok(None), "{m}");
        }
        let outcome = a.play(mv("g7h9")).unwrap().unwrap();
        assert_eq!(outcome.result, GameResult::Draw);
        assert!(
            matches!(&outcome.termination, Termination::Rules(EndReason::Verdict(v)) if v.kind == VerdictKind::Repetition),
            "{outcome:?}"
        );
    }

    #[test]
    fn perpetual_check_loses_under_asian_rules() {
        // Black's lone general shuttles between d9 and e9; Red's chariot follows it along the
        // first rank, checking on the d- and e-files every move.
        let mut a = arbiter("3k5/9/9/9/9/9/9/9/4R4/5K3 w", RuleSet::Asian);
        let cycle = ["e1d1", "d9e9", "d1e1", "e9d9"];
        let mut outcome = None;
        for m in cycle.iter().cycle().take(12) {
            if let Some(o) = a.play(mv(m)).unwrap() {
                outcome = Some(o);
                break;
            }
        }
        let outcome = outcome.expect("the repetition is judged");
        assert_eq!(outcome.result, GameResult::BlackWins, "{outcome:?}");
    }

    #[test]
    fn plies_without_capture_draw() {
        let mut a = arbiter("3k5/9/9/9/9/9/9/9/8r/R3K4 w - - 118 80", RuleSet::Asian);
        assert_eq!(a.play(mv("a0a1")), Ok(None));
        let outcome = a.play(mv("i1i2")).unwrap().unwrap();
        assert_eq!(
            outcome.termination,
            Termination::Rules(EndReason::NoCapture { plies: 120 })
        );
    }

    #[test]
    fn match_length_limit_draws() {
        let mut a = Arbiter::new(
            Position::startpos(),
            RuleSet::Cxq,
            DrawRules {
                no_capture_plies: NO_CAPTURE_PLIES,
                max_plies: 2,
            },
        );
        assert_eq!(a.play(mv("h2e2")), Ok(None));
        let outcome = a.play(mv("h9g7")).unwrap().unwrap();
        assert_eq!(outcome.termination, Termination::MaxPlies { plies: 2 });
        assert_eq!(a.rules(), RuleSet::Cxq);
    }

    #[test]
    fn rule_sets_are_read() {
        assert_eq!("asian".parse::<RuleSet>().ok(), Some(RuleSet::Asian));
        assert_eq!("CXQ".parse::<RuleSet>().ok(), Some(RuleSet::Cxq));
        assert!("fide".parse::<RuleSet>().is_err());
    }
}
