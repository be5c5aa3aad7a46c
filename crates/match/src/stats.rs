//! Match statistics from the first engine's point of view: wins, draws and losses, the
//! pentanomial counts of game pairs, and from them the Elo difference with its 95% error and
//! the likelihood of superiority (LOS).
//!
//! Elo is logistic: a score fraction `s` means `-400 log10(1/s - 1)`. The error comes from the
//! normal approximation of the mean score: `s ± 1.96 σ/√n`, mapped to Elo, half the width.
//! Per game (trinomial) the outcomes are 1, ½, 0; per pair of games with colours swapped
//! (pentanomial) they are 0, ¼, ½, ¾, 1 of the two games' points, which takes out the noise of
//! unbalanced openings.

/// The 97.5% quantile of the standard normal distribution (two-sided 95%).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The points of a pentanomial bucket as a fraction of the pair's two points.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The Elo difference a score fraction means (±∞ at 0 and 1).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // Adding zero turns -0 (at exactly one half) into 0.
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

/// The expected score fraction at an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, with a relative error below 1.2e-7 (a Chebyshev fit of `erfc`,
/// Numerical Recipes §6.2).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

/// The likelihood of superiority: the probability that the engine with `wins` against
/// `losses` is the stronger, `Φ((W − L)/√(W + L))`; draws tell nothing. ½ with no decisive
/// game.
pub fn los(wins: u32, losses: u32) -> f64 {
    if wins == losses {
        return 0.5;
    }
    let (w, l) = (f64::from(wins), f64::from(losses));
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// An Elo estimate with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The Elo difference.
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo.
    pub error: f64,
}

impl EloEstimate {
    /// The estimate from outcomes `scores` (fractions of a point) seen `counts` times.
    pub fn from_counts(scores: &[f64], counts: &[u32]) -> Option<EloEstimate> {
        let n: f64 = counts.iter().map(|&c| f64::from(c)).sum();
        if n == 0.0 {
            return None;
        }
        let mean = scores
            .iter()
            .zip(counts)
            .map(|(s, &c)| s * f64::from(c))
            .sum::<f64>()
            / n;
        let variance = scores
            .iter()
            .zip(counts)
            .map(|(s, &c)| f64::from(c) * (s - mean).powi(2))
            .sum::<f64>()
            / n;
        let margin = Z_95 * (variance / n).sqrt();
        let upper = elo_from_score((mean + margin).min(1.0));
        let lower = elo_from_score((mean - margin).max(0.0));
        let elo = elo_from_score(mean);
        // All wins or all losses tell no finite Elo and no error either.
        let error = if elo.is_infinite() {
            f64::INFINITY
        } else if margin == 0.0 {
            0.0
        } else {
            (upper - lower) / 2.0
        };
        Some(EloEstimate { elo, error })
    }
}

/// Results counted from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Completed pairs by the points scored in the two games: 0, ½, 1, 1½, 2.
    pub pentanomial: [u32; 5],
}

impl Tally {
    /// Counts one game scoring `points` (1, ½ or 0).
    pub fn add_game(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Counts one completed pair scoring `points` (0 to 2 in half points).
    pub fn add_pair(&mut self, points: f64) {
        let bucket = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.pentanomial[bucket] += 1;
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Completed pairs counted.
    pub fn pairs(&self) -> u32 {
        self.pentanomial.iter().sum()
    }

    /// The score fraction, if any game was played.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(games))
    }

    /// The Elo estimate from single games.
    pub fn elo(&self) -> Option<EloEstimate> {
        EloEstimate::from_counts(&[1.0, 0.5, 0.0], &[self.wins, self.draws, self.losses])
    }

    /// The Elo estimate from completed pairs.
    pub fn elo_pentanomial(&self) -> Option<EloEstimate> {
        EloEstimate::from_counts(&PAIR_SCORES, &self.pentanomial)
    }

    /// The likelihood of superiority.
    pub fn los(&self) -> f64 {
        los(self.wins, self.losses)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo_from_score(0.5), 0.0);
        // 3:1 odds: -400 log10(1/3) = 400 × 0.477121 = 190.85.
        assert!(close(elo_from_score(0.75), 190.849, 1e-3));
        // 70%: -400 log10(3/7) = 400 × 0.367977 = 147.19.
        assert!(close(elo_from_score(0.7), 147.191, 1e-3));
        assert!(close(elo_from_score(0.25), -190.849, 1e-3));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert!(close(score_from_elo(elo_from_score(0.63)), 0.63, 1e-12));
        // 5 Elo: 1/(1 + 10^(-1/80)) = 0.507195.
        assert!(close(score_from_elo(5.0), 0.507_195, 1e-6));
    }

    #[test]
    fn erf_matches_tables() {
        // Abramowitz & Stegun table 7.1.
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_88, 2e-7));
        assert!(close(erf(1.0), 0.842_700_79, 2e-7));
        assert!(close(erf(2.0), 0.995_322_27, 2e-7));
        assert!(close(erf(-1.0), -0.842_700_79, 2e-7));
    }

    #[test]
    fn trinomial_error_of_a_known_sample() {
        // 60 wins, 20 draws, 20 losses: s = 0.7, Elo 147.19.
        // σ² = 0.6(0.3)² + 0.2(0.2)² + 0.2(0.7)² = 0.054 + 0.008 + 0.098 = 0.16, σ/√n = 0.04.
        // 0.7 ± 1.96 × 0.04 = [0.62160, 0.77840] → Elo [86.225, 218.252]; half width 66.013.
        let tally = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
            pentanomial: [0; 5],
        };
        let e = tally.elo().unwrap();
        assert!(close(e.elo, 147.191, 1e-3), "{e:?}");
        assert!(close(e.error, 66.013, 1e-3), "{e:?}");
        assert!(close(tally.score().unwrap(), 0.7, 1e-12));
    }

    #[test]
    fn pentanomial_error_of_a_known_sample() {
        // Pairs [LL, LD, DD+WL, WD, WW] = [2, 5, 10, 8, 5], n = 30:
        // mean = (5×0.25 + 10×0.5 + 8×0.75 + 5)/30 = 17.25/30 = 0.575 → Elo 52.512;
        // σ² = Σ c(a − 0.575)²/30 = 2.39375/30 = 0.0797917; σ/√n = 0.0515725;
        // 0.575 ± 0.1010802 = [0.473920, 0.676080] → Elo [−18.139, 127.824]; half width 72.982.
        let tally = Tally {
            pentanomial: [2, 5, 10, 8, 5],
            ..Tally::default()
        };
        let e = tally.elo_pentanomial().unwrap();
        assert!(close(e.elo, 52.512, 1e-3), "{e:?}");
        assert!(close(e.error, 72.982, 1e-3), "{e:?}");
        assert_eq!(tally.pairs(), 30);
    }

    #[test]
    fn los_of_known_samples() {
        // 10 wins, 5 losses: Φ(5/√15) = ½(1 + erf(5/√30)) = ½(1 + erf(0.912871)) = 0.901647.
        assert!(close(los(10, 5), 0.901_647, 1e-6));
        assert_eq!(los(7, 7), 0.5);
        assert_eq!(los(0, 0), 0.5);
        assert!(close(los(5, 10), 1.0 - 0.901_647, 1e-6));
    }

    #[test]
    fn games_and_pairs_are_counted() {
        let mut tally = Tally::default();
        for points in [1.0, 0.5, 0.0, 1.0] {
            tally.add_game(points);
        }
        tally.add_pair(1.5);
        tally.add_pair(1.0);
        assert_eq!((tally.wins, tally.draws, tally.losses), (2, 1, 1));
        assert_eq!(tally.pentanomial, [0, 0, 1, 1, 0]);
        assert!(close(tally.los(), los(2, 1), 0.0));
    }

    #[test]
    fn one_sided_results_have_no_finite_estimate() {
        let tally = Tally {
            losses: 10,
            ..Tally::default()
        };
        let e = tally.elo().unwrap();
        assert_eq!((e.elo, e.error), (f64::NEG_INFINITY, f64::INFINITY));
        let tally = Tally {
            draws: 10,
            ..Tally::default()
        };
        assert_eq!(
            tally.elo(),
            Some(EloEstimate {
                elo: 0.0,
                error: 0.0
            })
        );
    }

    #[test]
    fn no_games_no_estimate() {
        assert_eq!(Tally::default().elo(), None);
        assert_eq!(Tally::default().score(), None);
    }
}
