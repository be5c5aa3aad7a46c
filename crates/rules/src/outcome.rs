//! How a game ends: the result, and the reason as data ([`EndReason::code`] for translation
//! tables, the fields for the blanks, `Display` for plain English).

use crate::piece::Color;
use crate::repetition::{RuleSet, Verdict};
use std::fmt;

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Red wins.
    RedWins,
    /// Black wins.
    BlackWins,
    /// Neither side wins.
    Draw,
}

impl GameResult {
    /// The result where `winner` wins.
    pub const fn win_for(winner: Color) -> GameResult {
        match winner {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// `red-wins`, `black-wins` or `draw`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::RedWins => "red-wins",
            GameResult::BlackWins => "black-wins",
            GameResult::Draw => "draw",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Text that is not one of [`GameResult::as_str`]'s words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseResultError(pub String);

impl fmt::Display for ParseResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a result: it is red-wins, black-wins or draw",
            self.0
        )
    }
}

impl std::error::Error for ParseResultError {}

impl std::str::FromStr for GameResult {
    type Err = ParseResultError;

    /// Reads `red-wins`, `black-wins` or `draw`.
    fn from_str(text: &str) -> Result<GameResult, ParseResultError> {
        [GameResult::RedWins, GameResult::BlackWins, GameResult::Draw]
            .into_iter()
            .find(|r| r.as_str() == text)
            .ok_or_else(|| ParseResultError(text.to_string()))
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate {
        /// The mated side.
        loser: Color,
    },
    /// The side to move is not in check but has no legal move; it loses.
    Stalemate {
        /// The stalemated side.
        loser: Color,
    },
    /// A ruling on perpetual checks, chases or a repetition.
    Verdict(Verdict),
    /// No capture for the given number of plies (Asian rules: 60 moves each).
    NoCapture {
        /// The limit that was reached, in plies.
        plies: u32,
    },
    /// Neither side has pieces left that could mate.
    InsufficientMaterial,
    /// CXQ efficiency: each side made this many effective moves (not checks, not attacks and
    /// not replies to checks or attacks).
    CxqEfficiency {
        /// The effective moves each side made.
        moves: u32,
    },
    /// CXQ progress: each side made this many moves since the last capture or forward move of
    /// a crossed soldier.
    CxqProgress {
        /// The moves each side made without progress.
        moves: u32,
    },
    /// CXQ move limit: each side made this many moves.
    CxqMoveLimit {
        /// The moves each side made.
        moves: u32,
    },
}

impl EndReason {
    /// A stable key for translation tables, e.g. `"checkmate"` or `"perpetual-chase"`.
    pub fn code(&self) -> &'static str {
        match self {
            EndReason::Checkmate { .. } => "checkmate",
            EndReason::Stalemate { .. } => "stalemate",
            EndReason::Verdict(v) => v.kind.code(),
            EndReason::NoCapture { .. } => "no-capture",
            EndReason::InsufficientMaterial => "insufficient-material",
            EndReason::CxqEfficiency { .. } => "cxq-efficiency",
            EndReason::CxqProgress { .. } => "cxq-progress",
            EndReason::CxqMoveLimit { .. } => "cxq-move-limit",
        }
    }

    /// The rule set a verdict was made under, if the reason is a verdict.
    pub fn rules(&self) -> Option<RuleSet> {
        match self {
            EndReason::Verdict(v) => Some(v.rules),
            _ => None,
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::Checkmate { loser } => write!(f, "{loser} is checkmated"),
            EndReason::Stalemate { loser } => {
                write!(f, "{loser} has no legal move (stalemate loses)")
            }
            EndReason::Verdict(v) => write!(f, "{v}"),
            EndReason::NoCapture { plies } => write!(
                f,
                "no capture in {} moves by each side ({plies} plies)",
                plies / 2
            ),
            EndReason::InsufficientMaterial => {
                write!(f, "neither side has pieces left that can mate")
            }
            EndReason::CxqEfficiency { moves } => write!(
                f,
                "each side made {moves} effective moves (CXQ efficiency rule)"
            ),
            EndReason::CxqProgress { moves } => write!(
                f,
                "each side made {moves} moves without a capture or a crossed soldier's advance \
                 (CXQ progress rule)"
            ),
            EndReason::CxqMoveLimit { moves } => {
                write!(f, "each side made {moves} moves (CXQ move limit)")
            }
        }
    }
}

/// A finished game: its result, why, and the ply (from 1) after which it ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: EndReason,
    /// The number of moves played when it ended.
    pub ply: usize,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.result, self.reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_back_their_words_and_refuse_others() {
        for r in [GameResult::RedWins, GameResult::BlackWins, GameResult::Draw] {
            assert_eq!(r.as_str().parse::<GameResult>(), Ok(r));
        }
        let err = "1-0".parse::<GameResult>().unwrap_err();
        assert_eq!(err, ParseResultError("1-0".to_string()));
        assert!(err.to_string().contains("red-wins, black-wins or draw"));
    }
}
