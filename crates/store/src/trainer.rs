//! The opening trainer's progress: where each card (a line played from one side along one
//! branch) stands in the spaced-repetition schedule. The archive keeps the numbers; what
//! they mean is the teaching crate's schedule.

use crate::error::StoreError;
use crate::sqlite::SqliteStore;
use rusqlite::params;

/// One card of the opening trainer as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrainerCard {
    /// The line's id, e.g. `screen-horses`.
    pub line: String,
    /// The learner's side: `red` or `black`.
    pub side: String,
    /// The branch's id within the line.
    pub branch: String,
    /// Its box in the schedule.
    pub level: u8,
    /// Runs recorded.
    pub reps: u32,
    /// Misses recorded.
    pub lapses: u32,
    /// When it is due (milliseconds since 1970, UTC).
    pub due_ms: i64,
    /// When it was last recorded (milliseconds since 1970, UTC).
    pub last_ms: i64,
}

/// Every stored trainer card of `owner`, by line, side and branch.
pub(crate) fn trainer_cards(
    store: &SqliteStore,
    owner: &str,
) -> Result<Vec<TrainerCard>, StoreError> {
    let mut statement = store.connection().prepare(
        "SELECT line, side, branch, box, reps, lapses, due_ms, last_ms FROM trainer_cards \
         WHERE owner = ?1 ORDER BY line, side, branch",
    )?;
    let rows = statement.query_map([owner], |r| {
        Ok(TrainerCard {
            line: r.get(0)?,
            side: r.get(1)?,
            branch: r.get(2)?,
            level: r.get(3)?,
            reps: r.get(4)?,
            lapses: r.get(5)?,
            due_ms: r.get(6)?,
            last_ms: r.get(7)?,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Saves `owner`'s `card`, replacing what was stored for its line, side and branch.
pub(crate) fn save_trainer_card(
    store: &mut SqliteStore,
    owner: &str,
    card: &TrainerCard,
) -> Result<(), StoreError> {
    store.connection().execute(
        "INSERT INTO trainer_cards \
         (line, side, branch, box, reps, lapses, due_ms, last_ms, owner) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) \
         ON CONFLICT (owner, line, side, branch) DO UPDATE SET box = ?4, reps = ?5, \
         lapses = ?6, due_ms = ?7, last_ms = ?8",
        params![
            card.line,
            card.side,
            card.branch,
            card.level,
            card.reps,
            card.lapses,
            card.due_ms,
            card.last_ms,
            owner
        ],
    )?;
    Ok(())
}
