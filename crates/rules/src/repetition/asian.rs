//! The Asian (AXF/WXF) verdict table for a repeated cycle.
//!
//! - A side that checks with every move of the cycle checks perpetually; one that chases one
//!   and the same piece with every move chases perpetually (several pieces may share the
//!   chasing; chasing different pieces in turn, and checks alternating with chases, are
//!   allowed).
//! - Perpetual check loses; perpetual chase loses.
//! - Both sides checking, or both chasing, perpetually: a draw.
//! - One side checking perpetually against the other chasing perpetually: the checking side
//!   must change, so it loses.
//! - Any other repetition: a draw.
//!
//! The CXQ rules use the same table (see [`super::cxq`]).

use super::VerdictKind;
use super::cycle::Conduct;
use crate::piece::Color;

/// The worst thing a side did over a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Violation {
    /// Nothing forbidden.
    None,
    /// Checked with every move.
    Check,
    /// Chased one and the same piece with every move.
    Chase,
}

impl Violation {
    /// The violation of a side that behaved as `conduct` says.
    pub(crate) fn of(conduct: &Conduct) -> Violation {
        if conduct.checks_perpetually() {
            Violation::Check
        } else if conduct.chases_perpetually() {
            Violation::Chase
        } else {
            Violation::None
        }
    }
}

/// The verdict when Red did `red` and Black did `black`: what was found and who loses.
pub(crate) fn table(red: Violation, black: Violation) -> (VerdictKind, Option<Color>) {
    use Violation::{Chase, Check, None};
    match (red, black) {
        (Check, Check) => (VerdictKind::MutualCheck, Option::None),
        (Chase, Chase) => (VerdictKind::MutualChase, Option::None),
        (Check, Chase) => (VerdictKind::CheckAgainstChase, Some(Color::Red)),
        (Chase, Check) => (VerdictKind::CheckAgainstChase, Some(Color::Black)),
        (Check, None) => (VerdictKind::PerpetualCheck, Some(Color::Red)),
        (None, Check) => (VerdictKind::PerpetualCheck, Some(Color::Black)),
        (Chase, None) => (VerdictKind::PerpetualChase, Some(Color::Red)),
        (None, Chase) => (VerdictKind::PerpetualChase, Some(Color::Black)),
        (None, None) => (VerdictKind::Repetition, Option::None),
    }
}

/// The Asian ruling on a cycle in which the sides behaved as `conduct` says.
pub(crate) fn ruling(conduct: &[Conduct; 2]) -> (VerdictKind, Option<Color>) {
    table(
        Violation::of(&conduct[Color::Red.index()]),
        Violation::of(&conduct[Color::Black.index()]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;

    fn checking(moves: u32, checks: u32) -> Conduct {
        Conduct {
            moves,
            checks,
            ..Conduct::default()
        }
    }

    fn chasing(moves: u32) -> Conduct {
        Conduct {
            moves,
            chased: Bitboard(1 << 40),
            ..Conduct::default()
        }
    }

    #[test]
    fn perpetual_check_loses_and_mutual_check_draws() {
        assert_eq!(
            ruling(&[checking(4, 4), checking(4, 0)]),
            (VerdictKind::PerpetualCheck, Some(Color::Red))
        );
        assert_eq!(
            ruling(&[checking(4, 4), checking(4, 4)]),
            (VerdictKind::MutualCheck, None)
        );
    }

    #[test]
    fn intermittent_checks_are_not_perpetual() {
        // Two checks and one idle move, against a side that checks every time.
        assert_eq!(
            ruling(&[checking(3, 2), checking(3, 3)]),
            (VerdictKind::PerpetualCheck, Some(Color::Black))
        );
    }

    #[test]
    fn the_checker_loses_against_a_chaser() {
        assert_eq!(
            ruling(&[chasing(2), checking(2, 2)]),
            (VerdictKind::CheckAgainstChase, Some(Color::Black))
        );
    }

    #[test]
    fn mutual_chase_and_plain_repetition_draw() {
        assert_eq!(
            ruling(&[chasing(2), chasing(2)]),
            (VerdictKind::MutualChase, None)
        );
        assert_eq!(
            ruling(&[checking(2, 1), checking(2, 0)]),
            (VerdictKind::Repetition, None)
        );
    }
}
