//! Chinese notation: `炮二平五`, `马8进7`, `前炮平五`, `中兵平四`, `二兵平五`, `前兵九平八`.

use super::descriptor::{Descriptor, Direction, Place, Selector, facts, resolve};
use super::{NotationError, checked, shown};
use crate::moves::Move;
use crate::piece::{Color, PieceKind};
use crate::position::Position;

const EXPECTED: &str = "a Chinese move: a piece (帅 仕 相 马 车 炮 兵 / 将 士 象 马 车 炮 卒), \
     its file (一…九 for Red, 1…9 for Black) or 前/中/后, then 进, 退 or 平 and a number, \
     like 炮二平五, 马8进7 or 前炮平五";

/// Chinese numerals 1–9, used for Red.
const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The character written for a piece.
fn piece_char(color: Color, kind: PieceKind) -> char {
    match (color, kind) {
        (Color::Red, PieceKind::General) => '帅',
        (Color::Black, PieceKind::General) => '将',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Black, PieceKind::Elephant) => '象',
        (_, PieceKind::Horse) => '马',
        (_, PieceKind::Chariot) => '车',
        (_, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Soldier) => '兵',
        (Color::Black, PieceKind::Soldier) => '卒',
    }
}

/// A number 1–9 as `color` writes it: Chinese numerals for Red, digits for Black.
fn number_char(color: Color, n: u8) -> char {
    let n = n.clamp(1, 9);
    match color {
        Color::Red => NUMERALS[n as usize - 1],
        Color::Black => (b'0' + n) as char,
    }
}

/// 前, 中 or 后 for the piece at `index` of `count` (two or three) on one file.
fn front_middle_rear(index: usize, count: usize) -> char {
    if index == 0 {
        '前'
    } else if index + 1 == count {
        '后'
    } else {
        '中'
    }
}

/// `m` in Chinese notation; plain ICCS when the origin is empty.
pub(crate) fn format(pos: &Position, m: Move) -> String {
    let Some(f) = facts(pos, m) else {
        return m.to_string();
    };
    let color = f.piece.color;
    let name = piece_char(color, f.piece.kind);
    let dir = match f.direction {
        Direction::Forward => '进',
        Direction::Backward => '退',
        Direction::Sideways => '平',
    };
    let n = number_char(color, f.number);
    let file = number_char(color, f.file);
    let mut s = String::with_capacity(16);
    match f.piece.kind {
        PieceKind::Soldier if f.count >= 2 && f.crowded_files >= 2 => {
            s.push(front_middle_rear(f.index, f.count));
            s.push(name);
            s.push(file);
        }
        PieceKind::Soldier if f.count >= 4 => {
            // Four or five on one file: 一 二 三 四 五 from the front.
            s.push(NUMERALS[f.index.min(8)]);
            s.push(name);
        }
        PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon | PieceKind::Soldier
            if f.count >= 2 =>
        {
            s.push(front_middle_rear(f.index, f.count));
            s.push(name);
        }
        _ => {
            s.push(name);
            s.push(file);
        }
    }
    s.push(dir);
    s.push(n);
    s
}

/// One character of a Chinese move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// A piece; the colour when the character belongs to one side only.
    Piece(PieceKind, Option<Color>),
    /// A number 1–9 in any script.
    Number(u8),
    /// 前, 中 or 后.
    Place(Place),
    /// 进, 退 or 平.
    Dir(Direction),
}

fn token(c: char) -> Option<Token> {
    use PieceKind::*;
    let t = match c {
        '帅' | '帥' => Token::Piece(General, Some(Color::Red)),
        '将' | '將' => Token::Piece(General, Some(Color::Black)),
        '仕' | '士' => Token::Piece(Advisor, None),
        '相' | '象' => Token::Piece(Elephant, None),
        '马' | '馬' | '傌' => Token::Piece(Horse, None),
        '车' | '車' | '俥' | '伡' => Token::Piece(Chariot, None),
        '炮' | '砲' | '包' => Token::Piece(Cannon, None),
        '兵' => Token::Piece(Soldier, Some(Color::Red)),
        '卒' => Token::Piece(Soldier, Some(Color::Black)),
        '前' => Token::Place(Place::Front),
        '中' => Token::Place(Place::Middle),
        '后' | '後' => Token::Place(Place::Rear),
        '进' | '進' | '上' => Token::Dir(Direction::Forward),
        '退' | '下' => Token::Dir(Direction::Backward),
        '平' => Token::Dir(Direction::Sideways),
        '1'..='9' => Token::Number(c as u8 - b'0'),
        '１'..='９' => Token::Number((c as u32 - '０' as u32) as u8),
        _ => Token::Number(NUMERALS.iter().position(|&n| n == c)? as u8 + 1),
    };
    Some(t)
}

/// The descriptor the text gives, and the colour its piece character belongs to, if any.
fn read(tokens: &[Token]) -> Option<(Descriptor, Option<Color>)> {
    use Token::{Dir, Number, Piece};
    let (head, dir, number) = match tokens {
        [head @ .., Dir(d), Number(n)] => (head, *d, *n),
        _ => return None,
    };
    // Something that names a place among like pieces: 前 中 后 or 一…五.
    let place = |t: &Token| match *t {
        Token::Place(p) => Some(p),
        Number(k) if k <= 5 => Some(Place::Nth(k)),
        _ => None,
    };
    let (kind, color, selector) = match *head {
        // 炮二
        [Piece(k, c), Number(f)] => (k, c, Selector::File(f)),
        // 前炮, 二兵
        [ref p, Piece(k, c)] if place(p).is_some() => (
            k,
            c,
            Selector::Place {
                place: place(p)?,
                file: None,
            },
        ),
        // 炮前
        [Piece(k, c), ref p] if place(p).is_some() => (
            k,
            c,
            Selector::Place {
                place: place(p)?,
                file: None,
            },
        ),
        // 前九: a soldier, the piece left out.
        [ref p, Number(f)] => (
            PieceKind::Soldier,
            None,
            Selector::Place {
                place: place(p)?,
                file: Some(f),
            },
        ),
        // 前兵九
        [ref p, Piece(k, c), Number(f)] => (
            k,
            c,
            Selector::Place {
                place: place(p)?,
                file: Some(f),
            },
        ),
        _ => return None,
    };
    let d = Descriptor {
        kind,
        selector,
        direction: dir,
        number,
    };
    Some((d, color))
}

/// Reads a Chinese move and returns the legal move of `pos` it names.
pub(crate) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let t = checked(text)?;
    let malformed = || NotationError::Malformed {
        text: shown(t),
        expected: EXPECTED,
    };
    let tokens: Option<Vec<Token>> = t
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(token)
        .collect();
    let (d, color) = tokens.as_deref().and_then(read).ok_or_else(malformed)?;
    let side = pos.side_to_move();
    if color.is_some_and(|c| c != side) {
        return Err(NotationError::WrongSide {
            text: shown(t),
            side_to_move: side,
        });
    }
    resolve(pos, t, &d, &[])
}
