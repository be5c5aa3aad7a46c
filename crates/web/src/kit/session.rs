//! The games being played: one per browser tab, each a [`PlayedGame`] (the game with its
//! lines, from the records crate) with the searches running for it. The engines themselves
//! belong to the [`SearchPool`](crate::kit::search_pool).
//!
//! A game is small (its record and nothing else), so many are kept; beyond [`MAX_GAMES`] the
//! least recently used is dropped, and the page that played it sends it again (start position,
//! moves and redo moves) when the server answers `no-game`.
//!
//! Every change of a game goes through [`Sessions::with`], which hands the game to the
//! archive when it changed (see [`archive_store`](crate::kit::archive_store)); a session whose
//! archive link has no key (a board that is not a game) is never kept.

use crate::kit::archive_store::{ArchiveLink, ArchiveService, Queued};
use crate::kit::search_pool::SearchStop;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use xiangqi_records::PlayedGame;
use xiangqi_rules::Game;

/// The event tag of a game's record.
const EVENT: &str = "Casual game";

/// Most games kept at once when no other number is given; the least recently used is dropped
/// beyond it.
pub const MAX_GAMES: usize = 1024;

/// One game: the game with its lines, its change count, and its searches in progress.
pub struct GameSession {
    /// The game, the moves taken back and every line.
    pub played: PlayedGame,
    /// Bumped on every change, so a reply computed for an older state is not played.
    pub version: u64,
    /// The searches started for the game and not yet finished.
    searches: Vec<SearchStop>,
    /// Its row in the games archive: the key, the players, whether it was saved.
    pub archive: ArchiveLink,
    /// Whose game it is (the store's owner, who alone may use it and whose archive it is
    /// saved to); `None` for a visitor's game, which anyone with its id may use and which is
    /// kept nowhere.
    pub owner: Option<String>,
}

impl GameSession {
    /// A session for `played`.
    pub fn new(played: PlayedGame) -> GameSession {
        GameSession {
            played,
            version: 0,
            searches: Vec::new(),
            archive: ArchiveLink::new(),
            owner: Some(String::new()),
        }
    }

    /// The line being played, up to the position shown.
    pub fn game(&self) -> &Game {
        self.played.game()
    }

    /// The game's record: every line (see [`PlayedGame::record`]), the event and today's
    /// date, and for a game from the initial position its opening's ECCO, Opening and
    /// Variation tags.
    pub fn record(&self) -> xiangqi_records::Game {
        let mut record = self.played.record();
        record.tags.set("Event", EVENT);
        record.tags.set("Date", &xiangqi_records::date::pgn_today());
        // A game from the initial position names its opening as ECCO does.
        let _ = xiangqi_teaching::openings::fill_tags(&mut record);
        record
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

tokio::task_local! {
    /// The changes of games the request being answered made, in order.
    static CHANGES: std::cell::RefCell<Vec<Change>>;
}

/// A game as it was before a change.
struct Kept {
    played: PlayedGame,
    version: u64,
    archive: ArchiveLink,
}

/// A change of a game a request made, and what it was before.
pub struct Change {
    session: Arc<Mutex<GameSession>>,
    kept: Kept,
    /// The game's change count after it.
    version: u64,
    /// What the archive did with it.
    pub queued: Queued,
}

impl Change {
    /// Takes the change back after its save failed: the game goes back to how it was (when
    /// nothing changed it since), with a change count of its own so that a reply computed
    /// meanwhile is not played, and the archive's row revisions go back too.
    pub fn take_back(self, archive: &ArchiveService) {
        let mut session = lock(&self.session);
        if session.version == self.version {
            session.played = self.kept.played;
            session.archive = self.kept.archive;
            session.changed();
            session.version = session.version.max(self.kept.version + 1);
        }
        drop(session);
        archive.undo_rows(self.queued);
    }
}

/// Runs `answer` (a request's handler) keeping every change of a game it makes; the answer
/// and those changes.
pub async fn tracking_changes<R>(answer: impl std::future::Future<Output = R>) -> (R, Vec<Change>) {
    CHANGES
        .scope(std::cell::RefCell::new(Vec::new()), async {
            let response = answer.await;
            let changes = CHANGES.with(|changes| changes.take());
            (response, changes)
        })
        .await
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

    /// Runs `f` on game `id` for `owner` (`None`: a visitor), or returns `None` when there
    /// is no such game or it is another's. See [`Sessions::with`].
    pub fn with_owned<R>(
        &self,
        id: &str,
        owner: Option<&str>,
        f: impl FnOnce(&mut GameSession) -> R,
    ) -> Option<R> {
        let session = self.session(id)?;
        let theirs = lock(&session).owner.clone();
        if theirs.is_some() && theirs.as_deref() != owner {
            return None;
        }
        self.with(id, f)
    }

    /// The session of game `id`.
    fn session(&self, id: &str) -> Option<Arc<Mutex<GameSession>>> {
        lock(&self.inner).games.get(id).map(|e| e.session.clone())
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
        let mut guard = lock(&session);
        let before = guard.archive.mark(guard.version);
        // Within a request that may change something, the game as it was, to take back to
        // when its change cannot be saved.
        let kept = CHANGES
            .try_with(|_| Kept {
                played: guard.played.clone(),
                version: guard.version,
                archive: guard.archive.clone(),
            })
            .ok();
        let result = f(&mut guard);
        let queued = self.archive.after_change(&mut guard, before);
        if let (Some(kept), Some(queued)) = (kept, queued) {
            let change = Change {
                session: session.clone(),
                kept,
                version: guard.version,
                queued,
            };
            let _ = CHANGES.try_with(|changes| changes.borrow_mut().push(change));
        }
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
