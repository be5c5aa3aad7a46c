//! ICCS coordinates: `h2e2`; on input also `h2-e2`, `H2E2`, `H2-E2`.

use super::{NotationError, checked, shown};
use crate::moves::Move;
use crate::position::Position;

const EXPECTED: &str = "an ICCS move such as h2e2 or h2-e2 (files a-i, ranks 0-9)";

/// `m` in ICCS.
pub(crate) fn format(m: Move) -> String {
    m.to_string()
}

/// The move the ICCS text names, whether or not it is legal.
fn read(t: &str) -> Option<Move> {
    match t.as_bytes() {
        [a, b, b'-', c, d] => std::str::from_utf8(&[*a, *b, *c, *d]).ok()?.parse().ok(),
        _ => t.parse().ok(),
    }
}

/// Reads an ICCS move and checks it is legal in `pos`.
pub(crate) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let t = checked(text)?;
    let Some(m) = read(t) else {
        return Err(NotationError::Malformed {
            text: shown(t),
            expected: EXPECTED,
        });
    };
    let side = pos.side_to_move();
    match pos.piece_at(m.from()) {
        None => Err(NotationError::NoSuchPiece {
            text: shown(t),
            side,
            kind: None,
            place: format!("on {}", m.from()),
        }),
        Some(p) if p.color != side => Err(NotationError::WrongSide {
            text: shown(t),
            side_to_move: side,
        }),
        Some(_) if pos.legal_moves().contains(m) => Ok(m),
        Some(_) => Err(NotationError::IllegalMove {
            text: shown(t),
            iccs: m.to_string(),
        }),
    }
}
