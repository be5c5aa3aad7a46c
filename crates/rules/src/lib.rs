//! The rules of Xiangqi: board and pieces, positions, legal moves, FEN, move notations and
//! perft. This crate depends on nothing but the standard library.
//!
//! # Board representation
//! A [`Position`] keeps a 90-point mailbox (what stands on each point) beside 128-bit masks
//! per side and per piece, and the square of each general. Geometry — rays, horse moves with
//! their leg points, elephant moves with their eye points, palace steps, soldier steps — is
//! computed at compile time. Moves are made and unmade in place with an incremental Zobrist
//! hash. Legality needs no make/unmake: a move is tested against the masks with the moved
//! piece's occupancy change, and only moves that can matter are tested at all — out of check,
//! a move is risky only when it leaves a point the general's lines or horse legs depend on
//! (a pinned piece, a cannon screen, a horse leg) or drops a piece between the general and an
//! unscreened cannon.
//!
//! The measured perft and judging speed is in `docs/results.md`.

pub mod bitboard;
pub mod coordinates;
pub mod draw;
pub mod explain;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod piece;
pub mod position;
pub mod random;
pub mod repetition;
pub mod square;
pub mod status;
mod tables;
mod zobrist;

pub use bitboard::Bitboard;
pub use coordinates::{ParseMoveError, ParseSquareError, RankBase};
pub use fen::{FenError, START_FEN};
pub use game::{Game, GameRules};
pub use movegen::GenKind;
pub use moves::{Move, MoveList};
pub use outcome::{EndReason, GameResult, Outcome, ParseResultError};
pub use perft::{perft, perft_divide};
pub use piece::{Color, Piece, PieceKind};
pub use position::{Position, Undo};
pub use repetition::{RuleSet, Verdict, VerdictKind};
pub use square::Square;
pub use status::GameStatus;
