//! The course's checker: every lesson is read with the rules core and every exercise is
//! played through. A position must be legal, every solution a legal line that reaches the
//! exercise's goal, every `wrong` move refused (illegal, with the rules core's reason, or
//! legal but not a solution where the kind allows that), notation answers must agree with
//! our notation reader and writer, and every text must exist in every language.

use crate::catalog::COURSE_IDS;
use crate::lang::Lang;
use crate::lesson::{Exercise, Kind, Lesson, Text};
use std::collections::BTreeSet;
use std::fmt;
use xiangqi_rules::notation::{format_move, parse_move};
use xiangqi_rules::{GameStatus, Move, Position, Square};

/// The fewest exercises a lesson may have.
pub const MIN_EXERCISES: usize = 2;

/// Where in a lesson a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The lesson as a whole (its id, title, number of pages or exercises).
    Lesson,
    /// A page, counted from 1.
    Page(usize),
    /// An exercise, counted from 1.
    Exercise(usize),
}

/// One thing wrong with a lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExerciseProblem {
    /// The lesson's id.
    pub lesson: String,
    /// Where in the lesson.
    pub place: Place,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for ExerciseProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.place {
            Place::Lesson => write!(f, "lesson {}: {}", self.lesson, self.problem),
            Place::Page(n) => write!(f, "lesson {}, page {n}: {}", self.lesson, self.problem),
            Place::Exercise(n) => {
                write!(f, "lesson {}, exercise {n}: {}", self.lesson, self.problem)
            }
        }
    }
}

/// Checks a lesson: every problem found, or `Ok` when there is none.
pub fn check_lesson(lesson: &Lesson) -> Result<(), Vec<ExerciseProblem>> {
    let mut report = Report {
        lesson: &lesson.id,
        problems: Vec::new(),
    };
    if !COURSE_IDS.contains(&lesson.id.as_str()) {
        report.add(
            Place::Lesson,
            format!(
                "unknown lesson id '{}': use one of {}",
                lesson.id,
                COURSE_IDS.join(", ")
            ),
        );
    }
    report.text(Place::Lesson, "the title", &lesson.title);
    if lesson.pages.is_empty() {
        report.add(Place::Lesson, "the lesson has no page".to_string());
    }
    if lesson.exercises.len() < MIN_EXERCISES {
        report.add(
            Place::Lesson,
            format!(
                "the lesson has {} exercise(s); it needs at least {MIN_EXERCISES}",
                lesson.exercises.len()
            ),
        );
    }
    for (i, page) in lesson.pages.iter().enumerate() {
        let place = Place::Page(i + 1);
        report.text(place, "the text", &page.text);
        if let Err(e) = Position::from_fen(&page.fen) {
            report.add(
                place,
                format!("FEN '{}' is not a legal position: {e}", page.fen),
            );
        }
        report.points(place, &page.highlights, &page.arrows);
    }
    for (i, exercise) in lesson.exercises.iter().enumerate() {
        check_exercise(&mut report, Place::Exercise(i + 1), exercise);
    }
    if report.problems.is_empty() {
        Ok(())
    } else {
        Err(report.problems)
    }
}

/// The problems found so far in one lesson.
struct Report<'a> {
    lesson: &'a str,
    problems: Vec<ExerciseProblem>,
}

impl Report<'_> {
    fn add(&mut self, place: Place, problem: String) {
        self.problems.push(ExerciseProblem {
            lesson: self.lesson.to_string(),
            place,
            problem,
        });
    }

    fn text(&mut self, place: Place, what: &str, text: &Text) {
        for lang in Lang::ALL {
            if text.get(lang).trim().is_empty() {
                self.add(place, format!("{what} has no {lang} text"));
            }
        }
    }

    fn point(&mut self, place: Place, what: &str, text: &str) -> Option<Square> {
        match text.parse::<Square>() {
            Ok(sq) => Some(sq),
            Err(e) => {
                self.add(place, format!("{what} '{text}' is not a point: {e}"));
                None
            }
        }
    }

    fn points(&mut self, place: Place, highlights: &[String], arrows: &[[String; 2]]) {
        for point in highlights {
            self.point(place, "highlight", point);
        }
        for [from, to] in arrows {
            self.point(place, "arrow start", from);
            self.point(place, "arrow end", to);
        }
    }
}

/// A solution line played through: its moves and the position before its last move.
struct PlayedLine {
    moves: Vec<Move>,
    before_last: Position,
    end: Position,
}

fn check_exercise(report: &mut Report, place: Place, exercise: &Exercise) {
    report.text(place, "the goal", &exercise.goal);
    if let Some(note) = &exercise.reply_note {
        report.text(place, "the reply note", note);
    }
    report.points(place, &exercise.highlights, &exercise.arrows);
    check_options(report, place, exercise);
    let pos = match Position::from_fen(&exercise.fen) {
        Ok(pos) => pos,
        Err(e) => {
            report.add(
                place,
                format!("FEN '{}' is not a legal position: {e}", exercise.fen),
            );
            return;
        }
    };
    if exercise.solutions.is_empty() {
        report.add(place, "there is no solution".to_string());
        return;
    }
    let mut lines = Vec::new();
    for (i, solution) in exercise.solutions.iter().enumerate() {
        if let Some(line) = play_line(report, place, &pos, i + 1, solution) {
            lines.push(line);
        }
    }
    if lines.len() != exercise.solutions.len() {
        return;
    }
    let firsts: Vec<Move> = lines.iter().map(|line| line.moves[0]).collect();
    let distinct: BTreeSet<String> = exercise.solutions.iter().map(|s| s.join(" ")).collect();
    if distinct.len() != exercise.solutions.len() {
        report.add(place, "a solution is listed twice".to_string());
    }
    if let Some(hint) = report.point(place, "hint", &exercise.hint) {
        if hint != firsts[0].from() {
            report.add(
                place,
                format!(
                    "hint '{hint}' is not the point the first solution starts from ({})",
                    firsts[0].from()
                ),
            );
        }
    }
    if exercise.reply_note.is_some() && lines.iter().all(|line| line.moves.len() == 1) {
        report.add(
            place,
            "there is a reply note but no solution has a scripted reply".to_string(),
        );
    }
    let one_move = lines.iter().all(|line| line.moves.len() == 1);
    match exercise.kind {
        Kind::Line => {}
        Kind::All => check_all(report, place, &pos, &lines, &firsts),
        Kind::Mate => check_mate(report, place, exercise, &pos, &lines, &firsts, one_move),
        Kind::Escape => check_escape(report, place, &pos, &lines, &firsts),
        Kind::Capture => check_capture(report, place, exercise, &pos, &lines, &firsts, one_move),
        Kind::Stalemate => {
            check_ending(
                report,
                place,
                Ending::Stalemate,
                &pos,
                &lines,
                &firsts,
                one_move,
            );
        }
        Kind::Notation => check_notation(report, place, exercise, &pos, &lines),
    }
    if exercise.kind != Kind::Notation {
        check_wrong_moves(report, place, exercise, &pos, &firsts);
    }
}

/// The optional fields belong to one kind each.
fn check_options(report: &mut Report, place: Place, exercise: &Exercise) {
    let kind = exercise.kind;
    if exercise.target.is_some() && kind != Kind::Capture {
        report.add(
            place,
            format!("'target' is for capture exercises, not {}", kind.name()),
        );
    }
    if exercise.unique.is_some() && kind != Kind::Mate {
        report.add(
            place,
            format!("'unique' is for mate exercises, not {}", kind.name()),
        );
    }
    if kind != Kind::Notation && (exercise.notation.is_some() || exercise.answers.is_some()) {
        report.add(
            place,
            format!(
                "'notation' and 'answers' are for notation exercises, not {}",
                kind.name()
            ),
        );
    }
}

/// Plays one solution line from `pos`; `None` (with the problem reported) when a move is
/// unreadable or illegal or the line does not end with the learner's move.
fn play_line(
    report: &mut Report,
    place: Place,
    pos: &Position,
    number: usize,
    solution: &[String],
) -> Option<PlayedLine> {
    if solution.len() % 2 == 0 {
        report.add(
            place,
            format!(
                "solution {number} has {} moves; a line ends with the learner's move, so it \
                 needs an odd number",
                solution.len()
            ),
        );
        return None;
    }
    let mut moves = Vec::with_capacity(solution.len());
    let mut current = pos.clone();
    let mut before_last = pos.clone();
    for (i, text) in solution.iter().enumerate() {
        let what = format!("solution {number}, move {} ({text})", i + 1);
        let requested = match text.parse::<Move>() {
            Ok(m) => m,
            Err(e) => {
                report.add(place, format!("{what} is not a move: {e}"));
                return None;
            }
        };
        match current.check_move(requested.from(), requested.to()) {
            Ok(m) => {
                before_last = current.clone();
                current = current.after(m);
                moves.push(m);
            }
            Err(reason) => {
                report.add(place, format!("{what} is illegal: {reason}"));
                return None;
            }
        }
    }
    Some(PlayedLine {
        moves,
        before_last,
        end: current,
    })
}

/// Every move of `pos` made by a piece standing on one of the solutions' origins.
fn moves_of_solution_pieces(pos: &Position, firsts: &[Move]) -> Vec<Move> {
    let origins: BTreeSet<Square> = firsts.iter().map(|m| m.from()).collect();
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|m| origins.contains(&m.from()))
        .collect()
}

fn require_one_move(report: &mut Report, place: Place, lines: &[PlayedLine], kind: Kind) -> bool {
    let ok = lines.iter().all(|line| line.moves.len() == 1);
    if !ok {
        report.add(
            place,
            format!("every solution of a {} exercise is one move", kind.name()),
        );
    }
    ok
}

/// Reports each move in `expected` that is not a first move of a solution.
fn require_listed(
    report: &mut Report,
    place: Place,
    expected: &[Move],
    firsts: &[Move],
    why: &str,
) {
    for m in expected {
        if !firsts.contains(m) {
            report.add(place, format!("{m} {why} but is not a solution"));
        }
    }
}

fn check_all(
    report: &mut Report,
    place: Place,
    pos: &Position,
    lines: &[PlayedLine],
    firsts: &[Move],
) {
    if require_one_move(report, place, lines, Kind::All) {
        let expected = moves_of_solution_pieces(pos, firsts);
        require_listed(
            report,
            place,
            &expected,
            firsts,
            "is a legal move of a solution's piece",
        );
    }
}

/// How a game-ending exercise must end.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    Checkmate,
    Stalemate,
}

impl Ending {
    fn reached(self, pos: &Position) -> bool {
        matches!(
            (self, pos.status()),
            (Ending::Checkmate, GameStatus::Checkmate { .. })
                | (Ending::Stalemate, GameStatus::Stalemate { .. })
        )
    }
}

/// Every line ends in `ending`, and a one-move exercise lists every first move that ends
/// the game so. Returns those moves.
fn check_ending(
    report: &mut Report,
    place: Place,
    ending: Ending,
    pos: &Position,
    lines: &[PlayedLine],
    firsts: &[Move],
    one_move: bool,
) -> Vec<Move> {
    let (missed, why) = match ending {
        Ending::Checkmate => ("does not end in checkmate", "mates"),
        Ending::Stalemate => ("does not leave the opponent without a move", "stalemates"),
    };
    for (i, line) in lines.iter().enumerate() {
        if !ending.reached(&line.end) {
            report.add(place, format!("solution {} {missed}", i + 1));
        }
    }
    let at_once: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| ending.reached(&pos.after(m)))
        .collect();
    if one_move {
        require_listed(report, place, &at_once, firsts, why);
    }
    at_once
}

fn check_mate(
    report: &mut Report,
    place: Place,
    exercise: &Exercise,
    pos: &Position,
    lines: &[PlayedLine],
    firsts: &[Move],
    one_move: bool,
) {
    let mates_at_once = check_ending(
        report,
        place,
        Ending::Checkmate,
        pos,
        lines,
        firsts,
        one_move,
    );
    if exercise.unique == Some(true) {
        if lines.len() != 1 {
            report.add(
                place,
                format!(
                    "'unique' mate has {} solutions; it needs exactly one",
                    lines.len()
                ),
            );
        }
        for m in mates_at_once {
            if m != firsts[0] {
                report.add(
                    place,
                    format!("{m} mates at once too, so the mate is not unique"),
                );
            }
        }
    }
}

fn check_escape(
    report: &mut Report,
    place: Place,
    pos: &Position,
    lines: &[PlayedLine],
    firsts: &[Move],
) {
    if !pos.in_check() {
        report.add(
            place,
            "the learner is not in check, so there is nothing to escape".to_string(),
        );
    }
    if require_one_move(report, place, lines, Kind::Escape) {
        let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        require_listed(report, place, &legal, firsts, "escapes the check");
    }
}

fn check_capture(
    report: &mut Report,
    place: Place,
    exercise: &Exercise,
    pos: &Position,
    lines: &[PlayedLine],
    firsts: &[Move],
    one_move: bool,
) {
    let target = match &exercise.target {
        Some(text) => match report.point(place, "target", text) {
            Some(sq) => Some(sq),
            None => return,
        },
        None => None,
    };
    let on_target = |m: Move| target.is_none_or(|sq| m.to() == sq);
    for (i, line) in lines.iter().enumerate() {
        let last = *line.moves.last().expect("a played line has a move");
        if line.before_last.is_empty(last.to()) {
            report.add(
                place,
                format!("solution {} does not end with a capture", i + 1),
            );
        } else if !on_target(last) {
            report.add(
                place,
                format!(
                    "solution {} captures on {}, not on the target",
                    i + 1,
                    last.to()
                ),
            );
        }
    }
    if one_move {
        let captures: Vec<Move> = moves_of_solution_pieces(pos, firsts)
            .into_iter()
            .filter(|&m| !pos.is_empty(m.to()) && on_target(m))
            .collect();
        require_listed(report, place, &captures, firsts, "captures");
    }
}

fn check_notation(
    report: &mut Report,
    place: Place,
    exercise: &Exercise,
    pos: &Position,
    lines: &[PlayedLine],
) {
    if lines.len() != 1 || lines[0].moves.len() != 1 {
        report.add(
            place,
            "a notation exercise has exactly one solution of one move".to_string(),
        );
        return;
    }
    let shown = lines[0].moves[0];
    let Some(asked) = exercise.notation else {
        report.add(
            place,
            "'notation' is missing: say wxf, iccs or chinese".to_string(),
        );
        return;
    };
    let Some(answers) = &exercise.answers else {
        report.add(place, "'answers' is missing".to_string());
        return;
    };
    if answers.get(&asked).is_none_or(|texts| texts.is_empty()) {
        report.add(place, format!("'answers' has no {} answer", asked.name()));
    }
    for (name, texts) in answers {
        for text in texts {
            match parse_move(pos, text, name.notation()) {
                Ok(m) if m == shown => {}
                Ok(m) => report.add(
                    place,
                    format!("{} answer '{text}' reads as {m}, not {shown}", name.name()),
                ),
                Err(e) => report.add(
                    place,
                    format!("{} answer '{text}' does not read: {e}", name.name()),
                ),
            }
        }
        let written = format_move(pos, shown, name.notation());
        if !texts.contains(&written) {
            report.add(
                place,
                format!(
                    "our {} writer writes {shown} as '{written}', which is not among the answers",
                    name.name()
                ),
            );
        }
    }
    if exercise.wrong.is_empty() {
        report.add(place, "there is no wrong answer".to_string());
    }
    for text in &exercise.wrong {
        if parse_move(pos, text, asked.notation()) == Ok(shown) {
            report.add(
                place,
                format!("wrong answer '{text}' reads as the shown move {shown}"),
            );
        }
    }
}

fn check_wrong_moves(
    report: &mut Report,
    place: Place,
    exercise: &Exercise,
    pos: &Position,
    firsts: &[Move],
) {
    if exercise.wrong.is_empty() {
        report.add(place, "there is no wrong move".to_string());
    }
    for text in &exercise.wrong {
        let requested = match text.parse::<Move>() {
            Ok(m) => m,
            Err(e) => {
                report.add(place, format!("wrong move '{text}' is not a move: {e}"));
                continue;
            }
        };
        // An illegal move is refused with the rules core's reason, which is what we want.
        let Ok(m) = pos.check_move(requested.from(), requested.to()) else {
            continue;
        };
        if exercise.kind == Kind::Escape {
            report.add(
                place,
                format!("wrong move {m} is legal, and every legal move escapes the check"),
            );
        } else if firsts.contains(&m) {
            report.add(place, format!("wrong move {m} is a solution"));
        }
    }
}

#[cfg(test)]
mod tests;
