//! What a lesson of the mating-patterns course needs beyond any lesson: the pattern's Chinese
//! name and pinyin, and at least [`MIN_PATTERN_EXERCISES`] mate exercises with one first
//! move each, at least one of them a mate in two or more.

use super::{Place, Report};
use crate::lesson::{Kind, Lesson};

/// The fewest exercises a pattern lesson may have.
pub const MIN_PATTERN_EXERCISES: usize = 3;

/// Checks the pattern course's own rules for `lesson`.
pub(super) fn check_pattern_lesson(report: &mut Report, lesson: &Lesson) {
    for (what, value) in [("chinese", &lesson.chinese), ("pinyin", &lesson.pinyin)] {
        if value.as_deref().is_none_or(|v| v.trim().is_empty()) {
            report.add(
                Place::Lesson,
                format!("a pattern lesson needs its '{what}' name"),
            );
        }
    }
    if lesson.exercises.len() < MIN_PATTERN_EXERCISES {
        report.add(
            Place::Lesson,
            format!(
                "the pattern has {} exercise(s); it needs at least {MIN_PATTERN_EXERCISES}",
                lesson.exercises.len()
            ),
        );
    }
    for (i, exercise) in lesson.exercises.iter().enumerate() {
        let place = Place::Exercise(i + 1);
        if exercise.kind != Kind::Mate {
            report.add(
                place,
                format!("a pattern exercise is a mate, not {}", exercise.kind.name()),
            );
        }
        if exercise.unique != Some(true) {
            report.add(
                place,
                "a pattern exercise has one first move: set 'unique = true'".to_string(),
            );
        }
    }
    let deep = lesson
        .exercises
        .iter()
        .any(|e| e.solutions.iter().any(|line| line.len() >= 3));
    if !deep {
        report.add(
            Place::Lesson,
            "the pattern has no mate in two or three".to_string(),
        );
    }
}

/// Checks that a lesson outside the pattern course carries no pattern names.
pub(super) fn check_no_pattern_names(report: &mut Report, lesson: &Lesson) {
    if lesson.chinese.is_some() || lesson.pinyin.is_some() {
        report.add(
            Place::Lesson,
            "'chinese' and 'pinyin' are for the lessons of the pattern course".to_string(),
        );
    }
}
