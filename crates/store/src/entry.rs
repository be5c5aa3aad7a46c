//! What the archive keeps of a game: what a caller saves ([`GameEntry`]), what a list shows
//! ([`GameSummary`]), a whole stored game ([`StoredGame`]), and how a list is chosen
//! ([`Filter`]).

use std::fmt;
use xiangqi_records::GameResult;

/// A game's row in the archive.
pub type GameId = i64;

/// Where a game came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Played in the app.
    Played,
    /// Read from a record file.
    Imported,
}

impl Source {
    /// The name kept in the database: `played` or `imported`.
    pub const fn name(self) -> &'static str {
        match self {
            Source::Played => "played",
            Source::Imported => "imported",
        }
    }

    /// The source named `name`; anything unknown reads as imported.
    pub fn from_name(name: &str) -> Source {
        if name == "played" {
            Source::Played
        } else {
            Source::Imported
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The engine level a game was played against.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Level {
    /// The engine's level number (0–20).
    pub number: u32,
    /// Its name as the app shows it, e.g. `Beginner (~800)`.
    pub name: String,
}

/// A game to save: its record (start, moves with comments and variations, result) and what
/// the list shows about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEntry {
    /// The caller's key for the game, so that saving it again updates the same row; a fresh
    /// key is made when absent.
    pub key: Option<String>,
    /// Whether the game is over.
    pub finished: bool,
    /// The Red player's name.
    pub red: String,
    /// The Black player's name.
    pub black: String,
    /// The engine level played against, for a game against the engine.
    pub level: Option<Level>,
    /// Why the game ended (a code such as `checkmate`), for a finished game.
    pub end_reason: Option<String>,
    /// The date it was played, `YYYY.MM.DD` as PGN writes it (`?` for what is unknown).
    pub date: String,
    /// The opening's name, where known.
    pub opening: Option<String>,
    /// The time control it was played at, as PGN's `TimeControl` tag writes it (`300+3`:
    /// seconds of main time and seconds added a move); `None` for a game without a clock.
    pub time_control: Option<String>,
    /// The record: start position, moves, comments, variations and result. Its `Red`,
    /// `Black` and `Date` tags are set from the fields above when it is stored, and its
    /// `TimeControl` tag from a time control.
    pub record: xiangqi_records::Game,
    /// Where it came from.
    pub source: Source,
    /// Whose game it is: empty for the one learner of the app on their own machine, else an
    /// account's ([`account_owner`](crate::account_owner)) or a guest's.
    pub owner: String,
}

/// A game as a list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// Its row.
    pub id: GameId,
    /// The key it is saved under.
    pub key: String,
    /// When it was first saved, in milliseconds since 1970 (UTC).
    pub created_ms: i64,
    /// When it was last saved.
    pub updated_ms: i64,
    /// Whether it is over.
    pub finished: bool,
    /// The Red player's name.
    pub red: String,
    /// The Black player's name.
    pub black: String,
    /// The engine level played against.
    pub level: Option<Level>,
    /// The result (`None` while it goes on, or when not known).
    pub result: Option<GameResult>,
    /// Why it ended.
    pub end_reason: Option<String>,
    /// The date it was played, `YYYY.MM.DD`.
    pub date: String,
    /// The opening's name, where known.
    pub opening: Option<String>,
    /// The time control it was played at (`300+3`), `None` for a game without a clock.
    pub time_control: Option<String>,
    /// Moves of the main line.
    pub moves_count: usize,
    /// Where it came from.
    pub source: Source,
    /// Whether a review is kept with it.
    pub reviewed: bool,
}

/// A whole stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// What a list shows.
    pub summary: GameSummary,
    /// The start position (FEN).
    pub start_fen: String,
    /// The record as PGN (moves in ICCS), comments and variations kept.
    pub pgn: String,
    /// The review once made (JSON text, as the app gave it).
    pub review: Option<String>,
}

impl StoredGame {
    /// The record read back from its PGN.
    pub fn record(&self) -> Result<xiangqi_records::Game, crate::StoreError> {
        crate::game_row::read_pgn(&self.pgn)
    }
}

/// Which games a list holds: one owner's, and of those every game that the fields left empty
/// do not rule out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Whose games (empty: the one learner of the app on their own machine).
    pub owner: String,
    /// Only games with this result (`Some(None)`: games with no result).
    pub result: Option<Option<GameResult>>,
    /// Only games against this engine level.
    pub level: Option<u32>,
    /// Only finished (`true`) or unfinished (`false`) games.
    pub finished: Option<bool>,
    /// At most this many games.
    pub limit: Option<usize>,
    /// Skip this many games first (the list's later pages).
    pub offset: usize,
}

/// What an import did: the rows it added and the games it could not read.
#[derive(Debug, Default)]
pub struct ImportReport {
    /// The rows added, in file order.
    pub imported: Vec<GameId>,
    /// Why each game that was not added could not be read.
    pub broken: Vec<xiangqi_records::RecordError>,
    /// What the reader skipped (text outside games).
    pub warnings: Vec<xiangqi_records::Warning>,
}
