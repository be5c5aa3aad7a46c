//! Sides, piece kinds and pieces.

use std::fmt;

/// One of the two sides. Red moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// Red, whose back rank is rank 0.
    Red = 0,
    /// Black, whose back rank is rank 9.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Both sides, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// Rank direction "forward" for this side: +1 for Red, −1 for Black.
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }

    /// Whether `rank` is on this side's own half of the board (before the river).
    #[inline]
    pub const fn is_own_half(self, rank: u8) -> bool {
        match self {
            Color::Red => rank <= 4,
            Color::Black => rank >= 5,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "Red",
            Color::Black => "Black",
        })
    }
}

/// The seven kinds of piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// General (king), FEN `K`.
    General = 0,
    /// Advisor (guard), FEN `A`.
    Advisor = 1,
    /// Elephant (minister), FEN `B`, also `E`.
    Elephant = 2,
    /// Horse, FEN `N`, also `H`.
    Horse = 3,
    /// Chariot (rook), FEN `R`.
    Chariot = 4,
    /// Cannon, FEN `C`.
    Cannon = 5,
    /// Soldier (pawn), FEN `P`.
    Soldier = 6,
}

impl PieceKind {
    /// All kinds in FEN order K A B N R C P.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// 0..7 in the order of [`PieceKind::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The most pieces of this kind one side can have.
    pub const fn max_count(self) -> usize {
        match self {
            PieceKind::General => 1,
            PieceKind::Soldier => 5,
            _ => 2,
        }
    }

    /// Upper-case FEN letter (K A B N R C P).
    pub const fn fen_letter(self) -> char {
        match self {
            PieceKind::General => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Soldier => 'P',
        }
    }

    /// Upper-case WXF letter (K A E H R C P).
    pub const fn wxf_letter(self) -> char {
        match self {
            PieceKind::General => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'E',
            PieceKind::Horse => 'H',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Soldier => 'P',
        }
    }

    /// The kind for a FEN or WXF letter of either case (`E` and `H` accepted).
    pub const fn from_letter(letter: char) -> Option<PieceKind> {
        match letter.to_ascii_uppercase() {
            'K' => Some(PieceKind::General),
            'A' => Some(PieceKind::Advisor),
            'B' | 'E' => Some(PieceKind::Elephant),
            'N' | 'H' => Some(PieceKind::Horse),
            'R' => Some(PieceKind::Chariot),
            'C' => Some(PieceKind::Cannon),
            'P' => Some(PieceKind::Soldier),
            _ => None,
        }
    }

    /// English name, lower case.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::General => "general",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Chariot => "chariot",
            PieceKind::Cannon => "cannon",
            PieceKind::Soldier => "soldier",
        }
    }
}

/// A piece: a kind and a side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Piece {
    /// Which side owns the piece.
    pub color: Color,
    /// What kind of piece it is.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// 0..14: Red pieces 0..7, Black pieces 7..14.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.kind.index()
    }

    /// The piece with index `index` from [`Piece::index`].
    pub const fn from_index(index: usize) -> Option<Piece> {
        if index >= 14 {
            return None;
        }
        let color = if index < 7 { Color::Red } else { Color::Black };
        Some(Piece::new(color, PieceKind::ALL[index % 7]))
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.kind.fen_letter();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter (`E`/`H` accepted); upper case is Red.
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        match PieceKind::from_letter(c) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_index_round_trips() {
        for i in 0..14 {
            assert_eq!(Piece::from_index(i).unwrap().index(), i);
        }
        assert_eq!(Piece::from_index(14), None);
    }

    #[test]
    fn fen_letters_and_aliases() {
        assert_eq!(
            Piece::from_fen_char('E'),
            Some(Piece::new(Color::Red, PieceKind::Elephant))
        );
        assert_eq!(
            Piece::from_fen_char('h'),
            Some(Piece::new(Color::Black, PieceKind::Horse))
        );
        assert_eq!(Piece::from_fen_char('x'), None);
        for kind in PieceKind::ALL {
            let p = Piece::new(Color::Black, kind);
            assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
        }
    }
}
