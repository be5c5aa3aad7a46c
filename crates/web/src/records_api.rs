//! Games as files: a game's record in PGN, XQF or DhtmlXQ to download, and a record file read
//! into a new game.

use crate::api::{start_session, with_game};
use crate::error::ApiError;
use crate::session::Sessions;
use crate::view::GameView;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use xiangqi_records::{GameResult, Line, OutputFormat, RecordError, RecordFormat, Tags};
use xiangqi_rules::{Game, GameRules, Outcome};

/// Largest record file `POST /api/games/import` accepts, in bytes.
pub const MAX_IMPORT: usize = 4 * 1024 * 1024;

/// The format a record is written in when the request names none.
pub const DEFAULT_FORMAT: &str = "pgn-wxf";

/// The event tag of an exported game.
const EVENT: &str = "Casual game";

/// Longest player name kept from a request, in characters.
const MAX_NAME: usize = 64;

fn bad_query(e: &QueryRejection) -> ApiError {
    ApiError::bad_request(format!("the query is not valid: {}", e.body_text()))
}

fn bad_record(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "bad-record", message)
}

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

/// The record's result for a game's outcome.
fn record_result(outcome: Option<&Outcome>) -> GameResult {
    match outcome.map(|o| o.result) {
        Some(xiangqi_rules::GameResult::RedWins) => GameResult::RedWins,
        Some(xiangqi_rules::GameResult::BlackWins) => GameResult::BlackWins,
        Some(xiangqi_rules::GameResult::Draw) => GameResult::Draw,
        None => GameResult::Unknown,
    }
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

/// The record of the moves played in `game` (not the moves taken back), with the event, the
/// date (year, month, day), the players, the result, and for a finished game the reason it
/// ended as the comment on its last move.
pub fn game_record(
    game: &Game,
    date: (i64, u32, u32),
    red: Option<&str>,
    black: Option<&str>,
) -> xiangqi_records::Game {
    let (year, month, day) = date;
    let mut tags = Tags::new();
    tags.set("Event", EVENT);
    tags.set("Date", &format!("{year:04}.{month:02}.{day:02}"));
    if let Some(name) = player_name(red) {
        tags.set("Red", &name);
    }
    if let Some(name) = player_name(black) {
        tags.set("Black", &name);
    }
    let mut moves = Line::from_moves(game.moves().iter().copied());
    if let Some(outcome) = game.outcome() {
        let reason = outcome.reason.to_string();
        let mut chars = reason.chars();
        let reason = match chars.next() {
            Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
            None => reason,
        };
        match outcome
            .ply
            .checked_sub(1)
            .and_then(|i| moves.moves.get_mut(i))
        {
            Some(last) => last.comment = Some(reason),
            None => moves.comment = Some(reason),
        }
    }
    xiangqi_records::Game {
        tags,
        start: game.start().clone(),
        moves,
        result: record_result(game.outcome()),
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
/// download, named `xiangqi-YYYYMMDD` with the format's extension.
pub async fn export(
    State(sessions): State<Sessions>,
    Path(id): Path<String>,
    query: Result<Query<RecordQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| bad_query(&e))?;
    let name = query.format.as_deref().unwrap_or(DEFAULT_FORMAT);
    let format = OutputFormat::from_name(name).ok_or_else(|| {
        ApiError::bad_request(format!(
            "`{name}` is not a record format: use one of {}",
            OutputFormat::NAMES.join(", ")
        ))
    })?;
    let date = xiangqi_records::date::today();
    let record = with_game(&sessions, &id, |s| {
        Ok(game_record(
            &s.game,
            date,
            query.red.as_deref(),
            query.black.as_deref(),
        ))
    })?;
    let bytes = format.write(std::slice::from_ref(&record)).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "record-failed",
            format!("the record could not be written: {e}"),
        )
    })?;
    let (content_type, extension) = file_kind(format);
    let (year, month, day) = date;
    let disposition =
        format!("attachment; filename=\"xiangqi-{year:04}{month:02}{day:02}.{extension}\"");
    Ok((
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        bytes,
    )
        .into_response())
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
    /// What was wrong with a file that was read only in part, when the part was loaded.
    pub warning: Option<String>,
}

/// The extension of a file name, without the dot.
fn extension(name: &str) -> Option<&str> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    base.rsplit_once('.')
        .map(|(_, ext)| ext)
        .filter(|e| !e.is_empty())
}

/// Reads game `index` of a record file: the game, how many games the file holds, and a
/// warning when only part of the game could be read.
fn read_record(
    bytes: &[u8],
    name: Option<&str>,
    index: usize,
) -> Result<(xiangqi_records::Game, usize, Option<String>), ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(bad_record("the file is empty"));
    }
    let format = RecordFormat::detect(bytes, name.and_then(extension));
    let mut games = match format.read(bytes) {
        Ok(games) => games,
        Err(e) => return partial_game(e, format, index),
    };
    let count = games.len();
    if count == 0 {
        return Err(bad_record(format!(
            "no game found in the file (read as {format})"
        )));
    }
    if index >= count {
        return Err(bad_record(format!(
            "the file holds {count} game{}: there is no game {} (index {index})",
            if count == 1 { "" } else { "s" },
            index + 1
        )));
    }
    Ok((games.swap_remove(index), count, None))
}

/// The part of game `index` that `error` kept, when the file was cut off after some moves of
/// it; else the error itself.
fn partial_game(
    mut error: RecordError,
    format: RecordFormat,
    index: usize,
) -> Result<(xiangqi_records::Game, usize, Option<String>), ApiError> {
    let usable = error.is_truncated()
        && error.game.is_none_or(|g| g == index + 1)
        && error
            .partial
            .as_ref()
            .is_some_and(|p| !p.moves.moves.is_empty());
    if usable {
        let warning = format!("the {format} record is incomplete: {error}");
        let partial = error.partial.take().map(|p| *p).unwrap_or_default();
        return Ok((partial, error.game.unwrap_or(1), Some(warning)));
    }
    // What was read before the problem is not loaded, so the message does not offer it.
    error.partial = None;
    Err(bad_record(format!(
        "the {format} record cannot be read: {error}"
    )))
}

/// The rules' game for a record's start position and main line.
fn replay(record: &xiangqi_records::Game) -> Result<Game, ApiError> {
    let mut game = Game::with_rules(record.start.clone(), GameRules::default());
    for (ply, m) in record.mainline().enumerate() {
        game.play(m).map_err(|e| {
            bad_record(format!(
                "move {} of the record ({}) cannot be played: {}",
                ply + 1,
                m.iccs(),
                e.message()
            ))
        })?;
    }
    Ok(game)
}

/// `POST /api/games/import?name=…&index=…`: reads the record file in the body (PGN, XQF or
/// DhtmlXQ, told by its content and then by the name's extension) and starts a game from
/// game `index` of it, its main line played (422 `bad-record` when it cannot be read). A game
/// cut off with moves before the cut is loaded as far as it goes, with a warning.
pub async fn import(
    State(sessions): State<Sessions>,
    query: Result<Query<ImportQuery>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Imported>), ApiError> {
    let Query(query) = query.map_err(|e| bad_query(&e))?;
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too-large",
                format!(
                    "the file is too large: at most {} MiB can be imported",
                    MAX_IMPORT / (1024 * 1024)
                ),
            )
        } else {
            ApiError::new(e.status(), "bad-request", e.body_text())
        }
    })?;
    let index = query.index.unwrap_or(0);
    let (record, games, warning) = read_record(&bytes, query.name.as_deref(), index)?;
    let game = replay(&record)?;
    let view = start_session(&sessions, game, Vec::new())?;
    Ok((
        StatusCode::CREATED,
        Json(Imported {
            game: view,
            games,
            index,
            tags: TagMap(record.tags),
            result: record.result.pgn(),
            warning,
        }),
    ))
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
    fn player_names_are_cleaned() {
        assert_eq!(player_name(Some("  Lü Qin\n")), Some("Lü Qin".to_string()));
        assert_eq!(player_name(Some("   ")), None);
        assert_eq!(player_name(None), None);
    }
}
