//! What the records and archive features share about game files: why a file cannot be read
//! (as the API answers it), what a reader or writer warned of, and the body of an upload.

use crate::kit::error::{ApiError, ErrorCode};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use serde::Serialize;
use serde_json::json;
use xiangqi_records::{
    ErrorKind, MoveError, Place, RecordError, RecordFormat, Warning, WarningKind,
};

/// Largest record file `POST /api/games/import` accepts, in bytes.
pub const MAX_IMPORT: usize = 4 * 1024 * 1024;

/// 422 `bad-record`; the blank `what` says what is wrong (`empty-file`, `no-game`,
/// `no-such-game`, `syntax`, `truncated`, `unreadable-move`, `bad-position`, `encoding`,
/// `too-deep`), for the page to word it.
pub(crate) fn bad_record(what: RecordFault, message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::BadRecord, message).with_params(json!({ "what": what.code() }))
}

/// Why a record file cannot be read, sent as the blank `what` of `bad-record` (a move that
/// breaks a rule is answered with the rule's own code instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFault {
    /// The file holds nothing but white space.
    EmptyFile,
    /// The file holds no game.
    NoGame,
    /// The file holds fewer games than the one asked for.
    NoSuchGame,
    /// The text does not follow the format.
    Syntax,
    /// The file ends inside a game.
    Truncated,
    /// A move's text names no move.
    UnreadableMove,
    /// The record's start position is not a position of the game.
    BadPosition,
    /// The text's encoding is not known.
    Encoding,
    /// Variations nest too deep.
    TooDeep,
}

impl RecordFault {
    /// Every fault, for checking that each language words them all.
    pub const ALL: [RecordFault; 9] = [
        RecordFault::EmptyFile,
        RecordFault::NoGame,
        RecordFault::NoSuchGame,
        RecordFault::Syntax,
        RecordFault::Truncated,
        RecordFault::UnreadableMove,
        RecordFault::BadPosition,
        RecordFault::Encoding,
        RecordFault::TooDeep,
    ];

    /// The fault's code, e.g. `"truncated"`; the page words it under `errors` as
    /// `record.<code>`.
    pub const fn code(self) -> &'static str {
        match self {
            RecordFault::EmptyFile => "empty-file",
            RecordFault::NoGame => "no-game",
            RecordFault::NoSuchGame => "no-such-game",
            RecordFault::Syntax => "syntax",
            RecordFault::Truncated => "truncated",
            RecordFault::UnreadableMove => "unreadable-move",
            RecordFault::BadPosition => "bad-position",
            RecordFault::Encoding => "encoding",
            RecordFault::TooDeep => "too-deep",
        }
    }
}

/// A warning or an error about a record, for the page to word: its code, its blanks, and
/// the English sentence.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Said {
    /// What it is: a warning's kind (`skipped-text`, `tag-cut`, `comment-cut`,
    /// `tag-dropped`, `nags-dropped`), or an error's code as the API answers it.
    pub code: String,
    /// The blanks: where (`game`, `line` and `column`, or `byte`) and what (`text`, `tag`,
    /// `limit`, `kept`, `cut`, `move`, `cut_chars`, `count`, or an error's blanks).
    pub params: serde_json::Value,
    /// In English.
    pub message: String,
}

impl Said {
    /// A reader's or a writer's warning.
    pub fn warning(w: &Warning) -> Said {
        let mut params = match &w.kind {
            WarningKind::SkippedText { text } => json!({ "text": text }),
            WarningKind::TagCut {
                tag,
                limit,
                kept,
                cut,
            } => json!({ "tag": tag, "limit": limit, "kept": kept, "cut": cut }),
            WarningKind::CommentCut {
                number,
                limit,
                cut_chars,
            } => json!({
                "move": number.map(|n| n.to_string()),
                "limit": limit,
                "cut_chars": cut_chars,
            }),
            WarningKind::TagDropped { tag } => json!({ "tag": tag }),
            WarningKind::NagsDropped { count } => json!({ "count": count }),
        };
        let code = match &w.kind {
            WarningKind::SkippedText { .. } => "skipped-text",
            WarningKind::TagCut { .. } => "tag-cut",
            WarningKind::CommentCut { .. } => "comment-cut",
            WarningKind::TagDropped { .. } => "tag-dropped",
            WarningKind::NagsDropped { .. } => "nags-dropped",
        };
        if let Some(place) = w.place {
            merge(&mut params, place_params(place));
        }
        if let Some(game) = w.game {
            merge(&mut params, json!({ "game": game }));
        }
        Said {
            code: code.to_string(),
            params,
            message: w.to_string(),
        }
    }

    /// An error, as the API would answer it.
    pub fn error(err: ApiError) -> Said {
        Said {
            code: err.code.to_string(),
            params: err.params,
            message: err.message,
        }
    }
}

/// The blanks that say where a place is.
pub(crate) fn place_params(place: Place) -> serde_json::Value {
    match place {
        Place::Text { line, column } => json!({ "line": line, "column": column }),
        Place::Byte(offset) => json!({ "byte": offset }),
    }
}

/// Adds the fields of `more` to the object `params`.
pub(crate) fn merge(params: &mut serde_json::Value, more: serde_json::Value) {
    if let (Some(params), serde_json::Value::Object(more)) = (params.as_object_mut(), more) {
        params.extend(more);
    }
}

/// Adds blanks to an error's params.
pub(crate) fn add_params(err: &mut ApiError, blanks: serde_json::Value) {
    merge(&mut err.params, blanks);
}

/// 422 for a record that cannot be read: for a move that breaks a rule, the rule's code and
/// blanks as the play API gives them; else `bad-record`. The blanks also say where: the game
/// (from 1), the line and column or the byte offset, and for a move its number and text.
pub(crate) fn record_error(format: RecordFormat, error: &RecordError) -> ApiError {
    let message = format!(
        "the {format} record cannot be read: {}",
        without_partial(error)
    );
    let mut err = match &error.kind {
        ErrorKind::IllegalMove { reason, .. } => match reason.as_ref() {
            MoveError::Illegal(rule) => ApiError::illegal_move(rule, message),
            MoveError::Unreadable(_) => bad_record(RecordFault::UnreadableMove, message),
        },
        ErrorKind::Syntax { .. } => bad_record(RecordFault::Syntax, message),
        ErrorKind::Truncated { .. } => bad_record(RecordFault::Truncated, message),
        ErrorKind::BadPosition(_) => bad_record(RecordFault::BadPosition, message),
        ErrorKind::Encoding => bad_record(RecordFault::Encoding, message),
        ErrorKind::TooDeep => bad_record(RecordFault::TooDeep, message),
    };
    add_params(&mut err, place_params(error.place));
    if let Some(game) = error.game {
        add_params(&mut err, json!({ "game": game }));
    }
    if let ErrorKind::IllegalMove { number, text, .. } = &error.kind {
        add_params(
            &mut err,
            json!({ "move": number.to_string(), "text": text }),
        );
    }
    err
}

/// The error without the game read before it, for messages about games that are not loaded.
pub(crate) fn without_partial(error: &RecordError) -> RecordError {
    RecordError {
        partial: None,
        ..error.clone()
    }
}

/// The extension of a file name, without the dot.
pub(crate) fn extension(name: &str) -> Option<&str> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    base.rsplit_once('.')
        .map(|(_, ext)| ext)
        .filter(|e| !e.is_empty())
}

/// The record file a request carries: 413 `too-large` beyond [`MAX_IMPORT`], else the
/// body's own refusal as `bad-request`.
pub(crate) fn file_body(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                ErrorCode::TooLarge,
                format!(
                    "the file is too large: at most {} MiB can be imported",
                    MAX_IMPORT / (1024 * 1024)
                ),
            )
        } else {
            ApiError::bad_request(e.body_text()).with_status(e.status())
        }
    })
}
