//! Tuning the evaluation weights to labelled positions.
//!
//! Each sample is a quiet position with a target score (for example a stronger engine's
//! score at some depth). The tuner minimises the mean squared difference of the win
//! probabilities `sigmoid(score / scale)` of our evaluation and of the target, by Adam
//! gradient descent on every weight, with a small pull towards the starting weights so that
//! rarely seen features stay sensible.

use crate::eval::features::{FEATURE_COUNT, FeatureList, PHASE_FULL, TEMPO, WEIGHT_COUNT};
use xiangqi_rules::Position;

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position's features.
    pub features: FeatureList,
    /// Target score for the side to move, in centipawns.
    pub target: f64,
}

/// How to tune.
#[derive(Clone, Copy, Debug)]
pub struct TuneConfig {
    /// Passes over the data.
    pub epochs: usize,
    /// Centipawns per unit of the logistic function.
    pub scale: f64,
    /// Adam step size, in weight units.
    pub learning_rate: f64,
    /// Pull towards the starting weights.
    pub regularisation: f64,
    /// Targets beyond this magnitude are dropped.
    pub max_target: f64,
}

impl Default for TuneConfig {
    fn default() -> Self {
        TuneConfig {
            epochs: 400,
            scale: 400.0,
            learning_rate: 5.0,
            regularisation: 1e-7,
            max_target: 2500.0,
        }
    }
}

/// Why a data file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    /// Line number, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Reads samples from lines `FEN;score[;best move was a capture 0|1]`. Positions in check,
/// whose best move captures, or whose score is beyond `max_target` are skipped.
pub fn parse_samples(text: &str, max_target: f64) -> Result<Vec<Sample>, DataError> {
    let mut samples = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |message: String| DataError {
            line: i + 1,
            message,
        };
        let mut fields = line.split(';');
        let fen = fields.next().unwrap_or_default();
        let score: f64 = fields
            .next()
            .and_then(|s| s.trim().parse().ok())
            .ok_or_else(|| err("expected ';' and a score after the FEN".into()))?;
        let capture = fields.next().is_some_and(|s| s.trim() == "1");
        let pos = Position::from_fen(fen).map_err(|e| err(format!("bad FEN: {e}")))?;
        if capture || pos.in_check() || score.abs() > max_target {
            continue;
        }
        samples.push(Sample {
            features: FeatureList::of(&pos),
            target: score,
        });
    }
    Ok(samples)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn predict(weights: &[f64], sample: &Sample) -> f64 {
    sample
        .features
        .entries
        .iter()
        .map(|&(i, c)| weights[i as usize] * c as f64)
        .sum::<f64>()
        / PHASE_FULL as f64
}

/// Mean squared difference of win probabilities under `weights`.
pub fn loss(weights: &[f64], samples: &[Sample], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let d = sigmoid(predict(weights, s) / scale) - sigmoid(s.target / scale);
            d * d
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Tunes `start` to `samples`; `progress` gets (epoch, loss) every few epochs.
pub fn tune(
    start: &[i32; WEIGHT_COUNT],
    samples: &[Sample],
    config: TuneConfig,
    progress: &mut dyn FnMut(usize, f64),
) -> [i32; WEIGHT_COUNT] {
    let origin: Vec<f64> = start.iter().map(|&w| w as f64).collect();
    let mut w = origin.clone();
    let mut m = vec![0.0; WEIGHT_COUNT];
    let mut v = vec![0.0; WEIGHT_COUNT];
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let n = samples.len().max(1) as f64;
    for epoch in 1..=config.epochs {
        let mut grad = vec![0.0; WEIGHT_COUNT];
        for s in samples {
            let p = sigmoid(predict(&w, s) / config.scale);
            let t = sigmoid(s.target / config.scale);
            let g = 2.0 * (p - t) * p * (1.0 - p) / config.scale / n / PHASE_FULL as f64;
            for &(i, c) in &s.features.entries {
                grad[i as usize] += g * c as f64;
            }
        }
        for i in 0..WEIGHT_COUNT {
            let g = grad[i] + config.regularisation * (w[i] - origin[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= config.learning_rate * mh / (vh.sqrt() + eps);
        }
        if epoch % 25 == 0 || epoch == config.epochs {
            progress(epoch, loss(&w, samples, config.scale));
        }
    }
    let mut out = [0; WEIGHT_COUNT];
    for (o, x) in out.iter_mut().zip(&w) {
        *o = x.round() as i32;
    }
    out
}

/// The weights as the Rust source of `eval/weights.rs`.
pub fn weights_source(weights: &[i32; WEIGHT_COUNT], comment: &str) -> String {
    let mut s = String::new();
    s.push_str("//! The evaluation weights, indexed by feature (see [`super::features`]): the\n");
    s.push_str("//! middlegame weights of every feature, then the endgame weights.\n");
    for line in comment.lines() {
        s.push_str("//! ");
        s.push_str(line);
        s.push('\n');
    }
    s.push_str("\nuse super::features::WEIGHT_COUNT;\n\n");
    s.push_str("/// Weights of the handcrafted evaluation.\n");
    s.push_str("#[rustfmt::skip]\n");
    s.push_str("pub const WEIGHTS: [i32; WEIGHT_COUNT] = [\n");
    let names = [
        "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier",
    ];
    for (half, stage) in ["middlegame", "endgame"].iter().enumerate() {
        let weights = &weights[half * FEATURE_COUNT..(half + 1) * FEATURE_COUNT];
        for (k, name) in names.iter().enumerate() {
            s.push_str(&format!(
                "    // {stage} {name}: ranks from the own back rank, files a-e\n"
            ));
            for rank in 0..10 {
                s.push_str("   ");
                for file in 0..5 {
                    s.push_str(&format!(" {:5},", weights[k * 50 + rank * 5 + file]));
                }
                s.push('\n');
            }
        }
        s.push_str(&format!(
            "    // {stage}: chariot, horse, cannon mobility; defence gap; empty and central\n"
        ));
        s.push_str(
            "    // cannon; horse near general; chariot on palace file; cannon and horse crowd;\n",
        );
        s.push_str("    // soldiers against a bare palace; chariot, horse, cannon palace reach;\n");
        s.push_str(
            "    // own and other side's chariot, horse, cannon, other pieces en prise; tempo\n   ",
        );
        for w in &weights[7 * 50..=TEMPO] {
            s.push_str(&format!(" {w},"));
        }
        s.push('\n');
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_moves_weights_towards_the_targets() {
        // Positions labelled with twice our own evaluation: the loss must fall.
        let eval = crate::eval::HandcraftedEval::new();
        let mut text = String::new();
        let mut pos = Position::startpos();
        for i in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[(i * 7) % moves.len()]);
            let score = crate::eval::Evaluator::evaluate(&eval, &pos);
            text.push_str(&format!("{};{}\n", pos.to_fen(), 2 * score));
        }
        let samples = parse_samples(&text, 10_000.0).unwrap();
        assert!(!samples.is_empty());
        let start = eval.params.weights;
        let before = loss(&start.map(|w| w as f64), &samples, 400.0);
        let config = TuneConfig {
            epochs: 50,
            ..Default::default()
        };
        let tuned = tune(&start, &samples, config, &mut |_, _| {});
        let after = loss(&tuned.map(|w| w as f64), &samples, 400.0);
        assert!(after < before, "{after} !< {before}");
    }

    #[test]
    fn bad_lines_name_their_number() {
        let e = parse_samples("# comment\nnot a fen;12\n", 1000.0).unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse_samples(&format!("{}\n", xiangqi_rules::START_FEN), 1000.0).unwrap_err();
        assert!(e.message.contains("score"));
    }

    #[test]
    fn generated_source_lists_every_weight() {
        let w = crate::eval::params::starting_weights();
        let src = weights_source(&w, "test");
        let numbers = src
            .split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .filter(|t| t.parse::<i32>().is_ok())
            .count();
        assert!(numbers >= WEIGHT_COUNT);
    }
}
