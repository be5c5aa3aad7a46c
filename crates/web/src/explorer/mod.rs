//! The opening explorer: from a position in the first 20 moves of a game from the initial
//! position, each move that leads to an ECCO code, with the code's names and the engine's
//! short look at the move (`GET /api/games/{id}/explorer?ply=N`).
//!
//! A move counts when it enters another named code than the position's own (the catch-all
//! `A00`, "other openings", is no line to follow), or when a line of the classification from
//! the position's code needs it on the way to a deeper code (e.g. 马二进三 after 中炮对进左马
//! heads for the Screen Horses codes). The rows come main lines first: the moves whose codes
//! the classification's lines go on from most (the more general openings), then the engine's
//! evaluation for the side to move.

use axum::Router;
use axum::routing::get;

use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::Params;
use crate::kit::games::with_game;
use crate::kit::search::{request_for, run_search};
use crate::kit::search_pool::SearchKind;
use crate::kit::state::AppState;
use crate::kit::view::{MoveView, OpeningView};
use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use xiangqi_engine::levels::{Level, MAX_LEVEL};
use xiangqi_engine::score::Reported;
use xiangqi_engine::{EngineOptions, SearchLimits};
use xiangqi_rules::{Color, Move, Position};
use xiangqi_teaching::openings::{self, Continuation, Opening};

/// The explorer covers the first 20 moves of each side (40 plies).
pub const EXPLORER_PLIES: usize = 40;
/// Depth of the engine's search of the position after each continuation.
const EXPLORER_DEPTH: i32 = 7;
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

/// How many codes `opening` stands for: itself and those its lines go on to.
fn width(opening: &Opening) -> usize {
    1 + openings::lines_below(opening.code).len()
}

/// The code that classifies games no line of the classification names.
const OTHER_OPENINGS: &str = "A00";

/// A move the explorer lists: the code it enters, or the codes it heads for.
struct Found {
    mv: Move,
    enters: bool,
    /// Never empty; the most general first.
    toward: Vec<Opening>,
}

/// `c` as the explorer lists it after `moves` at the `current` code, if it does.
fn found(current: Option<&Opening>, moves: &[Move], c: Continuation) -> Option<Found> {
    if current != Some(&c.opening) {
        return (c.opening.code != OTHER_OPENINGS).then(|| Found {
            mv: c.mv,
            enters: true,
            toward: vec![c.opening],
        });
    }
    let toward = openings::heads_toward(current?.code, moves, c.mv);
    (!toward.is_empty()).then_some(Found {
        mv: c.mv,
        enters: false,
        toward,
    })
}

/// Sort key for a row: the more general codes first, then the better evaluation for the
/// side to move (`mover`).
fn order_key(row: &ExplorerRow, mover: Color) -> (std::cmp::Reverse<usize>, i64) {
    let score = row.score_red.map_or(i64::MIN / 2, |s| {
        i64::from(if mover == Color::Red { s } else { -s }.centipawns())
    });
    (std::cmp::Reverse(row.lines), -score)
}

/// `GET /api/games/{id}/explorer?ply=N`: the named continuations from the game's position
/// after ply `N` (its current one when absent). Refused with `opening-not-from-start` for a
/// game set up from another position, `opening-too-late` beyond move 20 and `bad-ply` for a
/// ply the game has not reached.
pub async fn explore(
    State(AppState { sessions, pool, .. }): State<AppState>,
    Path(id): Path<String>,
    Params(req): Params<ExplorerQuery>,
) -> Result<Json<Explorer>, ApiError> {
    let (moves, version, request, stop) = with_game(&sessions, &id, |s| {
        if !openings::is_initial(s.game.start()) {
            return Err(ApiError::new(
                ErrorCode::OpeningNotFromStart,
                "openings are explored only in games from the initial position",
            ));
        }
        let played = s.game.moves().len();
        let ply = req.ply.unwrap_or(played);
        if ply > played {
            return Err(ApiError::new(
                ErrorCode::BadPly,
                format!("the game has {played} plies, not {ply}"),
            ));
        }
        if ply >= EXPLORER_PLIES {
            return Err(ApiError::new(
                ErrorCode::OpeningTooLate,
                format!(
                    "openings are explored in the first {} moves only",
                    EXPLORER_PLIES / 2
                ),
            )
            .with_params(serde_json::json!({ "moves": EXPLORER_PLIES / 2 })));
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
    let found: Vec<Found> = openings::continuations(&moves)
        .map_err(|e| ApiError::new(ErrorCode::OpeningError, e.to_string()))?
        .into_iter()
        .filter_map(|c| found(current.as_ref(), &moves, c))
        .collect();
    let search_moves: Vec<Move> = found.iter().map(|c| c.mv).collect();
    // Scores from Red's point of view, with the depth searched from the explored position.
    let scores: HashMap<Move, (Reported, i32)> = if search_moves.is_empty() {
        HashMap::new()
    } else {
        run_search(&pool, &id, SearchKind::Analysis, &stop, move |engine| {
            engine.set_options(EngineOptions {
                level: Level::new(MAX_LEVEL),
                multipv: 1,
                ..engine.options().clone()
            });
            // Each move searched on its own, so that one line's search does not shape the
            // next one's; the moves left when the time is up get no evaluation.
            let deadline = Instant::now() + EXPLORER_TIME;
            let mut scores = HashMap::new();
            for mv in search_moves {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    break;
                }
                // The position after the move, searched for the other side.
                let mut history = request.history.clone();
                history.push(request.position.hash());
                let mut history_moves = request.history_moves.clone();
                history_moves.push(mv);
                let request = xiangqi_engine::SearchRequest {
                    position: request.position.after(mv),
                    history,
                    history_moves,
                    limits: SearchLimits {
                        depth: Some(EXPLORER_DEPTH),
                        movetime: Some(left),
                        ..SearchLimits::default()
                    },
                    ..request.clone()
                };
                let result = engine.think(&request, &mut |_| {});
                if let Some(line) = result.lines.first() {
                    let score_red = line.score.for_red(request.position.side_to_move());
                    scores.insert(mv, (score_red, line.depth + 1));
                }
            }
            scores
        })
        .await?
    };
    let mover = pos.side_to_move();
    let mut rows: Vec<ExplorerRow> = found
        .iter()
        .map(|c| {
            let seen = scores.get(&c.mv);
            ExplorerRow {
                mv: MoveView::new(&pos, c.mv),
                opening: OpeningView::from(&c.toward[0]),
                enters: c.enters,
                toward: if c.enters {
                    Vec::new()
                } else {
                    let mut toward: Vec<_> = c.toward.iter().map(OpeningView::from).collect();
                    toward.sort_unstable_by_key(|o| o.code);
                    toward
                },
                lines: c.toward.iter().map(width).sum(),
                score_red: seen.map(|&(s, _)| s),
                depth: seen.map_or(0, |&(_, d)| d),
            }
        })
        .collect();
    rows.sort_by_key(|r| order_key(r, mover));
    Ok(Json(Explorer {
        ply: moves.len(),
        version,
        opening: current.as_ref().map(OpeningView::from),
        rows,
    }))
}

/// The opening explorer's route.
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/games/{id}/explorer", get(explore))
}
