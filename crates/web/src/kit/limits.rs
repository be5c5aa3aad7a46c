//! The server's limits: the size of a request, the connections served at once and the time
//! a request head may take, and the limits on the searches a request may ask for, in one
//! table, so that
//! no request holds an engine of the pool for long, and a value past a limit is refused with
//! 400 `over-limit` naming the limit (`params: {field, value, max}`).
//!
//! | Request | Limit |
//! |---|---|
//! | engine reply (`POST …/engine`) | at most [`REPLY_TIME_MAX`] a move, whatever the clock; `clock_ms` up to [`CLOCK_MS_MAX`], `increment_ms` up to [`INCREMENT_MS_MAX`] |
//! | analysis (`POST …/analyse`, `GET …/analysis`) | `millis` up to [`ANALYSIS_MS_MAX`] |
//! | review (`GET …/review`) | `millis` up to [`REVIEW_MS_MAX`] a position, `depth` up to [`REVIEW_DEPTH_MAX`] (and never past [`REVIEW_MS_MAX`] a position), the whole review within [`REVIEW_TOTAL_MAX`] |
//! | hint, a puzzle's refutation, the trainer's and the explorer's evaluations | fixed short times of their own modules (under 2 s) |
//!
//! Analyses and reviews also share the pool's engines but one, which is kept for replies
//! (see [`SearchPool`](crate::kit::search_pool::SearchPool)).

use crate::kit::error::{ApiError, ErrorCode};
use std::time::Duration;

/// Largest request body accepted, in bytes (imports take more: `kit::records::MAX_IMPORT`).
pub const MAX_BODY: usize = 64 * 1024;
/// Most connections served at once by default (fewer when the limit on open files leaves
/// less room); more wait in the listener's queue.
pub const MAX_CONNECTIONS: usize = 1024;
/// How long a connection may take by default to send a whole request head, counted from when
/// it opened or got its last answer: an idle or half-sent connection is closed after it.
pub const HEADER_READ_TIME: Duration = Duration::from_secs(10);

/// The furthest a page of a list may start (`offset`): past any list the archive holds, and
/// within what the database counts in.
pub const OFFSET_MAX: u64 = 1_000_000_000;

/// The longest an engine reply searches, however much time its clock leaves.
pub const REPLY_TIME_MAX: Duration = Duration::from_secs(60);
/// The most time a clock may say is left, in milliseconds (10 hours).
pub const CLOCK_MS_MAX: u64 = 10 * 3600 * 1000;
/// The largest increment per move, in milliseconds (10 minutes).
pub const INCREMENT_MS_MAX: u64 = 10 * 60 * 1000;
/// The longest analysis, in milliseconds.
pub const ANALYSIS_MS_MAX: u64 = 60_000;
/// The longest search of one position of a review, in milliseconds.
pub const REVIEW_MS_MAX: u64 = 5_000;
/// The deepest search of one position of a review.
pub const REVIEW_DEPTH_MAX: i32 = 30;
/// The longest a whole review searches: a long game gets less time a position.
pub const REVIEW_TOTAL_MAX: Duration = Duration::from_secs(600);

/// 400 `over-limit` unless `value` of `field` is at most `max` (`unit` names its unit).
pub fn at_most(field: &str, value: u64, max: u64, unit: &str) -> Result<(), ApiError> {
    if value <= max {
        return Ok(());
    }
    Err(over_limit(
        field,
        value,
        max,
        format!("{field} {value} is above the server's limit of {max} {unit}"),
    ))
}

/// 400 `over-limit` unless `value` of `field` is within `min` to `max`.
pub fn within(field: &str, value: i64, min: i64, max: i64) -> Result<(), ApiError> {
    if (min..=max).contains(&value) {
        return Ok(());
    }
    Err(over_limit(
        field,
        value,
        max,
        format!("the {field} {value} is out of range ({min}–{max})"),
    ))
}

fn over_limit(
    field: &str,
    value: impl Into<serde_json::Value>,
    max: impl Into<serde_json::Value>,
    message: String,
) -> ApiError {
    let mut err = ApiError::new(ErrorCode::OverLimit, message);
    err.params = serde_json::json!({ "field": field, "value": value.into(), "max": max.into() });
    err
}

/// The time for each of `positions` positions of a review asked for `asked` each (none:
/// depth only): at most [`REVIEW_MS_MAX`], and the whole within [`REVIEW_TOTAL_MAX`].
pub fn review_time(asked: Option<Duration>, positions: usize) -> Duration {
    let share = REVIEW_TOTAL_MAX / u32::try_from(positions.max(1)).unwrap_or(u32::MAX);
    asked
        .unwrap_or(Duration::from_millis(REVIEW_MS_MAX))
        .min(Duration::from_millis(REVIEW_MS_MAX))
        .min(share)
        .max(Duration::from_millis(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_past_a_limit_is_refused_naming_it() {
        assert!(at_most("millis", 60_000, ANALYSIS_MS_MAX, "ms").is_ok());
        let err = at_most("millis", 60_001, ANALYSIS_MS_MAX, "ms").unwrap_err();
        assert_eq!(err.code, "over-limit");
        assert!(err.message.contains("60000 ms"), "{}", err.message);
        assert_eq!(err.params["max"], 60_000);
    }

    #[test]
    fn a_long_review_gets_less_time_a_position() {
        let five = Some(Duration::from_millis(5_000));
        assert_eq!(review_time(five, 60), Duration::from_millis(5_000));
        // 221 positions at 5 s would take 18 minutes: within 10 in all.
        let each = review_time(five, 221);
        assert!(each * 221 <= REVIEW_TOTAL_MAX, "{each:?}");
        // Depth alone still has a time cap.
        assert_eq!(review_time(None, 10), Duration::from_millis(REVIEW_MS_MAX));
    }
}
