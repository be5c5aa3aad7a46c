//! Where the server keeps what a learner did, for the features that read it: the progress
//! topics the page keeps (each topic's one value under [`PAGE_VALUE_KEY`]), the puzzle rating
//! and the puzzles rated.

use serde_json::Value;
use xiangqi_store::{Progress, Store, StoreError};
use xiangqi_teaching::learner_rating::{LearnerState, PuzzleRatingState};

/// The key of a page-kept topic's one value (`course`, `patterns`, `endgames` …).
pub const PAGE_VALUE_KEY: &str = "state";
/// The topic of the puzzle rating, which the server keeps (the page cannot write it).
pub const PUZZLE_RATING_TOPIC: &str = "puzzle-rating";
/// The key, under [`PUZZLE_RATING_TOPIC`], of the rating's state.
pub const PUZZLE_RATING_KEY: &str = "state";
/// The owner the puzzles' own ratings are kept under, moved by their solvers' results: no
/// learner's (a learner's owner is empty, `account:…` or `guest:…`).
pub const PUZZLE_RATINGS_OWNER: &str = "@puzzles";
/// The topic of the puzzles' own ratings, a value a puzzle (keyed by its id).
pub const PUZZLE_RATINGS_TOPIC: &str = "puzzle-ratings";
/// The prefix of the keys, under [`PUZZLE_RATING_TOPIC`], that mark a puzzle as rated.
const RATED: &str = "rated:";

/// The key, under [`PUZZLE_RATING_TOPIC`], that marks puzzle `id` as rated for the learner.
pub fn rated_key(id: &str) -> String {
    format!("{RATED}{id}")
}

/// The puzzle rating kept among `values` (the progress of [`PUZZLE_RATING_TOPIC`]), when one
/// is kept and is a rating.
pub fn kept_rating(values: &[Progress]) -> Option<LearnerState> {
    values
        .iter()
        .find(|p| p.key == PUZZLE_RATING_KEY)
        .and_then(|p| serde_json::from_str::<LearnerState>(&p.value).ok())
        .and_then(|state| state.validate().ok())
}

/// The puzzles' own ratings as kept, by id (those no solver moved are absent).
pub fn moved_puzzle_ratings(
    store: &dyn Store,
) -> Result<std::collections::HashMap<String, PuzzleRatingState>, StoreError> {
    Ok(store
        .progress(PUZZLE_RATINGS_OWNER, PUZZLE_RATINGS_TOPIC)?
        .into_iter()
        .filter_map(|p| Some((p.key, serde_json::from_str(&p.value).ok()?)))
        .collect())
}

/// The puzzle a rated mark names, if `key` is one.
pub fn rated_puzzle(key: &str) -> Option<&str> {
    key.strip_prefix(RATED)
}

/// The value the page kept under `topic` for `owner` (null when none, or when it is not JSON).
pub fn page_value(store: &dyn Store, owner: &str, topic: &str) -> Result<Value, StoreError> {
    Ok(store
        .progress(owner, topic)?
        .into_iter()
        .find(|p: &Progress| p.key == PAGE_VALUE_KEY)
        .and_then(|p| serde_json::from_str(&p.value).ok())
        .unwrap_or(Value::Null))
}

/// The strings of list `field` of a page-kept value (`{done: ["board", …]}`); empty when absent.
pub fn strings(value: &Value, field: &str) -> Vec<String> {
    value
        .get(field)
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}
