//! The learner's safety net on the server: the piece a move would leave hanging, as the page
//! gets it to ask "play anyway?" before the move is played.

use serde::Serialize;
use xiangqi_rules::{Move, Position};
use xiangqi_teaching::review::hanging_after;

/// A piece of the mover's that a move leaves to be won.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct HangingPiece {
    /// Its FEN letter (upper case Red).
    pub piece: char,
    /// The point it stands on after the move (ICCS).
    pub square: String,
    /// The material the move loses, in centipawns (a soldier is 100).
    pub loss: i32,
    /// Whether a piece of its own side protects it: then it is lost to an exchange, else it
    /// is simply taken.
    pub defended: bool,
    /// The FEN letter of the other side's piece that takes it first.
    pub attacker: char,
    /// The point that piece stands on (ICCS).
    pub attacker_square: String,
}

/// The piece that `m`, legal in `pos`, leaves hanging, if any (see
/// [`hanging_after`](xiangqi_teaching::review::hanging_after)).
pub fn hanging_piece(pos: &Position, m: Move) -> Option<HangingPiece> {
    hanging_after(pos, m).map(|h| HangingPiece {
        piece: h.piece.fen_char(),
        square: h.square.to_string(),
        loss: h.loss,
        defended: h.defended,
        attacker: h.attacker.fen_char(),
        attacker_square: h.attacker_square.to_string(),
    })
}
