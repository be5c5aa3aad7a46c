//! A set of board points as a 128-bit mask (bit `n` is the point with index `n`).

use crate::piece::Color;
use crate::square::{FILES, Square};

/// The nine points of the palace on ranks `lowest_rank` to `lowest_rank + 2`, files d–f.
const fn palace_mask(lowest_rank: u8) -> u128 {
    let mut mask = 0u128;
    let mut rank = lowest_rank;
    while rank < lowest_rank + 3 {
        let mut file = 3;
        while file < 6 {
            mask |= 1u128 << (rank * FILES + file);
            file += 1;
        }
        rank += 1;
    }
    mask
}

const RED_PALACE: Bitboard = Bitboard(palace_mask(0));
const BLACK_PALACE: Bitboard = Bitboard(palace_mask(7));

/// A set of points; only the low 90 bits are used.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The nine points of `color`'s palace.
    #[inline]
    pub const fn palace(color: Color) -> Bitboard {
        match color {
            Color::Red => RED_PALACE,
            Color::Black => BLACK_PALACE,
        }
    }

    /// The set holding just `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of points in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest-index point, if any.
    #[inline]
    pub const fn lowest(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                self.0.trailing_zeros() as usize
            ))
        }
    }

    /// The highest-index point, if any.
    #[inline]
    pub const fn highest(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                127 - self.0.leading_zeros() as usize,
            ))
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_unchecked(self.0.trailing_zeros() as usize);
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

impl std::ops::BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl std::ops::BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl std::ops::BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ((1u128 << 90) - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_palace_is_files_d_to_f_on_its_three_back_ranks() {
        for (color, ranks) in [(Color::Red, 0..=2), (Color::Black, 7..=9)] {
            let palace = Bitboard::palace(color);
            assert_eq!(palace.count(), 9);
            for index in 0..90u8 {
                let sq = Square::new(index % FILES, index / FILES).unwrap();
                let inside = (3..=5).contains(&sq.file()) && ranks.contains(&sq.rank());
                assert_eq!(palace.contains(sq), inside, "{color:?} {sq:?}");
            }
        }
    }
}
