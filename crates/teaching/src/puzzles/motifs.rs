//! Tactical motifs read from a solution: fork, pin, discovered attack, capturing the
//! defender, double check, sacrifice, a quiet first move and the facing generals. Each rule
//! looks only at the position and the line, so the tags can be recomputed at will.
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
//! - **doubleCheck** (双将): a solver move leaves the enemy general attacked by two solver
//!   pieces at once (a cannon's check through its screen counts), so that no block or
//!   capture answers both: the general must move.
//! - **sacrifice** (弃子): the defender's reply takes a valuable piece (a horse's worth or
//!   more) that the solver's move before had just put there, and that move took at least an
//!   advisor's worth less than it gave (a cannon for a horse is a trade, not a sacrifice).
//! - **quietMove** (闲着, «тихий ход»): the first move neither takes nor checks, and the
//!   line goes on: the win comes from a threat, not from force.
//! - **cannonScreen** (炮架): a solver cannon strikes — takes, or checks — over a screen that
//!   a move of the line put there: a screen made (often the solver's own piece, moved in
//!   with tempo) or a screen moved (a defender's piece forced onto the cannon's line).
//! - **facingGenerals** (对脸将, 白脸将): the line ends the game (mate or stalemate) with the
//!   enemy general denied a point only by the rule that the generals may not face each other
//!   on an open file: the solver's general takes part in the mate.

use super::combinations::detect_combinations;
use super::theme::Theme;
use xiangqi_engine::SEE_VALUE;
use xiangqi_rules::{Bitboard, Color, GameStatus, Move, PieceKind, Position, Square};

/// A horse's exchange value: the least a "valuable" piece is worth.
const VALUABLE: i32 = SEE_VALUE[PieceKind::Horse as usize];

pub(super) fn value(position: &Position, sq: Square) -> i32 {
    position
        .piece_at(sq)
        .map_or(0, |p| SEE_VALUE[p.kind.index()])
}

pub(super) fn is_valuable(position: &Position, sq: Square) -> bool {
    position
        .piece_at(sq)
        .is_some_and(|p| p.kind == PieceKind::General || SEE_VALUE[p.kind.index()] >= VALUABLE)
}

/// The positions before each ply of `line`, and the one after the last.
pub(super) fn positions(start: &Position, line: &[Move]) -> Vec<Position> {
    let mut all = vec![start.clone()];
    let mut pos = start.clone();
    for &m in line {
        pos.make_move(m);
        all.push(pos.clone());
    }
    all
}

/// The motifs `line` shows from `start`, in the order of the module docs, then the
/// combinations of [`super::combinations`].
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
    if is_double_check(start, line) {
        found.push(Theme::DoubleCheck);
    }
    if is_sacrifice(start, line) {
        found.push(Theme::Sacrifice);
    }
    if is_quiet_move(start, line) {
        found.push(Theme::QuietMove);
    }
    if is_cannon_screen(start, line) {
        found.push(Theme::CannonScreen);
    }
    if is_facing_generals(start, line) {
        found.push(Theme::FacingGenerals);
    }
    found.extend(detect_combinations(start, line));
    found
}

/// The one piece between `a` and `b` on a shared file or rank in `position`, if there is
/// exactly one.
pub(super) fn screen_between(position: &Position, a: Square, b: Square) -> Option<Square> {
    let (df, dr) = (
        i8::try_from(b.file()).ok()? - i8::try_from(a.file()).ok()?,
        i8::try_from(b.rank()).ok()? - i8::try_from(a.rank()).ok()?,
    );
    if df != 0 && dr != 0 {
        return None;
    }
    let step = (df.signum(), dr.signum());
    let mut found = None;
    let mut at = a.offset(step.0, step.1)?;
    while at != b {
        if position.piece_at(at).is_some() {
            if found.is_some() {
                return None;
            }
            found = Some(at);
        }
        at = at.offset(step.0, step.1)?;
    }
    found
}

/// See the module docs.
pub fn is_cannon_screen(start: &Position, line: &[Move]) -> bool {
    let all = positions(start, line);
    let solver = start.side_to_move();
    let placed = |sq: Square, before: usize| line[..before].iter().any(|m| m.to() == sq);
    let is_cannon = |p: &Position, sq: Square| {
        p.piece_at(sq)
            .is_some_and(|piece| piece.color == solver && piece.kind == PieceKind::Cannon)
    };
    (0..line.len()).step_by(2).any(|i| {
        let (m, before, after) = (line[i], &all[i], &all[i + 1]);
        // A capture by a cannon over a screen the line put there.
        let takes = is_cannon(before, m.from())
            && before.piece_at(m.to()).is_some()
            && screen_between(before, m.from(), m.to()).is_some_and(|s| placed(s, i));
        // A cannon's check over a screen the line put there (this move's included).
        let general = after.general(solver.opponent());
        let checks = after
            .pieces_of(solver)
            .into_iter()
            .filter(|&c| is_cannon(after, c))
            .any(|c| {
                after
                    .attackers_to(general, solver, after.occupied())
                    .contains(c)
                    && screen_between(after, c, general).is_some_and(|s| placed(s, i + 1))
            });
        takes || checks
    })
}

/// See the module docs.
pub fn is_double_check(start: &Position, line: &[Move]) -> bool {
    let all = positions(start, line);
    let defender = start.side_to_move().opponent();
    (0..line.len()).step_by(2).any(|i| {
        let after = &all[i + 1];
        let checkers = after.attackers_to(
            after.general(defender),
            defender.opponent(),
            after.occupied(),
        );
        checkers.into_iter().count() >= 2
    })
}

/// See the module docs.
pub fn is_sacrifice(start: &Position, line: &[Move]) -> bool {
    let all = positions(start, line);
    (0..line.len())
        .step_by(2)
        .any(|i| is_sacrifice_at(&all, line, i))
}

/// Whether the solver move at ply `i` of `line` is a sacrifice, with `all` the positions of
/// the line ([`positions`]).
pub(super) fn is_sacrifice_at(all: &[Position], line: &[Move], i: usize) -> bool {
    let (m, before, after) = (line[i], &all[i], &all[i + 1]);
    let Some(reply) = line.get(i + 1) else {
        return false;
    };
    let given = value(after, m.to());
    reply.to() == m.to()
        && is_valuable(after, m.to())
        && after
            .piece_at(m.to())
            .is_some_and(|p| p.kind != PieceKind::General)
        && given - value(before, m.to()) >= SEE_VALUE[PieceKind::Advisor as usize]
}

/// See the module docs.
pub fn is_quiet_move(start: &Position, line: &[Move]) -> bool {
    let Some(&first) = line.first() else {
        return false;
    };
    line.len() >= 3 && start.piece_at(first.to()).is_none() && !start.after(first).in_check()
}

/// See the module docs.
pub fn is_facing_generals(start: &Position, line: &[Move]) -> bool {
    let end = positions(start, line)
        .pop()
        .unwrap_or_else(|| start.clone());
    if end.status() == GameStatus::Ongoing {
        return false;
    }
    let defender = end.side_to_move();
    let solver = defender.opponent();
    let (from, guard) = (end.general(defender), end.general(solver));
    [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().any(|&(df, dr)| {
        let Some(to) = from.offset(df, dr) else {
            return false;
        };
        let in_palace = (3..=5).contains(&to.file())
            && match defender {
                Color::Red => to.rank() <= 2,
                Color::Black => to.rank() >= 7,
            };
        if !in_palace || end.piece_at(to).is_some_and(|p| p.color == defender) {
            return false;
        }
        let occupied = Bitboard(
            (end.occupied().0 & !Bitboard::from_square(from).0) | Bitboard::from_square(to).0,
        );
        // Denied by nothing but the facing rule: no solver piece attacks the point, and the
        // solver's general looks at it along an open file.
        let attacked = !end.attackers_to(to, solver, occupied).is_empty();
        let open_file = to.file() == guard.file() && {
            let (low, high) = (to.rank().min(guard.rank()), to.rank().max(guard.rank()));
            (low + 1..high)
                .all(|r| Square::new(to.file(), r).is_some_and(|sq| !occupied.contains(sq)))
        };
        open_file && !attacked
    })
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
pub(super) fn captured_later(
    all: &[Position],
    line: &[Move],
    from: usize,
    sq: Square,
    solver: Color,
) -> bool {
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

    #[test]
    fn a_horse_that_checks_and_uncovers_the_chariot_gives_double_check() {
        // The horse leaves the e-file to c8, from where it checks e9 over d8, and the chariot
        // on e1 checks along the opened file.
        let (pos, line) = case("4k4/9/4N4/9/9/9/9/9/4R4/3K5 w", "e7c8");
        assert!(is_double_check(&pos, &line));
        assert!(detect_motifs(&pos, &line).contains(&Theme::DoubleCheck));
        // Without the chariot the horse checks alone.
        let (pos, line) = case("4k4/9/4N4/9/9/9/9/9/9/3K5 w", "e7c8");
        assert!(!is_double_check(&pos, &line));
    }

    #[test]
    fn a_chariot_given_to_the_general_is_a_sacrifice_a_trade_is_not() {
        // The chariot checks on d8 and the general takes it.
        let (pos, line) = case("3k5/R3a4/9/9/9/9/9/9/9/4K4 w", "a8d8 d9d8");
        assert!(is_sacrifice(&pos, &line));
        // Taking a chariot on d8 and being taken back is a trade.
        let (pos, line) = case("3k5/R2ra4/9/9/9/9/9/9/9/4K4 w", "a8d8 d9d8");
        assert!(!is_sacrifice(&pos, &line));
    }

    #[test]
    fn a_first_move_that_neither_takes_nor_checks_is_quiet() {
        // The chariot takes rank 7 away; the mate comes later.
        let (pos, line) = case("9/4k4/9/9/9/9/9/9/9/R2K5 w", "a0a7 e8e9 a7a9");
        assert!(is_quiet_move(&pos, &line));
        // A check is not quiet, and neither is a line of one move.
        let (pos, line) = case("9/4k4/9/9/9/9/9/9/9/R2K5 w", "a0a8 e8e9 a8a9");
        assert!(!is_quiet_move(&pos, &line));
        let (pos, line) = case("9/4k4/9/9/9/9/9/9/9/R2K5 w", "a0a7");
        assert!(!is_quiet_move(&pos, &line));
    }

    #[test]
    fn a_horse_jumping_onto_the_cannons_file_makes_its_screen() {
        // The horse lands on e6, between the cannon on e2 and the general on e9: check.
        let (pos, line) = case("4k4/9/9/9/2N6/9/9/4C4/9/3K5 w", "c5e6");
        assert!(is_cannon_screen(&pos, &line));
        // Elsewhere it makes no screen.
        let (pos, line) = case("4k4/9/9/9/2N6/9/9/4C4/9/3K5 w", "c5b7");
        assert!(!is_cannon_screen(&pos, &line));
        // A cannon taking over a screen that was always there is an ordinary capture.
        let (pos, line) = case("4k4/9/4n4/9/4p4/9/9/4C4/9/3K5 w", "e2e7");
        assert!(!is_cannon_screen(&pos, &line));
    }

    #[test]
    fn a_mate_where_e9_is_denied_only_by_the_facing_generals() {
        // The chariot checks along the d-file and covers d8; e9 would face the general on e0.
        let (pos, line) = case("3k5/9/9/9/9/9/9/9/R8/4K4 w", "a1d1");
        assert!(is_facing_generals(&pos, &line));
        // With the general off the e-file, e9 is free: no mate, no facing generals.
        let (pos, line) = case("3k5/9/9/9/9/9/9/9/R8/5K3 w", "a1d1");
        assert!(!is_facing_generals(&pos, &line));
        // A line that does not end the game shows no facing generals.
        let (pos, line) = case("3k5/9/9/9/9/9/9/9/R8/4K4 w", "a1a2");
        assert!(!is_facing_generals(&pos, &line));
    }
}
