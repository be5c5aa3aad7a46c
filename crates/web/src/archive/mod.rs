//! The games archive over HTTP: whether it is there, the list of games with filters, one
//! game, deleting, exporting all as one PGN, importing a record file's games, opening a game
//! in a new session (to replay and review it, or to go on playing it), and what a session
//! tells and is told about its row (players, a fallen flag, its key, a failed save).
//!
//! The requests run on the archive's writer thread (see [`archive_store`](crate::kit::archive_store)),
//! never on the server's async threads.

mod export;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{self, post};

use crate::kit::archive_store::{
    ArchiveLink, ArchiveService, Notice, Players, archive_failed, unavailable_error,
};
use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::{Body, Params};
use crate::kit::games::{Games, game_from_moves, start_linked_session, with_game};
use crate::kit::limits;
use crate::kit::records::MAX_IMPORT;
use crate::kit::records::{
    RecordFault, Said, add_params, bad_record, extension, file_body, record_error,
};
use crate::kit::view::GameView;
use crate::kit::viewer::Viewer;
use crate::kit::wire::{Fen, Iccs, Language, fen_or_blank};
use crate::state::AppState;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use xiangqi_records::PlayedGame;
use xiangqi_records::{RecordError, RecordFormat};
use xiangqi_rules::notation::Notation;
use xiangqi_rules::{Color, Game, GameRules};
use xiangqi_store::{Filter, GameId, GameResult, GameSummary, PreparedImport, StoredGame};
use xiangqi_teaching::Lang;
use xiangqi_teaching::openings;

/// Most games one page of the list holds.
const MAX_LIST: usize = 1000;
/// Games on a page of the list when the request names no limit.
const LIST_PAGE: usize = 200;

/// The value that `word` names among `choices` (none when it is absent or blank); any other
/// word is refused, naming `what` it should be and the words to use.
fn choice<T: Copy>(
    word: Option<&str>,
    what: &str,
    choices: &[(&str, T)],
) -> Result<Option<T>, ApiError> {
    let Some(word) = word.filter(|w| !w.is_empty()) else {
        return Ok(None);
    };
    if let Some(&(_, value)) = choices.iter().find(|(name, _)| *name == word) {
        return Ok(Some(value));
    }
    let names: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
    let words = match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    };
    Err(ApiError::bad_request(format!(
        "`{word}` is not a {what}: use {words}"
    )))
}

fn no_archived_game(id: GameId) -> ApiError {
    let mut err = ApiError::new(
        ErrorCode::ArchiveNoGame,
        format!("there is no game {id} in the archive"),
    );
    err.params = json!({ "id": id });
    err
}

/// Whether the archive is there, or why not.
#[derive(Serialize)]
pub struct StatusView {
    /// Whether games are kept.
    pub available: bool,
    /// Whether changes are kept now: false while writes fail (a full disk, a read-only file,
    /// a lock held by another program) or the archive stopped; changes are then refused.
    pub saving: bool,
    /// Why changes are refused now, in English, while they are.
    pub not_saving: Option<String>,
    /// The database file, when they are.
    pub path: Option<String>,
    /// Why they are not: `{code: "archive-unavailable", message, params: {reason, path}}`,
    /// the reason one of `archive-off`, `archive-folder`, `archive-open`, `archive-corrupt`,
    /// `archive-newer`.
    pub error: Option<Value>,
    /// The imports under way: `{total, done}` games.
    pub import: Option<ImportProgress>,
}

/// How far the imports under way are.
#[derive(Serialize)]
pub struct ImportProgress {
    /// Games to import in all.
    pub total: usize,
    /// Games imported so far.
    pub done: usize,
}

fn error_value(err: &ApiError) -> Value {
    json!({ "code": err.code, "message": err.message, "params": err.params })
}

/// `GET /api/archive`: whether the archive is there, or why not. Where the file is, only
/// the learner's own app says.
pub async fn status(viewer: Viewer, State(archive): State<ArchiveService>) -> Json<StatusView> {
    let refusal = archive.refuses_changes().err();
    Json(StatusView {
        available: archive.unavailable_reason().is_none(),
        saving: refusal.is_none(),
        not_saving: refusal.map(|r| r.message),
        path: (viewer == Viewer::Owner)
            .then(|| archive.path().map(|p| p.display().to_string()))
            .flatten(),
        error: archive
            .unavailable_reason()
            .map(|why| error_value(&unavailable_error(&why))),
        import: archive
            .import_progress()
            .map(|(total, done)| ImportProgress { total, done }),
    })
}

/// A game as the list shows it.
#[derive(Serialize)]
pub struct SummaryView {
    /// Its row.
    pub id: GameId,
    /// The key a session saves it under.
    pub key: String,
    /// The date it was played, `YYYY.MM.DD`.
    pub date: String,
    /// When it was last saved (milliseconds since 1970, UTC).
    pub updated_ms: i64,
    /// Whether it is over; an unfinished game is in progress.
    pub finished: bool,
    /// The Red player.
    pub red: String,
    /// The Black player.
    pub black: String,
    /// The engine level played against.
    pub level: Option<u32>,
    /// Its name as the app showed it when the game was saved.
    pub level_name: Option<String>,
    /// `red-wins`, `black-wins`, `draw`, or null.
    pub result: Option<&'static str>,
    /// Why it ended: a code as the rules give it (`checkmate` …), or `time`.
    pub end_reason: Option<String>,
    /// The opening's name in the language asked for, where known: its ECCO code and title
    /// (`E03 Pawn Opening vs Central Cannon`) for a game the archive named, the record's own
    /// name for an imported game (translated where it is an ECCO opening name).
    pub opening: Option<String>,
    /// The opening's ECCO code, where the archive knows it.
    pub opening_code: Option<&'static str>,
    /// Moves of the main line.
    pub moves: usize,
    /// `played` or `imported`.
    pub source: &'static str,
    /// Whether a review is kept with it.
    pub reviewed: bool,
    /// The time control it was played at, as PGN's `TimeControl` tag writes it (`300+3`:
    /// seconds of main time and seconds added a move), or null for a game without a clock.
    pub time_control: Option<String>,
}

/// The opening as the archive keeps it (`stored`), named in `lang`, and its ECCO code where
/// the text gives one. A played game is kept as its code and Chinese title (`E03 仙人指路对中炮`)
/// and shown as the code and its title in `lang`; an imported game keeps its record's
/// Opening tag, shown in `lang` when it is the Chinese name of an ECCO opening and as it is
/// otherwise.
fn opening_in(stored: &str, lang: Lang) -> (String, Option<&'static str>) {
    let coded = stored
        .split_once(' ')
        .and_then(|(code, _)| openings::by_code(code));
    if let Some(opening) = coded {
        return (
            format!("{} {}", opening.code, opening.title(lang)),
            Some(opening.code),
        );
    }
    match openings::all().find(|o| o.named && o.name == stored.trim()) {
        Some(opening) => (opening.opening_name(lang).to_string(), None),
        None => (stored.to_string(), None),
    }
}

impl SummaryView {
    /// The list's view of `g`, its opening named in `lang`.
    fn of(g: &GameSummary, lang: Lang) -> SummaryView {
        let opening = g.opening.as_deref().map(|o| opening_in(o, lang));
        SummaryView {
            id: g.id,
            key: g.key.clone(),
            date: g.date.clone(),
            updated_ms: g.updated_ms,
            finished: g.finished,
            red: g.red.clone(),
            black: g.black.clone(),
            level: g.level.as_ref().map(|l| l.number),
            level_name: g.level.as_ref().map(|l| l.name.clone()),
            result: g.result.map(GameResult::as_str),
            end_reason: g.end_reason.clone(),
            opening_code: opening.as_ref().and_then(|(_, code)| *code),
            opening: opening.map(|(name, _)| name),
            moves: g.moves_count,
            source: g.source.name(),
            reviewed: g.reviewed,
            time_control: g.time_control.clone(),
        }
    }
}

/// Which games `GET /api/archive/games` lists.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// `red-wins`, `black-wins` or `draw`.
    #[serde(default)]
    pub result: Option<String>,
    /// The engine level played against.
    #[serde(default)]
    pub level: Option<u32>,
    /// `finished` or `unfinished`.
    #[serde(default)]
    pub state: Option<String>,
    /// Games to skip: where this page starts.
    #[serde(default)]
    pub offset: usize,
    /// Games on this page, 1 to 1,000 (200 when absent).
    #[serde(default)]
    pub limit: Option<usize>,
    /// The language openings are named in: `en` (when absent), `ru` or `zh`.
    #[serde(default)]
    pub lang: Language,
}

/// One page of the list.
#[derive(Serialize)]
pub struct ListView {
    /// The games, newest first.
    pub games: Vec<SummaryView>,
    /// How many games the filters choose, on every page.
    pub total: usize,
    /// Where this page starts.
    pub offset: usize,
    /// Where the next page starts, when there is one.
    pub next: Option<usize>,
}

/// `GET /api/archive/games?result=…&level=…&state=…&offset=…&limit=…&lang=…`: a page of the
/// games, newest date first, with how many there are in all, their openings named in `lang`.
pub async fn list(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Params(query): Params<ListQuery>,
) -> Result<Json<ListView>, ApiError> {
    let owner = viewer.require_owner()?;
    let result = choice(
        query.result.as_deref(),
        "result",
        &[GameResult::RedWins, GameResult::BlackWins, GameResult::Draw].map(|r| (r.as_str(), r)),
    )?;
    let finished = choice(
        query.state.as_deref(),
        "state",
        &[("finished", true), ("unfinished", false)],
    )?;
    let limit = query.limit.unwrap_or(LIST_PAGE);
    if !(1..=MAX_LIST).contains(&limit) {
        let mut err =
            ApiError::bad_request(format!("a page holds 1 to {MAX_LIST} games, not {limit}"));
        err.params = json!({ "limit": limit, "max": MAX_LIST });
        return Err(err);
    }
    let offset = query.offset;
    limits::at_most("offset", offset as u64, limits::OFFSET_MAX, "games")?;
    let filter = Filter {
        owner,
        result: result.map(Some),
        level: query.level,
        finished,
        limit: Some(limit),
        offset,
    };
    let (games, total) = archive
        .run(move |a| Ok((a.list(&filter)?, a.count_matching(&filter)?)))
        .await?;
    let end = offset.saturating_add(games.len());
    Ok(Json(ListView {
        games: games
            .iter()
            .map(|g| SummaryView::of(g, query.lang.0))
            .collect(),
        total,
        offset,
        next: (end < total).then_some(end),
    }))
}

/// A whole game.
#[derive(Serialize)]
pub struct StoredView {
    /// What the list shows.
    #[serde(flatten)]
    pub summary: SummaryView,
    /// The start position.
    pub start_fen: String,
    /// The record as stored (PGN, ICCS moves).
    pub pgn: String,
    /// The review once made, as the review stream gave it.
    pub review: Option<Value>,
}

impl StoredView {
    /// The view of `g`, its opening named in `lang`.
    fn of(g: &StoredGame, lang: Lang) -> StoredView {
        StoredView {
            summary: SummaryView::of(&g.summary, lang),
            start_fen: g.start_fen.clone(),
            pgn: g.pgn.clone(),
            review: g
                .review
                .as_deref()
                .and_then(|r| serde_json::from_str(r).ok()),
        }
    }
}

/// Game `id` of `viewer`'s (another's is answered as no game, 404).
async fn stored(
    archive: &ArchiveService,
    viewer: &Viewer,
    id: GameId,
) -> Result<StoredGame, ApiError> {
    let owner = viewer.require_owner()?;
    archive
        .run(move |a| a.get(&owner, id))
        .await?
        .ok_or_else(|| no_archived_game(id))
}

/// The language a request names openings in.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct LangQuery {
    /// `en` (when absent), `ru` or `zh`.
    #[serde(default)]
    pub lang: Language,
}

/// `GET /api/archive/games/{id}?lang=…`: one game, whole, its opening named in `lang`.
pub async fn get(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Path(id): Path<GameId>,
    Params(query): Params<LangQuery>,
) -> Result<Json<StoredView>, ApiError> {
    Ok(Json(StoredView::of(
        &stored(&archive, &viewer, id).await?,
        query.lang.0,
    )))
}

/// `DELETE /api/archive/games/{id}`: deletes a game.
pub async fn delete(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Path(id): Path<GameId>,
) -> Result<StatusCode, ApiError> {
    let owner = viewer.require_owner()?;
    if archive.run(move |a| a.delete(&owner, id)).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(no_archived_game(id))
    }
}

/// The notation of an export.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ExportQuery {
    /// `pgn-wxf` (when absent), `pgn-iccs` or `pgn-chinese`.
    #[serde(default)]
    pub format: Option<String>,
}

/// `GET /api/archive/export?format=pgn-wxf`: every game as one PGN file to download, oldest
/// first, a reviewed game with the review's marks ([`export::export_with_marks`]).
pub async fn export(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Params(query): Params<ExportQuery>,
) -> Result<Response, ApiError> {
    let owner = viewer.require_owner()?;
    let notation = match query.format.as_deref().unwrap_or("pgn-wxf") {
        "pgn-wxf" => Notation::Wxf,
        "pgn-iccs" => Notation::Iccs,
        "pgn-chinese" => Notation::Chinese,
        other => {
            return Err(ApiError::bad_request(format!(
                "`{other}` is not a PGN format: use pgn-wxf, pgn-iccs or pgn-chinese"
            )));
        }
    };
    let text = archive
        .run(move |a| export::export_with_marks(a, &owner, notation))
        .await?;
    let (year, month, day) = xiangqi_records::date::today();
    let disposition =
        format!("attachment; filename=\"xiangqi-games-{year:04}{month:02}{day:02}.pgn\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        text,
    )
        .into_response())
}

/// The file `POST /api/archive/import` reads.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ImportQuery {
    /// The file's name; its extension helps tell the format.
    #[serde(default)]
    pub name: Option<String>,
}

/// What an import added and skipped.
#[derive(Serialize)]
pub struct ImportView {
    /// How many games the file holds.
    pub games: usize,
    /// How many were added.
    pub imported: usize,
    /// The rows added.
    pub ids: Vec<GameId>,
    /// Each game that could not be read: `{code, message, params}` as the API answers a
    /// record that cannot be opened (`bad-record` with `what`, or a rule's code), the game's
    /// number in `params.game`.
    pub broken: Vec<Value>,
    /// What was skipped in the file: `{code, message, params}`, e.g. `skipped-text` with
    /// `text`.
    pub warnings: Vec<Value>,
}

/// A game of the file that could not be read, as the import of one game would answer it.
fn broken_game(format: RecordFormat, error: &RecordError) -> Value {
    error_value(&record_error(format, error))
}

/// `POST /api/archive/import?name=…`: adds the games of the record file in the body (PGN,
/// XQF or DhtmlXQ); the games that cannot be read are listed, the rest added. A file that
/// cannot be read at all, or holds no game: 422 `bad-record`; a file none of whose games can
/// be read: 422 with the first game's reason and every game's in `broken`.
pub async fn import(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Params(query): Params<ImportQuery>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<ImportView>), ApiError> {
    let owner = viewer.require_owner()?;
    let bytes = file_body(bytes)?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(bad_record(RecordFault::EmptyFile, "the file is empty"));
    }
    let format = RecordFormat::detect(&bytes, query.name.as_deref().and_then(extension));
    // Reading the file and building its rows take time: off the async workers, and off the
    // archive's writer, which then only writes the rows.
    let read = tokio::task::spawn_blocking(move || {
        format.read(&bytes).map(|collection| {
            let games = collection.len();
            (games, PreparedImport::of(collection, &owner))
        })
    })
    .await
    .map_err(|_| ApiError::new(ErrorCode::Internal, "the file could not be read"))?;
    let (games, prepared) = read.map_err(|e| record_error(format, &e))?;
    if games == 0 {
        let mut err = bad_record(
            RecordFault::NoGame,
            format!("no game found in the file (read as {format})"),
        );
        add_params(&mut err, json!({ "format": format.to_string() }));
        return Err(err);
    }
    let prepared = prepared.map_err(|e| archive_failed(&e))?;
    let report = archive.import(prepared).await?;
    if report.imported.is_empty() {
        // Every game is broken: the first one's reason, and every reason in the blanks.
        let broken: Vec<Value> = report
            .broken
            .iter()
            .map(|e| broken_game(format, e))
            .collect();
        let mut err = match report.broken.first() {
            Some(first) => record_error(format, first),
            None => bad_record(RecordFault::NoGame, "no game of the file could be read"),
        };
        err.message = format!(
            "none of the {games} games of the file could be read; the first: {}",
            err.message
        );
        add_params(&mut err, json!({ "games": games, "broken": broken }));
        return Err(err);
    }
    Ok((
        StatusCode::CREATED,
        Json(ImportView {
            games,
            imported: report.imported.len(),
            ids: report.imported,
            broken: report
                .broken
                .iter()
                .map(|e| broken_game(format, e))
                .collect(),
            warnings: report
                .warnings
                .iter()
                .map(|w| serde_json::to_value(Said::warning(w)).unwrap_or(Value::Null))
                .collect(),
        }),
    ))
}

/// The main line of a stored game's record, played.
fn replay_stored(stored: &StoredGame) -> Result<Game, ApiError> {
    let record = stored
        .record()
        .map_err(|e| ApiError::new(ErrorCode::ArchiveFailed, e.to_string()))?;
    record
        .replay(GameRules::default())
        .map_err(|e| ApiError::illegal_move(&e.reason, e.to_string()))
}

/// The link of a session to the row `key` with `summary`'s players and date: a `finished`
/// game is there to replay (a change starts a new game), any other goes on saving to it.
fn stored_link(key: String, summary: &GameSummary, finished: bool) -> ArchiveLink {
    let players = Players {
        red: summary.red.clone(),
        black: summary.black.clone(),
        level: summary.level.as_ref().map(|l| l.number),
    };
    if finished {
        ArchiveLink::replayed(key, players, summary.date.clone())
    } else {
        ArchiveLink::resumed(key, players, Some(summary.date.clone()))
    }
}

/// A game opened from the archive.
#[derive(Serialize)]
pub struct OpenedView {
    /// The new session, the record's main line played.
    pub game: GameView,
    /// The game as the archive keeps it (its review included).
    pub archived: StoredView,
}

/// `POST /api/archive/games/{id}/open`: a new session with the game's main line played. An
/// unfinished game goes on in it, every change saved to its row; a finished game is there to
/// replay and review, and a change starts a new game. The archived view names the opening in
/// `?lang=` (English when absent).
pub async fn open(
    sessions: Games,
    Path(id): Path<GameId>,
    Params(query): Params<LangQuery>,
) -> Result<(StatusCode, Json<OpenedView>), ApiError> {
    let archive = sessions.archive().clone();
    let stored = stored(&archive, &sessions.viewer, id).await?;
    let game = replay_stored(&stored)?;
    let summary = &stored.summary;
    let link = stored_link(summary.key.clone(), summary, summary.finished);
    let view = start_linked_session(&sessions, PlayedGame::new(game), link)?;
    Ok((
        StatusCode::CREATED,
        Json(OpenedView {
            game: view,
            archived: StoredView::of(&stored, query.lang.0),
        }),
    ))
}

/// A game the page brings back under its archive key.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResumeRequest {
    /// The key its row is saved under.
    pub key: String,
    /// The page's copy: the start position; without it the archive's record is played.
    #[serde(default, deserialize_with = "fen_or_blank")]
    pub fen: Option<Fen>,
    /// The page's copy: the moves played (ICCS).
    #[serde(default)]
    pub moves: Vec<Iccs>,
    /// The page's copy: moves taken back, next first (ICCS).
    #[serde(default)]
    pub redo: Vec<Iccs>,
}

/// `POST /api/archive/resume`: brings back a game the server does not know (after a restart,
/// or dropped for newer games) as a new session that goes on saving to the same row: from
/// the page's copy when sent, else from the archive. 201 with the game as `POST /api/games`
/// answers it.
pub async fn resume(
    sessions: Games,
    Body(req): Body<ResumeRequest>,
) -> Result<(StatusCode, Json<GameView>), ApiError> {
    let owner = sessions.viewer.require_owner()?;
    let archive = sessions.archive().clone();
    let key = req.key.trim().to_string();
    // The app's keys are letters and digits; a room's game is `room-<room>-<number>`, where
    // a room's id is URL-safe base64 (letters, digits, `-` and `_`).
    let key_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if key.is_empty() || key.len() > 64 || !key.chars().all(key_char) {
        return Err(ApiError::bad_request(format!(
            "`{}` is not an archive key",
            req.key
        )));
    }
    // The row, when the archive is there and holds it: its players, date and record; and
    // whether the key is another's.
    let lookup = key.clone();
    let row = match archive
        .run(move |a| match a.id_of_key(&lookup)? {
            Some(id) => Ok((a.get(&owner, id)?, true)),
            None => Ok((None, false)),
        })
        .await
    {
        Ok((None, true)) => {
            return Err(ApiError::new(
                ErrorCode::ArchiveNoGame,
                format!("there is no game {key} in your archive"),
            )
            .with_params(json!({ "key": key })));
        }
        Ok((row, _)) => row,
        Err(e) if req.fen.is_some() => {
            crate::say_err!(
                "games archive: resuming from the page's copy: {}",
                e.message
            );
            None
        }
        Err(e) => return Err(e),
    };
    let played = match (&req.fen, &row) {
        (Some(fen), _) => game_from_moves(Some(fen), &req.moves, &req.redo)?,
        (None, Some(stored)) => PlayedGame::new(replay_stored(stored)?),
        (None, None) => {
            let mut err = ApiError::new(
                ErrorCode::ArchiveNoGame,
                format!("there is no game {key} in the archive"),
            );
            err.params = json!({ "key": key });
            return Err(err);
        }
    };
    let game = played.game();
    let link = match &row {
        Some(stored) => {
            let finished = stored.summary.finished && game.outcome().is_some();
            let mut link = stored_link(key, &stored.summary, finished);
            // The page's copy may be older than the row (another tab played on): it then goes
            // on as a new game rather than overwrite the newer moves.
            let saved = replay_stored(stored)?;
            if req.fen.is_some() && !game.goes_on_from(saved.start(), saved.moves()) {
                link.fork();
            }
            link
        }
        // No row yet (the page's game had no move when the server last saw it): it is saved
        // from its first move, as a new game is, so that a board reloaded untouched adds
        // no empty row.
        None => ArchiveLink::unsaved(key),
    };
    let view = start_linked_session(&sessions, played, link)?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// What the page tells about a session: its players, and whose flag fell on its clock.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SessionRequest {
    /// The Red player's name as the page shows it.
    #[serde(default)]
    pub red: Option<String>,
    /// The Black player's name.
    #[serde(default)]
    pub black: Option<String>,
    /// The engine level played against (null in a game between two players).
    #[serde(default)]
    pub level: Option<u32>,
    /// `red` or `black`: that side ran out of time, which ends the game.
    #[serde(default)]
    pub flagged: Option<String>,
}

/// What a session's row is.
#[derive(Serialize)]
pub struct SessionView {
    /// Whether the archive is there.
    pub available: bool,
    /// The key the game is saved under (null for a board that is not archived).
    pub key: Option<String>,
    /// Whether it has been saved (from its first move on).
    pub saved: bool,
    /// The last save of it that failed, when none has succeeded since:
    /// `{code: "archive-write-failed", message, params: {reason}}`, or `archive-deleted`
    /// (`params: {key}`) for a game deleted from the archive, which is no longer saved.
    pub write_error: Option<Value>,
    /// What the archive did on its own since the page last looked, said once:
    /// `{code: "archive-forked", message, params: {from, key}}` when the row had moved on
    /// (another tab played the game) and this copy went on as a new game under `key`.
    pub notice: Option<Value>,
}

/// Longest player name kept, in characters.
const MAX_NAME: usize = 64;

fn clean_name(name: Option<String>) -> String {
    let name: String = name
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_NAME)
        .collect();
    name.trim().to_string()
}

/// `POST /api/archive/sessions/{id}`: sets the players of game `id` (and a fallen flag),
/// which its row keeps; answers the game's key, whether it is saved, and a failed save.
pub async fn session(
    sessions: Games,
    Path(id): Path<String>,
    Body(req): Body<SessionRequest>,
) -> Result<Json<SessionView>, ApiError> {
    let flagged = choice(
        req.flagged.as_deref(),
        "side",
        &[("red", Color::Red), ("black", Color::Black)],
    )?;
    let players = (req.red.is_some() || req.black.is_some()).then(|| Players {
        red: clean_name(req.red),
        black: clean_name(req.black),
        level: req.level,
    });
    let archive = sessions.archive().clone();
    let (key, saved, notice) = with_game(&sessions, &id, |s| {
        if let Some(players) = players {
            s.archive.set_players(players);
        }
        if flagged.is_some() && s.game().outcome().is_none() {
            s.archive.set_flagged(flagged);
        }
        Ok((
            s.archive.key().map(str::to_string),
            s.archive.is_saved(),
            s.archive.take_notice(),
        ))
    })?;
    let unavailable = archive.unavailable_reason();
    let write_failed = |reason: &str| {
        json!({
            "code": "archive-write-failed",
            "message": format!("the game could not be saved in the archive: {reason}"),
            "params": { "reason": reason },
        })
    };
    let write_error = key.as_deref().and_then(|k| {
        // An archive that broke while the server ran (or never opened) saves nothing; one
        // left off on purpose is not a failure.
        if let Some(why) = unavailable
            .as_ref()
            .filter(|why| why.reason != xiangqi_store::Reason::Off)
        {
            return Some(write_failed(&why.message));
        }
        let failure = archive.write_failure(k)?;
        Some(if failure.reason == xiangqi_store::Reason::Deleted {
            json!({
                "code": "archive-deleted",
                "message": "this game was deleted from the archive; its moves are no longer saved",
                "params": { "key": k },
            })
        } else {
            write_failed(&failure.message)
        })
    });
    let notice = notice.map(|Notice::Forked { from }| {
        json!({
            "code": "archive-forked",
            "message": format!(
                "the saved game {from} had moved on in another tab or window; this copy goes on \
                 as a new game"
            ),
            "params": { "from": from, "key": key },
        })
    });
    Ok(Json(SessionView {
        available: unavailable.is_none(),
        key,
        saved,
        write_error,
        notice,
    }))
}

/// The My games routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/archive", routing::get(status))
        .route("/api/archive/games", routing::get(list))
        .route("/api/archive/games/{id}", routing::get(get).delete(delete))
        .route("/api/archive/games/{id}/open", post(open))
        .route("/api/archive/export", routing::get(export))
        .route(
            "/api/archive/import",
            post(import).layer(DefaultBodyLimit::max(MAX_IMPORT)),
        )
        .route("/api/archive/resume", post(resume))
        .route("/api/archive/sessions/{id}", post(session))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cleaned() {
        assert_eq!(clean_name(Some(" Lü\nQin ".into())), "Lü Qin");
        assert_eq!(clean_name(None), "");
    }

    #[test]
    fn a_choice_is_one_of_its_words_or_none() {
        let sides = [("red", Color::Red), ("black", Color::Black)];
        assert_eq!(
            choice(Some("black"), "side", &sides).ok(),
            Some(Some(Color::Black))
        );
        assert_eq!(choice(Some(""), "side", &sides).ok(), Some(None));
        assert_eq!(choice(None, "side", &sides).ok(), Some(None));
        let refused = choice(Some("blue"), "side", &sides)
            .err()
            .map(|e| e.message);
        assert_eq!(
            refused.as_deref(),
            Some("`blue` is not a side: use red or black")
        );
        let results = [("red-wins", 1), ("black-wins", 2), ("draw", 3)];
        let refused = choice(Some("won"), "result", &results)
            .err()
            .map(|e| e.message);
        assert_eq!(
            refused.as_deref(),
            Some("`won` is not a result: use red-wins, black-wins or draw")
        );
    }
}
