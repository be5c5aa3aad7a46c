//! The CXQ additional rules: runs of checks and attacks, counted move by move.
//!
//! CXQ does not wait for a position to repeat. Each side's consecutive checks form a run, and
//! so do its consecutive attacks on one and the same piece (a threat that counts as a chase:
//! the piece is unprotected, or a chariot attacked by a horse or cannon). A run becomes
//! perpetual when it reaches 6 moves with one piece, 12 with two and 18 with three or more
//! (the 6th, 12th or 18th check or attack is the one that makes it perpetual). Any move that
//! does not continue a run ends it, which makes the allowed combinations allowed: checks
//! alternating with an idle move, an attack or a mate threat; attacks alternating with an
//! idle move or a check; attacks on different pieces in turn; blocking. A move that checks
//! and attacks continues both kinds of run.
//!
//! When a run becomes perpetual the game ends, with the verdict table of the Asian rules
//! ([`super::asian`]): the other side counts as perpetual too when it has checked (or
//! attacked one piece) with every move it made since the run began.

use super::asian::{Violation, table};
use super::classify::MoveClass;
use super::cycle::{Conduct, PieceIds};
use super::{MoveRange, PlacedPiece, RuleSet, Verdict, VerdictKind};
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::piece::Color;
use crate::position::Position;
use crate::square::SQUARE_COUNT;

/// Moves in a row with one piece before checks or attacks count as perpetual; two pieces
/// double it, three or more triple it.
pub const MOVES_PER_PIECE: u32 = 6;

/// How many moves in a row count as perpetual for a run made with `pieces` pieces.
pub const fn perpetual_limit(pieces: u32) -> u32 {
    let p = if pieces == 0 {
        1
    } else if pieces > 3 {
        3
    } else {
        pieces
    };
    MOVES_PER_PIECE * p
}

/// The CXQ ruling on a cycle: the same table as the Asian rules, except that a repetition
/// with no violation does not end the game (the automatic draw rules do that).
pub(crate) fn cycle_ruling(conduct: &[Conduct; 2]) -> (VerdictKind, Option<Color>) {
    table(
        Violation::of(&conduct[Color::Red.index()]),
        Violation::of(&conduct[Color::Black.index()]),
    )
}

/// One side's current runs.
#[derive(Clone, Debug)]
struct Runs {
    /// Consecutive checking moves, and the ply (from 1) of the first.
    checks: u32,
    check_start: usize,
    /// The pieces (by name) that gave the checks.
    checkers: u128,
    /// Per opposing piece (by name): consecutive moves attacking it, the first ply, the
    /// attacking pieces, and whether it was unprotected at every attack.
    attacks: [u32; SQUARE_COUNT],
    attack_start: [usize; SQUARE_COUNT],
    attackers: [u128; SQUARE_COUNT],
    loose: [bool; SQUARE_COUNT],
}

impl Runs {
    fn new() -> Runs {
        Runs {
            checks: 0,
            check_start: 0,
            checkers: 0,
            attacks: [0; SQUARE_COUNT],
            attack_start: [0; SQUARE_COUNT],
            attackers: [0; SQUARE_COUNT],
            loose: [true; SQUARE_COUNT],
        }
    }

    /// The longest attack run: (target name, length).
    fn longest_attack(&self) -> Option<(usize, u32)> {
        (0..SQUARE_COUNT)
            .filter(|&t| self.attacks[t] > 0)
            .max_by_key(|&t| (self.attacks[t], std::cmp::Reverse(self.attack_start[t])))
            .map(|t| (t, self.attacks[t]))
    }

    /// Whether the side's last `moves` moves all gave check, or all attacked one piece.
    fn continuous_for(&self, moves: u32) -> Violation {
        if moves == 0 {
            Violation::None
        } else if self.checks >= moves {
            Violation::Check
        } else if self.attacks.iter().any(|&n| n >= moves) {
            Violation::Chase
        } else {
            Violation::None
        }
    }
}

/// Counts the CXQ runs of a game move by move.
#[derive(Clone, Debug)]
pub(crate) struct CxqTracker {
    ids: PieceIds,
    runs: [Runs; 2],
    plies: usize,
}

impl CxqTracker {
    /// A tracker for a game starting at `start`.
    pub(crate) fn new(start: &Position) -> CxqTracker {
        CxqTracker {
            ids: PieceIds::new(start),
            runs: [Runs::new(), Runs::new()],
            plies: 0,
        }
    }

    /// Records the move `m` of `mover`, classified under the CXQ rules as `class`, and
    /// `after`, the position it led to. Returns the verdict when a run became perpetual.
    pub(crate) fn record(
        &mut self,
        mover: Color,
        m: Move,
        class: &MoveClass,
        after: &Position,
    ) -> Option<Verdict> {
        self.ids.apply(m);
        self.plies += 1;
        let ply = self.plies;
        let runs = &mut self.runs[mover.index()];

        if class.is_check() {
            if runs.checks == 0 {
                runs.check_start = ply;
                runs.checkers = 0;
            }
            runs.checks += 1;
            runs.checkers |= self.ids.masks(class.checkers());
        } else {
            runs.checks = 0;
            runs.checkers = 0;
        }

        let mut attacked = [false; SQUARE_COUNT];
        let mut attackers = [0u128; SQUARE_COUNT];
        let mut loose = [true; SQUARE_COUNT];
        for t in class.threats().iter().filter(|t| t.counts) {
            let name = self.ids.mask(t.target).trailing_zeros() as usize;
            if name < SQUARE_COUNT {
                attacked[name] = true;
                attackers[name] |= self.ids.mask(t.attacker);
                loose[name] &= !t.protected;
            }
        }
        for name in 0..SQUARE_COUNT {
            if attacked[name] {
                if runs.attacks[name] == 0 {
                    runs.attack_start[name] = ply;
                    runs.attackers[name] = 0;
                    runs.loose[name] = true;
                }
                runs.attacks[name] += 1;
                runs.attackers[name] |= attackers[name];
                runs.loose[name] &= loose[name];
            } else {
                runs.attacks[name] = 0;
                runs.attackers[name] = 0;
            }
        }

        let check_pieces = runs.checkers.count_ones();
        let perpetual_check = runs.checks > 0 && runs.checks >= perpetual_limit(check_pieces);
        let perpetual_attack = (0..SQUARE_COUNT).find(|&t| {
            runs.attacks[t] > 0
                && runs.attacks[t] >= perpetual_limit(runs.attackers[t].count_ones())
        });
        let (own, start) = if perpetual_check {
            (Violation::Check, runs.check_start)
        } else if let Some(t) = perpetual_attack {
            (Violation::Chase, runs.attack_start[t])
        } else {
            return None;
        };

        // The opponent's moves since the run began.
        let other = &self.runs[mover.opponent().index()];
        let opponent_moves = ((ply - start) / 2) as u32;
        let theirs = other.continuous_for(opponent_moves);
        let (red, black) = match mover {
            Color::Red => (own, theirs),
            Color::Black => (theirs, own),
        };
        let (kind, loser) = table(red, black);
        let runs = &self.runs[mover.index()];
        let (pieces, unprotected, count, participants) = match kind {
            VerdictKind::PerpetualCheck => (
                self.placed(after, runs.checkers),
                false,
                runs.checks,
                check_pieces,
            ),
            VerdictKind::PerpetualChase => {
                let t = perpetual_attack.expect("an attack run");
                (
                    self.placed(after, 1u128 << t),
                    runs.loose[t],
                    runs.attacks[t],
                    runs.attackers[t].count_ones(),
                )
            }
            VerdictKind::CheckAgainstChase => {
                let chaser = &self.runs[loser.expect("a loser").opponent().index()];
                match chaser.longest_attack() {
                    Some((t, n)) => (
                        self.placed(after, 1u128 << t),
                        chaser.loose[t],
                        n,
                        chaser.attackers[t].count_ones(),
                    ),
                    None => (Vec::new(), false, 0, 0),
                }
            }
            _ => (Vec::new(), false, (ply - start + 1) as u32, 0),
        };
        Some(Verdict {
            kind,
            rules: RuleSet::Cxq,
            side: loser,
            pieces,
            unprotected,
            moves: MoveRange {
                first: start,
                last: ply,
            },
            count,
            participants,
        })
    }

    /// The pieces named in `names`, where they stand in `pos`.
    fn placed(&self, pos: &Position, names: u128) -> Vec<PlacedPiece> {
        let points: Bitboard = self.ids.points(names);
        points
            .filter_map(|point| {
                pos.piece_at(point)
                    .map(|piece| PlacedPiece { piece, point })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_grows_with_the_pieces_up_to_three() {
        assert_eq!(perpetual_limit(1), 6);
        assert_eq!(perpetual_limit(2), 12);
        assert_eq!(perpetual_limit(3), 18);
        assert_eq!(perpetual_limit(5), 18);
    }
}
