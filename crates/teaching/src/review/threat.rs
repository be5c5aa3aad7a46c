//! What a move threatens: the most valuable enemy piece the moved piece attacks. The app's
//! hints and the review's explanation of a mistake both say it.

use xiangqi_engine::SEE_VALUE;
use xiangqi_rules::{Move, Piece, PieceKind, Position, Square};

/// A piece under attack and the point it stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threat {
    /// Where the piece stands.
    pub square: Square,
    /// The piece.
    pub piece: Piece,
}

/// The exchange value of a piece, for choosing among threats: a check ranks below every
/// piece, since the reply to it is forced but nothing is won by it alone.
fn threat_rank(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::General => 0,
        _ => SEE_VALUE[kind.index()],
    }
}

/// The most valuable piece of the side to move in `after` that the piece which just moved
/// to `moved.to()` attacks, if any; `after` is the position after `moved`.
pub fn threat_of(after: &Position, moved: Move) -> Option<Threat> {
    let victim = after.side_to_move();
    after
        .attacks_from(moved.to())
        .filter_map(|square| after.piece_at(square).map(|piece| Threat { square, piece }))
        .filter(|t| t.piece.color == victim)
        .max_by_key(|t| threat_rank(t.piece.kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn threat(fen: &str, mv: &str) -> Option<(String, char)> {
        let pos = Position::from_fen(fen).expect("FEN");
        let m: Move = mv.parse().expect("move");
        threat_of(&pos.after(m), m).map(|t| (t.square.to_string(), t.piece.fen_char()))
    }

    #[test]
    fn the_most_valuable_attacked_piece_is_named() {
        // The red horse jumps from e3 to d5 and forks the chariot on c7 and the cannon on f6.
        let fen = "5k3/9/2r6/5c3/9/9/4N4/9/9/3K5 w - - 0 1";
        assert_eq!(threat(fen, "e3d5"), Some(("c7".to_string(), 'r')));
        // Without the chariot, the cannon.
        let fen = "5k3/9/9/5c3/9/9/4N4/9/9/3K5 w - - 0 1";
        assert_eq!(threat(fen, "e3d5"), Some(("f6".to_string(), 'c')));
    }

    #[test]
    fn a_quiet_move_threatens_nothing() {
        let start = xiangqi_rules::START_FEN;
        assert_eq!(threat(start, "a3a4"), None);
    }
}
