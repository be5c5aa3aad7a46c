//! The search's tuning numbers, each with a name and a line on what it does: pruning
//! margins, reductions, extensions, move-count limits, exchange thresholds, the aspiration
//! window, history bonuses, move-ordering weights and the time-management factors.
//!
//! Depths and plies are in plies; margins and thresholds in centipawns. Changing any of them
//! changes the search, and with it the bench's node count. The numbers tuning may change are
//! fields of [`SearchParams`], declared once with their ranges; the rest are constants.

use crate::history::MAX_PLY;
use crate::score::Score;

/// Declares [`SearchParams`], its defaults and [`TUNABLES`] from one list: each number with
/// its field, its option name, its default and the range tuning may move it in.
macro_rules! search_params {
    ($( $(#[doc = $doc:literal])* $field:ident: $name:literal = $default:literal, $min:literal..=$max:literal; )*) => {
        /// The numbers of the search that tuning may change. [`SearchParams::default`] is
        /// the engine's own setting; `xiangqi uci --tune` offers each as a UCI option named
        /// as in [`TUNABLES`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])* pub $field: i32, )*
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $( $field: $default, )* }
            }
        }

        /// Every tunable number: its option name, default, range and field.
        pub const TUNABLES: &[Tunable] = &[
            $( Tunable { name: $name, default: $default, min: $min, max: $max, field: |p| &mut p.$field }, )*
        ];
    };
}

search_params! {
    // Reverse futility pruning: a non-PV node whose static evaluation stands far above beta
    // with little depth left returns it at once.
    /// Deepest node where reverse futility pruning applies.
    reverse_futility_max_depth: "RfpMaxDepth" = 7, 1..=15;
    /// How far above beta the static evaluation must stand, per ply of depth left.
    reverse_futility_margin: "RfpMargin" = 80, 20..=250;
    /// How much less that margin is, per ply, when the static evaluation is improving.
    reverse_futility_improving: "RfpImproving" = 20, 0..=80;

    // Razoring: a node far below alpha asks the quiescence search whether captures can save
    // it.
    /// Deepest node where razoring applies.
    razor_max_depth: "RazorMaxDepth" = 3, 0..=8;
    /// How far below alpha the static evaluation must stand, per ply of depth left.
    razor_margin: "RazorMargin" = 250, 50..=600;

    // Null-move pruning: passing the move and still failing high shows the node is a cut.
    /// Shallowest node where the null move is tried.
    null_move_min_depth: "NmpMinDepth" = 3, 1..=8;
    /// The null move's reduction before the depth and evaluation terms.
    null_move_reduction: "NmpReduction" = 3, 1..=6;
    /// One more ply of reduction for each this many plies of depth.
    null_move_depth_divisor: "NmpDepthDivisor" = 4, 2..=10;
    /// One more ply of reduction for each this many centipawns the evaluation exceeds beta
    /// by…
    null_move_eval_divisor: "NmpEvalDivisor" = 200, 50..=600;
    /// …up to this many plies.
    null_move_eval_max: "NmpEvalMax" = 2, 0..=5;

    /// Internal iterative reduction: a PV or expected-cut node at least this deep without a
    /// table move searches one ply shallower, since a blind full-depth search is the dearest
    /// kind.
    iir_min_depth: "IirMinDepth" = 6, 2..=12;

    // Late-move pruning: at shallow depth, quiet moves late in the order are skipped.
    /// Deepest node where late quiet moves are skipped.
    late_move_max_depth: "LmpMaxDepth" = 6, 1..=12;
    /// Quiet moves searched before skipping starts are `late_move_base + depth²`, halved
    /// when the static evaluation is not improving.
    late_move_base: "LmpBase" = 3, 0..=12;

    // Futility pruning: a quiet move that even with a margin cannot lift the static
    // evaluation to alpha is skipped.
    /// Deepest node where quiet moves are futility-pruned.
    futility_max_depth: "FutilityMaxDepth" = 6, 1..=12;
    /// The futility margin before the depth term.
    futility_base: "FutilityBase" = 120, 0..=400;
    /// The futility margin per ply of depth left.
    futility_per_depth: "FutilityPerDepth" = 90, 20..=300;

    /// Whether late-move and futility pruning keep quiet moves that check (1) or skip them
    /// like any other quiet move (0: the search the shipped puzzles were proven with).
    quiet_checks_kept: "QuietChecksKept" = 1, 0..=1;
    /// Where the quiescence search also tries quiet moves that check, at its first ply
    /// only: nowhere (0), when razoring asks it whether a position far below alpha holds
    /// (1), or also at every leaf of the main search (2).
    qsearch_checks: "QsearchChecks" = 0, 0..=2;

    // Exchange (SEE) pruning of quiet moves that do not check.
    /// Deepest node where a quiet move that loses material by the exchange is skipped; 0
    /// skips none.
    see_quiet_max_depth: "SeeQuietMaxDepth" = 6, 0..=10;
    /// The material a quiet move may lose, per ply of depth left squared, and still be
    /// searched.
    see_quiet_margin: "SeeQuietMargin" = 25, 5..=100;

    /// Deepest node where a quiet move that did badly after both earlier moves (its
    /// continuation history below zero after each) is skipped; 0 skips none.
    continuation_prune_max_depth: "ContPruneMaxDepth" = 3, 0..=6;

    // Exchange (SEE) pruning of captures.
    /// Deepest node where captures losing material by the static exchange are skipped.
    see_capture_max_depth: "SeeCaptureMaxDepth" = 4, 1..=10;
    /// The material a capture may lose, per ply of depth left, and still be searched.
    see_capture_margin: "SeeCaptureMargin" = 120, 20..=400;
    /// Whether exchange pruning keeps captures that check (1: a sacrifice with check starts
    /// many mates) or skips them like any other losing capture (0).
    capture_checks_kept: "CaptureChecksKept" = 0, 0..=1;

    /// Delta pruning in the quiescence search: a capture is skipped when the standing
    /// evaluation plus the captured piece plus this margin stays at or below alpha.
    delta_margin: "DeltaMargin" = 200, 0..=600;

    // Singular extension: the table move is extended when every other move falls well short
    // of its stored score.
    /// Shallowest node where the table move is tested for singularity.
    singular_min_depth: "SingularMinDepth" = 8, 4..=14;
    /// The stored entry may be at most this many plies shallower than the node.
    singular_table_depth_slack: "SingularDepthSlack" = 3, 1..=6;
    /// How far below the stored score the other moves must stay, per ply of depth.
    singular_margin_per_depth: "SingularMarginPerDepth" = 2, 1..=10;

    /// A check is extended only when the checking move loses no more than this by the
    /// exchange (a sacrifice with check starts many mates).
    check_extension_see_margin: "CheckExtensionSeeMargin" = 0, 0..=1000;

    // Late-move reductions: `lmr_base + ln(depth) ln(move number) / lmr_divisor` plies
    // (both in hundredths), from a table ([`Reductions`]), adjusted per move.
    /// The table's constant term, in hundredths of a ply.
    lmr_base: "LmrBase" = 75, 0..=200;
    /// The divisor of the table's logarithmic term, in hundredths.
    lmr_divisor: "LmrDivisor" = 225, 100..=500;
    /// A quiet move's history moves its reduction one ply for each this much…
    lmr_history_divisor: "LmrHistoryDivisor" = 8000, 1000..=30000;
    /// …by at most this many plies either way.
    lmr_history_max: "LmrHistoryMax" = 2, 0..=4;
    /// Plies of reduction for a late capture that loses material by the exchange (the
    /// picker's last stage), one less when it checks; 0 reduces none.
    lmr_losing_captures: "LmrLosingCaptures" = 1, 0..=3;

    // Aspiration windows around the previous iteration's score.
    /// The window's first half-width.
    aspiration_window: "AspirationWindow" = 30, 5..=150;
    /// After a failure the half-width grows by itself divided by
    /// [`ASPIRATION_GROWTH_DIVISOR`] plus this.
    aspiration_growth_step: "AspirationGrowthStep" = 10, 0..=60;

    // Correction history (`crate::correction`).
    /// The largest correction of the static evaluation either way; 0 turns the correction
    /// off (the puzzle proofs do, so that they stay the searches the puzzles were proven by).
    correction_limit: "CorrectionLimit" = 48, 0..=128;

    // History.
    /// A quiet move that causes a cut gains `depth² × history_bonus_scale` in its history,
    /// and each quiet move tried before it loses as much (the malus).
    history_bonus_scale: "HistoryBonusScale" = 16, 2..=64;
    /// The bonus and malus never exceed this.
    history_bonus_max: "HistoryBonusMax" = 1600, 200..=8000;
}

/// One tunable number of [`SearchParams`].
#[derive(Clone, Copy, Debug)]
pub struct Tunable {
    /// Its UCI option name under `xiangqi uci --tune`.
    pub name: &'static str,
    /// The engine's own value.
    pub default: i32,
    /// The smallest value it may take.
    pub min: i32,
    /// The largest value it may take.
    pub max: i32,
    /// Where it lives in [`SearchParams`].
    pub field: fn(&mut SearchParams) -> &mut i32,
}

/// Why a tunable number could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// The value is not a whole number.
    NotANumber {
        /// The number's name.
        name: &'static str,
        /// The text given.
        value: String,
    },
    /// The value lies outside the number's range.
    OutOfRange {
        /// The number's name.
        name: &'static str,
        /// The value asked for.
        value: i64,
        /// Its smallest value.
        min: i32,
        /// Its largest value.
        max: i32,
    },
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamError::NotANumber { name, value } => {
                write!(f, "{name} needs a whole number, got '{value}'")
            }
            ParamError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(f, "{name} takes {min} to {max}, got {value}"),
        }
    }
}

impl std::error::Error for ParamError {}

impl Tunable {
    /// The tunable number named `name` (case-insensitive, as UCI option names are).
    pub fn named(name: &str) -> Option<&'static Tunable> {
        TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// Sets this number in `params` to `value` given as text, which must be a whole number
    /// in its range.
    pub fn set(&self, params: &mut SearchParams, value: &str) -> Result<(), ParamError> {
        let number = value.parse::<i64>().map_err(|_| ParamError::NotANumber {
            name: self.name,
            value: value.to_string(),
        })?;
        if number < i64::from(self.min) || number > i64::from(self.max) {
            return Err(ParamError::OutOfRange {
                name: self.name,
                value: number,
                min: self.min,
                max: self.max,
            });
        }
        *(self.field)(params) = number as i32;
        Ok(())
    }
}

impl SearchParams {
    /// The history bonus (and malus) of a cut at `depth`.
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (depth * depth * self.history_bonus_scale).min(self.history_bonus_max)
    }
}

/// Late-move reductions by depth and move number, from [`SearchParams::lmr_base`] and
/// [`SearchParams::lmr_divisor`].
pub struct Reductions([[u8; 64]; 64]);

impl Reductions {
    /// The table for `params`.
    pub fn new(params: &SearchParams) -> Reductions {
        let base = f64::from(params.lmr_base) / 100.0;
        let divisor = f64::from(params.lmr_divisor) / 100.0;
        let mut table = [[0u8; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(LMR_MIN_DEPTH as usize) {
            // Move numbers count from 1, and the first move is never reduced.
            for (n, r) in row.iter_mut().enumerate().skip(2) {
                *r = (base + (depth as f64).ln() * (n as f64).ln() / divisor) as u8;
            }
        }
        Reductions(table)
    }

    /// The reduction for `depth` and move number `n`, in plies.
    #[inline]
    pub fn get(&self, depth: i32, n: usize) -> i32 {
        self.0[(depth.max(0) as usize).min(63)][n.min(63)] as i32
    }
}

// The numbers below stay fixed: tuning leaves them alone.

/// A capture the move picker yields early (a good capture) wins at least this much by the
/// exchange; worse ones come after the quiet moves, and the quiescence search never tries
/// them.
pub const GOOD_CAPTURE_SEE_THRESHOLD: Score = 0;

/// The singular test searches the other moves to the node's depth less one, divided by this.
pub const SINGULAR_DEPTH_DIVISOR: i32 = 2;

/// Extensions (checks, singular moves) stop beyond this ply, so that a line of checks cannot
/// run the search into its deepest ply.
pub const EXTENSION_MAX_PLY: usize = 2 * MAX_PLY / 3;

/// Shallowest node where later moves are reduced (also the first row [`Reductions`] fills).
pub const LMR_MIN_DEPTH: i32 = 3;
/// Root moves are reduced this many plies less than the table says.
pub const ROOT_LMR_DISCOUNT: i32 = 1;

/// Shallowest iteration that starts with a narrow aspiration window.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// After a failure the window's half-width grows by itself divided by this (plus
/// [`SearchParams::aspiration_growth_step`]).
pub const ASPIRATION_GROWTH_DIVISOR: Score = 2;

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
pub const PLANNED_MOVES_TO_GO: u32 = 20;
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
pub const SOFT_LIMIT_SHARE: (u32, u32) = (7, 10);

// Time management between iterations (see `soft_limit`).

/// The soft limit's factor by how many iterations the best move has stood (0, 1, 2, 3, 4 or
/// more).
pub const TIME_STABILITY_FACTORS: [f64; 5] = [2.0, 1.4, 1.1, 0.9, 0.75];
/// A falling score lengthens the soft limit by its drop divided by this many centipawns…
pub const TIME_SCORE_DROP_SCALE: f64 = 200.0;
/// …to at most this factor.
pub const TIME_SCORE_DROP_MAX: f64 = 1.5;
