//! The store's one writer: a thread that owns the [`Store`] and writes games, reviews and
//! rooms in the order their changes came, and runs every other request on the store after
//! the saves queued before it.
//!
//! Every save is numbered as it is queued, and the writer says how far it has saved: the
//! program answers a change once every save queued before it is committed
//! ([`Writer::saved_through`], [`Writer::flush`]), so a change it told of is kept even if the
//! process is killed right after. The writer saves the queue in order, the latest snapshot of
//! a game standing for the ones before it; the rooms of a batch go in one transaction. The
//! saves waiting when the writer takes up its queue go first, and an import is written a part
//! at a time ([`IMPORT_SLICE`]) between them, so that a long import never holds a move's
//! answer for long.
//!
//! A save that fails for a reason that may pass (a full disk, a read-only file, a lock held
//! by another program past [`WRITE_WAIT`]) stalls the writer: the save is marked failed (its
//! change is refused and taken back by the program), every change after it is refused at
//! once ([`Writer::refuses_changes`]), and the writer tries the store with a write that
//! changes nothing, soon and then less often, until one passes; then changes are kept again
//! ([`Event::Recovered`]). A refused change is never written later. Damage found in the file
//! (by a read or save on the way), or the file deleted, replaced, emptied or overwritten in
//! place while the program runs ([`Store::intact`], checked before each batch), makes the
//! store unavailable from then on: changes are refused, requests answer with the reason, and
//! nothing is written in its place.

use crate::entry::{GameEntry, ImportReport};
use crate::error::{Reason, StoreError};
use crate::fault::{Event, Failure, Refusal, SaveFailure, Unavailable};
use crate::game_row::PreparedImport;
use crate::rooms::{OLD_ROOMS_FILE, StoredRoom};
use crate::rows::{RowRevisions, RowState};
use crate::sqlite::SqliteStore;
use crate::store::Store;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use xiangqi_rules::Game;

/// The database file in the data folder.
pub const STORE_FILE: &str = "games.sqlite3";

/// Rounds of writes between two checkpoints of the write-ahead log into the file.
const CHECKPOINT_EVERY: u32 = 100;

/// Most numbers of failed saves remembered.
const MAX_FAILED_KEPT: usize = 100_000;

/// How long a write waits for a lock another program holds on the file before it fails.
pub const WRITE_WAIT: Duration = Duration::from_secs(2);

/// How long one part of an import may hold the writer: a change that comes meanwhile waits
/// no longer than this (and its own write).
pub const IMPORT_SLICE: Duration = Duration::from_millis(20);

/// How long the writer waits before it first tries the store again after writes failed,
/// doubled after each try that fails up to [`RETRY_LAST`].
const RETRY_FIRST: Duration = Duration::from_secs(2);
/// The longest wait between two tries.
const RETRY_LAST: Duration = Duration::from_secs(60);

/// Where the writer says what it did on its own.
pub type Report = Arc<dyn Fn(&Event) + Send + Sync>;

/// A game's entry, built on the writer when its save is taken up (only a game's last snapshot
/// in a batch is built).
pub type EntryOf = Box<dyn FnOnce() -> GameEntry + Send>;

/// A request run on the writer thread.
type Task = Box<dyn FnOnce(&mut dyn Store) + Send>;

enum Job {
    Save {
        key: String,
        entry: EntryOf,
    },
    Review {
        key: String,
        json: String,
    },
    /// A room, to be kept over the version it was read at.
    Room(StoredRoom, u64),
    Run(Task),
    Import(Box<Importing>),
}

impl Job {
    /// Whether the job is a numbered save (a change to wait for).
    fn is_save(&self) -> bool {
        !matches!(self, Job::Run(_) | Job::Import(_))
    }
}

/// An import being written, a part at a time between the other jobs.
struct Importing {
    prepared: PreparedImport,
    done: tokio::sync::oneshot::Sender<Result<ImportReport, StoreError>>,
}

/// The store the program writes to through its one writer, or why there is none. Cheap to
/// clone.
#[derive(Clone)]
pub struct Writer {
    inner: Arc<Inner>,
}

enum Inner {
    Unavailable(Unavailable),
    Open(Open),
}

struct Open {
    /// The writer's queue, and how many saves were queued on it.
    queue: Mutex<Queue>,
    /// How many saves the writer has taken up (committed, or failed and marked in
    /// `shared.failed`); the saves are numbered from 1 in the order they were queued.
    saved: tokio::sync::watch::Receiver<u64>,
    shared: Arc<Shared>,
    rows: RowRevisions,
    /// Where the store is, for messages.
    place: String,
    /// Whether several servers may share the store.
    shared_store: bool,
    report: Report,
}

/// What the writer thread and the handles share.
#[derive(Default)]
struct Shared {
    /// The last failed save of each game that has not been saved since, by key.
    failures: Mutex<HashMap<String, SaveFailure>>,
    /// Why the store stopped while the program ran: from then on it is unavailable.
    broken: Mutex<Option<Unavailable>>,
    /// The imports queued or being written: games in all and games written.
    importing: Mutex<(usize, usize)>,
    /// Why writes fail now, while they do.
    stalled: Mutex<Option<SaveFailure>>,
    /// The numbers of the saves that failed (their changes are refused).
    failed: Mutex<BTreeSet<u64>>,
    /// Of those, the room saves refused because another server changed the room meanwhile.
    conflicted: Mutex<BTreeSet<u64>>,
}

struct Queue {
    jobs: mpsc::Sender<Job>,
    /// Saves queued so far.
    saves: u64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Writer {
    /// No store: the program was started without a data folder.
    pub fn off() -> Writer {
        Writer::unavailable(Unavailable::off())
    }

    /// No store, for `why`.
    pub fn unavailable(why: Unavailable) -> Writer {
        Writer {
            inner: Arc::new(Inner::Unavailable(why)),
        }
    }

    /// Opens the SQLite store in the data folder `folder` ([`STORE_FILE`], created when
    /// missing), takes in an earlier version's rooms file, makes the connection the file's
    /// one writer and starts the writer; when the file cannot be opened, the writer says why
    /// and keeps nothing.
    pub fn open_sqlite(folder: &Path, report: Report) -> Writer {
        let path = folder.join(STORE_FILE);
        let mut store = match SqliteStore::open(&path) {
            Ok(store) => store,
            Err(e) => return Writer::unavailable(Unavailable::of(&e)),
        };
        match store.adopt_rooms_file(&folder.join(OLD_ROOMS_FILE)) {
            Ok(0) => {}
            Ok(count) => report(&Event::RoomsAdopted {
                count,
                into: path.display().to_string(),
            }),
            Err(e) => report(&Event::RoomsNotAdopted(e.to_string())),
        }
        if let Err(e) = store.written_alone(WRITE_WAIT) {
            return Writer::unavailable(Unavailable::of(&e));
        }
        let _ = store.checkpoint();
        Writer::start(Box::new(store), report)
    }

    /// Connects to the PostgreSQL store at `url` (its tables made or brought to the newest
    /// schema) and starts the writer; when it cannot be reached, the writer says why and
    /// keeps nothing.
    pub fn open_postgres(url: &str, report: Report) -> Writer {
        // The connection is made and used outside any async runtime (the client runs its
        // own): here on a thread of its own, then on the writer's.
        let url = url.to_string();
        std::thread::spawn(
            move || match crate::postgres::PostgresStore::connect(&url) {
                Ok(store) => Writer::start(Box::new(store), report),
                Err(e) => Writer::unavailable(Unavailable::of(&e)),
            },
        )
        .join()
        .unwrap_or_else(|_| {
            Writer::unavailable(Unavailable {
                reason: Reason::Database,
                message: "the PostgreSQL store's connection failed unexpectedly".into(),
                path: None,
            })
        })
    }

    /// Starts the writer thread on `store`. A store that cannot be written now (a read-only
    /// file, a full disk, a lock held) starts with changes refused, and takes them once a
    /// write passes.
    pub fn start(mut store: Box<dyn Store>, report: Report) -> Writer {
        let place = store.describe();
        let shared_store = store.shared();
        let shared = Arc::new(Shared::default());
        match store.probe_write() {
            Ok(()) => {}
            Err(e) if e.is_damage() => {
                return Writer::unavailable(Unavailable::damaged(&place, &e));
            }
            Err(e) => {
                report(&Event::Stalled(e.to_string()));
                *lock(&shared.stalled) = Some(SaveFailure::of(&e));
            }
        }
        let (tx, rx) = mpsc::channel();
        let (saved_tx, saved) = tokio::sync::watch::channel(0);
        let mut thread = WriterThread {
            store,
            shared: shared.clone(),
            report: report.clone(),
            retry_after: RETRY_FIRST,
            imports: VecDeque::new(),
            done: 0,
            rounds: 0,
        };
        let spawned = std::thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || thread.run(&rx, &saved_tx));
        if let Err(e) = spawned {
            return Writer::unavailable(Unavailable {
                reason: Reason::Database,
                message: format!("the store's writer cannot start: {e}"),
                path: Some(place),
            });
        }
        Writer {
            inner: Arc::new(Inner::Open(Open {
                queue: Mutex::new(Queue { jobs: tx, saves: 0 }),
                saved,
                shared,
                rows: RowRevisions::default(),
                place,
                shared_store,
                report,
            })),
        }
    }

    fn open(&self) -> Option<&Open> {
        match &*self.inner {
            Inner::Open(open) => Some(open),
            Inner::Unavailable(_) => None,
        }
    }

    /// Whether there is a writer (the store opened at start, even if it stopped since).
    pub fn is_open(&self) -> bool {
        self.open().is_some()
    }

    /// Why there is no store, when there is none (or no longer one).
    pub fn unavailable_reason(&self) -> Option<Unavailable> {
        match &*self.inner {
            Inner::Unavailable(why) => Some(why.clone()),
            Inner::Open(w) => lock(&w.shared.broken).clone(),
        }
    }

    /// Whether the store is one several servers may share (PostgreSQL), so that each keeps
    /// in it what they must agree on, such as the limits on costly requests.
    pub fn is_shared(&self) -> bool {
        self.open().is_some_and(|w| w.shared_store)
    }

    /// Where the store is (its file), when it opened.
    pub fn place(&self) -> Option<&str> {
        self.open().map(|w| w.place.as_str())
    }

    /// Queues `job`; for a save, its number (the saves are numbered from 1 in the queue's
    /// order), else 0; `None` when there is no writer to queue it on.
    fn send(&self, job: Job) -> Option<u64> {
        let w = self.open()?;
        // Numbering and sending under one lock keeps the numbers in the queue's order.
        let mut queue = lock(&w.queue);
        let is_save = job.is_save();
        queue.jobs.send(job).ok()?;
        if is_save {
            queue.saves += 1;
            return Some(queue.saves);
        }
        Some(0)
    }

    /// Refused while changes cannot be kept: writes fail now, or the store stopped while the
    /// program ran. Never when the program keeps nothing by choice.
    pub fn refuses_changes(&self) -> Result<(), Refusal> {
        let Some(w) = self.open() else {
            return Ok(());
        };
        if let Some(why) = lock(&w.shared.broken).as_ref() {
            return Err(Refusal::new(why.message.clone()));
        }
        if let Some(why) = lock(&w.shared.stalled).as_ref() {
            return Err(Refusal::new(why.message.clone()));
        }
        Ok(())
    }

    /// Queues `room` to be kept over the version `over` (the one it was changed from; see
    /// [`Store::put_rooms_checked`]): the number of its save, to wait for with
    /// [`Writer::saved_through`]; `Ok(None)` when the program keeps nothing by choice (no
    /// data folder: rooms then live in memory). Refused while changes cannot be kept, and
    /// when the store could not be opened: two people's game is not played on a promise
    /// the program cannot keep.
    pub fn queue_room(&self, room: StoredRoom, over: u64) -> Result<Option<u64>, Refusal> {
        let w = match &*self.inner {
            Inner::Open(w) => w,
            Inner::Unavailable(why) if why.reason == Reason::Off => return Ok(None),
            Inner::Unavailable(why) => return Err(Refusal::new(why.message.clone())),
        };
        self.refuses_changes()?;
        match self.send(Job::Room(room, over)) {
            Some(n) => Ok(Some(n)),
            None => Err(Refusal::new(format!(
                "the store's writer at {} has stopped",
                w.place
            ))),
        }
    }

    /// Queues a save of the game under `key`, its entry built by `entry` on the writer: the
    /// save's number; `None` when there is no writer.
    pub fn queue_save(&self, key: String, entry: EntryOf) -> Option<u64> {
        self.send(Job::Save { key, entry })
    }

    /// Queues `review` (JSON) to be kept with the game saved under `key`.
    pub fn queue_review(&self, key: &str, review: String) {
        self.send(Job::Review {
            key: key.to_string(),
            json: review,
        });
    }

    /// Whether the save numbered `number` (a game's or a room's) failed.
    pub fn save_failed(&self, number: u64) -> bool {
        self.open()
            .is_some_and(|w| lock(&w.shared.failed).contains(&number))
    }

    /// Whether the room save numbered `number` was refused because another server had
    /// changed the room since it was read (the room is to be read again).
    pub fn save_conflicted(&self, number: u64) -> bool {
        self.open()
            .is_some_and(|w| lock(&w.shared.conflicted).contains(&number))
    }

    /// The refusal of the change whose save numbered `number` failed (once it is taken up):
    /// what the store meets now, else that the write failed.
    pub fn save_refusal(&self, number: u64) -> Option<Refusal> {
        self.save_failed(number).then(|| {
            self.refuses_changes()
                .err()
                .unwrap_or_else(|| Refusal::new("the write failed"))
        })
    }

    /// Waits until the saves numbered up to `number` are taken up (committed, or failed and
    /// marked); at once when the writer has stopped.
    pub async fn saved_through(&self, number: u64) {
        let Some(w) = self.open() else {
            return;
        };
        let mut saved = w.saved.clone();
        // An error means the writer is gone: nothing more will be saved.
        let _ = saved.wait_for(|&done| done >= number).await;
    }

    /// Waits until every save queued so far is taken up.
    pub async fn flush(&self) {
        let Some(w) = self.open() else {
            return;
        };
        let queued = lock(&w.queue).saves;
        self.saved_through(queued).await;
    }

    /// How many saves the writer has taken up; all of them when there is no writer.
    pub fn saved_count(&self) -> u64 {
        self.open().map_or(u64::MAX, |w| *w.saved.borrow())
    }

    /// Saves queued and not yet taken up.
    pub fn pending_saves(&self) -> u64 {
        self.open().map_or(0, |w| {
            lock(&w.queue).saves.saturating_sub(*w.saved.borrow())
        })
    }

    /// Adds the games of `prepared`, written a part at a time between the other writes; the
    /// report once all are in. A failure part of the way leaves the games written before it.
    pub async fn import(&self, prepared: PreparedImport) -> Result<ImportReport, Failure> {
        if let Some(why) = self.unavailable_reason() {
            return Err(Failure::Unavailable(why));
        }
        let Some(w) = self.open() else {
            return Err(Failure::Stopped);
        };
        let total = prepared.progress().0;
        let (done, answer) = tokio::sync::oneshot::channel();
        lock(&w.shared.importing).0 += total;
        if self
            .send(Job::Import(Box::new(Importing { prepared, done })))
            .is_none()
        {
            return Err(Failure::Stopped);
        }
        match answer.await {
            Ok(Ok(report)) => Ok(report),
            Ok(Err(e)) => {
                (w.report)(&Event::RequestFailed(format!("an import stopped: {e}")));
                Err(Failure::Failed(e))
            }
            Err(_) => Err(Failure::Stopped),
        }
    }

    /// The imports under way: games in all and games written; `None` when none runs.
    pub fn import_progress(&self) -> Option<(usize, usize)> {
        self.open()
            .map(|w| *lock(&w.shared.importing))
            .filter(|&(total, _)| total > 0)
    }

    /// The rooms that changed at or after `since_ms`, read on the writer (blocking, for a
    /// program starting); none when there is no store.
    pub fn rooms_since(&self, since_ms: u64) -> Result<Vec<StoredRoom>, StoreError> {
        if self.unavailable_reason().is_some() {
            return Ok(Vec::new());
        }
        let (tx, rx) = mpsc::channel();
        let task: Task = Box::new(move |store| {
            let _ = tx.send(store.rooms_since(since_ms));
        });
        if self.send(Job::Run(task)).is_none() {
            return Ok(Vec::new());
        }
        rx.recv().unwrap_or_else(|_| Ok(Vec::new()))
    }

    /// Runs `request` on the store, after the saves queued before it. Damage it finds makes
    /// the store unavailable.
    pub async fn run<R: Send + 'static>(
        &self,
        request: impl FnOnce(&mut dyn Store) -> Result<R, StoreError> + Send + 'static,
    ) -> Result<R, Failure> {
        if let Some(why) = self.unavailable_reason() {
            return Err(Failure::Unavailable(why));
        }
        let Some(w) = self.open() else {
            return Err(Failure::Stopped);
        };
        let (tx, rx) = tokio::sync::oneshot::channel();
        let task: Task = Box::new(move |store| {
            let _ = tx.send(request(store));
        });
        if self.send(Job::Run(task)).is_none() {
            return Err(Failure::Stopped);
        }
        match rx.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => {
                (w.report)(&Event::RequestFailed(e.to_string()));
                if e.is_damage() {
                    let why = Unavailable::damaged(&w.place, &e);
                    *lock(&w.shared.broken) = Some(why.clone());
                    return Err(Failure::Unavailable(why));
                }
                Err(Failure::Failed(e))
            }
            Err(_) => Err(Failure::Stopped),
        }
    }

    /// The revision of the row under `key` now: a session linked to the row starts from it.
    pub fn row_revision(&self, key: &str) -> u64 {
        self.open().map_or(0, |w| w.rows.revision(key))
    }

    /// The row under `key` as it stands, to put back with [`Writer::restore_rows`].
    pub fn row_state(&self, key: &str) -> Option<RowState> {
        self.open().and_then(|w| w.rows.state(key))
    }

    /// Claims the next revision of the row under `key` for a save of `game` from a session
    /// that saw revision `seen`: the new revision, or `None` when the row has moved on since
    /// and `game` does not go on from the game last queued for it (or there is no writer).
    pub fn claim_row(&self, key: &str, seen: u64, game: &Game) -> Option<u64> {
        self.open().and_then(|w| w.rows.claim(key, seen, game))
    }

    /// Puts the rows back as they were before a refused change's claims.
    pub fn restore_rows(&self, before: Vec<(String, Option<RowState>)>) {
        if let Some(w) = self.open() {
            w.rows.restore(before);
        }
    }

    /// Whether the last save of the game under `key` was refused because the game was
    /// deleted from the store.
    pub fn is_deleted(&self, key: &str) -> bool {
        self.write_failure(key)
            .is_some_and(|f| f.reason == Reason::Deleted)
    }

    /// The last failed save of the game saved under `key`, if it has not been saved since.
    pub fn write_failure(&self, key: &str) -> Option<SaveFailure> {
        self.open()
            .and_then(|w| lock(&w.shared.failures).get(key).cloned())
    }
}

/// The writer thread's state: the store, what failed, and the imports under way.
struct WriterThread {
    store: Box<dyn Store>,
    shared: Arc<Shared>,
    report: Report,
    /// The imports to write, the first one under way.
    imports: VecDeque<Box<Importing>>,
    /// How many saves have been taken up (the next one is numbered one more).
    done: u64,
    /// Rounds of writes since the last checkpoint.
    rounds: u32,
    retry_after: Duration,
}

impl WriterThread {
    /// Runs the jobs until the program goes. Of the jobs waiting together, the saves go first
    /// (of several saves of a game, only the last is written), then `saved` counts them, then
    /// the other requests run in their order. While writes fail, the store is tried again
    /// after a while, without waiting for the next change.
    fn run(&mut self, jobs: &mpsc::Receiver<Job>, saved: &tokio::sync::watch::Sender<u64>) {
        loop {
            let first = if !self.imports.is_empty() {
                // An import under way: the jobs waiting go first, then its next part.
                match jobs.try_recv() {
                    Ok(job) => Some(job),
                    Err(mpsc::TryRecvError::Empty) => None,
                    Err(mpsc::TryRecvError::Disconnected) => return,
                }
            } else {
                let next = if lock(&self.shared.stalled).is_none() {
                    jobs.recv()
                        .map_err(|_| mpsc::RecvTimeoutError::Disconnected)
                } else {
                    jobs.recv_timeout(self.retry_after)
                };
                match next {
                    Ok(job) => Some(job),
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        self.try_again();
                        continue;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => return,
                }
            };
            let Some(first) = first else {
                self.import_next_part();
                continue;
            };
            let mut batch = vec![first];
            batch.extend(jobs.try_iter());
            let (saves, requests): (Vec<Job>, Vec<Job>) = batch.into_iter().partition(Job::is_save);
            let count = saves.len() as u64;
            let usable = self.usable();
            self.write_saves(saves, usable);
            self.after_writes();
            self.done += count;
            saved.send_modify(|done| *done += count);
            for job in requests {
                match job {
                    Job::Run(task) => task(&mut *self.store),
                    Job::Import(import) => self.imports.push_back(import),
                    _ => {}
                }
            }
            if !self.imports.is_empty() {
                self.import_next_part();
            }
        }
    }

    fn say(&self, event: Event) {
        (self.report)(&event);
    }

    /// Counts a round of writes, and every [`CHECKPOINT_EVERY`] rounds makes them durable in
    /// the store's main file.
    fn after_writes(&mut self) {
        self.rounds += 1;
        if self.rounds < CHECKPOINT_EVERY || lock(&self.shared.broken).is_some() {
            return;
        }
        self.rounds = 0;
        if self.usable() {
            let _ = self.store.checkpoint();
        }
    }

    /// Writes the next part of the import under way ([`IMPORT_SLICE`] at most); answers it
    /// once all its games are in, or it failed.
    fn import_next_part(&mut self) {
        self.after_writes();
        let usable = self.usable();
        let Some(import) = self.imports.front_mut() else {
            return;
        };
        let before = import.prepared.progress().1;
        let written = if usable {
            self.store
                .import_some(&mut import.prepared, usize::MAX, IMPORT_SLICE)
        } else {
            Err(StoreError::CannotOpen {
                path: self.store.describe().into(),
                reason: "the store stopped while the games were imported".into(),
            })
        };
        let (total, now) = import.prepared.progress();
        lock(&self.shared.importing).1 += now - before;
        if matches!(written, Ok(true)) {
            return;
        }
        if let Some(import) = self.imports.pop_front() {
            {
                let mut importing = lock(&self.shared.importing);
                importing.0 = importing.0.saturating_sub(total);
                importing.1 = importing.1.saturating_sub(now);
            }
            let Importing { prepared, done } = *import;
            let answer = written.map(|_| prepared.into_report());
            if let Err(e) = &answer
                && e.is_damage()
            {
                self.break_for_damage(e);
            }
            let _ = done.send(answer);
        }
    }

    /// Whether the store can still be written: not broken, and still the one opened. A file
    /// found gone or emptied breaks it.
    fn usable(&mut self) -> bool {
        if lock(&self.shared.broken).is_some() {
            return false;
        }
        match self.store.intact() {
            Ok(()) => true,
            Err(e) => {
                self.break_for_damage(&e);
                false
            }
        }
    }

    /// Makes the store unavailable for the damage `error` found.
    fn break_for_damage(&mut self, error: &StoreError) {
        let why = Unavailable::damaged(&self.store.describe(), error);
        self.say(Event::Broken(why.clone()));
        *lock(&self.shared.broken) = Some(why);
    }

    /// Writes `saves` in order, a game's last snapshot standing for the ones before it, and
    /// marks the numbers of the saves that failed.
    fn write_saves(&mut self, saves: Vec<Job>, usable: bool) {
        let first = self.done + 1;
        // Each room's last state, over the version its first change in the batch was read
        // at, and the numbers of its saves.
        let mut rooms: HashMap<String, (StoredRoom, u64)> = HashMap::new();
        let mut room_saves: HashMap<String, Vec<u64>> = HashMap::new();
        // The numbers of each game's saves in the batch: its last snapshot stands for them.
        let mut game_saves: HashMap<String, Vec<u64>> = HashMap::new();
        for (i, job) in saves.iter().enumerate() {
            if let Job::Save { key, .. } = job {
                game_saves
                    .entry(key.clone())
                    .or_default()
                    .push(first + i as u64);
            }
        }
        let mut failed_saves = Vec::new();
        for (i, job) in saves.into_iter().enumerate() {
            match job {
                Job::Room(room, over) => {
                    room_saves
                        .entry(room.id.clone())
                        .or_default()
                        .push(first + i as u64);
                    let over = rooms.get(&room.id).map_or(over, |(_, first)| *first);
                    rooms.insert(room.id.clone(), (room, over));
                }
                Job::Save { key, entry }
                    if game_saves.get(&key).and_then(|n| n.last()) == Some(&(first + i as u64)) =>
                {
                    let numbers = game_saves.remove(&key).unwrap_or_default();
                    // While writes fail, nothing is written: the change is refused and must
                    // never be written later.
                    if !usable || lock(&self.shared.stalled).is_some() || !self.save(key, entry) {
                        failed_saves.extend(numbers);
                    }
                }
                _ if !usable => {}
                Job::Save { .. } | Job::Run(_) | Job::Import(_) => {}
                Job::Review { key, json } => {
                    let store = &mut self.store;
                    let saved = store
                        .id_of_key(&key)
                        .and_then(|id| id.map_or(Ok(false), |id| store.set_review(id, &json)));
                    if let Err(e) = saved {
                        self.say(Event::ReviewNotSaved {
                            key: key.clone(),
                            error: e.to_string(),
                        });
                        lock(&self.shared.failures).insert(key, SaveFailure::of(&e));
                    }
                }
            }
        }
        if !rooms.is_empty() {
            match usable.then(|| self.put_rooms(rooms)).flatten() {
                Some(conflicts) => {
                    let mut conflicted = lock(&self.shared.conflicted);
                    for id in conflicts {
                        let numbers = room_saves.remove(&id).unwrap_or_default();
                        conflicted.extend(numbers.iter().copied());
                        failed_saves.extend(numbers);
                    }
                    if conflicted.len() > MAX_FAILED_KEPT {
                        let keep = conflicted
                            .split_off(&(self.done + 1).saturating_sub(MAX_FAILED_KEPT as u64 / 2));
                        *conflicted = keep;
                    }
                }
                None => failed_saves.extend(room_saves.into_values().flatten()),
            }
        }
        if !failed_saves.is_empty() {
            let mut failed = lock(&self.shared.failed);
            failed.extend(failed_saves);
            // Only recent numbers are asked about: the oldest half goes past a bound.
            if failed.len() > MAX_FAILED_KEPT {
                let keep =
                    failed.split_off(&(self.done + 1).saturating_sub(MAX_FAILED_KEPT as u64 / 2));
                *failed = keep;
            }
        }
    }

    /// Saves one game; whether it was saved (a game deleted meanwhile, or whose record cannot
    /// be written, counts as saved: its change is not refused, and the failure is kept for
    /// the page). A failure that may pass stalls the writer; damage breaks the store.
    fn save(&mut self, key: String, entry: EntryOf) -> bool {
        match self.store.save(&entry()) {
            Ok(_) => {
                lock(&self.shared.failures).remove(&key);
                self.retry_after = RETRY_FIRST;
                self.unstall();
                true
            }
            Err(e) => {
                self.say(Event::GameNotSaved {
                    key: key.clone(),
                    error: e.to_string(),
                });
                lock(&self.shared.failures).insert(key, SaveFailure::of(&e));
                if e.is_damage() {
                    self.break_for_damage(&e);
                } else if matches!(e, StoreError::Deleted { .. } | StoreError::Record(_)) {
                    return true;
                } else {
                    self.stall(&e);
                }
                false
            }
        }
    }

    /// Keeps `rooms` (each room's last state, over the version it was read at) in one
    /// transaction: the ids of those another server changed meanwhile (not written), or
    /// `None` when none was kept. While writes fail they are not tried (their changes are
    /// refused, so they must never be written later); a failure stalls the writer until a
    /// write passes again, and damage breaks the store.
    fn put_rooms(&mut self, rooms: HashMap<String, (StoredRoom, u64)>) -> Option<Vec<String>> {
        if lock(&self.shared.stalled).is_some() {
            return None;
        }
        let batch: Vec<(StoredRoom, u64)> = rooms.into_values().collect();
        match self.store.put_rooms_checked(&batch) {
            Ok(conflicts) => Some(conflicts),
            Err(e) => {
                self.say(Event::RoomsNotSaved {
                    count: batch.len(),
                    error: e.to_string(),
                });
                if e.is_damage() {
                    self.break_for_damage(&e);
                } else {
                    self.stall(&e);
                }
                None
            }
        }
    }

    /// Marks writes as failing for `error`, until one passes again.
    fn stall(&mut self, error: &StoreError) {
        let mut stalled = lock(&self.shared.stalled);
        if stalled.is_none() {
            self.say(Event::Stalled(error.to_string()));
        }
        *stalled = Some(SaveFailure::of(error));
    }

    /// Writes pass again: the writer is no longer stalled.
    fn unstall(&mut self) {
        let was = lock(&self.shared.stalled).take();
        if was.is_some() {
            self.say(Event::Recovered);
        }
    }

    /// While writes fail, tries the store again with a write that changes nothing; waits
    /// longer before the next try when it fails again.
    fn try_again(&mut self) {
        if !self.usable() || lock(&self.shared.stalled).is_none() {
            return;
        }
        match self.store.probe_write() {
            Ok(()) => {
                self.retry_after = RETRY_FIRST;
                self.unstall();
            }
            Err(e) if e.is_damage() => self.break_for_damage(&e),
            Err(_) => self.retry_after = (self.retry_after * 2).min(RETRY_LAST),
        }
    }
}
