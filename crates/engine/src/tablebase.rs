//! Endgame tables in the search: which positions they cover, what a covered node scores, and
//! the move the tables choose at the root.
//!
//! A node whose material has a loaded table takes the table's result as its score and is not
//! searched further: a win as a mate at the table's distance, counted from the root like the
//! search's own mates (so the search prefers the shortest win and the longest resistance), a
//! draw as 0. The tables count endless play as a draw; a draw that the Asian rules decide
//! (one side could hold it only by perpetual check) is searched on, so that the search's own
//! repetition rules judge it. A root the tables cover is not searched when it is won or lost:
//! the engine plays the table's best move (the shortest win, the longest resistance); when it
//! is drawn, the search chooses among the drawing moves.

use crate::score::{DRAW, MATE, MATE_BOUND, Score, mate_in, mated_in};
use std::collections::HashMap;
use std::sync::Arc;
use xiangqi_egtb::{Asian, EgtbError, Ending, Probe, Table, Tablebases, Value};
use xiangqi_rules::{Move, Position};

/// The longest table line a root report shows, in plies.
const LONGEST_REPORTED_LINE: usize = 128;

/// A folder of tables as the search uses it: the tables that loaded, read into memory when
/// handed to the engine and looked up without a lock, and the most pieces any of them has.
pub struct EngineTables {
    tables: Arc<Tablebases>,
    endings: HashMap<Ending, Arc<Table>>,
    max_pieces: u32,
}

impl std::fmt::Debug for EngineTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineTables")
            .field("dir", &self.tables.dir())
            .field("endings", &self.endings())
            .finish()
    }
}

impl EngineTables {
    /// Reads every table in the folder of `tables`; a table that cannot be read is left out,
    /// with its error in the list returned.
    pub fn load(tables: Arc<Tablebases>) -> (EngineTables, Vec<EgtbError>) {
        let mut endings = HashMap::new();
        let mut errors = Vec::new();
        for ending in tables.available() {
            match tables.table(ending) {
                Ok(table) => {
                    endings.insert(ending, table);
                }
                Err(e) => errors.push(e),
            }
        }
        // Both generals count.
        let max_pieces = endings
            .keys()
            .map(|e| e.piece_count() as u32)
            .max()
            .unwrap_or(0);
        (
            EngineTables {
                tables,
                endings,
                max_pieces,
            },
            errors,
        )
    }

    /// The folder's tables.
    pub fn tablebases(&self) -> &Arc<Tablebases> {
        &self.tables
    }

    /// The endings loaded, in name order.
    pub fn endings(&self) -> Vec<Ending> {
        let mut out: Vec<Ending> = self.endings.keys().copied().collect();
        out.sort_by_key(|e| e.name());
        out
    }

    /// Whether a loaded table covers the material of `pos`; a piece count first, so that
    /// positions with more pieces than the largest table cost next to nothing.
    #[inline]
    pub fn covers(&self, pos: &Position) -> bool {
        self.table_of(pos).is_some()
    }

    /// The loaded table of the material of `pos`.
    #[inline]
    fn table_of(&self, pos: &Position) -> Option<&Table> {
        if pos.occupied().count() > self.max_pieces {
            return None;
        }
        self.endings
            .get(&Ending::of_position(pos).0)
            .map(|t| t.as_ref())
    }

    /// The table's result for the side to move, when a loaded table covers `pos`.
    #[inline]
    pub fn lookup(&self, pos: &Position) -> Option<(Value, Asian)> {
        self.table_of(pos)?.lookup(pos)
    }

    /// The score of a covered node `ply` plies from the root, when the table settles it: a
    /// win or loss as a mate at the table's distance, a plain draw as 0 (a draw only when
    /// `draws` is set). `None` when the node is to be searched.
    #[inline]
    pub(crate) fn node_score(&self, pos: &Position, ply: usize, draws: bool) -> Option<Score> {
        let (value, asian) = self.lookup(pos)?;
        Some(match value {
            Value::Win(d) => mate_in(mate_plies(ply, d)),
            Value::Loss(d) => mated_in(mate_plies(ply, d)),
            Value::Draw if draws && asian == Asian::Same => DRAW,
            Value::Draw => return None,
        })
    }

    /// Every legal move of a covered root with its table value, best first; `None` when the
    /// root is not covered or a move leads to material whose table cannot be read.
    pub(crate) fn probe_root(&self, pos: &Position) -> Option<Probe> {
        if !self.covers(pos) {
            return None;
        }
        self.tables.probe(pos).ok()
    }

    /// The table's line from `pos` after `first`: the best move at each step (the shortest
    /// win, the longest resistance) until mate, a draw or [`LONGEST_REPORTED_LINE`] plies.
    pub(crate) fn line(&self, pos: &Position, first: Move) -> Vec<Move> {
        let mut line = vec![first];
        let mut pos = pos.after(first);
        while line.len() < LONGEST_REPORTED_LINE {
            let Some(best) = self.probe_root(&pos).and_then(|p| p.moves.first().copied()) else {
                break;
            };
            if best.value == Value::Draw {
                break;
            }
            line.push(best.mv);
            pos = pos.after(best.mv);
        }
        line
    }
}

/// Plies to a table's mate `d` plies after a node `ply` plies from the root, kept within the
/// search's mate scores.
#[inline]
fn mate_plies(ply: usize, d: u16) -> usize {
    (ply + d as usize).min((MATE - MATE_BOUND) as usize)
}

/// The search score of a table value at the root.
pub(crate) fn root_score(value: Value) -> Score {
    match value {
        Value::Win(d) => mate_in(mate_plies(0, d)),
        Value::Loss(d) => mated_in(mate_plies(0, d)),
        Value::Draw => DRAW,
    }
}
