//! The browser app: a local HTTP server with a JSON API over the rules and the engine, and
//! the page itself (HTML, CSS, ES modules, an SVG board) embedded in the binary.
//!
//! Each browser tab plays its own game, known by an id. Engine searches run on a bounded
//! pool of engines, each on a blocking thread, so that the server keeps answering moves
//! whatever the engines do and its memory does not grow with the number of games (see
//! [`search_pool`]). The server answers only to the host it serves (see [`host_guard`]).
//! The rules course's lessons come from the `xiangqi-teaching` crate and are served, with a
//! move checker for lesson boards, by [`lessons_api`].

mod analysis;
mod api;
mod archive_api;
mod archive_store;
pub mod assets;
mod error;
mod host_guard;
mod lessons_api;
mod limits;
mod opening_choice;
mod openings_api;
mod puzzles_api;
mod reasons;
mod records_api;
mod review_api;
mod safety;
mod search_pool;
mod server;
mod session;
mod state;
mod trainer_api;
mod variations;
mod view;

pub use archive_store::{ARCHIVE_FILE, archive_reasons};
pub use error::ErrorCode;
pub use host_guard::AllowedHosts;
pub use records_api::RecordFault;
pub use search_pool::PoolOptions;
pub use server::{
    DRAIN_TIME, FLUSH_TIME, HEADER_READ_TIME, MAX_CONNECTIONS, Shutdown, bind, router, router_with,
    serve, url,
};
pub use state::ServerOptions;
