//! The search pool: a fixed set of engines, each with its own hash table, that every engine
//! request (replies, hints, analyses) borrows in turn.
//!
//! At most [`PoolOptions::searchers`] searches run at once, each on a blocking thread; up to
//! [`PoolOptions::queue`] more wait for a free engine, first come first served, and a request
//! beyond that is refused at once with 503 and `Retry-After` ([`ApiError::busy`]). Memory is
//! therefore bounded by the number of searchers, whatever the number of games or tabs.
//! Analyses, which hold an engine for many seconds, may take all engines but one, so that a
//! reply or a hint never waits behind a wall of analyses.
//!
//! A borrowed engine forgets what it learned when it moves to another game, and keeps its
//! table while it serves the same game. Each borrow comes with a [`SearchStop`]: the game
//! stops its searches through it when it changes, and a request that is dropped (the page
//! went away) stops its search through it too.
//!
//! When the server shuts down, [`SearchPool::shut_down`] refuses new requests (503
//! `shutting-down`), wakes the waiting ones with the same answer and stops every search that
//! runs, so that each ends with its best move so far and every stream ends.

use crate::kit::error::{ApiError, ErrorCode};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use xiangqi_engine::{Engine, EngineOptions};

/// The hash table of each searcher, in MB.
pub const HASH_MB: usize = 16;
/// Requests allowed to wait per searcher when no queue length is given.
pub const QUEUE_PER_SEARCHER: usize = 4;

/// How many searches run at once and how many may wait.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolOptions {
    /// Searches that run at once (each with its own engine and table); at least 1.
    pub searchers: usize,
    /// Requests that may wait for an engine; beyond them a request is refused with 503.
    pub queue: usize,
    /// Each engine's hash table, in MB.
    pub hash_mb: usize,
}

impl PoolOptions {
    /// `searchers` engines (at least one) with a queue of [`QUEUE_PER_SEARCHER`] each.
    pub fn with_searchers(searchers: usize) -> PoolOptions {
        let searchers = searchers.max(1);
        PoolOptions {
            searchers,
            queue: searchers * QUEUE_PER_SEARCHER,
            hash_mb: HASH_MB,
        }
    }
}

impl Default for PoolOptions {
    /// One searcher per core.
    fn default() -> Self {
        PoolOptions::with_searchers(std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

/// What a search is for: analyses may not take the last free engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// A reply or a hint: short, and someone waits for it.
    Play,
    /// An analysis: may run for a minute.
    Analysis,
}

/// The engines and the queue. Clones share them.
#[derive(Clone)]
pub struct SearchPool {
    inner: Arc<Inner>,
}

struct Inner {
    slots: Arc<Semaphore>,
    analysis_slots: Arc<Semaphore>,
    idle: Mutex<Vec<Worker>>,
    waiting: AtomicUsize,
    options: PoolOptions,
    /// The stop handles of the searches holding an engine now.
    active: Mutex<Vec<SearchStop>>,
    /// Set once the server shuts down: no search starts any more.
    closing: AtomicBool,
}

/// An engine and the game whose searches its table holds.
struct Worker {
    engine: Engine,
    game: Option<String>,
}

impl Default for SearchPool {
    fn default() -> Self {
        SearchPool::new(PoolOptions::default())
    }
}

impl SearchPool {
    /// A pool as `options` say (at least one searcher); the tables are allocated now.
    pub fn new(options: PoolOptions) -> SearchPool {
        let searchers = options.searchers.max(1);
        let options = PoolOptions {
            searchers,
            ..options
        };
        let idle = (0..searchers)
            .map(|_| Worker {
                engine: Engine::new(EngineOptions {
                    hash_mb: options.hash_mb,
                    ..EngineOptions::default()
                }),
                game: None,
            })
            .collect();
        SearchPool {
            inner: Arc::new(Inner {
                slots: Arc::new(Semaphore::new(searchers)),
                analysis_slots: Arc::new(Semaphore::new(searchers.saturating_sub(1).max(1))),
                idle: Mutex::new(idle),
                waiting: AtomicUsize::new(0),
                options,
                active: Mutex::new(Vec::new()),
                closing: AtomicBool::new(false),
            }),
        }
    }

    /// Requests waiting for an engine now.
    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        self.inner.waiting.load(Ordering::Relaxed)
    }

    /// Borrows an engine for a search of `game`, waiting in the queue when all are busy.
    /// `stop` is the handle the search will answer to: stopped before the search starts, the
    /// search does not run. Fails with 503 when the queue is full.
    pub async fn acquire(
        &self,
        game: &str,
        kind: SearchKind,
        stop: &SearchStop,
    ) -> Result<Lease, ApiError> {
        let inner = &self.inner;
        let analysis = match kind {
            SearchKind::Play => None,
            SearchKind::Analysis => Some(inner.analysis_slots.clone()),
        };
        let ready = match &analysis {
            Some(a) => a.clone().try_acquire_owned().ok().and_then(|a| {
                let slot = inner.slots.clone().try_acquire_owned().ok()?;
                Some((slot, Some(a)))
            }),
            None => inner
                .slots
                .clone()
                .try_acquire_owned()
                .ok()
                .map(|slot| (slot, None)),
        };
        let (slot, analysis_slot) = match ready {
            Some(permits) => permits,
            None => {
                let _place = self.queue_place()?;
                let analysis_slot = match analysis {
                    Some(a) => Some(a.acquire_owned().await.map_err(|_| closed())?),
                    None => None,
                };
                let slot = inner
                    .slots
                    .clone()
                    .acquire_owned()
                    .await
                    .map_err(|_| closed())?;
                (slot, analysis_slot)
            }
        };
        if inner.closing.load(Ordering::Acquire) {
            return Err(closed());
        }
        let worker = self.take_worker(game);
        // Halted by the last lease's stop, if it had one; this lease's stop halts it anew.
        worker.engine.resume();
        stop.bind(&worker.engine);
        lock(&inner.active).push(stop.clone());
        Ok(Lease {
            worker: Some(worker),
            game: game.to_string(),
            pool: self.inner.clone(),
            stop: stop.clone(),
            _slot: slot,
            _analysis_slot: analysis_slot,
        })
    }

    /// Shuts the pool for good: new and waiting requests are refused with 503
    /// `shutting-down`, and every running search is stopped (again and again, so that one
    /// that was just starting is caught too) until all engines are back or `within` has
    /// passed. Whether all came back.
    pub async fn shut_down(&self, within: std::time::Duration) -> bool {
        let inner = &self.inner;
        inner.closing.store(true, Ordering::Release);
        inner.slots.close();
        inner.analysis_slots.close();
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let active = lock(&inner.active).clone();
            if active.is_empty() {
                return true;
            }
            for search in &active {
                search.stop();
            }
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// A place in the queue, given back when dropped; 503 when there is none.
    fn queue_place(&self) -> Result<QueuePlace, ApiError> {
        let inner = &self.inner;
        let before = inner.waiting.fetch_add(1, Ordering::AcqRel);
        let place = QueuePlace(self.inner.clone());
        if before >= inner.options.queue {
            drop(place);
            let per_searcher = inner.options.queue / inner.options.searchers;
            return Err(ApiError::busy(per_searcher.clamp(1, 10) as u32));
        }
        Ok(place)
    }

    /// An idle engine, the one that last searched `game` when there is one. The caller holds
    /// a permit, and there are always as many idle engines as free permits.
    fn take_worker(&self, game: &str) -> Worker {
        let mut idle = lock(&self.inner.idle);
        let same_game = idle.iter().position(|w| w.game.as_deref() == Some(game));
        match same_game {
            Some(index) => idle.swap_remove(index),
            None => idle.pop().unwrap_or_else(|| Worker {
                engine: Engine::new(EngineOptions {
                    hash_mb: self.inner.options.hash_mb,
                    ..EngineOptions::default()
                }),
                game: None,
            }),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // The data behind these locks stays whole whatever a panicking holder did.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn closed() -> ApiError {
    ApiError::new(ErrorCode::ShuttingDown, "the server is shutting down")
}

/// A place in the queue.
struct QueuePlace(Arc<Inner>);

impl Drop for QueuePlace {
    fn drop(&mut self) {
        self.0.waiting.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A borrowed engine; it goes back to the pool when the lease is dropped.
pub struct Lease {
    worker: Option<Worker>,
    game: String,
    pool: Arc<Inner>,
    stop: SearchStop,
    _slot: OwnedSemaphorePermit,
    _analysis_slot: Option<OwnedSemaphorePermit>,
}

impl Lease {
    /// Runs `search` on the borrowed engine on a blocking thread, after clearing the engine's
    /// table when it last served another game. `None` when the search was stopped before it
    /// started.
    pub async fn run<R: Send + 'static>(
        mut self,
        search: impl FnOnce(&mut Engine) -> R + Send + 'static,
    ) -> Result<Option<R>, ApiError> {
        if self.pool.closing.load(Ordering::Acquire) {
            return Err(closed());
        }
        tokio::task::spawn_blocking(move || {
            let worker = self.worker.as_mut()?;
            if worker.game.as_deref() != Some(self.game.as_str()) {
                worker.engine.new_game();
                worker.game = Some(self.game.clone());
            }
            if self.stop.is_stopped() {
                return None;
            }
            Some(search(&mut worker.engine))
        })
        .await
        .map_err(|_| {
            ApiError::new(
                ErrorCode::EngineFailed,
                "the engine stopped unexpectedly; try again",
            )
        })
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        // Unbind first: a game's stop must never reach the engine's next search.
        self.stop.release();
        lock(&self.pool.active).retain(|s| !Arc::ptr_eq(&s.state, &self.stop.state));
        if let Some(worker) = self.worker.take() {
            lock(&self.pool.idle).push(worker);
        }
    }
}

/// Stops one search: before it starts (it then does not run), while it runs, or never
/// once it has given its engine back.
#[derive(Clone, Default)]
pub struct SearchStop {
    state: Arc<StopState>,
}

#[derive(Default)]
struct StopState {
    engine: Mutex<Option<Engine>>,
    stopped: AtomicBool,
    released: AtomicBool,
}

impl SearchStop {
    /// A handle for a search not yet started.
    pub fn new() -> SearchStop {
        SearchStop::default()
    }

    /// Stops the search, or keeps it from starting.
    pub fn stop(&self) {
        self.state.stopped.store(true, Ordering::Release);
        // Halted, not only stopped: a search that arms after this, and any later search of
        // the same lease, ends at once too.
        if let Some(engine) = lock(&self.state.engine).as_ref() {
            engine.halt();
        }
    }

    /// Whether [`SearchStop::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.state.stopped.load(Ordering::Acquire)
    }

    /// Whether the search has ended and given its engine back.
    pub fn is_finished(&self) -> bool {
        self.state.released.load(Ordering::Acquire)
    }

    fn bind(&self, engine: &Engine) {
        *lock(&self.state.engine) = Some(engine.clone());
    }

    fn release(&self) {
        *lock(&self.state.engine) = None;
        self.state.released.store(true, Ordering::Release);
    }

    /// A guard that stops the search when dropped: held by a request, it stops the search
    /// when the request is dropped because the page went away.
    pub fn on_drop(&self) -> StopOnDrop {
        StopOnDrop(Some(self.clone()))
    }
}

/// Stops its search when dropped, unless disarmed.
pub struct StopOnDrop(Option<SearchStop>);

impl StopOnDrop {
    /// Drops the guard without stopping the search.
    pub fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        if let Some(stop) = &self.0 {
            stop.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(searchers: usize, queue: usize) -> SearchPool {
        SearchPool::new(PoolOptions {
            searchers,
            queue,
            hash_mb: 1,
        })
    }

    /// An engine for `game`, with a stop handle of its own.
    async fn borrow(pool: &SearchPool, game: &str, kind: SearchKind) -> Result<Lease, ApiError> {
        pool.acquire(game, kind, &SearchStop::new()).await
    }

    /// A request for `game` that waits in the queue (returned once it does).
    async fn queued(
        pool: &SearchPool,
        game: &'static str,
        kind: SearchKind,
    ) -> tokio::task::JoinHandle<Result<(), ApiError>> {
        let waiting = pool.waiting();
        let request = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.acquire(game, kind, &SearchStop::new())
                    .await
                    .map(|_| ())
            })
        };
        while pool.waiting() == waiting {
            tokio::task::yield_now().await;
        }
        request
    }

    #[tokio::test]
    async fn a_full_queue_refuses_with_busy() {
        let pool = pool(1, 1);
        let held = borrow(&pool, "a", SearchKind::Play).await.unwrap();
        let waiter = queued(&pool, "b", SearchKind::Play).await;
        let refused = borrow(&pool, "c", SearchKind::Play).await;
        let err = refused.err().expect("the third request is refused");
        assert_eq!(err.status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(err.code, "busy");
        assert!(err.retry_after.is_some());
        drop(held);
        assert!(
            waiter.await.unwrap().is_ok(),
            "the waiting request gets the engine"
        );
        assert_eq!(pool.waiting(), 0);
    }

    #[tokio::test]
    async fn analyses_leave_one_engine_for_play() {
        let pool = pool(2, 4);
        let analysis = borrow(&pool, "a", SearchKind::Analysis).await.unwrap();
        let second = queued(&pool, "b", SearchKind::Analysis).await;
        let play = borrow(&pool, "c", SearchKind::Play).await;
        assert!(play.is_ok(), "a reply gets the engine the analyses leave");
        drop(play);
        drop(analysis);
        assert!(second.await.unwrap().is_ok());
    }

    #[tokio::test]
    async fn a_search_stopped_before_it_starts_does_not_run() {
        let pool = pool(1, 1);
        let stop = SearchStop::new();
        let lease = pool.acquire("a", SearchKind::Play, &stop).await.unwrap();
        stop.stop();
        let ran = lease.run(|_| ()).await.unwrap();
        assert!(ran.is_none());
        assert!(stop.is_finished());
    }

    #[tokio::test]
    async fn a_stop_just_before_a_search_starts_or_between_two_searches_ends_them() {
        let pool = pool(1, 1);
        let stop = SearchStop::new();
        let lease = pool.acquire("a", SearchKind::Play, &stop).await.unwrap();
        let halt = stop.clone();
        let depths = lease
            .run(move |engine| {
                let request = xiangqi_engine::SearchRequest::new(
                    xiangqi_rules::Position::startpos(),
                    xiangqi_engine::SearchLimits {
                        depth: Some(40),
                        movetime: Some(std::time::Duration::from_secs(5)),
                        ..Default::default()
                    },
                );
                // The stop comes after the lease's own check and before the search arms.
                halt.stop();
                let first = engine.think(&request, &mut |_| {}).depth;
                let second = engine.think(&request, &mut |_| {}).depth;
                (first, second)
            })
            .await
            .unwrap()
            .expect("the stop came after the lease's check");
        assert_eq!(depths, (0, 0), "both searches ended at once");
        // The next lease of the same engine searches as ever.
        let lease = borrow(&pool, "a", SearchKind::Play).await.unwrap();
        let depth = lease
            .run(|engine| {
                let request = xiangqi_engine::SearchRequest::new(
                    xiangqi_rules::Position::startpos(),
                    xiangqi_engine::SearchLimits {
                        depth: Some(3),
                        ..Default::default()
                    },
                );
                engine.think(&request, &mut |_| {}).depth
            })
            .await
            .unwrap()
            .unwrap();
        assert_eq!(depth, 3);
    }

    #[tokio::test]
    async fn shutting_down_stops_the_searches_and_refuses_new_ones() {
        let pool = pool(1, 2);
        let stop = SearchStop::new();
        let lease = pool.acquire("a", SearchKind::Play, &stop).await.unwrap();
        let waiter = queued(&pool, "b", SearchKind::Play).await;
        let started = Arc::new(AtomicBool::new(false));
        let running = started.clone();
        let search = tokio::spawn(lease.run(move |engine| {
            let request = xiangqi_engine::SearchRequest::new(
                xiangqi_rules::Position::startpos(),
                xiangqi_engine::SearchLimits {
                    infinite: true,
                    ..Default::default()
                },
            );
            running.store(true, Ordering::Release);
            engine.think(&request, &mut |_| {})
        }));
        while !started.load(Ordering::Acquire) {
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
        assert!(pool.shut_down(std::time::Duration::from_secs(10)).await);
        let result = search.await.unwrap().unwrap().expect("the search ran");
        assert!(
            result.best_move.is_some(),
            "the stopped search answers a move"
        );
        let refused = waiter
            .await
            .unwrap()
            .expect_err("the waiting one is refused");
        assert_eq!(refused.code, "shutting-down");
        let late = borrow(&pool, "c", SearchKind::Play).await.err().unwrap();
        assert_eq!(late.code, "shutting-down");
    }

    #[tokio::test]
    async fn an_engine_keeps_its_game_and_goes_back_to_the_pool() {
        let pool = pool(2, 0);
        for _ in 0..5 {
            let lease = borrow(&pool, "a", SearchKind::Play).await.unwrap();
            assert_eq!(lease.run(|_| 1).await.unwrap(), Some(1));
        }
        let idle = lock(&pool.inner.idle);
        assert_eq!(idle.len(), 2, "every engine is back");
        assert_eq!(
            idle.iter()
                .filter(|w| w.game.as_deref() == Some("a"))
                .count(),
            1,
            "one engine served every search of the game"
        );
    }
}
