//! The shipped course: the lesson files embedded in the binary, in course order, and their
//! loading.

use crate::lesson::Lesson;
use std::fmt;
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

/// A lesson file as shipped: its file name and its text.
#[derive(Clone, Copy, Debug)]
pub struct LessonFile {
    /// The file name under `crates/teaching/lessons/`, e.g. `05-horse.toml`.
    pub name: &'static str,
    /// The file's text.
    pub text: &'static str,
}

macro_rules! lesson_files {
    ($($name:literal),* $(,)?) => {
        &[$(LessonFile { name: $name, text: include_str!(concat!("../lessons/", $name)) }),*]
    };
}

/// The shipped lesson files, in course order.
pub const LESSON_FILES: &[LessonFile] = lesson_files![
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

/// Reads every shipped lesson file, in course order, stopping at the first that does not
/// read.
pub fn load_course() -> Result<Vec<Lesson>, LoadError> {
    LESSON_FILES
        .iter()
        .map(|file| parse_lesson(file.name, file.text))
        .collect()
}

/// The shipped course, read once.
pub fn course() -> Result<&'static [Lesson], &'static LoadError> {
    static COURSE: OnceLock<Result<Vec<Lesson>, LoadError>> = OnceLock::new();
    COURSE.get_or_init(load_course).as_deref()
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
