//! Running a search for a request on an engine of the pool.

use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::search_pool::{SearchKind, SearchPool, SearchStop};
use crate::kit::session::GameSession;
use xiangqi_engine::levels::{Level, MAX_LEVEL};
use xiangqi_engine::{Engine, EngineOptions, SearchLimits, SearchRequest};
use xiangqi_rules::Game;

pub(crate) fn request_for(s: &GameSession, limits: SearchLimits) -> SearchRequest {
    request_for_game(s.game(), limits)
}

/// A search of `game`'s position within `limits`, with the positions since the last capture
/// (for the repetition rules).
pub(crate) fn request_for_game(game: &Game, limits: SearchLimits) -> SearchRequest {
    let mut history = game.hashes_since_capture();
    history.pop();
    SearchRequest {
        history,
        history_moves: game.moves_since_capture().to_vec(),
        ..SearchRequest::new(game.position().clone(), limits)
    }
}

/// A search of a game's position as it stands: the request, the game's version it was made
/// at (an answer for an older version is refused) and the handle that stops it.
pub(crate) struct Prepared {
    /// The position with its history, and the limits.
    pub request: SearchRequest,
    /// The game's version when the search was asked for.
    pub version: u64,
    /// Stops the search; the game's next change stops it too.
    pub stop: SearchStop,
}

/// A search of `s`'s position within `limits`; 409 `game-over` once the game has ended.
pub(crate) fn prepare_search(
    s: &mut GameSession,
    limits: SearchLimits,
) -> Result<Prepared, ApiError> {
    if let Some(outcome) = s.game().outcome() {
        return Err(crate::kit::error::game_over(outcome));
    }
    Ok(Prepared {
        request: request_for(s, limits),
        version: s.version,
        stop: s.start_search(),
    })
}

/// Sets `engine` to judge moves: full strength, one line, one thread (the review, a puzzle's
/// refutation, the trainer's view of a move off the line).
pub(crate) fn set_judging(engine: &mut Engine) {
    engine.set_options(EngineOptions {
        level: Level::new(MAX_LEVEL),
        multipv: 1,
        threads: 1,
        ..engine.options().clone()
    });
}

/// Runs `search` for game `game` on an engine borrowed from `pool`, waiting for one when all
/// are busy (503 when the queue is full too). `stop` stops it; so does dropping the returned
/// future (the page went away). A search stopped before it started answers `game-changed`.
pub(crate) async fn run_search<R: Send + 'static>(
    pool: &SearchPool,
    game: &str,
    kind: SearchKind,
    stop: &SearchStop,
    search: impl FnOnce(&mut Engine) -> R + Send + 'static,
) -> Result<R, ApiError> {
    let _stop_when_dropped = stop.on_drop();
    let lease = pool.acquire(game, kind, stop).await?;
    lease.run(search).await?.ok_or_else(changed_meanwhile)
}

pub(crate) fn changed_meanwhile() -> ApiError {
    ApiError::new(
        ErrorCode::GameChanged,
        "the game changed while the engine was thinking",
    )
}
