//! Errors the API answers with: a status code and a JSON body `{"error": {code, message,
//! highlights, params}}` that the page shows as it is.

use axum::Json;
use axum::http::StatusCode;
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
        }
    }

    /// 400: the request itself is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad-request", message)
    }

    /// 404: no game with that id.
    pub fn no_game(id: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no-game",
            format!("there is no game {id}; start a new one"),
        )
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
        (self.status, Json(body)).into_response()
    }
}
