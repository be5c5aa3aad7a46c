//! Analysis: the best lines from the current position, either at once after a fixed time
//! (`POST …/analyse`) or as a stream of server-sent events that deepens until the position
//! changes, the time is up or the page stops listening (`GET …/analysis`).
//!
//! A position an endgame table on disk covers is not searched: the answer is the table's
//! exact result and distance (`table`), and its lines the table's best moves, each with its
//! own result and continued by the table's best play — one `lines` event, already `done`.

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
use crate::kit::view::side_code;
use axum::Json;
use axum::extract::{Path, State};
use axum::response::sse::{Event, Sse};
use futures_util::Stream;
use serde::{Deserialize, Serialize};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use xiangqi_egtb::{Tablebases, Value};
use xiangqi_engine::levels::{Level, MAX_LEVEL};
use xiangqi_engine::score::Reported;
use xiangqi_engine::{EngineOptions, SearchInfo, SearchLimits, SearchRequest};
use xiangqi_rules::notation::{Notation, format_move};
use xiangqi_rules::{Color, Move, Position};
use xiangqi_teaching::review::EndgameTables;
use xiangqi_teaching::review::table;

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
    /// For a line from an endgame table: the exact result of its first move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<TableResult>,
}

/// An exact result from the endgame tables.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableResult {
    /// Who wins, `red` or `black`, or `draw`.
    pub result: &'static str,
    /// For a win: the winner's moves to mate from the analysed position.
    pub mate_in: Option<u16>,
}

impl TableResult {
    /// `value`, for `side`, as who wins and in how many moves.
    fn of(value: Value, side: Color) -> TableResult {
        let result = match value {
            Value::Win(_) => side_code(side),
            Value::Loss(_) => side_code(side.opponent()),
            Value::Draw => "draw",
        };
        TableResult {
            result,
            mate_in: table::mate_moves(value),
        }
    }
}

/// Plies of a table line shown.
const TABLE_LINE_PLIES: usize = 12;

/// The tables' answer for `pos`, when a table on disk covers it: the result and the best
/// `lines` moves, each with its own result and the table's best play after it.
pub(crate) fn table_lines(
    tables: &Tablebases,
    pos: &Position,
    lines: usize,
) -> Option<(TableResult, Vec<AnalysisLine>)> {
    let probe = EndgameTables::probe(tables, pos)?;
    let side = pos.side_to_move();
    let shown = probe
        .moves
        .iter()
        .take(lines)
        .map(|m| {
            let pv = table::line_from(tables, pos, m.mv, TABLE_LINE_PLIES);
            AnalysisLine {
                table: Some(TableResult::of(m.value, side)),
                ..AnalysisLine::new(pos, table::reported(m.value), 0, &pv)
            }
        })
        .collect();
    Some((TableResult::of(probe.value, side), shown))
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
            table: None,
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
    State(AppState {
        sessions,
        pool,
        endgames,
        ..
    }): State<AppState>,
    Path(id): Path<String>,
    Body(req): Body<AnalyseRequest>,
) -> Result<Json<Vec<AnalysisLine>>, ApiError> {
    let (lines, time) = lines_and_time(req.lines, req.millis)?;
    let Prepared { request, stop, .. } = prepare(&sessions, &id, time)?;
    let pos = request.position.clone();
    if let Some((_, shown)) = probe_tables(endgames.present(), &pos, lines).await {
        return Ok(Json(shown));
    }
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

/// The `lines` asked for, held to 1–[`MAX_LINES`], and `millis` as the search time; more than
/// [`ANALYSIS_MS_MAX`] is refused.
pub fn lines_and_time(lines: usize, millis: u64) -> Result<(usize, Duration), ApiError> {
    limits::at_most("millis", millis, ANALYSIS_MS_MAX, "ms")?;
    Ok((
        lines.clamp(1, MAX_LINES),
        Duration::from_millis(millis.max(1)),
    ))
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
    /// Where an endgame table covers the position: its exact result (the lines are then the
    /// table's, and this event the only one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<TableResult>,
}

/// [`table_lines`] off the async threads (a table is read from disk when first asked for);
/// `None` without tables or when none covers `pos`.
async fn probe_tables(
    tables: Option<Arc<Tablebases>>,
    pos: &Position,
    lines: usize,
) -> Option<(TableResult, Vec<AnalysisLine>)> {
    let tables = tables?;
    let pos = pos.clone();
    tokio::task::spawn_blocking(move || table_lines(&tables, &pos, lines))
        .await
        .ok()
        .flatten()
}

/// `GET /api/games/{id}/analysis?lines=N&millis=T`: server-sent events, one `lines` event
/// each time a line deepens and a last one with `done` set. The search stops when the game
/// changes, when `millis` have passed, or when the page closes the stream. The stream waits
/// for an engine of the pool before it starts (503 when the queue is full).
pub async fn analysis_stream(
    State(AppState {
        sessions,
        pool,
        endgames,
        ..
    }): State<AppState>,
    Path(id): Path<String>,
    Params(req): Params<StreamRequest>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let (lines, time) = lines_and_time(req.lines, req.millis)?;
    let Prepared {
        request,
        version,
        stop,
    } = prepare(&sessions, &id, time)?;
    let tables = endgames.present();
    stream_lines(pool, tables, id, request, version, stop, lines).await
}

/// The best `lines` lines of `request`'s position as server-sent `lines` events, each
/// marked with `version`, searched on an engine of `pool` borrowed for `key` (a game's id);
/// the search stops when `stop` is stopped, its time is up or the page stops listening. A
/// position one of `tables` covers is answered by the table in one event, with no search.
pub(crate) async fn stream_lines(
    pool: SearchPool,
    tables: Option<Arc<Tablebases>>,
    key: String,
    request: SearchRequest,
    version: u64,
    stop: SearchStop,
    lines: usize,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    if let Some((result, shown)) = probe_tables(tables, &request.position, lines).await {
        let update = AnalysisUpdate {
            version,
            lines: shown,
            done: true,
            table: Some(result),
        };
        let (tx, rx) = tokio::sync::mpsc::channel::<Event>(1);
        let _ = tx.try_send(
            Event::default()
                .event("lines")
                .json_data(&update)
                .unwrap_or_else(|_| Event::default().event("lines").data("{}")),
        );
        return Ok(stream::events(rx));
    }
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
                table: None,
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
