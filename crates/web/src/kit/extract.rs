//! Reading a request: its JSON body and query with the error shape of the API, and the moves
//! it names, each refused with a clear code (`bad-request`, `bad-move-text`, or the rule a move
//! breaks).

use crate::kit::error::{ApiError, ErrorCode};
use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use xiangqi_rules::explain::IllegalMove;
use xiangqi_rules::{Move, ParseMoveError, ParseSquareError, Position, Square};

/// A JSON body, read as `T`: a body that is not JSON of that shape is refused with
/// `bad-request` naming what is wrong, one over the server's limit with `too-large`.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        body(Json::<T>::from_request(request, state).await).map(Body)
    }
}

/// A request's query, read as `T`: one that does not fit is refused with `bad-request`
/// naming what is wrong.
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        read_query(Query::<T>::from_request_parts(parts, state).await).map(Params)
    }
}

fn body<T>(payload: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    payload.map(|Json(v)| v).map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            let max = crate::server::MAX_BODY;
            let mut err = ApiError::new(
                ErrorCode::TooLarge,
                format!("the request body is larger than {} KiB", max / 1024),
            );
            err.params = serde_json::json!({ "max_bytes": max });
            return err;
        }
        ApiError::bad_request(format!("the request body is not valid: {}", e.body_text()))
    })
}

/// The query of a request, or 400 naming what is wrong with it.
fn read_query<T>(query: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    query
        .map(|Query(q)| q)
        .map_err(|e| ApiError::bad_request(format!("the query is not valid: {}", e.body_text())))
}

pub(crate) fn parse_square(text: &str) -> Result<Square, ApiError> {
    text.parse()
        .map_err(|e: ParseSquareError| ApiError::bad_request(e.to_string()))
}

/// The move `text` (ICCS) names in `pos`: 400 when it is no move, 422 with the rule when it is illegal.
pub(crate) fn parse_move(pos: &Position, text: &str) -> Result<Move, ApiError> {
    let m: Move = text
        .parse()
        .map_err(|e: ParseMoveError| ApiError::bad_request(e.to_string()))?;
    pos.check_move(m.from(), m.to()).map_err(|e| illegal(&e))
}

/// A move a request sends as text (ICCS, spaces around it ignored): 400 `bad-move-text`, with
/// the text as its blank, when it is no move.
pub(crate) fn read_move(text: &str) -> Result<Move, ApiError> {
    text.trim().parse().map_err(|e: ParseMoveError| {
        let mut err = ApiError::new(ErrorCode::BadMoveText, e.to_string());
        err.params = serde_json::json!({ "text": text });
        err
    })
}

/// The move `text` names in `pos`: [`read_move`]'s 400 when it is no move, 422 with the
/// rules' reason when it is illegal.
pub(crate) fn read_legal_move(pos: &Position, text: &str) -> Result<Move, ApiError> {
    let m = read_move(text)?;
    pos.check_move(m.from(), m.to()).map_err(|e| illegal(&e))
}

/// 422 for an illegal move: the rules core's reason with its points and blanks.
pub(crate) fn illegal(e: &IllegalMove) -> ApiError {
    ApiError::illegal_move(e, e.message())
}
