//! Repetitions, perpetual checks and perpetual chases, under two rule sets.
//!
//! - [`classify`] tells what one move does: check, chase (naming the chased pieces) or idle,
//!   with the definitions of attack, real and fake protection and the exemptions set out in
//!   that module.
//! - [`judge_cycle`] rules on a repeated cycle of moves; it needs only the current position
//!   and the moves since its earlier occurrence, so a search can call it at a node
//!   ([`repetition_distance`] finds the cycle in the hashes since the last capture).
//! - [`Verdict`] is a ruling as data, with an English `Display`.
//! - The rule sets: [`RuleSet::Asian`] (the AXF/WXF rules, the default) judges a position
//!   repeated three times; [`RuleSet::Cxq`] counts runs of checks and attacks instead.
//!
//! A [`crate::game::Game`] puts it together with mate, stalemate and the draw rules.

mod asian;
mod classify;
mod cxq;
mod cycle;
mod verdict;

pub use classify::{MAX_THREATS, MoveClass, MoveKind, Threat, classify, classify_played};
pub(crate) use cxq::CxqTracker;
pub use cxq::{MOVES_PER_PIECE, perpetual_limit};
pub use cycle::{Conduct, CycleJudgement, judge_cycle, repetition_distance};
pub(crate) use cycle::{PieceIds, judge_classes};
pub use verdict::{MoveRange, PlacedPiece, Verdict, VerdictKind};

use std::fmt;
use std::str::FromStr;

/// Which rule book judges perpetual checks and chases and declares draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RuleSet {
    /// The Asian Xiangqi Federation / WXF rules: a position repeated three times is judged;
    /// perpetual check or chase of an unprotected piece loses, any other repetition draws;
    /// 60 moves each without a capture, or no mating material on either side, draw.
    #[default]
    Asian,
    /// The Club Xiangqi (CXQ) rules: 6, 12 or 18 checks or attacks in a row with one, two or
    /// three pieces count as perpetual; automatic draws by efficiency, progress and length.
    Cxq,
}

impl RuleSet {
    /// Both rule sets, the default first.
    pub const ALL: [RuleSet; 2] = [RuleSet::Asian, RuleSet::Cxq];

    /// The name used on command lines: `asian` or `cxq`.
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Asian => "asian",
            RuleSet::Cxq => "cxq",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule set name that is neither `asian` nor `cxq`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRuleSet(pub String);

impl fmt::Display for UnknownRuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rule set {:?}: expected asian or cxq", self.0)
    }
}

impl std::error::Error for UnknownRuleSet {}

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;

    /// Reads `asian` (also `axf`, `wxf`) or `cxq`, in any case.
    fn from_str(s: &str) -> Result<RuleSet, UnknownRuleSet> {
        match s.trim().to_ascii_lowercase().as_str() {
            "asian" | "axf" | "wxf" => Ok(RuleSet::Asian),
            "cxq" => Ok(RuleSet::Cxq),
            _ => Err(UnknownRuleSet(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_set_names_round_trip() {
        for r in RuleSet::ALL {
            assert_eq!(r.name().parse::<RuleSet>(), Ok(r));
        }
        assert_eq!("AXF".parse::<RuleSet>(), Ok(RuleSet::Asian));
        assert!("chinese".parse::<RuleSet>().is_err());
        assert_eq!(RuleSet::default(), RuleSet::Asian);
    }
}
