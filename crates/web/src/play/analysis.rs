//! Analysis: the best lines from the current position, either at once after a fixed time
//! (`POST …/analyse`) or as a stream of server-sent events that deepens until the position
//! changes, the time is up or the page stops listening (`GET …/analysis`).

use crate::kit::error::ApiError;
use crate::kit::extract::{Body, Params};
use crate::kit::games::with_game;
use crate::kit::limits::{self, ANALYSIS_MS_MAX};
use crate::kit::search::{Prepared, prepare_search, run_search};
use crate::kit::search_pool::{SearchKind, SearchPool, SearchStop};
use crate::kit::session::Sessions;
use crate::kit::state::AppState;
use crate::kit::stream::stream_search;
use crate::kit::stream::{self, StreamSearch};
use axum::Json;
use axum::extract::{Path, State};
use axum::response::sse::{Event, Sse};
use futures_util::Stream;
use serde::{Deserialize, Serialize};
use std::convert::Infallible;
use std::time::Duration;
use xiangqi_engine::levels::{Level, MAX_LEVEL};
use xiangqi_engine::score::Reported;
use xiangqi_engine::{EngineOptions, SearchInfo, SearchLimits, SearchRequest};
use xiangqi_rules::notation::{Notation, format_move};
use xiangqi_rules::{Move, Position};

/// Most lines an analysis shows.
pub(crate) const MAX_LINES: usize = 5;

/// What to analyse: how many lines and for how long.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    /// Lines to show (1–5).
    #[serde(default = "one")]
    pub lines: usize,
    /// Thinking time in milliseconds (at most [`ANALYSIS_MS_MAX`]).
    #[serde(default = "default_millis")]
    pub millis: u64,
}

fn one() -> usize {
    1
}

fn default_millis() -> u64 {
    800
}

/// One line of an analysis.
#[derive(Serialize, Clone)]
pub struct AnalysisLine {
    /// Score from Red's point of view: `{"cp": n}` or `{"mate": n}` (moves, positive when
    /// Red mates).
    pub score_red: Reported,
    /// Depth searched.
    pub depth: i32,
    /// The moves, ICCS.
    pub pv: Vec<String>,
    /// The moves in WXF, from the analysed position.
    pub pv_wxf: Vec<String>,
    /// The moves in Chinese notation, from the analysed position.
    pub pv_chinese: Vec<String>,
}

impl AnalysisLine {
    /// The line `pv` from `pos` with `score` for the side to move after `depth` plies.
    fn new(pos: &Position, score: Reported, depth: i32, pv: &[Move]) -> AnalysisLine {
        let mut p = pos.clone();
        let (mut wxf, mut chinese) = (Vec::new(), Vec::new());
        for &m in pv {
            if !p.is_legal(m) {
                break;
            }
            wxf.push(format_move(&p, m, Notation::Wxf));
            chinese.push(format_move(&p, m, Notation::Chinese));
            p = p.after(m);
        }
        AnalysisLine {
            score_red: score.for_red(pos.side_to_move()),
            depth,
            pv: pv.iter().map(|m| m.to_string()).collect(),
            pv_wxf: wxf,
            pv_chinese: chinese,
        }
    }

    fn of(pos: &Position, info: &SearchInfo) -> AnalysisLine {
        AnalysisLine::new(pos, info.score, info.depth, &info.pv)
    }
}

/// The request for game `id`'s current position, searched for `time`.
fn prepare(sessions: &Sessions, id: &str, time: Duration) -> Result<Prepared, ApiError> {
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

/// Sets `engine` to full strength with `lines` lines.
fn analyst(engine: &mut xiangqi_engine::Engine, lines: usize) {
    engine.set_options(EngineOptions {
        level: Level::new(MAX_LEVEL),
        multipv: lines,
        ..engine.options().clone()
    });
}

/// `POST /api/games/{id}/analyse`: the best lines from the current position after the time
/// asked for.
pub async fn analyse(
    State(AppState { sessions, pool, .. }): State<AppState>,
    Path(id): Path<String>,
    Body(req): Body<AnalyseRequest>,
) -> Result<Json<Vec<AnalysisLine>>, ApiError> {
    let lines = req.lines.clamp(1, MAX_LINES);
    limits::at_most("millis", req.millis, ANALYSIS_MS_MAX, "ms")?;
    let time = Duration::from_millis(req.millis.max(1));
    let Prepared { request, stop, .. } = prepare(&sessions, &id, time)?;
    let pos = request.position.clone();
    let result = run_search(&pool, &id, SearchKind::Analysis, &stop, move |engine| {
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

/// What a streamed analysis shows: how many lines and for how long at most.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamRequest {
    /// Lines to show (1–5).
    #[serde(default = "one")]
    pub lines: usize,
    /// The longest the analysis runs, in milliseconds (at most [`ANALYSIS_MS_MAX`]; 20 000 when absent).
    #[serde(default = "default_stream_millis")]
    pub millis: u64,
}

fn default_stream_millis() -> u64 {
    20_000
}

/// One event of a streamed analysis: the lines as they stand, and whether the search ended.
#[derive(Serialize)]
pub struct AnalysisUpdate {
    /// The game's change count the analysis belongs to.
    pub version: u64,
    /// The best lines so far, best first.
    pub lines: Vec<AnalysisLine>,
    /// Whether this is the last event.
    pub done: bool,
}

/// `GET /api/games/{id}/analysis?lines=N&millis=T`: server-sent events, one `lines` event
/// each time a line deepens and a last one with `done` set. The search stops when the game
/// changes, when `millis` have passed, or when the page closes the stream. The stream waits
/// for an engine of the pool before it starts (503 when the queue is full).
pub async fn analysis_stream(
    State(AppState { sessions, pool, .. }): State<AppState>,
    Path(id): Path<String>,
    Params(req): Params<StreamRequest>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let lines = req.lines.clamp(1, MAX_LINES);
    limits::at_most("millis", req.millis, ANALYSIS_MS_MAX, "ms")?;
    let time = Duration::from_millis(req.millis.max(1));
    let Prepared {
        request,
        version,
        stop,
    } = prepare(&sessions, &id, time)?;
    stream_lines(pool, id, request, version, stop, lines).await
}

/// The best `lines` lines of `request`'s position as server-sent `lines` events, each
/// marked with `version`, searched on an engine of `pool` borrowed for `key` (a game's id);
/// the search stops when `stop` is stopped, its time is up or the page stops listening.
pub(crate) async fn stream_lines(
    pool: SearchPool,
    key: String,
    request: SearchRequest,
    version: u64,
    stop: SearchStop,
    lines: usize,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let StreamSearch {
        lease,
        tx,
        rx,
        finished,
    } = stream_search(&pool, &key, &stop).await?;

    let event = |update: &AnalysisUpdate| {
        Event::default()
            .event("lines")
            .json_data(update)
            .unwrap_or_else(|_| Event::default().event("lines").data("{}"))
    };
    let search = lease.run(move |engine| {
        analyst(engine, lines);
        let pos = request.position.clone();
        let mut shown: Vec<Option<AnalysisLine>> = vec![None; lines];
        let send = |shown: &[Option<AnalysisLine>], done: bool| {
            let update = event(&AnalysisUpdate {
                version,
                lines: shown.iter().flatten().cloned().collect(),
                done,
            });
            // A closed page, or a full channel for an update that a later one replaces,
            // only means the update is not seen.
            if done {
                let _ = tx.blocking_send(update);
            } else {
                let _ = tx.try_send(update);
            }
        };
        let result = engine.think(&request, &mut |info| {
            if info.bound.is_some() || info.multipv == 0 || info.multipv > lines {
                return;
            }
            shown[info.multipv - 1] = Some(AnalysisLine::of(&pos, info));
            send(&shown, false);
        });
        for (slot, line) in shown.iter_mut().zip(&result.lines) {
            *slot = Some(AnalysisLine::of(&pos, line));
        }
        let _ = finished.send(());
        send(&shown, true);
    });
    // The search runs on its own; the stream ends when it does.
    tokio::spawn(search);
    Ok(stream::events(rx))
}
