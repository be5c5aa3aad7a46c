//! The position: what stands where, who moves, the clocks, and the hash; making and
//! unmaking moves.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::piece::{Color, Piece, PieceKind};
use crate::square::{SQUARE_COUNT, Square};
use crate::zobrist::{PIECE_KEYS, SIDE_KEY};

/// Board contents of one point: 0 = empty, otherwise the piece index + 1.
type Cell = u8;
const EMPTY: Cell = 0;

/// A Xiangqi position. Cheap to clone; moves are made in place and undone with [`Undo`].
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [Cell; SQUARE_COUNT],
    pub(crate) by_color: [u128; 2],
    pub(crate) by_piece: [u128; 14],
    pub(crate) generals: [Square; 2],
    pub(crate) side: Color,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
    pub(crate) hash: u64,
    /// Whether the side to move's general is attacked, kept by every change of the side to
    /// move.
    pub(crate) checked: bool,
}

/// What [`Position::make_move`] needs to take a move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: Cell,
    halfmove_clock: u32,
    hash: u64,
    checked: bool,
}

impl Undo {
    /// The piece the move captured, if any.
    pub fn captured(&self) -> Option<Piece> {
        cell_piece(self.captured)
    }
}

#[inline]
fn cell_piece(cell: Cell) -> Option<Piece> {
    if cell == EMPTY {
        None
    } else {
        Piece::from_index(cell as usize - 1)
    }
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(crate::fen::START_FEN).expect("the start FEN is valid")
    }

    /// An empty board with only the clocks set; used while building a position.
    pub(crate) fn empty(side: Color) -> Position {
        Position {
            board: [EMPTY; SQUARE_COUNT],
            by_color: [0; 2],
            by_piece: [0; 14],
            generals: [Square::default(); 2],
            side,
            halfmove_clock: 0,
            fullmove_number: 1,
            hash: if side == Color::Black { SIDE_KEY } else { 0 },
            checked: false,
        }
    }

    /// Puts `piece` on the empty point `sq`, keeping every index and the hash in step (the
    /// check flag waits for [`Position::set_side`], which ends every build).
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert_eq!(self.board[sq.index()], EMPTY);
        let bit = 1u128 << sq.index();
        self.board[sq.index()] = piece.index() as Cell + 1;
        self.by_color[piece.color.index()] |= bit;
        self.by_piece[piece.index()] |= bit;
        self.hash ^= PIECE_KEYS[piece.index()][sq.index()];
        if piece.kind == PieceKind::General {
            self.generals[piece.color.index()] = sq;
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        cell_piece(self.board[sq.index()])
    }

    /// Whether `sq` is empty.
    #[inline]
    pub fn is_empty(&self, sq: Square) -> bool {
        self.board[sq.index()] == EMPTY
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Plies since the last capture.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and counting up after each Black move.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The Zobrist hash of pieces and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The point of `color`'s general.
    #[inline]
    pub fn general(&self, color: Color) -> Square {
        self.generals[color.index()]
    }

    /// Every occupied point.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0] | self.by_color[1])
    }

    /// The points of `color`'s pieces.
    #[inline]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        Bitboard(self.by_color[color.index()])
    }

    /// The points holding `piece`.
    #[inline]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        Bitboard(self.by_piece[piece.index()])
    }

    /// The hash computed from scratch (equals [`Position::hash`] when all is well).
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Color::Black {
            SIDE_KEY
        } else {
            0
        };
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                h ^= PIECE_KEYS[p.index()][sq.index()];
            }
        }
        h
    }

    /// Plays `m`, which must be at least pseudo-legal here, and returns what takes it back.
    #[inline]
    pub fn make_move(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from().index(), m.to().index());
        let moving = self.board[from];
        let captured = self.board[to];
        debug_assert_ne!(moving, EMPTY, "no piece on {} for {}", m.from(), m);
        let undo = Undo {
            captured,
            halfmove_clock: self.halfmove_clock,
            hash: self.hash,
            checked: self.checked,
        };
        let us = self.side.index();
        let mp = moving as usize - 1;
        let from_bit = 1u128 << from;
        let to_bit = 1u128 << to;
        if captured != EMPTY {
            let cp = captured as usize - 1;
            self.by_piece[cp] ^= to_bit;
            self.by_color[us ^ 1] ^= to_bit;
            self.hash ^= PIECE_KEYS[cp][to];
            self.halfmove_clock = 0;
        } else {
            self.halfmove_clock += 1;
        }
        self.board[to] = moving;
        self.board[from] = EMPTY;
        self.by_piece[mp] ^= from_bit | to_bit;
        self.by_color[us] ^= from_bit | to_bit;
        self.hash ^= PIECE_KEYS[mp][from] ^ PIECE_KEYS[mp][to] ^ SIDE_KEY;
        if mp % 7 == PieceKind::General.index() {
            self.generals[us] = m.to();
        }
        if self.side == Color::Black {
            self.fullmove_number += 1;
        }
        self.side = self.side.opponent();
        self.checked = self.is_general_attacked(self.side);
        undo
    }

    /// Takes back `m`, which was the last move made, using what [`Position::make_move`] returned.
    #[inline]
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        self.side = self.side.opponent();
        if self.side == Color::Black {
            self.fullmove_number -= 1;
        }
        let (from, to) = (m.from().index(), m.to().index());
        let moving = self.board[to];
        let us = self.side.index();
        let mp = moving as usize - 1;
        let from_bit = 1u128 << from;
        let to_bit = 1u128 << to;
        self.board[from] = moving;
        self.board[to] = undo.captured;
        self.by_piece[mp] ^= from_bit | to_bit;
        self.by_color[us] ^= from_bit | to_bit;
        if undo.captured != EMPTY {
            let cp = undo.captured as usize - 1;
            self.by_piece[cp] ^= to_bit;
            self.by_color[us ^ 1] ^= to_bit;
        }
        if mp % 7 == PieceKind::General.index() {
            self.generals[us] = m.from();
        }
        self.halfmove_clock = undo.halfmove_clock;
        self.hash = undo.hash;
        self.checked = undo.checked;
    }

    /// Passes the move to the opponent without moving a piece (for search).
    pub fn make_null_move(&mut self) -> Undo {
        let undo = Undo {
            captured: EMPTY,
            halfmove_clock: self.halfmove_clock,
            hash: self.hash,
            checked: self.checked,
        };
        self.hash ^= SIDE_KEY;
        self.halfmove_clock += 1;
        if self.side == Color::Black {
            self.fullmove_number += 1;
        }
        self.side = self.side.opponent();
        self.checked = self.is_general_attacked(self.side);
        undo
    }

    /// Takes back a null move.
    pub fn unmake_null_move(&mut self, undo: Undo) {
        self.side = self.side.opponent();
        if self.side == Color::Black {
            self.fullmove_number -= 1;
        }
        self.halfmove_clock = undo.halfmove_clock;
        self.hash = undo.hash;
        self.checked = undo.checked;
    }

    /// A copy with `m` played.
    pub fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.make_move(m);
        p
    }

    /// Sets the side to move, keeping the hash and the check flag in step (used by FEN
    /// parsing, last after the pieces are put).
    pub(crate) fn set_side(&mut self, side: Color) {
        if side != self.side {
            self.side = side;
            self.hash ^= SIDE_KEY;
        }
        self.checked = self.is_general_attacked(side);
    }

    /// Sets the clocks (used by FEN parsing).
    pub(crate) fn set_clocks(&mut self, halfmove_clock: u32, fullmove_number: u32) {
        self.halfmove_clock = halfmove_clock;
        self.fullmove_number = fullmove_number;
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Position {
    /// A text diagram, Black at the top, with files and ranks, and the side to move.
    pub fn diagram(&self) -> String {
        let mut text = String::new();
        for rank in (0..10).rev() {
            text.push_str(&format!("{rank} "));
            for file in 0..9 {
                let sq = Square::new(file, rank).expect("on board");
                text.push(' ');
                text.push(self.piece_at(sq).map_or('.', |p| p.fen_char()));
            }
            text.push('\n');
        }
        text.push_str("   a b c d e f g h i\n");
        text.push_str(&format!("{} to move", self.side));
        text
    }
}

impl std::fmt::Display for Position {
    /// The position as FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl std::str::FromStr for Position {
    type Err = crate::fen::FenError;

    /// Reads a FEN (see [`Position::from_fen`]).
    fn from_str(text: &str) -> Result<Position, Self::Err> {
        Position::from_fen(text)
    }
}
