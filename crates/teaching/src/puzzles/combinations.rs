//! Combinations read from a solution: the ideas that make a line work, beyond the motifs of
//! [`super::motifs`]. Each rule looks only at the position and the line.
//!
//! A piece *holds* a point when it attacks it: it defends its side's piece there, or keeps
//! the other side's pieces off it. The solver's moves are the line's even-numbered plies.
//! - **horseLeg** (蹩马腿, «подножка коню»): a solver move lands on the leg of an enemy horse
//!   and so takes away a point the horse held: a point a later solver move then takes, checks
//!   from or mates on, or the point of the solver's general or chariot that the horse
//!   attacked (a check or a threat blocked at the leg). Or a solver piece strikes (takes,
//!   checks, mates) on a point an enemy horse would take it on, but for a piece on the
//!   horse's leg: the hobbled horse cannot answer.
//! - **elephantEye** (塞象眼, «забитый глаз слона»): the same with the eye of an enemy
//!   elephant: the elephant no longer reaches over it, or cannot take over it.
//! - **interference** (拦截, «перекрытие»): a solver move lands between an enemy chariot or
//!   cannon and a point it held (for a cannon: making a second screen), and a later solver
//!   move takes, checks from or mates on that point; or the move cuts the line's attack on a
//!   solver chariot, horse or cannon that stood to be lost there (attacked by a cheaper
//!   piece, or not defended) — a block of an attack, not of a check.
//! - **deflection** (引离, «отвлечение»): the solver checks or offers a piece; the defender's
//!   piece that answers leaves a point it held, and the solver's next move takes a piece
//!   there (an advisor's worth or more) or checks from it.
//! - **decoy** (引入, «завлечение»): a sacrifice (see [`super::motifs`]) is taken, and the
//!   piece that took it is hit on that point: the general lured there is checked by the
//!   solver's next move, or the piece is taken there later in the line.
//! - **clearance** (腾挪, «освобождение поля»): a solver piece leaves a point, and the
//!   solver's next move is by another piece that lands on that point or passes over it (a
//!   line, a horse's leg, an elephant's eye), taking or checking.
//! - **zwischenzug** (中间着, «промежуточный ход»): a capture of a valuable piece is there to
//!   be made at once, but the solver checks first and makes it later, on the same piece.
//! - **trappedPiece** (困子, «пойманная фигура»): after a solver move, an enemy chariot,
//!   horse or cannon, not pinned, is attacked and has no safe point to go (every point it can
//!   reach is attacked by a cheaper piece, or attacked and not defended), and the solver
//!   takes it.

use super::motifs::{captured_later, is_pinned, is_sacrifice_at, is_valuable, positions, value};
use super::theme::Theme;
use xiangqi_engine::SEE_VALUE;
use xiangqi_rules::{Color, GameStatus, Move, PieceKind, Position, Square};

/// The combinations `line` shows from `start`, in the order of the module docs.
pub fn detect_combinations(start: &Position, line: &[Move]) -> Vec<Theme> {
    let all = positions(start, line);
    let solver = start.side_to_move();
    let mut found = Vec::new();
    let cuts: Vec<Cut> = (0..line.len())
        .step_by(2)
        .flat_map(|i| cuts_used(&all, line, i, solver))
        .collect();
    for (kind, theme) in [
        (CutKind::HorseLeg, Theme::HorseLeg),
        (CutKind::ElephantEye, Theme::ElephantEye),
        (CutKind::Line, Theme::Interference),
    ] {
        let hobbled = (0..line.len())
            .step_by(2)
            .any(|i| strikes_past_a_blocked_leg(&all, line, i, solver, kind));
        if hobbled || cuts.iter().any(|c| c.kind == kind) {
            found.push(theme);
        }
    }
    let rules: [(LineRule, Theme); 5] = [
        (is_deflection, Theme::Deflection),
        (is_decoy, Theme::Decoy),
        (is_clearance, Theme::Clearance),
        (is_zwischenzug, Theme::Zwischenzug),
        (is_trapped_piece, Theme::TrappedPiece),
    ];
    for (rule, theme) in rules {
        if rule(&all, line, solver) {
            found.push(theme);
        }
    }
    found
}

/// A rule read from the positions of a line, the line and the solver's colour.
type LineRule = fn(&[Position], &[Move], Color) -> bool;

/// How a move took away an enemy piece's hold on a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CutKind {
    /// Landing on a horse's leg.
    HorseLeg,
    /// Landing on an elephant's eye.
    ElephantEye,
    /// Landing between a chariot or cannon and the point.
    Line,
}

/// A hold cut by a solver move.
#[derive(Clone, Copy, Debug)]
struct Cut {
    kind: CutKind,
}

/// The point at the middle of a step of two (an elephant's eye), or the leg of a horse's
/// move from `from` to `to`.
fn leg(from: Square, to: Square) -> Option<Square> {
    let df = to.file() as i8 - from.file() as i8;
    let dr = to.rank() as i8 - from.rank() as i8;
    let half = |d: i8| if d.abs() == 2 { d / 2 } else { 0 };
    from.offset(half(df), half(dr))
}

/// Whether `at` lies strictly between `a` and `b` on a file or a rank.
fn strictly_between(a: Square, b: Square, at: Square) -> bool {
    let inside = |x: u8, y: u8, z: u8| x.min(y) < z && z < x.max(y);
    (a.file() == b.file() && at.file() == a.file() && inside(a.rank(), b.rank(), at.rank()))
        || (a.rank() == b.rank() && at.rank() == a.rank() && inside(a.file(), b.file(), at.file()))
}

/// How the piece on `holder` lost its hold on `point` to a piece landing on `at`.
fn cut_kind(kind: PieceKind, holder: Square, point: Square, at: Square) -> Option<CutKind> {
    match kind {
        PieceKind::Horse if leg(holder, point) == Some(at) => Some(CutKind::HorseLeg),
        PieceKind::Elephant if leg(holder, point) == Some(at) => Some(CutKind::ElephantEye),
        PieceKind::Chariot | PieceKind::Cannon if strictly_between(holder, point, at) => {
            Some(CutKind::Line)
        }
        _ => None,
    }
}

/// Whether the solver move at ply `j` lands on `point` and strikes there: takes a piece,
/// gives check, or ends the game.
fn strikes_on(all: &[Position], line: &[Move], j: usize, point: Square) -> bool {
    let Some(&m) = line.get(j) else {
        return false;
    };
    let after = &all[j + 1];
    m.to() == point
        && (all[j].piece_at(point).is_some()
            || after.in_check()
            || after.status() != GameStatus::Ongoing)
}

/// Whether the solver move at ply `i` strikes (see [`strikes_on`]) on a point that an enemy
/// horse (for [`CutKind::HorseLeg`]) or elephant (for [`CutKind::ElephantEye`]) reaches by
/// its step but for a piece on its leg or eye, so that it cannot take the striking piece.
fn strikes_past_a_blocked_leg(
    all: &[Position],
    line: &[Move],
    i: usize,
    solver: Color,
    kind: CutKind,
) -> bool {
    let point = line[i].to();
    if !strikes_on(all, line, i, point) {
        return false;
    }
    let (after, enemy) = (&all[i + 1], solver.opponent());
    let wanted = match kind {
        CutKind::HorseLeg => PieceKind::Horse,
        CutKind::ElephantEye => PieceKind::Elephant,
        CutKind::Line => return false,
    };
    after.pieces_of(enemy).into_iter().any(|holder| {
        let is_kind = after.piece_at(holder).is_some_and(|p| p.kind == wanted);
        let (df, dr) = (
            (point.file() as i8 - holder.file() as i8).abs(),
            (point.rank() as i8 - holder.rank() as i8).abs(),
        );
        let step = match wanted {
            PieceKind::Horse => (df, dr) == (1, 2) || (df, dr) == (2, 1),
            _ => (df, dr) == (2, 2),
        };
        // An elephant never crosses the river.
        let own_half = match enemy {
            Color::Red => point.rank() <= 4,
            Color::Black => point.rank() >= 5,
        };
        let reachable = wanted != PieceKind::Elephant || own_half;
        is_kind
            && step
            && reachable
            && leg(holder, point).is_some_and(|l| after.piece_at(l).is_some())
    })
}

/// The holds the solver move at ply `i` cuts that the line makes use of (see the module
/// docs).
fn cuts_used(all: &[Position], line: &[Move], i: usize, solver: Color) -> Vec<Cut> {
    let (m, before, after) = (line[i], &all[i], &all[i + 1]);
    let enemy = solver.opponent();
    let mut cuts = Vec::new();
    for holder in before.pieces_of(enemy) {
        let Some(piece) = before.piece_at(holder) else {
            continue;
        };
        if after.piece_at(holder) != Some(piece) {
            continue;
        }
        for point in before.attacks_from(holder) {
            if point == m.to()
                || !before
                    .attackers_to(point, enemy, before.occupied())
                    .contains(holder)
                || after
                    .attackers_to(point, enemy, after.occupied())
                    .contains(holder)
            {
                continue;
            }
            let Some(kind) = cut_kind(piece.kind, holder, point, m.to()) else {
                continue;
            };
            let struck_later = (i + 2..line.len())
                .step_by(2)
                .any(|j| strikes_on(all, line, j, point));
            let threat_blocked = after.piece_at(point).is_some_and(|p| {
                p.color == solver
                    && match kind {
                        CutKind::Line => {
                            p.kind != PieceKind::General
                                && is_valuable(after, point)
                                && unsafe_point(before, point, value(before, point), enemy)
                        }
                        _ => {
                            matches!(p.kind, PieceKind::General | PieceKind::Chariot)
                                || (is_valuable(after, point)
                                    && after
                                        .attackers_to(point, solver, after.occupied())
                                        .is_empty())
                        }
                    }
            });
            if struck_later || threat_blocked {
                cuts.push(Cut { kind });
            }
        }
    }
    cuts
}

/// See the module docs.
fn is_deflection(all: &[Position], line: &[Move], solver: Color) -> bool {
    let enemy = solver.opponent();
    (0..line.len()).step_by(2).any(|i| {
        let (Some(&reply), Some(&next)) = (line.get(i + 1), line.get(i + 2)) else {
            return false;
        };
        let (offered, answered) = (&all[i + 1], &all[i + 2]);
        let forcing = answered_offer(all, line, i) || offered.in_check();
        let point = next.to();
        let taken = offered
            .piece_at(point)
            .is_some_and(|p| p.color == enemy && SEE_VALUE[p.kind.index()] >= advisor())
            && answered.piece_at(point).is_some_and(|p| p.color == enemy);
        let checks = all[i + 3].in_check();
        forcing
            && point != reply.to()
            && point != line[i].to()
            && (taken || checks)
            && offered
                .attackers_to(point, enemy, offered.occupied())
                .contains(reply.from())
            && !answered
                .attackers_to(point, enemy, answered.occupied())
                .contains(reply.to())
    })
}

/// An advisor's exchange value.
fn advisor() -> i32 {
    SEE_VALUE[PieceKind::Advisor as usize]
}

/// Whether the defender's reply to the solver move at ply `i` takes the piece that move put
/// down.
fn answered_offer(all: &[Position], line: &[Move], i: usize) -> bool {
    line.get(i + 1)
        .is_some_and(|r| r.to() == line[i].to() && all[i + 1].piece_at(r.to()).is_some())
}

/// See the module docs.
fn is_decoy(all: &[Position], line: &[Move], solver: Color) -> bool {
    (0..line.len()).step_by(2).any(|i| {
        if !is_sacrifice_at(all, line, i) || line.get(i + 2).is_none() {
            return false;
        }
        let lure = line[i].to();
        let Some(lured) = all[i + 2].piece_at(lure) else {
            return false;
        };
        let general_checked = lured.kind == PieceKind::General
            && all[i + 3].in_check()
            && all[i + 3].general(lured.color) == lure;
        general_checked || captured_later(all, line, i + 2, lure, solver)
    })
}

/// See the module docs.
fn is_clearance(all: &[Position], line: &[Move], _solver: Color) -> bool {
    (0..line.len()).step_by(2).any(|i| {
        let (m, Some(&next)) = (line[i], line.get(i + 2)) else {
            return false;
        };
        let vacated = m.from();
        if next.from() == m.to() {
            return false;
        }
        let Some(piece) = all[i + 2].piece_at(next.from()) else {
            return false;
        };
        let passes = match piece.kind {
            PieceKind::Chariot | PieceKind::Cannon => {
                strictly_between(next.from(), next.to(), vacated)
            }
            PieceKind::Horse | PieceKind::Elephant => leg(next.from(), next.to()) == Some(vacated),
            _ => false,
        };
        (next.to() == vacated || passes) && strikes_on(all, line, i + 2, next.to())
    })
}

/// See the module docs.
fn is_zwischenzug(all: &[Position], line: &[Move], solver: Color) -> bool {
    let start = &all[0];
    let Some(&first) = line.first() else {
        return false;
    };
    if !all[1].in_check() {
        return false;
    }
    let ready: Vec<Square> = start
        .legal_moves()
        .iter()
        .map(|m| m.to())
        .filter(|&to| {
            to != first.to()
                && start
                    .piece_at(to)
                    .is_some_and(|p| p.color != solver && p.kind != PieceKind::General)
                && is_valuable(start, to)
        })
        .collect();
    (2..line.len()).step_by(2).any(|j| {
        let target = line[j].to();
        ready.contains(&target)
            && all[j].piece_at(target) == start.piece_at(target)
            && line[..j]
                .iter()
                .all(|m| m.from() != target && m.to() != target)
    })
}

/// Whether a piece worth `worth` standing on `point` of `position` is lost there to
/// `attacker`: attacked by a cheaper piece of `attacker`'s, or attacked and not defended.
fn unsafe_point(position: &Position, point: Square, worth: i32, attacker: Color) -> bool {
    let occupied = position.occupied();
    let attackers = position.attackers_to(point, attacker, occupied);
    if attackers.is_empty() {
        return false;
    }
    let cheaper = attackers.into_iter().any(|a| value(position, a) < worth);
    cheaper
        || position
            .attackers_to(point, attacker.opponent(), occupied)
            .is_empty()
}

/// See the module docs.
fn is_trapped_piece(all: &[Position], line: &[Move], solver: Color) -> bool {
    (0..line.len()).step_by(2).any(|i| {
        let after = &all[i + 1];
        if after.in_check() || after.status() != GameStatus::Ongoing {
            return false;
        }
        let moves = after.legal_moves();
        after.pieces_of(solver.opponent()).into_iter().any(|sq| {
            let Some(piece) = after.piece_at(sq) else {
                return false;
            };
            if !matches!(
                piece.kind,
                PieceKind::Chariot | PieceKind::Horse | PieceKind::Cannon
            ) {
                return false;
            }
            let worth = SEE_VALUE[piece.kind.index()];
            // A pinned piece that falls is the pin's theme, not a trapped piece.
            if !unsafe_point(after, sq, worth, solver) || is_pinned(after, sq) {
                return false;
            }
            let no_escape = moves.iter().filter(|m| m.from() == sq).all(|&m| {
                let there = after.after(m);
                unsafe_point(&there, m.to(), worth, solver)
            });
            // Taken where it stands, or where it fled to.
            let fled_to = line
                .get(i + 1)
                .filter(|r| r.from() == sq)
                .map_or(sq, |r| r.to());
            no_escape && captured_later(all, line, i + 2, fled_to, solver)
        })
    })
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

    fn has(fen: &str, line: &str, theme: Theme) -> bool {
        let (pos, moves) = case(fen, line);
        detect_combinations(&pos, &moves).contains(&theme)
    }

    #[test]
    fn a_cannon_on_the_horses_leg_blocks_its_check() {
        // The black horse on d2 checks e0 over its leg d1; the cannon lands on d1.
        let fen = "3k5/9/9/9/9/9/9/3n5/C8/4K4 w";
        assert!(has(fen, "a1d1", Theme::HorseLeg));
        // Stepping aside answers the check without a block.
        assert!(!has(fen, "e0f0", Theme::HorseLeg));
    }

    #[test]
    fn a_chariot_taking_next_to_a_hobbled_horse_is_safe() {
        // The horse on d7 would take back on e5, but its own cannon stands on its leg d6.
        let fen = "5k3/9/3n5/3c5/4p4/9/9/9/4R4/3K5 w";
        assert!(has(fen, "e1e5", Theme::HorseLeg));
        // With the leg free, the chariot's capture is no horse-leg idea.
        let fen = "5k3/9/3n5/9/4p4/9/9/9/4R4/3K5 w";
        assert!(!has(fen, "e1e5", Theme::HorseLeg));
    }

    #[test]
    fn a_soldier_in_the_elephants_eye_leaves_the_horse_undefended() {
        // The elephant on e7 guards the horse on g5 over its eye f6.
        let fen = "3k5/9/4b4/9/5Pn2/9/9/9/6R2/4K4 w";
        assert!(has(fen, "f5f6 d9d8 g1g5", Theme::ElephantEye));
        assert!(!has(fen, "f5e5 d9d8 g1g5", Theme::ElephantEye));
    }

    #[test]
    fn a_horse_between_the_chariot_and_the_piece_it_guards_interferes() {
        // The chariot on a6 guards the horse on e6 along rank 6; the horse lands on c6.
        let fen = "5k3/9/9/r3n4/9/1N7/9/9/4R4/3K5 w";
        assert!(has(fen, "b4c6 f9f8 e1e6", Theme::Interference));
        assert!(!has(fen, "b4d3 f9f8 e1e6", Theme::Interference));
    }

    #[test]
    fn a_cannon_between_the_enemy_chariot_and_a_loose_horse_interferes() {
        // The chariot on a4 attacks the red horse on g4; the cannon lands on d4 between them.
        let fen = "5k3/9/9/9/9/r5N2/9/9/3C5/4K4 w";
        assert!(has(fen, "d1d4", Theme::Interference));
        // A check blocked is no interference.
        let fen = "5k3/9/9/9/9/9/9/9/3C5/r3K4 w";
        assert!(!has(fen, "d1d0", Theme::Interference));
    }

    #[test]
    fn a_check_that_the_guarding_chariot_must_take_deflects_it() {
        // The chariot on h7 guards the horse on h2; the horse's check on g7 draws it away.
        let fen = "5k3/9/7r1/4N4/9/9/9/7n1/9/3K3R1 w";
        assert!(has(fen, "e6g7 h7g7 h0h2", Theme::Deflection));
        // Answered by the general, the check deflects nothing.
        assert!(!has(fen, "e6g7 f9f8 h0h2", Theme::Deflection));
    }

    #[test]
    fn a_general_lured_onto_d8_and_checked_there_is_decoyed() {
        let fen = "3k5/R3a4/9/9/2N6/9/9/9/9/4K4 w";
        assert!(has(fen, "a8d8 d9d8 c5b7", Theme::Decoy));
        // A sacrifice that nothing follows lures nobody.
        assert!(!has(fen, "a8d8 d9d8", Theme::Decoy));
    }

    #[test]
    fn a_horse_leaving_the_file_for_the_chariot_is_clearance() {
        let fen = "3k5/4n4/9/9/4N4/9/9/9/4R4/5K3 w";
        assert!(has(fen, "e5g6 d9d8 e1e8", Theme::Clearance));
        let fen = "3k5/4n4/9/9/2N6/9/9/9/4R4/5K3 w";
        assert!(!has(fen, "c5a6 d9d8 e1e8", Theme::Clearance));
    }

    #[test]
    fn a_check_before_taking_the_chariot_is_a_zwischenzug() {
        // The chariot on i5 can be taken at once; the horse checks first.
        let fen = "3k5/9/9/N8/8r/9/9/9/8R/4K4 w";
        assert!(has(fen, "a6c7 d9d8 i1i5", Theme::Zwischenzug));
        // Without the check it is only a delay.
        assert!(!has(fen, "a6c5 d9d8 i1i5", Theme::Zwischenzug));
    }

    #[test]
    fn a_horse_in_the_corner_with_no_safe_point_is_trapped() {
        // The chariot on a8 attacks the horse, blocks its leg to b7 and covers c8.
        let fen = "n3k4/7R1/9/9/9/9/9/9/9/3K5 w";
        assert!(has(fen, "h8a8 e9f9 a8a9", Theme::TrappedPiece));
        // From a7 the chariot attacks it too, but c8 is a way out.
        let fen = "n3k4/9/7R1/9/9/9/9/9/9/3K5 w";
        assert!(!has(fen, "h7a7 e9f9 a7a9", Theme::TrappedPiece));
    }
}
