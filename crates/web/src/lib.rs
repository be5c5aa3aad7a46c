//! The browser app: a local HTTP server with a JSON API over the rules and the engine, and
//! the page itself (HTML, CSS, ES modules, an SVG board) embedded in the binary.
//!
//! Each browser tab plays its own game, known by an id. Engine searches run on a bounded
//! pool of engines, each on a blocking thread, so that the server keeps answering moves
//! whatever the engines do and its memory does not grow with the number of games (see
//! [`search_pool`]). The server answers only to the host it serves (see [`host_guard`]).

pub mod analysis;
pub mod api;
pub mod assets;
pub mod error;
pub mod host_guard;
pub mod reasons;
pub mod records_api;
pub mod search_pool;
pub mod server;
pub mod session;
pub mod state;
pub mod view;

pub use host_guard::AllowedHosts;
pub use search_pool::PoolOptions;
pub use server::{bind, router, router_with, serve, url};
pub use state::ServerOptions;
