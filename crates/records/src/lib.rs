//! Xiangqi game records: a game tree with variations, comments, NAGs and tags, readers and
//! writers for the files players keep their games in, and the bridge to played games.
//!
//! - [`pgn`]: PGN in the xqbase convention (`[Game "Chinese Chess"]`, moves in ICCS, WXF or
//!   Chinese as the `[Format]` tag says, Chinese when it is absent) and the `[Variant
//!   "xiangqi"]` dialect of Fairy-Stockfish, pychess and WinBoard (algebraic moves, ranks 1–10
//!   or 0–9); many games a file, UTF-8, GBK or Big5 (told apart by what the text reads
//!   as), text outside games skipped with a warning.
//! - [`xqf`]: the binary format of XQStudio; every version is read (1.1 and later are
//!   encrypted), version 1.0 is written.
//! - [`dhtmlxq`]: the DhtmlXQ/UBB text of dpxq.com and the web viewers that copy it.
//! - [`RecordFormat`] and [`OutputFormat`]: telling the formats apart and reading or writing
//!   any of them; a file reads into a [`Collection`] (each game or its error, and warnings),
//!   and writes into [`Written`] (the bytes, and a warning for each thing cut or left out).
//! - [`Game::from_played`] and [`Game::replay`]: a game of the rules as a record and back;
//!   a record's result is the rules' own, `None` when not known ([`result`] writes and reads
//!   each format's form of it).
//! - [`PlayedGame`]: a game being played with its lines — play from any earlier position
//!   (replacing the moves after it or starting a variation), undo and redo, switch to,
//!   promote or delete a line — and its record with every line.
//!
//! Readers never panic: bad input gives a [`RecordError`] that says where (line and column,
//! or byte offset) and what was expected; a game cut off keeps what was read as a partial
//! game in the error; an illegal move carries the rules' reason ([`MoveError`]).

mod collection;
pub mod date;
pub mod dhtmlxq;
mod error;
mod format;
mod game;
pub mod pgn;
mod piece_slots;
mod played;
mod played_game;
pub mod result;
mod tags;
mod text;
mod tree;
mod warning;
pub mod xqf;

pub use collection::{Collection, Written};
pub use error::{
    ErrorKind, MoveError, Place, PositionError, RecordError, UnplayableMove, WriteError,
};
pub use format::{OutputFormat, RecordFormat};
pub use game::{Game, Line, MAX_VARIATION_DEPTH, MoveNode, MoveNumber, Nag, TreeError};
pub use played::end_comment;
pub use played_game::{Branch, LineAction, PlayError, PlayedGame, TreeMove};
pub use result::ResultForms;
pub use tags::Tags;
pub use text::TextEncoding;
pub use warning::{Warning, WarningKind};
pub use xiangqi_rules::GameResult;
