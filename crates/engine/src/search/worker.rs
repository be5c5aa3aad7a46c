//! One search thread: its position and stacks, and the alpha-beta searches of the root,
//! the inner nodes and the quiescence nodes.

use super::Shared;
use super::params::*;
use crate::correction::Slot;
use crate::eval::Evaluator;
use crate::history::{Continuation, History, MAX_PLY, PieceTo};
use crate::limits::TimeBudget;
use crate::movepick::MovePicker;
use crate::nnue::{AccumulatorStack, Network};
use crate::score::{
    DRAW, INFINITE, MATE_BOUND, Score, from_table, is_mate, mate_in, mated_in, to_table,
};
use crate::see::see_ge;
use crate::tablebase::EngineTables;
use crate::tt::{Bound, TtEntry};
use std::sync::atomic::Ordering;
use xiangqi_rules::draw::NO_CAPTURE_PLIES;
use xiangqi_rules::repetition::{RuleSet, judge_cycle};
use xiangqi_rules::{GenKind, Move, MoveList, PieceKind, Position};

/// Nodes a thread searches between two looks at the clock and the stop signal; its count is
/// added to the shared total in steps of this size.
pub(super) const CHECK_INTERVAL: u64 = 1024;

/// A move at the root with what the last iterations found for it.
#[derive(Clone)]
pub(super) struct RootMove {
    pub(super) mv: Move,
    pub(super) score: Score,
    pub(super) previous_score: Score,
    pub(super) pv: Vec<Move>,
    pub(super) seldepth: usize,
}

/// What the search keeps for each ply of the current line.
#[derive(Clone, Copy, Default)]
pub(super) struct Frame {
    static_eval: Score,
    current: Option<Move>,
    /// The piece and destination of `current`, for continuation history.
    moved: Option<PieceTo>,
    excluded_null: bool,
    /// A move this node must not search (singular-extension test).
    excluded: Option<Move>,
}

/// The network a thread evaluates with and its accumulators along the current line.
pub(super) struct Nnue<'a> {
    pub(super) network: &'a Network,
    pub(super) accumulators: AccumulatorStack,
}

/// One search thread.
pub(super) struct Worker<'a> {
    pub(super) id: usize,
    pub(super) pos: Position,
    pub(super) keys: Vec<u64>,
    /// `path[i]` is the move from the position `keys[i]` to `keys[i + 1]`; `None` for a null
    /// move or an unknown game move.
    pub(super) path: Vec<Option<Move>>,
    pub(super) history: History,
    pub(super) stack: Vec<Frame>,
    pub(super) pv: Vec<Vec<Move>>,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) shared: &'a Shared,
    /// The search's tunable numbers.
    pub(super) params: SearchParams,
    /// Late-move reductions from `params`.
    pub(super) reductions: &'a Reductions,
    pub(super) eval: &'a dyn Evaluator,
    /// When set, positions are evaluated by this network instead of `eval`.
    pub(super) nnue: Option<Nnue<'a>>,
    pub(super) budget: Option<TimeBudget>,
    pub(super) node_limit: Option<u64>,
    /// Endgame tables: a node they cover takes their result as its score.
    pub(super) tables: Option<&'a EngineTables>,
    /// Whether a table draw ends a node (off when the root itself is a table draw, so that
    /// the search can tell drawing moves apart).
    pub(super) table_draws: bool,
    pub(super) root_moves: Vec<RootMove>,
    pub(super) stopped: bool,
    /// Node and time limits apply only once one iteration is complete, so there is always a
    /// searched move to play.
    pub(super) limits_armed: bool,
}

/// The kind of an inner node, fixed at compile time so that each kind gets its own code.
///
/// The root has its own function, [`Worker::search_root`]. Whether a non-PV node expects to
/// fail high (a cut node) stays a runtime flag: it flips from parent to child and differs
/// between the searches of one move (the reduced search expects a cut, its re-search the
/// opposite of the parent), and one copy of the code serves both expectations.
pub(super) trait NodeKind {
    /// Whether the node lies on the principal variation (searched with an open window).
    const PV: bool;
}

/// A node on the principal variation.
pub(super) struct Pv;

/// A node searched with a null window, expected to fail high or low.
pub(super) struct NonPv;

impl NodeKind for Pv {
    const PV: bool = true;
}

impl NodeKind for NonPv {
    const PV: bool = false;
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

/// Whether `m` may check the opponent's general: a check needs a point of the move on the
/// general's file or rank (a chariot's or cannon's line, a screen placed or removed, the
/// generals facing) or within two points of it (a horse's attack or freed leg, a soldier).
#[inline]
fn may_give_check(pos: &Position, m: Move) -> bool {
    let general = pos.general(pos.side_to_move().opponent());
    let near = |sq: xiangqi_rules::Square| {
        sq.file() == general.file()
            || sq.rank() == general.rank()
            || (sq.file().abs_diff(general.file()) <= 2 && sq.rank().abs_diff(general.rank()) <= 2)
    };
    near(m.from()) || near(m.to())
}

impl<'a> Worker<'a> {
    fn check_limits(&mut self) {
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.shared
                .nodes
                .fetch_add(CHECK_INTERVAL, Ordering::Relaxed);
        }
        if self.stopped {
            return;
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if !self.limits_armed {
            return;
        }
        // The node limit counts the main thread's nodes; the clock is watched by every
        // thread, so that many threads on few cores still stop on time.
        if let Some(limit) = self.node_limit
            && self.id == 0
            && self.nodes >= limit
        {
            self.stopped = true;
            self.shared.stop.store(true, Ordering::Relaxed);
            return;
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL)
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
        // The same side to move, and a cycle needs at least two moves each.
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

    /// The static evaluation of the current position for the side to move.
    #[inline]
    fn evaluate(&mut self) -> Score {
        match &mut self.nnue {
            Some(nnue) => {
                let pieces = self.pos.occupied().count() as usize;
                let score =
                    nnue.accumulators
                        .evaluate(nnue.network, self.pos.side_to_move(), pieces);
                // Debug builds check the incremental accumulators against fresh ones.
                debug_assert_eq!(score, nnue.network.evaluate(&self.pos));
                score
            }
            None => self.eval.evaluate(&self.pos),
        }
    }

    fn make(&mut self, m: Move, ply: usize) -> xiangqi_rules::Undo {
        self.stack[ply].current = Some(m);
        let mover = self.pos.piece_at(m.from());
        self.stack[ply].moved = mover.map(|p| PieceTo::new(p, m.to()));
        let captured = self.pos.piece_at(m.to());
        let undo = self.pos.make_move(m);
        self.shared.tt.prefetch(self.pos.hash());
        if let Some(nnue) = &mut self.nnue {
            match mover {
                Some(piece) => nnue.accumulators.push_move(
                    nnue.network,
                    &self.pos,
                    piece,
                    m.from(),
                    m.to(),
                    captured,
                ),
                None => nnue.accumulators.push_null(),
            }
        }
        self.keys.push(self.pos.hash());
        self.path.push(Some(m));
        undo
    }

    fn unmake(&mut self, m: Move, undo: xiangqi_rules::Undo) {
        if let Some(nnue) = &mut self.nnue {
            nnue.accumulators.pop();
        }
        self.keys.pop();
        self.path.pop();
        self.pos.unmake_move(m, undo);
    }

    /// Whether the move `m` checks the opponent: points far from the opponent's general and
    /// off its file and rank cannot give or uncover a check, and the rest are played to see.
    #[inline]
    fn gives_check(&mut self, m: Move) -> bool {
        if !may_give_check(&self.pos, m) {
            return false;
        }
        let undo = self.pos.make_move(m);
        let check = self.pos.in_check();
        self.pos.unmake_move(m, undo);
        check
    }

    /// The next of `quiets` from `index` on that checks and holds its exchange.
    fn next_quiet_check(&mut self, quiets: &MoveList, index: &mut usize) -> Option<Move> {
        while let Some(&m) = quiets.get(*index) {
            *index += 1;
            if self.gives_check(m) && see_ge(&self.pos, m, 0) {
                return Some(m);
            }
        }
        None
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
            return Some(self.evaluate());
        }
        None
    }

    /// The score of the current position `ply` plies from the root when the tables settle
    /// it.
    #[inline]
    fn table_score(&self, ply: usize) -> Option<Score> {
        self.tables?.node_score(&self.pos, ply, self.table_draws)
    }

    /// The quiescence search: captures that hold their exchange, every move when in check,
    /// and with `checks` also the quiet moves that check and hold their exchange.
    fn qsearch(&mut self, mut alpha: Score, beta: Score, ply: usize, checks: bool) -> Score {
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        if let Some(score) = self.table_score(ply) {
            return score;
        }
        let in_check = self.pos.in_check();
        let entry = self.shared.tt.probe(self.pos.hash());
        if let Some(s) = entry.and_then(|e| table_cutoff(&e, ply, alpha, beta)) {
            return s;
        }
        let mut best;
        let stand_pat;
        let mut raw_eval = 0;
        if in_check {
            best = -INFINITE;
            stand_pat = -INFINITE;
        } else {
            raw_eval = entry.map_or_else(|| self.evaluate(), |e| e.eval);
            stand_pat = self
                .history
                .correction
                .corrected(Slot::of(&self.pos), raw_eval);
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
        // With `checks`, the quiet moves that check follow the captures.
        let mut quiets: Option<(MoveList, usize)> = None;
        loop {
            // Delta pruning: a capture whose piece, even won, cannot lift the score above
            // alpha is passed over.
            let min_gain = if in_check {
                i32::MIN
            } else {
                alpha.saturating_sub(stand_pat + self.params.delta_margin) + 1
            };
            let m = if let Some(m) = picker.next_gaining(&self.pos, &self.history, min_gain) {
                any = true;
                m
            } else if checks && !in_check {
                let (list, index) = quiets.get_or_insert_with(|| {
                    let mut list = MoveList::new();
                    self.pos.generate_legal(GenKind::Quiets, &mut list);
                    (list, 0)
                });
                match self.next_quiet_check(list, index) {
                    Some(m) => m,
                    None => break,
                }
            } else {
                break;
            };
            let undo = self.make(m, ply);
            let score = -self.qsearch(-beta, -alpha, ply + 1, false);
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
                eval: raw_eval,
                depth: 0,
                bound,
            },
        );
        best
    }

    /// Searches an inner node of kind `N` to `depth`; `cut_node` says whether a non-PV node
    /// is expected to fail high.
    fn search<N: NodeKind>(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        let pv_node = N::PV;
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, self.params.qsearch_checks >= 2);
        }
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        if let Some(score) = self.repetition_score(ply) {
            return score;
        }
        if self.pos.halfmove_clock() >= NO_CAPTURE_PLIES {
            return DRAW;
        }
        if let Some(score) = self.table_score(ply) {
            return score;
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
        // The table keeps the evaluation as the network gives it; the search prunes on it
        // corrected by what searches of the same placement found.
        // Out of check, the node's correction slot: it corrects the evaluation now and learns
        // from the search at the end.
        let correction_slot = (!in_check).then(|| Slot::of(&self.pos));
        let (raw_eval, static_eval) = match correction_slot {
            None => (0, -INFINITE),
            Some(slot) => {
                let raw = entry.map_or_else(|| self.evaluate(), |e| e.eval);
                (raw, self.history.correction.corrected(slot, raw))
            }
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        self.history.clear_killers(ply + 1);

        if !pv_node && !in_check && !is_mate(beta) && excluded.is_none() {
            // Reverse futility: far above beta with little depth left.
            let margin = self.params.reverse_futility_margin
                - self.params.reverse_futility_improving * improving as Score;
            if depth <= self.params.reverse_futility_max_depth
                && static_eval - margin * depth >= beta
            {
                return static_eval;
            }
            // Razoring: far below alpha, see whether captures can save it.
            if depth <= self.params.razor_max_depth
                && static_eval + self.params.razor_margin * depth <= alpha
            {
                let q = self.qsearch(alpha, alpha + 1, ply, self.params.qsearch_checks >= 1);
                if q <= alpha {
                    return q;
                }
            }
            // Null move, not in pawn-and-defender endgames where zugzwang is common.
            if depth >= self.params.null_move_min_depth
                && static_eval >= beta
                && !self.stack[ply].excluded_null
                && has_big_pieces(&self.pos)
            {
                let r = self.params.null_move_reduction
                    + depth / self.params.null_move_depth_divisor
                    + ((static_eval - beta) / self.params.null_move_eval_divisor)
                        .min(self.params.null_move_eval_max);
                let undo = self.pos.make_null_move();
                if let Some(nnue) = &mut self.nnue {
                    nnue.accumulators.push_null();
                }
                self.keys.push(self.pos.hash());
                self.path.push(None);
                self.stack[ply].current = None;
                self.stack[ply].moved = None;
                self.stack[ply + 1].excluded_null = true;
                let score = -self.search::<NonPv>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.stack[ply + 1].excluded_null = false;
                self.keys.pop();
                self.path.pop();
                self.pos.unmake_null_move(undo);
                if let Some(nnue) = &mut self.nnue {
                    nnue.accumulators.pop();
                }
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if is_mate(score) { beta } else { score };
                }
            }
        }

        // Without a table move, a shallower search here first is cheaper than a blind one.
        let depth = if table_move.is_none()
            && depth >= self.params.iir_min_depth
            && (pv_node || cut_node)
        {
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
        let mut quiets_tried = [None; QUIETS_REMEMBERED];
        let mut quiet_count = 0;
        let late_move_limit = {
            let limit = (self.params.late_move_base + depth * depth) as usize;
            if improving { limit } else { limit / 2 }
        };

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
                    // A late or hopeless quiet move is skipped unless it checks: a quiet
                    // check is how a side far behind mates.
                    let late =
                        depth <= self.params.late_move_max_depth && moves_tried > late_move_limit;
                    let futile = depth <= self.params.futility_max_depth
                        && static_eval
                            + self.params.futility_base
                            + self.params.futility_per_depth * depth
                            <= alpha;
                    // A move that hangs material, or that did badly after both earlier
                    // moves, is skipped at shallow depth like a late one.
                    let losing = || {
                        depth <= self.params.see_quiet_max_depth
                            && !see_ge(&self.pos, m, -self.params.see_quiet_margin * depth * depth)
                    };
                    let unpromising = || {
                        depth <= self.params.continuation_prune_max_depth
                            && mover.is_some_and(|p| self.history.unpromising(p, m, &context))
                    };
                    if (late || futile || unpromising() || losing())
                        && (self.params.quiet_checks_kept == 0 || !self.gives_check(m))
                    {
                        continue;
                    }
                } else if depth <= self.params.see_capture_max_depth
                    && !see_ge(&self.pos, m, -self.params.see_capture_margin * depth)
                    && (self.params.capture_checks_kept == 0 || !self.gives_check(m))
                {
                    continue;
                }
            }
            // Singular extension: extend the table move when every other move falls well
            // short of its stored score.
            let mut singular = false;
            if Some(m) == table_move
                && depth >= self.params.singular_min_depth
                && ply > 0
                && excluded.is_none()
                && let Some(e) = entry
                && e.depth >= depth - self.params.singular_table_depth_slack
                && e.bound != Bound::Upper
                && !is_mate(e.score)
            {
                let tt_score = from_table(e.score, ply);
                let singular_beta = tt_score - self.params.singular_margin_per_depth * depth;
                self.stack[ply].excluded = Some(m);
                let s = self.search::<NonPv>(
                    singular_beta - 1,
                    singular_beta,
                    (depth - 1) / SINGULAR_DEPTH_DIVISOR,
                    ply,
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
            // Extend checks that give away no more than `CheckExtensionSeeMargin` by the
            // exchange.
            let safe = gives_check && {
                self.unmake(m, undo);
                let safe = see_ge(&self.pos, m, -self.params.check_extension_see_margin);
                undo = self.make(m, ply);
                safe
            };
            let extension =
                ((gives_check && safe) || singular) as i32 * (ply < EXTENSION_MAX_PLY) as i32;
            let new_depth = depth - 1 + extension;
            let mut score;
            if moves_tried == 1 {
                // The first move of a PV node leads the PV; elsewhere a child expects the opposite
                // of its parent.
                score = if pv_node {
                    -self.search::<Pv>(-beta, -alpha, new_depth, ply + 1, false)
                } else {
                    -self.search::<NonPv>(-beta, -alpha, new_depth, ply + 1, !cut_node)
                };
            } else {
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH && !in_check {
                    if quiet {
                        r = self.reductions.get(depth, moves_tried);
                        r += cut_node as i32;
                        r -= pv_node as i32;
                        r -= gives_check as i32;
                        let history =
                            mover.map_or(0, |piece| self.history.quiet_score(piece, m, &context));
                        r -= (history / self.params.lmr_history_divisor)
                            .clamp(-self.params.lmr_history_max, self.params.lmr_history_max);
                    } else if picker.yielded_losing_capture() {
                        r = self.params.lmr_losing_captures - gives_check as i32;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score =
                        -self.search::<NonPv>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search::<Pv>(-beta, -alpha, new_depth, ply + 1, false);
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
                                self.params.history_bonus(depth),
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
        // A quiet (or no) best move with a score its bound vouches for, away from the static
        // evaluation, teaches the correction.
        let quiet_best = best_move.is_none_or(|m| self.pos.is_empty(m.to()));
        let bound_agrees = match bound {
            Bound::Lower => best > static_eval,
            Bound::Upper => best < static_eval,
            Bound::Exact => true,
        };
        if let Some(slot) = correction_slot
            && !is_mate(best)
            && quiet_best
            && bound_agrees
        {
            self.history.correction.learn(
                slot,
                depth,
                raw_eval,
                best,
                self.params.correction_limit,
            );
        }
        self.shared.tt.store(
            key,
            TtEntry {
                best_move,
                score: to_table(best, ply),
                eval: raw_eval,
                depth,
                bound,
            },
        );
        best
    }

    /// Searches the root moves from `first` on (earlier ones are fixed MultiPV lines).
    pub(super) fn search_root(
        &mut self,
        mut alpha: Score,
        beta: Score,
        depth: i32,
        first: usize,
    ) -> Score {
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
                score = -self.search::<Pv>(-beta, -alpha, new_depth, 1, false);
            } else {
                let r = if depth >= LMR_MIN_DEPTH && !gives_check && self.pos.halfmove_clock() > 0 {
                    (self.reductions.get(depth, i - first + 1) - ROOT_LMR_DISCOUNT)
                        .clamp(0, new_depth - 1)
                } else {
                    0
                };
                score = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth - r, 1, true);
                if score > alpha && r > 0 {
                    score = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth, 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.search::<Pv>(-beta, -alpha, new_depth, 1, false);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;

    /// The quick test never rules out a move that checks: over random games, every legal move
    /// that leaves the opponent in check passes it.
    #[test]
    fn every_checking_move_may_give_check() {
        let mut rng = SplitMix64::new(0x9E37_79B9_7F4A_7C15);
        let mut pos = Position::startpos();
        let mut checks = 0;
        for _ in 0..3000 {
            let legal = pos.legal_moves();
            if legal.is_empty() || pos.halfmove_clock() > 60 {
                pos = Position::startpos();
                continue;
            }
            for &m in legal.iter() {
                let after = pos.after(m);
                if after.in_check() {
                    checks += 1;
                    assert!(may_give_check(&pos, m), "{m} checks in {pos:?}");
                }
            }
            pos.make_move(legal[rng.below(legal.len())]);
        }
        assert!(checks > 100, "only {checks} checking moves seen");
    }
}
