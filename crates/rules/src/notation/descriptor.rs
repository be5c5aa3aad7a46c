//! What WXF and Chinese notation share: a move told by the kind of piece, which piece of that
//! kind (by the file it stands on, or by its place among like pieces on one file), the
//! direction and a number (steps, or the destination file).
//!
//! Files are counted 1–9 from the mover's own right: for Red file 1 is ICCS `i`, for Black
//! file 1 is ICCS `a`.

use super::NotationError;
use crate::moves::Move;
use crate::piece::{Color, Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;

/// Forward (`+`, 进), backward (`-`, 退) or sideways (`=`, 平), seen from the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    Forward,
    Backward,
    Sideways,
}

/// Which of several like pieces on one file is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// The foremost (前, `++`).
    Front,
    /// The middle one of three (or of five) (中).
    Middle,
    /// The rearmost (后, `--`).
    Rear,
    /// The n-th from the front, from 1 (一兵, 二兵, or the 2018 WXF `15+1`).
    Nth(u8),
    /// WXF `+`: the front of two or three; with four or five, the second from the front
    /// (older WXF texts write `++` for the foremost of four or five).
    WxfFront,
    /// WXF `-`: the rear of two or three; with four or five, the second from the rear.
    WxfRear,
}

impl Place {
    /// The index from the front (0 = foremost) this place names among `count` like pieces on
    /// one file, if it names one.
    fn index(self, count: usize) -> Option<usize> {
        if count < 2 {
            return None;
        }
        match self {
            Place::Front => Some(0),
            Place::Rear => Some(count - 1),
            Place::Middle => match count {
                3 => Some(1),
                5 => Some(2),
                _ => None,
            },
            Place::Nth(n) => {
                let n = n as usize;
                (1..=count).contains(&n).then(|| n - 1)
            }
            Place::WxfFront => Some(if count <= 3 { 0 } else { 1 }),
            Place::WxfRear => Some(if count <= 3 { count - 1 } else { count - 2 }),
        }
    }

    fn describe(self) -> String {
        match self {
            Place::Front | Place::WxfFront => "in front of a like piece on its file".to_string(),
            Place::Rear | Place::WxfRear => "behind a like piece on its file".to_string(),
            Place::Middle => "in the middle of three or five on one file".to_string(),
            Place::Nth(n) => format!("at place {n} from the front of several on one file"),
        }
    }
}

/// How the notation picks the piece that moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Selector {
    /// The piece on this file (1–9, the mover's counting).
    File(u8),
    /// The piece at this place among like pieces on one file, optionally a named file.
    Place { place: Place, file: Option<u8> },
}

impl Selector {
    fn accepts(self, file: u8, index: usize, count: usize) -> bool {
        match self {
            Selector::File(f) => f == file,
            Selector::Place { place, file: f } => {
                f.is_none_or(|f| f == file) && place.index(count) == Some(index)
            }
        }
    }

    fn describe(self) -> String {
        match self {
            Selector::File(f) => format!("on file {f}"),
            Selector::Place { place, file: None } => place.describe(),
            Selector::Place {
                place,
                file: Some(f),
            } => format!("on file {f} {}", place.describe()),
        }
    }
}

/// A move as WXF or Chinese notation tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Descriptor {
    pub kind: PieceKind,
    pub selector: Selector,
    pub direction: Direction,
    /// Steps for straight moves forward or backward; otherwise the destination file.
    pub number: u8,
}

/// Everything the notations need to know about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Facts {
    pub piece: Piece,
    /// The file the piece leaves, 1–9 in the mover's counting.
    pub file: u8,
    /// Place of the piece among like pieces on its file, 0 = foremost.
    pub index: usize,
    /// How many like pieces stand on its file (itself included).
    pub count: usize,
    /// On how many files the mover has two or more pieces like this one.
    pub crowded_files: usize,
    pub direction: Direction,
    pub number: u8,
}

/// Whether the piece kind moves along files and ranks (its forward/backward number is a
/// count of steps), rather than diagonally (its number is always a file).
pub(crate) const fn moves_straight(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::General | PieceKind::Chariot | PieceKind::Cannon | PieceKind::Soldier
    )
}

/// The board file (0 = `a`) as `color` counts it, 1–9 from its own right.
pub(crate) const fn own_file(color: Color, board_file: u8) -> u8 {
    match color {
        Color::Red => 9 - board_file,
        Color::Black => board_file + 1,
    }
}

/// The board file (0 = `a`) of the file `color` calls `own` (1–9).
pub(crate) const fn board_file(color: Color, own: u8) -> Option<u8> {
    if own < 1 || own > 9 {
        return None;
    }
    Some(match color {
        Color::Red => 9 - own,
        Color::Black => own - 1,
    })
}

/// Whether `a` stands in front of `b` from `color`'s point of view.
fn ahead(color: Color, a: Square, b: Square) -> bool {
    match color {
        Color::Red => a.rank() > b.rank(),
        Color::Black => a.rank() < b.rank(),
    }
}

/// `(index from the front, count)` of the piece on `sq` among like pieces on its file.
fn place_on_file(pos: &Position, piece: Piece, sq: Square) -> (usize, usize) {
    let mut index = 0;
    let mut count = 0;
    for other in pos.pieces(piece) {
        if other.file() == sq.file() {
            count += 1;
            if ahead(piece.color, other, sq) {
                index += 1;
            }
        }
    }
    (index, count)
}

/// On how many files `piece` stands two or more times.
fn crowded_files(pos: &Position, piece: Piece) -> usize {
    let mut per_file = [0u8; 9];
    for sq in pos.pieces(piece) {
        per_file[sq.file() as usize] += 1;
    }
    per_file.iter().filter(|&&n| n >= 2).count()
}

/// The facts of `m` in `pos`; `None` when no piece stands on the move's origin.
pub(crate) fn facts(pos: &Position, m: Move) -> Option<Facts> {
    let (from, to) = (m.from(), m.to());
    let piece = pos.piece_at(from)?;
    let color = piece.color;
    let (index, count) = place_on_file(pos, piece, from);
    let ahead_ranks = (to.rank() as i8 - from.rank() as i8) * color.forward();
    let direction = match ahead_ranks {
        d if d > 0 => Direction::Forward,
        d if d < 0 => Direction::Backward,
        _ => Direction::Sideways,
    };
    let number = if moves_straight(piece.kind) && direction != Direction::Sideways {
        ahead_ranks.unsigned_abs()
    } else {
        own_file(color, to.file())
    };
    Some(Facts {
        piece,
        file: own_file(color, from.file()),
        index,
        count,
        crowded_files: crowded_files(pos, piece),
        direction,
        number,
    })
}

impl Descriptor {
    fn accepts(&self, f: &Facts) -> bool {
        f.piece.kind == self.kind
            && f.direction == self.direction
            && f.number == self.number
            && self.selector.accepts(f.file, f.index, f.count)
    }

    /// The point a piece of `color` on `from` reaches when it makes this move, if the move
    /// is geometrically possible for the kind (ignoring other pieces).
    fn target(&self, color: Color, from: Square) -> Option<Square> {
        let fwd = color.forward();
        let number = self.number as i8;
        if moves_straight(self.kind) {
            return match self.direction {
                Direction::Forward => from.offset(0, number * fwd),
                Direction::Backward => from.offset(0, -number * fwd),
                Direction::Sideways => {
                    let file = board_file(color, self.number)?;
                    (file != from.file()).then(|| Square::new(file, from.rank()))?
                }
            };
        }
        let sign = match self.direction {
            Direction::Forward => fwd,
            Direction::Backward => -fwd,
            Direction::Sideways => return None,
        };
        let file = board_file(color, self.number)?;
        let df = file as i8 - from.file() as i8;
        let dr = match (self.kind, df.abs()) {
            (PieceKind::Advisor, 1) => 1,
            (PieceKind::Elephant, 2) => 2,
            (PieceKind::Horse, 1) => 2,
            (PieceKind::Horse, 2) => 1,
            _ => return None,
        };
        from.offset(df, dr * sign)
    }
}

/// The legal moves of `pos` that `d` describes.
pub(crate) fn candidates(pos: &Position, d: &Descriptor) -> Vec<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&m| pos.piece_at(m.from()).is_some_and(|p| p.kind == d.kind))
        .filter(|&m| facts(pos, m).is_some_and(|f| d.accepts(&f)))
        .collect()
}

/// The one legal move `primary` describes; when it describes none, the one legal move the
/// first fitting `fallback` (an older reading of the same text) describes.
pub(crate) fn resolve(
    pos: &Position,
    text: &str,
    primary: &Descriptor,
    fallbacks: &[Descriptor],
) -> Result<Move, NotationError> {
    let mut found = candidates(pos, primary);
    if found.is_empty() {
        for d in fallbacks {
            found = candidates(pos, d);
            if !found.is_empty() {
                break;
            }
        }
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => Err(explain_failure(pos, text, primary)),
        _ => Err(NotationError::Ambiguous {
            text: super::shown(text),
            candidates: found,
        }),
    }
}

/// Why no legal move fits `d`.
fn explain_failure(pos: &Position, text: &str, d: &Descriptor) -> NotationError {
    let side = pos.side_to_move();
    let piece = Piece::new(side, d.kind);
    let chosen: Vec<Square> = pos
        .pieces(piece)
        .filter(|&sq| {
            let (index, count) = place_on_file(pos, piece, sq);
            d.selector.accepts(own_file(side, sq.file()), index, count)
        })
        .collect();
    if chosen.is_empty() {
        return NotationError::NoSuchPiece {
            text: super::shown(text),
            side,
            kind: Some(d.kind),
            place: d.selector.describe(),
        };
    }
    let mut moves: Vec<Move> = chosen
        .iter()
        .filter_map(|&from| d.target(side, from).map(|to| Move::new(from, to)))
        .collect();
    moves.dedup();
    match moves.as_slice() {
        [m] => NotationError::IllegalMove {
            text: super::shown(text),
            iccs: m.to_string(),
        },
        _ => NotationError::Impossible {
            text: super::shown(text),
            reason: format!(
                "the {} {} {} cannot move that way",
                side.to_string().to_lowercase(),
                d.kind.name(),
                d.selector.describe()
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_counted_from_the_movers_right() {
        // Red file 1 is ICCS i, Black file 1 is ICCS a.
        assert_eq!(own_file(Color::Red, 8), 1);
        assert_eq!(own_file(Color::Red, 0), 9);
        assert_eq!(own_file(Color::Black, 0), 1);
        assert_eq!(own_file(Color::Black, 8), 9);
        for color in Color::ALL {
            for f in 0..9 {
                assert_eq!(board_file(color, own_file(color, f)), Some(f));
            }
            assert_eq!(board_file(color, 0), None);
            assert_eq!(board_file(color, 10), None);
        }
    }

    #[test]
    fn places_among_like_pieces() {
        assert_eq!(Place::Front.index(1), None);
        assert_eq!(Place::Front.index(2), Some(0));
        assert_eq!(Place::Rear.index(3), Some(2));
        assert_eq!(Place::Middle.index(2), None);
        assert_eq!(Place::Middle.index(3), Some(1));
        assert_eq!(Place::Middle.index(5), Some(2));
        assert_eq!(Place::Nth(4).index(4), Some(3));
        assert_eq!(Place::Nth(5).index(4), None);
        assert_eq!(Place::Nth(0).index(4), None);
        // Older WXF: with four or five, `+` and `-` are the second from either end.
        assert_eq!(Place::WxfFront.index(3), Some(0));
        assert_eq!(Place::WxfFront.index(5), Some(1));
        assert_eq!(Place::WxfRear.index(2), Some(1));
        assert_eq!(Place::WxfRear.index(5), Some(3));
    }
}
