//! Coordinate text for points and moves: the one reader and writer of ICCS points (`e0`) and
//! two-point moves (`h2e2`) for the whole workspace. Syntax only — whether a move is legal is
//! the position's question ([`Position::check_move`](crate::Position::check_move)).
//!
//! We write ranks 0–9 from Red's back rank. Some engines (Fairy-Stockfish in UCI mode) number
//! them 1–10; [`RankBase`] says which numbering a text uses.

use crate::moves::Move;
use crate::square::{RANKS, Square};
use std::fmt;
use std::str::FromStr;

/// Which numbers a coordinate text gives the ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RankBase {
    /// Ranks 0–9 (ICCS as UCCI and this program write it).
    #[default]
    Zero,
    /// Ranks 1–10 (Fairy-Stockfish's UCI).
    One,
}

impl RankBase {
    /// The number written for rank `rank` (0 = Red's back rank).
    pub const fn number(self, rank: u8) -> u8 {
        match self {
            RankBase::Zero => rank,
            RankBase::One => rank + 1,
        }
    }
}

/// What is wrong with a point's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    text: String,
    base: RankBase,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ranks = match self.base {
            RankBase::Zero => "0-9",
            RankBase::One => "1-10",
        };
        write!(
            f,
            "'{}' is not a point: expected a file a-i and a rank {ranks}, e.g. e{}",
            self.text,
            self.base.number(0)
        )
    }
}

impl std::error::Error for ParseSquareError {}

/// What is wrong with a move's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// The text is not two points, e.g. `h2e2`.
    Shape {
        /// The text as given.
        text: String,
    },
    /// One of the two points is not on the board.
    Point {
        /// The whole move text.
        text: String,
        /// What is wrong with the point.
        point: ParseSquareError,
    },
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Shape { text } => write!(
                f,
                "'{text}' is not a move: expected two points such as h2e2 (from, to)"
            ),
            ParseMoveError::Point { text, point } => write!(f, "in move '{text}': {point}"),
        }
    }
}

impl std::error::Error for ParseMoveError {}

/// Reads a point in `base` numbering; files in either case.
fn parse_square(text: &str, base: RankBase) -> Result<Square, ParseSquareError> {
    let error = || ParseSquareError {
        text: text.to_string(),
        base,
    };
    let mut chars = text.chars();
    let file_char = chars.next().ok_or_else(error)?.to_ascii_lowercase();
    if !('a'..='i').contains(&file_char) {
        return Err(error());
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(error());
    }
    let number: u8 = digits.parse().map_err(|_| error())?;
    let rank = match base {
        RankBase::Zero if digits.len() == 1 => number,
        RankBase::One if (1..=RANKS).contains(&number) && !digits.starts_with('0') => number - 1,
        _ => return Err(error()),
    };
    Square::new(file_char as u8 - b'a', rank).ok_or_else(error)
}

/// Reads a two-point move in `base` numbering, e.g. `h2e2` (or `h3e3` with ranks 1–10).
fn parse_move(text: &str, base: RankBase) -> Result<Move, ParseMoveError> {
    let shape = || ParseMoveError::Shape {
        text: text.to_string(),
    };
    if !text.is_ascii() || text.len() < 4 {
        return Err(shape());
    }
    // The second point starts at the second file letter.
    let split = text[1..]
        .find(|c: char| c.is_ascii_alphabetic())
        .map(|i| i + 1)
        .ok_or_else(shape)?;
    let point = |part: &str| {
        parse_square(part, base).map_err(|point| ParseMoveError::Point {
            text: text.to_string(),
            point,
        })
    };
    Ok(Move::new(point(&text[..split])?, point(&text[split..])?))
}

/// Writes a point in `base` numbering, e.g. `e0` or `e1`.
fn square_text(sq: Square, base: RankBase) -> String {
    format!("{}{}", sq.file_char(), base.number(sq.rank()))
}

/// Writes a two-point move in `base` numbering, e.g. `h2e2` or `h3e3`.
fn move_text(m: Move, base: RankBase) -> String {
    format!(
        "{}{}",
        square_text(m.from(), base),
        square_text(m.to(), base)
    )
}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Reads an ICCS point with ranks 0–9, e.g. `e0` or `H2`.
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        parse_square(text, RankBase::Zero)
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads an ICCS move of two points with ranks 0–9, e.g. `h2e2`.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        parse_move(text, RankBase::Zero)
    }
}

impl Move {
    /// Reads a two-point move in `base` numbering, e.g. `h2e2` (or `h3e3` with ranks 1–10).
    pub fn parse_coordinates(text: &str, base: RankBase) -> Result<Move, ParseMoveError> {
        parse_move(text, base)
    }

    /// This move in `base` numbering, e.g. `h2e2` or, with ranks 1–10, `h3e3`.
    pub fn coordinates(self, base: RankBase) -> String {
        move_text(self, base)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_reads_back_in_both_numberings() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            for base in [RankBase::Zero, RankBase::One] {
                assert_eq!(parse_square(&square_text(sq, base), base), Ok(sq));
            }
        }
        assert_eq!("E0".parse::<Square>().ok(), Square::new(4, 0));
        assert_eq!(parse_square("a10", RankBase::One).ok(), Square::new(0, 9));
    }

    #[test]
    fn points_off_the_board_are_refused() {
        for bad in ["", "e", "j0", "a10", "a-1", "e00", "0e", "é0", " e0"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
        for bad in ["a0", "a11", "a01", "e"] {
            assert!(parse_square(bad, RankBase::One).is_err(), "{bad}");
        }
        let message = "j0".parse::<Square>().unwrap_err().to_string();
        assert!(
            message.contains("'j0'") && message.contains("a-i"),
            "{message}"
        );
    }

    #[test]
    fn moves_read_and_write_in_both_numberings() {
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!("H2E2".parse::<Move>(), Ok(m));
        assert_eq!(m.coordinates(RankBase::One), "h3e3");
        assert_eq!(Move::parse_coordinates("h3e3", RankBase::One), Ok(m));
        let long: Move = "a9a0".parse().unwrap();
        assert_eq!(long.coordinates(RankBase::One), "a10a1");
        assert_eq!(Move::parse_coordinates("a10a1", RankBase::One), Ok(long));
    }

    #[test]
    fn bad_move_texts_say_what_is_wrong() {
        for bad in [
            "", "h2e", "h2-e2", "j2e2", "h2e10", " h2e2", "h2é2", "h2e2 ", "2he2",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
        assert!(matches!(
            "h2".parse::<Move>(),
            Err(ParseMoveError::Shape { .. })
        ));
        let message = "h2j2".parse::<Move>().unwrap_err().to_string();
        assert!(
            message.contains("h2j2") && message.contains("'j2'"),
            "{message}"
        );
    }
}
