//! Analysis: the best lines from the current position, either at once after a fixed time
//! (`POST …/analyse`) or as a stream of server-sent events that deepens until the position
//! changes, the time is up or the page stops listening (`GET …/analysis`).
//!
//! A position an endgame table on disk covers is not searched: the answer is the table's
//! exact result and distance (`table`), and its lines the table's best moves, each with its
//! own result and continued by the table's best play — one `lines` event, already `done`.

use crate::kit::analysis::{
    AnalysisLine, StreamRequest, analyst, lines_and_time, probe_tables, stream_lines,
};
use crate::kit::error::ApiError;
use crate::kit::extract::{Body, Params};
use crate::kit::games::{Games, with_game};
use crate::kit::search::{Prepared, prepare_search, run_search};
use crate::kit::search_pool::SearchKind;
use crate::kit::stream::EventStream;
use crate::state::AppState;
use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use std::time::Duration;
use xiangqi_engine::SearchLimits;

/// What to analyse: how many lines and for how long.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    /// Lines to show (1–5).
    #[serde(default = "one")]
    pub lines: usize,
    /// Thinking time in milliseconds (at most [`ANALYSIS_MS_MAX`](crate::kit::limits::ANALYSIS_MS_MAX)).
    #[serde(default = "default_millis")]
    pub millis: u64,
}

fn one() -> usize {
    1
}

fn default_millis() -> u64 {
    800
}

/// The request for game `id`'s current position, searched for `time`.
fn prepare(sessions: &Games, id: &str, time: Duration) -> Result<Prepared, ApiError> {
    with_game(sessions, id, |s| {
        prepare_search(
            s,
            SearchLimits {
                movetime: Some(time),
                ..SearchLimits::default()
            },
        )
    })
}

/// `POST /api/games/{id}/analyse`: the best lines from the current position after the time
/// asked for.
pub async fn analyse(
    games: Games,
    State(app): State<AppState>,
    Path(id): Path<String>,
    Body(req): Body<AnalyseRequest>,
) -> Result<Json<Vec<AnalysisLine>>, ApiError> {
    let (lines, time) = lines_and_time(req.lines, req.millis)?;
    let Prepared { request, stop, .. } = prepare(&games, &id, time)?;
    let pos = request.position.clone();
    if let Some((_, shown)) = probe_tables(app.endgames.present(), &pos, lines).await {
        return Ok(Json(shown));
    }
    let result = run_search(&app.pool, &id, SearchKind::Analysis, &stop, move |engine| {
        analyst(engine, lines);
        engine.think(&request, &mut |_| {})
    })
    .await?;
    Ok(Json(
        result
            .lines
            .iter()
            .take(lines)
            .map(|l| AnalysisLine::of(&pos, l))
            .collect(),
    ))
}

/// `GET /api/games/{id}/analysis?lines=N&millis=T`: server-sent events, one `lines` event
/// each time a line deepens and a last one with `done` set. The search stops when the game
/// changes, when `millis` have passed, or when the page closes the stream. The stream waits
/// for an engine of the pool before it starts (503 when the queue is full).
pub async fn analysis_stream(
    games: Games,
    State(app): State<AppState>,
    Path(id): Path<String>,
    Params(req): Params<StreamRequest>,
) -> Result<EventStream, ApiError> {
    let (lines, time) = lines_and_time(req.lines, req.millis)?;
    let Prepared {
        request,
        version,
        stop,
    } = prepare(&games, &id, time)?;
    let tables = app.endgames.present();
    stream_lines(app.pool, tables, id, request, version, stop, lines).await
}
