//! Tuning engine parameters by games: simultaneous perturbation stochastic approximation
//! (SPSA).
//!
//! Each step moves every parameter a small random distance up or down at once, plays a few
//! game pairs between the engine with the parameters moved up (θ⁺) and with them moved down
//! (θ⁻), and shifts every parameter towards the side that won, in proportion to the margin.
//! The step sizes follow the usual schedule: perturbations `c_k = c / k^γ` and gains
//! `a_k = a / (A + k)^α` with α = 0.602, γ = 0.101 and A a tenth of the planned iterations;
//! each parameter's `c` and `a` come from the perturbation it should end with (`c_end`) and
//! its final learning rate (`r_end`, so that `a_end = r_end · c_end²`).
//!
//! The whole state — parameters, schedule, how many iterations are done and the seed — is a
//! short text file ([`Spsa::to_text`], [`Spsa::parse`]): a run rewrites it after every step
//! and continues from it, with the same perturbations it would have drawn without a break.

use crate::random::SplitMix64;
use crate::tournament::{MatchConfig, MatchError, run_match};
use crate::{EngineSpec, GameSettings, Opening, Tally};
use std::fmt::Write as _;
use xiangqi_engine::random::mix;

/// The gain schedule's exponent.
pub const ALPHA: f64 = 0.602;
/// The perturbation schedule's exponent.
pub const GAMMA: f64 = 0.101;
/// The gain schedule's stability constant as a share of the planned iterations.
pub const A_SHARE: f64 = 0.1;

/// One parameter under tuning.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// The engine option that sets it.
    pub name: String,
    /// Its current value (θ), kept as a real number; the engine gets it rounded.
    pub value: f64,
    /// The smallest value it may take.
    pub min: f64,
    /// The largest value it may take.
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration.
    pub r_end: f64,
}

impl SpsaParam {
    /// A parameter starting at `value` in `min..=max`, with the default schedule: a final
    /// perturbation of a twentieth of the range (at least 1, so that a whole-number option
    /// moves) and a final learning rate of 0.002.
    pub fn new(name: &str, value: f64, min: f64, max: f64) -> SpsaParam {
        SpsaParam {
            name: name.to_string(),
            value,
            min,
            max,
            c_end: ((max - min) / 20.0).max(1.0),
            r_end: 0.002,
        }
    }
}

/// A tuning run: its parameters, its length, how far it has come and its seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// The parameters.
    pub params: Vec<SpsaParam>,
    /// Iterations planned (one iteration is one game pair).
    pub iterations: u64,
    /// Iterations done.
    pub done: u64,
    /// Seed of the perturbations and of the openings' draw.
    pub seed: u64,
}

/// One step's perturbation: each parameter's direction and the values θ⁺ and θ⁻ give the
/// engines.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// +1 or −1 for each parameter.
    pub flips: Vec<f64>,
    /// The values of θ⁺, rounded and within range.
    pub plus: Vec<i64>,
    /// The values of θ⁻, rounded and within range.
    pub minus: Vec<i64>,
}

/// Why a state file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpsaError {
    /// Line number, from 1 (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for SpsaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for SpsaError {}

impl Spsa {
    /// A new run of `iterations` game pairs over `params`.
    pub fn new(params: Vec<SpsaParam>, iterations: u64, seed: u64) -> Spsa {
        Spsa {
            params,
            iterations: iterations.max(1),
            done: 0,
            seed,
        }
    }

    /// Whether every planned iteration is done.
    pub fn finished(&self) -> bool {
        self.done >= self.iterations
    }

    fn stability(&self) -> f64 {
        A_SHARE * self.iterations as f64
    }

    /// The perturbation size of `param` at iteration `k` (from 1).
    pub fn c_k(&self, param: &SpsaParam, k: u64) -> f64 {
        let c = param.c_end * (self.iterations as f64).powf(GAMMA);
        c / (k.max(1) as f64).powf(GAMMA)
    }

    /// The gain of `param` at iteration `k` (from 1).
    pub fn a_k(&self, param: &SpsaParam, k: u64) -> f64 {
        let a_end = param.r_end * param.c_end * param.c_end;
        let a = a_end * (self.stability() + self.iterations as f64).powf(ALPHA);
        a / (self.stability() + k.max(1) as f64).powf(ALPHA)
    }

    /// The random generator of the step after `done` iterations: the same for a run that
    /// was stopped and continued.
    fn step_random(&self) -> SplitMix64 {
        SplitMix64::new(mix(self.seed ^ mix(self.done)))
    }

    /// The next step's perturbation.
    pub fn perturbation(&self) -> Perturbation {
        let mut random = self.step_random();
        let k = self.done + 1;
        let mut flips = Vec::new();
        let mut plus = Vec::new();
        let mut minus = Vec::new();
        for p in &self.params {
            let flip = if random.next_u64() & 1 == 0 {
                1.0
            } else {
                -1.0
            };
            let delta = self.c_k(p, k) * flip;
            let bounded = |v: f64| v.clamp(p.min, p.max).round() as i64;
            flips.push(flip);
            plus.push(bounded(p.value + delta));
            minus.push(bounded(p.value - delta));
        }
        Perturbation { flips, plus, minus }
    }

    /// `count` openings drawn for the next step from `openings` (one per game pair).
    pub fn openings_for_step<'a>(&self, openings: &'a [Opening], count: usize) -> Vec<&'a Opening> {
        let mut random = self.step_random();
        // Past the draws `perturbation` makes, so that openings and flips are independent.
        for _ in 0..self.params.len() {
            random.next_u64();
        }
        (0..count).filter_map(|_| random.pick(openings)).collect()
    }

    /// Moves the parameters after a step of `pairs` game pairs played with `perturbation`,
    /// in which θ⁺ scored `result` = its wins less its losses.
    pub fn update(&mut self, perturbation: &Perturbation, result: f64, pairs: u64) {
        let k = self.done + 1;
        for (i, flip) in perturbation.flips.iter().enumerate() {
            let (a, c) = (self.a_k(&self.params[i], k), self.c_k(&self.params[i], k));
            let p = &mut self.params[i];
            p.value = (p.value + a / c * result * flip).clamp(p.min, p.max);
        }
        self.done += pairs.max(1);
    }

    /// The state as text: a `#` comment, the run's settings, one `param` line per parameter.
    pub fn to_text(&self) -> String {
        let mut text = String::from(
            "# xiangqi spsa state: param NAME VALUE MIN MAX C_END R_END (rewritten after every step)\n",
        );
        let _ = writeln!(text, "iterations {}", self.iterations);
        let _ = writeln!(text, "done {}", self.done);
        let _ = writeln!(text, "seed {}", self.seed);
        for p in &self.params {
            let _ = writeln!(
                text,
                "param {} {} {} {} {} {}",
                p.name, p.value, p.min, p.max, p.c_end, p.r_end
            );
        }
        text
    }

    /// Reads a state written by [`Spsa::to_text`] (comments and blank lines allowed).
    pub fn parse(text: &str) -> Result<Spsa, SpsaError> {
        let mut iterations = None;
        let mut done = None;
        let mut seed = None;
        let mut params = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let line_no = index + 1;
            let fail = |message: String| SpsaError {
                line: line_no,
                message,
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some((&key, rest)) = words.split_first() else {
                continue;
            };
            if key.starts_with('#') {
                continue;
            }
            let whole = |what: &str| -> Result<u64, SpsaError> {
                match rest {
                    [v] => v
                        .parse::<u64>()
                        .map_err(|_| fail(format!("{what} needs a whole number, got '{v}'"))),
                    _ => Err(fail(format!("{what} needs one whole number"))),
                }
            };
            match key {
                "iterations" => iterations = Some(whole("iterations")?),
                "done" => done = Some(whole("done")?),
                "seed" => seed = Some(whole("seed")?),
                "param" => {
                    let [name, numbers @ ..] = rest else {
                        return Err(fail("param needs NAME VALUE MIN MAX C_END R_END".into()));
                    };
                    let numbers = numbers
                        .iter()
                        .map(|w| w.parse::<f64>().ok().filter(|v| v.is_finite()))
                        .collect::<Option<Vec<f64>>>();
                    let Some(&[value, min, max, c_end, r_end]) = numbers.as_deref() else {
                        return Err(fail(format!(
                            "param {name} needs five numbers: VALUE MIN MAX C_END R_END"
                        )));
                    };
                    if !(min <= value && value <= max) {
                        return Err(fail(format!(
                            "param {name}: value {value} lies outside {min}..{max}"
                        )));
                    }
                    if c_end <= 0.0 || r_end <= 0.0 {
                        return Err(fail(format!(
                            "param {name}: C_END and R_END must be above 0"
                        )));
                    }
                    if params.iter().any(|p: &SpsaParam| p.name == *name) {
                        return Err(fail(format!("param {name} is given twice")));
                    }
                    params.push(SpsaParam {
                        name: name.to_string(),
                        value,
                        min,
                        max,
                        c_end,
                        r_end,
                    });
                }
                other => return Err(fail(format!("unknown key '{other}'"))),
            }
        }
        let missing = |what: &str| SpsaError {
            line: 0,
            message: format!("the state has no '{what}' line"),
        };
        if params.is_empty() {
            return Err(missing("param"));
        }
        Ok(Spsa {
            params,
            iterations: iterations.ok_or_else(|| missing("iterations"))?.max(1),
            done: done.ok_or_else(|| missing("done"))?,
            seed: seed.ok_or_else(|| missing("seed"))?,
        })
    }

    /// The current values rounded, as `name=value` words.
    pub fn rounded(&self) -> Vec<(String, i64)> {
        self.params
            .iter()
            .map(|p| (p.name.clone(), p.value.round() as i64))
            .collect()
    }
}

/// Plays one step: `openings.len()` game pairs between `base` with θ⁺ and `base` with θ⁻
/// (each opening twice, colours swapped), `concurrency` games at a time; θ⁺'s results.
pub fn play_step(
    spsa: &Spsa,
    perturbation: &Perturbation,
    base: &EngineSpec,
    settings: &GameSettings,
    openings: &[&Opening],
    concurrency: usize,
) -> Result<Tally, MatchError> {
    let engine = |name: &str, values: &[i64]| {
        let mut spec = base.clone();
        spec.name = name.to_string();
        for (p, v) in spsa.params.iter().zip(values) {
            spec.options.push((p.name.clone(), v.to_string()));
        }
        spec
    };
    let config = MatchConfig {
        engines: [
            engine("plus", &perturbation.plus),
            engine("minus", &perturbation.minus),
        ],
        settings: settings.clone(),
        openings: openings.iter().map(|o| (*o).clone()).collect(),
        games: 2 * openings.len(),
        concurrency,
        sprt: None,
        pgn: None,
        event: "spsa".into(),
        log: None,
    };
    Ok(run_match(&config, &mut |_, _| {})?.tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(params: Vec<SpsaParam>) -> Spsa {
        Spsa::new(params, 1000, 7)
    }

    #[test]
    fn the_schedule_ends_at_the_final_perturbation_and_learning_rate() {
        let spsa = run(vec![SpsaParam::new("X", 100.0, 0.0, 200.0)]);
        let p = &spsa.params[0];
        assert!((spsa.c_k(p, 1000) - p.c_end).abs() < 1e-9);
        let a_end = spsa.a_k(p, 1000);
        assert!((a_end / (p.c_end * p.c_end) - p.r_end).abs() < 1e-12);
        // Both shrink as the run goes on.
        assert!(spsa.c_k(p, 1) > spsa.c_k(p, 500));
        assert!(spsa.a_k(p, 1) > spsa.a_k(p, 500));
    }

    #[test]
    fn perturbations_are_whole_numbers_within_range_and_repeat_after_a_restart() {
        let mut spsa = run(vec![
            SpsaParam::new("A", 1.0, 1.0, 8.0),
            SpsaParam::new("B", 150.0, 0.0, 300.0),
        ]);
        let first = spsa.perturbation();
        assert_eq!(first.plus.len(), 2);
        for (i, p) in spsa.params.iter().enumerate() {
            for v in [first.plus[i], first.minus[i]] {
                assert!((p.min as i64..=p.max as i64).contains(&v), "{v}");
            }
            assert!(first.flips[i] == 1.0 || first.flips[i] == -1.0);
        }
        assert_ne!(first.plus[1], first.minus[1]);
        spsa.update(&first, 1.0, 1);
        let second = spsa.perturbation();
        let restarted = Spsa::parse(&spsa.to_text()).expect("state reads back");
        assert_eq!(restarted.perturbation(), second);
    }

    #[test]
    fn flips_are_balanced_over_many_steps() {
        let mut spsa = run(vec![SpsaParam::new("A", 50.0, 0.0, 100.0)]);
        let mut ups = 0;
        for _ in 0..1000 {
            let p = spsa.perturbation();
            ups += (p.flips[0] > 0.0) as u32;
            spsa.done += 1;
        }
        assert!((420..=580).contains(&ups), "{ups}");
    }

    /// A noisy game between two settings whose strength peaks at `best`: θ⁺ wins when it
    /// lies nearer `best`, with a draw now and then.
    fn noisy_pair(plus: f64, minus: f64, best: f64, random: &mut SplitMix64) -> f64 {
        let edge = (minus - best).abs() - (plus - best).abs();
        let chance = 0.5 + (edge / 100.0).clamp(-0.4, 0.4);
        let mut result = 0.0;
        for _ in 0..2 {
            let roll = random.unit();
            if roll < 0.1 {
                continue;
            }
            result += if roll < 0.1 + 0.9 * chance { 1.0 } else { -1.0 };
        }
        result
    }

    #[test]
    fn parameters_move_towards_what_wins() {
        let mut spsa = Spsa::new(
            vec![
                SpsaParam::new("Low", 150.0, 0.0, 300.0),
                SpsaParam::new("High", 40.0, 0.0, 300.0),
            ],
            3000,
            11,
        );
        for p in &mut spsa.params {
            p.r_end = 0.02;
        }
        let best = [60.0, 220.0];
        let mut random = SplitMix64::new(3);
        while !spsa.finished() {
            let p = spsa.perturbation();
            let result: f64 = (0..2)
                .map(|i| noisy_pair(p.plus[i] as f64, p.minus[i] as f64, best[i], &mut random))
                .sum();
            spsa.update(&p, result, 1);
        }
        let low = spsa.params[0].value;
        let high = spsa.params[1].value;
        assert!(
            (low - 60.0).abs() < 35.0,
            "Low ended at {low}, from 150 towards 60"
        );
        assert!(
            (high - 220.0).abs() < 35.0,
            "High ended at {high}, from 40 towards 220"
        );
    }

    #[test]
    fn the_state_reads_back_and_bad_states_are_named() {
        let mut spsa = run(vec![SpsaParam::new("RfpMargin", 80.0, 20.0, 250.0)]);
        spsa.done = 12;
        spsa.params[0].value = 83.25;
        assert_eq!(Spsa::parse(&spsa.to_text()).unwrap(), spsa);

        let bad = |text: &str| Spsa::parse(text).unwrap_err().to_string();
        let head = "iterations 10\ndone 0\nseed 1\n";
        assert_eq!(
            bad(&format!("{head}param A 5 0 10 1\n")),
            "line 4: param A needs five numbers: VALUE MIN MAX C_END R_END"
        );
        assert_eq!(
            bad(&format!("{head}param A 50 0 10 1 0.002\n")),
            "line 4: param A: value 50 lies outside 0..10"
        );
        assert_eq!(
            bad(&format!(
                "{head}param A 5 0 10 1 0.002\nparam A 5 0 10 1 0.002\n"
            )),
            "line 5: param A is given twice"
        );
        assert_eq!(
            bad("iterations ten\n"),
            "line 1: iterations needs a whole number, got 'ten'"
        );
        assert_eq!(bad("speed 3\n"), "line 1: unknown key 'speed'");
        assert_eq!(bad(head), "the state has no 'param' line");
        assert_eq!(
            bad("done 0\nseed 1\nparam A 5 0 10 1 0.002\n"),
            "the state has no 'iterations' line"
        );
    }

    #[test]
    fn each_step_draws_its_own_openings_from_the_list() {
        let openings = crate::shipped_openings();
        let mut spsa = run(vec![SpsaParam::new("A", 5.0, 0.0, 10.0)]);
        let first: Vec<String> = spsa
            .openings_for_step(&openings, 3)
            .iter()
            .map(|o| o.fen.clone())
            .collect();
        assert_eq!(first.len(), 3);
        spsa.done += 1;
        let second: Vec<String> = spsa
            .openings_for_step(&openings, 3)
            .iter()
            .map(|o| o.fen.clone())
            .collect();
        assert_ne!(first, second);
    }
}
