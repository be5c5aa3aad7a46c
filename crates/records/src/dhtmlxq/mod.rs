//! DhtmlXQ (also called UBB), the text records of dpxq.com and the web viewers that copy it.
//!
//! A record is `[DhtmlXQ]` … `[/DhtmlXQ]` holding elements `[DhtmlXQ_name]value[/DhtmlXQ_name]`:
//! `binit` (the start, see the `board` module), `movelist` (four digits a move),
//! `move_<branch>_<ply>_<number>` (a variation numbered `number` that replaces the move at
//! ply `ply`, from 1, of branch `branch`, the main line being branch 0), `comment<ply>` and
//! `comment<branch>_<ply>` (`comment0` on the game; `||` is a line break, `\uXXXX` a
//! character), `result` (红胜, 黑胜, 和棋 …, or `1-0` …), and tags (`title`, `event`, `date`,
//! `place`, `round`, `red`, `redteam`, `black`, `blackteam`, `open`, `remark`, `author` …).
//! A `fen` element, where a viewer wrote one, wins over `binit`. The side to move is the
//! owner of the first move's piece. Text between elements (HTML, line breaks) is skipped; a
//! text may hold several records, or a bare list of elements without `[DhtmlXQ]`. Input is
//! UTF-8 or GBK; output is UTF-8.

mod board;
mod names;
mod reader;
mod writer;

pub use reader::{read_all_str, read_str};
pub use writer::{left_out, write_game, write_games};

use crate::collection::Collection;
use crate::error::RecordError;
use crate::game::Game;

/// Reads every record of a DhtmlXQ file (UTF-8, UTF-16 with a byte order mark, GBK or Big5).
/// The first record that cannot be read is the error.
pub fn read(bytes: &[u8]) -> Result<Vec<Game>, RecordError> {
    read_all(bytes)?.into_games()
}

/// Reads every record of a DhtmlXQ file: each game or the error that stopped it.
pub fn read_all(bytes: &[u8]) -> Result<Collection, RecordError> {
    let (text, encoding) = crate::text::decode(bytes)?;
    let mut read = read_all_str(&text)?;
    read.encoding = Some(encoding);
    Ok(read)
}
