//! Solving a puzzle move by move, as a trainer does: where the solver stands after some
//! moves of the solution, whether a move is right (the solution's move, or any move that
//! wins at once), what a wrong move runs into, and which puzzle to set a learner next.

use super::puzzle::Puzzle;
use super::theme::Theme;
use crate::review::{Consequence, Refutation};
use xiangqi_rules::random::SplitMix64;
use xiangqi_rules::{GameStatus, Move, Piece, Position, Square};

/// How many of the puzzles nearest to the learner's rating the next one is drawn from.
pub const NEAREST: usize = 12;

/// After `ply` moves of the solution it is not the solver's turn (an odd ply, or past the end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotSolversTurn {
    /// The moves said to be played.
    pub ply: usize,
    /// The solution's length.
    pub plies: usize,
}

/// A step of the solution where the solver is to move: the moves played so far and the
/// position they lead to, worked out once for judging a move there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverStep {
    /// Moves of the solution played (0, 2, 4 …).
    pub ply: usize,
    /// The position after them, the solver to move.
    pub position: Position,
}

/// What a solver's move is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The move solves the step: the solution's move, or another that wins on the spot.
    Right {
        /// The reply the solution plays next, when the puzzle goes on.
        reply: Option<Move>,
        /// Whether the puzzle is solved with it.
        solved: bool,
        /// Moves of the solution played after it (the next step's `ply`).
        ply: usize,
    },
    /// Any other move.
    Wrong,
}

/// Why a wrong move fails, from the other side's best answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The other side mates in `moves`.
    Mate {
        /// Moves until mate.
        moves: i32,
    },
    /// The solver loses the piece `piece` on `square`.
    Material {
        /// The piece lost.
        piece: Piece,
        /// Where it is taken.
        square: Square,
    },
    /// A mate puzzle: no mate follows any more.
    NoMate,
    /// A defence puzzle: the position is worse, with no single loss to name.
    Positional,
    /// Nothing is won.
    NoWin,
}

impl Puzzle {
    /// The position after the first `ply` moves of the solution.
    pub fn position_at(&self, ply: usize) -> Position {
        let mut position = self.position.clone();
        for &m in &self.moves[..ply.min(self.moves.len())] {
            position.make_move(m);
        }
        position
    }

    /// The step after `ply` moves of the solution, when it is the solver's turn.
    pub fn solver_step(&self, ply: usize) -> Result<SolverStep, NotSolversTurn> {
        if !ply.is_multiple_of(2) || ply >= self.moves.len() {
            return Err(NotSolversTurn {
                ply,
                plies: self.moves.len(),
            });
        }
        Ok(SolverStep {
            ply,
            position: self.position_at(ply),
        })
    }

    /// Judges the solver's legal move `m` at `step` (one of this puzzle's). A move other than
    /// the solution's that mates or stalemates at once solves the puzzle too.
    pub fn judge(&self, step: &SolverStep, m: Move) -> Judgement {
        let ply = step.ply;
        let expected = self.moves[ply];
        let wins_at_once = matches!(
            step.position.after(m).status(),
            GameStatus::Checkmate { .. } | GameStatus::Stalemate { .. }
        );
        if m != expected && !wins_at_once {
            return Judgement::Wrong;
        }
        let reply = self.moves.get(ply + 1).copied().filter(|_| m == expected);
        let next = ply + 1 + usize::from(reply.is_some());
        Judgement::Right {
            reply,
            solved: m != expected || next >= self.moves.len(),
            ply: next,
        }
    }

    /// Why a wrong move fails, from its refutation `found`.
    pub fn failure(&self, found: &Refutation) -> Failure {
        match found.consequence {
            Consequence::Mate { moves } => Failure::Mate { moves },
            Consequence::Material { piece, square, .. } => Failure::Material { piece, square },
            _ if self.mate_length().is_some() => Failure::NoMate,
            _ if self.has_theme(&Theme::Defence) => Failure::Positional,
            _ => Failure::NoWin,
        }
    }
}

/// Which puzzles a learner asks for: a theme, a mating pattern, a rating range.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// A theme every puzzle carries (not a pattern).
    pub theme: Option<Theme>,
    /// A mating pattern's id.
    pub pattern: Option<String>,
    /// The lowest rating.
    pub min: Option<u32>,
    /// The highest rating.
    pub max: Option<u32>,
}

impl Filter {
    /// Whether `puzzle` is one the filter asks for.
    pub fn matches(&self, puzzle: &Puzzle) -> bool {
        self.theme.as_ref().is_none_or(|t| puzzle.has_theme(t))
            && self
                .pattern
                .as_ref()
                .is_none_or(|p| puzzle.has_theme(&Theme::Pattern(p.clone())))
            && (self.min.unwrap_or(0)..=self.max.unwrap_or(u32::MAX)).contains(&puzzle.rating)
    }
}

/// The next puzzle for a learner rated `rating`: one of the [`NEAREST`] of `candidates` to the
/// rating (ties by id), drawn by `seed`; `None` when there are none.
pub fn choose_near(mut candidates: Vec<&Puzzle>, rating: f64, seed: u64) -> Option<&Puzzle> {
    candidates.sort_by(|a, b| {
        let da = (f64::from(a.rating) - rating).abs();
        let db = (f64::from(b.rating) - rating).abs();
        da.total_cmp(&db).then_with(|| a.id.cmp(&b.id))
    });
    candidates.truncate(NEAREST);
    SplitMix64::new(seed).pick(&candidates).copied()
}

/// The next puzzle for a learner rated `rating` among the puzzles `matching` their filters,
/// `recent` being the ids they saw lately (the last one last): one not seen lately when there
/// is one; else any but the very last; else that one (see [`choose_near`]).
pub fn choose_next<'a>(
    matching: &[&'a Puzzle],
    recent: &[&str],
    rating: f64,
    seed: u64,
) -> Option<&'a Puzzle> {
    let unseen: Vec<&Puzzle> = matching
        .iter()
        .copied()
        .filter(|p| !recent.contains(&p.id.as_str()))
        .collect();
    let pool = if !unseen.is_empty() {
        unseen
    } else {
        let last = recent.last().copied();
        let others: Vec<&Puzzle> = matching
            .iter()
            .copied()
            .filter(|p| Some(p.id.as_str()) != last)
            .collect();
        if others.is_empty() {
            matching.to_vec()
        } else {
            others
        }
    };
    choose_near(pool, rating, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Red mates in two: the chariot checks on e6 (the king runs to d9), the second mates.
    fn mate_in_two() -> Puzzle {
        Puzzle {
            id: "m2".into(),
            position: Position::from_fen("4k4/9/9/R8/1R7/9/9/9/9/5K3 w - - 0 1").unwrap(),
            moves: ["a6e6", "e9d9", "b5d5"]
                .iter()
                .map(|m| m.parse().unwrap())
                .collect(),
            themes: vec![Theme::MateIn(2)],
            rating: 1200,
        }
    }

    fn entry(id: &str, rating: u32, themes: Vec<Theme>) -> Puzzle {
        Puzzle {
            rating,
            themes,
            id: id.into(),
            ..mate_in_two()
        }
    }

    #[test]
    fn the_solution_goes_step_by_step_and_a_wrong_move_is_wrong() {
        let p = mate_in_two();
        let first = p.moves[0];
        assert_eq!(
            p.judge(&p.solver_step(0).unwrap(), first),
            Judgement::Right {
                reply: Some(p.moves[1]),
                solved: false,
                ply: 2
            }
        );
        assert_eq!(
            p.judge(&p.solver_step(2).unwrap(), p.moves[2]),
            Judgement::Right {
                reply: None,
                solved: true,
                ply: 3
            }
        );
        assert_eq!(
            p.judge(&p.solver_step(0).unwrap(), "a6a7".parse().unwrap()),
            Judgement::Wrong
        );
        assert_eq!(p.solver_step(1), Err(NotSolversTurn { ply: 1, plies: 3 }));
        assert_eq!(p.solver_step(4), Err(NotSolversTurn { ply: 4, plies: 3 }));
        assert_eq!(p.position_at(1), p.position.after(first));
    }

    #[test]
    fn another_move_that_mates_at_once_solves_the_puzzle() {
        // Either chariot mates on the ninth rank; the horse on c6 takes d8.
        let p = Puzzle {
            id: "m1".into(),
            position: Position::from_fen("3k5/9/9/2N6/9/9/9/9/9/1R3K2R w - - 0 1").unwrap(),
            moves: vec!["b0b9".parse().unwrap()],
            themes: vec![Theme::MateIn(1)],
            rating: 800,
        };
        let other: Move = "i0i9".parse().unwrap();
        assert!(matches!(
            p.position.after(other).status(),
            GameStatus::Checkmate { .. }
        ));
        for m in [p.moves[0], other] {
            assert_eq!(
                p.judge(&p.solver_step(0).unwrap(), m),
                Judgement::Right {
                    reply: None,
                    solved: true,
                    ply: 1
                }
            );
        }
        assert_eq!(
            p.judge(&p.solver_step(0).unwrap(), "b0b1".parse().unwrap()),
            Judgement::Wrong
        );
    }

    #[test]
    fn filters_pick_theme_pattern_and_range_and_the_choice_is_among_the_nearest() {
        let set: Vec<Puzzle> = (0..20)
            .map(|i| {
                let themes = if i % 2 == 0 {
                    vec![Theme::MateIn(2)]
                } else {
                    vec![Theme::Material, Theme::Pattern("iron-bolt".into())]
                };
                entry(&format!("p{i:02}"), 1000 + 50 * i, themes)
            })
            .collect();
        let filter = Filter {
            theme: Some(Theme::Material),
            min: Some(1100),
            max: Some(1500),
            ..Filter::default()
        };
        let ids: Vec<&str> = set
            .iter()
            .filter(|p| filter.matches(p))
            .map(|p| p.id.as_str())
            .collect();
        assert_eq!(ids, ["p03", "p05", "p07", "p09"]);
        let pattern = Filter {
            pattern: Some("iron-bolt".into()),
            ..Filter::default()
        };
        assert_eq!(set.iter().filter(|p| pattern.matches(p)).count(), 10);
        let nearest: Vec<String> = (4..16).map(|i| format!("p{i:02}")).collect();
        for seed in 0..50 {
            let chosen = choose_near(set.iter().collect(), 1500.0, seed).unwrap();
            assert!(nearest.contains(&chosen.id), "{}", chosen.id);
        }
        assert!(choose_near(Vec::new(), 1500.0, 1).is_none());
    }

    #[test]
    fn a_puzzle_seen_lately_comes_again_only_when_nothing_else_matches() {
        let set: Vec<Puzzle> = ["a", "b", "c"]
            .iter()
            .map(|id| entry(id, 1500, vec![Theme::MateIn(2)]))
            .collect();
        let all: Vec<&Puzzle> = set.iter().collect();
        for seed in 0..20 {
            assert_eq!(
                choose_next(&all, &["a", "b"], 1500.0, seed).unwrap().id,
                "c"
            );
            assert_ne!(
                choose_next(&all, &["c", "a", "b"], 1500.0, seed)
                    .unwrap()
                    .id,
                "b"
            );
        }
        assert_eq!(choose_next(&all[..1], &["a"], 1500.0, 3).unwrap().id, "a");
        assert!(choose_next(&[], &[], 1500.0, 3).is_none());
    }
}
