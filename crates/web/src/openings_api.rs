//! The opening explorer: from a position in the first 20 moves of a game from the initial
//! position, each move that leads to an ECCO code, with the code's names and the engine's
//! short look at the move (`GET /api/games/{id}/openings?ply=N`).
//!
//! A move counts when it enters another named code than the position's own (the catch-all
//! `A00`, "other openings", is no line to follow). The rows come main lines first: the codes
//! that the classification's lines go on from most (the more general openings), then the
//! engine's evaluation for the side to move.

use crate::api::{request_for, run_search, with_game};
use crate::error::ApiError;
use crate::search_pool::SearchKind;
use crate::state::AppState;
use crate::view::{MoveView, OpeningView, ScoreView};
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::Duration;
use xiangqi_engine::levels::{Level, MAX_LEVEL};
use xiangqi_engine::score::Reported;
use xiangqi_engine::{EngineOptions, SearchLimits};
use xiangqi_rules::{Color, Move, Position};
use xiangqi_teaching::Lang;
use xiangqi_teaching::openings::{self, Opening};

/// The explorer covers the first 20 moves of each side (40 plies).
pub const EXPLORER_PLIES: usize = 40;
/// Depth of the engine's look at each continuation.
const EXPLORER_DEPTH: i32 = 8;
/// The longest the engine looks at all continuations together.
const EXPLORER_TIME: Duration = Duration::from_millis(1500);

/// Which position to explore.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplorerQuery {
    /// The ply whose position is explored (0: the start); the game's current one when absent.
    pub ply: Option<usize>,
}

/// One continuation: the move, the opening it leads to and the engine's view of it.
#[derive(Serialize)]
pub struct ExplorerRow {
    /// The move, in every notation.
    #[serde(rename = "move")]
    pub mv: MoveView,
    /// The ECCO opening the game reaches with it.
    pub opening: OpeningView,
    /// How many codes the classification's lines go on to from the opening reached.
    pub lines: usize,
    /// The engine's evaluation after the move, from Red's point of view: `{"cp": n}` or
    /// `{"mate": n}`; null when the search ran out of time before it.
    pub score_red: Option<ScoreView>,
    /// The depth the evaluation comes from (0 when there is none).
    pub depth: i32,
}

/// The explorer's answer for one position.
#[derive(Serialize)]
pub struct Explorer {
    /// The ply explored (0: the start).
    pub ply: usize,
    /// The game's change count the answer belongs to.
    pub version: u64,
    /// The opening of the position explored, when a move has been played.
    pub opening: Option<OpeningView>,
    /// The continuations, main lines first.
    pub rows: Vec<ExplorerRow>,
}

/// The page's view of `opening`.
fn opening_view(opening: &Opening) -> OpeningView {
    OpeningView {
        code: opening.code,
        name: opening.name,
        variation: opening.variation,
        family: Lang::ALL
            .into_iter()
            .map(|lang| (lang.code(), opening.family_name(lang)))
            .collect(),
    }
}

/// 409 with `code` for a position the explorer does not cover.
fn refused(code: &str, message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, code, message)
}

/// The code that classifies games no line of the classification names.
const OTHER_OPENINGS: &str = "A00";

/// Sort key for a row: the more general codes first, then the better evaluation for the
/// side to move (`mover`).
fn order_key(row: &ExplorerRow, mover: Color) -> (std::cmp::Reverse<usize>, i64) {
    let score = row.score_red.map_or(i64::MIN / 2, |s| {
        let red = match s {
            ScoreView::Cp(cp) => i64::from(cp),
            ScoreView::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
            ScoreView::Mate(n) => -1_000_000 - i64::from(n),
        };
        if mover == Color::Red { red } else { -red }
    });
    (std::cmp::Reverse(row.lines), -score)
}

/// `GET /api/games/{id}/openings?ply=N`: the named continuations from the game's position
/// after ply `N` (its current one when absent). Refused with `opening-not-from-start` for a
/// game set up from another position, `opening-too-late` beyond move 20 and `bad-ply` for a
/// ply the game has not reached.
pub async fn explore(
    State(AppState { sessions, pool }): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<ExplorerQuery>, QueryRejection>,
) -> Result<Json<Explorer>, ApiError> {
    let Query(req) = query
        .map_err(|e| ApiError::bad_request(format!("the query is not valid: {}", e.body_text())))?;
    let (moves, version, request, stop) = with_game(&sessions, &id, |s| {
        if !openings::is_initial(s.game.start()) {
            return Err(refused(
                "opening-not-from-start",
                "openings are explored only in games from the initial position",
            ));
        }
        let played = s.game.moves().len();
        let ply = req.ply.unwrap_or(played);
        if ply > played {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad-ply",
                format!("the game has {played} plies, not {ply}"),
            ));
        }
        if ply >= EXPLORER_PLIES {
            return Err(refused(
                "opening-too-late",
                format!(
                    "openings are explored in the first {} moves only",
                    EXPLORER_PLIES / 2
                ),
            ));
        }
        let moves: Vec<Move> = s.game.moves()[..ply].to_vec();
        let mut request = request_for(s, SearchLimits::default());
        let mut pos = Position::startpos();
        for &m in &moves {
            pos.make_move(m);
        }
        request.position = pos;
        // Browsing back: the game's later history does not belong to the position.
        if ply < played {
            request.history.clear();
            request.history_moves.clear();
        }
        Ok((moves, s.version, request, s.start_search()))
    })?;
    let pos = request.position.clone();
    let current = openings::classify(&moves).ok().flatten();
    let found: Vec<_> = openings::continuations(&moves)
        .map_err(|e| ApiError::new(StatusCode::CONFLICT, "opening-error", e.to_string()))?
        .into_iter()
        .filter(|c| current != Some(c.opening) && c.opening.code != OTHER_OPENINGS)
        .collect();
    let search_moves: Vec<Move> = found.iter().map(|c| c.mv).collect();
    let scores: HashMap<Move, (Reported, i32)> = if search_moves.is_empty() {
        HashMap::new()
    } else {
        let count = search_moves.len();
        let request = xiangqi_engine::SearchRequest {
            search_moves,
            limits: SearchLimits {
                depth: Some(EXPLORER_DEPTH),
                movetime: Some(EXPLORER_TIME),
                ..SearchLimits::default()
            },
            ..request
        };
        let result = run_search(&pool, &id, SearchKind::Analysis, &stop, move |engine| {
            engine.set_options(EngineOptions {
                level: Level::new(MAX_LEVEL),
                multipv: count,
                ..engine.options().clone()
            });
            engine.think(&request, &mut |_| {})
        })
        .await?;
        result
            .lines
            .iter()
            .filter_map(|l| l.pv.first().map(|&m| (m, (l.score, l.depth))))
            .collect()
    };
    let mover = pos.side_to_move();
    let mut rows: Vec<ExplorerRow> = found
        .iter()
        .map(|c| {
            let seen = scores.get(&c.mv);
            ExplorerRow {
                mv: MoveView::new(&pos, c.mv),
                opening: opening_view(&c.opening),
                lines: openings::lines_below(c.opening.code).len(),
                score_red: seen.map(|(s, _)| s.for_red(mover).into()),
                depth: seen.map_or(0, |&(_, d)| d),
            }
        })
        .collect();
    rows.sort_by_key(|r| order_key(r, mover));
    Ok(Json(Explorer {
        ply: moves.len(),
        version,
        opening: current.as_ref().map(opening_view),
        rows,
    }))
}
