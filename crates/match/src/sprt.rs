//! The sequential probability ratio test on pentanomial pair counts (a generalized SPRT):
//! it stops a match once the results favour "the first engine is `elo1` stronger" (H1) or
//! "it is only `elo0` stronger" (H0) with error rates `alpha` and `beta`.
//!
//! The hypotheses are logistic Elo, turned into expected pair scores `s0` and `s1`. For each,
//! the maximum-likelihood distribution over the five pair outcomes with that mean is the
//! observed one reweighted, `p_i = p̂_i / (1 + θ (a_i − s))`, with `θ` the root of
//! `Σ p̂_i (a_i − s) / (1 + θ (a_i − s)) = 0` (Van den Bergh, "Comments on Normalized Elo",
//! proposition 1.1). The log-likelihood ratio is `N Σ p̂_i ln(p1_i / p0_i)`; for small Elo
//! differences it is close to `N (s1 − s0)(2 μ − s0 − s1) / (2 σ²)`.

use crate::stats::{PAIR_SCORES, score_from_elo};
use std::fmt;

/// Count standing in for an empty bucket, so that every hypothesis has a distribution.
const EMPTY_BUCKET: f64 = 1e-3;

/// The test's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False-negative rate (accepting H0 when H1 holds).
    pub beta: f64,
}

/// What the test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The first engine is not `elo1` stronger: H0 accepted.
    AcceptH0,
    /// The first engine is at least `elo0` stronger: H1 accepted.
    AcceptH1,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        })
    }
}

/// Why SPRT settings could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// A word is not `key=value`.
    NotKeyValue {
        /// The word.
        word: String,
    },
    /// A value is not a number.
    NotANumber {
        /// The whole `key=value` word.
        word: String,
    },
    /// A key that is none of `elo0`, `elo1`, `alpha`, `beta`.
    UnknownKey {
        /// The key.
        key: String,
    },
    /// `elo0` or `elo1` is missing.
    NoHypotheses,
    /// `elo0` is not below `elo1`.
    EloOrder {
        /// Elo under H0.
        elo0: f64,
        /// Elo under H1.
        elo1: f64,
    },
    /// The error rates are outside (0, 1) or sum to 1 or more.
    ErrorRates {
        /// The false-positive rate.
        alpha: f64,
        /// The false-negative rate.
        beta: f64,
    },
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::NotKeyValue { word } => write!(f, "SPRT setting '{word}' is not key=value"),
            SprtError::NotANumber { word } => {
                write!(f, "SPRT setting '{word}': the value is not a number")
            }
            SprtError::UnknownKey { key } => {
                write!(
                    f,
                    "unknown SPRT setting '{key}' (keys: elo0, elo1, alpha, beta)"
                )
            }
            SprtError::NoHypotheses => f.write_str("SPRT needs elo0=X and elo1=Y"),
            SprtError::EloOrder { elo0, elo1 } => {
                write!(f, "SPRT: elo0 ({elo0}) must be below elo1 ({elo1})")
            }
            SprtError::ErrorRates { alpha, beta } => write!(
                f,
                "SPRT: alpha ({alpha}) and beta ({beta}) must lie in (0, 1) with a sum below 1"
            ),
        }
    }
}

impl std::error::Error for SprtError {}

impl Sprt {
    /// Reads `elo0=X elo1=Y alpha=A beta=B` words (alpha and beta default to 0.05).
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<Sprt, SprtError> {
        let mut elo0 = None;
        let mut elo1 = None;
        let mut alpha = 0.05;
        let mut beta = 0.05;
        for word in words {
            let word = word.as_ref();
            let (key, value) = word.split_once('=').ok_or_else(|| SprtError::NotKeyValue {
                word: word.to_string(),
            })?;
            let value: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| SprtError::NotANumber {
                    word: word.to_string(),
                })?;
            match key {
                "elo0" => elo0 = Some(value),
                "elo1" => elo1 = Some(value),
                "alpha" => alpha = value,
                "beta" => beta = value,
                _ => {
                    return Err(SprtError::UnknownKey {
                        key: key.to_string(),
                    });
                }
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(SprtError::NoHypotheses);
        };
        if elo0 >= elo1 {
            return Err(SprtError::EloOrder { elo0, elo1 });
        }
        if !(0.0 < alpha && alpha < 1.0 && 0.0 < beta && beta < 1.0 && alpha + beta < 1.0) {
            return Err(SprtError::ErrorRates { alpha, beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The LLR bounds: below the first H0 is accepted, above the second H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for the pair counts `[LL, LD, DD+WL, WD, WW]`
    /// (0 before any pair).
    pub fn llr(&self, pentanomial: &[u32; 5]) -> f64 {
        if pentanomial.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let counts = pentanomial.map(|c| if c == 0 { EMPTY_BUCKET } else { f64::from(c) });
        let total: f64 = counts.iter().sum();
        let observed = counts.map(|c| c / total);
        let p0 = most_likely_with_mean(&observed, score_from_elo(self.elo0));
        let p1 = most_likely_with_mean(&observed, score_from_elo(self.elo1));
        total
            * (0..5)
                .map(|i| observed[i] * (p1[i] / p0[i]).ln())
                .sum::<f64>()
    }

    /// The decision for `llr`, if it crossed a bound.
    pub fn decision(&self, llr: f64) -> Option<SprtDecision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::AcceptH1)
        } else if llr <= lower {
            Some(SprtDecision::AcceptH0)
        } else {
            None
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// The distribution over [`PAIR_SCORES`] closest to `observed` (maximum likelihood) whose
/// mean is `mean`.
fn most_likely_with_mean(observed: &[f64; 5], mean: f64) -> [f64; 5] {
    let deviation = PAIR_SCORES.map(|a| a - mean);
    // g(θ) = Σ p̂ d / (1 + θ d) falls from +∞ to −∞ between the poles of the outer scores.
    let g = |theta: f64| -> f64 {
        (0..5)
            .map(|i| observed[i] * deviation[i] / (1.0 + theta * deviation[i]))
            .sum()
    };
    let mut low = -1.0 / deviation[4];
    let mut high = -1.0 / deviation[0];
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if g(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let theta = 0.5 * (low + high);
    (0..5)
        .map(|i| observed[i] / (1.0 + theta * deviation[i]))
        .collect::<Vec<_>>()
        .try_into()
        .unwrap_or(*observed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test_0_5() -> Sprt {
        Sprt::parse(&["elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"]).unwrap()
    }

    /// `N (s1 − s0)(2μ − s0 − s1) / (2σ²)` on pairs.
    fn quadratic_llr(sprt: &Sprt, counts: &[u32; 5]) -> f64 {
        let n: f64 = counts.iter().map(|&c| f64::from(c)).sum();
        let mean: f64 = (0..5)
            .map(|i| PAIR_SCORES[i] * f64::from(counts[i]))
            .sum::<f64>()
            / n;
        let var: f64 = (0..5)
            .map(|i| f64::from(counts[i]) * (PAIR_SCORES[i] - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (score_from_elo(sprt.elo0), score_from_elo(sprt.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    #[test]
    fn bounds_for_five_percent_errors() {
        // ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = 2.944439.
        let (lower, upper) = test_0_5().bounds();
        assert!((lower + 2.944_439).abs() < 1e-6);
        assert!((upper - 2.944_439).abs() < 1e-6);
    }

    #[test]
    fn llr_of_a_known_sample() {
        // Pairs [1000, 4000, 10000, 4200, 1100], n = 20300: mean = 10250/20300 = 0.504926,
        // σ² = 0.0510841; s0 = 0.5, s1 = 0.507195 (5 Elo). The quadratic form gives
        // 20300 × 0.0071951 × (1.0098522 − 1.0071951) / (2 × 0.0510841) = 3.79865; the exact
        // maximum-likelihood ratio is 3.79757.
        let counts = [1000, 4000, 10000, 4200, 1100];
        let sprt = test_0_5();
        assert!((quadratic_llr(&sprt, &counts) - 3.798_65).abs() < 1e-4);
        assert!((sprt.llr(&counts) - 3.797_57).abs() < 1e-4);
        assert_eq!(
            sprt.decision(sprt.llr(&counts)),
            Some(SprtDecision::AcceptH1)
        );
    }

    #[test]
    fn llr_of_a_small_sample() {
        // Pairs [2, 5, 10, 8, 5]: mean 0.575, quadratic 0.19316, exact 0.18072; no decision.
        let counts = [2, 5, 10, 8, 5];
        let sprt = test_0_5();
        assert!((quadratic_llr(&sprt, &counts) - 0.193_158).abs() < 1e-5);
        assert!((sprt.llr(&counts) - 0.180_715).abs() < 1e-5);
        assert_eq!(sprt.decision(sprt.llr(&counts)), None);
    }

    #[test]
    fn losing_results_accept_h0() {
        let counts = [300, 900, 1500, 500, 100];
        let sprt = test_0_5();
        assert!(sprt.llr(&counts) < -2.95);
        assert_eq!(
            sprt.decision(sprt.llr(&counts)),
            Some(SprtDecision::AcceptH0)
        );
    }

    #[test]
    fn llr_is_zero_without_pairs() {
        assert_eq!(test_0_5().llr(&[0; 5]), 0.0);
    }

    #[test]
    fn even_results_lean_towards_h0() {
        // A mean of exactly ½ is nearer s0 = 0.5 than s1 = 0.507195: a small negative ratio.
        let llr = test_0_5().llr(&[10, 20, 40, 20, 10]);
        assert!(llr < 0.0 && llr > -1.0, "{llr}");
    }

    #[test]
    fn bad_settings_are_refused() {
        assert_eq!(
            Sprt::parse(&["elo0=5", "elo1=0"]),
            Err(SprtError::EloOrder {
                elo0: 5.0,
                elo1: 0.0
            })
        );
        assert_eq!(Sprt::parse(&["elo0=0"]), Err(SprtError::NoHypotheses));
        assert_eq!(
            Sprt::parse(&["elo0=0", "elo1=5", "alpha=0.7", "beta=0.5"]),
            Err(SprtError::ErrorRates {
                alpha: 0.7,
                beta: 0.5
            })
        );
        assert_eq!(
            Sprt::parse(&["elo0=0", "elo1=5", "gamma=1"]),
            Err(SprtError::UnknownKey {
                key: "gamma".into()
            })
        );
        assert_eq!(
            Sprt::parse(&["elo0=x", "elo1=5"]),
            Err(SprtError::NotANumber {
                word: "elo0=x".into()
            })
        );
        assert_eq!(
            Sprt::parse(&["elo0"]),
            Err(SprtError::NotKeyValue {
                word: "elo0".into()
            })
        );
    }
}
