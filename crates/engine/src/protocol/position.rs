//! The `position` command: a start position (`startpos` or `fen …`) and the moves played
//! from it. Reading it checks the words; [`PositionCommand::replay`] checks that each move is
//! legal where it is played.

use std::fmt;
use xiangqi_rules::explain::IllegalMove;
use xiangqi_rules::{FenError, Move, ParseMoveError, Position, RankBase};

/// A `position` command's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The position the moves start from.
    pub start: Position,
    /// The moves played from it, in order.
    pub moves: Vec<Move>,
}

/// What is wrong with a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The setup is neither `startpos` nor `fen <FEN>`.
    Setup {
        /// The words before `moves`.
        text: String,
    },
    /// The FEN is not a position.
    Fen(FenError),
    /// A word after `moves` is not a move.
    MoveText {
        /// Which move, counting from 1.
        number: usize,
        /// What is wrong with it.
        error: ParseMoveError,
    },
    /// A move is not legal in the position where it is played.
    IllegalMove {
        /// Which move, counting from 1.
        number: usize,
        /// The move.
        mv: Move,
        /// The position it was played in.
        fen: String,
        /// The rule it breaks.
        reason: IllegalMove,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Setup { text } => {
                write!(f, "position needs 'startpos' or 'fen <FEN>', got '{text}'")
            }
            PositionError::Fen(error) => write!(f, "bad FEN: {error}"),
            PositionError::MoveText { number, error } => write!(f, "move {number}: {error}"),
            PositionError::IllegalMove {
                number,
                mv,
                fen,
                reason,
            } => write!(f, "move {number} '{mv}' is not legal in {fen}: {reason}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A position reached by a `position` command, with how it was reached since the last
/// capture.
#[derive(Clone, Debug)]
pub struct ParsedPosition {
    /// The position reached.
    pub position: Position,
    /// Hashes of the positions since the last capture, oldest first, not the current one.
    pub history: Vec<u64>,
    /// The move played from each of those positions.
    pub history_moves: Vec<Move>,
}

impl PositionCommand {
    /// Reads the words after `position`: `startpos` or `fen <FEN>`, then optionally `moves`
    /// and moves with ranks numbered from `ranks`.
    pub fn parse(rest: &str, ranks: RankBase) -> Result<PositionCommand, PositionError> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let split = words
            .iter()
            .position(|w| *w == "moves")
            .unwrap_or(words.len());
        let (setup, moves) = (&words[..split], words.get(split + 1..).unwrap_or(&[]));
        let start = match setup {
            ["startpos"] => Position::startpos(),
            ["fen", fen @ ..] if !fen.is_empty() => {
                Position::from_fen(&fen.join(" ")).map_err(PositionError::Fen)?
            }
            _ => {
                return Err(PositionError::Setup {
                    text: setup.join(" "),
                });
            }
        };
        let moves = moves
            .iter()
            .enumerate()
            .map(|(i, text)| {
                Move::parse_coordinates(text, ranks).map_err(|error| PositionError::MoveText {
                    number: i + 1,
                    error,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(PositionCommand { start, moves })
    }

    /// The command: `position fen <FEN>` and, when there are any, `moves …` with ranks
    /// numbered from `ranks`.
    pub fn format(&self, ranks: RankBase) -> String {
        let mut line = format!("position fen {}", self.start.to_fen());
        if !self.moves.is_empty() {
            line.push_str(" moves");
            for m in &self.moves {
                line.push(' ');
                line.push_str(&m.coordinates(ranks));
            }
        }
        line
    }

    /// Plays the moves from the start, checking each; the history kept is what followed the
    /// last capture.
    pub fn replay(&self) -> Result<ParsedPosition, PositionError> {
        let mut position = self.start.clone();
        let mut history = Vec::new();
        let mut history_moves = Vec::new();
        for (i, &m) in self.moves.iter().enumerate() {
            if let Err(reason) = position.check_move(m.from(), m.to()) {
                return Err(PositionError::IllegalMove {
                    number: i + 1,
                    mv: m,
                    fen: position.to_fen(),
                    reason,
                });
            }
            history.push(position.hash());
            history_moves.push(m);
            position.make_move(m);
            if position.halfmove_clock() == 0 {
                history.clear();
                history_moves.clear();
            }
        }
        Ok(ParsedPosition {
            position,
            history,
            history_moves,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn startpos_and_fen_with_moves_are_read() {
        let command = PositionCommand::parse("startpos moves h2e2 h9g7", RankBase::Zero).unwrap();
        assert_eq!(command.start, Position::startpos());
        assert_eq!(command.moves, [mv("h2e2"), mv("h9g7")]);
        let fen = "3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1";
        let command =
            PositionCommand::parse(&format!("fen {fen} moves a1a10"), RankBase::One).unwrap();
        assert_eq!(command.start, Position::from_fen(fen).unwrap());
        assert_eq!(command.moves, [mv("a0a9")]);
        assert_eq!(
            command.format(RankBase::One),
            format!("position fen {fen} moves a1a10")
        );
        assert_eq!(
            PositionCommand::parse("startpos", RankBase::Zero)
                .unwrap()
                .moves,
            []
        );
    }

    #[test]
    fn bad_setups_and_move_words_are_named() {
        let setup = |rest| PositionCommand::parse(rest, RankBase::Zero).unwrap_err();
        assert!(matches!(
            setup("startpos h2e2"),
            PositionError::Setup { .. }
        ));
        assert!(matches!(setup("fen"), PositionError::Setup { .. }));
        assert!(matches!(setup("fen 9/9 w"), PositionError::Fen(_)));
        let error = setup("startpos moves h2e2 zz99");
        assert!(
            matches!(error, PositionError::MoveText { number: 2, .. }),
            "{error:?}"
        );
        assert!(error.to_string().contains("'zz99'"), "{error}");
    }

    #[test]
    fn replay_refuses_an_illegal_move_and_keeps_history_since_the_last_capture() {
        let command = PositionCommand::parse("startpos moves h2e2 h2e2", RankBase::Zero).unwrap();
        let error = command.replay().unwrap_err();
        assert!(
            matches!(error, PositionError::IllegalMove { number: 2, .. }),
            "{error:?}"
        );
        let message = error.to_string();
        assert!(
            message.starts_with("move 2 'h2e2' is not legal in "),
            "{message}"
        );
        let command =
            PositionCommand::parse("startpos moves h2e2 h9g7 e2e6 a9a8", RankBase::Zero).unwrap();
        let parsed = command.replay().unwrap();
        // e2e6 captures: only a9a8 is left in the history.
        assert_eq!(parsed.history_moves, [mv("a9a8")]);
        assert_eq!(parsed.history.len(), 1);
    }
}
