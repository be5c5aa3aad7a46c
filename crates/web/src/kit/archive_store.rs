//! The store as the web server uses it: the one writer opened on the data folder
//! ([`xiangqi_store::Writer`], which owns the writes, the file watch, the row revisions and
//! the recovery after a failed write), what each game session knows of its row
//! ([`ArchiveLink`]), and the layer that holds an answer until its change is committed
//! ([`answer_when_saved`]). Failures of the store become the answers the page words: 503
//! `not-saved` for a change that could not be kept, 503 `archive-unavailable` and 500
//! `archive-failed` for the archive's routes.
//!
//! Every change of a game passes through [`Sessions::with`](crate::kit::session::Sessions::with),
//! which compares the session's version (and its link's revision: players, a fallen flag)
//! before and after and queues a save of it ([`ArchiveService::after_change`]). A session
//! whose row has moved on since it last saw it (another tab saved to it) never overwrites it:
//! its copy goes on as a new game, and the page is told ([`Notice::Forked`]). A deleted
//! game's key stays deleted in the store, so a board still playing it never brings it back.

use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::session::GameSession;
use crate::kit::session::Sessions;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::path::Path;
use xiangqi_rules::Color;
use xiangqi_store::{
    Event, Failure, GameEntry, GameResult, ImportReport, Level, PreparedImport, Reason, Refusal,
    RowState, Source, Store, StoreError, StoredRoom, Unavailable, Writer, new_key,
};

/// The database file in the data folder.
pub const ARCHIVE_FILE: &str = xiangqi_store::STORE_FILE;

/// Every reason the archive can be unavailable or fail, as the page gets it.
pub fn archive_reasons() -> impl Iterator<Item = &'static str> {
    Reason::ALL.into_iter().map(Reason::code)
}

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
    /// The revision of its row this session last saw or wrote (see the store's row
    /// revisions): a change made from an older one would overwrite newer moves.
    row_revision: u64,
    /// What to tell the page once, at its next look at the game's row.
    notice: Option<Notice>,
    /// The players are the row's (a game opened or brought back from the archive): the page's
    /// own settings, which may be another browser's, do not rename them. A new row (a fork)
    /// takes the page's players again.
    players_from_row: bool,
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
            players_from_row: false,
        }
    }

    /// A link to no row: the game is kept nowhere.
    pub fn nowhere() -> ArchiveLink {
        ArchiveLink {
            key: None,
            ..ArchiveLink::new()
        }
    }

    /// A link to the row saved under `key`, which every change updates.
    pub fn resumed(key: String, players: Players, date: Option<String>) -> ArchiveLink {
        ArchiveLink {
            key: Some(key),
            players,
            date: date.unwrap_or_else(xiangqi_records::date::pgn_today),
            saved: true,
            players_from_row: true,
            ..ArchiveLink::new()
        }
    }

    /// A link to a row not saved yet under `key`: saved from the game's first move.
    pub fn unsaved(key: String) -> ArchiveLink {
        ArchiveLink {
            key: Some(key),
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
        self.players_from_row = false;
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
        if !self.players_from_row && self.players != players {
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
    /// Whose archive it is saved to.
    owner: String,
    key: String,
    /// The record: the moves played, with the variations.
    record: xiangqi_records::Game,
    /// The game's result and the code of why it ended, once it has.
    ending: Option<(GameResult, &'static str)>,
    players: Players,
    flagged: Option<Color>,
    date: String,
}

/// The store the server writes to, or why there is none: the store's one writer, with the
/// answers the page gets. Cheap to clone; derefs to the [`Writer`].
#[derive(Clone)]
pub struct ArchiveService {
    writer: Writer,
}

impl std::ops::Deref for ArchiveService {
    type Target = Writer;

    fn deref(&self) -> &Writer {
        &self.writer
    }
}

/// Says on the server's output what the store did on its own.
fn say_event(event: &Event) {
    if event.is_failure() {
        crate::say_err!("{event}");
    } else {
        crate::say!("{event}");
    }
}

impl ArchiveService {
    /// No archive: the server was started without a data folder.
    pub fn off() -> ArchiveService {
        ArchiveService {
            writer: Writer::off(),
        }
    }

    /// Opens the store in the data folder `folder` (created when missing) and starts its
    /// writer; when it cannot be opened, the service says why and keeps nothing.
    pub fn open(folder: &Path) -> ArchiveService {
        ArchiveService {
            writer: Writer::open_sqlite(folder, std::sync::Arc::new(say_event)),
        }
    }

    /// Connects to the PostgreSQL store at `url` and starts its writer; when it cannot be
    /// reached, the service says why and keeps nothing.
    pub fn open_postgres(url: &str) -> ArchiveService {
        ArchiveService {
            writer: Writer::open_postgres(url, std::sync::Arc::new(say_event)),
        }
    }

    /// The database file, when the archive is open.
    pub fn path(&self) -> Option<&Path> {
        self.writer.place().map(Path::new)
    }

    /// Queues `room` to be kept over the version `over` it was changed from: the number of
    /// its save, to wait for with [`ArchiveService::room_saved`]; `Ok(None)` when the server
    /// keeps nothing. Refused (503 `not-saved`) while writes fail or the archive has stopped,
    /// and when another server changed the room meanwhile.
    pub fn queue_room(&self, room: StoredRoom, over: u64) -> Result<Option<u64>, ApiError> {
        self.writer
            .queue_room(room, over)
            .map_err(|r| not_saved(&r))
    }

    /// 503 `not-saved` while changes cannot be kept.
    pub fn refuses_changes(&self) -> Result<(), ApiError> {
        self.writer.refuses_changes().map_err(|r| not_saved(&r))
    }

    /// Waits for the room save numbered `number`; refused (503 `not-saved`) when it failed.
    pub async fn room_saved(&self, number: u64) -> Result<(), ApiError> {
        self.writer.saved_through(number).await;
        match self.writer.save_refusal(number) {
            Some(refusal) => Err(not_saved(&refusal)),
            None => Ok(()),
        }
    }

    /// Adds the games of `prepared`, written a part at a time between the other writes.
    pub async fn import(&self, prepared: PreparedImport) -> Result<ImportReport, ApiError> {
        self.writer.import(prepared).await.map_err(|f| failure(&f))
    }

    /// Runs `request` on the store, after the saves queued before it: 503
    /// `archive-unavailable` when there is no archive, 500 `archive-failed` when the request
    /// fails.
    pub async fn run<R: Send + 'static>(
        &self,
        request: impl FnOnce(&mut dyn Store) -> Result<R, StoreError> + Send + 'static,
    ) -> Result<R, ApiError> {
        self.writer.run(request).await.map_err(|f| failure(&f))
    }

    /// Links `link` to its row as the row stands now.
    pub fn link_now(&self, mut link: ArchiveLink) -> ArchiveLink {
        if let Some(key) = &link.key {
            link.row_revision = self.writer.row_revision(key);
        }
        link
    }

    /// After a change of a session: when its version or link changed and it is archived
    /// and has a move (or was saved before), queues a save of it: its record (the
    /// variations included) and how it ended. A session whose row has moved on since it
    /// last saw it never overwrites it: its copy goes on as a new game, and the page is
    /// told. A game deleted from the archive is not saved again.
    pub fn after_change(&self, session: &mut GameSession, before: (u64, u64)) -> Option<Queued> {
        let link = &session.archive;
        if link.mark(session.version) == before || link.key.is_none() {
            return None;
        }
        let owner = session.owner.clone()?;
        if !link.saved && session.game().moves().is_empty() {
            return None;
        }
        if !self.writer.is_open() {
            return None;
        }
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
            link.players_from_row = false;
            link.key = Some(new_key());
            link.date = xiangqi_records::date::pgn_today();
        }
        let mut key = link.key.clone()?;
        if self.writer.is_deleted(&key) {
            return None;
        }
        let game = session.played.game();
        let mut rows_before = vec![(key.clone(), self.writer.row_state(&key))];
        link.row_revision = match self.writer.claim_row(&key, link.row_revision, game) {
            Some(revision) => revision,
            None => {
                link.fork();
                key = link.key.clone().unwrap_or_default();
                rows_before.push((key.clone(), self.writer.row_state(&key)));
                self.writer.claim_row(&key, 0, game).unwrap_or(1)
            }
        };
        link.saved = true;
        let snapshot = Snapshot {
            owner,
            key: key.clone(),
            record,
            ending,
            players: link.players.clone(),
            flagged: link.flagged,
            date: link.date.clone(),
        };
        let number = self
            .writer
            .queue_save(key, Box::new(move || entry_of(&snapshot)))?;
        Some(Queued::Saved {
            number,
            rows_before,
        })
    }

    /// Whether the change queued as `queued` was refused: at once, or because its save
    /// failed (wait for it first, with [`Writer::flush`]); the refusal.
    pub fn refusal(&self, queued: &Queued) -> Option<ApiError> {
        match queued {
            Queued::Refused(refused) => Some(refused.clone()),
            Queued::Saved { number, .. } => self
                .writer
                .save_refusal(*number)
                .map(|refusal| not_saved(&refusal)),
        }
    }

    /// Takes back what queueing `queued` did to the rows' revisions, after its change was
    /// refused.
    pub fn undo_rows(&self, queued: Queued) {
        if let Queued::Saved { rows_before, .. } = queued {
            self.writer.restore_rows(rows_before);
        }
    }
}

/// 503 `not-saved`: a change that could not be kept is refused and not played; the refusal
/// says what the store met.
pub fn not_saved(refusal: &Refusal) -> ApiError {
    ApiError::new(
        ErrorCode::NotSaved,
        format!(
            "the change was not made: it cannot be saved now ({}); it will be possible again once the games archive can be written",
            refusal.why
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
    err.params = json!({ "reason": why.reason.code(), "path": why.path });
    err
}

/// 500 `archive-failed` for `error`; the blanks carry its reason's code.
pub fn archive_failed(error: &StoreError) -> ApiError {
    let mut err = ApiError::new(ErrorCode::ArchiveFailed, error.to_string());
    err.params = json!({ "reason": error.reason().code() });
    err
}

/// The answer for a request the store did not answer.
fn failure(failure: &Failure) -> ApiError {
    match failure {
        Failure::Unavailable(why) => unavailable_error(why),
        Failure::Failed(error) => archive_failed(error),
        Failure::Stopped => {
            ApiError::new(ErrorCode::ArchiveFailed, "the archive's writer has stopped")
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
        owner: s.owner.clone(),
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
            self.archive.queue_review(&self.key, json);
        }
    }
}
