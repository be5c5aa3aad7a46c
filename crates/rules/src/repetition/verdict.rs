//! Verdicts on perpetual checks and chases, as data: what was found, who broke the rules,
//! which pieces and points it concerns, and over which moves. [`Verdict::describe`] gives
//! plain English; [`VerdictKind::code`] and the fields let an app say the same in any
//! language.

use super::RuleSet;
use crate::outcome::GameResult;
use crate::piece::{Color, Piece};
use crate::square::Square;
use std::fmt;

/// What a repetition ruling found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VerdictKind {
    /// One side checked perpetually and the other did not: the checking side loses.
    PerpetualCheck,
    /// One side chased one and the same piece perpetually and the other side neither checked
    /// nor chased perpetually: the chasing side loses.
    PerpetualChase,
    /// One side checked perpetually while the other chased perpetually: the checking side
    /// must change, so it loses.
    CheckAgainstChase,
    /// Both sides checked perpetually: a draw.
    MutualCheck,
    /// Both sides chased perpetually: a draw.
    MutualChase,
    /// The position repeated and neither side broke a rule: a draw (Asian rules).
    Repetition,
}

impl VerdictKind {
    /// A stable key for translation tables, e.g. `"perpetual-chase"`.
    pub const fn code(self) -> &'static str {
        match self {
            VerdictKind::PerpetualCheck => "perpetual-check",
            VerdictKind::PerpetualChase => "perpetual-chase",
            VerdictKind::CheckAgainstChase => "check-against-chase",
            VerdictKind::MutualCheck => "mutual-check",
            VerdictKind::MutualChase => "mutual-chase",
            VerdictKind::Repetition => "repetition",
        }
    }

    /// Whether the kind names a side that loses.
    pub const fn has_loser(self) -> bool {
        matches!(
            self,
            VerdictKind::PerpetualCheck
                | VerdictKind::PerpetualChase
                | VerdictKind::CheckAgainstChase
        )
    }
}

/// A piece and the point it stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlacedPiece {
    /// The piece.
    pub piece: Piece,
    /// Its point.
    pub point: Square,
}

/// An inclusive range of plies of a game record, numbered from 1 (the first move played).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveRange {
    /// The first ply of the range.
    pub first: usize,
    /// The last ply of the range.
    pub last: usize,
}

impl fmt::Display for MoveRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "move {}", self.first)
        } else {
            write!(f, "moves {}\u{2013}{}", self.first, self.last)
        }
    }
}

/// A ruling on a repetition or a run of checks and chases.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// What was found.
    pub kind: VerdictKind,
    /// The rule set that judged.
    pub rules: RuleSet,
    /// The side that broke the rules and loses; `None` for the drawn kinds.
    pub side: Option<Color>,
    /// The pieces the ruling concerns, at their points when it was made: for a chase the
    /// chased pieces, for a perpetual check the checking pieces, for a check against a chase
    /// the pieces the other side chased. Empty for drawn kinds.
    pub pieces: Vec<PlacedPiece>,
    /// Whether the chased pieces were unprotected at every chase (false when a chase stood
    /// only because a chariot was attacked by a horse or cannon).
    pub unprotected: bool,
    /// The moves the ruling covers.
    pub moves: MoveRange,
    /// How many checks or chases of the losing side were counted (the moves of the cycle
    /// for drawn kinds).
    pub count: u32,
    /// How many pieces took part in the checks or chases (CXQ counts 6, 12 or 18 moves for
    /// one, two or three or more pieces).
    pub participants: u32,
}

impl Verdict {
    /// The game result the verdict gives.
    pub fn result(&self) -> GameResult {
        match self.side {
            Some(loser) => GameResult::win_for(loser.opponent()),
            None => GameResult::Draw,
        }
    }

    /// The verdict in plain English, e.g. `Red chased the unprotected cannon on c4
    /// perpetually (moves 1–8)` (the same text as `Display`).
    pub fn describe(&self) -> String {
        self.to_string()
    }
}

/// "the unprotected chariot on a7 and the horse on c7"
fn write_pieces(
    f: &mut fmt::Formatter<'_>,
    pieces: &[PlacedPiece],
    adjective: &str,
) -> fmt::Result {
    for (i, p) in pieces.iter().enumerate() {
        let sep = match i {
            0 => "",
            _ if i + 1 == pieces.len() => " and ",
            _ => ", ",
        };
        write!(
            f,
            "{sep}the {adjective}{} on {}",
            p.piece.kind.name(),
            p.point
        )?;
    }
    Ok(())
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let adjective = if self.unprotected { "unprotected " } else { "" };
        let counted = self.rules == RuleSet::Cxq;
        match (self.kind, self.side) {
            (VerdictKind::PerpetualCheck, Some(side)) => {
                if counted {
                    write!(f, "{side} checked {} times in a row with ", self.count)?;
                } else {
                    write!(f, "{side} checked perpetually with ")?;
                }
                write_pieces(f, &self.pieces, "")?;
            }
            (VerdictKind::PerpetualChase, Some(side)) => {
                let verb = if counted { "attacked" } else { "chased" };
                write!(f, "{side} {verb} ")?;
                write_pieces(f, &self.pieces, adjective)?;
                if counted {
                    write!(f, " {} times in a row", self.count)?;
                } else {
                    write!(f, " perpetually")?;
                }
            }
            (VerdictKind::CheckAgainstChase, Some(side)) => {
                let verb = if counted { "attacked" } else { "chased" };
                write!(
                    f,
                    "{side} checked perpetually while {} {verb} ",
                    side.opponent()
                )?;
                write_pieces(f, &self.pieces, adjective)?;
                write!(f, " perpetually; the checking side must change")?;
            }
            (VerdictKind::MutualCheck, _) => write!(f, "Both sides checked perpetually")?,
            (VerdictKind::MutualChase, _) => write!(f, "Both sides chased perpetually")?,
            (VerdictKind::Repetition, _) | (_, None) => write!(
                f,
                "The position repeated with no perpetual check or chase by either side"
            )?,
        }
        write!(f, " ({})", self.moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::PieceKind;

    fn placed(color: Color, kind: PieceKind, point: &str) -> PlacedPiece {
        PlacedPiece {
            piece: Piece::new(color, kind),
            point: point.parse::<Square>().unwrap(),
        }
    }

    #[test]
    fn a_chase_verdict_names_the_side_the_piece_and_the_moves() {
        let v = Verdict {
            kind: VerdictKind::PerpetualChase,
            rules: RuleSet::Asian,
            side: Some(Color::Red),
            pieces: vec![placed(Color::Black, PieceKind::Chariot, "a7")],
            unprotected: true,
            moves: MoveRange { first: 1, last: 9 },
            count: 5,
            participants: 1,
        };
        assert_eq!(
            v.describe(),
            "Red chased the unprotected chariot on a7 perpetually (moves 1\u{2013}9)"
        );
        assert_eq!(v.result(), GameResult::BlackWins);
        assert_eq!(v.kind.code(), "perpetual-chase");
    }

    #[test]
    fn a_cxq_check_verdict_counts_the_checks() {
        let v = Verdict {
            kind: VerdictKind::PerpetualCheck,
            rules: RuleSet::Cxq,
            side: Some(Color::Black),
            pieces: vec![
                placed(Color::Black, PieceKind::Chariot, "e3"),
                placed(Color::Black, PieceKind::Horse, "c2"),
            ],
            unprotected: false,
            moves: MoveRange { first: 2, last: 24 },
            count: 12,
            participants: 2,
        };
        assert_eq!(
            v.to_string(),
            "Black checked 12 times in a row with the chariot on e3 and the horse on c2 \
             (moves 2\u{2013}24)"
        );
        assert_eq!(v.result(), GameResult::RedWins);
    }

    #[test]
    fn drawn_verdicts_have_no_loser() {
        let v = Verdict {
            kind: VerdictKind::MutualCheck,
            rules: RuleSet::Asian,
            side: None,
            pieces: Vec::new(),
            unprotected: false,
            moves: MoveRange { first: 1, last: 8 },
            count: 8,
            participants: 0,
        };
        assert_eq!(v.result(), GameResult::Draw);
        assert_eq!(
            v.to_string(),
            "Both sides checked perpetually (moves 1\u{2013}8)"
        );
    }
}
