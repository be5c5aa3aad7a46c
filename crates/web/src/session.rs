//! The games being played: one per browser tab, each with its redo stack and its own engine.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use xiangqi_engine::{Engine, EngineOptions};
use xiangqi_rules::{Game, Move};

/// Most games kept at once; the least recently used is dropped beyond it.
pub const MAX_GAMES: usize = 256;

/// One game: the record, the moves taken back (for redo), and the engine that plays it.
pub struct GameSession {
    /// The record from its start position.
    pub game: Game,
    /// Moves taken back, the next one to redo last.
    pub redo: Vec<Move>,
    /// The engine for replies, hints and analysis; clones share its table and stop signal.
    pub engine: Engine,
    /// The engine for analysis, made when first asked for, so that analysing never stops a
    /// reply or a hint.
    pub analyst: Option<Engine>,
    /// Counts the analyses started, so that a page leaving an older one does not stop a newer
    /// one on the same engine.
    pub analyses: u64,
    /// Bumped on every change, so a reply computed for an older state is not played.
    pub version: u64,
    last_used: u64,
}

impl GameSession {
    /// A session for `game` with a fresh engine.
    pub fn new(game: Game) -> GameSession {
        GameSession {
            game,
            redo: Vec::new(),
            engine: Engine::new(EngineOptions {
                hash_mb: 8,
                ..EngineOptions::default()
            }),
            analyst: None,
            analyses: 0,
            version: 0,
            last_used: 0,
        }
    }

    /// Records a change: stops the searches in progress and bumps the version.
    pub fn changed(&mut self) {
        self.engine.stop();
        if let Some(analyst) = &self.analyst {
            analyst.stop();
        }
        self.version += 1;
    }

    /// The analysis engine, made on first use.
    pub fn analyst(&mut self) -> Engine {
        self.analyst
            .get_or_insert_with(|| {
                Engine::new(EngineOptions {
                    hash_mb: 8,
                    ..EngineOptions::default()
                })
            })
            .clone()
    }
}

/// Every game, by id.
#[derive(Clone, Default)]
pub struct Sessions {
    inner: Arc<Mutex<Inner>>,
}

#[derive(Default)]
struct Inner {
    games: HashMap<String, GameSession>,
    clock: u64,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Sessions {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A handler that panicked cannot leave a game half-changed: recover the map.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stores `session` under a new id and returns the id.
    pub fn insert(&self, mut session: GameSession) -> String {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let n = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let id = format!(
            "g{n}-{:x}",
            (seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)) & 0xffff_ffff
        );
        let mut inner = self.lock();
        inner.clock += 1;
        session.last_used = inner.clock;
        if inner.games.len() >= MAX_GAMES
            && let Some(oldest) = inner
                .games
                .iter()
                .min_by_key(|(_, s)| s.last_used)
                .map(|(k, _)| k.clone())
        {
            inner.games.remove(&oldest);
        }
        inner.games.insert(id.clone(), session);
        id
    }

    /// Runs `f` on game `id`, or returns `None` when there is no such game.
    pub fn with<R>(&self, id: &str, f: impl FnOnce(&mut GameSession) -> R) -> Option<R> {
        let mut inner = self.lock();
        inner.clock += 1;
        let clock = inner.clock;
        let session = inner.games.get_mut(id)?;
        session.last_used = clock;
        Some(f(session))
    }

    /// Forgets game `id`; whether it existed.
    pub fn remove(&self, id: &str) -> bool {
        let mut inner = self.lock();
        match inner.games.remove(id) {
            Some(s) => {
                s.engine.stop();
                true
            }
            None => false,
        }
    }
}
