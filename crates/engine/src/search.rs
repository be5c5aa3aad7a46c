//! The search: iterative deepening with aspiration windows over a principal-variation
//! alpha-beta search with quiescence, pruning and reductions; Lazy SMP across threads.

use crate::eval::Evaluator;
use crate::history::{Continuation, History, MAX_PLY, PieceTo};
use crate::limits::{SearchLimits, TimeBudget};
use crate::movepick::MovePicker;
use crate::score::{
    DRAW, INFINITE, MATE_BOUND, Score, from_table, is_mate, mate_in, mated_in, to_table,
};
use crate::see::see_ge;
use crate::tt::{Bound, TranspositionTable, TtEntry};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use xiangqi_rules::repetition::{RuleSet, judge_cycle};
use xiangqi_rules::{Move, PieceKind, Position};

/// Plies without a capture after which the game is drawn.
const NO_CAPTURE_DRAW_PLIES: u32 = 120;

/// State shared by all search threads and the front end.
pub struct Shared {
    /// The transposition table.
    pub tt: TranspositionTable,
    /// Set to make every thread return as soon as possible.
    pub stop: AtomicBool,
    /// Set while pondering: time limits do not apply until `ponderhit` clears it.
    pub pondering: AtomicBool,
    nodes: AtomicU64,
    /// Each thread's move-ordering memory, kept from one search to the next.
    histories: Mutex<Vec<History>>,
    epoch: Instant,
    start_micros: AtomicU64,
}

impl Shared {
    /// Shared state with a table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Shared {
        Shared {
            tt: TranspositionTable::new(hash_mb),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            histories: Mutex::new(Vec::new()),
            epoch: Instant::now(),
            start_micros: AtomicU64::new(0),
        }
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
    pub score: Score,
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
    /// Score of the best move.
    pub score: Score,
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
        }
    }
}

#[derive(Clone)]
struct RootMove {
    mv: Move,
    score: Score,
    previous_score: Score,
    pv: Vec<Move>,
    seldepth: usize,
}

#[derive(Clone, Copy, Default)]
struct Frame {
    static_eval: Score,
    current: Option<Move>,
    /// The piece and destination of `current`, for continuation history.
    moved: Option<PieceTo>,
    excluded_null: bool,
    /// A move this node must not search (singular-extension test).
    excluded: Option<Move>,
}

struct Worker<'a> {
    id: usize,
    pos: Position,
    keys: Vec<u64>,
    /// `path[i]` is the move from the position `keys[i]` to `keys[i + 1]`; `None` for a null
    /// move or an unknown game move.
    path: Vec<Option<Move>>,
    history: History,
    stack: Vec<Frame>,
    pv: Vec<Vec<Move>>,
    nodes: u64,
    seldepth: usize,
    shared: &'a Shared,
    eval: &'a dyn Evaluator,
    budget: Option<TimeBudget>,
    node_limit: Option<u64>,
    root_moves: Vec<RootMove>,
    stopped: bool,
    /// Node and time limits apply only once one iteration is complete, so there is always a
    /// searched move to play.
    limits_armed: bool,
}

/// Late-move reductions by depth and move number, `0.75 + ln(depth) ln(n) / 2.25`.
static REDUCTIONS: std::sync::LazyLock<[[u8; 64]; 64]> = std::sync::LazyLock::new(|| {
    let mut table = [[0u8; 64]; 64];
    for (depth, row) in table.iter_mut().enumerate().skip(3) {
        for (n, r) in row.iter_mut().enumerate().skip(2) {
            *r = (0.75 + (depth as f64).ln() * (n as f64).ln() / 2.25) as u8;
        }
    }
    table
});

/// Late-move reduction for `depth` and move number `n`.
#[inline]
fn reduction(depth: i32, n: usize) -> i32 {
    REDUCTIONS[(depth.max(0) as usize).min(63)][n.min(63)] as i32
}

/// The stored score when its bound settles the window `alpha..beta`.
#[inline]
fn table_cutoff(e: &TtEntry, ply: usize, alpha: Score, beta: Score) -> Option<Score> {
    let s = from_table(e.score, ply);
    let settles = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    settles.then_some(s)
}

fn has_big_pieces(pos: &Position) -> bool {
    let us = pos.side_to_move();
    [PieceKind::Chariot, PieceKind::Horse, PieceKind::Cannon]
        .iter()
        .any(|&k| !pos.pieces(xiangqi_rules::Piece::new(us, k)).is_empty())
}

impl<'a> Worker<'a> {
    fn check_limits(&mut self) {
        if self.nodes & 1023 == 0 {
            self.shared.nodes.fetch_add(1024, Ordering::Relaxed);
        }
        if self.stopped {
            return;
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.id != 0 || !self.limits_armed {
            return;
        }
        if let Some(limit) = self.node_limit
            && self.nodes >= limit
        {
            self.stopped = true;
            self.shared.stop.store(true, Ordering::Relaxed);
            return;
        }
        if self.nodes & 1023 == 0
            && let Some(b) = self.budget
            && !self.shared.pondering.load(Ordering::Relaxed)
            && self.shared.elapsed() >= b.hard
        {
            self.stopped = true;
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The score of the current position when it repeats an earlier one since the last
    /// capture: the Asian rules' verdict on the cycle — a loss for a side that checked or
    /// chased perpetually, otherwise a draw. `None` when it does not repeat.
    fn repetition_score(&self, ply: usize) -> Option<Score> {
        let n = self.keys.len();
        let reach = (self.pos.halfmove_clock() as usize).min(n.saturating_sub(1));
        let key = self.pos.hash();
        let mut back = 4;
        while back <= reach {
            if self.keys[n - 1 - back] == key {
                let cycle: Option<Vec<Move>> = self.path[n - 1 - back..].iter().copied().collect();
                let Some(cycle) = cycle else {
                    return Some(DRAW);
                };
                let judgement = judge_cycle(&self.pos, &cycle, RuleSet::Asian);
                return Some(match judgement.score_for(self.pos.side_to_move()) {
                    Some(1) => mate_in(ply),
                    Some(-1) => mated_in(ply),
                    _ => DRAW,
                });
            }
            back += 2;
        }
        None
    }

    fn make(&mut self, m: Move, ply: usize) -> xiangqi_rules::Undo {
        self.stack[ply].current = Some(m);
        self.stack[ply].moved = self.pos.piece_at(m.from()).map(|p| PieceTo::new(p, m.to()));
        let undo = self.pos.make_move(m);
        self.keys.push(self.pos.hash());
        self.path.push(Some(m));
        undo
    }

    fn unmake(&mut self, m: Move, undo: xiangqi_rules::Undo) {
        self.keys.pop();
        self.path.pop();
        self.pos.unmake_move(m, undo);
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// Counts the node and checks the limits; returns a score when the node ends here
    /// (stopped, or at the deepest ply).
    fn enter_node(&mut self, ply: usize) -> Option<Score> {
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return Some(0);
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return Some(self.eval.evaluate(&self.pos));
        }
        None
    }

    fn qsearch(&mut self, mut alpha: Score, beta: Score, ply: usize) -> Score {
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        let in_check = self.pos.in_check();
        let entry = self.shared.tt.probe(self.pos.hash());
        if let Some(s) = entry.and_then(|e| table_cutoff(&e, ply, alpha, beta)) {
            return s;
        }
        let mut best;
        let stand_pat;
        if in_check {
            best = -INFINITE;
            stand_pat = -INFINITE;
        } else {
            stand_pat = entry.map_or_else(|| self.eval.evaluate(&self.pos), |e| e.eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let table_move = entry.and_then(|e| e.best_move);
        let mut picker = if in_check {
            MovePicker::new(&self.pos, table_move, [None; 2], None)
        } else {
            MovePicker::captures(&self.pos, table_move)
        };
        let mut best_move = None;
        let mut any = false;
        while let Some(m) = picker.next(&self.pos, &self.history) {
            any = true;
            if !in_check {
                if !see_ge(&self.pos, m, 0) {
                    continue;
                }
                // Delta pruning: even winning this piece cannot lift the score to alpha.
                let gain = self
                    .pos
                    .piece_at(m.to())
                    .map_or(0, |p| crate::see::SEE_VALUE[p.kind.index()]);
                if stand_pat + gain + 200 <= alpha {
                    continue;
                }
            }
            let undo = self.make(m, ply);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.unmake(m, undo);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && !any {
            return mated_in(ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            self.pos.hash(),
            TtEntry {
                best_move,
                score: to_table(best, ply),
                eval: if in_check { 0 } else { stand_pat },
                depth: 0,
                bound,
            },
        );
        best
    }

    fn search(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> Score {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        if let Some(score) = self.repetition_score(ply) {
            return score;
        }
        if self.pos.halfmove_clock() >= NO_CAPTURE_DRAW_PLIES {
            return DRAW;
        }
        // Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let excluded = self.stack[ply].excluded;
        let key = self.pos.hash();
        let entry = self.shared.tt.probe(key);
        let table_move = entry.and_then(|e| e.best_move);
        if let Some(e) = entry
            && !pv_node
            && excluded.is_none()
            && e.depth >= depth
            && let Some(s) = table_cutoff(&e, ply, alpha, beta)
        {
            return s;
        }

        let in_check = self.pos.in_check();
        let static_eval = if in_check {
            -INFINITE
        } else {
            entry.map_or_else(|| self.eval.evaluate(&self.pos), |e| e.eval)
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        self.history.clear_killers(ply + 1);

        if !pv_node && !in_check && !is_mate(beta) && excluded.is_none() {
            // Reverse futility: far above beta with little depth left.
            if depth <= 7 && static_eval - (80 - 20 * improving as Score) * depth >= beta {
                return static_eval;
            }
            // Razoring: far below alpha, see whether captures can save it.
            if depth <= 3 && static_eval + 250 * depth <= alpha {
                let q = self.qsearch(alpha, alpha + 1, ply);
                if q <= alpha {
                    return q;
                }
            }
            // Null move, not in pawn-and-defender endgames where zugzwang is common.
            if depth >= 3
                && static_eval >= beta
                && !self.stack[ply].excluded_null
                && has_big_pieces(&self.pos)
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(2);
                let undo = self.pos.make_null_move();
                self.keys.push(self.pos.hash());
                self.path.push(None);
                self.stack[ply].current = None;
                self.stack[ply].moved = None;
                self.stack[ply + 1].excluded_null = true;
                let score = -self.search(-beta, -beta + 1, depth - r, ply + 1, false, !cut_node);
                self.stack[ply + 1].excluded_null = false;
                self.keys.pop();
                self.path.pop();
                self.pos.unmake_null_move(undo);
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if is_mate(score) { beta } else { score };
                }
            }
        }

        // Without a table move, a shallower search here first is cheaper than a blind one.
        let depth = if table_move.is_none() && depth >= 6 && (pv_node || cut_node) {
            depth - 1
        } else {
            depth
        };

        let previous = if ply > 0 {
            self.stack[ply - 1].current
        } else {
            None
        };
        let counter = self.history.counter_move(previous);
        let context: Continuation = [
            ply.checked_sub(1).and_then(|p| self.stack[p].moved),
            ply.checked_sub(2).and_then(|p| self.stack[p].moved),
        ];
        let mut picker = MovePicker::new(&self.pos, table_move, self.history.killers(ply), counter)
            .with_context(context);
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut moves_tried = 0usize;
        let mut quiets_tried = [None; 32];
        let mut quiet_count = 0;
        let late_move_limit = (3 + depth * depth) as usize / (2 - improving as usize);

        while let Some(m) = picker.next(&self.pos, &self.history) {
            if Some(m) == excluded {
                continue;
            }
            moves_tried += 1;
            let is_capture = !self.pos.is_empty(m.to());
            let quiet = !is_capture;
            let mover = self.pos.piece_at(m.from());
            if !pv_node && !in_check && best > -MATE_BOUND && ply > 0 {
                if quiet {
                    if depth <= 6 && moves_tried > late_move_limit {
                        continue;
                    }
                    if depth <= 6 && static_eval + 120 + 90 * depth <= alpha {
                        continue;
                    }
                } else if depth <= 4 && !see_ge(&self.pos, m, -120 * depth) {
                    continue;
                }
            }
            // Singular extension: extend the table move when every other move falls well
            // short of its stored score.
            let mut singular = false;
            if Some(m) == table_move
                && depth >= 8
                && ply > 0
                && excluded.is_none()
                && let Some(e) = entry
                && e.depth >= depth - 3
                && e.bound != Bound::Upper
                && !is_mate(e.score)
            {
                let tt_score = from_table(e.score, ply);
                let singular_beta = tt_score - 2 * depth;
                self.stack[ply].excluded = Some(m);
                let s = self.search(
                    singular_beta - 1,
                    singular_beta,
                    (depth - 1) / 2,
                    ply,
                    false,
                    cut_node,
                );
                self.stack[ply].excluded = None;
                if self.stopped {
                    return 0;
                }
                if s < singular_beta {
                    singular = true;
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
            let mut undo = self.make(m, ply);
            let gives_check = self.pos.in_check();
            // Extend checks that do not simply give material away.
            let safe = gives_check && {
                self.unmake(m, undo);
                let safe = see_ge(&self.pos, m, 0);
                undo = self.make(m, ply);
                safe
            };
            let extension =
                ((gives_check && safe) || singular) as i32 * (ply < 2 * MAX_PLY / 3) as i32;
            let new_depth = depth - 1 + extension;
            let mut score;
            if moves_tried == 1 {
                score = -self.search(
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    pv_node,
                    !pv_node && !cut_node,
                );
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && !in_check {
                    r = reduction(depth, moves_tried);
                    r += cut_node as i32;
                    r -= pv_node as i32;
                    r -= gives_check as i32;
                    let history =
                        mover.map_or(0, |piece| self.history.quiet_score(piece, m, &context));
                    r -= (history / 8000).clamp(-2, 2);
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
                }
            }
            self.unmake(m, undo);
            if self.stopped {
                return 0;
            }
            if quiet
                && quiet_count < quiets_tried.len()
                && let Some(piece) = mover
            {
                quiets_tried[quiet_count] = Some((piece, m));
                quiet_count += 1;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet && let Some(piece) = mover {
                            self.history.update_quiet(
                                ply,
                                depth,
                                (piece, m),
                                &quiets_tried[..quiet_count],
                                previous,
                                &context,
                            );
                        }
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if moves_tried == 0 {
            if excluded.is_some() {
                return alpha;
            }
            // Mate and stalemate both lose in Xiangqi.
            return mated_in(ply);
        }
        if excluded.is_some() {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            TtEntry {
                best_move,
                score: to_table(best, ply),
                eval: if in_check { 0 } else { static_eval },
                depth,
                bound,
            },
        );
        best
    }

    /// Searches the root moves from `first` on (earlier ones are fixed MultiPV lines).
    fn search_root(&mut self, mut alpha: Score, beta: Score, depth: i32, first: usize) -> Score {
        let mut best = -INFINITE;
        self.nodes += 1;
        for i in first..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            self.seldepth = 0;
            let undo = self.make(m, 0);
            let gives_check = self.pos.in_check();
            let new_depth = depth - 1 + gives_check as i32;
            let mut score;
            if i == first {
                score = -self.search(-beta, -alpha, new_depth, 1, true, false);
            } else {
                let r = if depth >= 3 && !gives_check && self.pos.halfmove_clock() > 0 {
                    (reduction(depth, i - first + 1) - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                score = -self.search(-alpha - 1, -alpha, new_depth - r, 1, false, true);
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, 1, false, true);
                }
                if score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, 1, true, false);
                }
            }
            self.unmake(m, undo);
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == first || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1]);
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
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
            score: if pos.legal_moves().is_empty() {
                mated_in(0)
            } else {
                DRAW
            },
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            lines: Vec::new(),
        };
    }
    // Order the first iteration by a quick look: captures by value, then the rest.
    root_moves.sort_by_key(|rm| {
        -(pos
            .piece_at(rm.mv.to())
            .map_or(0, |p| crate::see::SEE_VALUE[p.kind.index()]))
    });

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
    for history in &mut histories {
        history.new_search();
    }
    histories.resize_with(threads, History::default);
    let mut histories = histories.into_iter();
    let main_history = histories.next().unwrap_or_default();
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
        eval,
        budget,
        node_limit: limits.nodes,
        root_moves: root_moves.clone(),
        stopped: false,
        limits_armed: false,
    };

    let mut result = None;
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .zip(histories)
            .map(|(id, history)| {
                let mut w = make_worker(id, history);
                scope.spawn(move || {
                    iterate(&mut w, max_depth, 1, limits, None, &mut |_| {});
                    w.history
                })
            })
            .collect();
        let mut main = make_worker(0, main_history);
        let outcome = iterate(&mut main, max_depth, multipv, limits, budget, report);
        // Wait out `go infinite` and pondering until the front end says stop.
        while (limits.infinite || shared.pondering.load(Ordering::Relaxed))
            && !shared.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        shared.stop.store(true, Ordering::Relaxed);
        let mut kept = vec![main.history];
        kept.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
        *shared.histories.lock().unwrap_or_else(|e| e.into_inner()) = kept;
        result = Some(outcome);
    });
    let mut result = result.expect("main search thread finished");
    result.nodes = result.nodes.max(shared.nodes.load(Ordering::Relaxed));
    result
}

/// When to stop deepening: the budget's soft limit, shortened while the best move has
/// stood for several iterations and lengthened after it changed or the score fell by
/// `score_drop` centipawns; never past the hard limit.
fn soft_limit(b: TimeBudget, stable_iterations: usize, score_drop: Score) -> Duration {
    if b.soft >= b.hard {
        return b.hard;
    }
    let stability = [2.0, 1.4, 1.1, 0.9, 0.75][stable_iterations.min(4)];
    let drop = if score_drop > -INFINITE / 2 && score_drop < INFINITE / 2 {
        (1.0 + score_drop.max(0) as f64 / 200.0).min(1.5)
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
            let mut delta: Score = 30;
            let (mut alpha, mut beta) = if depth >= 5 && previous > -INFINITE && !is_mate(previous)
            {
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
                delta += delta / 2 + 10;
            }
            if w.stopped {
                break;
            }
            let rm = &w.root_moves[pv_index];
            iteration_lines.push(SearchInfo {
                depth,
                seldepth: rm.seldepth.max(1),
                multipv: pv_index + 1,
                score: rm.score,
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
        best_pv = w.root_moves[0].pv.clone();
        best_score = w.root_moves[0].score;
        if w.id == 0 {
            let hashfull = w.shared.tt.hashfull();
            let total = w.shared.nodes.load(Ordering::Relaxed) + (w.nodes & 1023);
            for line in &mut iteration_lines {
                line.hashfull = hashfull;
                line.nodes = total.max(w.nodes);
                report(line);
            }
        }
        lines = iteration_lines;
        if let Some(mate) = limits.mate
            && best_score >= MATE_BOUND
            && (crate::score::MATE - best_score + 1) / 2 <= mate as Score
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
        score: best_score,
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

    #[test]
    fn each_thread_keeps_its_move_ordering_memory_until_a_new_game() {
        let shared = Shared::new(1);
        let eval = crate::eval::HandcraftedEval::new();
        let config = SearchConfig {
            limits: SearchLimits {
                depth: Some(5),
                ..Default::default()
            },
            threads: 2,
            ..Default::default()
        };
        let pos = Position::startpos();
        search(&pos, &[], &[], &config, &shared, &eval, &mut |_| {});
        let kept = shared.histories.lock().unwrap().len();
        assert_eq!(kept, 2);
        shared.clear_histories();
        assert!(shared.histories.lock().unwrap().is_empty());
    }

    #[test]
    fn a_fixed_move_time_is_used_whole() {
        let t = Duration::from_millis(250);
        let b = TimeBudget { soft: t, hard: t };
        assert_eq!(soft_limit(b, 10, 0), t);
    }
}
