//! The rules of Xiangqi: board and pieces, positions, legal moves, FEN, move notations and
//! perft. This crate depends on nothing but the standard library.

pub mod bitboard;
pub mod explain;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod square;
pub mod status;
mod tables;
mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, START_FEN};
pub use movegen::GenKind;
pub use moves::{Move, MoveList};
pub use perft::{perft, perft_divide};
pub use piece::{Color, Piece, PieceKind};
pub use position::{Position, Undo};
pub use square::Square;
pub use status::GameStatus;
