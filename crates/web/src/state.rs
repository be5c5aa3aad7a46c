//! What every handler shares: the games, the search pool, the games archive (which the games
//! hold, as every change of a game is saved through them), the endgame tables and the rooms.
//! The kit's parts and the rooms' hub come together here, outside the kit, so that the kit
//! names no feature.

use crate::kit::archive_store::ArchiveService;
use crate::kit::endgame_tables::TableFolder;
use crate::kit::limits;
use crate::kit::search_pool::{PoolOptions, SearchPool};
use crate::kit::session::{MAX_GAMES, Sessions};
use crate::kit::viewer::{Accounts, Hosting};
use crate::rooms::gate::SocketGate;
use crate::rooms::hub::RoomHub;
use axum::extract::FromRef;
use std::path::PathBuf;
use std::sync::Arc;

/// How the server is sized: its searchers, their queue, how many games it keeps, and where
/// it keeps the player's games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerOptions {
    /// The search pool.
    pub pool: PoolOptions,
    /// Most games kept; beyond it the least recently used is dropped (and the page restores
    /// it when it next asks).
    pub max_games: usize,
    /// The data folder, where the games archive (`games.sqlite3`) is kept; none: the server
    /// keeps no games.
    pub data: Option<PathBuf>,
    /// A PostgreSQL store (`postgres://…`) in place of the data folder's SQLite file, for
    /// several servers sharing one database; the data folder still holds the endgame tables.
    pub database: Option<String>,
    /// How long a connection may take to send a whole request head (from when it opened or
    /// got its last answer) before it is closed.
    pub header_read_time: std::time::Duration,
    /// Most connections served at once.
    pub max_connections: usize,
    /// Rooms one client address may make at once (then one every
    /// [`ROOM_EVERY`](crate::rooms::hub::ROOM_EVERY)).
    pub rooms_burst: u32,
    /// For a server hosted for many people: its public address and the proxies in front of
    /// it; `None` for the learner's own app on loopback.
    pub site: Option<crate::kit::site::Site>,
    /// The caps on the rooms' sockets (each also holds one of the `max_connections` places).
    pub sockets: crate::rooms::gate::SocketLimits,
    /// Who may make an account, on a server hosted for many people.
    pub sign_up: xiangqi_accounts::SignUp,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            pool: PoolOptions::default(),
            max_games: MAX_GAMES,
            data: None,
            database: None,
            header_read_time: limits::HEADER_READ_TIME,
            max_connections: limits::MAX_CONNECTIONS,
            rooms_burst: crate::rooms::hub::ROOMS_BURST,
            site: None,
            sockets: crate::rooms::gate::SocketLimits::default(),
            sign_up: xiangqi_accounts::SignUp::default(),
        }
    }
}

/// The handlers' state: the games and the engines that search for them.
#[derive(Clone)]
pub struct AppState {
    /// Every game, by id, with the archive they are saved to (or why there is none).
    pub sessions: Sessions,
    /// The engines, shared by all games.
    pub pool: SearchPool,
    /// The rooms of games between two people, kept in the data folder.
    pub rooms: RoomHub,
    /// The endgame course's tables, kept in the data folder's `egtb`.
    pub endgames: TableFolder,
    /// The server's connection places: each connection holds one while it is served, and
    /// each room socket while it is open.
    pub connections: Arc<tokio::sync::Semaphore>,
    /// Who asks: the accounts and guests of a hosted server.
    pub accounts: Accounts,
    /// The lobby's open challenges.
    pub lobby: crate::rooms::lobby::Lobby,
}

impl AppState {
    /// A state sized by `options`, with the archive of its data folder opened (or the reason
    /// it could not be).
    pub fn new(options: &ServerOptions) -> AppState {
        let archive = match (&options.database, &options.data) {
            (Some(url), _) => ArchiveService::open_postgres(url),
            (None, Some(folder)) => ArchiveService::open(folder),
            (None, None) => ArchiveService::off(),
        };
        let connections = Arc::new(tokio::sync::Semaphore::new(options.max_connections.max(1)));
        let gate = SocketGate::new(connections.clone(), options.sockets);
        let rooms = RoomHub::open(archive.clone(), options.rooms_burst, gate);
        if let Some(url) = &options.database {
            // Servers sharing the store follow the rooms the others write.
            let (tx, news) = tokio::sync::mpsc::unbounded_channel();
            match xiangqi_store::listen_for_rooms(url, move |heard| tx.send(heard).is_ok()) {
                Ok(()) => rooms.follow(news, xiangqi_store::RoomReader::start(url).ok()),
                Err(e) => crate::say_err!("rooms: changes on other servers are not followed: {e}"),
            }
        }
        let hosting = match &options.site {
            Some(site) => Hosting::Site {
                https: site.https(),
                sign_up: options.sign_up,
            },
            None => Hosting::Own,
        };
        AppState {
            accounts: Accounts::new(hosting, archive.clone()),
            lobby: crate::rooms::lobby::Lobby::default(),
            connections,
            endgames: TableFolder::new(options.data.as_deref()),
            rooms,
            sessions: Sessions::with_capacity(options.max_games).archived_to(archive),
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

impl FromRef<AppState> for ArchiveService {
    fn from_ref(state: &AppState) -> ArchiveService {
        state.sessions.archive().clone()
    }
}

impl FromRef<AppState> for RoomHub {
    fn from_ref(state: &AppState) -> RoomHub {
        state.rooms.clone()
    }
}

impl FromRef<AppState> for Accounts {
    fn from_ref(state: &AppState) -> Accounts {
        state.accounts.clone()
    }
}

impl FromRef<AppState> for crate::rooms::lobby::Lobby {
    fn from_ref(state: &AppState) -> crate::rooms::lobby::Lobby {
        state.lobby.clone()
    }
}
