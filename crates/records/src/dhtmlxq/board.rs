//! DhtmlXQ coordinates: a point is two digits, the column (0 = Red's left) then the row
//! counted from BLACK's back rank (0) down to Red's (9). `binit` lists the 32 pieces in the
//! order R N B A K A B N R C C P P P P P, Red then Black, `99` for a piece not on the board;
//! a move is its two points, e.g. 炮二平五 = `7747`.

use crate::piece_slots::{self, slots_of};
use xiangqi_rules::{Move, Piece, Position, Square};

/// The two digits of a point.
pub(crate) fn point_digits(sq: Square) -> [u8; 2] {
    [b'0' + sq.file(), b'0' + (9 - sq.rank())]
}

/// The point of two digits, if they are digits and on the board.
pub(crate) fn digits_point(col: u8, row: u8) -> Option<Square> {
    let (c, r) = (col.checked_sub(b'0')?, row.checked_sub(b'0')?);
    if c > 8 || r > 9 {
        return None;
    }
    Square::new(c, 9 - r)
}

/// The four digits of a move.
pub(crate) fn move_digits(m: Move) -> String {
    let [a, b] = point_digits(m.from());
    let [c, d] = point_digits(m.to());
    String::from_utf8(vec![a, b, c, d]).expect("digits are ASCII")
}

/// The `binit` of a position: 64 digits.
pub(crate) fn binit(pos: &Position) -> String {
    slots_of(pos)
        .iter()
        .map(|slot| match slot {
            Some(sq) => String::from_utf8(point_digits(*sq).to_vec()).expect("digits"),
            None => "99".to_string(),
        })
        .collect()
}

/// The board a `binit` describes: what stands on each point. Errors: `Err(None)` when the
/// text is not 64 digits, `Err(Some(point))` when two pieces share a point.
pub(crate) fn board_of(binit: &str) -> Result<[Option<Piece>; 90], Option<Square>> {
    let b = binit.as_bytes();
    if b.len() != 64 || !b.iter().all(u8::is_ascii_digit) {
        return Err(None);
    }
    let mut points = [None; 32];
    for (i, p) in points.iter_mut().enumerate() {
        *p = digits_point(b[2 * i], b[2 * i + 1]);
    }
    piece_slots::board_of(&points).map_err(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "8979695949392919097717866646260600102030405060708012720323436383";

    #[test]
    fn the_standard_binit() {
        assert_eq!(binit(&Position::startpos()), START);
        let board = board_of(START).unwrap();
        let pos = piece_slots::position(&board, xiangqi_rules::Color::Red).unwrap();
        assert_eq!(pos, Position::startpos());
    }

    #[test]
    fn central_cannon_is_7747() {
        let m = Move::new(
            "h2".parse::<Square>().unwrap(),
            "e2".parse::<Square>().unwrap(),
        );
        assert_eq!(move_digits(m), "7747");
        assert_eq!(digits_point(b'7', b'7'), "h2".parse::<Square>().ok());
        assert_eq!(digits_point(b'9', b'9'), None);
    }

    #[test]
    fn bad_binits_are_refused() {
        assert_eq!(board_of("12"), Err(None));
        let twice = format!("0909{}", &START[4..]);
        assert_eq!(board_of(&twice), Err("a0".parse::<Square>().ok()));
    }
}
