//! Reading a request: its JSON body and query as typed values, refused with the API's error
//! (`bad-request` naming what is wrong, `too-large`, or the code of a value that does not parse,
//! see [`super::wire`]), and the legality of the moves it names (422 with the rule a move breaks).

use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::wire;
use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use xiangqi_rules::explain::IllegalMove;
use xiangqi_rules::{Move, Position};

/// A JSON body, read as `T`: a body that is not JSON of that shape is refused with
/// `bad-request` naming what is wrong, one over the server's limit with `too-large`.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        wire::clear_fault();
        let read = Json::<T>::from_request(request, state).await;
        body(read)
            .map(Body)
            .map_err(|e| wire::take_fault().unwrap_or(e))
    }
}

/// A request's query, read as `T`: one that does not fit is refused with `bad-request`
/// naming what is wrong.
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        wire::clear_fault();
        let read = Query::<T>::from_request_parts(parts, state).await;
        read_query(read)
            .map(Params)
            .map_err(|e| wire::take_fault().unwrap_or(e))
    }
}

fn body<T>(payload: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    payload.map(|Json(v)| v).map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            let max = crate::kit::limits::MAX_BODY;
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

/// `m` when it is legal in `pos`; 422 with the rules' reason when it is not.
pub(crate) fn legal(pos: &Position, m: Move) -> Result<Move, ApiError> {
    pos.check_move(m.from(), m.to()).map_err(|e| illegal(&e))
}

/// 422 for an illegal move: the rules core's reason with its points and blanks.
pub(crate) fn illegal(e: &IllegalMove) -> ApiError {
    ApiError::illegal_move(e, e.message())
}
