//! How a position stands: play goes on, or the side to move has lost by mate or stalemate.

use crate::piece::Color;
use crate::position::Position;

/// The state of the game as far as the position alone tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    /// The side to move has a legal move.
    Ongoing,
    /// The side to move is in check and has no legal move: it loses.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move is not in check but has no legal move: in Xiangqi it loses too.
    Stalemate {
        /// The side that is not stalemated.
        winner: Color,
    },
}

impl GameStatus {
    /// The winner, if the game is over.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameStatus::Ongoing => None,
            GameStatus::Checkmate { winner } | GameStatus::Stalemate { winner } => Some(winner),
        }
    }
}

impl Position {
    /// Whether the side to move has been mated or stalemated (both lose).
    pub fn status(&self) -> GameStatus {
        if self.has_legal_move() {
            return GameStatus::Ongoing;
        }
        let winner = self.side_to_move().opponent();
        if self.in_check() {
            GameStatus::Checkmate { winner }
        } else {
            GameStatus::Stalemate { winner }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_ongoing() {
        assert_eq!(Position::startpos().status(), GameStatus::Ongoing);
    }

    #[test]
    fn checkmate_loses() {
        // Two chariots: one checks on the e-file, the other holds the d-file and rank.
        let pos = Position::from_fen("3k5/4R4/3R5/9/9/9/9/9/9/5K3 b").unwrap();
        assert!(pos.in_check());
        assert_eq!(pos.status(), GameStatus::Checkmate { winner: Color::Red });
    }

    #[test]
    fn stalemate_loses_too() {
        // Black's general on d9 is not attacked, but the soldier on d7 covers d8 and the
        // chariot on e0 covers e9, and Black has nothing else to move.
        let pos = Position::from_fen("3k5/9/3P5/9/9/9/9/9/9/4RK3 b").unwrap();
        assert!(!pos.in_check());
        assert!(pos.legal_moves().is_empty(), "{:?}", pos.legal_moves());
        assert_eq!(pos.status(), GameStatus::Stalemate { winner: Color::Red });
        assert_eq!(pos.status().winner(), Some(Color::Red));
    }
}
