//! Tactical motifs read from a solution: fork, pin, discovered attack and capturing the
//! defender. Each rule looks only at the position and the line, so the tags can be
//! recomputed at will.
//!
//! "Valuable" below means the general or a piece worth at least a horse (horse, cannon,
//! chariot). The solver's moves are the line's even-numbered plies (the first, third …).
//! - **fork**: after a solver move, the moved piece attacks two valuable enemy pieces (a
//!   check counts for the general), each worth more than the mover or undefended, and the
//!   mover captures one of them with its next move.
//! - **pin**: a solver capture takes a piece that was pinned when the line began or just
//!   before the capture, or a piece whose every defender was pinned then. A piece is pinned
//!   when taking it off the board lets a solver piece attack the enemy general or an enemy
//!   piece worth more — along a chariot line, through a cannon's screen, or over a freed
//!   horse leg.
//! - **discoveredAttack**: a solver move uncovers an attack by another solver piece (the
//!   mover leaves a chariot's or cannon's line, or frees a horse leg) on the general (a
//!   discovered check) or on a valuable piece that the solver captures later in the line.
//! - **capturingDefender**: the solver's first capture takes a piece that defended another
//!   enemy piece (at least an advisor's worth), and the solver captures that piece with
//!   its next move.

use super::theme::Theme;
use xiangqi_engine::SEE_VALUE;
use xiangqi_rules::{Bitboard, Color, Move, PieceKind, Position, Square};

/// A horse's exchange value: the least a "valuable" piece is worth.
const VALUABLE: i32 = SEE_VALUE[PieceKind::Horse as usize];

fn value(position: &Position, sq: Square) -> i32 {
    position
        .piece_at(sq)
        .map_or(0, |p| SEE_VALUE[p.kind.index()])
}

fn is_valuable(position: &Position, sq: Square) -> bool {
    position
        .piece_at(sq)
        .is_some_and(|p| p.kind == PieceKind::General || SEE_VALUE[p.kind.index()] >= VALUABLE)
}

/// The positions before each ply of `line`, and the one after the last.
fn positions(start: &Position, line: &[Move]) -> Vec<Position> {
    let mut all = vec![start.clone()];
    let mut pos = start.clone();
    for &m in line {
        pos.make_move(m);
        all.push(pos.clone());
    }
    all
}

/// The motifs `line` shows from `start`, in the order fork, pin, discovered attack,
/// capturing the defender.
pub fn detect_motifs(start: &Position, line: &[Move]) -> Vec<Theme> {
    let mut found = Vec::new();
    if is_fork(start, line) {
        found.push(Theme::Fork);
    }
    if is_pin(start, line) {
        found.push(Theme::Pin);
    }
    if is_discovered_attack(start, line) {
        found.push(Theme::DiscoveredAttack);
    }
    if is_capturing_defender(start, line) {
        found.push(Theme::CapturingDefender);
    }
    found
}

/// See the module docs.
pub fn is_fork(start: &Position, line: &[Move]) -> bool {
    let all = positions(start, line);
    let solver = start.side_to_move();
    (0..line.len()).step_by(2).any(|i| {
        let (m, after) = (line[i], &all[i + 1]);
        let mover_value = value(after, m.to());
        let enemies = after.pieces_of(solver.opponent());
        let mut targets = 0;
        for target in after.attacks_from(m.to()) & enemies {
            let general = after
                .piece_at(target)
                .is_some_and(|p| p.kind == PieceKind::General);
            let defended = !after
                .attackers_to(target, solver.opponent(), after.occupied())
                .is_empty();
            if general
                || (is_valuable(after, target) && (value(after, target) > mover_value || !defended))
            {
                targets += 1;
            }
        }
        let next = line.get(i + 2);
        targets >= 2
            && next.is_some_and(|n| {
                n.from() == m.to()
                    && is_valuable(&all[i + 2], n.to())
                    && all[i + 2]
                        .piece_at(n.to())
                        .is_some_and(|p| p.color != solver && p.kind != PieceKind::General)
            })
    })
}

/// Whether the piece on `sq` is pinned: taking it off the board opens an attack by the other
/// side on its general or on a piece of its side worth more.
pub fn is_pinned(position: &Position, sq: Square) -> bool {
    let Some(piece) = position.piece_at(sq) else {
        return false;
    };
    let (own, attacker) = (piece.color, piece.color.opponent());
    let occupied = position.occupied();
    let without = Bitboard(occupied.0 & !Bitboard::from_square(sq).0);
    let own_value = SEE_VALUE[piece.kind.index()];
    (position.pieces_of(own) & without)
        .into_iter()
        .any(|behind| {
            let worth_more = position.piece_at(behind).is_some_and(|p| {
                p.kind == PieceKind::General || SEE_VALUE[p.kind.index()] > own_value
            });
            if !worth_more {
                return false;
            }
            let before = position.attackers_to(behind, attacker, occupied);
            let after = position.attackers_to(behind, attacker, without);
            !Bitboard(after.0 & !before.0).is_empty()
        })
}

/// See the module docs.
pub fn is_pin(start: &Position, line: &[Move]) -> bool {
    let all = positions(start, line);
    let solver = start.side_to_move();
    (0..line.len()).step_by(2).any(|i| {
        let (m, before) = (line[i], &all[i]);
        let Some(taken) = before.piece_at(m.to()) else {
            return false;
        };
        if taken.color == solver {
            return false;
        }
        let piece_pinned = [start, before]
            .iter()
            .any(|p| p.piece_at(m.to()) == Some(taken) && is_pinned(p, m.to()));
        let defenders = before.attackers_to(m.to(), solver.opponent(), before.occupied());
        let defenders_pinned =
            !defenders.is_empty() && defenders.into_iter().all(|d| is_pinned(before, d));
        piece_pinned || defenders_pinned
    })
}

/// Whether a solver move captures on `sq` in `line` from ply `from` on.
fn captured_later(all: &[Position], line: &[Move], from: usize, sq: Square, solver: Color) -> bool {
    (from..line.len())
        .step_by(2)
        .any(|j| line[j].to() == sq && all[j].piece_at(sq).is_some_and(|p| p.color != solver))
}

/// See the module docs.
pub fn is_discovered_attack(start: &Position, line: &[Move]) -> bool {
    let all = positions(start, line);
    let solver = start.side_to_move();
    (0..line.len()).step_by(2).any(|i| {
        let (m, before, after) = (line[i], &all[i], &all[i + 1]);
        let occupied = before.occupied();
        let lifted = Bitboard(occupied.0 & !Bitboard::from_square(m.from()).0);
        let mover = Bitboard::from_square(m.from()).0 | Bitboard::from_square(m.to()).0;
        (after.pieces_of(solver.opponent()))
            .into_iter()
            .any(|target| {
                if !is_valuable(after, target) {
                    return false;
                }
                let had = before.attackers_to(target, solver, occupied).0;
                let uncovered = before.attackers_to(target, solver, lifted).0;
                let has = after.attackers_to(target, solver, after.occupied()).0;
                let new = uncovered & has & !had & !mover;
                if new == 0 {
                    return false;
                }
                let general = after
                    .piece_at(target)
                    .is_some_and(|p| p.kind == PieceKind::General);
                general || captured_later(&all, line, i + 2, target, solver)
            })
    })
}

/// See the module docs.
pub fn is_capturing_defender(start: &Position, line: &[Move]) -> bool {
    let all = positions(start, line);
    let solver = start.side_to_move();
    let Some(i) = (0..line.len())
        .step_by(2)
        .find(|&i| all[i].piece_at(line[i].to()).is_some())
    else {
        return false;
    };
    let (m, before) = (line[i], &all[i]);
    let Some(next) = line.get(i + 2) else {
        return false;
    };
    let target = next.to();
    let Some(guarded) = before.piece_at(target) else {
        return false;
    };
    guarded.color != solver
        && guarded.kind != PieceKind::General
        && SEE_VALUE[guarded.kind.index()] >= SEE_VALUE[PieceKind::Advisor as usize]
        && all[i + 2].piece_at(target) == Some(guarded)
        && before
            .attackers_to(target, solver.opponent(), before.occupied())
            .contains(m.to())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(fen: &str, line: &str) -> (Position, Vec<Move>) {
        let position = Position::from_fen(fen).unwrap();
        let moves: Vec<Move> = line.split(' ').map(|m| m.parse().unwrap()).collect();
        let mut pos = position.clone();
        for &m in &moves {
            assert!(pos.is_legal(m), "{m} in {}", pos.to_fen());
            pos.make_move(m);
        }
        (position, moves)
    }

    #[test]
    fn a_horse_attacking_two_chariots_and_taking_one_is_a_fork() {
        let (pos, line) = case("4k4/2r3r2/9/9/3N5/9/9/9/9/3K5 w", "d5e7 c8c2 e7g8");
        assert!(is_fork(&pos, &line));
        // Taking a chariot that was never forked is no fork.
        let (pos, line) = case("4k4/6r2/9/9/3N5/9/9/9/9/3K5 w", "d5e7 e9e8 e7g8");
        assert!(!is_fork(&pos, &line));
    }

    #[test]
    fn taking_a_piece_pinned_to_its_general_is_a_pin() {
        // The horse on e5 cannot move: the chariot on e1 would then check.
        let (pos, line) = case("4k4/9/9/9/3Pn4/9/9/9/4R4/3K5 w", "d5e5");
        assert!(is_pin(&pos, &line));
        let (pos, line) = case("4k4/9/9/9/3Pn4/9/9/9/9/3K5 w", "d5e5");
        assert!(!is_pin(&pos, &line));
    }

    #[test]
    fn a_horse_leaving_the_chariots_file_gives_a_discovered_check() {
        let (pos, line) = case("4k4/9/9/9/9/4N4/9/9/4R4/3K5 w", "e4c5");
        assert!(is_discovered_attack(&pos, &line));
        let (pos, line) = case("4k4/9/9/9/9/4N4/9/9/9/3K5 w", "e4c5");
        assert!(!is_discovered_attack(&pos, &line));
    }

    #[test]
    fn taking_the_horse_that_guards_the_chariot_is_capturing_the_defender() {
        let fen = "4k4/4n4/2r6/4p4/9/9/2P6/9/4C4/2C1K4 w";
        let (pos, line) = case(fen, "e1e8 e9e8 c0c7");
        assert!(is_capturing_defender(&pos, &line));
        // The horse is pinned too: the cannon on e1 would check through the soldier.
        assert_eq!(
            detect_motifs(&pos, &line),
            vec![Theme::Pin, Theme::CapturingDefender]
        );
        // Taking the chariot at once removes no defender.
        let (pos, line) = case(fen, "c0c7");
        assert!(!is_capturing_defender(&pos, &line));
    }
}
