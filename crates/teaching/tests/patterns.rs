//! The mating-patterns course: every pattern lesson loads and passes the checker, whose
//! mate prover shows each exercise's mate forced in its N moves, with one first move and
//! longest defences; the course's shape (names, languages, counts) and the exercises handed
//! to the puzzle set.

mod support;

use std::time::Instant;
use support::assert_every_lesson_passes_the_checker;
use xiangqi_rules::{GameStatus, Move, Position};
use xiangqi_teaching::{CourseId, PATTERN_FILES, PATTERN_IDS, load, pattern_exercises};

#[test]
fn every_pattern_lesson_passes_the_checker_with_every_mate_proven() {
    let lessons = load(CourseId::Patterns).unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    assert_every_lesson_passes_the_checker(&lessons);
    eprintln!(
        "checked {} pattern lessons in {:.1} s",
        lessons.len(),
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn pattern_files_are_named_for_their_place_and_id_in_course_order() {
    let lessons = load(CourseId::Patterns).unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<&str> = lessons.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, PATTERN_IDS);
    for (i, (file, lesson)) in PATTERN_FILES.iter().zip(&lessons).enumerate() {
        assert_eq!(file.name, format!("{:02}-{}.toml", i + 1, lesson.id));
    }
}

#[test]
fn every_pattern_has_its_chinese_name_pinyin_and_translated_names() {
    for lesson in load(CourseId::Patterns).unwrap_or_else(|e| panic!("{e}")) {
        let chinese = lesson.chinese.as_deref().unwrap_or_default();
        assert!(
            chinese
                .chars()
                .all(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
                && !chinese.is_empty(),
            "{}: '{chinese}' is not written in Chinese characters",
            lesson.id
        );
        let pinyin = lesson.pinyin.as_deref().unwrap_or_default();
        assert!(
            !pinyin.is_ascii(),
            "{}: '{pinyin}' has no tone marks",
            lesson.id
        );
        assert!(lesson.title.zh.contains(chinese), "{}", lesson.id);
        let cyrillic = |c: char| ('\u{400}'..='\u{4ff}').contains(&c);
        assert!(lesson.title.ru.chars().any(cyrillic), "{}", lesson.id);
    }
}

#[test]
fn the_course_has_thirteen_patterns_with_three_exercises_each_and_deeper_mates() {
    let lessons = load(CourseId::Patterns).unwrap_or_else(|e| panic!("{e}"));
    assert!(lessons.len() >= 13, "{} patterns", lessons.len());
    for lesson in &lessons {
        assert!(lesson.exercises.len() >= 3, "{}", lesson.id);
        let deep = lesson
            .exercises
            .iter()
            .filter(|e| e.solutions[0].len() >= 3)
            .count();
        assert!(deep >= 1, "{} has no mate in two or three", lesson.id);
    }
    let exercises: usize = lessons.iter().map(|l| l.exercises.len()).sum();
    assert!(exercises >= 39, "{exercises} exercises in all");
}

#[test]
fn the_puzzle_set_gets_every_exercise_as_a_line_that_ends_in_mate() {
    let lessons = load(CourseId::Patterns).unwrap_or_else(|e| panic!("{e}"));
    let exported = pattern_exercises().unwrap_or_else(|e| panic!("{e}"));
    let count: usize = lessons.iter().map(|l| l.exercises.len()).sum();
    assert_eq!(exported.len(), count);
    for exercise in &exported {
        assert!(PATTERN_IDS.contains(&exercise.pattern));
        assert_eq!(exercise.moves.len(), 2 * exercise.mate_in - 1);
        let mut pos = Position::from_fen(&exercise.fen).unwrap();
        for text in &exercise.moves {
            let m: Move = text.parse().unwrap();
            assert!(pos.is_legal(m), "{} {text}", exercise.fen);
            pos.make_move(m);
        }
        assert!(
            matches!(pos.status(), GameStatus::Checkmate { .. }),
            "{} does not end in mate",
            exercise.fen
        );
    }
}
