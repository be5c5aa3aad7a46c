//! A puzzle's difficulty from how hard the engine finds it, and its rating fitted to a set.
//!
//! **The search score.** Two measures, both taken with the table cleared, one thread, one
//! line:
//! - **settle depth** `d`: the depth from which the engine's best first move is the
//!   solution's and stays so up to [`RATING_DEPTH`] (one more than that when it never does);
//! - **failing tries** `t`: the other first moves that look good — every check and capture,
//!   and every move the engine preferred at some depth before it settled — counted up to
//!   [`MAX_TRIES`];
//! - **nodes** `n`: what the search looked at until the end of the settle depth.
//!
//! With `s` the solver's moves in the solution, the search score is
//! `600 + 110·(d − 1) + 40·t + 60·(s − 1) + 20·log2(n / 1000)` (the last term only above
//! 1,000 nodes), clamped to 600–2400: it never falls when the engine needs to look deeper or
//! wider, when more tempting moves fail, or when the line is longer.
//! The mined files keep this score in their rating column.
//!
//! **The difficulty score** adds what a human finds hard and a searcher does not: the
//! material the solver gives away before the win (a fifth of its exchange value: a chariot
//! given up adds 180) and a quiet first move (100), see [`difficulty_score`].
//!
//! **The rating** maps the difficulty score onto 600–2400 by a [`RatingFit`] made from the
//! shipped set: each score is rated by where it stands among the set's scores (its share
//! of the set below it, and half the share of the scores equal to it), so that the set
//! spreads evenly over the scale and a harder score never rates lower.

use super::motifs::is_quiet_move;
use super::tactic::{ProofEngine, material_balance};
use std::collections::BTreeSet;
use std::fmt;
use std::sync::OnceLock;
use xiangqi_rules::{Move, Position};

/// The deepest search the rating looks at.
pub const RATING_DEPTH: i32 = 9;
/// The most failing tries counted.
pub const MAX_TRIES: u32 = 12;
/// The easiest rating.
pub const MIN_RATING: u32 = 600;
/// The hardest rating.
pub const MAX_RATING: u32 = 2400;

/// What the rating is computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difficulty {
    /// The depth from which the engine keeps the solution's first move.
    pub settle_depth: u32,
    /// Tempting first moves that fail.
    pub failing_tries: u32,
    /// The solver's moves in the solution.
    pub solver_moves: u32,
    /// The nodes searched until the end of the settle depth.
    pub nodes: u64,
}

/// Points of the search score for each doubling of the nodes above 1,000.
pub const NODES_WEIGHT: f64 = 20.0;

impl Difficulty {
    /// The search score on the 600–2400 scale (see the module docs).
    pub fn score(self) -> u32 {
        let wide = (NODES_WEIGHT * (self.nodes.max(1000) as f64 / 1000.0).log2()).round() as u32;
        let raw = 600
            + 110 * self.settle_depth.saturating_sub(1)
            + 40 * self.failing_tries.min(MAX_TRIES)
            + 60 * self.solver_moves.saturating_sub(1)
            + wide;
        raw.clamp(MIN_RATING, MAX_RATING)
    }
}

/// Measures the difficulty of the puzzle at `position` with solution `line`.
pub fn measure(engine: &ProofEngine, position: &Position, line: &[Move]) -> Difficulty {
    let key = line[0];
    let by_depth = engine.best_by_depth(position, RATING_DEPTH);
    let settle = match by_depth.iter().rposition(|&(m, _)| m != key) {
        None if by_depth.is_empty() => RATING_DEPTH as u32 + 1,
        None => 1,
        Some(last_wrong) => last_wrong as u32 + 2,
    };
    // The nodes until the settle depth ends (all of them when it never settles).
    let nodes = by_depth
        .get(settle as usize - 1)
        .or(by_depth.last())
        .map_or(0, |&(_, n)| n);
    let mut tries: BTreeSet<Move> = by_depth
        .iter()
        .map(|&(m, _)| m)
        .filter(|&m| m != key)
        .collect();
    let mut pos = position.clone();
    for &m in position.legal_moves().iter() {
        if m == key {
            continue;
        }
        let capture = pos.piece_at(m.to()).is_some();
        let undo = pos.make_move(m);
        let check = pos.in_check();
        pos.unmake_move(m, undo);
        if capture || check {
            tries.insert(m);
        }
    }
    Difficulty {
        settle_depth: settle,
        failing_tries: (tries.len() as u32).min(MAX_TRIES),
        solver_moves: line.len().div_ceil(2) as u32,
        nodes,
    }
}

/// The most material the solver is down, against the start, after any move of `line` from
/// `position` (exchange values; 0 when it never is).
pub fn material_offered(position: &Position, line: &[Move]) -> i32 {
    let solver = position.side_to_move();
    let start = material_balance(position, solver);
    let mut pos = position.clone();
    let mut offered = 0;
    for &m in line {
        pos.make_move(m);
        offered = offered.max(start - material_balance(&pos, solver));
    }
    offered
}

/// The difficulty score of the puzzle at `position` with solution `line` whose search score
/// is `search_score` (see the module docs).
pub fn difficulty_score(search_score: u32, position: &Position, line: &[Move]) -> u32 {
    let offered = u32::try_from(material_offered(position, line) / 5).unwrap_or(0);
    let quiet = if is_quiet_move(position, line) {
        100
    } else {
        0
    };
    search_score + offered + quiet
}

/// The rating, on the shipped set's scale, of a puzzle just mined: `puzzle.rating` holds its
/// search score (as the miner writes it).
pub fn rate_mined(puzzle: &super::Puzzle) -> Result<u32, &'static BadFit> {
    let score = difficulty_score(puzzle.rating, &puzzle.position, &puzzle.moves);
    Ok(RatingFit::shipped()?.rate(score))
}

/// A map of difficulty scores onto ratings (see the module docs): knots of a score and its
/// rating, the scores rising, linear between knots and flat beyond the ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingFit {
    knots: Vec<(u32, u32)>,
}

/// A rating fit that cannot be read, with the line and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadFit {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong there.
    pub why: String,
}

impl fmt::Display for BadFit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rating fit line {}: {}", self.line, self.why)
    }
}

impl std::error::Error for BadFit {}

/// The fit of the shipped set as text: `score<TAB>rating` a line, `#` comments.
pub const SHIPPED_FIT_TSV: &str = include_str!("../../puzzles/rating-fit.tsv");

impl RatingFit {
    /// The fit that spreads `scores` evenly over 600–2400; `None` when there are none.
    pub fn fit(scores: impl IntoIterator<Item = u32>) -> Option<RatingFit> {
        let mut scores: Vec<u32> = scores.into_iter().collect();
        if scores.is_empty() {
            return None;
        }
        scores.sort_unstable();
        let n = scores.len() as f64;
        let span = f64::from(MAX_RATING - MIN_RATING);
        let mut knots = Vec::new();
        let mut below = 0;
        for run in scores.chunk_by(|a, b| a == b) {
            let middle = (below as f64 + run.len() as f64 / 2.0) / n;
            knots.push((run[0], MIN_RATING + (span * middle).round() as u32));
            below += run.len();
        }
        Some(RatingFit { knots })
    }

    /// The rating of a puzzle with difficulty score `score`.
    pub fn rate(&self, score: u32) -> u32 {
        let at = self.knots.partition_point(|&(s, _)| s < score);
        match (at.checked_sub(1).map(|i| self.knots[i]), self.knots.get(at)) {
            (_, Some(&(s, r))) if s == score => r,
            (Some((s0, r0)), Some(&(s1, r1))) => {
                let t = f64::from(score - s0) / f64::from(s1 - s0);
                (f64::from(r0) + t * (f64::from(r1) - f64::from(r0))).round() as u32
            }
            (None, Some(&(_, r))) | (Some((_, r)), None) => r,
            (None, None) => MIN_RATING,
        }
    }

    /// Reads a fit written by [`RatingFit::to_text`].
    pub fn parse(text: &str) -> Result<RatingFit, BadFit> {
        let mut knots: Vec<(u32, u32)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let bad = |why: String| BadFit { line: i + 1, why };
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let (score, rating) = line
                .split_once('\t')
                .ok_or_else(|| bad("expected `score<TAB>rating`".to_string()))?;
            let number = |field: &str, what: &str| {
                field
                    .trim()
                    .parse::<u32>()
                    .map_err(|_| bad(format!("the {what} `{field}` is not a whole number")))
            };
            let (score, rating) = (number(score, "score")?, number(rating, "rating")?);
            if !(MIN_RATING..=MAX_RATING).contains(&rating) {
                return Err(bad(format!(
                    "the rating {rating} is outside {MIN_RATING}–{MAX_RATING}"
                )));
            }
            if let Some(&(s, r)) = knots.last()
                && (score <= s || rating < r)
            {
                return Err(bad(format!(
                    "knots must rise: {score}→{rating} after {s}→{r}"
                )));
            }
            knots.push((score, rating));
        }
        if knots.is_empty() {
            return Err(BadFit {
                line: text.lines().count(),
                why: "no knots".to_string(),
            });
        }
        Ok(RatingFit { knots })
    }

    /// The fit as text: a comment, then `score<TAB>rating` a line.
    pub fn to_text(&self) -> String {
        let mut out = String::from(
            "# The rating of each difficulty score of the shipped puzzles (score<TAB>rating), \
             made by `xiangqi puzzles assemble`\n",
        );
        for (s, r) in &self.knots {
            out.push_str(&format!("{s}\t{r}\n"));
        }
        out
    }

    /// The fit of the shipped set, read once. It is checked by the crate's tests, so a file
    /// that cannot be read is a build defect, reported here.
    pub fn shipped() -> Result<&'static RatingFit, &'static BadFit> {
        static FIT: OnceLock<Result<RatingFit, BadFit>> = OnceLock::new();
        FIT.get_or_init(|| RatingFit::parse(SHIPPED_FIT_TSV))
            .as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_crowded_at_the_easy_end_spreads_over_the_scale() {
        // Like the mined scores: most near 600–800, a thin tail.
        let mut scores = Vec::new();
        for (score, n) in [(600, 90), (640, 110), (680, 100), (720, 95), (760, 60)] {
            scores.extend(std::iter::repeat_n(score, n));
        }
        scores.extend((0..300).map(|i| 780 + i * 5));
        scores.extend((0..100).map(|i| 1400 + i * 10));
        let fit = RatingFit::fit(scores.iter().copied()).unwrap();
        let mut bands = [0usize; 9];
        for &s in &scores {
            let r = fit.rate(s);
            assert!((MIN_RATING..=MAX_RATING).contains(&r));
            bands[((r - MIN_RATING) / 200).min(8) as usize] += 1;
        }
        for (i, &n) in bands.iter().enumerate() {
            assert!(n * 5 <= scores.len(), "band {i}: {n} of {}", scores.len());
        }
        // Never lower for a harder score, also between and beyond the knots.
        let rated: Vec<u32> = (500..2600).map(|s| fit.rate(s)).collect();
        assert!(rated.windows(2).all(|w| w[0] <= w[1]));
        // And it reads back from its text.
        assert_eq!(RatingFit::parse(&fit.to_text()), Ok(fit));
    }

    #[test]
    fn a_bad_fit_file_says_which_line_and_why() {
        let err = RatingFit::parse("# c\n600\t600\n500\t700\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.why.contains("rise"), "{err}");
        let err = RatingFit::parse("600 600\n").unwrap_err();
        assert_eq!(err.line, 1);
        let err = RatingFit::parse("600\t3000\n").unwrap_err();
        assert!(err.why.contains("outside"), "{err}");
        assert!(RatingFit::parse("# nothing\n").is_err());
    }

    #[test]
    fn the_shipped_fit_reads_and_rates_every_shipped_score_range() {
        let fit = RatingFit::shipped().unwrap();
        assert!(fit.rate(0) >= MIN_RATING && fit.rate(u32::MAX / 2) <= MAX_RATING);
    }

    #[test]
    fn giving_material_away_and_a_quiet_start_make_a_puzzle_harder() {
        // The chariot checks on d8 and the general takes it: a chariot given.
        let position = Position::from_fen("3k5/R3a4/9/9/9/9/9/9/9/4K4 w").unwrap();
        let line: Vec<Move> = ["a8d8", "d9d8"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        assert_eq!(material_offered(&position, &line), 900);
        assert_eq!(difficulty_score(700, &position, &line), 700 + 180);
        // A quiet first move adds its share.
        let position = Position::from_fen("9/4k4/9/9/9/9/9/9/9/R2K5 w").unwrap();
        let line: Vec<Move> = ["a0a7", "e8e9", "a7a9"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        assert_eq!(difficulty_score(700, &position, &line), 800);
    }

    #[test]
    fn the_rating_grows_with_each_measure_and_stays_in_range() {
        let base = Difficulty {
            settle_depth: 3,
            failing_tries: 2,
            solver_moves: 2,
            nodes: 4_000,
        };
        let deeper = Difficulty {
            settle_depth: 5,
            ..base
        };
        let tempting = Difficulty {
            failing_tries: 6,
            ..base
        };
        let longer = Difficulty {
            solver_moves: 3,
            ..base
        };
        let wider = Difficulty {
            nodes: 64_000,
            ..base
        };
        assert_eq!(
            wider.score() - base.score(),
            80,
            "four doublings of the nodes"
        );
        for harder in [deeper, tempting, longer, wider] {
            assert!(harder.score() > base.score());
        }
        let easiest = Difficulty {
            settle_depth: 1,
            failing_tries: 0,
            solver_moves: 1,
            nodes: 30,
        };
        assert_eq!(easiest.score(), MIN_RATING);
        let hardest = Difficulty {
            settle_depth: 40,
            failing_tries: 40,
            solver_moves: 5,
            nodes: u64::MAX,
        };
        assert_eq!(hardest.score(), MAX_RATING);
    }
}
