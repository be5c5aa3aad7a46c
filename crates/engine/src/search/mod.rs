//! The search: iterative deepening with aspiration windows over a principal-variation
//! alpha-beta search with quiescence, pruning and reductions; Lazy SMP across threads.
//!
//! This module holds what callers see (the shared state, the set-up, the results) and the
//! iterative deepening; [`worker`] holds the node searches of one thread, and [`params`]
//! every tuning number they use.

pub mod params;
mod worker;

use crate::eval::Evaluator;
use crate::history::{History, MAX_PLY};
use crate::limits::{SearchLimits, TimeBudget};
use crate::nnue::{AccumulatorStack, Network};
use crate::score::{DRAW, INFINITE, Reported, Score, is_mate, mated_in};
use crate::tablebase::{EngineTables, root_score};
use crate::tt::{Bound, TranspositionTable};
use params::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use worker::{CHECK_INTERVAL, Frame, Nnue, RootMove, Worker};
use xiangqi_egtb::{Asian, MoveValue, Value};
use xiangqi_rules::{Move, Position};

/// State shared by all search threads and the front end.
pub struct Shared {
    /// The transposition table.
    pub tt: TranspositionTable,
    /// Set to make every thread return as soon as possible.
    pub stop: AtomicBool,
    /// Set while pondering: time limits do not apply until `ponderhit` clears it.
    pub pondering: AtomicBool,
    /// Set while the engine is halted: every search, the running one and those after it,
    /// stops at once until the engine is resumed. Arming a search reads it under this lock.
    halted: Mutex<bool>,
    /// Set when the main thread has finished its first iteration of the search: the helpers
    /// start then, so that the main thread always has a searched move, however many threads
    /// share the cores.
    first_iteration: AtomicBool,
    nodes: AtomicU64,
    /// Each thread's move-ordering memory, kept from one search to the next.
    histories: Mutex<Vec<History>>,
    epoch: Instant,
    start_micros: AtomicU64,
}

impl Shared {
    /// Shared state with a table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Shared {
        Shared::with_table(TranspositionTable::new(hash_mb))
    }

    /// Shared state with a table of `hash_mb` megabytes, or why the table cannot be had.
    pub fn try_new(hash_mb: usize) -> Result<Shared, crate::tt::TableTooLarge> {
        TranspositionTable::try_new(hash_mb).map(Shared::with_table)
    }

    fn with_table(tt: TranspositionTable) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            halted: Mutex::new(false),
            first_iteration: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            histories: Mutex::new(Vec::new()),
            epoch: Instant::now(),
            start_micros: AtomicU64::new(0),
        }
    }

    /// Readies the next search: a stop before it is forgotten, unless the engine is halted.
    pub fn arm(&self, ponder: bool) {
        let halted = self.halted.lock().unwrap_or_else(|e| e.into_inner());
        self.stop.store(*halted, Ordering::Relaxed);
        self.pondering.store(ponder && !*halted, Ordering::Relaxed);
    }

    /// Stops the running search and keeps every later one from running until
    /// [`Shared::resume`].
    pub fn halt(&self) {
        let mut halted = self.halted.lock().unwrap_or_else(|e| e.into_inner());
        *halted = true;
        self.pondering.store(false, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Lets searches run again after [`Shared::halt`].
    pub fn resume(&self) {
        *self.halted.lock().unwrap_or_else(|e| e.into_inner()) = false;
    }

    /// Forgets the move-ordering memory of earlier searches (a new game).
    pub fn clear_histories(&self) {
        self.histories
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// Restarts the search clock (at the start of a search, and on `ponderhit`).
    pub fn restart_clock(&self) {
        let now = self.epoch.elapsed().as_micros() as u64;
        self.start_micros.store(now, Ordering::Relaxed);
    }

    /// Time since the search clock was last restarted.
    pub fn elapsed(&self) -> Duration {
        let now = self.epoch.elapsed().as_micros() as u64;
        Duration::from_micros(now.saturating_sub(self.start_micros.load(Ordering::Relaxed)))
    }
}

/// One line of search progress, as UCI `info` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Which line (1 = best) under MultiPV.
    pub multipv: usize,
    /// Score from the side to move's view.
    pub score: Reported,
    /// `Some(Lower)` or `Some(Upper)` when the score is only a bound (aspiration fail).
    pub bound: Option<Bound>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Permille of the table in use.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let ms = self.elapsed.as_millis().max(1) as u64;
        self.nodes * 1000 / ms
    }
}

/// What a finished search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when the side to move has no legal move.
    pub best_move: Option<Move>,
    /// The expected reply, if known.
    pub ponder_move: Option<Move>,
    /// Score of the best move, from the side to move's view (`Cp(0)` when the search was
    /// stopped before its first iteration finished).
    pub score: Reported,
    /// Deepest completed iteration.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Principal variation of the best move.
    pub pv: Vec<Move>,
    /// Every completed line under MultiPV, best first.
    pub lines: Vec<SearchInfo>,
}

/// How a search is set up.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// The limits.
    pub limits: SearchLimits,
    /// Threads (Lazy SMP).
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Time kept back per move.
    pub move_overhead: Duration,
    /// Root moves to leave out (UCCI `banmoves`, UCI `searchmoves` as the complement).
    pub excluded: Vec<Move>,
    /// Root moves to consider; all when empty.
    pub search_moves: Vec<Move>,
    /// The network to evaluate with; `None` uses the evaluator passed to [`search`].
    pub network: Option<Arc<Network>>,
    /// Endgame tables to probe; `None` searches without them.
    pub tables: Option<Arc<EngineTables>>,
    /// The search's tunable numbers.
    pub params: SearchParams,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            limits: SearchLimits::default(),
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(10),
            excluded: Vec::new(),
            search_moves: Vec::new(),
            network: None,
            tables: None,
            params: SearchParams::default(),
        }
    }
}

/// Runs a search on `pos`, whose earlier positions' hashes since the last capture are
/// `history` (oldest first, not including `pos`) and the moves played from them
/// `history_moves` (empty when unknown; then repetitions score as draws). `report` receives
/// progress from the main thread: one call per completed line.
pub fn search(
    pos: &Position,
    history: &[u64],
    history_moves: &[Move],
    config: &SearchConfig,
    shared: &Shared,
    eval: &dyn Evaluator,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    shared.restart_clock();
    shared.nodes.store(0, Ordering::Relaxed);
    shared.first_iteration.store(false, Ordering::Relaxed);
    shared.tt.new_search();
    let limits = &config.limits;
    let budget = limits.time_budget(config.move_overhead);

    let mut root_moves: Vec<RootMove> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| !config.excluded.contains(m))
        .filter(|m| config.search_moves.is_empty() || config.search_moves.contains(m))
        .map(|mv| RootMove {
            mv,
            score: -INFINITE,
            previous_score: -INFINITE,
            pv: vec![mv],
            seldepth: 0,
        })
        .collect();
    if root_moves.is_empty() {
        return SearchResult {
            best_move: None,
            ponder_move: None,
            score: Reported::from_search(if pos.legal_moves().is_empty() {
                mated_in(0)
            } else {
                DRAW
            }),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            lines: Vec::new(),
        };
    }
    // A root the tables cover: a won or lost one is played from the table, a drawn one is
    // searched among its drawing moves.
    let mut table_draw = false;
    if let Some(tables) = config.tables.as_deref()
        && let Some(probe) = tables.probe_root(pos)
    {
        let allowed: Vec<MoveValue> = probe
            .moves
            .iter()
            .filter(|m| root_moves.iter().any(|rm| rm.mv == m.mv))
            .copied()
            .collect();
        match allowed.first() {
            Some(best) if best.value != Value::Draw => {
                return table_answer(pos, tables, &allowed, config, shared, report);
            }
            Some(_) => {
                let drawn = || allowed.iter().filter(|m| m.value == Value::Draw);
                // Drawing moves the Asian rules would lose are kept only when all are such.
                let held = drawn().any(|m| m.asian != Asian::Loss);
                root_moves.retain(|rm| {
                    drawn().any(|m| m.mv == rm.mv && (m.asian != Asian::Loss || !held))
                });
                table_draw = true;
            }
            None => {}
        }
    }
    // A table draw is reported as 0, unless the search finds a mate (the Asian rules on a
    // cycle of checks).
    let mut drawn_report = |info: &SearchInfo| {
        if table_draw && !matches!(info.score, Reported::Mate(_)) {
            report(&SearchInfo {
                score: Reported::Cp(DRAW),
                ..info.clone()
            })
        } else {
            report(info)
        }
    };
    let report: &mut dyn FnMut(&SearchInfo) = &mut drawn_report;

    // Order the first iteration by a quick look: captures by value, then the rest.
    root_moves.sort_by_key(|rm| -crate::see::value_at(pos, rm.mv.to()));

    let mut keys: Vec<u64> = history.to_vec();
    keys.push(pos.hash());
    let path: Vec<Option<Move>> = if history_moves.len() == history.len() {
        history_moves.iter().copied().map(Some).collect()
    } else {
        vec![None; history.len()]
    };
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as i32 - 4)
        .clamp(1, MAX_PLY as i32 - 4);
    let threads = config.threads.max(1);
    let multipv = config.multipv.clamp(1, root_moves.len());

    // Thread `id` goes on with the move-ordering memory thread `id` left last time.
    let mut histories =
        std::mem::take(&mut *shared.histories.lock().unwrap_or_else(|e| e.into_inner()));
    histories.truncate(threads);
    // Each helper makes its memory ready on its own thread (a history is a few megabytes):
    // with many threads, doing it here would hold the main thread's first iteration.
    let mut histories = histories.into_iter();
    let mut main_history = histories.next().unwrap_or_default();
    main_history.new_search();
    let histories = (1..threads).map(|_| histories.next()).collect::<Vec<_>>();
    let reductions = Reductions::new(&config.params);
    let make_worker = |id: usize, history: History| Worker {
        id,
        pos: pos.clone(),
        keys: keys.clone(),
        path: path.clone(),
        history,
        stack: vec![Frame::default(); MAX_PLY + 2],
        pv: vec![Vec::new(); MAX_PLY + 2],
        nodes: 0,
        seldepth: 0,
        shared,
        params: config.params,
        reductions: &reductions,
        eval,
        nnue: config.network.as_deref().map(|network| {
            let mut accumulators = AccumulatorStack::new(network, MAX_PLY + 2);
            accumulators.reset(network, pos);
            Nnue {
                network,
                accumulators,
            }
        }),
        budget,
        node_limit: limits.nodes,
        tables: config.tables.as_deref(),
        table_draws: !table_draw,
        root_moves: root_moves.clone(),
        stopped: false,
        limits_armed: false,
    };

    let mut result = None;
    std::thread::scope(|scope| {
        // The main thread searches at once; the helpers are started, and set up, on threads
        // of their own. Many threads on few cores would otherwise keep the main thread from
        // its first iteration long past a short time limit.
        let make_worker = &make_worker;
        let spawner = (threads > 1).then(|| {
            scope.spawn(move || {
                while !shared.first_iteration.load(Ordering::Acquire)
                    && !shared.stop.load(Ordering::Relaxed)
                {
                    std::thread::sleep(Duration::from_micros(100));
                }
                // A helper not started before the search ended keeps its memory for next time.
                let mut helpers = Vec::new();
                for (id, history) in (1..threads).zip(histories) {
                    if shared.stop.load(Ordering::Relaxed) {
                        helpers.push(Err(history));
                        continue;
                    }
                    helpers.push(Ok(scope.spawn(move || {
                        // A helper that starts after the search ended only gives its memory back.
                        if shared.stop.load(Ordering::Relaxed) {
                            return history;
                        }
                        let mut history = history.unwrap_or_default();
                        history.new_search();
                        let mut w = make_worker(id, history);
                        iterate(&mut w, max_depth, 1, limits, None, &mut |_| {});
                        Some(w.history)
                    })));
                }
                helpers
            })
        });
        let mut main = make_worker(0, main_history);
        let outcome = iterate(&mut main, max_depth, multipv, limits, budget, report);
        wait_for_stop(limits, shared);
        let mut kept = vec![main.history];
        let helpers = spawner.and_then(|s| s.join().ok()).unwrap_or_default();
        // Kept in thread order, one for every thread: a helper that never searched keeps
        // what it had, or a fresh one.
        kept.extend(helpers.into_iter().map(|helper| {
            match helper {
                Ok(running) => running.join().ok().flatten(),
                Err(history) => history,
            }
            .unwrap_or_default()
        }));
        *shared.histories.lock().unwrap_or_else(|e| e.into_inner()) = kept;
        result = Some(outcome);
    });
    let mut result = result.expect("main search thread finished");
    result.nodes = result.nodes.max(shared.nodes.load(Ordering::Relaxed));
    if table_draw {
        if !matches!(result.score, Reported::Mate(_)) {
            result.score = Reported::Cp(DRAW);
        }
        for line in &mut result.lines {
            if !matches!(line.score, Reported::Mate(_)) {
                line.score = Reported::Cp(DRAW);
            }
        }
    }
    result
}

/// Waits out `go infinite` and pondering until the front end says stop, then stops every
/// thread.
fn wait_for_stop(limits: &SearchLimits, shared: &Shared) {
    while (limits.infinite || shared.pondering.load(Ordering::Relaxed))
        && !shared.stop.load(Ordering::Relaxed)
        && limits.max_time.is_none_or(|cap| shared.elapsed() < cap)
    {
        std::thread::sleep(Duration::from_millis(2));
    }
    shared.stop.store(true, Ordering::Relaxed);
}

/// The answer for a root the tables decide (won or lost): the table's best move of `moves`
/// (the allowed root moves, best first), reported with its mate distance and line; the
/// next lines under MultiPV are the next moves' own.
fn table_answer(
    pos: &Position,
    tables: &EngineTables,
    moves: &[MoveValue],
    config: &SearchConfig,
    shared: &Shared,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let lines: Vec<SearchInfo> = moves
        .iter()
        .take(config.multipv.max(1))
        .enumerate()
        .map(|(i, m)| {
            let pv = tables.line(pos, m.mv);
            SearchInfo {
                depth: 1,
                seldepth: pv.len(),
                multipv: i + 1,
                score: Reported::from_search(root_score(m.value)),
                bound: None,
                nodes: 0,
                elapsed: shared.elapsed(),
                hashfull: shared.tt.hashfull(),
                pv,
            }
        })
        .collect();
    for line in &lines {
        report(line);
    }
    wait_for_stop(&config.limits, shared);
    let best = &lines[0];
    SearchResult {
        best_move: Some(best.pv[0]),
        ponder_move: best.pv.get(1).copied(),
        score: best.score,
        depth: 1,
        nodes: 0,
        pv: best.pv.clone(),
        lines,
    }
}

/// When to stop deepening: the budget's soft limit, shortened while the best move has
/// stood for several iterations and lengthened after it changed or the score fell by
/// `score_drop` centipawns; never past the hard limit.
fn soft_limit(b: TimeBudget, stable_iterations: usize, score_drop: Score) -> Duration {
    if b.soft >= b.hard {
        return b.hard;
    }
    let stability = TIME_STABILITY_FACTORS[stable_iterations.min(TIME_STABILITY_FACTORS.len() - 1)];
    let drop = if score_drop > -INFINITE / 2 && score_drop < INFINITE / 2 {
        (1.0 + score_drop.max(0) as f64 / TIME_SCORE_DROP_SCALE).min(TIME_SCORE_DROP_MAX)
    } else {
        1.0
    };
    b.soft.mul_f64(stability * drop).min(b.hard)
}

fn iterate(
    w: &mut Worker,
    max_depth: i32,
    multipv: usize,
    limits: &SearchLimits,
    budget: Option<TimeBudget>,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let mut completed_depth = 0;
    let mut lines: Vec<SearchInfo> = Vec::new();
    let mut best_pv: Vec<Move> = vec![w.root_moves[0].mv];
    let mut best_score = -INFINITE;
    let start_depth = 1 + (w.id % 2) as i32;
    let mut last_best = None;
    let mut stable_iterations = 0usize;
    let mut previous_best_score = -INFINITE;
    for depth in start_depth..=max_depth {
        for rm in &mut w.root_moves {
            rm.previous_score = rm.score;
        }
        let mut iteration_lines = Vec::new();
        for pv_index in 0..multipv {
            let previous = w.root_moves[pv_index].previous_score;
            let mut delta = w.params.aspiration_window;
            let (mut alpha, mut beta) =
                if depth >= ASPIRATION_MIN_DEPTH && previous > -INFINITE && !is_mate(previous) {
                    (
                        (previous - delta).max(-INFINITE),
                        (previous + delta).min(INFINITE),
                    )
                } else {
                    (-INFINITE, INFINITE)
                };
            loop {
                let score = w.search_root(alpha, beta, depth, pv_index);
                // Stable sort keeps earlier order among equals; fixed lines stay in front.
                w.root_moves[pv_index..].sort_by_key(|rm| -rm.score);
                if w.stopped {
                    break;
                }
                if score <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITE);
                } else if score >= beta {
                    beta = (score + delta).min(INFINITE);
                } else {
                    break;
                }
                delta += delta / ASPIRATION_GROWTH_DIVISOR + w.params.aspiration_growth_step;
            }
            if w.stopped {
                break;
            }
            let rm = &w.root_moves[pv_index];
            iteration_lines.push(SearchInfo {
                depth,
                seldepth: rm.seldepth.max(1),
                multipv: pv_index + 1,
                score: Reported::from_search(rm.score),
                bound: None,
                nodes: if w.id == 0 {
                    w.shared.nodes.load(Ordering::Relaxed).max(w.nodes)
                } else {
                    w.nodes
                },
                elapsed: w.shared.elapsed(),
                hashfull: 0,
                pv: rm.pv.clone(),
            });
        }
        if w.stopped {
            break;
        }
        completed_depth = depth;
        w.limits_armed = true;
        if w.id == 0 {
            w.shared.first_iteration.store(true, Ordering::Release);
        }
        best_pv = w.root_moves[0].pv.clone();
        best_score = w.root_moves[0].score;
        if w.id == 0 {
            let hashfull = w.shared.tt.hashfull();
            let total = w.shared.nodes.load(Ordering::Relaxed) + (w.nodes % CHECK_INTERVAL);
            for line in &mut iteration_lines {
                line.hashfull = hashfull;
                line.nodes = total.max(w.nodes);
                report(line);
            }
        }
        lines = iteration_lines;
        if let Some(mate) = limits.mate
            && let Reported::Mate(moves) = Reported::from_search(best_score)
            && moves > 0
            && moves as u32 <= mate
        {
            break;
        }
        // One legal move: no need to think under a clock.
        if w.root_moves.len() == 1 && budget.is_some() {
            break;
        }
        // Spend less time when the best move keeps standing, more when it changes or the
        // score falls.
        let best_now = w.root_moves[0].mv;
        if Some(best_now) == last_best {
            stable_iterations += 1;
        } else {
            stable_iterations = 0;
        }
        last_best = Some(best_now);
        if let Some(b) = budget
            && !w.shared.pondering.load(Ordering::Relaxed)
            && w.shared.elapsed()
                >= soft_limit(b, stable_iterations, previous_best_score - best_score)
        {
            break;
        }
        previous_best_score = best_score;
    }
    SearchResult {
        best_move: best_pv.first().copied(),
        ponder_move: best_pv.get(1).copied(),
        // A search stopped before its first iteration has no score to tell.
        score: if completed_depth == 0 {
            Reported::Cp(DRAW)
        } else {
            Reported::from_search(best_score)
        },
        depth: completed_depth,
        nodes: w.nodes,
        pv: best_pv,
        lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_standing_best_move_stops_sooner_than_a_changing_one() {
        let b = TimeBudget {
            soft: Duration::from_millis(100),
            hard: Duration::from_millis(400),
        };
        let changing = soft_limit(b, 0, 0);
        let standing = soft_limit(b, 6, 0);
        assert!(standing < b.soft && b.soft < changing && changing <= b.hard);
        // A falling score buys time; a rising one does not cut it.
        assert!(soft_limit(b, 3, 100) > soft_limit(b, 3, 0));
        assert_eq!(soft_limit(b, 3, -300), soft_limit(b, 3, 0));
        // The first iteration's drop from "no score yet" changes nothing.
        assert_eq!(soft_limit(b, 3, -INFINITE - 50), soft_limit(b, 3, 0));
    }

    /// A search to `depth` on `threads` threads.
    fn to_depth(depth: i32, threads: usize) -> SearchConfig {
        SearchConfig {
            limits: SearchLimits {
                depth: Some(depth),
                ..Default::default()
            },
            threads,
            ..Default::default()
        }
    }

    #[test]
    fn each_thread_keeps_its_move_ordering_memory_until_a_new_game() {
        let shared = Shared::new(1);
        let eval = crate::eval::HandcraftedEval::new();
        let config = to_depth(5, 2);
        let pos = Position::startpos();
        search(&pos, &[], &[], &config, &shared, &eval, &mut |_| {});
        let kept = shared.histories.lock().unwrap().len();
        assert_eq!(kept, 2);
        shared.clear_histories();
        assert!(shared.histories.lock().unwrap().is_empty());
    }

    #[test]
    fn a_mate_in_two_is_reported_in_moves_for_the_side_that_mates() {
        // Red's king holds the f-file; a chariot's check on the e-file leaves the black king
        // only d9, where the other chariot mates with a check on the d-file.
        let pos = Position::from_fen("4k4/9/9/R8/1R7/9/9/9/9/5K3 w - - 0 1").unwrap();
        let shared = Shared::new(1);
        let eval = crate::eval::HandcraftedEval::new();
        let config = to_depth(6, 1);
        let result = search(&pos, &[], &[], &config, &shared, &eval, &mut |_| {});
        assert_eq!(result.score, Reported::Mate(2));
        // The mated side sees the same line as being mated in 2.
        let after = pos.after(result.best_move.unwrap());
        shared.stop.store(false, Ordering::Relaxed);
        let reply = search(&after, &[], &[], &config, &shared, &eval, &mut |_| {});
        assert_eq!(reply.score, Reported::Mate(-1));
    }

    #[test]
    fn a_fixed_move_time_is_used_whole() {
        let t = Duration::from_millis(250);
        let b = TimeBudget { soft: t, hard: t };
        assert_eq!(soft_limit(b, 10, 0), t);
    }
}
