//! Score adjudication: a game is given to one side when both engines have reported a decisive
//! score for it for several moves in a row.

use crate::outcome::{GameEnd, Termination};
use std::fmt;
use xiangqi_engine::protocol::Reported;
use xiangqi_rules::Color;

/// When to adjudicate: both engines report at least `score` centipawns for the same side for
/// `moves` moves each in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreRule {
    /// The threshold in centipawns.
    pub score: i32,
    /// Moves in a row for each engine.
    pub moves: u32,
}

/// Why a score rule could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreRuleError {
    /// A value is not a positive whole number.
    NotPositive {
        /// The whole `key=value` word.
        word: String,
    },
    /// A word is neither `score=N` nor `moves=M`.
    UnknownSetting {
        /// The word.
        word: String,
    },
    /// No `score=N`.
    NoScore,
}

impl fmt::Display for ScoreRuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoreRuleError::NotPositive { word } => {
                write!(f, "adjudication '{word}': expected a positive number")
            }
            ScoreRuleError::UnknownSetting { word } => {
                write!(f, "adjudication setting '{word}' is not score=N or moves=M")
            }
            ScoreRuleError::NoScore => f.write_str("adjudication needs score=N (centipawns)"),
        }
    }
}

impl std::error::Error for ScoreRuleError {}

impl ScoreRule {
    /// Reads `score=N moves=M` words (either order; `moves` defaults to 6).
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<ScoreRule, ScoreRuleError> {
        let mut score = None;
        let mut moves = 6;
        for word in words {
            let word = word.as_ref();
            let number = |v: &str| -> Result<u32, ScoreRuleError> {
                v.parse::<u32>().ok().filter(|n| *n > 0).ok_or_else(|| {
                    ScoreRuleError::NotPositive {
                        word: word.to_string(),
                    }
                })
            };
            match word.split_once('=') {
                Some(("score", v)) => score = Some(number(v)?),
                Some(("moves" | "movecount", v)) => moves = number(v)?,
                _ => {
                    return Err(ScoreRuleError::UnknownSetting {
                        word: word.to_string(),
                    });
                }
            }
        }
        let score = score.ok_or(ScoreRuleError::NoScore)?;
        Ok(ScoreRule {
            score: score.min(i32::MAX as u32) as i32,
            moves,
        })
    }
}

/// Follows the scores of one game.
#[derive(Clone, Debug)]
pub struct ScoreAdjudicator {
    rule: ScoreRule,
    /// Scores from Red's point of view, one per ply, `None` when the engine gave none.
    red_scores: Vec<Option<i32>>,
}

impl ScoreAdjudicator {
    /// An adjudicator applying `rule`.
    pub fn new(rule: ScoreRule) -> ScoreAdjudicator {
        ScoreAdjudicator {
            rule,
            red_scores: Vec::new(),
        }
    }

    /// Records the score the engine playing `mover` reported for its move; returns the
    /// outcome when the game is now adjudicated.
    pub fn record(&mut self, mover: Color, score: Option<Reported>) -> Option<GameEnd> {
        let red_score = score.map(|s| match mover {
            Color::Red => s.centipawns(),
            Color::Black => -s.centipawns(),
        });
        self.red_scores.push(red_score);
        let window = 2 * self.rule.moves as usize;
        if self.red_scores.len() < window {
            return None;
        }
        let recent = &self.red_scores[self.red_scores.len() - window..];
        let threshold = self.rule.score;
        let loser = if recent.iter().all(|s| s.is_some_and(|s| s >= threshold)) {
            Color::Black
        } else if recent.iter().all(|s| s.is_some_and(|s| s <= -threshold)) {
            Color::Red
        } else {
            return None;
        };
        Some(GameEnd::loss(
            loser,
            Termination::Adjudication {
                loser,
                score: threshold,
                moves: self.rule.moves,
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::GameResult;

    #[test]
    fn rule_is_read_from_words() {
        assert_eq!(
            ScoreRule::parse(&["score=1000", "moves=6"]),
            Ok(ScoreRule {
                score: 1000,
                moves: 6
            })
        );
        assert_eq!(ScoreRule::parse(&["score=800"]).unwrap().moves, 6);
        assert_eq!(ScoreRule::parse(&["moves=3"]), Err(ScoreRuleError::NoScore));
        assert_eq!(
            ScoreRule::parse(&["score=x"]),
            Err(ScoreRuleError::NotPositive {
                word: "score=x".into()
            })
        );
        assert_eq!(
            ScoreRule::parse(&["depth=3"]),
            Err(ScoreRuleError::UnknownSetting {
                word: "depth=3".into()
            })
        );
    }

    #[test]
    fn both_engines_must_agree_for_enough_moves() {
        let rule = ScoreRule {
            score: 500,
            moves: 2,
        };
        let mut a = ScoreAdjudicator::new(rule);
        let cp = |v| Some(Reported::Cp(v));
        // Red thinks it wins, Black agrees (Black's own score is negative).
        assert_eq!(a.record(Color::Red, cp(600)), None);
        assert_eq!(a.record(Color::Black, cp(-700)), None);
        assert_eq!(a.record(Color::Red, cp(900)), None);
        let outcome = a.record(Color::Black, Some(Reported::Mate(-4))).unwrap();
        assert_eq!(outcome.result, GameResult::RedWins);
    }

    #[test]
    fn a_missing_or_small_score_resets_the_count() {
        let rule = ScoreRule {
            score: 500,
            moves: 1,
        };
        let mut a = ScoreAdjudicator::new(rule);
        let cp = |v| Some(Reported::Cp(v));
        assert_eq!(a.record(Color::Red, cp(-600)), None);
        assert_eq!(a.record(Color::Black, None), None);
        assert_eq!(a.record(Color::Red, cp(-600)), None);
        assert_eq!(a.record(Color::Black, cp(100)), None);
        assert_eq!(a.record(Color::Red, cp(-600)), None);
        let outcome = a.record(Color::Black, cp(650)).unwrap();
        assert_eq!(outcome.result, GameResult::BlackWins);
    }
}
