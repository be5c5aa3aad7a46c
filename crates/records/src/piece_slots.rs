//! The 32 piece slots that XQF and DhtmlXQ list a position by: for each side, Red first, the
//! kinds R N B A K A B N R C C P P P P P, each slot holding a point or nothing.

use crate::error::PositionError;
use xiangqi_rules::{Color, Piece, PieceKind, Position, Square};

/// The kind of piece each of a side's 16 slots holds.
const SLOT_KINDS: [PieceKind; 16] = [
    PieceKind::Chariot,
    PieceKind::Horse,
    PieceKind::Elephant,
    PieceKind::Advisor,
    PieceKind::General,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::Cannon,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
];

/// The piece of slot `i` (0..32).
fn slot_piece(i: usize) -> Piece {
    let color = if i < 16 { Color::Red } else { Color::Black };
    Piece::new(color, SLOT_KINDS[i % 16])
}

/// The point of each slot for `pos`, each side's pieces taken from its own right as XQStudio
/// and dpxq list them; `None` for a slot no piece fills.
pub(crate) fn slots_of(pos: &Position) -> [Option<Square>; 32] {
    let mut slots = [None; 32];
    let mut points: Vec<Square> = Square::all().collect();
    points.sort_by_key(|sq| {
        let red = pos.piece_at(*sq).is_some_and(|p| p.color == Color::Red);
        if red {
            (8 - sq.file(), sq.rank())
        } else {
            (sq.file(), 9 - sq.rank())
        }
    });
    for sq in points {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        if let Some(i) = (0..32).find(|&i| slot_piece(i) == piece && slots[i].is_none()) {
            slots[i] = Some(sq);
        }
    }
    slots
}

/// What stands on each point when slot `i` holds `points[i]`; the point two pieces share is
/// the error.
pub(crate) fn board_of(points: &[Option<Square>; 32]) -> Result<[Option<Piece>; 90], Square> {
    let mut board = [None; 90];
    for (i, point) in points.iter().enumerate() {
        let Some(sq) = *point else { continue };
        if board[sq.index()].is_some() {
            return Err(sq);
        }
        board[sq.index()] = Some(slot_piece(i));
    }
    Ok(board)
}

/// The position of `board` with `side` to move and the counters at 0 and 1; the error says
/// why it is no position of the game, with its FEN.
pub(crate) fn position(
    board: &[Option<Piece>; 90],
    side: Color,
) -> Result<Position, PositionError> {
    let mut fen = xiangqi_rules::fen::board_field(|sq| board[sq.index()]);
    fen.push_str(if side == Color::Black { " b" } else { " w" });
    Position::from_fen(&fen).map_err(|error| PositionError::Fen { fen, error })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_through_slots() {
        let start = Position::startpos();
        let slots = slots_of(&start);
        assert_eq!(slots[0], "i0".parse::<Square>().ok());
        assert_eq!(slots[16], "a9".parse::<Square>().ok());
        assert!(slots.iter().all(Option::is_some));
        let board = board_of(&slots).unwrap();
        assert_eq!(position(&board, Color::Red).unwrap(), start);
    }

    #[test]
    fn shared_points_and_impossible_boards_are_errors() {
        let mut slots = [None; 32];
        slots[4] = "e0".parse::<Square>().ok();
        slots[20] = "e0".parse::<Square>().ok();
        assert_eq!(board_of(&slots), Err("e0".parse::<Square>().unwrap()));
        slots[20] = "e9".parse::<Square>().ok();
        let board = board_of(&slots).unwrap();
        assert!(matches!(
            position(&board, Color::Red),
            Err(PositionError::Fen { fen, .. }) if fen == "4k4/9/9/9/9/9/9/9/9/4K4 w"
        ));
    }
}
