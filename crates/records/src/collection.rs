//! What reading a file gives (each game or the error that stopped it, and warnings) and what
//! writing one gives (the bytes and warnings).

use crate::error::RecordError;
use crate::game::Game;
use crate::text::TextEncoding;
use crate::warning::Warning;

/// The games of a file in file order, each read or the error that stopped it, and warnings
/// about what was skipped. A bad game does not stop the others: callers open the good ones
/// and report the rest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collection {
    /// Each game, in file order: the game, or why it could not be read (the error names the
    /// game by its number in the file, from 1, where the file holds several).
    pub games: Vec<Result<Game, RecordError>>,
    /// What was skipped, such as text outside any game.
    pub warnings: Vec<Warning>,
    /// The encoding a text file was read in; none for a binary file (XQF) or text given as
    /// text.
    pub encoding: Option<TextEncoding>,
}

impl Collection {
    /// How many games the file holds, those that could not be read included.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the file holds no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The games that could be read.
    pub fn good(&self) -> impl Iterator<Item = &Game> {
        self.games.iter().filter_map(|g| g.as_ref().ok())
    }

    /// The errors of the games that could not be read.
    pub fn errors(&self) -> impl Iterator<Item = &RecordError> {
        self.games.iter().filter_map(|g| g.as_ref().err())
    }

    /// Every game, or the first error when a game could not be read.
    pub fn into_games(self) -> Result<Vec<Game>, RecordError> {
        self.games.into_iter().collect()
    }
}

/// A written file and what the format could not hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// What was cut or left out, each naming the game and what.
    pub warnings: Vec<Warning>,
}
