//! What a table says about a position, and how it is stored (one 16-bit code per entry).

use std::fmt;

/// The exact result for the side to move, with the distance to mate in plies (half-moves):
/// `Win(1)` mates with the next move, `Loss(0)` has no legal move (mated or stalemated: both
/// lose in Xiangqi). Endless play is a draw.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// The side to move mates in this many plies against any defence (always odd).
    Win(u16),
    /// Neither side can force mate; play can go on forever.
    Draw,
    /// The side to move is mated in this many plies against the best defence (always even).
    Loss(u16),
}

impl Value {
    /// The value for the other side, one ply earlier: the value of the position a move came
    /// from, if this is the value after it.
    pub fn before(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// The plies to mate, for a win or a loss.
    pub fn distance(self) -> Option<u16> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// A key that sorts the best value for the side to move first: the shortest win, then
    /// draws, then the longest loss.
    pub fn preference(self) -> (u8, i32) {
        match self {
            Value::Win(d) => (0, d as i32),
            Value::Draw => (1, 0),
            Value::Loss(d) => (2, -(d as i32)),
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn word(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Draw => "draw",
            Value::Loss(_) => "loss",
        }
    }
}

impl fmt::Display for Value {
    /// `win in 7`, `draw`, `loss in 12` (plies).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Draw => write!(f, "draw"),
            Value::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}

/// The verdict under the Asian rules where it differs from the plain table's draw.
///
/// A plain table counts endless play as a draw. The Asian rules forbid perpetual check: a
/// side that can only avoid being mated by checking forever loses. [`Asian::Loss`] marks a
/// drawn position where the side to move cannot hold the draw unless it checks forever: the
/// other side can always steer play so that, from some point on, every move of the side to
/// move either gives check or walks into a lost position, while the other side itself keeps
/// making moves that are not checks. [`Asian::Win`] marks the same for the other side. When
/// both sides would be checking forever (mutual perpetual check) the game stays drawn.
/// Perpetual chasing is not judged; the tables know nothing of it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Asian {
    /// The Asian rules give the same result as the table.
    Same,
    /// Drawn by the table; under the Asian rules the side to move loses (it could hold only
    /// by perpetual check).
    Loss,
    /// Drawn by the table; under the Asian rules the side to move wins (the other side could
    /// hold only by perpetual check).
    Win,
}

impl Asian {
    /// The verdict seen by the other side.
    pub fn opposite(self) -> Asian {
        match self {
            Asian::Same => Asian::Same,
            Asian::Loss => Asian::Win,
            Asian::Win => Asian::Loss,
        }
    }
}

/// An entry that is no legal position (pieces on one point, facing generals, the side not to
/// move in check).
pub(crate) const ILLEGAL: u16 = 0;
/// A draw, the same under the Asian rules.
pub(crate) const DRAW: u16 = 1;
/// A draw that the side to move loses under the Asian rules.
pub(crate) const DRAW_ASIAN_LOSS: u16 = 2;
/// A draw that the side to move wins under the Asian rules.
pub(crate) const DRAW_ASIAN_WIN: u16 = 3;
/// `DECIDED + d`: mate in `d` plies, won by the side to move when `d` is odd, lost when even.
pub(crate) const DECIDED: u16 = 4;
/// Not known yet (only while generating).
pub(crate) const UNKNOWN: u16 = u16::MAX;
/// The longest distance a code can hold.
pub(crate) const MAX_DISTANCE: u16 = UNKNOWN - DECIDED - 1;

/// The value of a stored code, `None` for an illegal entry.
pub(crate) fn decode(code: u16) -> Option<(Value, Asian)> {
    match code {
        ILLEGAL | UNKNOWN => None,
        DRAW => Some((Value::Draw, Asian::Same)),
        DRAW_ASIAN_LOSS => Some((Value::Draw, Asian::Loss)),
        DRAW_ASIAN_WIN => Some((Value::Draw, Asian::Win)),
        c => {
            let d = c - DECIDED;
            Some((
                if d % 2 == 1 {
                    Value::Win(d)
                } else {
                    Value::Loss(d)
                },
                Asian::Same,
            ))
        }
    }
}

/// Whether a code is a draw of any kind.
#[inline]
pub(crate) fn is_draw(code: u16) -> bool {
    (DRAW..DECIDED).contains(&code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        assert_eq!(decode(DECIDED), Some((Value::Loss(0), Asian::Same)));
        assert_eq!(decode(DECIDED + 7), Some((Value::Win(7), Asian::Same)));
        assert_eq!(decode(ILLEGAL), None);
        assert_eq!(Value::Loss(6).before(), Value::Win(7));
        let mut v = [
            Value::Loss(4),
            Value::Win(9),
            Value::Draw,
            Value::Win(3),
            Value::Loss(8),
        ];
        v.sort_by_key(|v| v.preference());
        assert_eq!(
            v,
            [
                Value::Win(3),
                Value::Win(9),
                Value::Draw,
                Value::Loss(8),
                Value::Loss(4)
            ]
        );
    }
}
