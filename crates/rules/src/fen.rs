//! Reading and writing positions in Xiangqi FEN, with validation that says what is wrong and
//! where.

use crate::piece::{Color, Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;
use std::fmt;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// The board field does not have 10 ranks separated by `/`.
    RankCount {
        /// How many ranks were found.
        found: usize,
    },
    /// A rank does not describe exactly 9 points.
    PointCount {
        /// The rank (0–9) the field describes.
        rank: u8,
        /// How many points it described.
        found: usize,
    },
    /// A character in the board field is neither a piece letter nor a digit 1–9.
    UnknownLetter {
        /// The character.
        letter: char,
        /// The rank (0–9) where it stands.
        rank: u8,
        /// Its character position within the board field, from 1.
        column: usize,
    },
    /// A side has no general.
    MissingGeneral(Color),
    /// A side has more than one general.
    ExtraGeneral(Color),
    /// A side has more pieces of a kind than the game allows.
    TooManyPieces {
        /// The offending piece.
        piece: Piece,
        /// How many there are.
        found: usize,
    },
    /// A piece stands on a point it can never reach (a general or advisor outside the palace,
    /// an elephant off its seven points, a soldier behind its start or off its files).
    UnreachablePoint {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// The two generals face each other on an open file.
    GeneralsFacing {
        /// The shared file letter.
        file: char,
    },
    /// The side that is not to move is in check, so the last move was illegal.
    OpponentInCheck(Color),
    /// The side-to-move field is missing or not `w`, `r` or `b`.
    BadSide(String),
    /// A counter is not a non-negative whole number (or the move number is 0).
    BadCounter {
        /// Which counter: "halfmove clock" or "move number".
        which: &'static str,
        /// The text found.
        found: String,
    },
    /// Fields after the counters.
    TrailingText(String),
}

impl FenError {
    /// A stable key for the reason (`"fen-rank-count"` …), so an interface can word it in its
    /// own language from the code and the variant's fields (its blanks).
    pub fn code(&self) -> &'static str {
        match self {
            FenError::Empty => "fen-empty",
            FenError::RankCount { .. } => "fen-rank-count",
            FenError::PointCount { .. } => "fen-point-count",
            FenError::UnknownLetter { .. } => "fen-unknown-letter",
            FenError::MissingGeneral(_) => "fen-missing-general",
            FenError::ExtraGeneral(_) => "fen-extra-general",
            FenError::TooManyPieces { .. } => "fen-too-many-pieces",
            FenError::UnreachablePoint { .. } => "fen-unreachable-point",
            FenError::GeneralsFacing { .. } => "fen-generals-facing",
            FenError::OpponentInCheck(_) => "fen-opponent-in-check",
            FenError::BadSide(s) if s.is_empty() => "fen-missing-side",
            FenError::BadSide(_) => "fen-bad-side",
            FenError::BadCounter { which, .. } if *which == "move number" => "fen-bad-move-number",
            FenError::BadCounter { .. } => "fen-bad-halfmove-clock",
            FenError::TrailingText(_) => "fen-trailing-text",
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "the FEN is empty"),
            FenError::RankCount { found } => write!(
                f,
                "the board field has {found} rank{}, expected 10 ranks separated by '/'",
                if *found == 1 { "" } else { "s" }
            ),
            FenError::PointCount { rank, found } => write!(
                f,
                "rank {rank} (field {} of the board) describes {found} points, expected 9",
                9 - rank + 1
            ),
            FenError::UnknownLetter {
                letter,
                rank,
                column,
            } => write!(
                f,
                "unknown piece letter '{letter}' in rank {rank} (character {column} of the board field); expected one of K A B N R C P (E, H accepted), lower case for Black, or a digit 1-9"
            ),
            FenError::MissingGeneral(c) => write!(f, "{c} has no general"),
            FenError::ExtraGeneral(c) => write!(f, "{c} has more than one general"),
            FenError::TooManyPieces { piece, found } => write!(
                f,
                "{} has {found} {}s, at most {} allowed",
                piece.color,
                piece.kind.name(),
                piece.kind.max_count()
            ),
            FenError::UnreachablePoint { piece, square } => {
                let why = match piece.kind {
                    PieceKind::General | PieceKind::Advisor => "outside its palace",
                    PieceKind::Elephant => "on a point an elephant can never reach",
                    _ => "on a point a soldier can never reach",
                };
                write!(
                    f,
                    "the {} {} on {square} stands {why}",
                    piece.color.to_string().to_lowercase(),
                    piece.kind.name()
                )
            }
            FenError::GeneralsFacing { file } => {
                write!(f, "the generals face each other on the open {file}-file")
            }
            FenError::OpponentInCheck(c) => write!(f, "{c} is in check but it is not {c}'s move"),
            FenError::BadSide(s) if s.is_empty() => {
                write!(f, "the side to move is missing; expected 'w' or 'b'")
            }
            FenError::BadSide(s) => write!(
                f,
                "bad side to move '{s}'; expected 'w' (or 'r') for Red or 'b' for Black"
            ),
            FenError::BadCounter { which, found } => write!(
                f,
                "bad {which} '{found}'; expected a whole number{}",
                if *which == "move number" {
                    " from 1"
                } else {
                    ""
                }
            ),
            FenError::TrailingText(s) => write!(f, "unexpected text '{s}' after the move number"),
        }
    }
}

impl std::error::Error for FenError {}

/// Whether `piece` can ever stand on `sq` in a game from the start position.
pub fn is_reachable(piece: Piece, sq: Square) -> bool {
    let (f, r) = (sq.file(), sq.rank());
    // Work in the owner's frame: rank 0 is the owner's back rank.
    let own_rank = match piece.color {
        Color::Red => r,
        Color::Black => 9 - r,
    };
    match piece.kind {
        PieceKind::General => (3..=5).contains(&f) && own_rank <= 2,
        PieceKind::Advisor => matches!((f, own_rank), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)),
        PieceKind::Elephant => matches!(
            (f, own_rank),
            (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
        ),
        PieceKind::Soldier => own_rank >= 5 || ((own_rank == 3 || own_rank == 4) && f % 2 == 0),
        PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon => true,
    }
}

/// The board field of a FEN (ranks 9 down to 0, runs of empty points as digits) for the
/// pieces that `piece_at` names.
pub fn board_field(piece_at: impl Fn(Square) -> Option<Piece>) -> String {
    let mut out = String::with_capacity(90);
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            let sq = Square::new(file, rank).expect("on board");
            match piece_at(sq) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(p.fen_char());
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

impl Position {
    /// Parses a FEN, checking that the position could arise in a game.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let mut pos = Position::empty(Color::Red);
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount { found: ranks.len() });
        }
        let mut column = 0;
        let mut counts = [0usize; 14];
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            for c in rank_text.chars() {
                column += 1;
                if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                    continue;
                }
                let piece = Piece::from_fen_char(c).ok_or(FenError::UnknownLetter {
                    letter: c,
                    rank,
                    column,
                })?;
                if file < 9 {
                    let sq = Square::new(file as u8, rank).expect("file and rank checked");
                    if !is_reachable(piece, sq) {
                        return Err(FenError::UnreachablePoint { piece, square: sq });
                    }
                    counts[piece.index()] += 1;
                    if counts[piece.index()] > piece.kind.max_count() {
                        return Err(if piece.kind == PieceKind::General {
                            FenError::ExtraGeneral(piece.color)
                        } else {
                            FenError::TooManyPieces {
                                piece,
                                found: counts[piece.index()],
                            }
                        });
                    }
                    pos.put(sq, piece);
                }
                file += 1;
            }
            column += 1; // the '/'
            if file != 9 {
                return Err(FenError::PointCount { rank, found: file });
            }
        }
        for color in Color::ALL {
            if counts[Piece::new(color, PieceKind::General).index()] == 0 {
                return Err(FenError::MissingGeneral(color));
            }
        }
        let side = match fields.next() {
            None => return Err(FenError::BadSide(String::new())),
            Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(other) => return Err(FenError::BadSide(other.to_string())),
        };
        pos.set_side(side);
        // Optional castling and en-passant placeholders, then optional counters.
        let rest: Vec<&str> = fields.collect();
        let mut idx = 0;
        while idx < rest.len() && idx < 2 && rest[idx] == "-" {
            idx += 1;
        }
        let halfmove = match rest.get(idx) {
            None => 0,
            Some(t) => {
                idx += 1;
                t.parse::<u32>().map_err(|_| FenError::BadCounter {
                    which: "halfmove clock",
                    found: t.to_string(),
                })?
            }
        };
        let fullmove = match rest.get(idx) {
            None => 1,
            Some(t) => {
                idx += 1;
                match t.parse::<u32>() {
                    Ok(n) if n >= 1 => n,
                    _ => {
                        return Err(FenError::BadCounter {
                            which: "move number",
                            found: t.to_string(),
                        });
                    }
                }
            }
        };
        if idx < rest.len() {
            return Err(FenError::TrailingText(rest[idx..].join(" ")));
        }
        pos.set_clocks(halfmove, fullmove);

        let red = pos.general(Color::Red);
        let black = pos.general(Color::Black);
        if red.file() == black.file() {
            let between = (red.rank() + 1..black.rank())
                .filter_map(|r| Square::new(red.file(), r))
                .any(|sq| !pos.is_empty(sq));
            if !between {
                return Err(FenError::GeneralsFacing {
                    file: red.file_char(),
                });
            }
        }
        let waiting = side.opponent();
        if pos.is_general_attacked(waiting) {
            return Err(FenError::OpponentInCheck(waiting));
        }
        Ok(pos)
    }

    /// The position as FEN, always with `w`/`b`, `- -` and both counters.
    pub fn to_fen(&self) -> String {
        let out = board_field(|sq| self.piece_at(sq));
        let side = match self.side_to_move() {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        format!(
            "{out} {side} - - {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> FenError {
        Position::from_fen(fen).expect_err(fen)
    }

    #[test]
    fn start_fen_round_trips() {
        assert_eq!(Position::startpos().to_fen(), START_FEN);
    }

    #[test]
    fn position_reads_and_writes_fen_as_text() {
        let pos: Position = START_FEN.parse().unwrap();
        assert_eq!(pos, Position::startpos());
        assert_eq!(pos.to_string(), START_FEN);
        assert!("rnbakabnr/9 w".parse::<Position>().is_err());
    }

    #[test]
    fn aliases_and_optional_fields_are_accepted() {
        let short = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r";
        assert_eq!(Position::from_fen(short).unwrap().to_fen(), START_FEN);
        let counters = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12";
        let p = Position::from_fen(counters).unwrap();
        assert_eq!(p.halfmove_clock(), 7);
        assert_eq!(p.fullmove_number(), 12);
        assert_eq!(p.to_fen(), counters);
        let no_dashes = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 3 4";
        assert_eq!(Position::from_fen(no_dashes).unwrap().halfmove_clock(), 3);
    }

    #[test]
    fn wrong_rank_count() {
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::RankCount { found: 9 }
        );
    }

    #[test]
    fn wrong_point_count() {
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::PointCount { rank: 5, found: 8 }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c11/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::PointCount { rank: 7, found: 10 }
        );
    }

    #[test]
    fn unknown_letter() {
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5X1/9/RNBAKABNR w"),
            FenError::UnknownLetter {
                letter: 'X',
                rank: 2,
                column: 46
            }
        );
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/0/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::UnknownLetter { letter: '0', .. }
        ));
    }

    #[test]
    fn missing_and_extra_general() {
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w"),
            FenError::MissingGeneral(Color::Red)
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w"),
            FenError::ExtraGeneral(Color::Red)
        );
    }

    #[test]
    fn too_many_pieces() {
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/R8/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::TooManyPieces { found: 3, .. }
        ));
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/p8/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::TooManyPieces { found: 6, .. }
        ));
    }

    #[test]
    fn pieces_on_unreachable_points() {
        // General outside the palace.
        assert!(matches!(
            err("rnba1abnr/9/1c5c1/p1p1p1p1p/4k4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::UnreachablePoint { .. }
        ));
        // Advisor on the palace's side midpoint.
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3A5/RNB1KABNR w"),
            FenError::UnreachablePoint { .. }
        ));
        // Elephant across the river.
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/2B6/9/P1P1P1P1P/1C5C1/9/RN1AKABNR w"),
            FenError::UnreachablePoint { .. }
        ));
        // Soldier behind its start.
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/2P1P1P1P/PC5C1/9/RNBAKABNR w"),
            FenError::UnreachablePoint { .. }
        ));
        // Soldier on its own half off its files.
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/1PP1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::UnreachablePoint { .. }
        ));
    }

    #[test]
    fn generals_facing() {
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K4 w"),
            FenError::GeneralsFacing { file: 'e' }
        );
    }

    #[test]
    fn opponent_in_check() {
        assert_eq!(
            err("4k4/9/4R4/9/9/9/9/9/9/3K5 w"),
            FenError::OpponentInCheck(Color::Black)
        );
        assert!(Position::from_fen("4k4/9/4R4/9/9/9/9/9/9/3K5 b").is_ok());
    }

    #[test]
    fn bad_side_and_counters() {
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/3K5"),
            FenError::BadSide(String::new())
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/3K5 x"),
            FenError::BadSide("x".into())
        );
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1"),
            FenError::BadCounter {
                which: "halfmove clock",
                ..
            }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 0"),
            FenError::BadCounter {
                which: "move number",
                ..
            }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 extra"),
            FenError::TrailingText(_)
        ));
    }

    #[test]
    fn codes_name_each_reason() {
        let cases = [
            ("", "fen-empty"),
            ("9/9 w", "fen-rank-count"),
            ("4k4/9/9/9/9/9/9/9/9/3K4 w", "fen-point-count"),
            ("4k4/9/9/9/9/9/9/9/9/3K4x w", "fen-unknown-letter"),
            ("9/9/9/9/9/9/9/9/9/3K5 w", "fen-missing-general"),
            ("4k4/9/4R4/9/9/9/9/9/9/3K5 w", "fen-opponent-in-check"),
            ("4k4/9/9/9/9/9/9/9/9/4K4 w", "fen-generals-facing"),
            ("4k4/9/9/9/9/9/9/9/9/3K5", "fen-missing-side"),
            ("4k4/9/9/9/9/9/9/9/9/3K5 x", "fen-bad-side"),
            (
                "4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1",
                "fen-bad-halfmove-clock",
            ),
            ("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 0", "fen-bad-move-number"),
            (
                "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 extra",
                "fen-trailing-text",
            ),
        ];
        for (fen, code) in cases {
            assert_eq!(err(fen).code(), code, "{fen}");
        }
    }

    #[test]
    fn errors_render_as_sentences() {
        let e = err("rnbakabnr/9/1c5c1/p1p1p1p1p/8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
        assert_eq!(
            e.to_string(),
            "rank 5 (field 5 of the board) describes 8 points, expected 9"
        );
    }
}
