//! Errors the API answers with: a status code and a JSON body `{"error": {code, message,
//! highlights, params}}` that the page shows as it is. A busy server answers 503 with code
//! `busy`, the blank `retry_after` (seconds) and the same number in a `Retry-After` header.

use axum::Json;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// Declares [`ErrorCode`]: each code with its wire name and HTTP status, and the list of all.
macro_rules! error_codes {
    ($($(#[doc = $doc:literal])* $name:ident = $code:literal, $status:ident;)*) => {
        /// Every kind of error the server answers with. Its wire name ([`ErrorCode::code`]) is
        /// the key the page words it by, in `static/i18n/<language>.json` under `errors`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $($(#[doc = $doc])* $name,)*
        }

        impl ErrorCode {
            /// Every code, for checking that each language words them all.
            pub const ALL: &[ErrorCode] = &[$(ErrorCode::$name,)*];

            /// The wire name, e.g. `"no-game"`.
            pub const fn code(self) -> &'static str {
                match self {
                    $(ErrorCode::$name => $code,)*
                }
            }

            /// The HTTP status the code is answered with.
            pub const fn status(self) -> StatusCode {
                match self {
                    $(ErrorCode::$name => StatusCode::$status,)*
                }
            }
        }
    };
}

error_codes! {
    /// The request is malformed: its body, query or path cannot be read.
    BadRequest = "bad-request", BAD_REQUEST;
    /// A move sent as text is no move (blank `text`).
    BadMoveText = "bad-move-text", BAD_REQUEST;
    /// A ply the game, the puzzle or the line has not reached (blanks `ply`, `moves`).
    BadPly = "bad-ply", BAD_REQUEST;
    /// The puzzle and the board went out of step: after that ply it is not the solver's turn
    /// (blanks `ply`, `plies`).
    PuzzleOutOfStep = "puzzle-out-of-step", BAD_REQUEST;
    /// A side that is neither `red` nor `black` (blank `side`).
    BadSide = "bad-side", BAD_REQUEST;
    /// A puzzle theme there is none of (blank `theme`).
    BadTheme = "bad-theme", BAD_REQUEST;
    /// A value past one of the server's limits (blanks `field`, `value`, `max`).
    OverLimit = "over-limit", BAD_REQUEST;
    /// A room's time control out of range (blanks `seconds`, `increment`, `max_minutes`,
    /// `max_increment`).
    BadTimeControl = "bad-time-control", BAD_REQUEST;
    /// The request came for a host this server does not answer to (blank `host`).
    BadHost = "bad-host", MISDIRECTED_REQUEST;
    /// A change asked by a page of another site (blank `from`).
    CrossSite = "cross-site", FORBIDDEN;
    /// A seat token that holds no seat of the room: forged, or from another room.
    BadSeatToken = "bad-seat-token", FORBIDDEN;
    /// A spectator's move, offer, resignation or claim.
    NotSeated = "not-seated", FORBIDDEN;
    /// A spectator's analysis of a room's game while its players have turned it off.
    AnalysisOff = "analysis-off", FORBIDDEN;
    /// No such address.
    NotFound = "not-found", NOT_FOUND;
    /// No game with that id: it was never started or the server dropped it.
    NoGame = "no-game", NOT_FOUND;
    /// No puzzle with that id (blank `id`).
    NoPuzzle = "no-puzzle", NOT_FOUND;
    /// No puzzle matches the filters.
    NoPuzzles = "no-puzzles", NOT_FOUND;
    /// No notation exercise at that place of a course (blanks `lesson` and `exercise`).
    NoExercise = "no-exercise", NOT_FOUND;
    /// No opening line with that id (blank `line`).
    NoTrainerLine = "no-trainer-line", NOT_FOUND;
    /// The opening line has no such branch (blank `branch`).
    NoTrainerBranch = "no-trainer-branch", NOT_FOUND;
    /// No room with that id or short code.
    NoRoom = "no-room", NOT_FOUND;
    /// No game with that number in My games (blank `id`).
    ArchiveNoGame = "archive-no-game", NOT_FOUND;
    /// The address does not take that method.
    MethodNotAllowed = "method-not-allowed", METHOD_NOT_ALLOWED;
    /// The request took too long to arrive.
    Timeout = "timeout", REQUEST_TIMEOUT;
    /// The game is over; no move can be played.
    GameOver = "game-over", CONFLICT;
    /// The game changed while the engine thought.
    GameChanged = "game-changed", CONFLICT;
    /// The side to move has no legal move.
    NoMove = "no-move", CONFLICT;
    /// Openings are explored only from the initial position.
    OpeningNotFromStart = "opening-not-from-start", CONFLICT;
    /// Openings are explored in the first moves only (blank `moves`).
    OpeningTooLate = "opening-too-late", CONFLICT;
    /// The opening book could not follow the game.
    OpeningError = "opening-error", CONFLICT;
    /// The trainer's board and its line went out of step (blank `ply`).
    TrainerMovesOffLine = "trainer-moves-off-line", CONFLICT;
    /// In the trainer it is the program's move.
    TrainerNotYourTurn = "trainer-not-your-turn", CONFLICT;
    /// The trainer's line is already played to its end.
    TrainerLineOver = "trainer-line-over", CONFLICT;
    /// A room's move from the side not to move.
    NotYourTurn = "not-your-turn", CONFLICT;
    /// A room's move or offer while its other seat is still free.
    NoOpponent = "no-opponent", CONFLICT;
    /// An answer to an offer that was not made (blank `kind`: `draw`, `takeback`, `rematch`).
    NoOffer = "no-offer", CONFLICT;
    /// An offer that cannot be made now (blank `kind`): a take-back with no move to take back,
    /// the same offer twice, a rematch before the game is over.
    CannotOffer = "cannot-offer", CONFLICT;
    /// A claim against an opponent who is here or not yet away long enough (blank
    /// `wait_seconds`, absent while the opponent is here).
    CannotClaim = "cannot-claim", CONFLICT;
    /// A request or a file larger than the server takes (blank `max_bytes`).
    TooLarge = "too-large", PAYLOAD_TOO_LARGE;
    /// A room socket's message larger than allowed (blank `max_bytes`); the socket is closed.
    MessageTooLarge = "message-too-large", PAYLOAD_TOO_LARGE;
    /// A room socket that sends messages faster than allowed (blank `per_second`); the
    /// socket is closed.
    TooManyMessages = "too-many-messages", TOO_MANY_REQUESTS;
    /// A body of a type the address does not take.
    UnsupportedMediaType = "unsupported-media-type", UNSUPPORTED_MEDIA_TYPE;
    /// A move that breaks a rule; the wire code is the rule's own (see
    /// `xiangqi_rules::explain::IllegalMove::CODES`), worded under `reasons`.
    IllegalMove = "illegal-move", UNPROCESSABLE_ENTITY;
    /// A FEN the rules refuse; blank `reason` is the FEN fault's code.
    BadFen = "bad-fen", UNPROCESSABLE_ENTITY;
    /// A game file that cannot be read; blank `what` says why.
    BadRecord = "bad-record", UNPROCESSABLE_ENTITY;
    /// A move from an earlier position must say whether it starts a variation (blank `ply`).
    ChoiceNeeded = "choice-needed", UNPROCESSABLE_ENTITY;
    /// The game has no such line.
    NoLine = "no-line", UNPROCESSABLE_ENTITY;
    /// The main line cannot be deleted.
    MainLine = "main-line", UNPROCESSABLE_ENTITY;
    /// A saved puzzle rating that cannot be one (blank `field`).
    BadRatingState = "bad-rating-state", UNPROCESSABLE_ENTITY;
    /// The request was understood but cannot be done.
    Unprocessable = "unprocessable", UNPROCESSABLE_ENTITY;
    /// The request's headers are too large.
    HeadersTooLarge = "headers-too-large", REQUEST_HEADER_FIELDS_TOO_LARGE;
    /// Something failed inside the server.
    Internal = "internal", INTERNAL_SERVER_ERROR;
    /// The engine could not answer.
    EngineFailed = "engine-failed", INTERNAL_SERVER_ERROR;
    /// A game file could not be written.
    RecordFailed = "record-failed", INTERNAL_SERVER_ERROR;
    /// My games could not be read or written; blank `reason` is the archive's code.
    ArchiveFailed = "archive-failed", INTERNAL_SERVER_ERROR;
    /// The lessons cannot be read.
    LessonsUnreadable = "lessons-unreadable", INTERNAL_SERVER_ERROR;
    /// The puzzle set cannot be read.
    PuzzlesUnreadable = "puzzles-unreadable", INTERNAL_SERVER_ERROR;
    /// Every engine is busy; try again after `retry_after` seconds.
    Busy = "busy", SERVICE_UNAVAILABLE;
    /// A change that cannot be saved now (the disk is full, the file read-only or locked, or
    /// gone) is refused and not made.
    NotSaved = "not-saved", SERVICE_UNAVAILABLE;
    /// This client made rooms faster than the server allows (blanks `burst`, `every_seconds`,
    /// `retry_after`).
    TooManyRooms = "too-many-rooms", TOO_MANY_REQUESTS;
    /// The server holds as many games in progress as it can (blank `max`, `retry_after`).
    RoomsFull = "rooms-full", SERVICE_UNAVAILABLE;
    /// This client address holds as many sockets as it may (blank `max`).
    TooManySockets = "too-many-sockets", TOO_MANY_REQUESTS;
    /// The room has as many sockets as it may (blank `max`).
    RoomCrowded = "room-crowded", SERVICE_UNAVAILABLE;
    /// The server is shutting down.
    ShuttingDown = "shutting-down", SERVICE_UNAVAILABLE;
    /// What is asked for is one's own, and the request is from no one: sign in.
    SignedOut = "signed-out", UNAUTHORIZED;
    /// Only an administrator may do this.
    AdminOnly = "admin-only", FORBIDDEN;
    /// The name cannot be an account's (blank `reason`: what is wrong with it).
    BadName = "bad-name", BAD_REQUEST;
    /// The password cannot be used (blanks `min`, `max`).
    BadPassword = "bad-password", BAD_REQUEST;
    /// Another account has this name.
    NameTaken = "name-taken", CONFLICT;
    /// The name or the password is wrong (which one is not said).
    WrongPassword = "wrong-password", UNAUTHORIZED;
    /// The host has closed sign-up (accounts are added on the server's command line).
    SignUpClosed = "sign-up-closed", FORBIDDEN;
    /// Sign-up needs an invitation code, and this one is not one that can be used.
    BadInvite = "bad-invite", FORBIDDEN;
    /// The host has disabled this account.
    AccountDisabled = "account-disabled", FORBIDDEN;
    /// Too many tries to sign in or up; try again after `retry_after` seconds.
    TooManyTries = "too-many-tries", TOO_MANY_REQUESTS;
    /// The lobby's challenge is no longer open.
    NoSeek = "no-seek", NOT_FOUND;
    /// One's own challenge cannot be accepted.
    OwnSeek = "own-seek", CONFLICT;
    /// As many challenges are open as may be (blank `max`).
    TooManySeeks = "too-many-seeks", TOO_MANY_REQUESTS;
    /// Accounts exist only on a server hosted for many people (`xiangqi serve`).
    NoAccounts = "no-accounts", NOT_FOUND;
    /// My games is not there; blank `reason` is the archive's code, `path` its file.
    ArchiveUnavailable = "archive-unavailable", SERVICE_UNAVAILABLE;
    /// The server cannot answer right now.
    Unavailable = "unavailable", SERVICE_UNAVAILABLE;
    /// Any other refusal by the HTTP stack.
    HttpError = "http-error", BAD_REQUEST;
}

/// A request the server refuses, with the reason in plain words.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// What kind of error it is.
    pub kind: ErrorCode,
    /// The HTTP status: the kind's own, or the one the HTTP stack gave.
    pub status: StatusCode,
    /// The wire code: the kind's, or for an illegal move the rule's code.
    pub code: &'static str,
    /// The reason, for people.
    pub message: String,
    /// Points to highlight on the board (ICCS names).
    pub highlights: Vec<String>,
    /// The blanks of the reason, for saying it in another language (an empty object when
    /// the message has none).
    pub params: serde_json::Value,
    /// Seconds after which the request may be sent again, sent as `Retry-After` (for 503).
    pub retry_after: Option<u32>,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: ErrorDetail<'a>,
}

#[derive(Serialize)]
struct ErrorDetail<'a> {
    code: &'a str,
    message: &'a str,
    highlights: &'a [String],
    params: &'a serde_json::Value,
}

impl ApiError {
    /// An error of kind `kind`, with its status, and `message`.
    pub fn new(kind: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            kind,
            status: kind.status(),
            code: kind.code(),
            message: message.into(),
            highlights: Vec::new(),
            params: serde_json::Value::Object(Default::default()),
            retry_after: None,
        }
    }

    /// The same error with `params` as its blanks.
    pub fn with_params(mut self, params: serde_json::Value) -> ApiError {
        self.params = params;
        self
    }

    /// The same error answered with `status` (a status the HTTP stack chose).
    pub fn with_status(mut self, status: StatusCode) -> ApiError {
        self.status = status;
        self
    }

    /// 400: the request itself is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::BadRequest, message)
    }

    /// 422 for a move that breaks a rule: the rules core's reason code, its points to
    /// highlight and its blanks (the page words the reason from them); `message` in English.
    pub fn illegal_move(
        reason: &xiangqi_rules::explain::IllegalMove,
        message: impl Into<String>,
    ) -> ApiError {
        let mut err = ApiError::new(ErrorCode::IllegalMove, message)
            .with_params(crate::kit::reasons::illegal_move_params(reason));
        err.code = reason.code();
        err.highlights = reason
            .highlights()
            .iter()
            .map(ToString::to_string)
            .collect();
        err
    }

    /// 422 for a FEN the rules core refuses: code `bad-fen`; the blanks hold the FEN fault's
    /// own code as `reason` and that fault's blanks (the page words it from them).
    pub fn bad_fen(error: &xiangqi_rules::fen::FenError) -> ApiError {
        let mut params = crate::kit::reasons::fen_error_params(error);
        if let Some(map) = params.as_object_mut() {
            map.insert("reason".to_string(), error.code().into());
        }
        ApiError::new(ErrorCode::BadFen, error.to_string()).with_params(params)
    }

    /// 404: no game with that id.
    pub fn no_game(id: &str) -> ApiError {
        ApiError::new(
            ErrorCode::NoGame,
            format!("there is no game {id}; start a new one"),
        )
    }

    /// The same error to be asked again after `seconds` (the `Retry-After` header and the
    /// `retry_after` blank).
    pub fn with_retry_after(mut self, seconds: u32) -> ApiError {
        if let Some(map) = self.params.as_object_mut() {
            map.insert("retry_after".to_string(), seconds.into());
        }
        self.retry_after = Some(seconds);
        self
    }

    /// 503: every searcher is busy and the queue is full; the request may be sent again
    /// after `retry_after` seconds (the `Retry-After` header and the `retry_after` blank).
    pub fn busy(retry_after: u32) -> ApiError {
        ApiError::new(
            ErrorCode::Busy,
            format!("the engine is busy with other games; try again in {retry_after} s"),
        )
        .with_retry_after(retry_after)
    }
}

/// 409 `game-over` for a request that needs a game still in play, with why it ended.
pub fn game_over(outcome: &xiangqi_rules::Outcome) -> ApiError {
    ApiError::new(
        ErrorCode::GameOver,
        format!("the game is over: {}", outcome.reason),
    )
}

/// 500 for a move the server found legal that the game then refused: a fault of the server,
/// with the game's reason code as the blank `reason`.
pub fn internal_play(error: &xiangqi_rules::explain::IllegalMove) -> ApiError {
    ApiError::new(ErrorCode::Internal, error.message())
        .with_params(serde_json::json!({ "reason": error.code() }))
}

/// A change to a game being played that its lines refuse: 400 `bad-ply`, 422
/// `choice-needed`, `no-line` or `main-line`, each with its blanks, or the move's rule.
impl From<xiangqi_records::PlayError> for ApiError {
    fn from(e: xiangqi_records::PlayError) -> ApiError {
        use xiangqi_records::PlayError;
        let message = e.to_string();
        match e {
            PlayError::BadPly { ply, moves } => ApiError::new(ErrorCode::BadPly, message)
                .with_params(serde_json::json!({ "ply": ply, "moves": moves })),
            PlayError::ChoiceNeeded { ply } => ApiError::new(ErrorCode::ChoiceNeeded, message)
                .with_params(serde_json::json!({ "ply": ply })),
            PlayError::NoLine { line, lines } => ApiError::new(ErrorCode::NoLine, message)
                .with_params(serde_json::json!({ "line": line, "lines": lines })),
            PlayError::MainLine => ApiError::new(ErrorCode::MainLine, message),
            PlayError::Illegal(reason) => ApiError::illegal_move(&reason, reason.message()),
        }
    }
}

impl ApiError {
    fn detail(&self) -> ErrorDetail<'_> {
        ErrorDetail {
            code: self.code,
            message: &self.message,
            highlights: &self.highlights,
            params: &self.params,
        }
    }

    /// The error as an answer's body writes it under `error` (`{code, message, highlights,
    /// params}`), for an answer that carries a refusal without failing.
    pub fn detail_json(&self) -> serde_json::Value {
        serde_json::to_value(self.detail()).unwrap_or_default()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.detail(),
        };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// Largest plain error body read to put into the JSON shape.
const PLAIN_ERROR_BYTES: usize = 4096;

/// The server's layer that gives every error answer the JSON error shape: an error that a
/// part of the HTTP stack answered in plain text or with no body (a method not allowed, a
/// path that does not parse, an unknown address) gets a code from its status and its text as
/// the message; its `Allow` and `Retry-After` headers stay.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    if is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, PLAIN_ERROR_BYTES)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let kind = match status {
        StatusCode::BAD_REQUEST => ErrorCode::BadRequest,
        StatusCode::NOT_FOUND => ErrorCode::NotFound,
        StatusCode::METHOD_NOT_ALLOWED => ErrorCode::MethodNotAllowed,
        StatusCode::REQUEST_TIMEOUT => ErrorCode::Timeout,
        StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::TooLarge,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ErrorCode::UnsupportedMediaType,
        StatusCode::UNPROCESSABLE_ENTITY => ErrorCode::Unprocessable,
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => ErrorCode::HeadersTooLarge,
        StatusCode::SERVICE_UNAVAILABLE => ErrorCode::Unavailable,
        s if s.is_server_error() => ErrorCode::Internal,
        _ => ErrorCode::HttpError,
    };
    let message = if text.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_lowercase()
    } else {
        text
    };
    let mut out = ApiError::new(kind, message)
        .with_status(status)
        .into_response();
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(value) = parts.headers.get(&name) {
            out.headers_mut().insert(name, value.clone());
        }
    }
    out
}
