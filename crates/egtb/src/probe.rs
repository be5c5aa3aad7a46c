//! Asking the tables about positions, and checking the tables against the rules.

use crate::ending::Ending;
use crate::error::EgtbError;
use crate::table::Table;
use crate::value::{self, Asian, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use xiangqi_rules::{Move, Position};

/// A folder of table files, read on demand and kept in memory once read. Readers of tables
/// already in memory share the cache (a read lock); only the first read of a file writes.
pub struct Tablebases {
    dir: PathBuf,
    cache: RwLock<HashMap<Ending, Arc<Table>>>,
}

/// A legal move of a probed position with what it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// The result for the side playing it, with the distance to mate counted from the probed
    /// position (a move into a position lost in 6 is a win in 7).
    pub value: Value,
    /// The Asian-rules verdict for the side playing it, where it differs.
    pub asian: Asian,
}

/// The tables' answer for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The ending of the position's material.
    pub ending: Ending,
    /// The result for the side to move and the distance to mate.
    pub value: Value,
    /// The Asian-rules verdict where it differs from a draw.
    pub asian: Asian,
    /// Every legal move, best first: the shortest win, then draws, then the longest loss
    /// (moves of equal value in ICCS order).
    pub moves: Vec<MoveValue>,
}

/// What [`Tablebases::verify`] looked at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Legal positions checked.
    pub positions: u64,
    /// Illegal entries checked to be illegal under the rules.
    pub illegal: u64,
    /// Moves looked up.
    pub moves: u64,
}

impl VerifyReport {
    /// Adds the counts of `other`, a report on other entries.
    fn add(&mut self, other: VerifyReport) {
        self.positions += other.positions;
        self.illegal += other.illegal;
        self.moves += other.moves;
    }
}

impl Tablebases {
    /// The tables in `dir`. The folder must exist; tables are read when first asked for.
    pub fn open(dir: impl AsRef<Path>) -> Result<Tablebases, EgtbError> {
        let dir = dir.as_ref().to_path_buf();
        if !dir.is_dir() {
            return Err(EgtbError::NoFolder(dir));
        }
        Ok(Tablebases {
            dir,
            cache: RwLock::new(HashMap::new()),
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The endings whose table files are in the folder (by file name; not yet checked), in
    /// name order.
    pub fn available(&self) -> Vec<Ending> {
        let mut out: Vec<Ending> = std::fs::read_dir(&self.dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                let stem = name.strip_suffix(".xqtb")?;
                let e = Ending::parse(stem).ok()?;
                (e.name() == stem).then_some(e)
            })
            .collect();
        out.sort_by_key(|e| e.name());
        out
    }

    /// The table of `ending`, read and checked on first use.
    pub fn table(&self, ending: Ending) -> Result<Arc<Table>, EgtbError> {
        if let Some(t) = self.loaded(ending) {
            return Ok(t);
        }
        let mut cache = self.cache.write().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = cache.get(&ending) {
            return Ok(t.clone());
        }
        let t = Arc::new(Table::load(&self.dir, ending)?);
        cache.insert(ending, t.clone());
        Ok(t)
    }

    /// The table of `ending` when it is already in memory.
    fn loaded(&self, ending: Ending) -> Option<Arc<Table>> {
        let cache = self.cache.read().unwrap_or_else(|e| e.into_inner());
        cache.get(&ending).cloned()
    }

    /// Whether the position's material has a table: one in memory, else a file in the
    /// folder.
    pub fn covers(&self, pos: &Position) -> bool {
        let (ending, _) = Ending::of_position(pos);
        self.loaded(ending).is_some() || self.dir.join(ending.file_name()).is_file()
    }

    /// The result for the side to move and its Asian-rules verdict.
    pub fn lookup(&self, pos: &Position) -> Result<(Value, Asian), EgtbError> {
        let (ending, _) = Ending::of_position(pos);
        let table = self.table(ending)?;
        table.lookup(pos).ok_or_else(|| EgtbError::Damaged {
            ending: ending.name(),
            path: self.dir.join(ending.file_name()),
            reason: format!("it marks the legal position {} as illegal", pos.to_fen()),
        })
    }

    /// The result for the side to move and the distance to mate.
    pub fn value(&self, pos: &Position) -> Result<Value, EgtbError> {
        Ok(self.lookup(pos)?.0)
    }

    /// The result, the distance, the Asian verdict and every legal move's own result, best
    /// first. Captures are looked up in the tables of the endings they lead to, which must be
    /// in the folder too.
    pub fn probe(&self, pos: &Position) -> Result<Probe, EgtbError> {
        let (ending, _) = Ending::of_position(pos);
        let (value, asian) = self.lookup(pos)?;
        let mut moves = Vec::new();
        for &mv in pos.legal_moves().iter() {
            let (v, a) = self.lookup(&pos.after(mv))?;
            moves.push(MoveValue {
                mv,
                value: v.before(),
                asian: a.opposite(),
            });
        }
        moves.sort_by_key(|m| (m.value.preference(), m.mv.to_string()));
        Ok(Probe {
            ending,
            value,
            asian,
            moves,
        })
    }

    /// Checks the table of `ending` against the rules (the move generator of
    /// `xiangqi-rules`, not the generator's own): every entry the table calls illegal is
    /// refused as a FEN and every other one is accepted; every win has a move to a loss for
    /// the other side one ply shorter and none shorter; every loss has only moves to wins for
    /// the other side, the longest one ply shorter (no move at all for a loss in 0); every
    /// draw has no move to a loss for the other side and one to a draw. The Asian verdicts are
    /// checked to agree with the moves too: a draw lost under the Asian rules has only moves
    /// to positions won by the other side (plainly or under the Asian rules), one won has a
    /// move to a draw the other side loses, and any other draw has a move to a draw the
    /// other side does not win and no move to one it loses. The sub-endings' tables must be
    /// in the folder.
    pub fn verify(&self, ending: Ending) -> Result<VerifyReport, EgtbError> {
        self.verify_with(ending, 1)
    }

    /// [`Tablebases::verify`] on `threads` threads, each checking its own chunks of entries;
    /// the first failure found is returned.
    pub fn verify_with(&self, ending: Ending, threads: usize) -> Result<VerifyReport, EgtbError> {
        let table = self.table(ending)?;
        let total = 2 * table.layout.size;
        const CHUNK: usize = 1 << 14;
        let next = AtomicUsize::new(0);
        let failed = AtomicBool::new(false);
        let results: Mutex<Vec<Result<VerifyReport, EgtbError>>> = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    let mut report = VerifyReport::default();
                    let outcome = loop {
                        let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if start >= total || failed.load(Ordering::Relaxed) {
                            break Ok(report);
                        }
                        let range = start..(start + CHUNK).min(total);
                        match self.verify_range(&table, range) {
                            Ok(r) => report.add(r),
                            Err(e) => {
                                failed.store(true, Ordering::Relaxed);
                                break Err(e);
                            }
                        }
                    };
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(outcome);
                });
            }
        });
        let mut report = VerifyReport::default();
        for r in results.into_inner().unwrap_or_else(|e| e.into_inner()) {
            report.add(r?);
        }
        Ok(report)
    }

    /// Checks the entries `range` of `table` (see [`Tablebases::verify`]).
    fn verify_range(
        &self,
        table: &Table,
        range: std::ops::Range<usize>,
    ) -> Result<VerifyReport, EgtbError> {
        let ending = table.ending();
        let layout = &table.layout;
        let n = layout.size;
        let mut report = VerifyReport::default();
        let fail = |reason: String| EgtbError::Check {
            ending: ending.name(),
            reason,
        };
        for e in range {
            let (stm, idx) = ((e / n) as u8, e % n);
            let Some(b) = layout.decode(idx) else {
                if table.codes[e] != value::ILLEGAL {
                    return Err(fail(format!("entry {e} has two pieces on a point")));
                }
                continue;
            };
            if !layout.is_canonical(&b, idx) {
                if table.codes[e] != value::ILLEGAL {
                    return Err(fail(format!("entry {e} is an unused mirror twin")));
                }
                continue;
            }
            let fen = layout.fen(&b, stm);
            let parsed = Position::from_fen(&fen);
            let Some((v, asian)) = value::decode(table.codes[e]) else {
                if parsed.is_ok() {
                    return Err(fail(format!("{fen} is legal but marked illegal")));
                }
                report.illegal += 1;
                continue;
            };
            let pos = parsed.map_err(|err| fail(format!("{fen} is marked legal: {err}")))?;
            report.positions += 1;
            let mut kids = Vec::new();
            for &mv in pos.legal_moves().iter() {
                let (cv, ca) = self.lookup(&pos.after(mv))?;
                kids.push((mv, cv, ca));
            }
            report.moves += kids.len() as u64;
            let min_child_loss = kids
                .iter()
                .filter_map(|k| match k.1 {
                    Value::Loss(d) => Some(d),
                    _ => None,
                })
                .min();
            let all_wins = kids.iter().all(|k| matches!(k.1, Value::Win(_)));
            let max_child_win = kids.iter().filter_map(|k| k.1.distance()).max();
            match v {
                Value::Win(d) => {
                    if min_child_loss != Some(d - 1) {
                        return Err(fail(format!(
                            "{fen} is a win in {d} but its shortest move to a loss leads to a loss in {min_child_loss:?}"
                        )));
                    }
                }
                Value::Loss(d) => {
                    let ok = if kids.is_empty() {
                        d == 0
                    } else {
                        all_wins && max_child_win == Some(d - 1)
                    };
                    if !ok {
                        return Err(fail(format!(
                            "{fen} is a loss in {d} but its moves lead to {:?}",
                            kids.iter().map(|k| k.1).collect::<Vec<_>>()
                        )));
                    }
                }
                Value::Draw => {
                    if min_child_loss.is_some() || !kids.iter().any(|k| k.1 == Value::Draw) {
                        return Err(fail(format!(
                            "{fen} is a draw but its moves lead to {:?}",
                            kids.iter().map(|k| k.1).collect::<Vec<_>>()
                        )));
                    }
                    let drawn = || kids.iter().filter(|k| k.1 == Value::Draw);
                    let ok = match asian {
                        Asian::Loss => drawn().all(|k| k.2 == Asian::Win),
                        Asian::Win => drawn().any(|k| k.2 == Asian::Loss),
                        Asian::Same => {
                            drawn().any(|k| k.2 != Asian::Win)
                                && !drawn().any(|k| k.2 == Asian::Loss)
                        }
                    };
                    if !ok {
                        return Err(fail(format!(
                            "{fen} is a draw with the Asian verdict {asian:?} but its drawn moves lead to {:?}",
                            drawn().map(|k| k.2).collect::<Vec<_>>()
                        )));
                    }
                }
            }
        }
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Options, generate};

    #[test]
    fn a_wrong_entry_is_found_on_any_number_of_threads() {
        let dir = std::env::temp_dir().join(format!("xiangqi-egtb-wrong-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let krka = Ending::parse("KRKA").unwrap();
        generate(&[krka], &dir, &Options { threads: 2 }, &mut |_| {}).unwrap();
        // A win one ply longer than it is: written whole, with good checksums.
        let table = Table::load(&dir, krka).unwrap();
        let mut codes = table.codes.clone();
        let e = codes
            .iter()
            .position(|&c| c > value::DECIDED + 1 && (c - value::DECIDED) % 2 == 1)
            .unwrap();
        codes[e] += 2;
        Table::from_codes(table.layout.clone(), codes, 0)
            .save(&dir)
            .unwrap();
        for threads in [1, 2, 5] {
            let tables = Tablebases::open(&dir).unwrap();
            match tables.verify_with(krka, threads) {
                Err(EgtbError::Check { ending, reason }) => {
                    assert_eq!(ending, "KRKA");
                    assert!(reason.contains(" is a win in "), "{reason}");
                }
                other => panic!("{other:?}"),
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
