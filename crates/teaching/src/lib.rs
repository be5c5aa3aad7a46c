//! The rules course: lessons kept as TOML data files (`lessons/`, format in
//! `lessons/README.md`), embedded in the binary, read into a typed model
//! ([`lesson::Lesson`]) and checked against the rules core ([`check::check_lesson`]); and
//! game review ([`review`]): every move of a game judged by the engine, classified by the
//! expected score it lost, with the refutation of each mistake.

pub mod catalog;
pub mod check;
pub mod lang;
pub mod learner_rating;
pub mod lesson;
pub mod puzzles;
pub mod review;

pub use catalog::{
    COURSE_IDS, LESSON_FILES, LessonFile, LoadError, course, load_course, parse_lesson,
};
pub use check::{ExerciseProblem, Place, check_lesson};
pub use lang::{Lang, UnknownLang};
pub use lesson::{Exercise, Kind, Lesson, NotationName, Page, Rules, Text};
