//! The course's checker: every lesson is read with the rules core and every exercise is
//! played through. A position must be legal, every solution a legal line that reaches the
//! exercise's goal, every `wrong` move refused (illegal, with the rules core's reason, or
//! legal but not a solution where the kind allows that), notation answers must agree with
//! our notation reader and writer, and every text must exist in every language. A mate in
//! more than one move is proven by the puzzles' mate prover (`mate_proof`); a lesson of the
//! mating-patterns course has its own further rules ([`pattern`]).

pub mod drill;
mod mate_proof;
pub mod pattern;

use crate::catalog::{COURSE_IDS, CourseId, PATTERN_IDS};
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
    match CourseId::of_lesson(&lesson.id) {
        Some(CourseId::Patterns) => pattern::check_pattern_lesson(&mut report, lesson),
        Some(CourseId::Rules) => pattern::check_no_pattern_names(&mut report, lesson),
        None => report.add(
            Place::Lesson,
            format!(
                "unknown lesson id '{}': use one of {}, or a pattern: {}",
                lesson.id,
                COURSE_IDS.join(", "),
                PATTERN_IDS.join(", ")
            ),
        ),
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

/// A solution line played through: its moves, the position before its last move and the
/// position at its end.
struct PlayedLine {
    moves: Vec<Move>,
    before_last: Position,
    end: Position,
}

/// An exercise whose every solution played through: what the kind checks look at.
struct Played<'a> {
    exercise: &'a Exercise,
    place: Place,
    /// The exercise's position.
    pos: Position,
    /// The solutions, in order.
    lines: Vec<PlayedLine>,
    /// The first move of each solution.
    firsts: Vec<Move>,
}

impl Played<'_> {
    /// Whether every solution is a single move.
    fn one_move(&self) -> bool {
        self.lines.iter().all(|line| line.moves.len() == 1)
    }

    /// Every legal move of a piece standing on one of the solutions' origins.
    fn moves_of_solution_pieces(&self) -> Vec<Move> {
        let origins: BTreeSet<Square> = self.firsts.iter().map(|m| m.from()).collect();
        self.pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| origins.contains(&m.from()))
            .collect()
    }

    /// Reports that the kind needs one-move solutions unless they are; says whether they are.
    fn require_one_move(&self, report: &mut Report) -> bool {
        let ok = self.one_move();
        if !ok {
            let kind = self.exercise.kind.name();
            report.add(
                self.place,
                format!("every solution of a {kind} exercise is one move"),
            );
        }
        ok
    }

    /// Reports each move in `expected` that is not a first move of a solution.
    fn require_listed(&self, report: &mut Report, expected: &[Move], why: &str) {
        for m in expected {
            if !self.firsts.contains(m) {
                report.add(self.place, format!("{m} {why} but is not a solution"));
            }
        }
    }
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
    let played = Played {
        exercise,
        place,
        pos,
        lines,
        firsts,
    };
    check_solutions(report, &played);
    match exercise.kind {
        Kind::Line => {}
        Kind::All => check_all(report, &played),
        Kind::Mate => check_mate(report, &played),
        Kind::Escape => check_escape(report, &played),
        Kind::Capture => check_capture(report, &played),
        Kind::Stalemate => {
            check_ending(report, &played, Ending::Stalemate);
        }
        Kind::Notation => check_notation(report, &played),
        Kind::Perpetual => {
            check_escape(report, &played);
            drill::check_drill(report, place, exercise);
        }
    }
    if exercise.kind != Kind::Notation {
        check_wrong_moves(report, &played);
    }
}

/// What every kind asks of its solutions: no line twice, the hint at the first solution's
/// piece, a reply note only where a reply is played.
fn check_solutions(report: &mut Report, played: &Played) {
    let (exercise, place) = (played.exercise, played.place);
    let distinct: BTreeSet<String> = exercise.solutions.iter().map(|s| s.join(" ")).collect();
    if distinct.len() != exercise.solutions.len() {
        report.add(place, "a solution is listed twice".to_string());
    }
    let first = played.firsts[0].from();
    if let Some(hint) = report.point(place, "hint", &exercise.hint)
        && hint != first
    {
        report.add(
            place,
            format!("hint '{hint}' is not the point the first solution starts from ({first})"),
        );
    }
    if exercise.reply_note.is_some() && played.one_move() {
        report.add(
            place,
            "there is a reply note but no solution has a scripted reply".to_string(),
        );
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
    if exercise.check.is_some() && kind != Kind::Perpetual {
        report.add(
            place,
            format!("'check' is for perpetual exercises, not {}", kind.name()),
        );
    }
    if kind != Kind::Notation
        && (exercise.notation.is_some() || exercise.answers.is_some() || exercise.any_notation)
    {
        report.add(
            place,
            format!(
                "'notation', 'answers' and 'any_notation' are for notation exercises, not {}",
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
    if solution.len().is_multiple_of(2) {
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

fn check_all(report: &mut Report, played: &Played) {
    if played.require_one_move(report) {
        let expected = played.moves_of_solution_pieces();
        played.require_listed(report, &expected, "is a legal move of a solution's piece");
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
fn check_ending(report: &mut Report, played: &Played, ending: Ending) -> Vec<Move> {
    let (missed, why) = match ending {
        Ending::Checkmate => ("does not end in checkmate", "mates"),
        Ending::Stalemate => ("does not leave the opponent without a move", "stalemates"),
    };
    for (i, line) in played.lines.iter().enumerate() {
        if !ending.reached(&line.end) {
            report.add(played.place, format!("solution {} {missed}", i + 1));
        }
    }
    let pos = &played.pos;
    let at_once: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| ending.reached(&pos.after(m)))
        .collect();
    if played.one_move() {
        played.require_listed(report, &at_once, why);
    }
    at_once
}

fn check_mate(report: &mut Report, played: &Played) {
    let mates_at_once = check_ending(report, played, Ending::Checkmate);
    if !played.one_move() {
        let tree = mate_proof::MateTree {
            place: played.place,
            pos: &played.pos,
            lines: played.lines.iter().map(|l| l.moves.as_slice()).collect(),
        };
        tree.check(report);
        return;
    }
    if played.exercise.unique == Some(true) {
        let count = played.lines.len();
        if count != 1 {
            report.add(
                played.place,
                format!("'unique' mate has {count} solutions; it needs exactly one"),
            );
        }
        for m in mates_at_once {
            if m != played.firsts[0] {
                report.add(
                    played.place,
                    format!("{m} mates at once too, so the mate is not unique"),
                );
            }
        }
    }
}

fn check_escape(report: &mut Report, played: &Played) {
    if !played.pos.in_check() {
        report.add(
            played.place,
            "the learner is not in check, so there is nothing to escape".to_string(),
        );
    }
    if played.require_one_move(report) {
        let legal: Vec<Move> = played.pos.legal_moves().iter().copied().collect();
        played.require_listed(report, &legal, "escapes the check");
    }
}

fn check_capture(report: &mut Report, played: &Played) {
    let place = played.place;
    let target = match &played.exercise.target {
        Some(text) => match report.point(place, "target", text) {
            Some(sq) => Some(sq),
            None => return,
        },
        None => None,
    };
    let on_target = |m: Move| target.is_none_or(|sq| m.to() == sq);
    for (i, line) in played.lines.iter().enumerate() {
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
    if played.one_move() {
        let captures: Vec<Move> = played
            .moves_of_solution_pieces()
            .into_iter()
            .filter(|&m| !played.pos.is_empty(m.to()) && on_target(m))
            .collect();
        played.require_listed(report, &captures, "captures");
    }
}

fn check_notation(report: &mut Report, played: &Played) {
    let (exercise, place, pos) = (played.exercise, played.place, &played.pos);
    if played.lines.len() != 1 || !played.one_move() {
        report.add(
            place,
            "a notation exercise has exactly one solution of one move".to_string(),
        );
        return;
    }
    let shown = played.firsts[0];
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
        if exercise.accepts_answer(text) {
            report.add(
                place,
                format!("wrong answer '{text}' reads as the shown move {shown}"),
            );
        }
    }
    for text in answers.get(&asked).into_iter().flatten() {
        if !exercise.accepts_answer(text) {
            report.add(place, format!("answer '{text}' is not accepted"));
        }
    }
}

fn check_wrong_moves(report: &mut Report, played: &Played) {
    let (exercise, place) = (played.exercise, played.place);
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
        let Ok(m) = played.pos.check_move(requested.from(), requested.to()) else {
            continue;
        };
        if matches!(exercise.kind, Kind::Escape | Kind::Perpetual) {
            report.add(
                place,
                format!("wrong move {m} is legal, and every legal move escapes the check"),
            );
        } else if played.firsts.contains(&m) {
            report.add(place, format!("wrong move {m} is a solution"));
        }
    }
}

#[cfg(test)]
mod tests;
