//! Errors the API answers with: a status code and a JSON body `{"error": {code, message,
//! highlights, params}}` that the page shows as it is. A busy server answers 503 with code
//! `busy`, the blank `retry_after` (seconds) and the same number in a `Retry-After` header.

use axum::Json;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// A request the server refuses, with the reason in plain words.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable key, e.g. `"illegal-move"` or the rules core's illegal-move code.
    pub code: String,
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
    /// An error with `status`, `code` and `message` and no points to highlight.
    pub fn new(status: StatusCode, code: &str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code: code.to_string(),
            message: message.into(),
            highlights: Vec::new(),
            params: serde_json::Value::Object(Default::default()),
            retry_after: None,
        }
    }

    /// 400: the request itself is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad-request", message)
    }

    /// 422 for a move that breaks a rule: the rules core's reason code, its points to
    /// highlight and its blanks (the page words the reason from them); `message` in English.
    pub fn illegal_move(
        reason: &xiangqi_rules::explain::IllegalMove,
        message: impl Into<String>,
    ) -> ApiError {
        let mut err = ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, reason.code(), message);
        err.highlights = reason
            .highlights()
            .iter()
            .map(ToString::to_string)
            .collect();
        err.params = crate::reasons::illegal_move_params(reason);
        err
    }

    /// 422 for a FEN the rules core refuses: code `bad-fen`; the blanks hold the FEN fault's
    /// own code as `reason` and that fault's blanks (the page words it from them).
    pub fn bad_fen(error: &xiangqi_rules::fen::FenError) -> ApiError {
        let mut err = ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad-fen",
            error.to_string(),
        );
        let mut params = crate::reasons::fen_error_params(error);
        if let Some(map) = params.as_object_mut() {
            map.insert("reason".to_string(), error.code().into());
        }
        err.params = params;
        err
    }

    /// 404: no game with that id.
    pub fn no_game(id: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no-game",
            format!("there is no game {id}; start a new one"),
        )
    }

    /// 503: every searcher is busy and the queue is full; the request may be sent again
    /// after `retry_after` seconds (the `Retry-After` header and the `retry_after` blank).
    pub fn busy(retry_after: u32) -> ApiError {
        let mut err = ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            format!("the engine is busy with other games; try again in {retry_after} s"),
        );
        err.params = serde_json::json!({ "retry_after": retry_after });
        err.retry_after = Some(retry_after);
        err
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                code: &self.code,
                message: &self.message,
                highlights: &self.highlights,
                params: &self.params,
            },
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
    let code = match status {
        StatusCode::BAD_REQUEST => "bad-request",
        StatusCode::NOT_FOUND => "not-found",
        StatusCode::METHOD_NOT_ALLOWED => "method-not-allowed",
        StatusCode::REQUEST_TIMEOUT => "timeout",
        StatusCode::PAYLOAD_TOO_LARGE => "too-large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported-media-type",
        StatusCode::UNPROCESSABLE_ENTITY => "unprocessable",
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => "headers-too-large",
        StatusCode::SERVICE_UNAVAILABLE => "unavailable",
        s if s.is_server_error() => "internal",
        _ => "http-error",
    };
    let message = if text.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_lowercase()
    } else {
        text
    };
    let mut out = ApiError::new(status, code, message).into_response();
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(value) = parts.headers.get(&name) {
            out.headers_mut().insert(name, value.clone());
        }
    }
    out
}
