//! What the features share: the one error type and its codes, the request readers, the games
//! being played with their lines and their saving to the archive, the search pool and
//! streamed searches, the server's limits, host check and security headers, the answers'
//! views, and the state handlers get.

pub mod analysis;
pub mod archive_store;
pub mod assets;
pub mod client_addr;
pub mod console;
pub mod endgame_tables;
pub mod error;
pub mod extract;
pub mod games;
pub mod host_guard;
pub mod learner;
pub mod limits;
pub mod rate_limit;
pub mod reasons;
pub mod records;
pub mod search;
pub mod search_pool;
pub mod security_headers;
pub mod session;
pub mod site;
pub mod stream;
pub mod view;
pub mod viewer;
pub mod wire;
