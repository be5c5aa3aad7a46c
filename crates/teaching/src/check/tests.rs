use super::*;
use crate::lesson::{NotationName, Page, Rules};
use std::collections::BTreeMap;

fn text(s: &str) -> Text {
    Text {
        en: s.to_string(),
        ru: format!("{s} (ru)"),
        zh: format!("{s} (zh)"),
    }
}

fn lines(lines: &[&[&str]]) -> Vec<Vec<String>> {
    lines
        .iter()
        .map(|line| line.iter().map(|m| m.to_string()).collect())
        .collect()
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn exercise(fen: &str, kind: Kind, solutions: &[&[&str]], wrong: &[&str]) -> Exercise {
    let solutions = lines(solutions);
    Exercise {
        fen: fen.to_string(),
        kind,
        goal: text("goal"),
        hint: solutions[0][0][..2].to_string(),
        solutions,
        wrong: strings(wrong),
        highlights: Vec::new(),
        arrows: Vec::new(),
        target: None,
        unique: None,
        notation: None,
        answers: None,
        any_notation: false,
        reply_note: None,
        rules: Rules::Asian,
        check: None,
    }
}

const HORSE: &str = "4k4/9/9/9/9/9/4N4/9/9/3K5 w";
const HORSE_MOVES: [&[&str]; 8] = [
    &["e3d5"],
    &["e3f5"],
    &["e3c4"],
    &["e3g4"],
    &["e3c2"],
    &["e3g2"],
    &["e3d1"],
    &["e3f1"],
];

/// A correct lesson: the horse's eight moves, and a mate in one with two chariots.
fn lesson() -> Lesson {
    Lesson {
        id: "horse".to_string(),
        title: text("The horse"),
        chinese: None,
        pinyin: None,
        pages: vec![Page {
            fen: HORSE.to_string(),
            text: text("The horse moves…"),
            highlights: strings(&["d5", "f5"]),
            arrows: vec![["e3".to_string(), "f5".to_string()]],
        }],
        exercises: vec![
            exercise(HORSE, Kind::All, &HORSE_MOVES, &["e3e5"]),
            exercise(
                "3k5/4R4/9/9/9/9/9/9/9/4K2R1 w",
                Kind::Mate,
                &[&["h0h9"]],
                &["h0g1", "e8d8"],
            ),
        ],
    }
}

fn problems(lesson: &Lesson) -> Vec<String> {
    match check_lesson(lesson) {
        Ok(()) => Vec::new(),
        Err(problems) => problems.iter().map(ToString::to_string).collect(),
    }
}

fn assert_problem(lesson: &Lesson, needle: &str) {
    let found = problems(lesson);
    assert!(
        found.iter().any(|p| p.contains(needle)),
        "expected a problem containing {needle:?}, got {found:?}"
    );
}

#[test]
fn a_correct_lesson_passes() {
    assert_eq!(problems(&lesson()), Vec::<String>::new());
}

#[test]
fn an_illegal_solution_move_is_named_with_its_reason() {
    let mut l = lesson();
    l.exercises[0].solutions[1] = strings(&["e3e5"]);
    assert_problem(
        &l,
        "lesson horse, exercise 1: solution 2, move 1 (e3e5) is illegal: ",
    );
}

#[test]
fn a_solution_that_does_not_mate_is_caught() {
    let mut l = lesson();
    l.exercises[1].solutions = lines(&[&["h0h8"]]);
    assert_problem(&l, "exercise 2: solution 1 does not end in checkmate");
}

#[test]
fn an_illegal_fen_is_caught() {
    let mut l = lesson();
    // The generals face each other on the e-file.
    l.exercises[0].fen = "4k4/9/9/9/9/9/9/9/9/4K4 w".to_string();
    assert_problem(
        &l,
        "exercise 1: FEN '4k4/9/9/9/9/9/9/9/9/4K4 w' is not a legal position",
    );
    let mut l = lesson();
    l.pages[0].fen = "4k4/9/9 w".to_string();
    assert_problem(&l, "page 1: FEN");
}

#[test]
fn a_missing_translation_is_caught() {
    let mut l = lesson();
    l.exercises[1].goal.zh = String::new();
    assert_problem(&l, "exercise 2: the goal has no zh text");
    let mut l = lesson();
    l.title.ru = "  ".to_string();
    assert_problem(&l, "lesson horse: the title has no ru text");
}

#[test]
fn a_wrong_move_that_is_a_solution_is_caught() {
    let mut l = lesson();
    l.exercises[1].wrong.push("h0h9".to_string());
    assert_problem(&l, "exercise 2: wrong move h0h9 is a solution");
}

#[test]
fn an_exercise_without_a_wrong_move_is_caught() {
    let mut l = lesson();
    l.exercises[0].wrong.clear();
    assert_problem(&l, "exercise 1: there is no wrong move");
}

#[test]
fn a_reachable_point_left_out_of_an_all_exercise_is_caught() {
    let mut l = lesson();
    l.exercises[0].solutions.pop();
    assert_problem(
        &l,
        "e3f1 is a legal move of a solution's piece but is not a solution",
    );
}

/// Black's general on d9 is held by the chariot on e8; the chariot on a1 mates on a9 and
/// on d1.
const TWO_MATES: &str = "3k5/4R4/9/9/9/9/9/9/R8/4K4 w";

#[test]
fn a_second_mate_left_out_is_caught() {
    let mut l = lesson();
    l.exercises[1] = exercise(TWO_MATES, Kind::Mate, &[&["a1a9"]], &["e8d8"]);
    assert_problem(&l, "exercise 2: a1d1 mates but is not a solution");
    l.exercises[1].solutions = lines(&[&["a1a9"], &["a1d1"]]);
    assert_eq!(problems(&l), Vec::<String>::new());
}

#[test]
fn a_unique_mate_with_another_mate_is_caught() {
    let mut l = lesson();
    l.exercises[1] = exercise(TWO_MATES, Kind::Mate, &[&["a1a9"], &["a1d1"]], &["e8d8"]);
    l.exercises[1].unique = Some(true);
    assert_problem(&l, "'unique' mate has 2 solutions");
    assert_problem(&l, "a1d1 mates at once too");
}

#[test]
fn a_wrong_hint_is_caught() {
    let mut l = lesson();
    l.exercises[1].hint = "e8".to_string();
    assert_problem(
        &l,
        "hint 'e8' is not the point the first solution starts from (h0)",
    );
}

#[test]
fn an_even_line_is_caught() {
    let mut l = lesson();
    l.exercises[1].solutions = lines(&[&["h0h9", "d9d8"]]);
    assert_problem(&l, "solution 1 has 2 moves");
}

#[test]
fn escape_requires_check_and_every_escape() {
    let mut l = lesson();
    l.exercises[1] = exercise(HORSE, Kind::Escape, &[&["e3d5"]], &["e3e5"]);
    assert_problem(&l, "the learner is not in check");
    // Red's general on e0 is checked by the chariot on e8 (Black's general behind it on e9):
    // moving sideways to d0 or f0 escapes.
    l.exercises[1] = exercise(
        "4k4/4r4/9/9/9/9/9/9/9/4K4 w",
        Kind::Escape,
        &[&["e0d0"]],
        &["e0e1"],
    );
    assert_problem(&l, "e0f0 escapes the check but is not a solution");
    l.exercises[1].solutions = lines(&[&["e0d0"], &["e0f0"]]);
    assert_eq!(problems(&l), Vec::<String>::new());
}

/// The perpetual lesson's drill: Black's general on f8, checked by the chariot that came from
/// h9 to h8.
fn drill(check: &str, rules: Rules) -> Exercise {
    let mut e = exercise(
        "9/5k1R1/9/9/9/9/9/9/p8/4K4 b",
        Kind::Perpetual,
        &[&["f8f9"], &["f8f7"]],
        &["f8e8"],
    );
    e.check = Some(check.to_string());
    e.rules = rules;
    e
}

#[test]
fn a_drill_is_played_out_to_the_cxq_verdict() {
    let mut l = lesson();
    l.exercises[1] = drill("h9h8", Rules::Cxq);
    assert_eq!(problems(&l), Vec::<String>::new());
    // The Asian rules count repetitions, not checks.
    l.exercises[1] = drill("h9h8", Rules::Asian);
    assert_problem(&l, "it needs rules = \"cxq\"");
    // No piece came from e9 to h8: the chariot could not have moved along a diagonal.
    l.exercises[1] = drill("g9h8", Rules::Cxq);
    assert_problem(&l, "check g9h8 is illegal");
    // A chariot on i8 would check Black with Red to move: no such position before the check.
    l.exercises[1] = drill("i8h8", Rules::Cxq);
    assert_problem(&l, "the position before i8h8 is not legal");
    // Every legal move escapes: a legal wrong move is not a wrong move.
    l.exercises[1] = drill("h9h8", Rules::Cxq);
    l.exercises[1].wrong = strings(&["f8f9"]);
    assert_problem(&l, "wrong move f8f9 is legal");
    // 'check' belongs to the drill alone.
    l.exercises[0].check = Some("h9h8".to_string());
    assert_problem(&l, "'check' is for perpetual exercises, not all");
}

#[test]
fn a_capture_that_captures_nothing_is_caught() {
    let mut l = lesson();
    // The cannon on b2 captures the chariot on b9 over the screen on b5.
    let fen = "1r1k5/9/9/9/1n7/9/9/1C7/9/4K4 w";
    l.exercises[1] = exercise(fen, Kind::Capture, &[&["b2b9"]], &["b2b5"]);
    assert_eq!(problems(&l), Vec::<String>::new());
    l.exercises[1].solutions = lines(&[&["b2b4"]]);
    assert_problem(&l, "solution 1 does not end with a capture");
    l.exercises[1].solutions = lines(&[&["b2b9"]]);
    l.exercises[1].target = Some("b5".to_string());
    assert_problem(&l, "solution 1 captures on b9, not on the target");
}

#[test]
fn notation_answers_must_agree_with_our_reader_and_writer() {
    let mut l = lesson();
    let mut e = exercise(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        Kind::Notation,
        &[&["h2e2"]],
        &["C8=5"],
    );
    e.notation = Some(NotationName::Wxf);
    let mut answers = BTreeMap::new();
    answers.insert(NotationName::Wxf, strings(&["C2=5", "C2.5"]));
    answers.insert(NotationName::Chinese, strings(&["炮二平五"]));
    e.answers = Some(answers);
    l.exercises[1] = e;
    assert_eq!(problems(&l), Vec::<String>::new());

    let mut bad = l.clone();
    let answers = bad.exercises[1].answers.as_mut().unwrap();
    answers.insert(NotationName::Wxf, strings(&["C2=4"]));
    let found = problems(&bad);
    assert!(
        found
            .iter()
            .any(|p| p.contains("wxf answer 'C2=4' reads as h2f2")),
        "{found:?}"
    );
    assert!(
        found.iter().any(|p| p.contains("writes h2e2 as 'C2=5'")),
        "{found:?}"
    );

    let mut bad = l.clone();
    bad.exercises[1].wrong = strings(&["C2.5"]);
    assert_problem(&bad, "wrong answer 'C2.5' reads as the shown move h2e2");
}

#[test]
fn an_unknown_id_and_too_few_exercises_are_caught() {
    let mut l = lesson();
    l.id = "horses".to_string();
    l.exercises.pop();
    assert_problem(&l, "unknown lesson id 'horses'");
    assert_problem(&l, "the lesson has 1 exercise(s); it needs at least 2");
}

#[test]
fn a_bad_highlight_is_caught() {
    let mut l = lesson();
    l.pages[0].highlights.push("j5".to_string());
    assert_problem(&l, "page 1: highlight 'j5' is not a point");
}

#[test]
fn a_stalemate_must_leave_no_move_and_no_check() {
    let mut l = lesson();
    // The chariot on e8 takes d8 and e9 from Black's general on d9 without giving check.
    let fen = "3k5/9/9/9/9/9/9/9/4R4/5K3 w";
    l.exercises[1] = exercise(fen, Kind::Stalemate, &[&["e1e8"]], &["e1e9"]);
    assert_eq!(problems(&l), Vec::<String>::new());
    l.exercises[1].solutions = lines(&[&["e1e9"]]);
    assert_problem(&l, "solution 1 does not leave the opponent without a move");
    assert_problem(&l, "e1e8 stalemates but is not a solution");
}

/// Horse and cannon: the cannon mates over the horse in one.
const HORSE_CANNON_IN_ONE: &str = "3k5/9/3N4b/9/9/9/7C1/9/3K5/5r3 w";
/// A mate in three: the chariot gives itself up on e7, the horse checks from f7, the cannon
/// mates on the f-file.
const MATE_IN_THREE: &str = "3aka3/9/3R5/9/4N4/9/9/6C2/8c/p3K4 w";
const MATE_IN_THREE_LINE: [&str; 5] = ["d7e7", "f9e8", "e5f7", "e9f9", "g2f2"];

fn unique_mate(fen: &str, solutions: &[&[&str]], wrong: &[&str]) -> Exercise {
    let mut e = exercise(fen, Kind::Mate, solutions, wrong);
    e.unique = Some(true);
    e
}

/// A correct pattern lesson: three proven mates.
fn pattern_lesson() -> Lesson {
    Lesson {
        id: "horse-cannon".to_string(),
        title: text("Horse and cannon"),
        chinese: Some("马后炮".to_string()),
        pinyin: Some("mǎ hòu pào".to_string()),
        pages: lesson().pages,
        exercises: vec![
            unique_mate(HORSE_CANNON_IN_ONE, &[&["h3d3"]], &["h3a3"]),
            unique_mate(MATE_IN_THREE, &[&MATE_IN_THREE_LINE], &["d7d9"]),
            unique_mate(HORSE_CANNON_IN_ONE, &[&["h3d3"]], &["h3h9"]),
        ],
    }
}

#[test]
fn a_proven_pattern_lesson_passes() {
    assert_eq!(problems(&pattern_lesson()), Vec::<String>::new());
}

#[test]
fn a_line_that_relies_on_a_weak_defence_is_caught() {
    let mut l = pattern_lesson();
    // After d9e8 the horse mates at once from f7, but Black has a longer defence: this is no
    // mate in two.
    l.exercises[1].solutions = lines(&[&["d7e7", "d9e8", "e5f7"]]);
    assert_problem(
        &l,
        "exercise 2: the mate in 2 is not proven: no first move mates in 2 or fewer",
    );
}

#[test]
fn a_mate_with_two_first_moves_is_caught() {
    let mut l = pattern_lesson();
    // The chariot mates in two from a8 or from e0 (Red's general on f0 holds the f-file).
    l.exercises[1] = unique_mate(
        "4k4/9/9/9/9/9/9/9/9/R4K3 w",
        &[&["a0a8", "e9d9", "a8a9"]],
        &["a0a1"],
    );
    assert_problem(
        &l,
        "exercise 2: the mate in 2 is not proven: 2 first moves mate",
    );
}

#[test]
fn every_last_mating_move_must_be_listed() {
    let mut l = pattern_lesson();
    // Eight-corner horse: after the horse reaches d7, the chariot mates on f3 or on g9.
    let fen = "5kb2/9/9/1N7/9/9/6R1p/3K5/4p4/9 w";
    let both: [&[&str]; 2] = [&["b6d7", "e1e0", "g3f3"], &["b6d7", "e1e0", "g3g9"]];
    l.exercises[1] = unique_mate(fen, &both, &["g3f3"]);
    assert_eq!(problems(&l), Vec::<String>::new());
    l.exercises[1].solutions.pop();
    assert_problem(
        &l,
        "after b6d7 e1e0: g3g9 mates in 1 too but is not a solution",
    );
    l.exercises[1].solutions = lines(&[&["b6d7", "e1e0", "g3g4"]]);
    assert_problem(&l, "after b6d7 e1e0: g3g4 does not mate in 1");
}

#[test]
fn a_pattern_lesson_needs_its_names_mates_and_a_deeper_mate() {
    let mut l = pattern_lesson();
    l.pinyin = None;
    l.exercises[1] = unique_mate(HORSE_CANNON_IN_ONE, &[&["h3d3"]], &["h3h8"]);
    l.exercises[2].kind = Kind::Line;
    l.exercises[2].unique = None;
    assert_problem(&l, "a pattern lesson needs its 'pinyin' name");
    assert_problem(&l, "the pattern has no mate in two or three");
    assert_problem(&l, "exercise 3: a pattern exercise is a mate, not line");
}

#[test]
fn a_rules_lesson_carries_no_pattern_names() {
    let mut l = lesson();
    l.chinese = Some("马".to_string());
    assert_problem(
        &l,
        "'chinese' and 'pinyin' are for the lessons of the pattern course",
    );
}
