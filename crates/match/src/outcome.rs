//! How a game of a match ended: the result and the reason — one of the rules' endings (mate,
//! stalemate, a repetition verdict, a draw rule) or an engine's failure — in words and as PGN
//! tags.

use crate::player::Fault;
use std::fmt;
use std::time::Duration;
use xiangqi_rules::explain::IllegalMove;
use xiangqi_rules::{Color, EndReason, ParseMoveError};

pub use xiangqi_rules::GameResult;

/// The points `side` scores with `result`: 1, ½ or 0.
pub fn points_for(result: GameResult, side: Color) -> f64 {
    match result.winner() {
        Some(winner) if winner == side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// Why a move an engine answered with does not stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveFault {
    /// The word after `bestmove` is not a move in coordinate notation.
    Unreadable(ParseMoveError),
    /// The move breaks a rule in the position.
    Illegal(IllegalMove),
}

impl fmt::Display for MoveFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveFault::Unreadable(error) => write!(f, "{error}"),
            MoveFault::Illegal(reason) => write!(f, "{reason}"),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The rules ended the game: mate, stalemate, a repetition verdict or a draw rule.
    Rules(EndReason),
    /// The game reached the longest length allowed: a draw.
    MaxPlies {
        /// The limit reached.
        plies: u32,
    },
    /// Both engines agreed for several moves that one side is winning.
    Adjudication {
        /// The side judged lost.
        loser: Color,
        /// The threshold both scores passed, in centipawns.
        score: i32,
        /// Moves in a row each engine reported it.
        moves: u32,
    },
    /// An engine answered with a move that is not legal (or not a move at all).
    IllegalMove {
        /// The side that played it.
        side: Color,
        /// What the engine wrote.
        text: String,
        /// Why it does not stand.
        why: MoveFault,
    },
    /// An engine answered `bestmove (none)` / `nobestmove` although it had legal moves.
    NoMove {
        /// The side that gave no move.
        side: Color,
    },
    /// An engine crashed, hung or could not start.
    Fault {
        /// The side of the faulty engine.
        side: Color,
        /// What happened.
        fault: Fault,
    },
    /// An engine overran its clock.
    TimeForfeit {
        /// The side that lost on time.
        side: Color,
        /// Time the move took.
        used: Duration,
        /// Time it had.
        had: Duration,
    },
}

impl Termination {
    /// The PGN `Termination` tag value.
    pub fn pgn_tag(&self) -> &'static str {
        match self {
            Termination::Rules(_) | Termination::MaxPlies { .. } => "normal",
            Termination::Adjudication { .. } => "adjudication",
            Termination::IllegalMove { .. } | Termination::NoMove { .. } => "rules infraction",
            Termination::Fault {
                fault: Fault::Hang { .. },
                ..
            } => "stalled connection",
            Termination::Fault { .. } => "abandoned",
            Termination::TimeForfeit { .. } => "time forfeit",
        }
    }

    /// Whether the game ended because an engine misbehaved (crash, hang, illegal move, time).
    pub fn is_engine_failure(&self) -> bool {
        matches!(
            self,
            Termination::IllegalMove { .. }
                | Termination::NoMove { .. }
                | Termination::Fault { .. }
                | Termination::TimeForfeit { .. }
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(reason) => write!(f, "{reason}"),
            Termination::MaxPlies { plies } => write!(f, "draw: the game reached {plies} plies"),
            Termination::Adjudication {
                loser,
                score,
                moves,
            } => write!(
                f,
                "adjudicated: both engines scored {loser} below -{score} cp for {moves} moves"
            ),
            Termination::IllegalMove { side, text, why } => {
                write!(f, "{side} played an illegal move '{text}': {why}")
            }
            Termination::NoMove { side } => {
                write!(f, "{side} returned no move although it had legal moves")
            }
            Termination::Fault { side, fault } => write!(f, "{side} engine {fault}"),
            Termination::TimeForfeit { side, used, had } => write!(
                f,
                "{side} lost on time: the move took {:.3} s with {:.3} s on the clock",
                used.as_secs_f64(),
                had.as_secs_f64()
            ),
        }
    }
}

/// The end of a game: result and reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// Who won.
    pub result: GameResult,
    /// Why.
    pub termination: Termination,
}

impl GameEnd {
    /// A loss for `loser` for `termination`.
    pub fn loss(loser: Color, termination: Termination) -> GameEnd {
        GameEnd {
            result: GameResult::win_for(loser.opponent()),
            termination,
        }
    }

    /// A draw for `termination`.
    pub fn draw(termination: Termination) -> GameEnd {
        GameEnd {
            result: GameResult::Draw,
            termination,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_score_each_side() {
        assert_eq!(points_for(GameResult::RedWins, Color::Red), 1.0);
        assert_eq!(points_for(GameResult::RedWins, Color::Black), 0.0);
        assert_eq!(points_for(GameResult::Draw, Color::Black), 0.5);
    }

    #[test]
    fn terminations_name_the_reason() {
        let t = Termination::Fault {
            side: Color::Black,
            fault: Fault::Crash(crate::process::ProcessEnd::Exited(3)),
        };
        assert_eq!(
            t.to_string(),
            "Black engine crashed: it exited with status 3"
        );
        assert_eq!(t.pgn_tag(), "abandoned");
        assert!(t.is_engine_failure());
        let t = Termination::Rules(EndReason::Stalemate { loser: Color::Red });
        assert_eq!(t.pgn_tag(), "normal");
        assert_eq!(t.to_string(), "Red has no legal move (stalemate loses)");
        assert!(!t.is_engine_failure());
    }
}
