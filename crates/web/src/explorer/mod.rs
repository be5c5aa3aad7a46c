//! The opening explorer: from a position in the first 20 moves of a game from the initial
//! position, each move that leads to an ECCO code, with the code's names and the engine's
//! short look at the move (`GET /api/games/{id}/explorer?ply=N`).
//!
//! Which moves are listed and in what order is teaching's
//! [`xiangqi_teaching::openings::explorer`]; this module asks the engine of the pool for
//! their scores and writes the answer.

use axum::Router;
use axum::routing::get;

use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::Params;
use crate::kit::games::{Games, with_game};
use crate::kit::search::{request_for, run_search};
use crate::kit::search_pool::SearchKind;
use crate::kit::view::{MoveView, OpeningView};
use crate::state::AppState;
use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use xiangqi_engine::levels::{Level, MAX_LEVEL};
use xiangqi_engine::score::Reported;
use xiangqi_engine::{EngineOptions, SearchLimits};
use xiangqi_teaching::openings::explorer::{self, EXPLORER_PLIES, Exploration, ExplorerError};

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
    /// The ECCO opening the game reaches with it, or for a move on the way to deeper codes
    /// the most general of them.
    pub opening: OpeningView,
    /// Whether the move itself reaches `opening`; false for a move on the way to it.
    pub enters: bool,
    /// For a move on the way: every opening the lines it follows lead to, in code order, each
    /// with its names (the page lists them).
    pub toward: Vec<OpeningView>,
    /// How many codes the move leads to: those reached or headed for and every code the
    /// classification's lines go on to from them.
    pub lines: usize,
    /// The engine's evaluation after the move, from Red's point of view: `{"cp": n}` or
    /// `{"mate": n}`; null when the search ran out of time before it.
    pub score_red: Option<Reported>,
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

/// `GET /api/games/{id}/explorer?ply=N`: the named continuations from the game's position
/// after ply `N` (its current one when absent). Refused with `opening-not-from-start` for a
/// game set up from another position, `opening-too-late` beyond move 20 and `bad-ply` for a
/// ply the game has not reached.
pub async fn explore(
    sessions: Games,
    State(AppState { pool, .. }): State<AppState>,
    Path(id): Path<String>,
    Params(req): Params<ExplorerQuery>,
) -> Result<Json<Explorer>, ApiError> {
    let (ply, exploration, version, request, stop) = with_game(&sessions, &id, |s| {
        let played = s.game().moves().len();
        let ply = req.ply.unwrap_or(played);
        if ply > played {
            return Err(ApiError::new(
                ErrorCode::BadPly,
                format!("the game has {played} plies, not {ply}"),
            )
            .with_params(serde_json::json!({ "ply": ply, "moves": played })));
        }
        let exploration =
            Exploration::new(s.game().start(), &s.game().moves()[..ply]).map_err(explorer_error)?;
        let mut request = request_for(s, SearchLimits::default());
        request.position = exploration.position.clone();
        // Browsing back: the game's later history does not belong to the position.
        if ply < played {
            request.history.clear();
            request.history_moves.clear();
        }
        Ok((ply, exploration, s.version, request, s.start_search()))
    })?;
    let moves = exploration.moves();
    let scores = if moves.is_empty() {
        HashMap::new()
    } else {
        run_search(&pool, &id, SearchKind::Analysis, &stop, move |engine| {
            engine.set_options(EngineOptions {
                level: Level::new(MAX_LEVEL),
                multipv: 1,
                ..engine.options().clone()
            });
            explorer::evaluate(engine, &request, &moves)
        })
        .await?
    };
    let pos = &exploration.position;
    let rows = exploration
        .rank(&scores)
        .iter()
        .map(|row| ExplorerRow {
            mv: MoveView::new(pos, row.mv),
            opening: OpeningView::from(&row.opening),
            enters: row.enters,
            toward: row.toward.iter().map(OpeningView::from).collect(),
            lines: row.lines,
            score_red: row.score_red,
            depth: row.depth,
        })
        .collect();
    Ok(Json(Explorer {
        ply,
        version,
        opening: exploration.opening.as_ref().map(OpeningView::from),
        rows,
    }))
}

/// The answer for a position the explorer refuses: `opening-not-from-start`,
/// `opening-too-late` (blank `moves`) or `opening-error`.
fn explorer_error(e: ExplorerError) -> ApiError {
    let message = e.to_string();
    match e {
        ExplorerError::NotFromStart => ApiError::new(ErrorCode::OpeningNotFromStart, message),
        ExplorerError::TooLate => ApiError::new(ErrorCode::OpeningTooLate, message)
            .with_params(serde_json::json!({ "moves": EXPLORER_PLIES / 2 })),
        ExplorerError::Classification(_) => ApiError::new(ErrorCode::OpeningError, message),
    }
}

/// The opening explorer's route.
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/games/{id}/explorer", get(explore))
}
