//! The games being played: one per browser tab, each with its redo stack and the searches
//! running for it. The engines themselves belong to the [`SearchPool`](crate::kit::search_pool).
//!
//! A game is small (its record and nothing else), so many are kept; beyond [`MAX_GAMES`] the
//! least recently used is dropped, and the page that played it sends it again (start position,
//! moves and redo moves) when the server answers `no-game`.
//!
//! Every change of a game goes through [`Sessions::with`], which hands the game to the
//! archive when it changed (see [`archive_store`](crate::kit::archive_store)); a session whose
//! archive link has no key (a board that is not a game) is never kept.

use crate::kit::archive_store::{ArchiveLink, ArchiveService};
use crate::kit::search_pool::SearchStop;
use crate::kit::variations::Variations;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use xiangqi_rules::{Game, Move};

/// Most games kept at once when no other number is given; the least recently used is dropped
/// beyond it.
pub const MAX_GAMES: usize = 1024;

/// One game: the record, the moves taken back (for redo), and its searches in progress.
pub struct GameSession {
    /// The record from its start position.
    pub game: Game,
    /// Moves taken back, the next one to redo last.
    pub redo: Vec<Move>,
    /// Bumped on every change, so a reply computed for an older state is not played.
    pub version: u64,
    /// The main line and the variations, and which of them is being played.
    pub variations: Variations,
    /// The searches started for the game and not yet finished.
    searches: Vec<SearchStop>,
    /// Its row in the games archive: the key, the players, whether it was saved.
    pub archive: ArchiveLink,
}

impl GameSession {
    /// A session for `game`.
    pub fn new(game: Game) -> GameSession {
        GameSession {
            game,
            redo: Vec::new(),
            version: 0,
            variations: Variations::default(),
            searches: Vec::new(),
            archive: ArchiveLink::new(),
        }
    }

    /// Records a change: stops the searches in progress and bumps the version.
    pub fn changed(&mut self) {
        self.stop_searches();
        self.version += 1;
    }

    /// A handle for a new search of this game, stopped with the game's next change.
    pub fn start_search(&mut self) -> SearchStop {
        self.searches.retain(|s| !s.is_finished());
        let stop = SearchStop::new();
        self.searches.push(stop.clone());
        stop
    }

    fn stop_searches(&mut self) {
        for search in self.searches.drain(..) {
            search.stop();
        }
    }
}

/// Every game, by id. Each game has its own lock, so that one game's work never waits for
/// another's.
#[derive(Clone)]
pub struct Sessions {
    inner: Arc<Mutex<Inner>>,
    /// Where changed games are saved.
    archive: ArchiveService,
}

struct Inner {
    games: HashMap<String, Entry>,
    clock: u64,
    capacity: usize,
}

struct Entry {
    session: Arc<Mutex<GameSession>>,
    last_used: u64,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Default for Sessions {
    fn default() -> Self {
        Sessions::with_capacity(MAX_GAMES)
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A handler that panicked cannot leave a game half-changed: recover the data.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Sessions {
    /// An empty store that keeps at most `capacity` games (at least one).
    pub fn with_capacity(capacity: usize) -> Sessions {
        Sessions {
            inner: Arc::new(Mutex::new(Inner {
                games: HashMap::new(),
                clock: 0,
                capacity: capacity.max(1),
            })),
            archive: ArchiveService::off(),
        }
    }

    /// The same store, saving every changed game to `archive`.
    pub fn archived_to(self, archive: ArchiveService) -> Sessions {
        Sessions { archive, ..self }
    }

    /// The archive changed games are saved to.
    pub fn archive(&self) -> &ArchiveService {
        &self.archive
    }

    /// Stores `session` under a new id and returns the id.
    pub fn insert(&self, session: GameSession) -> String {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let n = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let id = format!(
            "g{n}-{:x}",
            xiangqi_rules::random::mix(seed ^ n) & 0xffff_ffff
        );
        let evicted = {
            let mut inner = lock(&self.inner);
            inner.clock += 1;
            let last_used = inner.clock;
            let evicted = if inner.games.len() >= inner.capacity {
                let oldest = inner
                    .games
                    .iter()
                    .min_by_key(|(_, e)| e.last_used)
                    .map(|(k, _)| k.clone());
                oldest.and_then(|k| inner.games.remove(&k))
            } else {
                None
            };
            inner.games.insert(
                id.clone(),
                Entry {
                    session: Arc::new(Mutex::new(session)),
                    last_used,
                },
            );
            evicted
        };
        if let Some(entry) = evicted {
            lock(&entry.session).stop_searches();
        }
        id
    }

    /// Runs `f` on game `id`, or returns `None` when there is no such game. A game that `f`
    /// changed (its version, or its archive link) is handed to the archive.
    pub fn with<R>(&self, id: &str, f: impl FnOnce(&mut GameSession) -> R) -> Option<R> {
        let session = {
            let mut inner = lock(&self.inner);
            inner.clock += 1;
            let clock = inner.clock;
            let entry = inner.games.get_mut(id)?;
            entry.last_used = clock;
            entry.session.clone()
        };
        let mut session = lock(&session);
        let before = session.archive.mark(session.version);
        let result = f(&mut session);
        self.archive.after_change(&mut session, before);
        Some(result)
    }

    /// Forgets game `id`, stopping its searches; whether it existed.
    pub fn remove(&self, id: &str) -> bool {
        let removed = lock(&self.inner).games.remove(id);
        match removed {
            Some(entry) => {
                lock(&entry.session).stop_searches();
                true
            }
            None => false,
        }
    }
}
