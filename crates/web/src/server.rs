//! The HTTP server: routes, the host check, and binding to the first free port.

use crate::analysis;
use crate::api;
use crate::archive_api;
use crate::assets;
use crate::host_guard::{AllowedHosts, check_host};
use crate::lessons_api;
use crate::openings_api;
use crate::puzzles_api;
use crate::records_api;
use crate::review_api;
use crate::state::{AppState, ServerOptions};
use crate::trainer_api;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::Uri;
use axum::routing::{get, post};
use std::net::SocketAddr;
use tokio::net::TcpListener;

/// Largest request body accepted, in bytes.
const MAX_BODY: usize = 64 * 1024;
/// Ports tried after the requested one when it is taken.
const PORT_TRIES: u16 = 20;

/// The app for a server that answers to `allowed` hosts, sized by default.
pub fn router(allowed: AllowedHosts) -> Router {
    router_with(allowed, &ServerOptions::default())
}

/// The app for a server that answers to `allowed` hosts, sized by `options`.
pub fn router_with(allowed: AllowedHosts, options: &ServerOptions) -> Router {
    let api = Router::new()
        .route("/api/games", post(api::new_game))
        .route(
            "/api/games/{id}",
            get(api::get_game).delete(api::delete_game),
        )
        .route("/api/games/{id}/move", post(api::play_move))
        .route("/api/games/{id}/line", post(api::change_line))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/redo", post(api::redo))
        .route("/api/games/{id}/engine", post(api::engine_move))
        .route("/api/games/{id}/hint", post(api::hint))
        .route("/api/games/{id}/analyse", post(analysis::analyse))
        .route("/api/games/{id}/analysis", get(analysis::analysis_stream))
        .route("/api/games/{id}/openings", get(openings_api::explore))
        .route("/api/games/{id}/record", get(records_api::export))
        .route("/api/games/{id}/review", get(review_api::review_stream))
        .route(
            "/api/games/import",
            post(records_api::import).layer(DefaultBodyLimit::max(records_api::MAX_IMPORT)),
        )
        .route("/api/archive", get(archive_api::status))
        .route("/api/archive/games", get(archive_api::list))
        .route(
            "/api/archive/games/{id}",
            get(archive_api::get).delete(archive_api::delete),
        )
        .route("/api/archive/games/{id}/open", post(archive_api::open))
        .route("/api/archive/export", get(archive_api::export))
        .route(
            "/api/archive/import",
            post(archive_api::import).layer(DefaultBodyLimit::max(records_api::MAX_IMPORT)),
        )
        .route("/api/archive/resume", post(archive_api::resume))
        .route("/api/archive/sessions/{id}", post(archive_api::session))
        .route("/api/fen", post(api::check_fen))
        .route("/api/levels", get(api::levels))
        .route("/api/lessons", get(lessons_api::lessons))
        .route("/api/lessons/try", post(lessons_api::try_moves))
        .route("/api/puzzles/themes", get(puzzles_api::themes))
        .route("/api/puzzles/next", get(puzzles_api::next))
        .route("/api/puzzles/result", post(puzzles_api::result))
        .route("/api/puzzles/{id}", get(puzzles_api::puzzle))
        .route("/api/puzzles/{id}/move", post(puzzles_api::play))
        .route("/api/puzzles/{id}/hint", get(puzzles_api::hint))
        .route("/api/puzzles/{id}/solution", get(puzzles_api::solution))
        .route("/api/trainer", get(trainer_api::catalogue))
        .route("/api/trainer/start", post(trainer_api::start))
        .route("/api/trainer/move", post(trainer_api::play))
        .with_state(AppState::new(options));
    Router::new()
        .merge(api)
        .fallback(get(|uri: Uri| async move { assets::serve(uri.path()) }))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(allowed, check_host))
}

/// Binds `host`:`port`, or the next free port among the following few.
pub async fn bind(host: &str, port: u16) -> std::io::Result<TcpListener> {
    let mut last = None;
    for p in port..=port.saturating_add(PORT_TRIES) {
        let addr = if host.contains(':') && !host.starts_with('[') {
            format!("[{host}]:{p}")
        } else {
            format!("{host}:{p}")
        };
        match TcpListener::bind(&addr).await {
            Ok(l) => return Ok(l),
            Err(e) => last = Some(e),
        }
        if port == 0 {
            break;
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no port to try")))
}

/// The address a browser should open for a listener bound for `host`.
pub fn url(host: &str, addr: SocketAddr) -> String {
    let shown = match host {
        "0.0.0.0" | "::" => "127.0.0.1".to_string(),
        h if h.contains(':') && !h.starts_with('[') => format!("[{h}]"),
        h => h.to_string(),
    };
    format!("http://{shown}:{}/", addr.port())
}

/// Serves the app on `listener` (bound for `host`), sized by `options`, until the process
/// ends.
pub async fn serve(
    listener: TcpListener,
    host: &str,
    options: &ServerOptions,
) -> std::io::Result<()> {
    let port = listener.local_addr()?.port();
    let app = router_with(AllowedHosts::for_address(host, port), options);
    axum::serve(listener, app).await
}
