//! The browser app: a local HTTP server with a JSON API over the rules and the engine, and
//! the page itself (HTML, CSS, ES modules, an SVG board) embedded in the binary.
//!
//! Each feature is a module with its routes: [`play`], [`records`], [`archive`] (My games),
//! [`learn`] (the courses), [`endgames`] (the endgame course on the tables), [`puzzles`],
//! [`trainer`] (the opening trainer), [`review`], [`explorer`] (the opening explorer),
//! [`rooms`] (play a friend, the lobby, rated games), [`account`] (accounts on a hosted
//! server), [`progress`] (a learner's progress, kept for its owner), [`today`] (the day's dose of
//! training and the streak) and [`players`] (the players' profiles). Who asks, and so whose things a request may read or change, is the
//! kit's [`Viewer`](kit::viewer::Viewer). They share the [`kit`] (the one error type, the request
//! readers, the games being played, the search pool and streamed searches, the endgame
//! tables, the archive's writer, the limits and the views) and the [`state`] handlers get,
//! and use the domain crates for every decision. No feature names another, and the kit names
//! no feature (`tests/layers.rs` reads the sources to hold both). [`server`] puts the routes
//! behind the server's layers and serves them.

mod account;
mod archive;
mod endgames;
mod explorer;
pub mod kit;
mod learn;
mod play;
mod players;
mod progress;
mod puzzles;
mod records;
mod review;
mod rooms;
mod server;
mod state;
mod today;
mod trainer;

pub use kit::archive_store::{ARCHIVE_FILE, archive_reasons};
pub use kit::assets;
pub use kit::console;
pub use kit::error::ErrorCode;
pub use kit::host_guard::AllowedHosts;
pub use kit::limits::{HEADER_READ_TIME, MAX_CONNECTIONS};
pub use kit::records::RecordFault;
pub use kit::search_pool::PoolOptions;
pub use kit::site::Site;
pub use rooms::gate::SocketLimits;
pub use server::{DRAIN_TIME, FLUSH_TIME, Shutdown, bind, router, router_with, serve, url};
pub use state::ServerOptions;

/// Every feature's routes, merged.
fn routes() -> axum::Router<state::AppState> {
    axum::Router::new()
        .merge(account::routes())
        .merge(play::routes())
        .merge(records::routes())
        .merge(archive::routes())
        .merge(learn::routes())
        .merge(endgames::routes())
        .merge(puzzles::routes())
        .merge(progress::routes())
        .merge(players::routes())
        .merge(trainer::routes())
        .merge(today::routes())
        .merge(review::routes())
        .merge(explorer::routes())
        .merge(rooms::routes())
}
