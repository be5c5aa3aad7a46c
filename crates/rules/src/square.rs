//! Points of the board: files `a`–`i` from Red's left, ranks `0`–`9` from Red's back rank.

use std::fmt;

/// Number of files (columns) on the board.
pub const FILES: u8 = 9;
/// Number of ranks (rows) on the board.
pub const RANKS: u8 = 10;
/// Number of points on the board.
pub const SQUARE_COUNT: usize = 90;

/// A point of the board, `rank * 9 + file`, with `a0` = 0 and `i9` = 89.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

impl Square {
    /// The point at `file` (0 = `a`) and `rank` (0 = Red's back rank), if it is on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The point with index `index` (0..90), if it is on the board.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARE_COUNT {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The point with index `index`; the caller guarantees `index < 90`.
    pub(crate) const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < SQUARE_COUNT);
        Square(index as u8)
    }

    /// Index 0..90 of this point.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (0 = `a`, Red's left).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank 0..10 (0 = Red's back rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The point `df` files and `dr` ranks away, if it is on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || r < 0 {
            None
        } else {
            Square::new(f as u8, r as u8)
        }
    }

    /// Every point of the board, `a0`, `b0`, … `i9`.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARE_COUNT as u8).map(Square)
    }

    /// The ICCS file letter, `a`–`i`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_stays_on_board() {
        let a0 = Square::new(0, 0).unwrap();
        assert_eq!(a0.offset(-1, 0), None);
        assert_eq!(a0.offset(0, -1), None);
        assert_eq!(a0.offset(8, 9), Square::new(8, 9));
        assert_eq!(a0.offset(9, 0), None);
    }
}
