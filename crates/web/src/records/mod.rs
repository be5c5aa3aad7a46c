//! Games as files: a game's record in PGN, XQF or DhtmlXQ to download, and a record file read
//! into a new game.

use crate::state::AppState;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::Params;
use crate::kit::games::{Games, start_session, with_game};
use crate::kit::records::MAX_IMPORT;
use crate::kit::records::RecordFault;
use crate::kit::records::Said;
use crate::kit::records::add_params;
use crate::kit::records::bad_record;
use crate::kit::records::extension;
use crate::kit::records::file_body;
use crate::kit::records::record_error;
use crate::kit::records::without_partial;
use crate::kit::view::GameView;
use axum::Json;
use axum::body::Bytes;
use axum::extract::Path;
use axum::extract::rejection::BytesRejection;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::json;
use xiangqi_records::PlayedGame;
use xiangqi_records::{
    Collection, OutputFormat, RecordError, RecordFormat, ResultForms, Tags, UnplayableMove,
};
use xiangqi_rules::GameRules;

/// The format a record is written in when the request names none.
pub const DEFAULT_FORMAT: &str = "pgn-wxf";

/// Longest player name kept from a request, in characters.
const MAX_NAME: usize = 64;

/// What `GET /api/games/{id}/record` writes: the format and the players' names.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RecordQuery {
    /// An [`OutputFormat`] name (`pgn-wxf` when absent).
    #[serde(default)]
    pub format: Option<String>,
    /// The Red player's name.
    #[serde(default)]
    pub red: Option<String>,
    /// The Black player's name.
    #[serde(default)]
    pub black: Option<String>,
}

/// A player's name from the query: trimmed, on one line, at most [`MAX_NAME`] characters.
fn player_name(name: Option<&str>) -> Option<String> {
    let name: String = name?
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_NAME)
        .collect();
    let name = name.trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// Sets the players' names of `record` from a request, where given.
fn name_players(record: &mut xiangqi_records::Game, red: Option<&str>, black: Option<&str>) {
    if let Some(name) = player_name(red) {
        record.tags.set("Red", &name);
    }
    if let Some(name) = player_name(black) {
        record.tags.set("Black", &name);
    }
}

/// The content type and file extension of records in `format`.
pub fn file_kind(format: OutputFormat) -> (&'static str, &'static str) {
    match format {
        OutputFormat::Pgn(_) => ("application/x-chess-pgn; charset=utf-8", "pgn"),
        OutputFormat::Xqf => ("application/octet-stream", "xqf"),
        OutputFormat::DhtmlXq => ("text/plain; charset=utf-8", "txt"),
    }
}

/// `GET /api/games/{id}/record?format=pgn-wxf&red=…&black=…`: the game as a record file to
/// download, named `xiangqi-YYYYMMDD` with the format's extension; what the format could not
/// hold is listed in the [`WARNINGS_HEADER`] header.
pub async fn export(
    sessions: Games,
    Path(id): Path<String>,
    Params(query): Params<RecordQuery>,
) -> Result<Response, ApiError> {
    let name = query.format.as_deref().unwrap_or(DEFAULT_FORMAT);
    let format = OutputFormat::from_name(name).ok_or_else(|| {
        ApiError::bad_request(format!(
            "`{name}` is not a record format: use one of {}",
            OutputFormat::NAMES.join(", ")
        ))
    })?;
    let date = xiangqi_records::date::today();
    let record = with_game(&sessions, &id, |s| {
        let mut record = s.record();
        name_players(&mut record, query.red.as_deref(), query.black.as_deref());
        Ok(record)
    })?;
    let written = format.write(std::slice::from_ref(&record)).map_err(|e| {
        ApiError::new(
            ErrorCode::RecordFailed,
            format!("the record could not be written: {e}"),
        )
    })?;
    let (content_type, extension) = file_kind(format);
    let (year, month, day) = date;
    let disposition =
        format!("attachment; filename=\"xiangqi-{year:04}{month:02}{day:02}.{extension}\"");
    let warnings: Vec<Said> = written.warnings.iter().map(Said::warning).collect();
    Ok((
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "no-store".to_string()),
            (
                header::HeaderName::from_static(WARNINGS_HEADER),
                ascii_json(&warnings),
            ),
        ],
        written.bytes,
    )
        .into_response())
}

/// The response header of a record download that lists what the format could not hold
/// (a name cut to its field, a comment cut, tags or NAGs left out): a JSON array of
/// [`Said`] warnings, `[]` when nothing was lost.
pub const WARNINGS_HEADER: &str = "x-record-warnings";

/// `value` as JSON with every character beyond ASCII escaped (`\uXXXX`), fit for a header.
fn ascii_json<T: Serialize>(value: &[T]) -> String {
    let json = serde_json::to_string(value).unwrap_or_else(|_| "[]".to_string());
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

/// Which file `POST /api/games/import` reads, and which of its games.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ImportQuery {
    /// The file's name; its extension helps tell the format.
    #[serde(default)]
    pub name: Option<String>,
    /// The game to load, from 0 (the first when absent).
    #[serde(default)]
    pub index: Option<usize>,
}

/// A record's tags as a JSON object, in the record's order.
pub struct TagMap(pub Tags);

impl Serialize for TagMap {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0.iter() {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// The game a record file was read into.
#[derive(Serialize)]
pub struct Imported {
    /// The new game, its moves the main line of the record.
    pub game: GameView,
    /// How many games the file holds.
    pub games: usize,
    /// Which of them was loaded, from 0.
    pub index: usize,
    /// The record's tags (event, players, date …).
    pub tags: TagMap,
    /// The result the record states: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
    /// What was wrong with a file that was read only in part, when the part was loaded: the
    /// error (code, blanks with the place, English message) that cut it.
    pub warning: Option<Said>,
    /// What was skipped in the file, such as text outside any game (a site's trailer).
    pub warnings: Vec<Said>,
    /// Why each other game of the file that cannot be read cannot be (as errors: code,
    /// blanks with the game and the place, English message); the rest of the file's games
    /// open by their index.
    pub unreadable: Vec<Said>,
    /// The encoding a text file was read in (`UTF-8`, `GBK`, `Big5` …); none for XQF.
    pub encoding: Option<&'static str>,
}

/// Game `index` of a record file as read, and what else the file said.
struct Loaded {
    /// The game.
    record: xiangqi_records::Game,
    /// How many games the file holds.
    count: usize,
    /// What was wrong with the game, when only its part before a cut was loaded.
    warning: Option<Said>,
    /// What was skipped in the file (text outside any game).
    warnings: Vec<Said>,
    /// Why the file's other games that cannot be read cannot be.
    unreadable: Vec<Said>,
    /// The encoding a text file was read in.
    encoding: Option<&'static str>,
}

/// Reads game `index` of a record file. A bad game elsewhere in the file does not stop it.
fn read_record(bytes: &[u8], name: Option<&str>, index: usize) -> Result<Loaded, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(bad_record(RecordFault::EmptyFile, "the file is empty"));
    }
    let format = RecordFormat::detect(bytes, name.and_then(extension));
    let Collection {
        mut games,
        warnings,
        encoding,
    } = format.read(bytes).map_err(|e| record_error(format, &e))?;
    let count = games.len();
    if count == 0 {
        let mut err = bad_record(
            RecordFault::NoGame,
            format!("no game found in the file (read as {format})"),
        );
        add_params(&mut err, json!({ "format": format.to_string() }));
        return Err(err);
    }
    if index >= count {
        let mut err = bad_record(
            RecordFault::NoSuchGame,
            format!(
                "the file holds {count} game{}: there is no game {} (index {index})",
                if count == 1 { "" } else { "s" },
                index + 1
            ),
        );
        add_params(&mut err, json!({ "count": count, "game": index + 1 }));
        return Err(err);
    }
    let unreadable = games
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != index)
        .filter_map(|(_, g)| g.as_ref().err())
        .map(|e| Said::error(record_error(format, &without_partial(e))))
        .collect();
    let warnings = warnings.iter().map(Said::warning).collect();
    let (record, warning) = match games.swap_remove(index) {
        Ok(record) => (record, None),
        Err(error) => partial_game(error, format)?,
    };
    Ok(Loaded {
        record,
        count,
        warning,
        warnings,
        unreadable,
        encoding: encoding.map(|e| e.name()),
    })
}

/// The part of a game that `error` kept, with a warning, when the file was cut off after
/// some moves of it; else the error itself.
fn partial_game(
    mut error: RecordError,
    format: RecordFormat,
) -> Result<(xiangqi_records::Game, Option<Said>), ApiError> {
    let usable = error.is_truncated()
        && error
            .partial
            .as_ref()
            .is_some_and(|p| !p.moves.moves.is_empty());
    match error.partial.take() {
        Some(partial) if usable => {
            let mut said = Said::error(record_error(format, &error));
            said.message = format!("the {format} record is incomplete: {error}");
            Ok((*partial, Some(said)))
        }
        _ => Err(record_error(format, &error)),
    }
}

/// 422 for a main-line move that the rules refuse when the record is played.
fn unplayable(e: &UnplayableMove) -> ApiError {
    let mut err = ApiError::illegal_move(
        &e.reason,
        format!(
            "move {} of the record ({}) cannot be played: {}",
            e.number,
            e.mv,
            e.reason.message()
        ),
    );
    add_params(
        &mut err,
        json!({ "move": e.number.to_string(), "text": e.mv.to_string() }),
    );
    err
}

/// `POST /api/games/import?name=…&index=…`: reads the record file in the body (PGN, XQF or
/// DhtmlXQ, told by its content and then by the name's extension) and starts a game from
/// game `index` of it, its main line played. A game cut off with moves before the cut is
/// loaded as far as it goes, with a warning; a broken game elsewhere in the file does not
/// stop it (it is listed in `unreadable`), nor does text outside games (`warnings`). When the
/// game cannot be loaded: 422 with the rules' code for a move that breaks a rule (as the play
/// API answers), else `bad-record`.
pub async fn import(
    sessions: Games,
    Params(query): Params<ImportQuery>,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Imported>), ApiError> {
    let bytes = file_body(body)?;
    let index = query.index.unwrap_or(0);
    // Reading a file of many games takes time: off the async workers, so that play goes on.
    let name = query.name;
    let (loaded, game) = tokio::task::spawn_blocking(move || {
        let loaded = read_record(&bytes, name.as_deref(), index)?;
        let game = loaded
            .record
            .replay(GameRules::default())
            .map_err(|e| unplayable(&e))?;
        Ok::<_, ApiError>((loaded, game))
    })
    .await
    .map_err(|_| ApiError::new(ErrorCode::Internal, "the file could not be read"))??;
    let Loaded {
        record,
        count,
        warning,
        warnings,
        unreadable,
        encoding,
    } = loaded;
    let view = start_session(&sessions, PlayedGame::new(game))?;
    Ok((
        StatusCode::CREATED,
        Json(Imported {
            game: view,
            games: count,
            index,
            tags: TagMap(record.tags),
            result: record.result.pgn(),
            warning,
            warnings,
            unreadable,
            encoding,
        }),
    ))
}

/// The game-file routes: a game's record, and a file opened as a game.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/record", get(export))
        .route(
            "/api/games/import",
            post(import).layer(DefaultBodyLimit::max(MAX_IMPORT)),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions() {
        assert_eq!(extension("games/a.PGN"), Some("PGN"));
        assert_eq!(extension("C:\\x.y\\game.xqf"), Some("xqf"));
        assert_eq!(extension("noext"), None);
        assert_eq!(extension("dot."), None);
    }

    #[test]
    fn header_json_is_ascii() {
        let text = ascii_json(&["tag Red: kept \"许\" 🀄".to_string()]);
        assert!(text.is_ascii(), "{text}");
        let back: Vec<String> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, ["tag Red: kept \"许\" 🀄"]);
    }

    #[test]
    fn player_names_are_cleaned() {
        assert_eq!(player_name(Some("  Lü Qin\n")), Some("Lü Qin".to_string()));
        assert_eq!(player_name(Some("   ")), None);
        assert_eq!(player_name(None), None);
    }
}
