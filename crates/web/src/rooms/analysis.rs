//! The spectators' analysis of a room's game: `GET /api/rooms/{id}/analysis?lines=N&millis=T`
//! streams the best lines of the room's position as the Play view's analysis does (the same
//! `lines` events), while the players allow it. The stream stops when the position changes,
//! when the players turn the analysis off, when its time is up or when the page stops
//! listening.

use crate::kit::analysis::{StreamRequest, lines_and_time, stream_lines};
use crate::kit::error::{ApiError, ErrorCode, game_over};
use crate::kit::extract::Params;
use crate::kit::search::request_for_game;
use crate::kit::search_pool::SearchStop;
use crate::kit::stream::EventStream;
use crate::kit::viewer::Viewer;
use crate::rooms::hub::{Live, RoomCell};
use crate::state::AppState;
use axum::extract::{Path, State};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use xiangqi_engine::SearchLimits;
use xiangqi_rooms::Status;

/// 403 `analysis-off`.
fn analysis_off() -> ApiError {
    ApiError::new(
        ErrorCode::AnalysisOff,
        "the players have turned the spectators' analysis off",
    )
}

/// Whether the room in `live` may be analysed: not while its game goes on with the analysis
/// turned off, and never while a rated game goes on.
fn allowed(live: &Live) -> bool {
    live.room.status() != Status::Playing || (live.room.analysis() && !live.room.rated())
}

/// Whether `viewer` holds a seat of the room's game going on, from another browser: on a
/// hosted server, where each account and guest is known apart, a player is never shown the
/// analysis of their own game while it is played.
fn plays_here(live: &Live, viewer: &Viewer) -> bool {
    if live.room.status() != Status::Playing || *viewer == Viewer::Owner {
        return false;
    }
    let Some(owner) = viewer.owner() else {
        return false;
    };
    [xiangqi_rules::Color::Red, xiangqi_rules::Color::Black]
        .into_iter()
        .filter_map(|side| live.room.seat(side))
        .any(|seat| seat.owner.as_deref() == Some(owner.as_str()))
}

/// The room's position as the analysis saw it: the game's number and its moves.
fn position_of(live: &Live) -> (u32, usize) {
    (live.room.number(), live.room.game().moves().len())
}

/// `GET /api/rooms/{id}/analysis`: the room's position analysed, as server-sent events.
pub async fn analysis_stream(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
    Params(req): Params<StreamRequest>,
) -> Result<EventStream, ApiError> {
    let (lines, time) = lines_and_time(req.lines, req.millis)?;
    let cell = app.rooms.find(&id).await?;
    let mut states = cell.states.subscribe();
    let (request, seen) = {
        let live = cell.lock();
        if !allowed(&live) || plays_here(&live, &viewer) {
            return Err(analysis_off());
        }
        if let Some(outcome) = live.room.game().outcome() {
            return Err(game_over(outcome));
        }
        let limits = SearchLimits {
            movetime: Some(time),
            ..SearchLimits::default()
        };
        (
            request_for_game(live.room.game(), limits),
            position_of(&live),
        )
    };
    let stop = SearchStop::new();
    // The room's next move, a take-back, a rematch or the players' switch stops the search.
    let watched = stop.clone();
    tokio::spawn(async move {
        let watch = async {
            loop {
                match states.recv().await {
                    Ok(_) | Err(RecvError::Lagged(_)) => {
                        if changed(&cell, seen) {
                            return;
                        }
                    }
                    Err(RecvError::Closed) => return,
                }
            }
        };
        // The search ends by its time at the latest; so does the watch.
        if tokio::time::timeout(time + Duration::from_secs(5), watch)
            .await
            .is_ok()
        {
            watched.stop();
        }
    });
    let version = seen.1 as u64;
    let tables = app.endgames.present();
    stream_lines(
        app.pool,
        tables,
        format!("room-{id}"),
        request,
        version,
        stop,
        lines,
    )
    .await
}

fn changed(cell: &Arc<RoomCell>, seen: (u32, usize)) -> bool {
    let live = cell.lock();
    !allowed(&live) || position_of(&live) != seen
}
