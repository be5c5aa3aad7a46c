//! Play: the games on the board (start, moves, lines, undo and redo, the engine's reply and
//! hints), their analysis, the FEN check and the playing levels.

pub(crate) mod analysis;
mod games;
mod safety;

use crate::state::AppState;
use axum::Router;
use axum::routing::{get, post};

/// The play routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games", post(games::new_game))
        .route(
            "/api/games/{id}",
            get(games::get_game).delete(games::delete_game),
        )
        .route("/api/games/{id}/move", post(games::play_move))
        .route("/api/games/{id}/line", post(games::change_line))
        .route("/api/games/{id}/undo", post(games::undo))
        .route("/api/games/{id}/redo", post(games::redo))
        .route("/api/games/{id}/engine", post(games::engine_move))
        .route("/api/games/{id}/hint", post(games::hint))
        .route("/api/games/{id}/analyse", post(analysis::analyse))
        .route("/api/games/{id}/analysis", get(analysis::analysis_stream))
        .route("/api/fen", post(games::check_fen))
        .route("/api/levels", get(games::levels))
}
