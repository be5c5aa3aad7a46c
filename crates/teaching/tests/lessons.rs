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

/// The perpetual lesson's CXQ drill: the learner escapes, the chariot checks again, and the
/// sixth check in a row ends the game with the CXQ verdict that Red loses; the Asian rules
/// judge the same moves by repetition.
#[test]
fn the_perpetual_drill_plays_out_to_the_cxq_verdict() {
    use xiangqi_rules::{Color, GameResult, Move, RuleSet, VerdictKind};
    use xiangqi_teaching::check::drill::{asian_judgement, drill_lines};
    use xiangqi_teaching::lesson::{DrillRefusal, verdict_words};
    use xiangqi_teaching::words::problems;

    let lessons = load_course().unwrap_or_else(|e| panic!("{e}"));
    let perpetual = lessons.iter().find(|l| l.id == "perpetual").unwrap();
    let exercise = perpetual
        .exercises
        .iter()
        .find(|e| e.kind == Kind::Perpetual)
        .expect("the lesson has a drill");
    let mv = |s: &str| s.parse::<Move>().unwrap();
    let mut drill = exercise.drill().unwrap();
    assert_eq!((drill.checks(), drill.limit()), (1, 6));
    assert!(drill.position().in_check());

    // A move that does not get out of check is refused with the rules core's reason.
    let refused = |m: &str| match drill.clone().play(mv(m)) {
        Err(DrillRefusal::Illegal(reason)) => reason.code(),
        other => panic!("{m} is played: {other:?}"),
    };
    assert_eq!(refused("a1a0"), "leaves-general-in-check");
    assert_eq!(refused("f8e8"), "generals-face");

    // Up and down: the chariot follows along the h-file, a check each time.
    let mut replies = Vec::new();
    for (i, escape) in ["f8f9", "f9f8", "f8f9", "f9f8", "f8f9"].iter().enumerate() {
        assert!(drill.verdict().is_none(), "no verdict before check 6");
        let step = drill.play(mv(escape)).unwrap();
        let reply = step.reply.expect("the chariot checks again");
        assert!(drill.position().in_check());
        assert_eq!(drill.checks(), i as u32 + 2);
        replies.push(reply.to_string());
    }
    assert_eq!(replies, ["h8h9", "h9h8", "h8h9", "h9h8", "h8h9"]);
    let verdict = drill.verdict().expect("the sixth check is judged").clone();
    assert_eq!(verdict.kind, VerdictKind::PerpetualCheck);
    assert_eq!(verdict.rules, RuleSet::Cxq);
    assert_eq!(verdict.side, Some(Color::Red));
    assert_eq!((verdict.count, verdict.participants), (6, 1));
    assert_eq!(drill.outcome().unwrap().result, GameResult::BlackWins);
    assert_eq!(drill.clone().play(mv("f9f8")), Err(DrillRefusal::Over));

    assert_eq!(
        verdict_words(&verdict, Lang::En),
        "Red has checked 6 times in a row with one piece (the chariot on h9): under the CXQ \
         rules Red loses."
    );
    assert_eq!(
        verdict_words(&verdict, Lang::Ru),
        "Красные объявили 6 шахов подряд одной фигурой (колесница на h9): по правилам CXQ \
         красные проигрывают."
    );
    assert_eq!(
        verdict_words(&verdict, Lang::Zh),
        "红方用一个子（h9的车）连续将军6次：按CXQ规则，红方判负。"
    );
    for lang in [Lang::Ru, Lang::Zh] {
        let words = verdict_words(&verdict, lang);
        assert_eq!(problems(lang, &words), Vec::<String>::new(), "{words}");
    }

    // The Asian rules do not count checks: they judge when a position comes back a third
    // time. On this line the position before the first check is back for the third time
    // after Black's fourth escape (ply 8), and Red loses for perpetual check there.
    let (asian, ply) = asian_judgement(&drill).expect("the position repeats three times");
    assert_eq!(asian.kind, VerdictKind::PerpetualCheck);
    assert_eq!(asian.side, Some(Color::Red));
    assert_eq!(asian.rules, RuleSet::Asian);
    assert_eq!(ply, 8);

    // Every way of escaping reaches the verdict at the sixth check (ply 11). The Asian
    // rules judge every line earlier, by repetition: each return to f8 is followed by the
    // chariot's check from h8, so that position is on the board for the third time at ply 9
    // at the latest; a line that varies its escapes (f9, f8, f7, f8) is judged there.
    let lines = drill_lines(&exercise.drill().unwrap()).unwrap();
    assert!(lines.len() > 2, "{} lines", lines.len());
    for line in &lines {
        assert_eq!(line.drill.checks(), 6);
        assert_eq!(line.drill.outcome().unwrap().ply, 11);
        assert_eq!(
            line.drill.verdict().unwrap().kind,
            VerdictKind::PerpetualCheck
        );
        let (asian, ply) = asian_judgement(&line.drill).expect("judged by repetition");
        assert_eq!(
            (asian.kind, asian.side),
            (VerdictKind::PerpetualCheck, Some(Color::Red))
        );
        assert!(ply == 8 || ply == 9, "{ply}");
    }
    let varied: Vec<Move> = ["f8f9", "f9f8", "f8f7", "f7f8", "f8f9"].map(mv).to_vec();
    let line = lines.iter().find(|l| l.escapes == varied).unwrap();
    assert_eq!(asian_judgement(&line.drill).unwrap().1, 9);
}
