//! The float network the trainer fits: `(1260 → H) × 2 perspectives → [side to move, other]
//! → SCReLU → 1`, with one output layer per bucket of piece counts
//! ([`xiangqi_engine::nnue::output_bucket`]), its forward pass, the loss, and the gradient of
//! one position.
//!
//! All parameters live in one flat vector (first-layer weights feature-major, first-layer
//! bias, output weights bucket by bucket, output biases) so the optimiser and checkpoints see
//! a single slice.

use crate::dataset::TrainingPosition;
use crate::rng::{Rng, symmetric};
use xiangqi_engine::nnue::{INPUTS, output_bucket};

/// Centipawns per unit of network output (the file's `scale`).
pub const EVAL_SCALE: f32 = 400.0;
/// Centipawns per unit of the sigmoid's argument when scores become win probabilities.
pub const SIGMOID_SCALE: f32 = 400.0;
/// Every parameter is kept within ±this, so quantised accumulators cannot overflow `i16`.
pub const WEIGHT_CLIP: f32 = 1.98;

/// SCReLU: `clamp(x, 0, 1)²`.
#[inline(always)]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The derivative of [`screlu`].
#[inline(always)]
fn screlu_derivative(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 }
}

/// The logistic function.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target of a position: `λ · sigmoid(score / 400) + (1 − λ) · result`.
pub fn target(position: &TrainingPosition, lambda: f32) -> f32 {
    lambda * sigmoid(position.score as f32 / SIGMOID_SCALE)
        + (1.0 - lambda) * position.outcome.value()
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    hidden: usize,
    buckets: usize,
    params: Vec<f32>,
}

/// Where each parameter group starts in the flat vector.
#[derive(Clone, Copy, Debug)]
struct Layout {
    hidden: usize,
    buckets: usize,
}

impl Layout {
    fn ft_bias(self) -> usize {
        INPUTS * self.hidden
    }
    fn out_weights(self) -> usize {
        self.ft_bias() + self.hidden
    }
    /// The output weights of `bucket`: H for the side to move, then H for the other side.
    fn out_row(self, bucket: usize) -> std::ops::Range<usize> {
        let start = self.out_weights() + bucket * 2 * self.hidden;
        start..start + 2 * self.hidden
    }
    fn out_bias(self) -> usize {
        self.out_weights() + self.buckets * 2 * self.hidden
    }
    fn len(self) -> usize {
        self.out_bias() + self.buckets
    }
}

/// Scratch space for one position's forward and backward pass.
#[derive(Clone, Debug)]
pub struct Scratch {
    stm: Vec<f32>,
    other: Vec<f32>,
}

impl Scratch {
    /// Scratch space for a network of `hidden` neurons per perspective.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            stm: vec![0.0; hidden],
            other: vec![0.0; hidden],
        }
    }
}

impl Network {
    /// A network of `hidden` neurons per perspective and `buckets` output buckets with small
    /// random weights from `seed`.
    pub fn random(hidden: usize, buckets: usize, seed: u64) -> Network {
        let layout = Layout { hidden, buckets };
        let mut rng = Rng::new(seed);
        let mut params = vec![0.0; layout.len()];
        // About 30 features are active: first-layer sums start spread around 0 with a deviation
        // near 0.3, so about half the neurons start inside SCReLU's sloped part.
        for w in &mut params[..layout.ft_bias()] {
            *w = symmetric(&mut rng, 0.1);
        }
        let out_limit = 1.0 / (2.0 * hidden as f32).sqrt();
        for w in &mut params[layout.out_weights()..layout.out_bias()] {
            *w = symmetric(&mut rng, out_limit);
        }
        Network {
            hidden,
            buckets,
            params,
        }
    }

    /// A network from its flat parameters; `None` when the length does not fit `hidden`
    /// and `buckets`.
    pub fn from_params(hidden: usize, buckets: usize, params: Vec<f32>) -> Option<Network> {
        (params.len() == Layout { hidden, buckets }.len()).then_some(Network {
            hidden,
            buckets,
            params,
        })
    }

    /// Neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// Number of parameters for a network of `hidden` neurons and `buckets` output buckets.
    pub fn param_count(hidden: usize, buckets: usize) -> usize {
        Layout { hidden, buckets }.len()
    }

    /// Every parameter, in the flat order.
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// Every parameter, for the optimiser.
    pub fn params_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    fn layout(&self) -> Layout {
        Layout {
            hidden: self.hidden,
            buckets: self.buckets,
        }
    }

    /// First-layer weights, feature-major: feature `f`'s are `[f * H, f * H + H)`.
    pub fn ft_weights(&self) -> &[f32] {
        &self.params[..self.layout().ft_bias()]
    }

    /// First-layer bias.
    pub fn ft_bias(&self) -> &[f32] {
        let l = self.layout();
        &self.params[l.ft_bias()..l.out_weights()]
    }

    /// Output weights, bucket by bucket: in each, the first H for the side to move, the next
    /// H for the other side.
    pub fn out_weights(&self) -> &[f32] {
        let l = self.layout();
        &self.params[l.out_weights()..l.out_bias()]
    }

    /// Output biases, one per bucket.
    pub fn out_bias(&self) -> &[f32] {
        let l = self.layout();
        &self.params[l.out_bias()..l.len()]
    }

    /// The output bucket of a position with `pieces` pieces.
    #[inline(always)]
    fn bucket(&self, pieces: usize) -> usize {
        output_bucket(pieces, self.buckets)
    }

    /// Keeps every parameter within ±[`WEIGHT_CLIP`].
    pub fn clip(&mut self) {
        for w in &mut self.params {
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }

    #[inline(always)]
    fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        let h = self.hidden;
        acc.copy_from_slice(self.ft_bias());
        let weights = self.ft_weights();
        for &f in features {
            let row = &weights[f as usize * h..f as usize * h + h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    #[inline(always)]
    fn output(&self, scratch: &Scratch, bucket: usize) -> f32 {
        let row = &self.params[self.layout().out_row(bucket)];
        let (w_stm, w_other) = row.split_at(self.hidden);
        let mut y = self.out_bias()[bucket];
        for (a, w) in scratch.stm.iter().zip(w_stm) {
            y += screlu(*a) * w;
        }
        for (a, w) in scratch.other.iter().zip(w_other) {
            y += screlu(*a) * w;
        }
        y
    }

    /// The raw output for a position's features (multiply by [`EVAL_SCALE`] for centipawns).
    #[inline(always)]
    pub fn forward(&self, side_to_move: &[u16], other: &[u16], scratch: &mut Scratch) -> f32 {
        self.accumulate(side_to_move, &mut scratch.stm);
        self.accumulate(other, &mut scratch.other);
        self.output(scratch, self.bucket(side_to_move.len()))
    }

    /// The evaluation in centipawns from the side to move's view.
    pub fn evaluate_cp(&self, side_to_move: &[u16], other: &[u16]) -> f32 {
        let mut scratch = Scratch::new(self.hidden);
        self.forward(side_to_move, other, &mut scratch) * EVAL_SCALE
    }

    /// The loss of one position, `(sigmoid(y · scale / 400) − t)²`.
    pub fn loss(&self, position: &TrainingPosition, lambda: f32, scratch: &mut Scratch) -> f32 {
        let y = self.forward(position.side_to_move(), position.other(), scratch);
        let p = sigmoid(y * EVAL_SCALE / SIGMOID_SCALE);
        let d = p - target(position, lambda);
        d * d
    }

    #[inline(always)]
    /// Adds `weight` × the gradient of one position's loss to `grads` (laid out like the
    /// parameters; only the rows of active features are touched) and returns the loss.
    pub fn accumulate_gradient(
        &self,
        position: &TrainingPosition,
        lambda: f32,
        weight: f32,
        scratch: &mut Scratch,
        grads: &mut [f32],
    ) -> f32 {
        let h = self.hidden;
        let l = self.layout();
        let y = self.forward(position.side_to_move(), position.other(), scratch);
        let p = sigmoid(y * EVAL_SCALE / SIGMOID_SCALE);
        let error = p - target(position, lambda);
        let g = weight * 2.0 * error * p * (1.0 - p) * EVAL_SCALE / SIGMOID_SCALE;
        let bucket = self.bucket(position.side_to_move().len());
        grads[l.out_bias() + bucket] += g;
        let row = l.out_row(bucket);
        let (w_stm, w_other) = self.params[row.clone()].split_at(h);
        // The output weights' gradients, then each accumulator's gradient in place.
        {
            let (g_stm, g_other) = grads[row].split_at_mut(h);
            for i in 0..h {
                let a = scratch.stm[i];
                g_stm[i] += g * screlu(a);
                scratch.stm[i] = g * w_stm[i] * screlu_derivative(a);
                let b = scratch.other[i];
                g_other[i] += g * screlu(b);
                scratch.other[i] = g * w_other[i] * screlu_derivative(b);
            }
        }
        for i in 0..h {
            grads[l.ft_bias() + i] += scratch.stm[i] + scratch.other[i];
        }
        for (features, delta) in [
            (position.side_to_move(), &scratch.stm),
            (position.other(), &scratch.other),
        ] {
            for &f in features {
                let row = &mut grads[f as usize * h..f as usize * h + h];
                for (gr, d) in row.iter_mut().zip(delta.iter()) {
                    *gr += d;
                }
            }
        }
        error * error
    }
}

/// A share of a mini-batch whose gradient one thread computes.
#[derive(Clone, Copy, Debug)]
pub struct GradientJob<'a> {
    /// Every training position.
    pub data: &'a [TrainingPosition],
    /// The positions of this share, as indices into `data`.
    pub indices: &'a [u32],
    /// Weight of the search score in the target.
    pub lambda: f32,
    /// Factor of each position's gradient (1 / batch size for the batch's mean).
    pub weight: f32,
}

impl Network {
    /// Adds the weighted gradients of `job`'s positions to `grads` and returns their summed
    /// loss; runs on AVX2 and FMA when the CPU has them.
    pub fn accumulate_gradients(
        &self,
        job: GradientJob<'_>,
        scratch: &mut Scratch,
        grads: &mut [f32],
    ) -> f64 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has AVX2 and FMA, checked just above; the function needs no more.
            return unsafe { self.accumulate_gradients_avx2(job, scratch, grads) };
        }
        self.accumulate_gradients_portable(job, scratch, grads)
    }

    /// [`Network::accumulate_gradients`] compiled for AVX2 and FMA (the row additions of the
    /// first layer are most of the work, and vectorise eight floats at a time).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn accumulate_gradients_avx2(
        &self,
        job: GradientJob<'_>,
        scratch: &mut Scratch,
        grads: &mut [f32],
    ) -> f64 {
        self.accumulate_gradients_portable(job, scratch, grads)
    }

    #[inline(always)]
    fn accumulate_gradients_portable(
        &self,
        job: GradientJob<'_>,
        scratch: &mut Scratch,
        grads: &mut [f32],
    ) -> f64 {
        let mut loss = 0.0f64;
        for &i in job.indices {
            let position = &job.data[i as usize];
            loss +=
                self.accumulate_gradient(position, job.lambda, job.weight, scratch, grads) as f64;
        }
        loss
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Wdl;

    fn sample() -> TrainingPosition {
        TrainingPosition::new(&[3, 700, 1000], &[5, 650, 12], 120, Wdl::Win).unwrap()
    }

    #[test]
    fn screlu_clamps_and_squares() {
        assert_eq!(screlu(-0.5), 0.0);
        assert_eq!(screlu(0.5), 0.25);
        assert_eq!(screlu(3.0), 1.0);
    }

    #[test]
    fn target_blends_score_and_result() {
        let p = sample();
        assert!((target(&p, 0.0) - 1.0).abs() < 1e-6);
        assert!((target(&p, 1.0) - sigmoid(0.3)).abs() < 1e-6);
    }

    #[test]
    fn analytic_gradient_matches_finite_differences() {
        let mut net = Network::random(16, 4, 9);
        // Biases away from zero so that some neurons sit inside SCReLU's sloped part.
        let l = net.layout();
        for (i, b) in net.params_mut()[l.ft_bias()..l.out_weights()]
            .iter_mut()
            .enumerate()
        {
            *b = 0.1 + 0.05 * (i % 7) as f32;
        }
        let p = sample();
        let mut scratch = Scratch::new(16);
        let mut grads = vec![0.0; net.params().len()];
        net.accumulate_gradient(&p, 0.6, 1.0, &mut scratch, &mut grads);
        let probes = [
            3 * 16 + 2,
            700 * 16 + 5,
            12 * 16 + 9,
            l.ft_bias() + 4,
            l.out_weights() + 3,
            l.out_weights() + 16 + 7,
            l.out_bias(),
            // Another bucket's output layer: a position of three pieces never reaches it.
            l.out_weights() + 2 * 16 + 3,
            l.out_bias() + 1,
        ];
        for &i in &probes {
            let eps = 1e-3;
            let mut plus = net.clone();
            plus.params_mut()[i] += eps;
            let mut minus = net.clone();
            minus.params_mut()[i] -= eps;
            let numeric = (plus.loss(&p, 0.6, &mut scratch) - minus.loss(&p, 0.6, &mut scratch))
                / (2.0 * eps);
            let analytic = grads[i];
            assert!(
                (numeric - analytic).abs() < 1e-3 + 0.05 * analytic.abs(),
                "parameter {i}: numeric {numeric} analytic {analytic}"
            );
        }
        assert!(grads[l.out_bias()].abs() > 0.0);
        assert_eq!(grads[l.out_bias() + 1], 0.0);
        assert!(
            grads[l.out_weights() + 32..l.out_bias()]
                .iter()
                .all(|&g| g == 0.0)
        );
        // A feature that is not active gets no gradient.
        assert!(grads[100 * 16..101 * 16].iter().all(|&g| g == 0.0));
    }

    #[test]
    fn clip_keeps_weights_in_bounds() {
        let mut net = Network::random(16, 1, 1);
        net.params_mut()[0] = 5.0;
        net.params_mut()[1] = -5.0;
        net.clip();
        assert_eq!(net.params()[0], WEIGHT_CLIP);
        assert_eq!(net.params()[1], -WEIGHT_CLIP);
    }
}
