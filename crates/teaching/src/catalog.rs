//! The shipped courses: the rules course and the mating-patterns course, their lesson files
//! embedded in the binary in course order, and their loading.

use crate::lesson::Lesson;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// Every lesson id of the course, in course order.
pub const COURSE_IDS: [&str; 15] = [
    "board",
    "general",
    "advisor",
    "elephant",
    "horse",
    "chariot",
    "cannon",
    "soldier",
    "flying-generals",
    "check-mate",
    "stalemate",
    "perpetual",
    "draws",
    "notation",
    "values",
];

/// Every lesson id of the mating-patterns course (`patterns/`), in course order: one named
/// mate each.
pub const PATTERN_IDS: [&str; 15] = [
    "horse-cannon",
    "double-cannon",
    "smothered-palace",
    "iron-bolt",
    "crouching-horse",
    "palace-corner-horse",
    "eight-corner-horse",
    "fishing-horse",
    "staggered-chariots",
    "facing-generals",
    "heaven-earth-cannons",
    "two-devils",
    "heart-piercing",
    "chariot-cannon",
    "moon-from-sea",
];

/// A lesson file as shipped: its file name and its text.
#[derive(Clone, Copy, Debug)]
pub struct LessonFile {
    /// The file name under `crates/teaching/lessons/` (or `patterns/`), e.g. `05-horse.toml`.
    pub name: &'static str,
    /// The file's text.
    pub text: &'static str,
}

macro_rules! lesson_files {
    ($dir:literal: $($name:literal),* $(,)?) => {
        &[$(LessonFile { name: $name, text: include_str!(concat!("../", $dir, "/", $name)) }),*]
    };
}

/// The shipped lesson files, in course order.
pub const LESSON_FILES: &[LessonFile] = lesson_files!["lessons":
    "01-board.toml",
    "02-general.toml",
    "03-advisor.toml",
    "04-elephant.toml",
    "05-horse.toml",
    "06-chariot.toml",
    "07-cannon.toml",
    "08-soldier.toml",
    "09-flying-generals.toml",
    "10-check-mate.toml",
    "11-stalemate.toml",
    "12-perpetual.toml",
    "13-draws.toml",
    "14-notation.toml",
    "15-values.toml",
];

/// The shipped pattern lesson files, in course order.
pub const PATTERN_FILES: &[LessonFile] = lesson_files!["patterns":
    "01-horse-cannon.toml",
    "02-double-cannon.toml",
    "03-smothered-palace.toml",
    "04-iron-bolt.toml",
    "05-crouching-horse.toml",
    "06-palace-corner-horse.toml",
    "07-eight-corner-horse.toml",
    "08-fishing-horse.toml",
    "09-staggered-chariots.toml",
    "10-facing-generals.toml",
    "11-heaven-earth-cannons.toml",
    "12-two-devils.toml",
    "13-heart-piercing.toml",
    "14-chariot-cannon.toml",
    "15-moon-from-sea.toml",
];

/// The courses the app teaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CourseId {
    /// The rules course: the board, the pieces, check and mate, the draw rules, notation.
    Rules,
    /// The named mating patterns (杀法), each with mate-in-N exercises.
    Patterns,
}

impl CourseId {
    /// Every course, in the order the app lists them.
    pub const ALL: [CourseId; 2] = [CourseId::Rules, CourseId::Patterns];

    /// The course's code as the API writes it: `rules` or `patterns`.
    pub const fn code(self) -> &'static str {
        match self {
            CourseId::Rules => "rules",
            CourseId::Patterns => "patterns",
        }
    }

    /// The course's lesson ids, in course order.
    pub const fn ids(self) -> &'static [&'static str] {
        match self {
            CourseId::Rules => &COURSE_IDS,
            CourseId::Patterns => &PATTERN_IDS,
        }
    }

    /// The course's lesson files, in course order.
    pub const fn files(self) -> &'static [LessonFile] {
        match self {
            CourseId::Rules => LESSON_FILES,
            CourseId::Patterns => PATTERN_FILES,
        }
    }

    /// The course a lesson id belongs to, if any.
    pub fn of_lesson(id: &str) -> Option<CourseId> {
        CourseId::ALL.into_iter().find(|c| c.ids().contains(&id))
    }
}

impl fmt::Display for CourseId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A course code that names no course.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCourse(pub String);

impl fmt::Display for UnknownCourse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown course '{}': use rules or patterns", self.0)
    }
}

impl std::error::Error for UnknownCourse {}

impl FromStr for CourseId {
    type Err = UnknownCourse;

    /// Reads `rules` or `patterns` (exactly, lower case).
    fn from_str(text: &str) -> Result<CourseId, UnknownCourse> {
        CourseId::ALL
            .into_iter()
            .find(|c| c.code() == text)
            .ok_or_else(|| UnknownCourse(text.to_string()))
    }
}

/// A lesson file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The file's name.
    pub file: String,
    /// What is wrong, with the line and column where the file tells.
    pub problem: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lesson file {}: {}", self.file, self.problem.trim_end())
    }
}

impl std::error::Error for LoadError {}

/// Reads one lesson file; `name` names it in the error.
pub fn parse_lesson(name: &str, text: &str) -> Result<Lesson, LoadError> {
    toml::from_str(text).map_err(|e: toml::de::Error| LoadError {
        file: name.to_string(),
        problem: e.to_string(),
    })
}

/// Reads every lesson file of `course`, in course order, stopping at the first that does not
/// read.
pub fn load(course: CourseId) -> Result<Vec<Lesson>, LoadError> {
    course
        .files()
        .iter()
        .map(|file| parse_lesson(file.name, file.text))
        .collect()
}

/// Reads every shipped lesson file of the rules course (see [`load`]).
pub fn load_course() -> Result<Vec<Lesson>, LoadError> {
    load(CourseId::Rules)
}

/// The shipped lessons of `course`, read once.
pub fn lessons(course: CourseId) -> Result<&'static [Lesson], &'static LoadError> {
    static RULES: OnceLock<Result<Vec<Lesson>, LoadError>> = OnceLock::new();
    static PATTERNS: OnceLock<Result<Vec<Lesson>, LoadError>> = OnceLock::new();
    let cell = match course {
        CourseId::Rules => &RULES,
        CourseId::Patterns => &PATTERNS,
    };
    cell.get_or_init(|| load(course)).as_deref()
}

/// The shipped rules course, read once.
pub fn course() -> Result<&'static [Lesson], &'static LoadError> {
    lessons(CourseId::Rules)
}

/// One exercise of the mating-patterns course, as a puzzle: the pattern it shows, the
/// position, and its solution line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternExercise {
    /// The pattern's id, one of [`PATTERN_IDS`] (a puzzle theme `pattern:<id>`).
    pub pattern: &'static str,
    /// The position, as FEN; the side to move mates.
    pub fen: String,
    /// The solution (ICCS): the solver's moves and the defender's longest replies,
    /// alternating, ending with the mate.
    pub moves: Vec<String>,
    /// The number of the solver's moves: the mate is forced in this many and not fewer.
    pub mate_in: usize,
}

/// Every exercise of the shipped mating-patterns course, in course order, with the first
/// solution line of each (checked by `cargo test -p xiangqi-teaching`: forced, unique first
/// move, longest defences).
pub fn pattern_exercises() -> Result<Vec<PatternExercise>, &'static LoadError> {
    let lessons = lessons(CourseId::Patterns)?;
    let mut out = Vec::new();
    for lesson in lessons {
        let Some(&pattern) = PATTERN_IDS.iter().find(|id| **id == lesson.id) else {
            continue;
        };
        for exercise in &lesson.exercises {
            let Some(line) = exercise.solutions.first() else {
                continue;
            };
            out.push(PatternExercise {
                pattern,
                fen: exercise.fen.clone(),
                moves: line.clone(),
                mate_in: line.len().div_ceil(2),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_translation_names_the_file_and_the_language() {
        let text = "id = \"board\"\n[title]\nen = \"The board\"\nru = \"Доска\"\n";
        let err = parse_lesson("01-board.toml", text).unwrap_err();
        let shown = err.to_string();
        assert!(shown.starts_with("lesson file 01-board.toml: "), "{shown}");
        assert!(shown.contains("zh"), "{shown}");
    }

    #[test]
    fn an_unknown_key_is_an_error() {
        let text =
            "id = \"board\"\nsubtitle = \"x\"\n[title]\nen = \"a\"\nru = \"b\"\nzh = \"c\"\n";
        let err = parse_lesson("01-board.toml", text).unwrap_err();
        assert!(err.problem.contains("subtitle"), "{err}");
    }

    #[test]
    fn an_unknown_kind_is_an_error() {
        let text = "id = \"board\"\n[title]\nen = \"a\"\nru = \"b\"\nzh = \"c\"\n\
                    [[exercise]]\nfen = \"x\"\nkind = \"dance\"\nsolutions = []\nwrong = []\n\
                    hint = \"a0\"\n[exercise.goal]\nen = \"a\"\nru = \"b\"\nzh = \"c\"\n";
        let err = parse_lesson("01-board.toml", text).unwrap_err();
        assert!(err.problem.contains("dance"), "{err}");
    }

    #[test]
    fn notation_answers_read_per_notation() {
        let text = "id = \"notation\"\n[title]\nen = \"a\"\nru = \"b\"\nzh = \"c\"\n\
                    [[exercise]]\nfen = \"x\"\nkind = \"notation\"\nnotation = \"wxf\"\n\
                    answers = { wxf = [\"C2=5\"], chinese = [\"炮二平五\"] }\n\
                    solutions = [[\"h2e2\"]]\nwrong = []\nhint = \"h2\"\n\
                    [exercise.goal]\nen = \"a\"\nru = \"b\"\nzh = \"c\"\n";
        let lesson = parse_lesson("14-notation.toml", text).unwrap();
        let answers = lesson.exercises[0].answers.as_ref().unwrap();
        assert_eq!(answers.len(), 2);
    }
}
