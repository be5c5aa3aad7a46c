//! The games archive as the server keeps it: the database opened from the data folder (or
//! why it could not be), the one writer thread that saves games and rooms in the order their
//! changes came, and what each game session knows of its row. An answer means the change is
//! saved: a change that cannot be saved is refused (503 `not-saved`) and taken back.
//!
//! Every change of a game passes through [`Sessions::with`](crate::kit::session::Sessions::with),
//! which compares the session's version (and its archive revision: players, a fallen flag)
//! before and after and queues a snapshot of it for the writer thread. Every save is
//! numbered as it is queued, and the writer says how far it has saved: the answer to a
//! request that may change a game waits until every save queued before it is committed
//! ([`answer_when_saved`]), so a change the page was told of is on disk even if the process
//! is killed right after. The writer saves the queue in order, the latest snapshot of a game
//! standing for the ones before it. A room's save is numbered like a game's, and the rooms'
//! hub sends a room's new state once its save is committed ([`ArchiveService::queue_room`],
//! [`ArchiveService::room_saved`]). Requests of the archive routes run on the same thread
//! after the saves queued before them; the saves waiting when the writer takes up its queue
//! go first, and an import is written a part at a time between them, so that a long request
//! never holds a move's answer for long.
//!
//! A save that fails for a reason that may pass (a full disk, a read-only file, a lock held
//! by another program past [`WRITE_WAIT`]) stalls the writer: the change is refused and taken
//! back (the game as it was kept, the row's revision as it was), every change after it is
//! refused at once, and the writer tries the file with a write that changes nothing, sooner
//! then less often, until one passes; then changes are kept again, and the server says so on
//! its output. A refused change is never written later. Damage found in the file (by the
//! integrity check at start, or by a read or save on the way), or the file deleted, replaced,
//! emptied or overwritten in place while the server runs (the writer copies its log into the
//! file itself and knows the file's length and write time after each copy; any other write
//! shows), makes the archive unavailable from then on: the page
//! says so, its routes answer 503, changes are refused, and nothing is written in its place.
//! (An archive that could not be opened at start is no archive: the server then plays
//! without keeping games, as it does without a data folder, and says so.)
//!
//! Several sessions may be linked to one row (two tabs, or a page that brings back an older
//! copy). Each row has a revision, counted up by every save queued for it, and each session
//! remembers the revision it last saw. A change from a session whose row has moved on since
//! is saved to the row only when its game goes on from the row's (every move saved is in it,
//! so nothing is lost: a second tab that only names the players, or plays on from the same
//! moves); any other never overwrites the row, but goes on as a new game, and the page is
//! told ([`Notice::Forked`]). A deleted game's key stays deleted in the database, so a board still
//! playing it never brings it back (`archive-deleted`).

use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::session::GameSession;
use crate::kit::session::Sessions;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use xiangqi_archive::{
    Archive, ArchiveError, GameEntry, GameResult, ImportReport, Level, OLD_ROOMS_FILE,
    PreparedImport, Source, StoredRoom, new_key,
};
use xiangqi_rules::{Color, Game, Move, Position};

/// The database file in the data folder.
pub const ARCHIVE_FILE: &str = "games.sqlite3";

/// The players of a game as the page names them, and the engine level played against.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Players {
    /// The Red player's name.
    pub red: String,
    /// The Black player's name.
    pub black: String,
    /// The engine's level, for a game against it.
    pub level: Option<u32>,
}

/// What a game session knows of its row in the archive.
#[derive(Clone, Debug)]
pub struct ArchiveLink {
    /// The key its row is saved under; `None` for a board that is not archived (a lesson's
    /// or a puzzle's).
    key: Option<String>,
    /// Its players.
    players: Players,
    /// The side whose flag fell on the page's clock, which ends the game.
    flagged: Option<Color>,
    /// The date it started, `YYYY.MM.DD`.
    date: String,
    /// Bumped when the players or the flag change (a move bumps the session's version).
    revision: u64,
    /// Whether it has been handed to the archive (from its first move on).
    saved: bool,
    /// A finished game opened from the archive: its first change starts a new row, so that
    /// the game kept stays as it ended.
    fork_on_change: bool,
    /// The revision of its row this session last saw or wrote (see [`ArchiveService`]'s row
    /// revisions): a change made from an older one would overwrite newer moves.
    row_revision: u64,
    /// What to tell the page once, at its next look at the game's row.
    notice: Option<Notice>,
}

/// A game's change handed to the archive: its save queued, or refused at once.
pub enum Queued {
    /// The save, by its number, and the rows' states before it (to put back when the save
    /// fails).
    Saved {
        /// The save's number.
        number: u64,
        /// Each row claimed for it, as it was before.
        rows_before: Vec<(String, Option<RowState>)>,
    },
    /// Changes cannot be kept now.
    Refused(ApiError),
}

/// What the archive did with a game on its own, for the page to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The row under `from` had moved on (another tab or window played it, or this copy was
    /// older than the saved game): this copy goes on as a new game under the session's key.
    Forked {
        /// The key of the row that was not overwritten.
        from: String,
    },
}

impl ArchiveLink {
    /// A link for a new game, saved from its first move under a fresh key.
    pub fn new() -> ArchiveLink {
        ArchiveLink {
            key: Some(new_key()),
            players: Players::default(),
            flagged: None,
            date: xiangqi_records::date::pgn_today(),
            revision: 0,
            saved: false,
            fork_on_change: false,
            row_revision: 0,
            notice: None,
        }
    }

    /// A link to the row saved under `key`, which every change updates.
    pub fn resumed(key: String, players: Players, date: Option<String>) -> ArchiveLink {
        ArchiveLink {
            key: Some(key),
            players,
            date: date.unwrap_or_else(xiangqi_records::date::pgn_today),
            saved: true,
            ..ArchiveLink::new()
        }
    }

    /// A link to a finished row opened for replay: a change starts a new game.
    pub fn replayed(key: String, players: Players, date: String) -> ArchiveLink {
        ArchiveLink {
            fork_on_change: true,
            ..ArchiveLink::resumed(key, players, Some(date))
        }
    }

    /// Moves the link to a new row under a fresh key, because the row under its key holds a
    /// newer game than this copy; the page is told so.
    pub fn fork(&mut self) {
        if let Some(from) = self.key.replace(new_key()) {
            self.notice = Some(Notice::Forked { from });
        }
        self.saved = false;
        self.row_revision = 0;
    }

    /// Takes what there is to tell the page, once.
    pub fn take_notice(&mut self) -> Option<Notice> {
        self.notice.take()
    }

    /// The key of the game's row, when it is archived.
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }

    /// Whether the game has been handed to the archive.
    pub fn is_saved(&self) -> bool {
        self.saved
    }

    /// Sets the players; a change is saved with the game.
    pub fn set_players(&mut self, players: Players) {
        if self.players != players {
            self.players = players;
            self.revision += 1;
        }
    }

    /// Ends the game on time: `side` ran out.
    pub fn set_flagged(&mut self, side: Option<Color>) {
        if self.flagged != side {
            self.flagged = side;
            self.revision += 1;
        }
    }

    /// What tells a change apart: the session's version and this link's revision.
    pub fn mark(&self, version: u64) -> (u64, u64) {
        (version, self.revision)
    }
}

impl Default for ArchiveLink {
    fn default() -> Self {
        ArchiveLink::new()
    }
}

/// A game as it stood after a change, to be saved.
struct Snapshot {
    key: String,
    /// The record: the moves played, with the variations.
    record: xiangqi_records::Game,
    /// The game's result and the code of why it ended, once it has.
    ending: Option<(GameResult, &'static str)>,
    players: Players,
    flagged: Option<Color>,
    date: String,
}

/// The reason of an archive the server was started without (no data folder).
pub const ARCHIVE_OFF: &str = "archive-off";
/// The reason of an archive whose file was deleted or replaced while the server ran.
pub const ARCHIVE_GONE: &str = "archive-gone";

/// Every reason an archive can be unavailable or fail, as the page gets it: the archive's
/// own codes, [`ARCHIVE_OFF`] and [`ARCHIVE_GONE`].
pub fn archive_reasons() -> impl Iterator<Item = &'static str> {
    [ARCHIVE_OFF, ARCHIVE_GONE]
        .into_iter()
        .chain(xiangqi_archive::ArchiveError::CODES)
}

/// Why the archive is not there, for the page to word: a code and its blanks.
#[derive(Clone, Debug)]
pub struct Unavailable {
    /// `archive-off` (no data folder), or the archive's error code (`archive-corrupt` …).
    pub code: &'static str,
    /// The reason in English.
    pub message: String,
    /// The file or folder concerned, if any.
    pub path: Option<String>,
}

/// A request run on the writer thread.
type Task = Box<dyn FnOnce(&mut Archive) + Send>;

enum Job {
    Save(Box<Snapshot>),
    Review { key: String, json: String },
    Room(StoredRoom),
    Run(Task),
    Import(Box<Importing>),
}

/// An import being written, a part at a time between the other jobs.
struct Importing {
    prepared: PreparedImport,
    done: tokio::sync::oneshot::Sender<Result<ImportReport, ArchiveError>>,
}

/// Rounds of writes between two checkpoints of the write-ahead log into the file.
const CHECKPOINT_EVERY: u32 = 100;

/// Most numbers of failed saves remembered.
const MAX_FAILED_KEPT: usize = 100_000;

/// How long a write waits for a lock another program holds on the file before it fails.
const WRITE_WAIT: Duration = Duration::from_secs(2);

/// How long one part of an import may hold the writer: a change that comes meanwhile waits
/// no longer than this (and its own write).
const IMPORT_SLICE: Duration = Duration::from_millis(20);

/// The archive the server writes to, or why there is none. Cheap to clone.
#[derive(Clone)]
pub struct ArchiveService {
    inner: Arc<Inner>,
}

enum Inner {
    Unavailable(Unavailable),
    Open(Writer),
}

struct Writer {
    /// The writer's queue, and how many saves were queued on it.
    queue: Mutex<Queue>,
    /// How many saves the writer has committed (or failed: a failure is kept in
    /// `failures`); the saves are numbered from 1 in the order they were queued.
    saved: tokio::sync::watch::Receiver<u64>,
    /// The last failed save of each game that has not been saved since, by key.
    failures: Arc<Mutex<HashMap<String, SaveFailure>>>,
    /// Each row's revision and the game last queued for it, since the server started.
    rows: Mutex<HashMap<String, RowState>>,
    /// Why the archive stopped while the server ran (its file damaged, emptied, deleted or
    /// replaced): from then on it is unavailable, as if it had not opened.
    broken: Arc<Mutex<Option<Unavailable>>>,
    /// The imports queued or being written: games in all and games written.
    importing: Arc<Mutex<(usize, usize)>>,
    /// Why writes fail now, while they do (a full disk, a read-only file, a lock held too
    /// long); the writer tries the file again until a write passes.
    stalled: Arc<Mutex<Option<SaveFailure>>>,
    /// The numbers of the saves that failed (their changes are refused).
    failed: Arc<Mutex<std::collections::BTreeSet<u64>>>,
    path: PathBuf,
}

/// What the server knows of a row it saved to since it started.
#[derive(Clone)]
pub struct RowState {
    /// How many saves were queued for it.
    revision: u64,
    /// The start of the game last queued for it.
    start: Position,
    /// The moves of the game last queued for it.
    moves: Vec<Move>,
}

/// Why the last save of a game failed.
#[derive(Clone, Debug)]
pub struct SaveFailure {
    /// The archive's error code: `archive-deleted` for a game deleted from the archive,
    /// else what the database said (`archive-database` …).
    pub code: &'static str,
    /// The reason in English.
    pub message: String,
}

struct Queue {
    jobs: mpsc::Sender<Job>,
    /// Saves (games and reviews) queued so far.
    saves: u64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl ArchiveService {
    /// No archive: the server was started without a data folder.
    pub fn off() -> ArchiveService {
        ArchiveService::unavailable(Unavailable {
            code: ARCHIVE_OFF,
            message: "the server keeps no games: it was started without a data folder".into(),
            path: None,
        })
    }

    fn unavailable(why: Unavailable) -> ArchiveService {
        ArchiveService {
            inner: Arc::new(Inner::Unavailable(why)),
        }
    }

    /// Opens the archive file in the data folder `folder` (created when missing) and starts
    /// its writer thread; when it cannot be opened, the service says why and keeps nothing.
    pub fn open(folder: &Path) -> ArchiveService {
        let path = folder.join(ARCHIVE_FILE);
        let mut archive = match Archive::open(&path) {
            Ok(archive) => archive,
            Err(e) => {
                return ArchiveService::unavailable(Unavailable {
                    code: e.code(),
                    message: e.to_string(),
                    path: e.path().map(|p| p.display().to_string()),
                });
            }
        };
        // Rooms an earlier version kept in a file of their own come into the archive once.
        match archive.adopt_rooms_file(&folder.join(OLD_ROOMS_FILE)) {
            Ok(0) => {}
            Ok(n) => crate::say!("rooms: {n} rooms taken into {}", path.display()),
            Err(e) => crate::say_err!("rooms: {e}"),
        }
        let (tx, rx) = mpsc::channel();
        let (saved_tx, saved) = tokio::sync::watch::channel(0);
        let failures = Arc::new(Mutex::new(HashMap::new()));
        let broken = Arc::new(Mutex::new(None));
        let importing = Arc::new(Mutex::new((0, 0)));
        let stalled = Arc::new(Mutex::new(None));
        let failed = Arc::new(Mutex::new(std::collections::BTreeSet::new()));
        // A lock held by another program is waited for briefly: a change is refused in good
        // time rather than held. The file is written by the writer's checkpoints only.
        let _ = archive.set_busy_timeout(WRITE_WAIT);
        let _ = archive.checkpoint_by_hand();
        let mut writer = WriterThread {
            watch: FileWatch::of(&path),
            archive,
            failures: failures.clone(),
            broken: broken.clone(),
            retry_after: RETRY_FIRST,
            imports: std::collections::VecDeque::new(),
            importing: importing.clone(),
            stalled: stalled.clone(),
            failed: failed.clone(),
            done: 0,
            rounds: 0,
        };
        let spawned = std::thread::Builder::new()
            .name("archive-writer".into())
            .spawn(move || writer.run(&rx, &saved_tx));
        if let Err(e) = spawned {
            return ArchiveService::unavailable(Unavailable {
                code: "archive-database",
                message: format!("the archive's writer cannot start: {e}"),
                path: Some(path.display().to_string()),
            });
        }
        ArchiveService {
            inner: Arc::new(Inner::Open(Writer {
                queue: Mutex::new(Queue { jobs: tx, saves: 0 }),
                saved,
                failures,
                rows: Mutex::new(HashMap::new()),
                broken,
                importing,
                stalled,
                failed,
                path,
            })),
        }
    }

    /// Why there is no archive, when there is none (or no longer one).
    pub fn unavailable_reason(&self) -> Option<Unavailable> {
        match &*self.inner {
            Inner::Unavailable(why) => Some(why.clone()),
            Inner::Open(w) => lock(&w.broken).clone(),
        }
    }

    /// The database file, when the archive is open.
    pub fn path(&self) -> Option<&Path> {
        match &*self.inner {
            Inner::Open(w) => Some(&w.path),
            Inner::Unavailable(_) => None,
        }
    }

    fn send(&self, job: Job) -> bool {
        self.send_numbered(job).is_some()
    }

    /// Queues `job`; for a save, its number (the saves are numbered from 1 in the queue's
    /// order), else 0; `None` when there is no writer to queue it on.
    fn send_numbered(&self, job: Job) -> Option<u64> {
        let Inner::Open(w) = &*self.inner else {
            return None;
        };
        // Numbering and sending under one lock keeps the numbers in the queue's order.
        let mut queue = lock(&w.queue);
        let is_save = !matches!(job, Job::Run(_) | Job::Import(_));
        queue.jobs.send(job).ok()?;
        if is_save {
            queue.saves += 1;
            return Some(queue.saves);
        }
        Some(0)
    }

    /// Queues `room` to be kept: the number of its save, to wait for with
    /// [`ArchiveService::room_saved`]; `Ok(None)` when the server keeps nothing (it was
    /// started without a data folder): rooms then live in memory. Refused (503
    /// `not-saved`) while writes fail or the archive has stopped.
    pub fn queue_room(&self, room: StoredRoom) -> Result<Option<u64>, ApiError> {
        let Inner::Open(w) = &*self.inner else {
            return Ok(None);
        };
        self.refuses_changes()?;
        match self.send_numbered(Job::Room(room)) {
            Some(n) => Ok(Some(n)),
            None => Err(not_saved(&format!(
                "the archive's writer at {} has stopped",
                w.path.display()
            ))),
        }
    }

    /// 503 `not-saved` while changes cannot be kept: writes fail now, or the archive stopped
    /// while the server ran. Nothing when the server keeps nothing by choice.
    pub fn refuses_changes(&self) -> Result<(), ApiError> {
        let Inner::Open(w) = &*self.inner else {
            return Ok(());
        };
        if let Some(why) = lock(&w.broken).as_ref() {
            return Err(not_saved(&why.message));
        }
        if let Some(why) = lock(&w.stalled).as_ref() {
            return Err(not_saved(&why.message));
        }
        Ok(())
    }

    /// Whether the save numbered `number` (a game's or a room's) failed.
    pub fn save_failed(&self, number: u64) -> bool {
        match &*self.inner {
            Inner::Open(w) => lock(&w.failed).contains(&number),
            Inner::Unavailable(_) => false,
        }
    }

    /// Waits for the room save numbered `number`; refused (503 `not-saved`) when it failed.
    pub async fn room_saved(&self, number: u64) -> Result<(), ApiError> {
        self.saved_through(number).await;
        match self.save_refusal(number) {
            Some(refusal) => Err(refusal),
            None => Ok(()),
        }
    }

    /// The refusal of the change whose save numbered `number` failed (once it is done):
    /// what the archive meets now, else that the write failed.
    fn save_refusal(&self, number: u64) -> Option<ApiError> {
        self.save_failed(number).then(|| {
            self.refuses_changes()
                .err()
                .unwrap_or_else(|| not_saved("the write failed"))
        })
    }

    /// Waits until the saves numbered up to `number` are committed (or have failed and are
    /// kept to be tried again); at once when the writer has stopped.
    pub async fn saved_through(&self, number: u64) {
        let Inner::Open(w) = &*self.inner else {
            return;
        };
        let mut saved = w.saved.clone();
        let _ = saved.wait_for(|&done| done >= number).await;
    }

    /// Adds the games of `prepared`, written a part at a time between the other writes (a
    /// move's save never waits long behind a large import); the report once all are in. A
    /// failure part of the way leaves the games written before it in the archive.
    pub async fn import(&self, prepared: PreparedImport) -> Result<ImportReport, ApiError> {
        if let Some(why) = self.unavailable_reason() {
            return Err(unavailable_error(&why));
        }
        let total = prepared.progress().0;
        let (done, answer) = tokio::sync::oneshot::channel();
        if let Inner::Open(w) = &*self.inner {
            lock(&w.importing).0 += total;
        }
        if !self.send(Job::Import(Box::new(Importing { prepared, done }))) {
            return Err(failed("the archive's writer has stopped"));
        }
        match answer.await {
            Ok(Ok(report)) => Ok(report),
            Ok(Err(e)) => {
                crate::say_err!("games archive: an import stopped: {e}");
                Err(archive_failed(&e))
            }
            Err(_) => Err(failed("the archive's writer has stopped")),
        }
    }

    /// The imports under way: games in all and games written; `None` when none runs.
    pub fn import_progress(&self) -> Option<(usize, usize)> {
        match &*self.inner {
            Inner::Open(w) => Some(*lock(&w.importing)).filter(|&(total, _)| total > 0),
            Inner::Unavailable(_) => None,
        }
    }

    /// The rooms that changed at or after `since_ms`, read on the writer (blocking, for a
    /// server starting); none when there is no archive.
    pub fn rooms_since(&self, since_ms: u64) -> Result<Vec<StoredRoom>, ArchiveError> {
        if !self.is_available() {
            return Ok(Vec::new());
        }
        let (tx, rx) = mpsc::channel();
        let task: Task = Box::new(move |archive| {
            let _ = tx.send(archive.rooms_since(since_ms));
        });
        if !self.send(Job::Run(task)) {
            return Ok(Vec::new());
        }
        rx.recv().unwrap_or_else(|_| Ok(Vec::new()))
    }

    /// Waits until every save queued so far (game changes and reviews) is committed, or has
    /// failed and is kept as the game's write failure; at once when there is no archive or
    /// its writer has stopped.
    pub async fn flush(&self) {
        let Inner::Open(w) = &*self.inner else {
            return;
        };
        let queued = lock(&w.queue).saves;
        let mut saved = w.saved.clone();
        // An error means the writer is gone: nothing more will be saved.
        let _ = saved.wait_for(|&done| done >= queued).await;
    }

    /// How many saves the writer has committed (or failed and kept to try again); all of
    /// them when there is no writer.
    pub fn saved_count(&self) -> u64 {
        match &*self.inner {
            Inner::Open(w) => *w.saved.borrow(),
            Inner::Unavailable(_) => u64::MAX,
        }
    }

    /// Saves queued and not yet committed.
    pub fn pending_saves(&self) -> u64 {
        match &*self.inner {
            Inner::Open(w) => lock(&w.queue).saves.saturating_sub(*w.saved.borrow()),
            Inner::Unavailable(_) => 0,
        }
    }

    /// The revision of the row under `key` now: a session linked to the row starts from it.
    pub fn row_revision(&self, key: &str) -> u64 {
        match &*self.inner {
            Inner::Open(w) => lock(&w.rows).get(key).map_or(0, |row| row.revision),
            Inner::Unavailable(_) => 0,
        }
    }

    /// Links `link` to its row as the row stands now.
    pub fn link_now(&self, mut link: ArchiveLink) -> ArchiveLink {
        if let Some(key) = &link.key {
            link.row_revision = self.row_revision(key);
        }
        link
    }

    /// Claims the next revision of the row under `key` for a save of `game` from a session
    /// that saw revision `seen`: the new revision, or `None` when the row has moved on since
    /// and `game` does not go on from the game last queued for it.
    fn claim(&self, key: &str, seen: u64, game: &Game) -> Option<u64> {
        let Inner::Open(w) = &*self.inner else {
            return None;
        };
        let mut rows = lock(&w.rows);
        let state = |revision| RowState {
            revision,
            start: game.start().clone(),
            moves: game.moves().to_vec(),
        };
        match rows.get_mut(key) {
            None if seen == 0 => {
                rows.insert(key.to_string(), state(1));
                Some(1)
            }
            None => None,
            Some(row) if row.revision == seen || game.goes_on_from(&row.start, &row.moves) => {
                *row = state(row.revision + 1);
                Some(row.revision)
            }
            Some(_) => None,
        }
    }

    /// After a change of a session: when its version or link changed and it is archived
    /// and has a move (or was saved before), queues a snapshot of it: its record (the
    /// variations included) and how it ended. A session whose row has moved on since it
    /// last saw it (another session saved to it) never overwrites it: its copy goes on as a
    /// new game, and the page is told. A game deleted from the archive is not saved again.
    pub fn after_change(&self, session: &mut GameSession, before: (u64, u64)) -> Option<Queued> {
        let link = &session.archive;
        if link.mark(session.version) == before || link.key.is_none() {
            return None;
        }
        if !link.saved && session.game().moves().is_empty() {
            return None;
        }
        let Inner::Open(w) = &*self.inner else {
            return None;
        };
        if let Err(refused) = self.refuses_changes() {
            return Some(Queued::Refused(refused));
        }
        let record = session.record();
        let ending = session
            .game()
            .outcome()
            .map(|o| (o.result, o.reason.code()));
        let link = &mut session.archive;
        if link.fork_on_change {
            link.fork_on_change = false;
            link.key = Some(new_key());
            link.date = xiangqi_records::date::pgn_today();
        }
        let mut key = link.key.clone()?;
        if self.is_deleted(&key) {
            return None;
        }
        let mut rows_before = vec![(key.clone(), lock(&w.rows).get(&key).cloned())];
        link.row_revision = match self.claim(&key, link.row_revision, session.played.game()) {
            Some(revision) => revision,
            None => {
                link.fork();
                key = link.key.clone().unwrap_or_default();
                rows_before.push((key.clone(), lock(&w.rows).get(&key).cloned()));
                self.claim(&key, 0, session.played.game()).unwrap_or(1)
            }
        };
        link.saved = true;
        let number = self.send_numbered(Job::Save(Box::new(Snapshot {
            key,
            record,
            ending,
            players: link.players.clone(),
            flagged: link.flagged,
            date: link.date.clone(),
        })))?;
        Some(Queued::Saved {
            number,
            rows_before,
        })
    }

    /// Whether the change queued as `queued` was refused: at once, or because its save
    /// failed (wait for it first, with [`ArchiveService::flush`]); the refusal.
    pub fn refusal(&self, queued: &Queued) -> Option<ApiError> {
        match queued {
            Queued::Refused(refused) => Some(refused.clone()),
            Queued::Saved { number, .. } => self.save_refusal(*number),
        }
    }

    /// Takes back what queueing `queued` did to the rows' revisions, after its change was
    /// refused.
    pub fn undo_rows(&self, queued: Queued) {
        let (Inner::Open(w), Queued::Saved { rows_before, .. }) = (&*self.inner, queued) else {
            return;
        };
        let mut rows = lock(&w.rows);
        for (key, row) in rows_before.into_iter().rev() {
            match row {
                Some(row) => rows.insert(key, row),
                None => rows.remove(&key),
            };
        }
    }

    /// Queues `review` (JSON) to be kept with the game saved under `key`.
    pub fn save_review(&self, key: &str, review: String) {
        self.send(Job::Review {
            key: key.to_string(),
            json: review,
        });
    }

    /// Whether the archive is there and has not broken since.
    fn is_available(&self) -> bool {
        match &*self.inner {
            Inner::Unavailable(_) => false,
            Inner::Open(w) => lock(&w.broken).is_none(),
        }
    }

    /// Whether the last save of the game under `key` was refused because the game was
    /// deleted from the archive.
    fn is_deleted(&self, key: &str) -> bool {
        match &*self.inner {
            Inner::Open(w) => lock(&w.failures)
                .get(key)
                .is_some_and(|f| f.code == "archive-deleted"),
            Inner::Unavailable(_) => false,
        }
    }

    /// The last failed save of the game saved under `key`, if it has not been saved since.
    pub fn write_failure(&self, key: &str) -> Option<SaveFailure> {
        match &*self.inner {
            Inner::Open(w) => lock(&w.failures).get(key).cloned(),
            Inner::Unavailable(_) => None,
        }
    }

    /// Runs `request` on the archive, after the saves queued before it: 503
    /// `archive-unavailable` when there is no archive, 500 `archive-failed` when the request
    /// fails.
    pub async fn run<R: Send + 'static>(
        &self,
        request: impl FnOnce(&mut Archive) -> Result<R, ArchiveError> + Send + 'static,
    ) -> Result<R, ApiError> {
        if let Some(why) = self.unavailable_reason() {
            return Err(unavailable_error(&why));
        }
        let (tx, rx) = tokio::sync::oneshot::channel();
        let task: Task = Box::new(move |archive| {
            let _ = tx.send(request(archive));
        });
        if !self.send(Job::Run(task)) {
            return Err(failed("the archive's writer has stopped"));
        }
        match rx.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => {
                crate::say_err!("games archive: {e}");
                if e.is_damage()
                    && let Inner::Open(w) = &*self.inner
                {
                    let why = damaged(&w.path, &e);
                    *lock(&w.broken) = Some(why.clone());
                    return Err(unavailable_error(&why));
                }
                Err(archive_failed(&e))
            }
            Err(_) => Err(failed("the archive's writer has stopped")),
        }
    }
}

/// 503 `not-saved`: a change that could not be kept is refused and not played; `why` says
/// what the store met.
pub fn not_saved(why: &str) -> ApiError {
    ApiError::new(
        ErrorCode::NotSaved,
        format!(
            "the change was not made: it cannot be saved now ({why}); it will be possible again once the games archive can be written"
        ),
    )
}

/// The server's layer that makes an answer mean "saved": the answer to a request that may
/// change a game (any method but `GET`, `HEAD` and `OPTIONS`) leaves once every save queued
/// before it, its own among them, is committed.
pub async fn answer_when_saved(
    State(archive): State<ArchiveService>,
    request: Request,
    next: Next,
) -> Response {
    if !crate::kit::host_guard::may_change(request.method()) {
        return next.run(request).await;
    }
    let (response, changes) = crate::kit::session::tracking_changes(next.run(request)).await;
    archive.flush().await;
    // A change whose save failed is taken back, and the answer is its refusal.
    let mut refused = None;
    for change in changes.into_iter().rev() {
        if let Some(refusal) = archive.refusal(&change.queued) {
            change.take_back(&archive);
            refused = Some(refusal);
        }
    }
    match refused {
        Some(refusal) => refusal.into_response(),
        None => response,
    }
}

/// 503 for a request of an archive that is not there; the blanks carry the reason's code
/// and the file.
pub fn unavailable_error(why: &Unavailable) -> ApiError {
    let mut err = ApiError::new(ErrorCode::ArchiveUnavailable, why.message.clone());
    err.params = json!({ "reason": why.code, "path": why.path });
    err
}

fn failed(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::ArchiveFailed, message)
}

/// 500 `archive-failed` for `error`; the blanks carry its code as `reason`.
pub fn archive_failed(error: &ArchiveError) -> ApiError {
    let mut err = failed(error.to_string());
    err.params = json!({ "reason": error.code() });
    err
}

/// How long the writer waits before it first tries again the saves that failed (a full
/// disk, a lock held too long), doubled after each round that fails up to [`RETRY_LAST`].
const RETRY_FIRST: Duration = Duration::from_secs(2);
/// The longest wait between two tries of the saves that failed.
const RETRY_LAST: Duration = Duration::from_secs(60);

/// The database file as it was opened, to notice it deleted, replaced or emptied while the
/// server runs: SQLite would go on writing to a deleted file, or rebuild an emptied one,
/// and the games would be lost at the next start.
struct FileWatch {
    path: PathBuf,
    /// Device and inode of the file opened.
    identity: Option<(u64, u64)>,
    /// The file's length and when it was last written, as the writer left it: the file is
    /// written only by the writer's own checkpoints, so any other change of them is a write
    /// by someone else (the file overwritten in place).
    stamp: Option<(u64, std::time::SystemTime)>,
}

impl FileWatch {
    fn of(path: &Path) -> FileWatch {
        let meta = std::fs::metadata(path).ok();
        FileWatch {
            path: path.to_path_buf(),
            identity: meta.as_ref().map(identity_of),
            stamp: meta.as_ref().and_then(stamp_of),
        }
    }

    /// Takes the file as it is now as the writer's own (after a checkpoint).
    fn rebase(&mut self) {
        self.stamp = std::fs::metadata(&self.path)
            .ok()
            .as_ref()
            .and_then(stamp_of);
    }

    /// Why the file can no longer be written to, if it cannot.
    fn check(&self) -> Option<Unavailable> {
        let gone = |what: &str| Unavailable {
            code: ARCHIVE_GONE,
            message: format!(
                "the games archive {} was {what} while the server ran; games are no longer \
                 saved (restart the server to open or start the archive again)",
                self.path.display()
            ),
            path: Some(self.path.display().to_string()),
        };
        match std::fs::metadata(&self.path) {
            Err(_) => Some(gone("deleted or moved")),
            Ok(m) if Some(identity_of(&m)) != self.identity => Some(gone("replaced")),
            Ok(m) if m.len() == 0 => Some(damaged(
                &self.path,
                &ArchiveError::Corrupt {
                    path: self.path.clone(),
                    reason: "the file was emptied while the server ran".into(),
                },
            )),
            Ok(m) if stamp_of(&m) != self.stamp => Some(gone("overwritten by another program")),
            Ok(_) => None,
        }
    }
}

/// A file's length and last write time.
fn stamp_of(meta: &std::fs::Metadata) -> Option<(u64, std::time::SystemTime)> {
    Some((meta.len(), meta.modified().ok()?))
}

#[cfg(unix)]
fn identity_of(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn identity_of(_meta: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

/// The archive made unavailable by damage found in `error`, with the advice to move the
/// file aside.
fn damaged(path: &Path, error: &ArchiveError) -> Unavailable {
    let message = match error {
        ArchiveError::Corrupt { .. } => error.to_string(),
        other => ArchiveError::Corrupt {
            path: path.to_path_buf(),
            reason: other.to_string(),
        }
        .to_string(),
    };
    Unavailable {
        code: "archive-corrupt",
        message,
        path: Some(path.display().to_string()),
    }
}

/// The writer thread's state: the archive, what failed, and the saves to try again.
struct WriterThread {
    archive: Archive,
    watch: FileWatch,
    failures: Arc<Mutex<HashMap<String, SaveFailure>>>,
    broken: Arc<Mutex<Option<Unavailable>>>,
    /// The imports to write, the first one under way.
    imports: std::collections::VecDeque<Box<Importing>>,
    /// Their progress, shared with the service: games in all and games written.
    importing: Arc<Mutex<(usize, usize)>>,
    /// Why writes fail now, shared with the service.
    stalled: Arc<Mutex<Option<SaveFailure>>>,
    /// The numbers of the saves that failed, shared with the service.
    failed: Arc<Mutex<std::collections::BTreeSet<u64>>>,
    /// How many saves have been taken up (the next one is numbered one more).
    done: u64,
    /// Rounds of writes since the last checkpoint.
    rounds: u32,
    retry_after: Duration,
}

impl WriterThread {
    /// Runs the jobs until the server goes. Of the jobs waiting together, the saves go first
    /// (of several saves of a game, only the last is written), then `saved` counts them, then
    /// the other requests run in their order. Saves that failed are tried again after a
    /// while, without waiting for their game's next change.
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
                let next = if lock(&self.stalled).is_none() {
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
            let (saves, requests): (Vec<Job>, Vec<Job>) = batch
                .into_iter()
                .partition(|job| !matches!(job, Job::Run(_) | Job::Import(_)));
            let count = saves.len() as u64;
            let usable = self.usable();
            self.write_saves(saves, usable);
            self.after_writes();
            self.done += count;
            saved.send_modify(|done| *done += count);
            for job in requests {
                match job {
                    Job::Run(task) => task(&mut self.archive),
                    Job::Import(import) => self.imports.push_back(import),
                    _ => {}
                }
            }
            if !self.imports.is_empty() {
                self.import_next_part();
            }
        }
    }

    /// Counts a round of writes, and every [`CHECKPOINT_EVERY`] rounds copies the log into
    /// the file, taking the file as it then is as the writer's own.
    fn after_writes(&mut self) {
        self.rounds += 1;
        if self.rounds < CHECKPOINT_EVERY || lock(&self.broken).is_some() {
            return;
        }
        self.rounds = 0;
        if self.usable() && self.archive.checkpoint().is_ok() {
            self.watch.rebase();
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
            self.archive
                .import_some(&mut import.prepared, usize::MAX, IMPORT_SLICE)
        } else {
            Err(ArchiveError::CannotOpen {
                path: self.archive.path().to_path_buf(),
                reason: "the archive stopped while the games were imported".into(),
            })
        };
        let (total, now) = import.prepared.progress();
        {
            let mut importing = lock(&self.importing);
            importing.1 += now - before;
        }
        if matches!(written, Ok(true)) {
            return;
        }
        if let Some(import) = self.imports.pop_front() {
            {
                let mut importing = lock(&self.importing);
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

    /// Whether the archive can still be written: not broken, and its file still the one
    /// opened. A file found gone or emptied breaks it.
    fn usable(&mut self) -> bool {
        if lock(&self.broken).is_some() {
            return false;
        }
        match self.watch.check() {
            None => true,
            Some(why) => self.break_with(why),
        }
    }

    /// Makes the archive unavailable for the damage `error` found in its file.
    fn break_for_damage(&mut self, error: &ArchiveError) {
        let why = damaged(self.archive.path(), error);
        self.break_with(why);
    }

    /// Makes the archive unavailable for `why`; false.
    fn break_with(&mut self, why: Unavailable) -> bool {
        crate::say_err!("games archive: {}", why.message);
        *lock(&self.broken) = Some(why);
        false
    }

    /// Writes `saves` in order, a game's last snapshot standing for the ones before it; a
    /// failure is logged and kept by the game's key.
    fn write_saves(&mut self, saves: Vec<Job>, usable: bool) {
        let first = self.done + 1;
        let mut rooms: HashMap<String, StoredRoom> = HashMap::new();
        let mut room_saves = Vec::new();
        // The numbers of each game's saves in the batch: its last snapshot stands for them.
        let mut game_saves: HashMap<String, Vec<u64>> = HashMap::new();
        for (i, job) in saves.iter().enumerate() {
            if let Job::Save(s) = job {
                game_saves
                    .entry(s.key.clone())
                    .or_default()
                    .push(first + i as u64);
            }
        }
        let mut failed_saves = Vec::new();
        for (i, job) in saves.into_iter().enumerate() {
            match job {
                Job::Room(room) => {
                    room_saves.push(first + i as u64);
                    rooms.insert(room.id.clone(), room);
                }
                Job::Save(s)
                    if game_saves.get(&s.key).and_then(|n| n.last())
                        == Some(&(first + i as u64)) =>
                {
                    let numbers = game_saves.remove(&s.key).unwrap_or_default();
                    // While writes fail, nothing is written: the change is refused and must
                    // never be written later.
                    if !usable || lock(&self.stalled).is_some() || !self.save(s) {
                        failed_saves.extend(numbers);
                    }
                }
                _ if !usable => {}
                Job::Save(_) | Job::Run(_) | Job::Import(_) => {}
                Job::Review { key, json } => {
                    let archive = &mut self.archive;
                    let saved = archive
                        .id_of_key(&key)
                        .and_then(|id| id.map_or(Ok(false), |id| archive.set_review(id, &json)));
                    if let Err(e) = saved {
                        crate::say_err!(
                            "games archive: the review of {key} could not be saved: {e}"
                        );
                        lock(&self.failures).insert(key, SaveFailure::of(&e));
                    }
                }
            }
        }
        let kept = rooms.is_empty() || (usable && self.put_rooms(rooms));
        if !kept {
            failed_saves.extend(room_saves);
        }
        if !failed_saves.is_empty() {
            let mut failed = lock(&self.failed);
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
    /// the page). A failure that may pass stalls the writer; damage breaks the archive.
    fn save(&mut self, snapshot: Box<Snapshot>) -> bool {
        let key = snapshot.key.clone();
        let entry = entry_of(&snapshot);
        match self.archive.save(&entry) {
            Ok(_) => {
                lock(&self.failures).remove(&key);
                self.retry_after = RETRY_FIRST;
                self.unstall();
                true
            }
            Err(e) => {
                crate::say_err!("games archive: the game {key} could not be saved: {e}");
                lock(&self.failures).insert(key.clone(), SaveFailure::of(&e));
                if e.is_damage() {
                    self.break_for_damage(&e);
                } else if matches!(e, ArchiveError::Deleted { .. } | ArchiveError::Record(_)) {
                    return true;
                } else {
                    self.stall(&e);
                }
                false
            }
        }
    }

    /// Keeps `rooms` (each room's last state) in one transaction; whether they were kept. A
    /// failure that may pass keeps them to try again; damage breaks the archive.
    /// Keeps `rooms` (each room's last state) in one transaction; whether they were kept.
    /// While writes fail they are not tried (their changes are refused, so they must never be
    /// written later); a failure stalls the writer until a write passes again, and damage
    /// breaks the archive.
    fn put_rooms(&mut self, rooms: HashMap<String, StoredRoom>) -> bool {
        if lock(&self.stalled).is_some() {
            return false;
        }
        let batch: Vec<StoredRoom> = rooms.into_values().collect();
        match self.archive.put_rooms(&batch) {
            Ok(()) => true,
            Err(e) => {
                crate::say_err!("rooms: {} rooms could not be saved: {e}", batch.len());
                if e.is_damage() {
                    self.break_for_damage(&e);
                } else {
                    self.stall(&e);
                }
                false
            }
        }
    }

    /// Marks writes as failing for `error`, until one passes again.
    fn stall(&mut self, error: &ArchiveError) {
        let mut stalled = lock(&self.stalled);
        if stalled.is_none() {
            crate::say_err!("games archive: writes fail ({error}); trying again until they pass");
        }
        *stalled = Some(SaveFailure::of(error));
    }

    /// Writes pass again: the writer is no longer stalled.
    fn unstall(&mut self) {
        if lock(&self.stalled).take().is_some() {
            crate::say!("games archive: writes pass again; changes are kept as before");
        }
    }

    /// While writes fail, tries the file again with a write that changes nothing; waits
    /// longer before the next try when it fails again.
    fn try_again(&mut self) {
        if !self.usable() {
            return;
        }
        let mut all_saved = true;
        if lock(&self.stalled).is_some() {
            match self.archive.probe_write() {
                Ok(()) => self.unstall(),
                Err(e) if e.is_damage() => {
                    self.break_for_damage(&e);
                }
                Err(_) => all_saved = false,
            }
        }
        if !all_saved {
            self.retry_after = (self.retry_after * 2).min(RETRY_LAST);
        }
    }
}

impl SaveFailure {
    fn of(error: &ArchiveError) -> SaveFailure {
        SaveFailure {
            code: error.code(),
            message: error.to_string(),
        }
    }
}

/// The archive's entry for a snapshot: the record of the game, its result and reason (the
/// rules' ending, or a fallen flag).
fn entry_of(s: &Snapshot) -> GameEntry {
    let mut record = s.record.clone();
    let (finished, end_reason) = match (s.ending, s.flagged) {
        (Some((result, reason)), _) => {
            record.result = Some(result);
            (true, Some(reason.to_string()))
        }
        (None, Some(side)) => {
            record.result = Some(GameResult::win_for(side.opponent()));
            (true, Some("time".to_string()))
        }
        (None, None) => (false, None),
    };
    GameEntry {
        key: Some(s.key.clone()),
        finished,
        red: s.players.red.clone(),
        black: s.players.black.clone(),
        level: s.players.level.map(|number| Level {
            number,
            name: xiangqi_engine::levels::Level::new(number).label(),
        }),
        end_reason,
        date: s.date.clone(),
        opening: opening_of(&record),
        // The Play view's clock stays on the page: the server hears only its time left.
        time_control: None,
        record,
        source: Source::Played,
    }
}

/// The ECCO code and Chinese name of a game's opening, for a game from the initial position.
fn opening_of(record: &xiangqi_records::Game) -> Option<String> {
    let moves: Vec<_> = record.mainline().collect();
    let opening = xiangqi_teaching::openings::classify_from(&record.start, &moves).ok()??;
    Some(opening.to_string())
}

/// Where the review of a session's game is kept once it is made: its row in the archive.
pub struct ReviewKeeper {
    archive: ArchiveService,
    key: String,
}

impl ReviewKeeper {
    /// The keeper for game `id` as it stands, when it has a row in the archive.
    pub fn of(sessions: &Sessions, id: &str) -> Option<ReviewKeeper> {
        let key = sessions
            .with(id, |s| {
                s.archive
                    .is_saved()
                    .then(|| s.archive.key().map(str::to_string))
                    .flatten()
            })
            .flatten()?;
        Some(ReviewKeeper {
            archive: sessions.archive().clone(),
            key,
        })
    }

    /// Queues `review` to be kept with the game.
    pub fn keep(&self, review: &impl serde::Serialize) {
        if let Ok(json) = serde_json::to_string(review) {
            self.archive.save_review(&self.key, json);
        }
    }
}
