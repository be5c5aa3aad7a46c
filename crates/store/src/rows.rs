//! Each game row's revision since the program started, so that a stale copy of a game never
//! overwrites newer moves. Several sessions may save to one row (two tabs, or a page that
//! brings back an older copy): each save queued for a row counts its revision up, and each
//! session remembers the revision it last saw. A save from a session whose row has moved on
//! since is let through only when its game goes on from the one last queued for the row
//! (every move saved is in it, so nothing is lost).

use std::collections::HashMap;
use std::sync::Mutex;
use xiangqi_rules::{Game, Move, Position};

/// What the program knows of a row it saved to since it started.
#[derive(Clone, Debug)]
pub struct RowState {
    /// How many saves were queued for it.
    revision: u64,
    /// The start of the game last queued for it.
    start: Position,
    /// The moves of the game last queued for it.
    moves: Vec<Move>,
}

/// The rows' revisions, by key.
#[derive(Default)]
pub(crate) struct RowRevisions {
    rows: Mutex<HashMap<String, RowState>>,
}

impl RowRevisions {
    fn rows(&self) -> std::sync::MutexGuard<'_, HashMap<String, RowState>> {
        self.rows.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The revision of the row under `key` now (0 for a row not saved to since the start).
    pub(crate) fn revision(&self, key: &str) -> u64 {
        self.rows().get(key).map_or(0, |row| row.revision)
    }

    /// The row under `key` as it stands, to put back with [`RowRevisions::restore`].
    pub(crate) fn state(&self, key: &str) -> Option<RowState> {
        self.rows().get(key).cloned()
    }

    /// Claims the next revision of the row under `key` for a save of `game` from a session
    /// that saw revision `seen`: the new revision, or `None` when the row has moved on since
    /// and `game` does not go on from the game last queued for it.
    pub(crate) fn claim(&self, key: &str, seen: u64, game: &Game) -> Option<u64> {
        let mut rows = self.rows();
        let state = |revision| RowState {
            revision,
            start: game.start().clone(),
            moves: game.moves().to_vec(),
        };
        match rows.get_mut(key) {
            None if seen == 0 => {
                rows.insert(key.to_string(), state(1));
                Some(1)
            }
            None => None,
            Some(row) if row.revision == seen || game.goes_on_from(&row.start, &row.moves) => {
                *row = state(row.revision + 1);
                Some(row.revision)
            }
            Some(_) => None,
        }
    }

    /// Puts back the rows as they were (latest claim first), after a refused change.
    pub(crate) fn restore(&self, before: Vec<(String, Option<RowState>)>) {
        let mut rows = self.rows();
        for (key, row) in before.into_iter().rev() {
            match row {
                Some(row) => rows.insert(key, row),
                None => rows.remove(&key),
            };
        }
    }
}
