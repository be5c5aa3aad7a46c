//! What bounds a search (depth, nodes, time, mate) and how much of the clock to spend.

use crate::search::params::{
    HARD_LIMIT_CAP_SHARE, HARD_LIMIT_TARGETS, INCREMENT_SHARE, LAST_MOVE_CAP_SHARE,
    MOVES_TO_GO_MAX, MOVES_TO_GO_RESERVE, PLANNED_MOVES_TO_GO, SOFT_LIMIT_SHARE, TARGET_CAP_SHARE,
};
use std::time::Duration;

/// `(numerator, denominator)` of `d`.
fn share(d: Duration, (numerator, denominator): (u32, u32)) -> Duration {
    d * numerator / denominator
}

/// The limits a `go` command sets. Unset fields do not limit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration.
    pub depth: Option<i32>,
    /// Node budget (summed over threads).
    pub nodes: Option<u64>,
    /// Exact time to think.
    pub movetime: Option<Duration>,
    /// Time left on the mover's clock.
    pub time_left: Option<Duration>,
    /// Increment per move for the mover.
    pub increment: Duration,
    /// Moves to the next time control.
    pub moves_to_go: Option<u32>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Pondering: search until `ponderhit` turns this into a normal search, or `stop`.
    pub ponder: bool,
    /// The longest the search may take, whatever the other limits say (a server's cap on
    /// what a request may ask for); like every time limit, not while pondering.
    pub max_time: Option<Duration>,
}

/// The time a search may take: a soft target checked between iterations and a hard cap
/// checked inside the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start another iteration after this (equal to `hard` for a fixed move time).
    pub soft: Duration,
    /// Stop at once after this.
    pub hard: Duration,
}

impl SearchLimits {
    /// The search's time budget, or `None` when time does not limit it. `overhead` is kept
    /// back for communication delays.
    pub fn time_budget(&self, overhead: Duration) -> Option<TimeBudget> {
        let budget = self.clock_budget(overhead);
        let Some(cap) = self.max_time else {
            return budget;
        };
        let cap = cap.max(Duration::from_millis(1));
        Some(match budget {
            Some(b) => TimeBudget {
                soft: b.soft.min(cap),
                hard: b.hard.min(cap),
            },
            None => TimeBudget {
                soft: cap,
                hard: cap,
            },
        })
    }

    /// The budget from the clock, the move time or neither, before [`SearchLimits::max_time`].
    fn clock_budget(&self, overhead: Duration) -> Option<TimeBudget> {
        if self.infinite {
            return None;
        }
        if let Some(t) = self.movetime {
            let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
            return Some(TimeBudget { soft: t, hard: t });
        }
        let left = self.time_left?;
        let usable = left.saturating_sub(overhead).max(Duration::from_millis(1));
        let moves = self
            .moves_to_go
            .unwrap_or(PLANNED_MOVES_TO_GO)
            .clamp(1, MOVES_TO_GO_MAX);
        let base = usable / (moves + MOVES_TO_GO_RESERVE) + share(self.increment, INCREMENT_SHARE);
        let cap = if moves == 1 {
            share(usable, LAST_MOVE_CAP_SHARE)
        } else {
            share(usable, TARGET_CAP_SHARE)
        };
        let target = base.min(cap).max(Duration::from_millis(1));
        let hard = (target * HARD_LIMIT_TARGETS)
            .min(share(usable, HARD_LIMIT_CAP_SHARE))
            .max(target);
        Some(TimeBudget {
            soft: share(target, SOFT_LIMIT_SHARE),
            hard,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_cap_bounds_every_budget() {
        let cap = Duration::from_secs(60);
        let long_clock = SearchLimits {
            time_left: Some(Duration::from_secs(5 * 3600)),
            max_time: Some(cap),
            ..Default::default()
        };
        let b = long_clock.time_budget(Duration::ZERO).unwrap();
        assert!(b.hard <= cap && b.soft <= cap, "{b:?}");
        let depth_only = SearchLimits {
            depth: Some(60),
            max_time: Some(cap),
            ..Default::default()
        };
        assert_eq!(
            depth_only.time_budget(Duration::ZERO),
            Some(TimeBudget {
                soft: cap,
                hard: cap
            })
        );
        let short = SearchLimits {
            movetime: Some(Duration::from_millis(300)),
            max_time: Some(cap),
            ..Default::default()
        };
        assert_eq!(
            short.time_budget(Duration::ZERO).unwrap().hard,
            Duration::from_millis(300),
            "a shorter limit stands"
        );
    }

    #[test]
    fn movetime_is_exact_less_overhead() {
        let limits = SearchLimits {
            movetime: Some(Duration::from_millis(1000)),
            ..Default::default()
        };
        let b = limits.time_budget(Duration::from_millis(10)).unwrap();
        assert_eq!(b.hard, Duration::from_millis(990));
    }

    #[test]
    fn short_clock_is_never_overspent() {
        let limits = SearchLimits {
            time_left: Some(Duration::from_millis(1000)),
            increment: Duration::from_millis(10),
            ..Default::default()
        };
        let b = limits.time_budget(Duration::from_millis(10)).unwrap();
        assert!(b.hard <= Duration::from_millis(400));
        assert!(b.soft >= Duration::from_millis(10));
        let nearly_out = SearchLimits {
            time_left: Some(Duration::from_millis(15)),
            ..Default::default()
        };
        let b = nearly_out.time_budget(Duration::from_millis(10)).unwrap();
        assert!(b.hard <= Duration::from_millis(5));
    }

    #[test]
    fn infinite_has_no_budget() {
        let limits = SearchLimits {
            infinite: true,
            ..Default::default()
        };
        assert_eq!(limits.time_budget(Duration::ZERO), None);
    }
}
