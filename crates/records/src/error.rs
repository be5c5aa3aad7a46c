//! What goes wrong reading or writing a record, and where.

use crate::game::{Game, MoveNumber, TreeError};
use std::fmt;
use xiangqi_rules::explain::IllegalMove;
use xiangqi_rules::notation::NotationError;
use xiangqi_rules::{FenError, Move, Position, Square};

/// Where in the input a problem lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A place in a text: line and column, both counted from 1; columns count characters.
    Text {
        /// The line, from 1.
        line: usize,
        /// The column, from 1, in characters.
        column: usize,
    },
    /// A byte offset in a binary file, from 0.
    Byte(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Text { line, column } => write!(f, "line {line}, column {column}"),
            Place::Byte(offset) => write!(f, "byte offset {offset} (0x{offset:X})"),
        }
    }
}

/// What is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input does not have the form the format requires here.
    Syntax {
        /// What the format requires here.
        expected: String,
        /// What stands there instead (at most 40 characters of it), empty at the end.
        found: String,
    },
    /// The input ends before the game does: the file was cut off.
    Truncated {
        /// What should have come next.
        expected: String,
    },
    /// A move of the record cannot be played.
    IllegalMove {
        /// Its number (`12.` for Red's twelfth move, `12...` for Black's).
        number: MoveNumber,
        /// The move as the record writes it.
        text: String,
        /// Why it cannot be played (boxed: it is large, and errors are passed around often).
        reason: Box<MoveError>,
    },
    /// The start position of the record is not a position of the game.
    BadPosition(PositionError),
    /// The bytes are not text in an encoding the reader knows (UTF-8, UTF-16 with a byte
    /// order mark, GBK, Big5).
    Encoding,
    /// Variations nest deeper than [`crate::MAX_VARIATION_DEPTH`].
    TooDeep,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Syntax { expected, found } if found.is_empty() => {
                write!(f, "expected {expected}")
            }
            ErrorKind::Syntax { expected, found } => {
                write!(f, "expected {expected}, found {found:?}")
            }
            ErrorKind::Truncated { expected } => {
                write!(f, "the game is cut off: expected {expected}")
            }
            ErrorKind::IllegalMove {
                number,
                text,
                reason,
            } => write!(f, "move {number} {text} cannot be played: {reason}"),
            ErrorKind::BadPosition(reason) => write!(f, "bad start position: {reason}"),
            ErrorKind::Encoding => write!(f, "the text is neither UTF-8, GBK nor Big5"),
            ErrorKind::TooDeep => write!(
                f,
                "variations nest deeper than {} levels",
                crate::MAX_VARIATION_DEPTH
            ),
        }
    }
}

/// Why a move of a record cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The record names the move's two points, and the move breaks this rule of the game
    /// there (its [`IllegalMove::code`] is a key for translation tables).
    Illegal(IllegalMove),
    /// The text names no legal move of the position in the notations the record may use.
    Unreadable(NotationError),
}

impl MoveError {
    /// The error for a move text that `pos` refused: the rule the move breaks where the
    /// notation named a move, else the notation's error.
    pub fn from_notation(pos: &Position, error: NotationError) -> MoveError {
        if let NotationError::IllegalMove { iccs, .. } = &error
            && let Ok(m) = iccs.parse::<Move>()
            && let Err(reason) = pos.check_move(m.from(), m.to())
        {
            return MoveError::Illegal(reason);
        }
        MoveError::Unreadable(error)
    }

    /// A stable key for translation tables: the rule's code for an illegal move (such as
    /// `horse-leg-blocked`), `unreadable-move` for a text that names no move.
    pub fn code(&self) -> &'static str {
        match self {
            MoveError::Illegal(reason) => reason.code(),
            MoveError::Unreadable(_) => "unreadable-move",
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Illegal(reason) => write!(f, "{reason}"),
            MoveError::Unreadable(error) => write!(f, "{error}"),
        }
    }
}

/// Why the start position of a record is not a position of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The position, written as FEN, is not valid.
    Fen {
        /// The FEN (as given, or as made from the record's board).
        fen: String,
        /// What is wrong with it.
        error: FenError,
    },
    /// Two pieces are placed on one point.
    SharedPoint(Square),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen { fen, error } => write!(f, "FEN {fen:?}: {error}"),
            PositionError::SharedPoint(sq) => write!(f, "two pieces on {sq}"),
        }
    }
}

/// A move of a record's tree that the rules do not allow where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnplayableMove {
    /// Its number (`12.` for Red's twelfth move, `12...` for Black's).
    pub number: MoveNumber,
    /// The move.
    pub mv: Move,
    /// The rule it breaks.
    pub reason: IllegalMove,
}

impl fmt::Display for UnplayableMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} {} is not legal: {}",
            self.number, self.mv, self.reason
        )
    }
}

impl std::error::Error for UnplayableMove {}

/// A record that could not be read: what is wrong, where, and what was read before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// Where the problem lies.
    pub place: Place,
    /// What the problem is.
    pub kind: ErrorKind,
    /// Which game of a file holding several, counted from 1.
    pub game: Option<usize>,
    /// The game as far as it could be read before the problem: always given for a game that
    /// is cut off ([`ErrorKind::Truncated`]), and where the reader could keep it for other
    /// problems.
    pub partial: Option<Box<Game>>,
}

impl RecordError {
    /// An error with no game number and no partial game.
    pub fn new(place: Place, kind: ErrorKind) -> RecordError {
        RecordError {
            place,
            kind,
            game: None,
            partial: None,
        }
    }

    /// A syntax error: `expected` there, `found` instead (cut to 40 characters).
    pub fn syntax(place: Place, expected: impl Into<String>, found: &str) -> RecordError {
        RecordError::new(
            place,
            ErrorKind::Syntax {
                expected: expected.into(),
                found: found.chars().take(40).collect(),
            },
        )
    }

    /// The input ends where `expected` should come.
    pub fn truncated(place: Place, expected: impl Into<String>) -> RecordError {
        RecordError::new(
            place,
            ErrorKind::Truncated {
                expected: expected.into(),
            },
        )
    }

    /// The same error with the game read so far attached.
    pub fn with_partial(mut self, game: Game) -> RecordError {
        self.partial = Some(Box::new(game));
        self
    }

    /// The same error, said to be in game `index` (from 1) of the file.
    pub fn in_game(mut self, index: usize) -> RecordError {
        self.game = Some(index);
        self
    }

    /// Whether the input was cut off in the middle of a game.
    pub fn is_truncated(&self) -> bool {
        matches!(self.kind, ErrorKind::Truncated { .. })
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(game) = self.game {
            write!(f, "game {game}, ")?;
        }
        write!(f, "{}: {}", self.place, self.kind)?;
        if let Some(partial) = &self.partial {
            let n = partial.move_count();
            let s = if n == 1 { "" } else { "s" };
            write!(f, " (kept as a partial game: {n} move{s} before it)")?;
        }
        Ok(())
    }
}

impl std::error::Error for RecordError {}

/// Why games could not be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteError {
    /// A game's tree is not legal or too deep.
    Tree {
        /// Which game, from 1.
        game: usize,
        /// What is wrong with it.
        error: TreeError,
    },
    /// The format holds one game a file, and there are more or none.
    OneGameOnly {
        /// The format's name.
        format: &'static str,
        /// How many games there are.
        games: usize,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Tree { game, error } => write!(f, "game {game}: {error}"),
            WriteError::OneGameOnly { format, games } => write!(
                f,
                "{format} holds exactly one game a file, and there are {games}"
            ),
        }
    }
}

impl std::error::Error for WriteError {}
