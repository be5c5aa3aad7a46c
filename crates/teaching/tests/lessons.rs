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
