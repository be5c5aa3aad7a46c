//! Every Russian and Chinese text of the lessons and the patterns keeps the house rules of
//! `xiangqi_teaching::words`: the glossary's one term for each game word, and in Chinese the
//! punctuation of a sentence.

use xiangqi_teaching::words::problems;
use xiangqi_teaching::{CourseId, Lang, Text, load};

#[test]
fn every_lesson_and_pattern_text_keeps_the_glossary_and_the_punctuation() {
    let mut found = Vec::new();
    for course in CourseId::ALL {
        for lesson in load(course).unwrap_or_else(|e| panic!("{e}")) {
            let mut texts: Vec<(String, &Text)> = vec![("title".to_string(), &lesson.title)];
            for (i, page) in lesson.pages.iter().enumerate() {
                texts.push((format!("page {}", i + 1), &page.text));
            }
            for (i, exercise) in lesson.exercises.iter().enumerate() {
                texts.push((format!("exercise {}", i + 1), &exercise.goal));
                if let Some(note) = &exercise.reply_note {
                    texts.push((format!("exercise {} reply", i + 1), note));
                }
            }
            for (place, text) in texts {
                for lang in [Lang::Ru, Lang::Zh] {
                    for problem in problems(lang, text.get(lang)) {
                        found.push(format!("{} {place} ({lang}): {problem}", lesson.id));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn a_lesson_that_names_a_mating_pattern_calls_it_what_the_patterns_course_does() {
    let patterns = load(CourseId::Patterns).unwrap_or_else(|e| panic!("{e}"));
    let mut found = Vec::new();
    for course in CourseId::ALL {
        for lesson in load(course).unwrap_or_else(|e| panic!("{e}")) {
            let mut texts: Vec<(String, &Text)> = Vec::new();
            for (i, page) in lesson.pages.iter().enumerate() {
                texts.push((format!("page {}", i + 1), &page.text));
            }
            for (i, exercise) in lesson.exercises.iter().enumerate() {
                texts.push((format!("exercise {}", i + 1), &exercise.goal));
            }
            for (place, text) in texts {
                for pattern in &patterns {
                    if !text.get(Lang::Zh).contains(pattern.title.get(Lang::Zh)) {
                        continue;
                    }
                    for lang in [Lang::En, Lang::Ru] {
                        let name = pattern.title.get(lang).to_lowercase();
                        if !text.get(lang).to_lowercase().contains(&name) {
                            found.push(format!(
                                "{} {place} ({lang}) names {} but not as «{name}»: {}",
                                lesson.id,
                                pattern.title.get(Lang::Zh),
                                text.get(lang)
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
