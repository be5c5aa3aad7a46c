//! PGN for Xiangqi.
//!
//! **Reading** takes UTF-8 or GBK text holding any number of games. Two dialects:
//! - the xqbase convention: `[Game "Chinese Chess"]`, moves in the notation `[Format "ICCS"]`,
//!   `"WXF"` or `"Chinese"` names (Chinese when the tag is absent); each move is tried in the
//!   named notation first and then in any (`H2-E2`, `h2e2`, `C2=5`, `C2.5`, `炮二平五`);
//! - `[Variant "xiangqi"]` (Fairy-Stockfish, pychess, WinBoard, elephantchess): algebraic
//!   moves such as `Che3`, `Nhg8`, `Rih10`, `Pxc5`, or bare coordinates, with ranks counted
//!   from 1, or from 0 when the game names a rank 0 and none 10; `White…` tags are read as
//!   `Red…`.
//!
//! Movetext may hold move numbers (`12.`, `12...`, also glued to the move), `{…}` and `;`
//! comments, `(…)` variations nested up to [`crate::MAX_VARIATION_DEPTH`] deep, NAGs (`$1`)
//! and `!`, `?`, `!!`, `??`, `!?`, `?!`, and ends with `1-0`, `0-1`, `1/2-1/2` or `*`. A comment
//! before the first move is the comment on the game (or on the variation); several comments
//! in a row join a line apart. `%` lines are skipped. The tags `Game`, `Variant`, `FEN`,
//! `Format`, `Result` and `SetUp` go into the model, not into [`crate::Tags`]. A game that
//! ends without a result token is cut off, unless the tags of the next game follow; a `{`
//! comment not closed before a line that starts with a tag ends there, so that the next game
//! still opens. Text outside games (before the first, between games, after the last) that
//! does not start like movetext is skipped with a warning.
//!
//! **Writing** gives the xqbase convention in UTF-8: `[Game "Chinese Chess"]`, the roster tags
//! (Event, Site, Date, Round, RedTeam, Red, BlackTeam, Black), Result, the other tags, `[FEN]`
//! when the start is not the standard position, `[Format]`; moves as `H2-E2`, `C2=5` or
//! `炮二平五`; NAGs as `$n`; comments in braces, or as `;` lines when they hold a `}` or a
//! line starting with `[`; lines of at most 80 characters.

mod lexer;
mod reader;
mod san;
mod writer;

pub use reader::Games;
pub use writer::{write_game, write_games};

use crate::collection::Collection;
use crate::error::{Place, RecordError};
use crate::game::Game;
use crate::warning::WarningKind;

/// Reads every game of a PGN file (UTF-8, UTF-16 with a byte order mark, GBK or Big5): each game
/// or the error that stopped it, reading going on after a bad game, and a warning for each
/// stretch of text outside any game that was skipped (see [`read_all_str`]).
pub fn read_all(bytes: &[u8]) -> Result<Collection, RecordError> {
    let (text, encoding) = crate::text::decode(bytes)?;
    let mut read = read_all_str(&text)?;
    read.encoding = Some(encoding);
    Ok(read)
}

/// Reads every game of a PGN text, as [`read_all`] does. Text outside games (a site's
/// trailer, a line of `=`, a web address) is skipped with a warning; the error is for a text
/// that holds such text and no game at all.
pub fn read_all_str(text: &str) -> Result<Collection, RecordError> {
    let mut reader = Games::new(text);
    let games: Vec<_> = reader.by_ref().collect();
    let warnings = reader.warnings().to_vec();
    if games.is_empty()
        && let Some(first) = warnings.first()
    {
        let found = match &first.kind {
            WarningKind::SkippedText { text } => text.as_str(),
            _ => "",
        };
        return Err(RecordError::syntax(
            first.place.unwrap_or(Place::Text { line: 1, column: 1 }),
            "a PGN game: tags such as [Event \"…\"] and moves",
            found,
        ));
    }
    Ok(Collection {
        games,
        warnings,
        encoding: None,
    })
}

/// Reads every game of a PGN file (UTF-8, UTF-16 with a byte order mark, or GBK). The first
/// game that cannot be read is the error; text outside games is skipped.
pub fn read(bytes: &[u8]) -> Result<Vec<Game>, RecordError> {
    read_all(bytes)?.into_games()
}

/// Reads every game of a PGN text. The first game that cannot be read is the error; text
/// outside games is skipped.
pub fn read_str(text: &str) -> Result<Vec<Game>, RecordError> {
    read_all_str(text)?.into_games()
}

/// The games of a PGN text one at a time, each a game or the error that stopped it; reading
/// goes on after a bad game.
pub fn games(text: &str) -> Games<'_> {
    Games::new(text)
}
