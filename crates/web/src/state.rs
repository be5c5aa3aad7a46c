//! What every handler shares: the games and the search pool.

use crate::search_pool::{PoolOptions, SearchPool};
use crate::session::{MAX_GAMES, Sessions};
use axum::extract::FromRef;

/// How the server is sized: its searchers, their queue, and how many games it keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerOptions {
    /// The search pool.
    pub pool: PoolOptions,
    /// Most games kept; beyond it the least recently used is dropped (and the page restores
    /// it when it next asks).
    pub max_games: usize,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            pool: PoolOptions::default(),
            max_games: MAX_GAMES,
        }
    }
}

/// The handlers' state: the games and the engines that search for them.
#[derive(Clone)]
pub struct AppState {
    /// Every game, by id.
    pub sessions: Sessions,
    /// The engines, shared by all games.
    pub pool: SearchPool,
}

impl AppState {
    /// A state sized by `options`.
    pub fn new(options: &ServerOptions) -> AppState {
        AppState {
            sessions: Sessions::with_capacity(options.max_games),
            pool: SearchPool::new(options.pool.clone()),
        }
    }
}

impl FromRef<AppState> for Sessions {
    fn from_ref(state: &AppState) -> Sessions {
        state.sessions.clone()
    }
}

impl FromRef<AppState> for SearchPool {
    fn from_ref(state: &AppState) -> SearchPool {
        state.pool.clone()
    }
}
