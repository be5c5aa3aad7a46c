//! The courses' API: the lessons of a course in one language (`GET /api/lessons?course=&lang=`,
//! the rules course or the mating patterns), and the learner's moves on a lesson board
//! checked without a game (`POST /api/lessons/try`), and the perpetual-check drill played by
//! the rules core (`POST /api/lessons/drill`, [`drill`]), and the pieces' characters for the
//! characters drill (`GET /api/characters`, [`characters`]).

mod characters;
mod drill;

use crate::state::AppState;
use axum::Router;
use axum::routing::{get, post};

use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::{Body, Params, legal};
use crate::kit::view::{MoveView, status_code};
use crate::kit::wire::{Course, Iccs, Language};
use axum::Json;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use xiangqi_rules::Position;
use xiangqi_teaching::{
    CourseId, Exercise, Kind, Lang, Lesson, Page, lessons as course_lessons, way_out_of_check,
};

/// The query of `GET /api/lessons`.
#[derive(Deserialize)]
pub struct LessonsQuery {
    /// `rules` or `patterns`; the rules course when absent.
    #[serde(default)]
    pub course: Course,
    /// `en`, `ru` or `zh`; English when absent.
    #[serde(default)]
    pub lang: Language,
}

/// A lesson in one language.
#[derive(Serialize)]
pub struct LessonView {
    /// The lesson's id, e.g. `horse`.
    pub id: String,
    /// The course it belongs to: `rules` or `patterns`.
    pub course: &'static str,
    /// The title (for a pattern, its name in the language, e.g. `Horse and cannon`).
    pub title: String,
    /// For a pattern: its Chinese name, e.g. `马后炮`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chinese: Option<String>,
    /// For a pattern: its Chinese name in pinyin, e.g. `mǎ hòu pào`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinyin: Option<String>,
    /// The explanation, a paragraph with a board picture each.
    pub pages: Vec<PageView>,
    /// The exercises, in order.
    pub exercises: Vec<ExerciseView>,
}

/// A paragraph with its picture.
#[derive(Serialize)]
pub struct PageView {
    /// The picture, as FEN.
    pub fen: String,
    /// The paragraph.
    pub text: String,
    /// Points to highlight (ICCS).
    pub highlights: Vec<String>,
    /// Arrows, each `[from, to]` (ICCS).
    pub arrows: Vec<[String; 2]>,
}

/// An exercise in one language (its wrong moves stay on the server: they exist for the test).
#[derive(Serialize)]
pub struct ExerciseView {
    /// The position; the side to move is the learner.
    pub fen: String,
    /// `line`, `all`, `mate`, `escape`, `capture`, `stalemate`, `notation` or `perpetual`.
    pub kind: &'static str,
    /// The task.
    pub goal: String,
    /// Every accepted line: the learner's moves and the scripted replies, alternating (ICCS).
    pub solutions: Vec<Vec<String>>,
    /// The point of the piece to move first.
    pub hint: String,
    /// Points to highlight on the exercise board.
    pub highlights: Vec<String>,
    /// Arrows to draw on the exercise board.
    pub arrows: Vec<[String; 2]>,
    /// For `capture`: where the capture must happen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// For `mate`: whether exactly one first move mates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
    /// For `notation`: `wxf`, `iccs` or `chinese`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notation: Option<&'static str>,
    /// For `notation`: the accepted texts per notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answers: Option<BTreeMap<&'static str, Vec<String>>>,
    /// Shown when the app plays a scripted reply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply_note: Option<String>,
    /// The repetition rules: `asian` or `cxq`.
    pub rules: &'static str,
    /// For `perpetual`: the move that gave the first check and led to `fen` (ICCS).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
}

fn page_view(page: &Page, lang: Lang) -> PageView {
    PageView {
        fen: page.fen.clone(),
        text: page.text.get(lang).to_string(),
        highlights: page.highlights.clone(),
        arrows: page.arrows.clone(),
    }
}

fn exercise_view(exercise: &Exercise, lang: Lang) -> ExerciseView {
    ExerciseView {
        fen: exercise.fen.clone(),
        kind: exercise.kind.name(),
        goal: exercise.goal.get(lang).to_string(),
        solutions: exercise.solutions.clone(),
        hint: exercise.hint.clone(),
        highlights: exercise.highlights.clone(),
        arrows: exercise.arrows.clone(),
        target: exercise.target.clone(),
        unique: exercise.unique,
        notation: exercise.notation.map(|n| n.name()),
        answers: exercise.answers.as_ref().map(|answers| {
            answers
                .iter()
                .map(|(name, texts)| (name.name(), texts.clone()))
                .collect()
        }),
        reply_note: exercise
            .reply_note
            .as_ref()
            .map(|note| note.get(lang).to_string()),
        rules: exercise.rules.name(),
        check: exercise.check.clone(),
    }
}

fn lesson_view(course: CourseId, lesson: &Lesson, lang: Lang) -> LessonView {
    LessonView {
        id: lesson.id.clone(),
        course: course.code(),
        title: lesson.title.get(lang).to_string(),
        chinese: lesson.chinese.clone(),
        pinyin: lesson.pinyin.clone(),
        pages: lesson.pages.iter().map(|p| page_view(p, lang)).collect(),
        exercises: lesson
            .exercises
            .iter()
            .map(|e| exercise_view(e, lang))
            .collect(),
    }
}

/// `GET /api/lessons?course=rules|patterns&lang=en|ru|zh`: every lesson of the course in
/// course order, in one language.
pub async fn lessons(
    Params(query): Params<LessonsQuery>,
) -> Result<Json<Vec<LessonView>>, ApiError> {
    let (Course(course), Language(lang)) = (query.course, query.lang);
    let lessons = course_lessons(course)
        .map_err(|e| ApiError::new(ErrorCode::LessonsUnreadable, e.to_string()))?;
    Ok(Json(
        lessons
            .iter()
            .map(|l| lesson_view(course, l, lang))
            .collect(),
    ))
}

/// The body of `POST /api/lessons/try`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TryRequest {
    /// The lesson board's position.
    pub fen: String,
    /// Moves to play from it, in order (ICCS).
    #[serde(default)]
    pub moves: Vec<Iccs>,
}

/// The position after the tried moves.
#[derive(Serialize)]
pub struct TryResult {
    /// The position after the moves, as FEN.
    pub fen: String,
    /// Whether the side to move is in check.
    pub check: bool,
    /// `ongoing`, `checkmate` or `stalemate` (the side to move is mated or has no move).
    pub status: &'static str,
    /// The moves played, in every notation.
    pub moves: Vec<MoveView>,
    /// When the side to move is in check but not mated: a way out (the general's own step
    /// first), to show why the check is not mate.
    pub escape: Option<MoveView>,
    /// The first illegal move's refusal, with the rules core's reason (`{code, message,
    /// highlights, params}` as an error answer has them); the position is then the one
    /// before it. A refused move is an answer of the lesson board, not a failed request.
    pub refused: Option<serde_json::Value>,
}

/// `POST /api/lessons/try`: plays `moves` from `fen`; the first illegal move stops the line
/// and is answered as `refused` with the rules core's reason; 400 for a FEN or move that
/// does not read.
pub async fn try_moves(Body(req): Body<TryRequest>) -> Result<Json<TryResult>, ApiError> {
    let mut pos = Position::from_fen(req.fen.trim())
        .map_err(|e| ApiError::bad_request(format!("the FEN is not valid: {e}")))?;
    let mut moves = Vec::with_capacity(req.moves.len());
    let mut refused = None;
    for &Iccs(m) in &req.moves {
        match legal(&pos, m) {
            Ok(m) => {
                moves.push(MoveView::new(&pos, m));
                pos = pos.after(m);
            }
            Err(refusal) => {
                refused = Some(refusal.detail_json());
                break;
            }
        }
    }
    Ok(Json(TryResult {
        fen: pos.to_fen(),
        check: pos.in_check(),
        status: status_code(pos.status()),
        moves,
        escape: way_out_of_check(&pos).map(|m| MoveView::new(&pos, m)),
        refused,
    }))
}

/// The longest written answer read, in characters.
const ANSWER_MAX: usize = 64;

/// The body of `POST /api/lessons/answer`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerRequest {
    /// The course (`rules` when absent).
    #[serde(default)]
    pub course: Course,
    /// The lesson's id, e.g. `notation`.
    pub lesson: String,
    /// The exercise's place in the lesson, from 0.
    pub exercise: usize,
    /// The learner's answer, as written.
    pub text: String,
}

/// Whether a written answer is right.
#[derive(Serialize)]
pub struct AnswerView {
    /// The answer names the move the exercise shows, in the notation it asks for.
    pub correct: bool,
}

/// `POST /api/lessons/answer`: judges a written answer to a notation exercise by the rules
/// core's readers (teaching's `Exercise::accepts_answer`); 404 `no-exercise` for a place
/// with no notation exercise, 400 for an answer over [`ANSWER_MAX`] characters.
pub async fn answer(Body(req): Body<AnswerRequest>) -> Result<Json<AnswerView>, ApiError> {
    let count = req.text.chars().count();
    if count > ANSWER_MAX {
        return Err(ApiError::bad_request(format!(
            "an answer is at most {ANSWER_MAX} characters, not {count}"
        )));
    }
    let exercise = exercise_of_kind(
        req.course.0,
        &req.lesson,
        req.exercise,
        Kind::Notation,
        "notation exercise",
    )?;
    Ok(Json(AnswerView {
        correct: exercise.accepts_answer(&req.text),
    }))
}

/// Exercise `exercise` of lesson `lesson` in `course` when it is of `kind` (named `what` in
/// the refusal): 404 `no-exercise` for a place with no such exercise.
pub(crate) fn exercise_of_kind(
    course: CourseId,
    lesson: &str,
    exercise: usize,
    kind: Kind,
    what: &str,
) -> Result<&'static Exercise, ApiError> {
    let lessons = course_lessons(course)
        .map_err(|e| ApiError::new(ErrorCode::LessonsUnreadable, e.to_string()))?;
    lessons
        .iter()
        .find(|l| l.id == lesson)
        .and_then(|l| l.exercises.get(exercise))
        .filter(|e| e.kind == kind)
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::NoExercise,
                format!("lesson {lesson:?} has no {what} {exercise}"),
            )
            .with_params(serde_json::json!({ "lesson": lesson, "exercise": exercise }))
        })
}

/// The course routes: the lessons (the rules course and the mating patterns), their boards,
/// the written answers and the perpetual-check drill.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/lessons", get(lessons))
        .route("/api/lessons/try", post(try_moves))
        .route("/api/lessons/answer", post(answer))
        .route("/api/lessons/drill", post(drill::drill))
        .route("/api/characters", get(characters::characters))
}
