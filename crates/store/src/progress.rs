//! A learner's progress: what a course, the puzzles or any other part of the app keeps of
//! where the learner stands, one JSON value per owner, topic and key. The store keeps the
//! values; what they mean is the teaching crate's.

use crate::error::StoreError;
use crate::sqlite::SqliteStore;
use rusqlite::params;

/// One value of a learner's progress.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Whose progress: empty for the one learner of the app on their own machine.
    pub owner: String,
    /// What part of the app keeps it, e.g. `puzzles`.
    pub topic: String,
    /// What within it, e.g. `rating`.
    pub key: String,
    /// The value, as JSON text.
    pub value: String,
    /// When it was last saved (milliseconds since 1970, UTC); a value saved with an earlier
    /// time does not replace it.
    pub updated_ms: i64,
}

/// Every value of `owner`'s progress in `topic` (every topic when `None`), by topic and key.
pub(crate) fn progress(
    store: &SqliteStore,
    owner: &str,
    topic: Option<&str>,
) -> Result<Vec<Progress>, StoreError> {
    let mut statement = store.connection().prepare(
        "SELECT owner, topic, key, value, updated_ms FROM progress \
         WHERE owner = ?1 AND (?2 IS NULL OR topic = ?2) ORDER BY topic, key",
    )?;
    let rows = statement.query_map(params![owner, topic], |r| {
        Ok(Progress {
            owner: r.get(0)?,
            topic: r.get(1)?,
            key: r.get(2)?,
            value: r.get(3)?,
            updated_ms: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Saves `value`, replacing what was kept for its owner, topic and key unless that was saved
/// later.
pub(crate) fn save_progress(store: &mut SqliteStore, value: &Progress) -> Result<(), StoreError> {
    store.connection().execute(
        "INSERT INTO progress (owner, topic, key, value, updated_ms) VALUES (?1, ?2, ?3, ?4, ?5) \
         ON CONFLICT (owner, topic, key) DO UPDATE SET value = ?4, updated_ms = ?5 \
         WHERE ?5 >= progress.updated_ms",
        params![
            value.owner,
            value.topic,
            value.key,
            value.value,
            value.updated_ms
        ],
    )?;
    Ok(())
}
