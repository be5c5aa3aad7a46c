//! The courses: the rules course and the named mating patterns, lessons kept as TOML data
//! files (`lessons/`, `patterns/`, format in `lessons/README.md`), embedded in the binary,
//! read into a typed model ([`lesson::Lesson`]) and checked against the rules core, mates
//! proven by the mate prover ([`check::check_lesson`]); and
//! game review ([`review`]): every move of a game judged by the engine, classified by the
//! expected score it lost, with the refutation of each mistake; and
//! the endgame course ([`endgames`]): classic endings played against the exact endgame tables.

pub mod catalog;
pub mod check;
pub mod endgames;
pub mod lang;
pub mod learner_rating;
pub mod lesson;
pub mod openings;
pub mod puzzles;
pub mod review;
pub mod words;

pub use catalog::{
    COURSE_IDS, CourseId, LESSON_FILES, LessonFile, LoadError, PATTERN_FILES, PATTERN_IDS,
    PatternExercise, UnknownCourse, course, lessons, load, load_course, parse_lesson,
    pattern_exercises,
};
pub use check::{ExerciseProblem, Place, check_lesson};
pub use lang::{Lang, UnknownLang};
pub use lesson::{Exercise, Kind, Lesson, NotationName, Page, Rules, Text, way_out_of_check};
