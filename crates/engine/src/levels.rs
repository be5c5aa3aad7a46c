//! Playing levels for learners: `Skill Level` 0–20 and `UCI_LimitStrength`/`UCI_Elo`.
//!
//! A level below 20 searches shallowly and within a small node budget, looks at several
//! candidate moves, and picks among those whose score is close to the best, with more
//! freedom at lower levels. It never picks a move scored far below the best, so it does not
//! hang pieces at random: its mistakes are the ones a shallow search makes, tactics beyond its
//! horizon. Level 20 is full strength.

use crate::score::{Reported, Score};
use crate::search::SearchInfo;
use std::time::Duration;
use xiangqi_rules::Move;

/// The strongest level: no handicap.
pub const MAX_LEVEL: u32 = 20;
/// Lowest and highest `UCI_Elo` accepted.
pub const ELO_RANGE: (u32, u32) = (800, 2600);
/// The longest a level below full strength thinks about a move: learners do not wait.
pub const LONGEST_THINK: Duration = Duration::from_secs(1);

/// The playing levels' ladder as measured: `(level, Elo above level 0)`, chained from matches
/// of each listed level against the one listed before it (`scripts/level-ladder`, and a
/// 10 s + 0.1 s clock for levels 18 and 20; `docs/results.md`, "Playing levels"). The labels
/// are placed by it ([`Level::label_elo`]).
pub const MEASURED_LADDER: [(u32, u32); 12] = [
    (0, 0),
    (1, 228),
    (2, 564),
    (4, 902),
    (6, 1221),
    (8, 1603),
    (10, 1941),
    (12, 2260),
    (14, 2667),
    (16, 2952),
    (18, 3110),
    (MAX_LEVEL, 3546),
];

/// A level's Elo above level 0 on the [`MEASURED_LADDER`]; a level it does not list lies on the
/// straight line between the listed levels around it.
fn measured_elo(level: u32) -> f64 {
    let level = level.min(MAX_LEVEL);
    let above = MEASURED_LADDER
        .iter()
        .position(|&(listed, _)| listed >= level)
        .unwrap_or(MEASURED_LADDER.len() - 1);
    let (high, high_elo) = MEASURED_LADDER[above];
    if high == level || above == 0 {
        return f64::from(high_elo);
    }
    let (low, low_elo) = MEASURED_LADDER[above - 1];
    let share = f64::from(level - low) / f64::from(high - low);
    f64::from(low_elo) + share * (f64::from(high_elo) - f64::from(low_elo))
}

/// A level the app names for learners: its key, its English name and its level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedLevel {
    /// The key the page words it by: `beginner` … `full`.
    pub key: &'static str,
    /// The name in English, e.g. `Club player`.
    pub name: &'static str,
    /// The level.
    pub level: u32,
}

/// The named levels, weakest first.
pub const NAMED_LEVELS: [NamedLevel; 6] = [
    NamedLevel {
        key: "beginner",
        name: "Beginner",
        level: 0,
    },
    NamedLevel {
        key: "casual",
        name: "Casual",
        level: 4,
    },
    NamedLevel {
        key: "club",
        name: "Club player",
        level: 8,
    },
    NamedLevel {
        key: "strong",
        name: "Strong",
        level: 12,
    },
    NamedLevel {
        key: "expert",
        name: "Expert",
        level: 16,
    },
    NamedLevel {
        key: "full",
        name: "Full strength",
        level: MAX_LEVEL,
    },
];

/// How one level limits the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// 0 (weakest) to 20 (full strength).
    pub level: u32,
}

impl Level {
    /// Level `level`, capped at 20.
    pub fn new(level: u32) -> Level {
        Level {
            level: level.min(MAX_LEVEL),
        }
    }

    /// The level for a requested Elo (`UCI_Elo`): the level below full strength whose label
    /// ([`Level::label_elo`]) is nearest, the weaker one on a tie.
    pub fn from_elo(elo: u32) -> Level {
        let (lo, hi) = ELO_RANGE;
        let elo = elo.clamp(lo, hi);
        (0..MAX_LEVEL)
            .map(Level::new)
            .min_by_key(|level| level.label_elo().abs_diff(elo))
            .unwrap_or(Level::new(0))
    }

    /// The approximate Elo the app's labels give this level, to the nearest 10: the
    /// [`MEASURED_LADDER`] stretched onto [`ELO_RANGE`], level 0 at its low end (a beginner who
    /// knows the rules) and full strength at its high end, each level in between as far up as
    /// its measured Elo above level 0 is up the ladder (`Beginner (~800)` … `Full strength
    /// (~2600)`).
    pub fn label_elo(self) -> u32 {
        let (lo, hi) = ELO_RANGE;
        let top = MEASURED_LADDER[MEASURED_LADDER.len() - 1].1;
        let measured = measured_elo(self.level);
        let label = f64::from(lo) + f64::from(hi - lo) * measured / f64::from(top);
        (label / 10.0).round() as u32 * 10
    }

    /// The level's name, when it is one of the [`NAMED_LEVELS`].
    pub fn named(self) -> Option<&'static NamedLevel> {
        NAMED_LEVELS.iter().find(|n| n.level == self.level)
    }

    /// The level as the app labels it in English, with its approximate Elo: `Beginner (~800)`,
    /// or `Level 5 (~1250)` for a level without a name.
    pub fn label(self) -> String {
        let elo = self.label_elo();
        match self.named() {
            Some(named) => format!("{} (~{elo})", named.name),
            None => format!("Level {} (~{elo})", self.level),
        }
    }

    /// Whether the level plays at full strength.
    pub fn is_full_strength(self) -> bool {
        self.level >= MAX_LEVEL
    }

    /// Deepest iteration at this level.
    pub fn depth_limit(self) -> Option<i32> {
        (!self.is_full_strength()).then(|| 1 + self.level as i32 / 2)
    }

    /// Node budget at this level: 1,000 at level 0, doubling every two levels.
    pub fn node_limit(self) -> Option<u64> {
        (!self.is_full_strength())
            .then(|| (1000.0 * 2f64.powf(self.level as f64 / 2.0)).round() as u64)
    }

    /// Whether this level evaluates with the network when one is in use. Level 0 keeps the
    /// handcrafted evaluation: with the network it played about 140 Elo stronger than it was
    /// measured and labelled (`docs/results.md`, "Playing levels"), and the first level a
    /// beginner meets should stay as gentle as that; from level 1 the network's gain is the
    /// step to the next level.
    pub fn uses_network(self) -> bool {
        self.level > 0
    }

    /// Lines searched to choose from: several at the low levels, one near the top, where
    /// splitting the budget between lines would cost more strength than the level should.
    pub fn candidate_lines(self) -> usize {
        match self.level {
            0..=12 => 4,
            13..=16 => 2,
            _ => 1,
        }
    }

    /// How far below the best score a move may be and still be chosen, in centipawns.
    pub fn margin(self) -> Score {
        if self.is_full_strength() {
            0
        } else {
            (20 - self.level as Score) * 8
        }
    }

    /// Picks the move to play from `lines` (best first), using `random` in 0..1.
    pub fn choose(self, lines: &[SearchInfo], random: f64) -> Option<Move> {
        let best = lines.first()?;
        // A mate, either way, is no place for mistakes on purpose.
        let Reported::Cp(best_cp) = best.score else {
            return best.pv.first().copied();
        };
        if self.is_full_strength() {
            return best.pv.first().copied();
        }
        let margin = self.margin();
        // Each candidate with how far it falls short of the best.
        let candidates: Vec<(&SearchInfo, Score)> = lines
            .iter()
            .filter(|l| !l.pv.is_empty())
            .filter_map(|l| match l.score {
                Reported::Cp(cp) if cp >= best_cp - margin => Some((l, best_cp - cp)),
                _ => None,
            })
            .collect();
        // Closer to the best is likelier: weight falls linearly to the edge of the margin.
        let weights: Vec<f64> = candidates
            .iter()
            .map(|&(_, shortfall)| 1.0 + (margin - shortfall) as f64 / margin.max(1) as f64)
            .collect();
        let total: f64 = weights.iter().sum();
        let mut pick = random.clamp(0.0, 0.999_999) * total;
        for ((line, _), w) in candidates.iter().zip(&weights) {
            if pick < *w {
                return line.pv.first().copied();
            }
            pick -= w;
        }
        best.pv.first().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_labelled_with_their_name_and_elo() {
        assert_eq!(Level::new(0).label(), "Beginner (~800)");
        assert_eq!(Level::new(MAX_LEVEL).label(), "Full strength (~2600)");
        // Level 8 stands 1603 Elo above level 0 on a ladder of 3546: 800 + 1800 × 1603 / 3546.
        assert_eq!(Level::new(8).label(), "Club player (~1610)");
        // Level 3 is not measured: halfway between level 2 (564) and level 4 (902).
        assert_eq!(Level::new(3).label_elo(), 1170);
        assert_eq!(Level::new(16).named().map(|n| n.key), Some("expert"));
    }

    #[test]
    fn labels_rise_with_the_level_from_one_end_of_the_range_to_the_other() {
        assert!(
            MEASURED_LADDER
                .windows(2)
                .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1)
        );
        assert_eq!(MEASURED_LADDER[0], (0, 0));
        assert_eq!(MEASURED_LADDER[MEASURED_LADDER.len() - 1].0, MAX_LEVEL);
        let labels: Vec<u32> = (0..=MAX_LEVEL).map(|l| Level::new(l).label_elo()).collect();
        assert!(labels.windows(2).all(|w| w[0] < w[1]), "{labels:?}");
        assert_eq!((labels[0], labels[MAX_LEVEL as usize]), ELO_RANGE);
    }

    fn line(score: Score, m: &str) -> SearchInfo {
        let mv = m.parse::<Move>().unwrap();
        SearchInfo {
            depth: 3,
            seldepth: 3,
            multipv: 1,
            score: Reported::Cp(score),
            bound: None,
            nodes: 0,
            elapsed: Duration::ZERO,
            hashfull: 0,
            pv: vec![mv],
        }
    }

    #[test]
    fn elo_maps_onto_levels() {
        assert_eq!(Level::from_elo(0).level, 0);
        assert_eq!(Level::from_elo(2600).level, 19);
        for level in 0..MAX_LEVEL {
            assert_eq!(Level::from_elo(Level::new(level).label_elo()).level, level);
        }
        // 1500 lies between level 6 (~1420) and level 7 (~1520), nearer the second.
        assert_eq!(Level::from_elo(1500).level, 7);
    }

    #[test]
    fn full_strength_takes_the_best() {
        let lines = [line(50, "h2e2"), line(45, "b2e2")];
        for r in [0.0, 0.5, 0.99] {
            assert_eq!(
                Level::new(20).choose(&lines, r),
                lines[0].pv.first().copied()
            );
        }
    }

    #[test]
    fn weak_levels_take_a_mate_and_never_walk_into_one() {
        let mut mating = [line(0, "h2e2"), line(0, "b2e2")];
        mating[0].score = Reported::Mate(2);
        let mut mated = [line(10, "h2e2"), line(0, "b2e2")];
        mated[1].score = Reported::Mate(-3);
        for i in 0..100 {
            let r = i as f64 / 100.0;
            assert_eq!(Level::new(0).choose(&mating, r), Some(mating[0].pv[0]));
            assert_eq!(Level::new(0).choose(&mated, r), Some(mated[0].pv[0]));
        }
    }

    #[test]
    fn weak_levels_never_pick_a_blunder() {
        // The third line drops a horse; no level may choose it.
        let lines = [line(50, "h2e2"), line(20, "b2e2"), line(-350, "h0g2")];
        for level in 0..20 {
            for i in 0..100 {
                let m = Level::new(level).choose(&lines, i as f64 / 100.0).unwrap();
                assert_ne!(m, lines[2].pv[0], "level {level}");
            }
        }
        // Level 0 sometimes takes the second-best move.
        let picks: Vec<_> = (0..100)
            .map(|i| Level::new(0).choose(&lines, i as f64 / 100.0).unwrap())
            .collect();
        assert!(picks.contains(&lines[1].pv[0]));
    }
}
