//! Teaching as data and logic: everything the app teaches, each area checked against the
//! rules core and the engine in this crate's tests.
//!
//! - **The courses** ([`catalog`], [`lesson`], [`check`]): the rules course and the named
//!   mating patterns, lessons kept as TOML data files (`lessons/`, `patterns/`, format in
//!   `lessons/README.md`), embedded in the binary, read into a typed model
//!   ([`lesson::Lesson`]) and checked against the rules core, mates proven by the mate prover
//!   ([`check::check_lesson`]).
//! - **The endgame course** ([`endgames`]): classic endings (`endgames/`) played against the
//!   exact endgame tables.
//! - **Puzzles** ([`puzzles`]): the model and file format of the shipped set (`puzzles/`),
//!   the exact mate prover and the engine's proofs of material and defence, the motifs, the
//!   miner, ratings from how hard the engine finds a puzzle, and solving move by move.
//! - **Openings** ([`openings`]): the ECCO classification (`openings/`) with names in three
//!   languages, the record tags, the opening explorer's choosing and ranking of the moves that
//!   lead to a code ([`openings::explorer`]), the book the learner levels open from
//!   ([`openings::book`]) and the opening trainer's lines, walk and spaced-repetition
//!   schedule ([`openings::trainer`]).
//! - **Game review** ([`review`]): every move of a game judged by the engine, classified by
//!   the expected score it lost, with the refutation of each mistake, exact judgements where
//!   the endgame tables cover a position, and the learner's safety net (a move that leaves a
//!   piece hanging, [`review::hanging`]).
//! - **The learner's rating** ([`learner_rating`]): Glicko-2 over the puzzles tried, with
//!   streaks.
//!
//! - **Today's training** ([`today`]): the day's dose (the next lesson, puzzles near the
//!   rating, an ending to practise) and the streak of days trained.
//!
//! - **The pieces' characters** ([`characters`]): each character in the simplified and the
//!   traditional sets, with pinyin and a memory aid in each language, for the characters drill.
//!
//! Beside them: the languages the texts are written in ([`lang`]) and the house rules for
//! their words ([`words`], with the glossaries in `glossary/`).

pub mod catalog;
pub mod characters;
pub mod check;
pub mod endgames;
pub mod lang;
pub mod learner_rating;
pub mod lesson;
pub mod openings;
pub mod puzzles;
pub mod review;
pub mod today;
pub mod words;

pub use catalog::{
    COURSE_IDS, CourseId, LESSON_FILES, LessonFile, LoadError, PATTERN_FILES, PATTERN_IDS,
    PatternExercise, UnknownCourse, course, lessons, load, load_course, parse_lesson,
    pattern_exercises,
};
pub use check::{ExerciseProblem, Place, check_lesson};
pub use lang::{Lang, UnknownLang};
pub use lesson::{Exercise, Kind, Lesson, NotationName, Page, Rules, Text, way_out_of_check};
