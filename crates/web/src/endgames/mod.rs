//! The endgame course's API: the endings in one language (`GET /api/endgames?lang=`), the
//! state of an ending's table (`GET /api/endgames/{id}/table`) and its preparation
//! (`POST /api/endgames/{id}/table`), and the learner's moves played against the table
//! (`POST /api/endgames/play`, teaching's `endgames::play`).
//!
//! The tables live in the data folder's `egtb` (the server's `--data` folder, else
//! `xiangqi_egtb::default_dir()`). An ending's table, with the tables its captures lead to, is
//! generated on first use in a blocking task, one generation at a time, and kept.

use crate::kit::endgame_tables::TableFolder;
use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::{Body, Params, legal};
use crate::kit::view::{EndingView, MoveView};
use crate::kit::wire::{Iccs, Language};
use crate::state::AppState;
use axum::extract::{Path as UrlPath, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use xiangqi_egtb::{Ending, Value};
use xiangqi_teaching::Lang;
use xiangqi_teaching::endgames::{Endgame, PlayError, Status, endgame, endgames, mate_in, play};

/// The most learner moves one request may play (the longest limit of the course is far
/// below).
const MAX_MOVES: usize = 200;

/// The query of `GET /api/endgames`.
#[derive(Deserialize)]
pub struct EndgamesQuery {
    /// `en`, `ru` or `zh`; English when absent.
    #[serde(default)]
    pub lang: Language,
}

/// A paragraph of the plan with its picture.
#[derive(Serialize)]
pub struct PlanView {
    /// The picture, as FEN.
    pub fen: String,
    /// The paragraph.
    pub text: String,
    /// Points to highlight (ICCS).
    pub highlights: Vec<String>,
    /// Arrows, each `[from, to]` (ICCS).
    pub arrows: Vec<[String; 2]>,
}

/// A position of an ending.
#[derive(Serialize)]
pub struct PositionView {
    /// The position; the side to move is the learner.
    pub fen: String,
    /// For a win: the learner's moves to mate against the longest defence.
    pub mate_in: Option<u16>,
    /// The learner's moves allowed.
    pub limit: u16,
}

/// An ending in one language.
#[derive(Serialize)]
pub struct EndgameView {
    /// The ending's id, e.g. `chariot-advisor`.
    pub id: String,
    /// Its Chinese name, e.g. `单车胜单士`.
    pub chinese: String,
    /// Its name in the language.
    pub title: String,
    /// The material, e.g. `KRKA`.
    pub ending: String,
    /// `win` or `draw`.
    pub goal: &'static str,
    /// The table's state: `ready`, `preparing`, `failed` or `missing`.
    pub table: &'static str,
    /// The plan.
    pub pages: Vec<PlanView>,
    /// The positions, easiest first.
    pub positions: Vec<PositionView>,
}

fn endgame_view(e: &Endgame, lang: Lang, tables: &TableFolder) -> EndgameView {
    let table = e.material().map_or("failed", |m| tables.state(m).0);
    EndgameView {
        id: e.id.clone(),
        chinese: e.chinese.clone(),
        title: e.title.get(lang).to_string(),
        ending: e.ending.clone(),
        goal: e.goal.name(),
        table,
        pages: e
            .pages
            .iter()
            .map(|p| PlanView {
                fen: p.fen.clone(),
                text: p.text.get(lang).to_string(),
                highlights: p.highlights.clone(),
                arrows: p.arrows.clone(),
            })
            .collect(),
        positions: e
            .positions
            .iter()
            .map(|p| PositionView {
                fen: p.fen.clone(),
                mate_in: p.mate_in,
                limit: p.limit,
            })
            .collect(),
    }
}

fn course() -> Result<&'static [Endgame], ApiError> {
    endgames().map_err(|e| ApiError::new(ErrorCode::LessonsUnreadable, e.to_string()))
}

/// The ending `id`, or 404 `no-exercise`.
fn find(id: &str) -> Result<(&'static Endgame, Ending), ApiError> {
    course()?;
    let e = endgame(id).ok_or_else(|| {
        ApiError::new(
            ErrorCode::NoExercise,
            format!("no ending {id:?} in the course"),
        )
        .with_params(serde_json::json!({ "lesson": id }))
    })?;
    let ending = e
        .material()
        .map_err(|err| ApiError::new(ErrorCode::LessonsUnreadable, err.to_string()))?;
    Ok((e, ending))
}

/// `GET /api/endgames?lang=en|ru|zh`: every ending of the course in course order.
pub async fn list(
    State(state): State<AppState>,
    Params(query): Params<EndgamesQuery>,
) -> Result<Json<Vec<EndgameView>>, ApiError> {
    let Language(lang) = query.lang;
    Ok(Json(
        course()?
            .iter()
            .map(|e| endgame_view(e, lang, &state.endgames))
            .collect(),
    ))
}

/// The state of an ending's table.
#[derive(Serialize)]
pub struct TableView {
    /// The material, e.g. `KRKA`.
    pub ending: String,
    /// `ready`, `preparing`, `failed` or `missing`.
    pub state: &'static str,
    /// Why the last generation failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// `GET /api/endgames/{id}/table`: whether the ending's table is ready.
pub async fn table_state(
    State(state): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<TableView>, ApiError> {
    let (_, ending) = find(&id)?;
    let (s, reason) = state.endgames.state(ending);
    Ok(Json(TableView {
        ending: ending.name(),
        state: s,
        reason,
    }))
}

/// `POST /api/endgames/{id}/table`: makes the ending's table when it is missing and answers
/// once it is ready (at once when it already is).
pub async fn prepare(
    State(state): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<TableView>, ApiError> {
    let (_, ending) = find(&id)?;
    state.endgames.prepare(ending).await?;
    Ok(Json(TableView {
        ending: ending.name(),
        state: "ready",
        reason: None,
    }))
}

/// The body of `POST /api/endgames/play`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The ending's id.
    pub lesson: String,
    /// The position's place in the ending, from 0.
    pub position: usize,
    /// The learner's moves so far, in order (ICCS); the app's replies are the server's.
    #[serde(default)]
    pub moves: Vec<Iccs>,
}

/// A result for one side: `win`, `draw` or `loss`, with the winner's moves to mate.
#[derive(Serialize, Clone, Copy)]
pub struct ResultView {
    /// `win`, `draw` or `loss`, for the learner.
    pub result: &'static str,
    /// The winner's moves to mate (none for a draw).
    pub mate_in: Option<u16>,
}

fn result_view(v: Value) -> ResultView {
    ResultView {
        result: v.word(),
        mate_in: mate_in(v),
    }
}

/// One learner move, judged.
#[derive(Serialize)]
pub struct StepView {
    /// The learner's move.
    pub mv: MoveView,
    /// `best`, `slower`, `slipped`, `held` or `lost`.
    pub verdict: &'static str,
    /// The learner's result before the move.
    pub before: ResultView,
    /// The learner's result after it.
    pub after: ResultView,
    /// The table's best move in the position (the one to name after a slip).
    pub best: MoveView,
    /// The app's reply, none when the learner's move ended the attempt.
    pub reply: Option<MoveView>,
}

/// A legal move of the learner's now, with the table's result for it.
#[derive(Serialize)]
pub struct OptionView {
    /// The move (ICCS).
    pub iccs: String,
    /// Its result for the learner.
    #[serde(flatten)]
    pub result: ResultView,
}

/// The learner's moves played out.
#[derive(Serialize)]
pub struct PlayView {
    /// The ending's id.
    pub lesson: String,
    /// The position's place.
    pub position: usize,
    /// `win` or `draw`.
    pub goal: &'static str,
    /// The position now, as FEN.
    pub fen: String,
    /// Whether the side to move is in check.
    pub check: bool,
    /// `playing`, `won`, `held`, `out-of-moves` or `lost`.
    pub status: &'static str,
    /// When the side to move has no move: mated or stalemated, and where its general is.
    pub ending: Option<EndingView>,
    /// The learner's result at the start.
    pub start: ResultView,
    /// The learner's result now.
    pub now: ResultView,
    /// The learner's moves so far.
    pub moves_used: usize,
    /// The learner's moves allowed.
    pub limit: u16,
    /// For a win: the fewest moves the mate takes by the table.
    pub shortest: Option<u16>,
    /// Every learner move, judged, with the app's reply.
    pub steps: Vec<StepView>,
    /// While playing: every legal move of the learner with the table's result, best first.
    pub options: Vec<OptionView>,
}

/// `POST /api/endgames/play`: plays the learner's moves from position `position` of ending
/// `lesson`, each judged by the table and answered by the app's move (the table made first
/// when missing). 404 `no-exercise` for an unknown ending or position, 400 for too many or
/// unreadable moves, 422 `illegal-move` with the rules' reason for an illegal move, 409
/// `game-over` for a move after the attempt ended.
pub async fn play_moves(
    State(state): State<AppState>,
    Body(req): Body<PlayRequest>,
) -> Result<Json<PlayView>, ApiError> {
    if req.moves.len() > MAX_MOVES {
        return Err(ApiError::new(
            ErrorCode::OverLimit,
            format!("at most {MAX_MOVES} moves, not {}", req.moves.len()),
        ));
    }
    let (e, ending) = find(&req.lesson)?;
    let Some(p) = e.positions.get(req.position) else {
        return Err(ApiError::new(
            ErrorCode::NoExercise,
            format!("ending {:?} has no position {}", req.lesson, req.position),
        )
        .with_params(serde_json::json!({ "lesson": req.lesson, "exercise": req.position })));
    };
    let tables = state.endgames.prepare(ending).await?;
    let moves: Vec<_> = req.moves.iter().map(|&Iccs(m)| m).collect();
    let (fen, goal, limit) = (p.fen.clone(), e.goal, p.limit);
    let played = tokio::task::spawn_blocking(move || -> Result<_, ApiError> {
        let attempt = match play(&tables, &fen, goal, limit, &moves) {
            Ok(a) => a,
            Err(PlayError::Illegal { position, mv, .. }) => {
                legal(&position, mv)?;
                return Err(ApiError::new(
                    ErrorCode::IllegalMove,
                    format!("{mv} is not legal here"),
                ));
            }
            Err(PlayError::Over { index }) => {
                return Err(ApiError::new(
                    ErrorCode::GameOver,
                    format!("move {} comes after the end of the attempt", index + 1),
                ));
            }
            Err(err) => return Err(ApiError::new(ErrorCode::Internal, err.to_string())),
        };
        let options = if attempt.status == Status::Playing {
            tables
                .probe(&attempt.position)
                .map_err(|err| ApiError::new(ErrorCode::Internal, err.to_string()))?
                .moves
                .iter()
                .map(|m| OptionView {
                    iccs: m.mv.to_string(),
                    result: result_view(m.value),
                })
                .collect()
        } else {
            Vec::new()
        };
        Ok((attempt, options))
    })
    .await
    .map_err(|err| ApiError::new(ErrorCode::Internal, err.to_string()))??;
    let (attempt, options) = played;
    let steps = attempt
        .steps
        .iter()
        .map(|s| {
            let moved = s.position.after(s.mv);
            StepView {
                mv: MoveView::new(&s.position, s.mv),
                verdict: s.verdict.name(),
                before: result_view(s.before),
                after: result_view(s.after),
                best: MoveView::new(&s.position, s.best),
                reply: s.reply.map(|r| MoveView::new(&moved, r)),
            }
        })
        .collect();
    Ok(Json(PlayView {
        lesson: req.lesson,
        position: req.position,
        goal: e.goal.name(),
        fen: attempt.position.to_fen(),
        check: attempt.position.in_check(),
        status: attempt.status.name(),
        ending: EndingView::of(&attempt.position),
        start: result_view(attempt.start),
        now: result_view(attempt.now),
        moves_used: attempt.moves_used(),
        limit: p.limit,
        shortest: p.mate_in,
        steps,
        options,
    }))
}

/// The endgame course's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/endgames", get(list))
        .route("/api/endgames/play", post(play_moves))
        .route("/api/endgames/{id}/table", get(table_state).post(prepare))
}
