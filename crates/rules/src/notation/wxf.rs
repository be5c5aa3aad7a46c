//! WXF notation: `C2=5`, `H2+3`, `C+=5`, and the 2018 soldier form `15=6`.

use super::descriptor::{Descriptor, Direction, Place, Selector, facts, resolve};
use super::{NotationError, checked, shown};
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;

const EXPECTED: &str = "a WXF move: a piece letter (K A E H R C P), its file 1-9 (or + / - for \
     the front or rear of two on one file), an operator + - = and a number, like C2=5, H2+3, \
     C+=5 or 15=6";

/// The WXF operator for a direction.
fn operator(d: Direction) -> char {
    match d {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '=',
    }
}

/// `m` in WXF; plain ICCS when the origin is empty.
pub(crate) fn format(pos: &Position, m: Move) -> String {
    let Some(f) = facts(pos, m) else {
        return m.to_string();
    };
    let letter = f.piece.kind.wxf_letter();
    let op = operator(f.direction);
    let n = f.number;
    match f.piece.kind {
        // Their move tells which of two on one file moves.
        PieceKind::General | PieceKind::Advisor | PieceKind::Elephant => {
            format!("{letter}{}{op}{n}", f.file)
        }
        PieceKind::Soldier if f.count >= 3 || (f.count == 2 && f.crowded_files >= 2) => {
            format!("{}{}{op}{n}", f.index + 1, f.file)
        }
        _ if f.count >= 2 => {
            let sign = if f.index == 0 { '+' } else { '-' };
            format!("{letter}{sign}{op}{n}")
        }
        _ => format!("{letter}{}{op}{n}", f.file),
    }
}

fn direction(c: char) -> Option<Direction> {
    match c {
        '+' => Some(Direction::Forward),
        '-' => Some(Direction::Backward),
        '=' | '.' => Some(Direction::Sideways),
        _ => None,
    }
}

fn digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

fn letter(c: char) -> Option<PieceKind> {
    if c.is_ascii_alphabetic() {
        PieceKind::from_letter(c)
    } else {
        None
    }
}

/// The descriptor the text gives, and older readings of it to try when it fits no move.
fn read(chars: &[char]) -> Option<(Descriptor, Vec<Descriptor>)> {
    let (a, b, op, n) = match *chars {
        [a, b, op, n] => (a, b, direction(op)?, digit(n)?),
        // `C25`: an old way of writing `C2=5`.
        [a, b, n] if digit(b).is_some() => (a, b, Direction::Sideways, digit(n)?),
        _ => return None,
    };
    let make = |kind, selector| Descriptor {
        kind,
        selector,
        direction: op,
        number: n,
    };
    let place = |place| Selector::Place { place, file: None };
    let mut fallbacks = Vec::new();
    let primary = match (a, b) {
        ('+', '+') => make(PieceKind::Soldier, place(Place::Front)),
        ('-', '-') => make(PieceKind::Soldier, place(Place::Rear)),
        ('+', l) | (l, '+') if letter(l).is_some() => make(letter(l)?, place(Place::WxfFront)),
        ('-', l) | (l, '-') if letter(l).is_some() => make(letter(l)?, place(Place::WxfRear)),
        (l, f) if letter(l).is_some() => {
            let kind = letter(l)?;
            let file = digit(f)?;
            if kind == PieceKind::Soldier && file == 3 {
                // Before 2018, `P3` also named the middle of three or five soldiers on a file.
                fallbacks.push(make(kind, place(Place::Middle)));
            }
            make(kind, Selector::File(file))
        }
        (k, f) => {
            let nth = digit(k).filter(|&k| k <= 5)?;
            let selector = Selector::Place {
                place: Place::Nth(nth),
                file: Some(digit(f)?),
            };
            make(PieceKind::Soldier, selector)
        }
    };
    Some((primary, fallbacks))
}

/// Reads a WXF move and returns the legal move of `pos` it names.
pub(crate) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let t = checked(text)?;
    let chars: Vec<char> = t
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let Some((primary, fallbacks)) = read(&chars) else {
        return Err(NotationError::Malformed {
            text: shown(t),
            expected: EXPECTED,
        });
    };
    resolve(pos, t, &primary, &fallbacks)
}
