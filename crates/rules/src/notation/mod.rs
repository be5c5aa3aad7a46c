//! Move notations: ICCS, WXF and Chinese.
//!
//! - **ICCS** names the two points: `h2e2` (ranks 0–9). Parsing accepts `h2-e2`, upper case
//!   and surrounding white space.
//! - **WXF** names the piece, the file it stands on (1–9, counted from the mover's own
//!   right), an operator (`+` forward, `-` backward, `=` sideways) and a number: steps for
//!   straight moves of K, R, C, P forward or backward, otherwise the destination file:
//!   `C2=5`, `H2+3`, `E7+5`. Two like pieces on one file are told apart by `+` (front) and
//!   `-` (rear) in place of the file: `C+=5`, `R-+1`; advisors and elephants never need it.
//!   Soldiers follow the 2018 WXF rules: when three or more share a file, or two or more
//!   files each hold two or more, a soldier on such a file is named by its place from the
//!   front and its file, without a letter: `15=6`, `26=5`, `35+1`. No check suffix is
//!   written. Parsing also accepts `.` for `=`, lower case, `H`/`N` and `E`/`B`, the front/
//!   rear sign before the letter (`+C=5`), the older tandem-soldier forms `P+.4`, `P3=4`
//!   (middle of three), `++.4` and `--.4` (foremost and rearmost of four or five), and the
//!   operator-less `C25`.
//! - **Chinese** uses the same counting with characters: `炮二平五`, `马8进7` (Red files in
//!   Chinese numerals, Black files in digits). Like pieces on one file: 前/后 (`前炮平五`),
//!   three soldiers 前/中/后, four or five 一二三四五 from the front (`二兵平五`); when two
//!   files each hold two or more soldiers, the file follows the piece (`前兵九平八`).
//!   Parsing accepts traditional characters (帥 將 傌 馬 俥 車 砲 包 進 後), 仕/士 and 相/象
//!   for either side, full-width digits, either kind of numeral for either side, 上/下 for
//!   进/退, and the four-character soldier form without the piece (`前九平八`).

mod chinese;
mod descriptor;
mod iccs;
mod wxf;

use crate::moves::Move;
use crate::piece::{Color, PieceKind};
use crate::position::Position;
use std::fmt;

/// A way of writing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Coordinates of both points, e.g. `h2e2`.
    Iccs,
    /// World Xiangqi Federation notation, e.g. `C2=5`.
    Wxf,
    /// Traditional Chinese notation, e.g. `炮二平五`.
    Chinese,
}

impl Notation {
    /// All notations, in the order [`parse_any`] tries them.
    pub const ALL: [Notation; 3] = [Notation::Iccs, Notation::Wxf, Notation::Chinese];

    /// The usual name of the notation: `ICCS`, `WXF` or `Chinese`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The longest move text accepted, in characters (after trimming white space).
pub const MAX_MOVE_TEXT: usize = 64;

/// How much of an offending text an error keeps, in characters.
const SHOWN_CHARS: usize = 40;

/// Why a move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text is empty or only white space.
    Empty,
    /// The text is longer than [`MAX_MOVE_TEXT`] characters.
    TooLong {
        /// The start of the text.
        text: String,
        /// Its length in characters.
        length: usize,
    },
    /// The text does not have the form of a move in the notation.
    Malformed {
        /// The text (at most 40 characters of it).
        text: String,
        /// What was expected, e.g. "an ICCS move such as h2e2".
        expected: &'static str,
    },
    /// The side to move has no such piece there.
    NoSuchPiece {
        /// The text (at most 40 characters of it).
        text: String,
        /// The side to move.
        side: Color,
        /// The kind of piece named, if the notation names one.
        kind: Option<PieceKind>,
        /// Where it was looked for, e.g. "on file 2" or "on e5".
        place: String,
    },
    /// The text names a piece of the side that is not to move.
    WrongSide {
        /// The text (at most 40 characters of it).
        text: String,
        /// The side to move.
        side_to_move: Color,
    },
    /// More than one legal move fits the text.
    Ambiguous {
        /// The text (at most 40 characters of it).
        text: String,
        /// The legal moves that fit.
        candidates: Vec<Move>,
    },
    /// The text names a move that is not legal in the position.
    IllegalMove {
        /// The text (at most 40 characters of it).
        text: String,
        /// The move it names, in ICCS.
        iccs: String,
    },
    /// The piece exists but no move of that piece fits the text (e.g. a horse moving three
    /// files, or a chariot leaving the board).
    Impossible {
        /// The text (at most 40 characters of it).
        text: String,
        /// Why, in words.
        reason: String,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => write!(f, "the move text is empty"),
            NotationError::TooLong { text, length } => write!(
                f,
                "the move text {text:?}… is {length} characters long; a move has at most {MAX_MOVE_TEXT}"
            ),
            NotationError::Malformed { text, expected } => {
                write!(f, "{text:?} is not a move: expected {expected}")
            }
            NotationError::NoSuchPiece {
                text,
                side,
                kind,
                place,
            } => write!(
                f,
                "{text:?} does not fit the position: {side} has no {} {place}",
                kind.map_or("piece", PieceKind::name)
            ),
            NotationError::WrongSide { text, side_to_move } => write!(
                f,
                "{text:?} moves a {} piece, but it is {side_to_move}'s move",
                side_to_move.opponent()
            ),
            NotationError::Ambiguous { text, candidates } => {
                write!(f, "{text:?} is ambiguous: it fits the legal moves")?;
                for (i, m) in candidates.iter().enumerate() {
                    let sep = if i == 0 { " " } else { ", " };
                    write!(f, "{sep}{m}")?;
                }
                Ok(())
            }
            NotationError::IllegalMove { text, iccs } => {
                write!(f, "{text:?} ({iccs}) is not a legal move in this position")
            }
            NotationError::Impossible { text, reason } => {
                write!(f, "{text:?} names no possible move: {reason}")
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// At most [`SHOWN_CHARS`] characters of `text`, for error messages.
pub(crate) fn shown(text: &str) -> String {
    text.chars().take(SHOWN_CHARS).collect()
}

/// The trimmed text, or the error for an empty or overlong one.
pub(crate) fn checked(text: &str) -> Result<&str, NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let length = t.chars().count();
    if length > MAX_MOVE_TEXT {
        return Err(NotationError::TooLong {
            text: shown(t),
            length,
        });
    }
    Ok(t)
}

/// Writes `m`, a legal move of `pos`, in `notation`. Writes plain ICCS for a move whose
/// origin is empty.
pub fn format_move(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => iccs::format(m),
        Notation::Wxf => wxf::format(pos, m),
        Notation::Chinese => chinese::format(pos, m),
    }
}

/// Reads `text` as a move in `notation` and returns the legal move of `pos` it names.
pub fn parse_move(pos: &Position, text: &str, notation: Notation) -> Result<Move, NotationError> {
    match notation {
        Notation::Iccs => iccs::parse(pos, text),
        Notation::Wxf => wxf::parse(pos, text),
        Notation::Chinese => chinese::parse(pos, text),
    }
}

/// Reads `text` as a move in whichever notation fits, trying ICCS, then WXF, then Chinese.
/// When none fits, returns the error of the notation the text looks most like.
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let t = checked(text)?;
    let mut errors = Vec::with_capacity(3);
    for notation in Notation::ALL {
        match parse_move(pos, t, notation) {
            Ok(m) => return Ok(m),
            Err(e) => errors.push(e),
        }
    }
    // The first error that is not about the form tells what went wrong; ASCII text is never
    // Chinese, so its Chinese error says nothing.
    let ascii = t.is_ascii();
    let best = errors
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !(ascii && *i == 2))
        .map(|(_, e)| e)
        .find(|e| !matches!(e, NotationError::Malformed { .. }))
        .unwrap_or_else(|| NotationError::Malformed {
            text: shown(t),
            expected: "a move in ICCS (h2e2), WXF (C2=5) or Chinese notation (炮二平五)",
        });
    Err(best)
}
