//! Every shipped lesson loads and passes the checker: legal positions, solutions that reach
//! their goals, wrong moves that are refused, every text in every language.

mod support;

use support::assert_every_lesson_passes_the_checker;
use xiangqi_teaching::{COURSE_IDS, Kind, LESSON_FILES, Lang, load_course};

#[test]
fn every_shipped_lesson_passes_the_checker() {
    let lessons = load_course().unwrap_or_else(|e| panic!("{e}"));
    assert_every_lesson_passes_the_checker(&lessons);
}

#[test]
fn lesson_files_are_named_for_their_place_and_id_in_course_order() {
    let lessons = load_course().unwrap_or_else(|e| panic!("{e}"));
    let mut last_place = 0;
    for (file, lesson) in LESSON_FILES.iter().zip(&lessons) {
        let place = COURSE_IDS
            .iter()
            .position(|id| *id == lesson.id)
            .unwrap_or_else(|| panic!("{}: unknown id {}", file.name, lesson.id))
            + 1;
        assert_eq!(file.name, format!("{place:02}-{}.toml", lesson.id));
        assert!(place > last_place, "{} is out of course order", file.name);
        last_place = place;
    }
}

#[test]
fn every_text_exists_in_every_language() {
    for lesson in load_course().unwrap_or_else(|e| panic!("{e}")) {
        for lang in Lang::ALL {
            assert!(
                !lesson.title.get(lang).trim().is_empty(),
                "{} {lang}",
                lesson.id
            );
            for page in &lesson.pages {
                assert!(
                    !page.text.get(lang).trim().is_empty(),
                    "{} {lang}",
                    lesson.id
                );
            }
            for exercise in &lesson.exercises {
                assert!(
                    !exercise.goal.get(lang).trim().is_empty(),
                    "{} {lang}",
                    lesson.id
                );
            }
        }
    }
}

/// The browser test finishes the horse and cannon lessons by clicking the solutions' moves.
#[test]
fn the_clicked_lessons_need_no_typing() {
    for lesson in load_course().unwrap_or_else(|e| panic!("{e}")) {
        if lesson.id == "horse" || lesson.id == "cannon" {
            for exercise in &lesson.exercises {
                assert_ne!(exercise.kind, Kind::Notation, "{}", lesson.id);
            }
        }
    }
}

#[test]
fn every_lesson_has_at_least_two_exercises() {
    for lesson in load_course().unwrap_or_else(|e| panic!("{e}")) {
        assert!(lesson.exercises.len() >= 2, "{}", lesson.id);
    }
}

#[test]
fn the_course_has_all_fifteen_lessons_and_forty_exercises() {
    let lessons = load_course().unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<&str> = lessons.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, COURSE_IDS);
    let exercises: usize = lessons.iter().map(|l| l.exercises.len()).sum();
    assert!(exercises >= 40, "{exercises} exercises in all");
}

#[test]
fn a_notation_answer_is_read_by_the_rules_in_its_written_forms() {
    let lessons = load_course().unwrap_or_else(|e| panic!("{e}"));
    let notation = lessons.iter().find(|l| l.id == "notation").unwrap();
    let exercise = |answer: &str| {
        notation
            .exercises
            .iter()
            .find(|e| {
                e.answers
                    .as_ref()
                    .is_some_and(|a| a.values().flatten().any(|t| t == answer))
            })
            .unwrap_or_else(|| panic!("no exercise answers {answer}"))
    };
    // 兵七进一 teaches the characters: simplified, traditional, spaced and full-width forms
    // are right; the move in WXF is not, nor another move.
    let soldier = exercise("兵七进一");
    for right in ["兵七进一", "兵七進一", " 兵 七 进 一 "] {
        assert!(soldier.accepts_answer(right), "{right}");
    }
    for wrong in ["P7+1", "c3c4", "兵三进一", "兵七平一", "", "兵七"] {
        assert!(!soldier.accepts_answer(wrong), "{wrong}");
    }
    // Black's digits, full-width or not, and the cannon's traditional character.
    let cannon = exercise("炮8平5");
    for right in ["炮8平5", "炮８平５", "砲8平5"] {
        assert!(cannon.accepts_answer(right), "{right}");
    }
    assert!(!cannon.accepts_answer("炮2平5"));
    // 后车进二 is about which chariot moves: the move in any notation is right.
    let rear = exercise("后车进二");
    assert!(rear.any_notation);
    for right in ["后车进二", "後車進二", "后俥进二", "R-+2", "d2d4"] {
        assert!(rear.accepts_answer(right), "{right}");
    }
    for wrong in ["前车进二", "车六进二", "R++2"] {
        assert!(!rear.accepts_answer(wrong), "{wrong}");
    }
    // Full-width WXF signs are read as their ASCII forms.
    assert!(exercise("H2+3").accepts_answer("Ｈ２＋３"));
    // Only a notation exercise takes a written answer.
    let other = lessons
        .iter()
        .flat_map(|l| &l.exercises)
        .find(|e| e.kind != Kind::Notation)
        .unwrap();
    assert!(!other.accepts_answer(&other.solutions[0][0]));
}
