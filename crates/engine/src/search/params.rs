//! The search's tuning numbers, each with a name and a line on what it does: pruning
//! margins, reductions, extensions, move-count limits, exchange thresholds, the aspiration
//! window, history bonuses, move-ordering weights and the time-management factors.
//!
//! Depths and plies are in plies; margins and thresholds in centipawns. Changing any of them
//! changes the search, and with it the bench's node count.

use crate::history::MAX_PLY;
use crate::score::Score;

// Reverse futility pruning: a non-PV node whose static evaluation stands far above beta with
// little depth left returns it at once.

/// Deepest node where reverse futility pruning applies.
pub const REVERSE_FUTILITY_MAX_DEPTH: i32 = 7;
/// How far above beta the static evaluation must stand, per ply of depth left.
pub const REVERSE_FUTILITY_MARGIN: Score = 80;
/// How much less that margin is, per ply, when the static evaluation is improving.
pub const REVERSE_FUTILITY_IMPROVING: Score = 20;

// Razoring: a node far below alpha asks the quiescence search whether captures can save it.

/// Deepest node where razoring applies.
pub const RAZOR_MAX_DEPTH: i32 = 3;
/// How far below alpha the static evaluation must stand, per ply of depth left.
pub const RAZOR_MARGIN: Score = 250;

// Null-move pruning: passing the move and still failing high shows the node is a cut.

/// Shallowest node where the null move is tried.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;
/// The null move's reduction before the depth and evaluation terms.
pub const NULL_MOVE_REDUCTION: i32 = 3;
/// One more ply of reduction for each this many plies of depth.
pub const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;
/// One more ply of reduction for each this many centipawns the evaluation exceeds beta by…
pub const NULL_MOVE_EVAL_DIVISOR: Score = 200;
/// …up to this many plies.
pub const NULL_MOVE_EVAL_MAX: i32 = 2;

/// Internal iterative reduction: a PV or expected-cut node at least this deep without a table
/// move searches one ply shallower, since a blind full-depth search is the dearest kind.
pub const IIR_MIN_DEPTH: i32 = 6;

// Late-move pruning: at shallow depth, quiet moves late in the order are skipped.

/// Deepest node where late quiet moves are skipped.
pub const LATE_MOVE_MAX_DEPTH: i32 = 6;
/// Quiet moves searched before skipping starts are `(LATE_MOVE_BASE + depth²)`, halved when
/// the static evaluation is not improving.
pub const LATE_MOVE_BASE: i32 = 3;

// Futility pruning: a quiet move that even with a margin cannot lift the static evaluation to
// alpha is skipped.

/// Deepest node where quiet moves are futility-pruned.
pub const FUTILITY_MAX_DEPTH: i32 = 6;
/// The futility margin before the depth term.
pub const FUTILITY_BASE: Score = 120;
/// The futility margin per ply of depth left.
pub const FUTILITY_PER_DEPTH: Score = 90;

// Exchange (SEE) thresholds.

/// Deepest node where captures losing material by the static exchange are skipped.
pub const SEE_CAPTURE_MAX_DEPTH: i32 = 4;
/// The material a capture may lose, per ply of depth left, and still be searched.
pub const SEE_CAPTURE_MARGIN: Score = 120;
/// A capture the quiescence search tries must win at least this much by the exchange.
pub const QSEARCH_SEE_THRESHOLD: Score = 0;
/// A check is extended only when the checking move loses no more than this by the exchange.
pub const CHECK_EXTENSION_SEE_THRESHOLD: Score = 0;
/// A capture the move picker yields early (a good capture) wins at least this much by the
/// exchange; worse ones come after the quiet moves.
pub const GOOD_CAPTURE_SEE_THRESHOLD: Score = 0;

/// Delta pruning in the quiescence search: a capture is skipped when the standing evaluation
/// plus the captured piece plus this margin stays at or below alpha.
pub const DELTA_MARGIN: Score = 200;

// Singular extension: the table move is extended when every other move falls well short of
// its stored score.

/// Shallowest node where the table move is tested for singularity.
pub const SINGULAR_MIN_DEPTH: i32 = 8;
/// The stored entry may be at most this many plies shallower than the node.
pub const SINGULAR_TABLE_DEPTH_SLACK: i32 = 3;
/// How far below the stored score the other moves must stay, per ply of depth.
pub const SINGULAR_MARGIN_PER_DEPTH: Score = 2;
/// The test searches the other moves to the node's depth less one, divided by this.
pub const SINGULAR_DEPTH_DIVISOR: i32 = 2;

/// Extensions (checks, singular moves) stop beyond this ply, so that a line of checks cannot
/// run the search into its deepest ply.
pub const EXTENSION_MAX_PLY: usize = 2 * MAX_PLY / 3;

// Late-move reductions: `LMR_BASE + ln(depth) ln(move number) / LMR_DIVISOR` plies, from a
// table, adjusted per move.

/// Shallowest node where later moves are reduced (also the first row the table fills).
pub const LMR_MIN_DEPTH: i32 = 3;
/// The table's constant term.
pub const LMR_BASE: f64 = 0.75;
/// The divisor of the table's logarithmic term.
pub const LMR_DIVISOR: f64 = 2.25;
/// A quiet move's history moves its reduction one ply for each this much…
pub const LMR_HISTORY_DIVISOR: Score = 8000;
/// …by at most this many plies either way.
pub const LMR_HISTORY_MAX: i32 = 2;
/// Root moves are reduced this many plies less than the table says.
pub const ROOT_LMR_DISCOUNT: i32 = 1;

// Aspiration windows around the previous iteration's score.

/// Shallowest iteration that starts with a narrow window.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// The window's first half-width.
pub const ASPIRATION_WINDOW: Score = 30;
/// After a failure the half-width grows by itself divided by this…
pub const ASPIRATION_GROWTH_DIVISOR: Score = 2;
/// …plus this.
pub const ASPIRATION_GROWTH_STEP: Score = 10;

// History.

/// A quiet move that causes a cut gains `depth² × HISTORY_BONUS_SCALE` in its history, and each
/// quiet move tried before it loses as much (the malus).
pub const HISTORY_BONUS_SCALE: i32 = 16;
/// The bonus and malus never exceed this.
pub const HISTORY_BONUS_MAX: i32 = 1600;
/// History entries stay within ± this: a bonus moves an entry less the nearer it is to it.
pub const HISTORY_MAX: i32 = 16_384;
/// At most this many quiet moves tried before a cut are remembered for the malus.
pub const QUIETS_REMEMBERED: usize = 32;

// Capture ordering (most valuable victim, then least valuable attacker).

/// The victim's exchange value counts this many times…
pub const MVV_WEIGHT: i32 = 16;
/// …and the attacker's value, divided by this, is taken off.
pub const LVA_DIVISOR: i32 = 64;

// Time management: the budget for a move on the clock (see `SearchLimits::time_budget`).
// Shares are fractions of a duration, (numerator, denominator).

/// Moves left to plan for when the time control does not say.
pub const PLANNED_MOVES_TO_GO: u32 = 24;
/// Plan for at most this many moves left, however many the time control names.
pub const MOVES_TO_GO_MAX: u32 = 40;
/// The target is the usable time split over the moves left plus this many.
pub const MOVES_TO_GO_RESERVE: u32 = 2;
/// The share of the increment the target adds.
pub const INCREMENT_SHARE: (u32, u32) = (3, 4);
/// The target is never more than this share of the usable time…
pub const TARGET_CAP_SHARE: (u32, u32) = (1, 5);
/// …or this share before the last move of the control.
pub const LAST_MOVE_CAP_SHARE: (u32, u32) = (1, 2);
/// The hard limit is this many times the target…
pub const HARD_LIMIT_TARGETS: u32 = 4;
/// …but never more than this share of the usable time.
pub const HARD_LIMIT_CAP_SHARE: (u32, u32) = (2, 5);
/// No iteration starts after this share of the target (a late one rarely finishes in time).
pub const SOFT_LIMIT_SHARE: (u32, u32) = (3, 5);

// Time management between iterations (see `soft_limit`).

/// The soft limit's factor by how many iterations the best move has stood (0, 1, 2, 3, 4 or
/// more).
pub const TIME_STABILITY_FACTORS: [f64; 5] = [2.0, 1.4, 1.1, 0.9, 0.75];
/// A falling score lengthens the soft limit by its drop divided by this many centipawns…
pub const TIME_SCORE_DROP_SCALE: f64 = 200.0;
/// …to at most this factor.
pub const TIME_SCORE_DROP_MAX: f64 = 1.5;
