//! The puzzle learner's rating: Glicko-2 (the `skillratings` crate's implementation), where
//! each puzzle tried is one game against an opponent rated at the puzzle's rating with a fixed
//! deviation ([`PUZZLE_DEVIATION`]). A solve is a win, a failure (a wrong move, a hint or a
//! retry) a loss. The learner's state also counts the current and the best streak of solves.
//!
//! A newcomer starts near the easy end of the puzzles ([`START_RATING`]) and is provisional
//! while the rating is still uncertain ([`PROVISIONAL_DEVIATION`]): those first few puzzles
//! calibrate it, each moving it by at most [`PROVISIONAL_CHANGE_MAX`], so that one early miss
//! does not throw a beginner far down or one lucky solve far up.
//!
//! The state lives with the learner (the page keeps it); whoever computes an update first
//! checks it with [`LearnerState::validate`], since it comes from outside.
//!
//! **The puzzle's rating moves too** where a server keeps solvers' results: the same game
//! rates the puzzle against the learner ([`LearnerState::after_puzzle_rated`]), a solve a
//! loss for the puzzle and a failure a win, as the big puzzle sites do. Only a settled
//! learner moves a puzzle (a provisional rating says little yet); the puzzle's deviation
//! starts at [`PUZZLE_DEVIATION`] and never falls below [`MIN_PUZZLE_DEVIATION`], so a
//! puzzle keeps following its solvers.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use std::fmt;

/// A newcomer's rating: near the easy end of the shipped puzzles (most are rated 600–1000).
pub const START_RATING: f64 = 900.0;
/// A newcomer's deviation: nothing is known yet, so the first results move the rating a lot.
pub const START_DEVIATION: f64 = 350.0;
/// A newcomer's volatility (Glicko-2's usual starting value).
pub const START_VOLATILITY: f64 = 0.06;
/// Above this deviation the rating is provisional: the learner is still being calibrated
/// (about the first five puzzles).
pub const PROVISIONAL_DEVIATION: f64 = 150.0;
/// The most one puzzle moves a provisional rating, up or down.
pub const PROVISIONAL_CHANGE_MAX: f64 = 60.0;
/// The deviation every puzzle is rated with: puzzle ratings are estimates, not certainties.
pub const PUZZLE_DEVIATION: f64 = 80.0;
/// A puzzle's deviation never drops below this: its rating keeps following its solvers.
pub const MIN_PUZZLE_DEVIATION: f64 = 40.0;
/// The learner's deviation never drops below this, so that the rating keeps following the
/// learner's progress after hundreds of puzzles.
pub const MIN_DEVIATION: f64 = 45.0;
/// Lowest and highest rating a state may hold.
pub const RATING_RANGE: (f64, f64) = (100.0, 4000.0);
/// Highest volatility a state may hold.
pub const MAX_VOLATILITY: f64 = 0.5;
/// Glicko-2's system constant τ: how fast the volatility may change.
pub const TAU: f64 = 0.5;

/// A learner's puzzle rating and streaks.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LearnerState {
    /// The rating.
    pub rating: f64,
    /// How uncertain the rating is (one standard deviation, in rating points).
    pub deviation: f64,
    /// How erratic the learner's results are (Glicko-2's σ).
    pub volatility: f64,
    /// Puzzles solved in a row, up to now.
    #[serde(default)]
    pub streak: u32,
    /// The longest run of solves so far.
    #[serde(default)]
    pub best_streak: u32,
}

impl Default for LearnerState {
    /// A newcomer: [`START_RATING`], [`START_DEVIATION`], [`START_VOLATILITY`], no streak.
    fn default() -> Self {
        LearnerState {
            rating: START_RATING,
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
            streak: 0,
            best_streak: 0,
        }
    }
}

/// A field of a learner's state that cannot be a rating's.
#[derive(Clone, Debug, PartialEq)]
pub struct BadLearnerState {
    /// The field: `rating`, `deviation`, `volatility` or `best_streak`.
    pub field: &'static str,
    /// The value it held.
    pub value: f64,
}

impl BadLearnerState {
    /// A stable code for the fault: `bad-rating-state`.
    pub const fn code(&self) -> &'static str {
        "bad-rating-state"
    }
}

impl fmt::Display for BadLearnerState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the learner's {} cannot be {}",
            self.field.replace('_', " "),
            self.value
        )
    }
}

impl std::error::Error for BadLearnerState {}

/// A puzzle's own rating, moved by its solvers' results (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRatingState {
    /// The rating.
    pub rating: f64,
    /// How uncertain it is.
    pub deviation: f64,
    /// Glicko-2's σ.
    pub volatility: f64,
    /// The settled learners' results it was rated by.
    pub results: u32,
}

impl PuzzleRatingState {
    /// A puzzle no solver has rated yet: its shipped rating, [`PUZZLE_DEVIATION`].
    pub fn shipped(rating: u32) -> PuzzleRatingState {
        PuzzleRatingState {
            rating: f64::from(rating),
            deviation: PUZZLE_DEVIATION,
            volatility: START_VOLATILITY,
            results: 0,
        }
    }

    /// The rating as a puzzle shows it: whole points within 100–4000.
    pub fn shown(&self) -> u32 {
        let (lo, hi) = RATING_RANGE;
        self.rating.clamp(lo, hi).round() as u32
    }
}

/// The rating's result of one puzzle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedResult {
    /// The state after the puzzle.
    pub state: LearnerState,
    /// The change of the rating, rounded to whole points (what the learner is shown, e.g. +12).
    pub change: i32,
}

impl LearnerState {
    /// Whether the rating is still provisional: its deviation above [`PROVISIONAL_DEVIATION`].
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The state unchanged when it can hold a rating, else which field is wrong: every number
    /// finite, the rating within [`RATING_RANGE`], the deviation within
    /// [`MIN_DEVIATION`]`..=`[`START_DEVIATION`], the volatility above 0 and at most
    /// [`MAX_VOLATILITY`], the best streak at least the current one.
    pub fn validate(self) -> Result<LearnerState, BadLearnerState> {
        let bad = |field, value| Err(BadLearnerState { field, value });
        let (lo, hi) = RATING_RANGE;
        if !(self.rating.is_finite() && (lo..=hi).contains(&self.rating)) {
            return bad("rating", self.rating);
        }
        if !(self.deviation.is_finite()
            && (MIN_DEVIATION..=START_DEVIATION).contains(&self.deviation))
        {
            return bad("deviation", self.deviation);
        }
        if !(self.volatility.is_finite()
            && self.volatility > 0.0
            && self.volatility <= MAX_VOLATILITY)
        {
            return bad("volatility", self.volatility);
        }
        if self.best_streak < self.streak {
            return bad("best_streak", f64::from(self.best_streak));
        }
        Ok(self)
    }

    /// The state after trying a puzzle rated `puzzle_rating`: Glicko-2 against the puzzle
    /// (deviation [`PUZZLE_DEVIATION`]), a solve as a win and a failure as a loss; a solve
    /// lengthens the streak, a failure ends it. A provisional rating moves by at most
    /// [`PROVISIONAL_CHANGE_MAX`]. The rating stays within [`RATING_RANGE`] and the deviation
    /// at or above [`MIN_DEVIATION`].
    pub fn after_puzzle(self, puzzle_rating: f64, solved: bool) -> RatedResult {
        self.after_puzzle_rated(
            PuzzleRatingState {
                rating: puzzle_rating,
                ..PuzzleRatingState::shipped(0)
            },
            solved,
        )
        .0
    }

    /// Both ratings after trying a puzzle whose own rating is `puzzle`: the learner's as
    /// [`LearnerState::after_puzzle`] says (against the puzzle's rating and deviation), and
    /// the puzzle's against the learner (a solve is the puzzle's loss), moved only by a
    /// settled learner; its deviation kept within [`MIN_PUZZLE_DEVIATION`]`..=`
    /// [`PUZZLE_DEVIATION`].
    pub fn after_puzzle_rated(
        self,
        puzzle: PuzzleRatingState,
        solved: bool,
    ) -> (RatedResult, PuzzleRatingState) {
        let learner = Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        };
        let puzzle_before = puzzle;
        let puzzle = Glicko2Rating {
            rating: puzzle.rating,
            deviation: puzzle.deviation,
            volatility: puzzle.volatility,
        };
        let outcome = if solved {
            Outcomes::WIN
        } else {
            Outcomes::LOSS
        };
        let config = Glicko2Config {
            tau: TAU,
            ..Glicko2Config::new()
        };
        let (rated, puzzle_rated) = glicko2(&learner, &puzzle, &outcome, &config);
        let (lo, hi) = RATING_RANGE;
        let puzzle_after = if self.is_provisional() {
            puzzle_before
        } else {
            PuzzleRatingState {
                rating: puzzle_rated.rating.clamp(lo, hi),
                deviation: puzzle_rated
                    .deviation
                    .clamp(MIN_PUZZLE_DEVIATION, PUZZLE_DEVIATION),
                volatility: puzzle_rated
                    .volatility
                    .clamp(f64::MIN_POSITIVE, MAX_VOLATILITY),
                results: puzzle_before.results + 1,
            }
        };
        let rating = if self.is_provisional() {
            rated.rating.clamp(
                self.rating - PROVISIONAL_CHANGE_MAX,
                self.rating + PROVISIONAL_CHANGE_MAX,
            )
        } else {
            rated.rating
        };
        let streak = if solved { self.streak + 1 } else { 0 };
        let state = LearnerState {
            rating: rating.clamp(lo, hi),
            deviation: rated.deviation.clamp(MIN_DEVIATION, START_DEVIATION),
            volatility: rated.volatility.clamp(f64::MIN_POSITIVE, MAX_VOLATILITY),
            streak,
            best_streak: self.best_streak.max(streak),
        };
        (
            RatedResult {
                state,
                change: (state.rating.round() - self.rating.round()) as i32,
            },
            puzzle_after,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_solved_by_a_stronger_learner_falls_and_failed_by_one_rises() {
        let puzzle = PuzzleRatingState::shipped(1500);
        let (_, solved) = settled(1500.0).after_puzzle_rated(puzzle, true);
        let (_, failed) = settled(1500.0).after_puzzle_rated(puzzle, false);
        assert!(solved.rating < 1500.0 && failed.rating > 1500.0);
        assert_eq!((solved.results, failed.results), (1, 1));
        // Both ways: the learner's side is what after_puzzle gives.
        let (learner, _) = settled(1500.0).after_puzzle_rated(puzzle, true);
        assert_eq!(learner, settled(1500.0).after_puzzle(1500.0, true));
        // A provisional learner leaves the puzzle as it was.
        let (_, untouched) = LearnerState::default().after_puzzle_rated(puzzle, true);
        assert_eq!(untouched, puzzle);
        // Many solvers settle its deviation, never below the floor.
        let mut p = puzzle;
        for i in 0..200 {
            p = settled(1500.0).after_puzzle_rated(p, i % 2 == 0).1;
        }
        assert!(p.deviation >= MIN_PUZZLE_DEVIATION && p.deviation < PUZZLE_DEVIATION);
        assert_eq!(p.results, 200);
    }

    fn settled(rating: f64) -> LearnerState {
        LearnerState {
            rating,
            deviation: 80.0,
            ..LearnerState::default()
        }
    }

    #[test]
    fn a_solve_raises_the_rating_and_a_failure_lowers_it() {
        let up = settled(1500.0).after_puzzle(1500.0, true);
        let down = settled(1500.0).after_puzzle(1500.0, false);
        assert!(up.change > 0, "{up:?}");
        assert!(down.change < 0, "{down:?}");
        assert_eq!(up.state.streak, 1);
        assert_eq!(down.state.streak, 0);
    }

    #[test]
    fn a_harder_puzzle_is_worth_more_than_an_easier_one() {
        let hard = settled(1500.0).after_puzzle(1900.0, true).change;
        let easy = settled(1500.0).after_puzzle(1100.0, true).change;
        assert!(hard > easy, "hard +{hard}, easy +{easy}");
        let failed_easy = settled(1500.0).after_puzzle(1100.0, false).change;
        let failed_hard = settled(1500.0).after_puzzle(1900.0, false).change;
        assert!(failed_easy < failed_hard, "{failed_easy} vs {failed_hard}");
    }

    #[test]
    fn a_newcomer_moves_faster_than_a_settled_learner() {
        let newcomer = LearnerState::default().after_puzzle(1500.0, true);
        let settled = settled(1500.0).after_puzzle(1500.0, true);
        assert!(newcomer.change > settled.change);
        assert!(newcomer.state.deviation < START_DEVIATION);
    }

    #[test]
    fn a_newcomer_starts_near_the_easy_end_and_calibrates_in_a_few_bounded_steps() {
        let newcomer = LearnerState::default();
        assert!((800.0..=1000.0).contains(&newcomer.rating));
        assert!(newcomer.is_provisional());
        // One miss of a newcomer's first puzzle, however easy, costs at most the bound (the
        // unbounded Glicko-2 step from 350 is about 175).
        let missed = newcomer.after_puzzle(900.0, false);
        assert_eq!(
            missed.change,
            -(PROVISIONAL_CHANGE_MAX as i32),
            "{missed:?}"
        );
        let solved = newcomer.after_puzzle(1500.0, true);
        assert_eq!(solved.change, PROVISIONAL_CHANGE_MAX as i32, "{solved:?}");
        // Whatever the results, a few puzzles end the calibration; after it the rating moves
        // by Glicko-2 alone.
        for pattern in [
            [true; 8],
            [false; 8],
            [true, false, true, false, true, false, true, false],
        ] {
            let mut state = newcomer;
            let mut tried = 0;
            for solved in pattern {
                if !state.is_provisional() {
                    break;
                }
                let rated = state.after_puzzle(900.0, solved);
                assert!(
                    rated.change.abs() <= PROVISIONAL_CHANGE_MAX as i32,
                    "{rated:?}"
                );
                state = rated.state;
                tried += 1;
            }
            assert!((3..=7).contains(&tried), "{tried} puzzles to calibrate");
            assert!(!state.is_provisional());
        }
    }

    #[test]
    fn streaks_count_solves_in_a_row_and_keep_the_best() {
        let mut state = LearnerState::default();
        for _ in 0..3 {
            state = state.after_puzzle(1500.0, true).state;
        }
        assert_eq!((state.streak, state.best_streak), (3, 3));
        state = state.after_puzzle(1500.0, false).state;
        assert_eq!((state.streak, state.best_streak), (0, 3));
        state = state.after_puzzle(1500.0, true).state;
        assert_eq!((state.streak, state.best_streak), (1, 3));
    }

    #[test]
    fn the_deviation_keeps_its_floor() {
        let mut state = LearnerState::default();
        for i in 0..200 {
            state = state.after_puzzle(1500.0, i % 2 == 0).state;
        }
        assert!(state.deviation >= MIN_DEVIATION);
        assert!(state.validate().is_ok());
    }

    #[test]
    fn a_state_that_cannot_be_a_rating_is_refused_by_field() {
        let field = |s: LearnerState| s.validate().err().map(|e| e.field);
        let good = LearnerState::default();
        assert_eq!(field(good), None);
        assert_eq!(
            field(LearnerState {
                rating: f64::NAN,
                ..good
            }),
            Some("rating")
        );
        assert_eq!(
            field(LearnerState {
                rating: 99_999.0,
                ..good
            }),
            Some("rating")
        );
        assert_eq!(
            field(LearnerState {
                deviation: 0.0,
                ..good
            }),
            Some("deviation")
        );
        assert_eq!(
            field(LearnerState {
                volatility: -1.0,
                ..good
            }),
            Some("volatility")
        );
        assert_eq!(
            field(LearnerState {
                streak: 4,
                best_streak: 2,
                ..good
            }),
            Some("best_streak")
        );
    }
}
