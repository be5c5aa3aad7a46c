//! What the course tests share: running the lesson checker over a whole course.

use xiangqi_teaching::{Lesson, check_lesson};

/// Runs the checker on every lesson of `lessons` and fails with all their problems, one a
/// line, when any has one.
pub fn assert_every_lesson_passes_the_checker(lessons: &[Lesson]) {
    let problems: Vec<String> = lessons
        .iter()
        .filter_map(|lesson| check_lesson(lesson).err())
        .flatten()
        .map(|p| p.to_string())
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
