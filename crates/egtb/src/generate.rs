//! The retrograde generator.
//!
//! Every entry is first set from its own moves: no legal move is a loss in 0 (mate and
//! stalemate both lose), a capture is looked up in the table of the ending it leads to, and
//! the moves that stay in the ending are counted. Then, level by level, the positions decided
//! at distance `d − 1` are taken back by un-moves: a predecessor of a loss is a win in `d`,
//! and a predecessor whose every move now leads to a win for the other side is a loss in `d`
//! (or later, when a capture leads to a longer win). What is never decided is a draw. The
//! Asian-rules pass (see [`crate::asian`]) then marks the draws that hold only by perpetual
//! check.

use crate::ending::Ending;
use crate::error::EgtbError;
use crate::layout::{Board, GONE, Layout, MAX_SLOTS, Mv, flip_rank};
use crate::table::{Table, layout_of};
use crate::value::{DECIDED, DRAW, ILLEGAL, MAX_DISTANCE, UNKNOWN};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// What the generator reports while it works.
#[derive(Clone, Debug)]
pub enum Progress {
    /// The ending's table is already complete on disk.
    Present {
        /// The ending.
        ending: String,
    },
    /// The ending's table is on disk but damaged; it is made again.
    Redo {
        /// The ending.
        ending: String,
        /// What is wrong with the file.
        reason: String,
    },
    /// A step of generating an ending.
    Step {
        /// The ending.
        ending: String,
        /// `init`, `level` or `asian`.
        phase: &'static str,
        /// The level (distance in plies) or pass.
        iteration: u32,
        /// Positions decided by this step.
        decided: u64,
        /// Positions looked at per second in this step.
        per_second: f64,
    },
    /// An ending's table is written.
    Done {
        /// The ending.
        ending: String,
        /// The file.
        path: std::path::PathBuf,
        /// Its size in bytes.
        bytes: u64,
        /// Seconds it took.
        seconds: f64,
    },
}

/// How to generate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Threads to work with (at least 1).
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// A capture's way into the table of the ending it leads to.
pub(crate) struct Capture {
    pub table: Arc<Table>,
    /// Whether the sub-ending's stronger side is Black here (colours swapped).
    pub flip: bool,
    /// The sub-table's slot of each slot here (`GONE` for the captured one).
    pub map: [u8; MAX_SLOTS],
}

/// The ways into sub-tables, by captured slot.
pub(crate) struct Subs {
    pub by_slot: Vec<Option<Capture>>,
}

impl Subs {
    /// The captures of `layout`, with the tables `table` returns for each sub-ending.
    pub fn new(
        layout: &Layout,
        mut table: impl FnMut(Ending) -> Result<Arc<Table>, EgtbError>,
    ) -> Result<Subs, EgtbError> {
        let ending = layout.ending;
        let mut by_slot = Vec::new();
        for slot in 0..layout.slots() {
            if slot < 2 {
                by_slot.push(None);
                continue;
            }
            let kind = crate::layout::kind_of_code(layout.kind[slot]);
            let (mut red, mut black) = (ending.strong(), ending.weak());
            if layout.color[slot] == 0 {
                red = red.without(kind);
            } else {
                black = black.without(kind);
            }
            let sub = Ending::new(red, black);
            let flip = sub.strong() != red;
            let t = table(sub)?;
            let mut map = [GONE; MAX_SLOTS];
            let mut used = [false; MAX_SLOTS];
            for (s, target_slot) in map[..layout.slots()].iter_mut().enumerate() {
                if s == slot {
                    continue;
                }
                let c = layout.color[s] ^ flip as u8;
                let target = (0..t.layout.slots())
                    .find(|&u| {
                        !used[u] && t.layout.color[u] == c && t.layout.kind[u] == layout.kind[s]
                    })
                    .expect("the sub-ending has every piece but the captured one");
                used[target] = true;
                *target_slot = target as u8;
            }
            by_slot.push(Some(Capture {
                table: t,
                flip,
                map,
            }));
        }
        Ok(Subs { by_slot })
    }

    /// The code, for the side to move there, of the position after the capture `m` (already
    /// made on `b`); `stm` is the side to move after it.
    #[inline]
    pub fn code_after(&self, layout: &Layout, b: &Board, m: Mv, stm: u8) -> u16 {
        let cap = self.by_slot[m.captured as usize]
            .as_ref()
            .expect("only non-generals are captured");
        let sub = &cap.table.layout;
        let mut sq = [0u8; MAX_SLOTS];
        for (&t, &point) in cap.map[..layout.slots()].iter().zip(&b.sq) {
            if t != GONE {
                sq[t as usize] = if cap.flip { flip_rank(point) } else { point };
            }
        }
        let sub_stm = if cap.flip { 1 - stm } else { stm };
        cap.table.codes[sub_stm as usize * sub.size + sub.encode(&sq[..sub.slots()])]
    }
}

/// Where a move leads: an entry of this table or a code from a sub-table.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Child {
    Here(usize),
    Sub(u16),
}

/// The children of the legal board `b` with `stm` to move, each with whether the move gives
/// check.
pub(crate) fn children(
    layout: &Layout,
    subs: &Subs,
    b: &mut Board,
    stm: u8,
    moves: &mut Vec<Mv>,
    out: &mut Vec<(Mv, Child, bool)>,
) {
    moves.clear();
    out.clear();
    layout.legal_moves(b, stm, moves);
    let n = layout.size;
    let next = 1 - stm;
    for &m in moves.iter() {
        layout.make(b, m);
        let check = layout.in_check(b, next);
        let child = if m.captured != GONE {
            Child::Sub(subs.code_after(layout, b, m, next))
        } else {
            Child::Here(next as usize * n + layout.encode(&b.sq[..layout.slots()]))
        };
        layout.unmake(b, m);
        out.push((m, child, check));
    }
}

/// Runs `work` over `0..total` in chunks on `threads` threads; each thread gets its own
/// scratch value from `scratch`.
pub(crate) fn parallel<S>(
    total: usize,
    threads: usize,
    scratch: impl Fn() -> S + Sync,
    work: impl Fn(std::ops::Range<usize>, &mut S) + Sync,
) {
    const CHUNK: usize = 1 << 12;
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut s = scratch();
                loop {
                    let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if start >= total {
                        break;
                    }
                    work(start..(start + CHUNK).min(total), &mut s);
                }
            });
        }
    });
}

/// Capture summary of an entry: a win through a capture in `w` plies, a drawing capture, or
/// the floor a loss cannot be shorter than (all captures lead to wins for the other side).
const CAP_WIN: u16 = 0x8000;
const CAP_DRAW: u16 = 0x4000;
const CAP_VALUE: u16 = 0x3fff;

struct Scratch {
    moves: Vec<Mv>,
    kids: Vec<(Mv, Child, bool)>,
    list: Vec<usize>,
}

fn scratch() -> Scratch {
    Scratch {
        moves: Vec::with_capacity(64),
        kids: Vec::with_capacity(64),
        list: Vec::with_capacity(256),
    }
}

/// Computes the plain codes (win/draw/loss and distance) of every entry.
pub(crate) fn solve(
    layout: &Layout,
    subs: &Subs,
    threads: usize,
    report: &mut dyn FnMut(Progress),
) -> Result<Vec<u16>, EgtbError> {
    let n = layout.size;
    let total = 2 * n;
    let name = layout.ending.name();
    let val: Vec<AtomicU16> = (0..total).map(|_| AtomicU16::new(UNKNOWN)).collect();
    let cnt: Vec<AtomicU8> = (0..total).map(|_| AtomicU8::new(0)).collect();
    let cap: Vec<AtomicU16> = (0..total).map(|_| AtomicU16::new(0)).collect();
    let pending = AtomicU16::new(0);
    let too_long = AtomicU16::new(0);
    let started = Instant::now();
    let losses0 = AtomicU64::new(0);
    parallel(total, threads, scratch, |range, s| {
        for e in range {
            let (stm, idx) = ((e / n) as u8, e % n);
            let Some(mut b) = layout.decode(idx) else {
                val[e].store(ILLEGAL, Ordering::Relaxed);
                continue;
            };
            if !layout.valid(&b, stm) || !layout.is_canonical(&b, idx) {
                val[e].store(ILLEGAL, Ordering::Relaxed);
                continue;
            }
            children(layout, subs, &mut b, stm, &mut s.moves, &mut s.kids);
            if s.kids.is_empty() {
                val[e].store(DECIDED, Ordering::Relaxed);
                losses0.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            let (mut win, mut draw, mut floor) = (u16::MAX, false, 0u16);
            s.list.clear();
            for &(_, child, _) in &s.kids {
                match child {
                    Child::Here(c) => s.list.push(c),
                    Child::Sub(code) if code >= DECIDED => {
                        let d = code - DECIDED;
                        if d.is_multiple_of(2) {
                            win = win.min(d + 1);
                        } else {
                            floor = floor.max(d + 1);
                        }
                    }
                    Child::Sub(_) => draw = true,
                }
            }
            s.list.sort_unstable();
            s.list.dedup();
            cnt[e].store(s.list.len() as u8, Ordering::Relaxed);
            let summary = if win != u16::MAX {
                CAP_WIN | win
            } else if draw {
                CAP_DRAW
            } else {
                floor
            };
            if summary & CAP_VALUE == CAP_VALUE {
                too_long.store(1, Ordering::Relaxed);
            }
            cap[e].store(summary, Ordering::Relaxed);
            pending.fetch_max(summary & CAP_VALUE, Ordering::Relaxed);
        }
    });
    if too_long.load(Ordering::Relaxed) != 0 {
        return Err(EgtbError::TooLarge {
            ending: name,
            reason: "a mate longer than this format holds".into(),
        });
    }
    report(Progress::Step {
        ending: name.clone(),
        phase: "init",
        iteration: 0,
        decided: losses0.load(Ordering::Relaxed),
        per_second: total as f64 / started.elapsed().as_secs_f64().max(1e-9),
    });
    let pending = pending.load(Ordering::Relaxed);
    let mut d: u16 = 1;
    loop {
        if d > MAX_DISTANCE.min(CAP_VALUE - 1) {
            return Err(EgtbError::TooLarge {
                ending: name,
                reason: "a mate longer than this format holds".into(),
            });
        }
        let started = Instant::now();
        let prev = DECIDED + d - 1;
        let now = DECIDED + d;
        let child_loses = (d - 1).is_multiple_of(2);
        let decided = AtomicU64::new(0);
        let looked = AtomicU64::new(0);
        parallel(total, threads, scratch, |range, s| {
            let mut new = 0u64;
            let mut seen = 0u64;
            for e in range {
                let v = val[e].load(Ordering::Relaxed);
                if v == UNKNOWN {
                    // Decisions a capture set for this level.
                    let c = cap[e].load(Ordering::Relaxed);
                    let due = if c & CAP_WIN != 0 {
                        c & CAP_VALUE == d
                    } else {
                        c & CAP_DRAW == 0 && c == d && cnt[e].load(Ordering::Relaxed) == 0
                    };
                    if due
                        && val[e]
                            .compare_exchange(UNKNOWN, now, Ordering::Relaxed, Ordering::Relaxed)
                            .is_ok()
                    {
                        new += 1;
                    }
                    continue;
                }
                if v != prev {
                    continue;
                }
                seen += 1;
                let (stm, idx) = ((e / n) as u8, e % n);
                let mut b = layout.decode(idx).expect("a decided entry is legal");
                s.list.clear();
                layout.unmoves(&mut b, stm, &mut s.list);
                s.list.sort_unstable();
                s.list.dedup();
                let base = (1 - stm) as usize * n;
                for &p in &s.list {
                    let pe = base + p;
                    if val[pe].load(Ordering::Relaxed) != UNKNOWN {
                        continue;
                    }
                    if child_loses {
                        if val[pe]
                            .compare_exchange(UNKNOWN, now, Ordering::Relaxed, Ordering::Relaxed)
                            .is_ok()
                        {
                            new += 1;
                        }
                    } else if cnt[pe].fetch_sub(1, Ordering::Relaxed) == 1 {
                        let c = cap[pe].load(Ordering::Relaxed);
                        if c & (CAP_WIN | CAP_DRAW) == 0
                            && c <= d
                            && val[pe]
                                .compare_exchange(
                                    UNKNOWN,
                                    now,
                                    Ordering::Relaxed,
                                    Ordering::Relaxed,
                                )
                                .is_ok()
                        {
                            new += 1;
                        }
                    }
                }
            }
            decided.fetch_add(new, Ordering::Relaxed);
            looked.fetch_add(seen, Ordering::Relaxed);
        });
        let new = decided.load(Ordering::Relaxed);
        report(Progress::Step {
            ending: name.clone(),
            phase: "level",
            iteration: d as u32,
            decided: new,
            per_second: looked.load(Ordering::Relaxed) as f64
                / started.elapsed().as_secs_f64().max(1e-9),
        });
        if new == 0 && d > pending {
            break;
        }
        d += 1;
    }
    Ok(val
        .into_iter()
        .map(|v| match v.into_inner() {
            UNKNOWN => DRAW,
            c => c,
        })
        .collect())
}

/// Generates the table of `ending` (its sub-endings must be in `dir` or made first by
/// [`generate`]) and returns it, not yet written.
pub(crate) fn build(
    ending: Ending,
    dir: &Path,
    options: &Options,
    loaded: &mut Vec<Arc<Table>>,
    report: &mut dyn FnMut(Progress),
) -> Result<Table, EgtbError> {
    let layout = layout_of(ending)?;
    let started = Instant::now();
    let subs = Subs::new(&layout, |sub| {
        if let Some(t) = loaded.iter().find(|t| t.ending() == sub) {
            return Ok(t.clone());
        }
        let t = Arc::new(Table::load(dir, sub)?);
        loaded.push(t.clone());
        Ok(t)
    })?;
    let mut codes = solve(&layout, &subs, options.threads, report)?;
    crate::asian::mark(&layout, &subs, &mut codes, options.threads, report);
    Ok(Table::from_codes(
        layout,
        codes,
        started.elapsed().as_millis() as u64,
    ))
}

/// Generates the tables of `endings` and of every ending their captures lead to, smallest
/// first, into `dir`. A table already complete in `dir` is not made again; a damaged one is.
/// Returns the endings in the order they were handled.
pub fn generate(
    endings: &[Ending],
    dir: &Path,
    options: &Options,
    report: &mut dyn FnMut(Progress),
) -> Result<Vec<Ending>, EgtbError> {
    let mut order: Vec<Ending> = Vec::new();
    for e in endings {
        for sub in e.with_sub_endings() {
            if !order.contains(&sub) {
                order.push(sub);
            }
        }
    }
    for e in &order {
        layout_of(*e)?;
    }
    let mut loaded: Vec<Arc<Table>> = Vec::new();
    for &ending in &order {
        match Table::load(dir, ending) {
            Ok(_) => {
                // Read whole to check it; read again only when a capture needs it.
                report(Progress::Present {
                    ending: ending.name(),
                });
                continue;
            }
            Err(EgtbError::NoTable { .. }) => {}
            Err(EgtbError::Damaged { reason, .. }) => report(Progress::Redo {
                ending: ending.name(),
                reason,
            }),
            Err(e) => return Err(e),
        }
        let started = Instant::now();
        let table = build(ending, dir, options, &mut loaded, report)?;
        let path = table.save(dir)?;
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        report(Progress::Done {
            ending: ending.name(),
            path,
            bytes,
            seconds: started.elapsed().as_secs_f64(),
        });
        loaded.push(Arc::new(table));
        // Tables no ending still to come captures into are let go.
        let rest: Vec<Ending> = order
            .iter()
            .skip_while(|e| **e != ending)
            .skip(1)
            .flat_map(|e| e.captures())
            .collect();
        loaded.retain(|t| rest.contains(&t.ending()));
    }
    Ok(order)
}
