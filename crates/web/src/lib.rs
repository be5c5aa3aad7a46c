//! The browser app: a local HTTP server with a JSON API over the rules and the engine, and
//! the page itself (HTML, CSS, ES modules, an SVG board) embedded in the binary.
//!
//! Each browser tab plays its own game, known by an id; the engine thinks on a blocking
//! thread so that the server keeps answering. The server answers only to the host it serves
//! (see [`host_guard`]).

pub mod analysis;
pub mod api;
pub mod assets;
pub mod error;
pub mod host_guard;
pub mod reasons;
pub mod records_api;
pub mod server;
pub mod session;
pub mod view;

pub use host_guard::AllowedHosts;
pub use server::{bind, router, serve, url};
