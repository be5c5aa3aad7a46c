//! A position's best lines, as the Play view's analysis and the spectators' analysis of a
//! room show them: the lines as the page gets them, the endgame tables' exact lines where a
//! table covers the position, and the stream of `lines` events that deepens until the search
//! is stopped, its time is up or the page stops listening.

use crate::kit::error::ApiError;
use crate::kit::limits::{self, ANALYSIS_MS_MAX};
use crate::kit::search_pool::{SearchPool, SearchStop};
use crate::kit::stream::{self, EventStream, event, stream_search};
use crate::kit::view::side_code;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use xiangqi_egtb::{Tablebases, Value};
use xiangqi_engine::levels::{Level, MAX_LEVEL};
use xiangqi_engine::score::Reported;
use xiangqi_engine::{EngineOptions, SearchInfo, SearchRequest};
use xiangqi_rules::notation::{Notation, format_move};
use xiangqi_rules::{Color, Move, Position};
use xiangqi_teaching::review::EndgameTables;
use xiangqi_teaching::review::table;

/// Most lines an analysis shows.
pub const MAX_LINES: usize = 5;

fn one() -> usize {
    1
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

    pub(crate) fn of(pos: &Position, info: &SearchInfo) -> AnalysisLine {
        AnalysisLine::new(pos, info.score, info.depth, &info.pv)
    }
}

/// Sets `engine` to full strength with `lines` lines.
pub(crate) fn analyst(engine: &mut xiangqi_engine::Engine, lines: usize) {
    engine.set_options(EngineOptions {
        level: Level::new(MAX_LEVEL),
        multipv: lines,
        ..engine.options().clone()
    });
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
pub(crate) async fn probe_tables(
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
) -> Result<EventStream, ApiError> {
    if let Some((result, shown)) = probe_tables(tables, &request.position, lines).await {
        let update = AnalysisUpdate {
            version,
            lines: shown,
            done: true,
            table: Some(result),
        };
        return Ok(stream::one_event(event("lines", &update)));
    }
    stream_search(&pool, &key, &stop, move |engine, events| {
        analyst(engine, lines);
        let pos = request.position.clone();
        let mut shown: Vec<Option<AnalysisLine>> = vec![None; lines];
        let update = |shown: &[Option<AnalysisLine>], done: bool| {
            event(
                "lines",
                &AnalysisUpdate {
                    version,
                    lines: shown.iter().flatten().cloned().collect(),
                    done,
                    table: None,
                },
            )
        };
        let result = engine.think(&request, &mut |info| {
            if info.bound.is_some() || info.multipv == 0 || info.multipv > lines {
                return;
            }
            shown[info.multipv - 1] = Some(AnalysisLine::of(&pos, info));
            events.update(update(&shown, false));
        });
        for (slot, line) in shown.iter_mut().zip(&result.lines) {
            *slot = Some(AnalysisLine::of(&pos, line));
        }
        events.last(update(&shown, true));
    })
    .await
}
