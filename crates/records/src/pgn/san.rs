//! Algebraic moves as the `[Variant "xiangqi"]` dialect writes them: `Che3`, `Nhg8`, `Rih10`,
//! `Pxc5`, `Ch10+`, also long forms (`Ch3-e3`) and bare coordinates (`h3e3`). Ranks count
//! from 1 (Fairy-Stockfish, pychess, elephantchess) or from 0 (WinBoard); the caller says
//! which.

use xiangqi_rules::coordinates::RankBase;
use xiangqi_rules::notation::NotationError;
use xiangqi_rules::{Move, PieceKind, Position, Square};

/// What algebraic moves look like, for errors.
const EXPECTED: &str = "an algebraic move such as Che3, Nhg8 or h3e3";

/// The other numbering of ranks.
pub(crate) fn other(base: RankBase) -> RankBase {
    match base {
        RankBase::Zero => RankBase::One,
        RankBase::One => RankBase::Zero,
    }
}

/// The board rank (0–9) for a rank number written in `base`.
fn board_rank(base: RankBase, written: u32) -> Option<u8> {
    let rank = match base {
        RankBase::Zero => written,
        RankBase::One => written.checked_sub(1)?,
    };
    u8::try_from(rank).ok().filter(|r| *r < 10)
}

/// Splits a trailing rank number (one or two digits) off `text`.
fn split_rank(text: &str) -> Option<(&str, u32)> {
    let digits = text.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let (head, tail) = text.split_at(text.len() - digits);
    Some((head, tail.parse().ok()?))
}

/// The file (0–8) of a lower-case letter `a`–`i`.
fn file_of(c: u8) -> Option<u8> {
    (b'a'..=b'i').contains(&c).then(|| c - b'a')
}

/// The legal move of `pos` that the algebraic `text` names, ranks counted from `base`.
pub(crate) fn parse(pos: &Position, text: &str, base: RankBase) -> Result<Move, NotationError> {
    let shown: String = text.trim().chars().take(40).collect();
    let malformed = || NotationError::Malformed {
        text: shown.clone(),
        expected: EXPECTED,
    };
    let t = text.trim().trim_end_matches(['+', '#']);
    if !t.is_ascii() || t.is_empty() {
        return Err(malformed());
    }
    let (kind, rest) = match t.as_bytes()[0] {
        c if c.is_ascii_uppercase() => match PieceKind::from_letter(c as char) {
            Some(kind) => (Some(kind), &t[1..]),
            None => return Err(malformed()),
        },
        _ => (None, t),
    };
    let (head, written_rank) = split_rank(rest).ok_or_else(malformed)?;
    let (head, to_file) = match head.as_bytes().last().copied().and_then(file_of) {
        Some(f) => (&head[..head.len() - 1], f),
        None => return Err(malformed()),
    };
    let off_board = || NotationError::Impossible {
        text: shown.clone(),
        reason: "it names a rank off the board".to_string(),
    };
    let to_rank = board_rank(base, written_rank).ok_or_else(off_board)?;
    let to = Square::new(to_file, to_rank).ok_or_else(off_board)?;
    let head = head.trim_end_matches(['x', '-', ':']);
    let (from_file, head) = match head.as_bytes().first().copied().and_then(file_of) {
        Some(f) => (Some(f), &head[1..]),
        None => (None, head),
    };
    let from_rank = if head.is_empty() {
        None
    } else {
        let (rest, written) = split_rank(head).ok_or_else(malformed)?;
        if !rest.is_empty() {
            return Err(malformed());
        }
        Some(board_rank(base, written).ok_or_else(off_board)?)
    };
    let full_origin = from_file.is_some() && from_rank.is_some();
    let fits = |m: &Move| {
        let piece = pos.piece_at(m.from()).map(|p| p.kind);
        m.to() == to
            && match kind {
                Some(k) => piece == Some(k),
                None => full_origin || piece == Some(PieceKind::Soldier),
            }
            && from_file.is_none_or(|f| m.from().file() == f)
            && from_rank.is_none_or(|r| m.from().rank() == r)
    };
    let legal = pos.legal_moves();
    let found: Vec<Move> = legal.iter().copied().filter(fits).collect();
    match found[..] {
        [m] => Ok(m),
        [] => Err(no_legal_move(shown, from_file, from_rank, to)),
        _ => Err(NotationError::Ambiguous {
            text: shown,
            candidates: found,
        }),
    }
}

/// The error for an algebraic move that fits no legal move: an illegal move where the text
/// names both points, else a move no piece can make.
fn no_legal_move(
    text: String,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
) -> NotationError {
    match from_file
        .zip(from_rank)
        .and_then(|(f, r)| Square::new(f, r))
    {
        Some(from) => NotationError::IllegalMove {
            text,
            iccs: Move::new(from, to).to_string(),
        },
        None => NotationError::Impossible {
            text,
            reason: "no legal move fits it".to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(moves: &[&str], base: RankBase) -> Vec<String> {
        let mut pos = Position::startpos();
        moves
            .iter()
            .map(|t| {
                let m = parse(&pos, t, base).unwrap_or_else(|e| panic!("{e}"));
                pos.make_move(m);
                m.to_string()
            })
            .collect()
    }

    #[test]
    fn elephantchess_moves_with_ranks_from_one() {
        let moves = [
            "Che3", "Nhg8", "Nhg3", "Rih10", "Rih1", "Nbc8", "Pg5", "Pc6",
        ];
        assert_eq!(
            play(&moves, RankBase::One),
            [
                "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "g3g4", "c6c5"
            ]
        );
    }

    #[test]
    fn coordinates_and_long_forms() {
        assert_eq!(play(&["h3e3", "Nh10-g8"], RankBase::One), ["h2e2", "h9g7"]);
        assert_eq!(play(&["h2e2", "h9xg7"], RankBase::Zero), ["h2e2", "h9g7"]);
        assert_eq!(play(&["Che2"], RankBase::Zero), ["h2e2"]);
    }

    #[test]
    fn ambiguous_and_impossible_moves_are_refused() {
        let pos = Position::startpos();
        // Both cannons can reach e3 (rank 2 from 0).
        assert!(matches!(
            parse(&pos, "Ce3", RankBase::One),
            Err(NotationError::Ambiguous { candidates, .. }) if candidates.len() == 2
        ));
        assert!(matches!(
            parse(&pos, "Ke5", RankBase::One),
            Err(NotationError::Impossible { .. })
        ));
        assert!(matches!(
            parse(&pos, "a1a10", RankBase::One),
            Err(NotationError::IllegalMove { iccs, .. }) if iccs == "a0a9"
        ));
        assert!(parse(&pos, "Xe5", RankBase::One).is_err());
        assert!(parse(&pos, "e11", RankBase::One).is_err());
        assert!(parse(&pos, "炮二平五", RankBase::One).is_err());
    }
}
