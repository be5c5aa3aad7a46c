//! The named mates of the mating-patterns course, recognised in a mate's final position, so
//! that a mined mate carries its pattern's name (`pattern:<id>`) as the course's exercises do.
//! Each rule reads the course's own description of the pattern (`crates/teaching/patterns/`):
//! - **double-cannon** (重炮): a cannon mates over a screen that is the solver's other cannon;
//! - **horse-cannon** (马后炮): a cannon mates over a screen that is the solver's horse;
//! - **smothered-palace** (闷宫): a cannon mates alone, and every point the general could
//!   step to is held by its own pieces (two of them at least) or lies on the cannon's line;
//! - **heart-piercing** (大胆穿心): a chariot of the solver's lands on the palace's centre
//!   point, taking the piece there, on the way to the mate;
//! - **chariot-cannon** (夹车炮): a chariot mates from right beside the general, guarded by
//!   the solver's cannon behind it on the same line, over one screen.

use super::motifs::{positions, screen_between};
use super::theme::Theme;
use xiangqi_rules::{Color, GameStatus, Move, PieceKind, Position, Square};

/// The named patterns the mate that `line` ends in shows (none when it ends in no mate).
pub fn detect_patterns(start: &Position, line: &[Move]) -> Vec<Theme> {
    let Some(end) = positions(start, line).pop() else {
        return Vec::new();
    };
    if !matches!(end.status(), GameStatus::Checkmate { .. }) {
        return Vec::new();
    }
    let defender = end.side_to_move();
    let solver = defender.opponent();
    let general = end.general(defender);
    let checkers: Vec<Square> = end
        .attackers_to(general, solver, end.occupied())
        .into_iter()
        .collect();
    let [checker] = checkers.as_slice() else {
        return Vec::new();
    };
    let checker = *checker;
    let kind = |sq: Square| end.piece_at(sq).map(|p| (p.color, p.kind));
    let mut found = Vec::new();
    let pattern = |id: &str| Theme::Pattern(id.to_string());
    match kind(checker) {
        Some((_, PieceKind::Cannon)) => {
            let screen = screen_between(&end, checker, general).and_then(kind);
            if screen == Some((solver, PieceKind::Cannon)) {
                found.push(pattern("double-cannon"));
            }
            if screen == Some((solver, PieceKind::Horse)) {
                found.push(pattern("horse-cannon"));
            }
            let steps = palace_steps(general, defender);
            let own = |step: &Square| end.piece_at(*step).is_some_and(|p| p.color == defender);
            let smothered = steps.iter().filter(|s| own(s)).count() >= 2
                && steps
                    .iter()
                    .all(|step| own(step) || on_line(checker, general, *step));
            if smothered {
                found.push(pattern("smothered-palace"));
            }
        }
        Some((_, PieceKind::Chariot)) => {
            let beside = checker.file().abs_diff(general.file())
                + checker.rank().abs_diff(general.rank())
                == 1;
            let guarded = end.pieces_of(solver).into_iter().any(|c| {
                kind(c) == Some((solver, PieceKind::Cannon))
                    && on_line(general, checker, c)
                    && !between(checker, general, c)
                    && screen_between(&end, c, checker).is_some()
            });
            if beside && guarded {
                found.push(pattern("chariot-cannon"));
            }
        }
        _ => {}
    }
    let all = positions(start, line);
    let pierced = (0..line.len()).step_by(2).any(|i| {
        let m = line[i];
        m.to() == palace_centre(defender)
            && all[i].piece_at(m.to()).is_some()
            && all[i + 1]
                .piece_at(m.to())
                .is_some_and(|p| p.color == solver && p.kind == PieceKind::Chariot)
    });
    if pierced {
        found.push(pattern("heart-piercing"));
    }
    found
}

/// The points a general on `at` could step to inside its palace.
fn palace_steps(at: Square, color: Color) -> Vec<Square> {
    [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .into_iter()
        .filter_map(|(df, dr)| at.offset(df, dr))
        .filter(|sq| {
            (3..=5).contains(&sq.file())
                && match color {
                    Color::Red => sq.rank() <= 2,
                    Color::Black => sq.rank() >= 7,
                }
        })
        .collect()
}

/// The centre of `color`'s palace: e1 for Red, e8 for Black.
fn palace_centre(color: Color) -> Square {
    let rank = if color == Color::Red { 1 } else { 8 };
    Square::new(4, rank).unwrap_or_else(|| unreachable!("e1 and e8 are on the board"))
}

/// Whether `at` is on the file or rank through `a` and `b` (which share one).
fn on_line(a: Square, b: Square, at: Square) -> bool {
    (a.file() == b.file() && at.file() == a.file())
        || (a.rank() == b.rank() && at.rank() == a.rank())
}

/// Whether `at` lies strictly between `a` and `b` on their line.
fn between(a: Square, b: Square, at: Square) -> bool {
    let inside = |x: u8, y: u8, z: u8| x.min(y) < z && z < x.max(y);
    on_line(a, b, at)
        && if a.file() == b.file() {
            inside(a.rank(), b.rank(), at.rank())
        } else {
            inside(a.file(), b.file(), at.file())
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_course_exercise_of_a_recognised_pattern_is_recognised() {
        let recognised = [
            "double-cannon",
            "horse-cannon",
            "smothered-palace",
            "heart-piercing",
            "chariot-cannon",
        ];
        let puzzles = crate::puzzles::shipped().unwrap();
        let mut checked = 0;
        // The course's own exercises, shipped as `pattern-<id>-<n>`.
        for puzzle in puzzles {
            let Some(own) = puzzle
                .id
                .strip_prefix("pattern-")
                .and_then(|rest| rest.rsplit_once('-'))
                .map(|(id, _)| id)
            else {
                continue;
            };
            if recognised.contains(&own) {
                let found = detect_patterns(&puzzle.position, &puzzle.moves);
                assert!(
                    found.contains(&Theme::Pattern(own.to_string())),
                    "{}: {found:?}",
                    puzzle.id
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 15, "three exercises of each of five patterns");
    }

    #[test]
    fn a_cannon_mate_over_a_soldier_with_chariots_guarding_is_none_of_them() {
        // The cannon comes to e1 and mates over the soldier on e6; the chariots on d0 and f0,
        // not the general's own pieces, take d9 and f9: no smothered palace, and the screen
        // is neither a cannon nor a horse.
        let start = Position::from_fen("4k4/9/9/4P4/9/9/9/9/C8/3RKR3 w - - 0 1").unwrap();
        let line: Vec<Move> = vec!["a1e1".parse().unwrap()];
        assert!(matches!(
            start.after(line[0]).status(),
            GameStatus::Checkmate { .. }
        ));
        assert_eq!(detect_patterns(&start, &line), Vec::<Theme>::new());
    }
}
