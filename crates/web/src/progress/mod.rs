//! A learner's progress, kept on the server for its owner (the learner of the app on their
//! own machine, an account, or a guest of a hosted server), so that it follows an account
//! from browser to browser and goes with it when the account is deleted or downloaded. The
//! page keeps a copy in its browser and sends each change.
//!
//! - `GET /api/progress`: every topic's value with when it was saved,
//!   `{topic: {value, updated_ms}}`.
//! - `PUT /api/progress/{topic}` `{value, updated_ms}`: keeps `value` (any JSON up to
//!   [`MAX_VALUE`] bytes) unless a later one is kept; answers the value kept.
//!
//! The topics are the course ([`TOPICS`]): `course`, `patterns`, `endgames`, `puzzles` (the
//! page's streaks, last puzzles and filters), `characters` (the characters drill). The puzzle
//! rating itself is the server's: it is kept under `puzzle-rating` by
//! `POST /api/puzzles/result` and cannot be written here.

use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::Body;
use crate::kit::learner::PAGE_VALUE_KEY;
use crate::kit::viewer::{Viewer, now_ms};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::routing::{get, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use xiangqi_store::Progress;

use crate::kit::archive_store::ArchiveService;

/// The topics the page keeps.
pub const TOPICS: &[&str] = &["course", "patterns", "endgames", "puzzles", "characters"];
/// The longest value kept, in bytes of JSON.
pub const MAX_VALUE: usize = 64 * 1024;

/// A topic's value as kept.
#[derive(Serialize, Deserialize)]
pub struct ProgressValue {
    /// The value.
    pub value: Value,
    /// When it was saved (milliseconds since 1970, UTC); now when absent.
    #[serde(default)]
    pub updated_ms: Option<i64>,
}

/// `GET /api/progress`: every topic's value.
pub async fn all(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
) -> Result<Json<Value>, ApiError> {
    let owner = viewer.require_owner()?;
    let values = archive
        .run(move |s| {
            let mut all = serde_json::Map::new();
            for topic in TOPICS {
                for p in s.progress(&owner, topic)? {
                    if p.key == PAGE_VALUE_KEY {
                        let value = serde_json::from_str(&p.value).unwrap_or(Value::Null);
                        all.insert(
                            (*topic).to_string(),
                            json!({ "value": value, "updated_ms": p.updated_ms }),
                        );
                    }
                }
            }
            Ok(Value::Object(all))
        })
        .await?;
    Ok(Json(values))
}

/// `PUT /api/progress/{topic}`: keeps a topic's value (a later one kept stays).
pub async fn keep(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Path(topic): Path<String>,
    Body(req): Body<ProgressValue>,
) -> Result<Json<ProgressValue>, ApiError> {
    let owner = viewer.require_owner()?;
    if !TOPICS.contains(&topic.as_str()) {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!(
                "`{topic}` is not a topic of progress: {}",
                TOPICS.join(", ")
            ),
        ));
    }
    let text = req.value.to_string();
    if text.len() > MAX_VALUE {
        return Err(ApiError::bad_request(format!(
            "a topic's progress is at most {} KiB",
            MAX_VALUE / 1024
        )));
    }
    let value = Progress {
        owner: owner.clone(),
        topic: topic.clone(),
        key: PAGE_VALUE_KEY.to_string(),
        value: text,
        updated_ms: req.updated_ms.unwrap_or_else(now_ms),
    };
    let kept = archive
        .run(move |s| {
            s.save_progress(&value)?;
            Ok(s.progress(&owner, &topic)?
                .into_iter()
                .find(|p| p.key == PAGE_VALUE_KEY))
        })
        .await?;
    let kept = kept.ok_or_else(|| ApiError::new(ErrorCode::Internal, "the value was not kept"))?;
    Ok(Json(ProgressValue {
        value: serde_json::from_str(&kept.value).unwrap_or(Value::Null),
        updated_ms: Some(kept.updated_ms),
    }))
}

/// The progress routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/progress", get(all))
        .route("/api/progress/{topic}", put(keep))
}
