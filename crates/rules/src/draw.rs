//! Draw rules that need no repetition: a long stretch without captures and a board with no
//! mating material (Asian rules), and the automatic draws of the CXQ rules (efficiency,
//! progress, length).

use crate::moves::Move;
use crate::outcome::EndReason;
use crate::piece::{Color, Piece, PieceKind};
use crate::position::Position;
use crate::repetition::MoveClass;

/// Plies without a capture that draw under the Asian rules: 60 moves by each side.
pub const NO_CAPTURE_PLIES: u32 = 120;

/// CXQ efficiency: effective moves each side must have made for the automatic draw.
pub const CXQ_EFFECTIVE_MOVES: u32 = 120;

/// CXQ progress: moves each side must have made since the last progress.
pub const CXQ_PROGRESS_MOVES: u32 = 30;

/// CXQ length: moves each side must have made.
pub const CXQ_MOVE_LIMIT: u32 = 300;

/// Whether `color` has a piece that could still take part in a mate: a chariot, horse or
/// cannon, or a soldier not yet on the opponent's back rank (advisors and elephants never
/// leave their own half, and a soldier on the last rank cannot force mate).
pub fn can_mate(pos: &Position, color: Color) -> bool {
    let any = |kind| !pos.pieces(Piece::new(color, kind)).is_empty();
    if any(PieceKind::Chariot) || any(PieceKind::Horse) || any(PieceKind::Cannon) {
        return true;
    }
    let last_rank = match color {
        Color::Red => 9,
        Color::Black => 0,
    };
    pos.pieces(Piece::new(color, PieceKind::Soldier))
        .any(|sq| sq.rank() != last_rank)
}

/// Whether neither side has material left that could mate.
pub fn insufficient_material(pos: &Position) -> bool {
    !can_mate(pos, Color::Red) && !can_mate(pos, Color::Black)
}

/// Whether `m`, played in `before`, is progress in the CXQ sense: a capture, or a forward
/// move of a soldier that has crossed the river.
pub fn is_cxq_progress(before: &Position, m: Move) -> bool {
    if before.piece_at(m.to()).is_some() {
        return true;
    }
    let Some(piece) = before.piece_at(m.from()) else {
        return false;
    };
    piece.kind == PieceKind::Soldier
        && !piece.color.is_own_half(m.from().rank())
        && m.to().file() == m.from().file()
}

/// Counts toward the CXQ automatic draws, move by move.
#[derive(Clone, Debug, Default)]
pub(crate) struct CxqDrawCounters {
    effective: [u32; 2],
    since_progress: u32,
    plies: u32,
    last_was_forcing: bool,
}

impl CxqDrawCounters {
    /// Records the move `m` of `before`'s side to move, classified under the CXQ rules as
    /// `class`; returns the automatic draw it completes, if any.
    pub(crate) fn record(
        &mut self,
        before: &Position,
        m: Move,
        class: &MoveClass,
    ) -> Option<EndReason> {
        let mover = before.side_to_move().index();
        let forcing = class.is_check() || class.is_attack();
        if !forcing && !self.last_was_forcing {
            self.effective[mover] += 1;
        }
        self.last_was_forcing = forcing;
        self.since_progress = if is_cxq_progress(before, m) {
            0
        } else {
            self.since_progress + 1
        };
        self.plies += 1;
        if self.effective.iter().all(|&n| n >= CXQ_EFFECTIVE_MOVES) {
            Some(EndReason::CxqEfficiency {
                moves: CXQ_EFFECTIVE_MOVES,
            })
        } else if self.since_progress >= 2 * CXQ_PROGRESS_MOVES {
            Some(EndReason::CxqProgress {
                moves: CXQ_PROGRESS_MOVES,
            })
        } else if self.plies >= 2 * CXQ_MOVE_LIMIT {
            Some(EndReason::CxqMoveLimit {
                moves: CXQ_MOVE_LIMIT,
            })
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repetition::{RuleSet, classify};

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn mv(s: &str) -> Move {
        s.parse::<Move>().unwrap()
    }

    #[test]
    fn advisors_and_elephants_cannot_mate() {
        assert!(insufficient_material(&pos(
            "2bak4/4a4/9/9/9/9/9/9/4A4/2B1KAB2 w"
        )));
        assert!(!insufficient_material(&pos("3k5/9/9/9/9/9/9/9/9/4K3R w")));
        assert!(!insufficient_material(&pos("3k5/9/9/9/9/9/9/9/9/2C1K4 w")));
    }

    #[test]
    fn a_soldier_counts_until_it_reaches_the_last_rank() {
        assert!(!insufficient_material(&pos("3k5/9/9/9/4P4/9/9/9/9/4K4 w")));
        assert!(insufficient_material(&pos("P2k5/9/9/9/9/9/9/9/9/4K4 w")));
        assert!(insufficient_material(&pos("3k5/9/9/9/9/9/9/9/9/4K3p w")));
    }

    #[test]
    fn cxq_progress_is_a_capture_or_a_crossed_soldier_advancing() {
        let p = pos("3k5/9/9/4P4/9/9/P8/9/9/4K4 w");
        assert!(is_cxq_progress(&p, mv("e6e7")));
        assert!(!is_cxq_progress(&p, mv("e6d6")), "sideways is no progress");
        assert!(
            !is_cxq_progress(&p, mv("a3a4")),
            "an uncrossed soldier's step is no progress"
        );
    }

    #[test]
    fn cxq_counts_effective_moves_and_progress() {
        let p = Position::startpos();
        let mut counters = CxqDrawCounters::default();
        let class = classify(&p, mv("b0c2"), RuleSet::Cxq);
        assert_eq!(counters.record(&p, mv("b0c2"), &class), None);
        assert_eq!(counters.effective, [1, 0]);
        assert_eq!(counters.since_progress, 1);
    }

    /// A red and a black position with a capture each, and a move class that attacks.
    fn capture_pair() -> (Position, Move, Position, Move, MoveClass) {
        let attack = classify(
            &pos("4k4/9/9/3n5/9/9/9/9/9/R4K3 w"),
            mv("a0d0"),
            RuleSet::Cxq,
        );
        assert!(attack.is_attack());
        (
            pos("3k5/9/9/9/9/9/9/9/p8/R3K4 w"),
            mv("a0a1"),
            pos("3k5/P8/r8/9/9/9/9/9/9/4K4 b"),
            mv("a7a8"),
            attack,
        )
    }

    #[test]
    fn cxq_efficiency_draws_after_120_effective_moves_each() {
        let (red, red_move, black, black_move, _) = capture_pair();
        let mut counters = CxqDrawCounters::default();
        for i in 1..=240 {
            let reason = if i % 2 == 1 {
                counters.record(&red, red_move, &MoveClass::IDLE)
            } else {
                counters.record(&black, black_move, &MoveClass::IDLE)
            };
            if i < 240 {
                assert_eq!(reason, None, "ply {i}");
            } else {
                assert_eq!(reason, Some(EndReason::CxqEfficiency { moves: 120 }));
            }
        }
    }

    #[test]
    fn replies_to_attacks_are_not_effective() {
        let (red, red_move, black, black_move, attack) = capture_pair();
        let mut counters = CxqDrawCounters::default();
        counters.record(&red, red_move, &attack);
        counters.record(&black, black_move, &MoveClass::IDLE);
        assert_eq!(counters.effective, [0, 0]);
        counters.record(&red, red_move, &MoveClass::IDLE);
        assert_eq!(counters.effective, [1, 0]);
    }

    #[test]
    fn cxq_move_limit_draws_after_300_moves_each() {
        let (red, red_move, black, black_move, attack) = capture_pair();
        let mut counters = CxqDrawCounters::default();
        for i in 1..=600 {
            let reason = if i % 2 == 1 {
                counters.record(&red, red_move, &attack)
            } else {
                counters.record(&black, black_move, &attack)
            };
            if i < 600 {
                assert_eq!(reason, None, "ply {i}");
            } else {
                assert_eq!(reason, Some(EndReason::CxqMoveLimit { moves: 300 }));
            }
        }
    }
}
