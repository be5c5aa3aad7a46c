//! The float network the trainer fits: `(1260 · P → H) × 2 perspectives → [side to move,
//! other] → SCReLU → 1`, with one output layer per bucket of piece counts
//! ([`xiangqi_engine::nnue::output_bucket`]) and P palace buckets (1, or
//! [`xiangqi_engine::nnue::PALACE_BUCKETS`]), its forward pass, the loss, and the gradient of one position.
//! With a second hidden layer of S units the SCReLU feeds S neurons per bucket, then a clipped
//! ReLU (`clamp(x, 0, 1)`), then the output.
//!
//! All parameters live in one flat vector (first-layer weights feature-major, first-layer
//! bias, the rows on the accumulators bucket by bucket — one per bucket, or one per bucket and
//! neuron of the second layer — and their biases, then a factorised network's shared rows, then
//! the second layer's output weights and biases) so the optimiser and checkpoints see a single
//! slice; a network without a second layer is laid out as before there was one.
//!
//! A network with palace buckets is trained factorised: beside each bucket's 1260 rows it keeps
//! 1260 shared rows (after the output biases), and an active input adds its bucket's row and
//! the shared row of the same piece and point. Every position thus also teaches the shared
//! rows, which carry what the buckets have in common to buckets that are seen rarely (a
//! general on its third rank). The exported network folds the shared rows into every bucket
//! ([`Network::ft_weights`]).

use crate::dataset::TrainingPosition;
use crate::rng::{Rng, symmetric};
use xiangqi_engine::memory::filled_in_huge_pages;
use xiangqi_engine::nnue::{INPUTS, output_bucket};

/// Centipawns per unit of network output (the file's `scale`).
pub const EVAL_SCALE: f32 = 400.0;
/// Centipawns per unit of the sigmoid's argument when scores become win probabilities.
pub const SIGMOID_SCALE: f32 = 400.0;
/// Every parameter is kept within ±this, so quantised accumulators cannot overflow `i16`.
pub const WEIGHT_CLIP: f32 = 1.98;
/// The first-layer rows of a factorised network (bucket and shared) are kept within ±this,
/// so that their sum stays inside the engine's limit of 992 / 255 ≈ 3.89.
pub const FACTORISED_CLIP: f32 = 1.94;
const _: () = assert!(
    2.0 * FACTORISED_CLIP * xiangqi_engine::nnue::net::QA as f32
        <= xiangqi_engine::nnue::net::FT_LIMIT as f32
);

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
    shape: Shape,
    params: Vec<f32>,
}

/// A network's shape; it also says where each parameter group starts in the flat vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Neurons per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// Palace buckets: 1, or [`xiangqi_engine::nnue::PALACE_BUCKETS`] (trained factorised).
    pub palace: usize,
    /// Units of the second hidden layer; 0 for none.
    pub second: usize,
}

impl Shape {
    /// A shape without palace buckets or a second layer.
    pub fn flat(hidden: usize, buckets: usize) -> Shape {
        Shape {
            hidden,
            buckets,
            palace: 1,
            second: 0,
        }
    }

    /// Whether the first layer keeps shared rows beside the buckets' rows.
    fn factorised(self) -> bool {
        self.palace > 1
    }
    /// The bucketed first-layer rows end here (the engine's rows).
    fn ft_bias(self) -> usize {
        self.palace * INPUTS * self.hidden
    }
    fn out_weights(self) -> usize {
        self.ft_bias() + self.hidden
    }
    /// Rows on the accumulators: one per bucket, or one per bucket and second-layer neuron.
    fn rows(self) -> usize {
        self.buckets * self.second.max(1)
    }
    /// The row of the accumulators' layer that `bucket` starts at.
    fn first_row(self, bucket: usize) -> usize {
        bucket * self.second.max(1)
    }
    /// The weights of row `row`: H for the side to move, then H for the other side.
    fn out_row(self, row: usize) -> std::ops::Range<usize> {
        let start = self.out_weights() + row * 2 * self.hidden;
        start..start + 2 * self.hidden
    }
    fn out_bias(self) -> usize {
        self.out_weights() + self.rows() * 2 * self.hidden
    }
    /// The shared first-layer rows of a factorised network start here.
    fn shared(self) -> usize {
        self.out_bias() + self.rows()
    }
    /// The second layer's output weights (S per bucket) start here.
    fn top_weights(self) -> usize {
        self.shared()
            + if self.factorised() {
                INPUTS * self.hidden
            } else {
                0
            }
    }
    /// The second layer's output biases (one per bucket) start here.
    fn top_bias(self) -> usize {
        self.top_weights() + self.buckets * self.second
    }
    /// The shared row of bucketed feature `feature`, if the network is factorised.
    #[inline(always)]
    fn shared_row(self, feature: usize) -> Option<std::ops::Range<usize>> {
        self.factorised().then(|| {
            let start = self.shared() + (feature % INPUTS) * self.hidden;
            start..start + self.hidden
        })
    }
    /// Number of parameters.
    pub fn len(self) -> usize {
        self.top_bias() + if self.second > 0 { self.buckets } else { 0 }
    }
    /// Whether a shape has no parameters (never: every shape has biases).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// Scratch space for one position's forward and backward pass.
#[derive(Clone, Debug)]
pub struct Scratch {
    stm: Vec<f32>,
    other: Vec<f32>,
    /// The second layer's sums before activation, when the network has one.
    units: Vec<f32>,
    /// The loss's gradient with respect to each accumulator.
    grad_stm: Vec<f32>,
    grad_other: Vec<f32>,
}

impl Scratch {
    /// Scratch space for a network of `hidden` neurons per perspective.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            stm: vec![0.0; hidden],
            other: vec![0.0; hidden],
            units: Vec::new(),
            grad_stm: vec![0.0; hidden],
            grad_other: vec![0.0; hidden],
        }
    }
}

/// The second layer's activation: `clamp(x, 0, 1)`.
#[inline(always)]
fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

impl Network {
    /// A network of `shape` with small random weights from `seed`. A factorised network
    /// starts with its buckets' rows at zero and random shared rows, so it starts as a network
    /// without palace buckets would.
    pub fn random(shape: Shape, seed: u64) -> Network {
        let mut rng = Rng::new(seed);
        let mut params = filled_in_huge_pages(shape.len(), 0.0);
        // About 30 features are active: first-layer sums start spread around 0 with a deviation
        // near 0.3, so about half the neurons start inside SCReLU's sloped part.
        let first_layer = if shape.factorised() {
            shape.shared()..shape.len()
        } else {
            0..shape.ft_bias()
        };
        for w in &mut params[first_layer] {
            *w = symmetric(&mut rng, 0.1);
        }
        let out_limit = 1.0 / (2.0 * shape.hidden as f32).sqrt();
        for w in &mut params[shape.out_weights()..shape.out_bias()] {
            *w = symmetric(&mut rng, out_limit);
        }
        // A second layer starts with its biases at zero, so that about half its neurons
        // start in the clipped ReLU's sloped part.
        let top_limit = 1.0 / (shape.second.max(1) as f32).sqrt();
        for w in &mut params[shape.top_weights()..shape.top_bias()] {
            *w = symmetric(&mut rng, top_limit);
        }
        Network { shape, params }
    }

    /// A network from its flat parameters; `None` when the length does not fit `shape`.
    pub fn from_params(shape: Shape, params: Vec<f32>) -> Option<Network> {
        (params.len() == shape.len()).then_some(Network { shape, params })
    }

    /// The network's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.shape.hidden
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        self.shape.buckets
    }

    /// Palace buckets.
    pub fn palace(&self) -> usize {
        self.shape.palace
    }

    /// Units of the second hidden layer; 0 for none.
    pub fn second(&self) -> usize {
        self.shape.second
    }

    /// Every parameter, in the flat order.
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// Every parameter, for the optimiser.
    pub fn params_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    fn layout(&self) -> Shape {
        self.shape
    }

    /// First-layer weights as the engine uses them, feature-major: feature `f`'s are
    /// `[f * H, f * H + H)`; a factorised network's shared rows are added to every bucket's.
    pub fn ft_weights(&self) -> Vec<f32> {
        let l = self.layout();
        let mut weights = self.params[..l.ft_bias()].to_vec();
        if l.factorised() {
            let shared = &self.params[l.shared()..l.len()];
            for bucket in weights.chunks_exact_mut(INPUTS * l.hidden) {
                for (w, s) in bucket.iter_mut().zip(shared) {
                    *w += s;
                }
            }
        }
        weights
    }

    /// First-layer bias.
    pub fn ft_bias(&self) -> &[f32] {
        let l = self.layout();
        &self.params[l.ft_bias()..l.out_weights()]
    }

    /// The rows on the accumulators, bucket by bucket (one per bucket, or one per bucket and
    /// second-layer neuron): in each, the first H for the side to move, the next H for the
    /// other side.
    pub fn out_weights(&self) -> &[f32] {
        let l = self.layout();
        &self.params[l.out_weights()..l.out_bias()]
    }

    /// The biases of those rows.
    pub fn out_bias(&self) -> &[f32] {
        let l = self.layout();
        &self.params[l.out_bias()..l.shared()]
    }

    /// The second layer's output weights, S per bucket (empty without a second layer).
    pub fn top_weights(&self) -> &[f32] {
        let l = self.layout();
        &self.params[l.top_weights()..l.top_bias()]
    }

    /// The second layer's output biases, one per bucket (empty without a second layer).
    pub fn top_bias(&self) -> &[f32] {
        let l = self.layout();
        &self.params[l.top_bias()..l.len()]
    }

    /// The output bucket of a position with `pieces` pieces.
    #[inline(always)]
    fn bucket(&self, pieces: usize) -> usize {
        output_bucket(pieces, self.shape.buckets)
    }

    /// Keeps every parameter within ±[`WEIGHT_CLIP`] (a factorised network's first-layer
    /// rows within ±[`FACTORISED_CLIP`]).
    pub fn clip(&mut self) {
        for (range, limit) in self.clip_limits() {
            for w in &mut self.params[range] {
                *w = w.clamp(-limit, limit);
            }
        }
    }

    /// The parameters' limits as [`Network::clip`] keeps them: ranges of parameters in order,
    /// together covering them all, each with its limit.
    pub fn clip_limits(&self) -> Vec<(std::ops::Range<usize>, f32)> {
        let l = self.layout();
        let first_layer = if l.factorised() {
            FACTORISED_CLIP
        } else {
            WEIGHT_CLIP
        };
        [
            (0..l.ft_bias(), first_layer),
            (l.ft_bias()..l.shared(), WEIGHT_CLIP),
            (l.shared()..l.top_weights(), first_layer),
            (l.top_weights()..l.len(), WEIGHT_CLIP),
        ]
        .into_iter()
        .filter(|(range, _)| !range.is_empty())
        .collect()
    }

    #[inline(always)]
    fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        let l = self.layout();
        let h = l.hidden;
        acc.copy_from_slice(self.ft_bias());
        for &f in features {
            let f = f as usize;
            for (a, w) in acc.iter_mut().zip(&self.params[f * h..f * h + h]) {
                *a += w;
            }
            if let Some(shared) = l.shared_row(f) {
                for (a, w) in acc.iter_mut().zip(&self.params[shared]) {
                    *a += w;
                }
            }
        }
    }

    /// Row `row` of the accumulators' layer, with its bias.
    #[inline(always)]
    fn row_sum(&self, stm: &[f32], other: &[f32], row: usize) -> f32 {
        let weights = &self.params[self.layout().out_row(row)];
        let (w_stm, w_other) = weights.split_at(self.hidden());
        let mut y = self.out_bias()[row];
        for (a, w) in stm.iter().zip(w_stm) {
            y += screlu(*a) * w;
        }
        for (a, w) in other.iter().zip(w_other) {
            y += screlu(*a) * w;
        }
        y
    }

    /// The output from the accumulators in `scratch`; a second layer's sums are left in
    /// `scratch.units`.
    #[inline(always)]
    fn output(&self, scratch: &mut Scratch, bucket: usize) -> f32 {
        let l = self.layout();
        if l.second == 0 {
            return self.row_sum(&scratch.stm, &scratch.other, bucket);
        }
        let first = l.first_row(bucket);
        scratch.units.resize(l.second, 0.0);
        let mut y = self.params[l.top_bias() + bucket];
        for j in 0..l.second {
            let z = self.row_sum(&scratch.stm, &scratch.other, first + j);
            scratch.units[j] = z;
            y += self.params[l.top_weights() + first + j] * crelu(z);
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
        let mut scratch = Scratch::new(self.hidden());
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
        let l = self.layout();
        let h = l.hidden;
        let y = self.forward(position.side_to_move(), position.other(), scratch);
        let p = sigmoid(y * EVAL_SCALE / SIGMOID_SCALE);
        let error = p - target(position, lambda);
        let g = weight * 2.0 * error * p * (1.0 - p) * EVAL_SCALE / SIGMOID_SCALE;
        let bucket = self.bucket(position.side_to_move().len());
        // The gradient reaching each row on the accumulators: the output's itself, or through
        // the second layer's output weights and clipped ReLU.
        let first = l.first_row(bucket);
        let mut rows = [(0usize, 0f32); xiangqi_engine::nnue::net::MAX_SECOND_LAYER];
        let rows = if l.second == 0 {
            rows[0] = (bucket, g);
            &rows[..1]
        } else {
            grads[l.top_bias() + bucket] += g;
            for (j, (row, &z)) in rows.iter_mut().zip(&scratch.units).enumerate() {
                let top = l.top_weights() + first + j;
                grads[top] += g * crelu(z);
                let slope = if z > 0.0 && z < 1.0 { 1.0 } else { 0.0 };
                *row = (first + j, g * self.params[top] * slope);
            }
            &rows[..l.second]
        };
        scratch.grad_stm.fill(0.0);
        scratch.grad_other.fill(0.0);
        // Each row's weights' gradients, and the accumulators' gradients before SCReLU.
        for &(row, c) in rows {
            if c == 0.0 {
                continue;
            }
            grads[l.out_bias() + row] += c;
            let range = l.out_row(row);
            let (w_stm, w_other) = self.params[range.clone()].split_at(h);
            let (g_stm, g_other) = grads[range].split_at_mut(h);
            for i in 0..h {
                g_stm[i] += c * screlu(scratch.stm[i]);
                scratch.grad_stm[i] += c * w_stm[i];
                g_other[i] += c * screlu(scratch.other[i]);
                scratch.grad_other[i] += c * w_other[i];
            }
        }
        for i in 0..h {
            scratch.grad_stm[i] *= screlu_derivative(scratch.stm[i]);
            scratch.grad_other[i] *= screlu_derivative(scratch.other[i]);
            grads[l.ft_bias() + i] += scratch.grad_stm[i] + scratch.grad_other[i];
        }
        for (features, delta) in [
            (position.side_to_move(), &scratch.grad_stm),
            (position.other(), &scratch.grad_other),
        ] {
            for &f in features {
                let f = f as usize;
                for (gr, d) in grads[f * h..f * h + h].iter_mut().zip(delta.iter()) {
                    *gr += d;
                }
                if let Some(shared) = l.shared_row(f) {
                    for (gr, d) in grads[shared].iter_mut().zip(delta.iter()) {
                        *gr += d;
                    }
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

    /// Checks the analytic gradient of each probed parameter against the loss's central
    /// difference (λ 0.6).
    fn assert_gradients_match_differences(
        net: &Network,
        p: &TrainingPosition,
        grads: &[f32],
        probes: &[usize],
    ) {
        let mut scratch = Scratch::new(net.hidden());
        for &i in probes {
            let eps = 1e-3;
            let mut plus = net.clone();
            plus.params_mut()[i] += eps;
            let mut minus = net.clone();
            minus.params_mut()[i] -= eps;
            let numeric =
                (plus.loss(p, 0.6, &mut scratch) - minus.loss(p, 0.6, &mut scratch)) / (2.0 * eps);
            let analytic = grads[i];
            assert!(
                (numeric - analytic).abs() < 1e-3 + 0.05 * analytic.abs(),
                "parameter {i}: numeric {numeric} analytic {analytic}"
            );
        }
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
        let mut net = Network::random(Shape::flat(16, 4), 9);
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
        assert_gradients_match_differences(&net, &p, &grads, &probes);
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
    fn a_factorised_network_trains_shared_and_bucket_rows_and_exports_their_sum() {
        let shape = Shape {
            hidden: 16,
            buckets: 2,
            palace: 6,
            second: 0,
        };
        let mut net = Network::random(shape, 3);
        let l = net.layout();
        for (i, w) in net.params_mut()[..l.ft_bias()].iter_mut().enumerate() {
            *w = 0.01 * (i % 13) as f32;
        }
        for (i, b) in net.params_mut()[l.ft_bias()..l.out_weights()]
            .iter_mut()
            .enumerate()
        {
            *b = 0.1 + 0.05 * (i % 7) as f32;
        }
        // Features in buckets 0 and 3; 5 + 3·1260 shares its shared row with feature 5.
        let p = TrainingPosition::new(
            &[5, 3 * INPUTS + 700],
            &[2 * INPUTS + 5, 12],
            -40,
            Wdl::Loss,
        )
        .unwrap();
        let mut scratch = Scratch::new(16);
        let mut grads = vec![0.0; net.params().len()];
        net.accumulate_gradient(&p, 0.6, 1.0, &mut scratch, &mut grads);
        let shared = |feature: usize, i: usize| l.shared() + feature * 16 + i;
        let probes = [
            5 * 16 + 1,
            (3 * INPUTS + 700) * 16 + 4,
            (2 * INPUTS + 5) * 16 + 6,
            shared(5, 2),
            shared(700, 9),
            shared(12, 0),
            l.out_weights() + 3,
        ];
        assert_gradients_match_differences(&net, &p, &grads, &probes);
        // Feature 5 is active from both sides (buckets 0 and 2): its shared row gets both.
        let own = |f: usize, i: usize| grads[f * 16 + i];
        assert!((grads[shared(5, 2)] - own(5, 2) - own(2 * INPUTS + 5, 2)).abs() < 1e-6);
        // An inactive feature's shared row gets nothing.
        assert!((0..16).all(|i| grads[shared(100, i)] == 0.0));
        // The exported rows are the bucket's plus the shared ones.
        let exported = net.ft_weights();
        assert_eq!(exported.len(), 6 * INPUTS * 16);
        let f = 4 * INPUTS + 33;
        assert_eq!(
            exported[f * 16 + 7],
            net.params()[f * 16 + 7] + net.params()[shared(33, 7)]
        );
    }

    #[test]
    fn a_second_layer_gets_the_gradient_through_its_clipped_relu() {
        let shape = Shape {
            hidden: 16,
            buckets: 2,
            palace: 1,
            second: 4,
        };
        let mut net = Network::random(shape, 5);
        let l = net.layout();
        for (i, b) in net.params_mut()[l.ft_bias()..l.out_weights()]
            .iter_mut()
            .enumerate()
        {
            *b = 0.1 + 0.05 * (i % 7) as f32;
        }
        // Neuron biases that leave the first bucket's neurons 0 and 1 in the sloped part, 2
        // clipped at 0 and 3 clipped at 1.
        for (j, b) in [0.3, 0.5, -5.0, 5.0].into_iter().enumerate() {
            net.params_mut()[l.out_bias() + j] = b;
        }
        let p = sample();
        let mut scratch = Scratch::new(16);
        let mut grads = vec![0.0; net.params().len()];
        net.accumulate_gradient(&p, 0.6, 1.0, &mut scratch, &mut grads);
        let row = |j: usize, i: usize| l.out_weights() + j * 32 + i;
        let probes = [
            3 * 16 + 2,
            700 * 16 + 5,
            l.ft_bias() + 4,
            row(0, 3),
            row(1, 16 + 7),
            l.out_bias(),
            l.out_bias() + 1,
            l.top_weights(),
            l.top_weights() + 3,
            l.top_bias(),
        ];
        assert_gradients_match_differences(&net, &p, &grads, &probes);
        assert!(grads[l.out_bias()].abs() > 0.0 && grads[l.top_bias()].abs() > 0.0);
        // Clipped neurons pass nothing back to their rows, though their output weights learn
        // (neuron 3 is at 1; neuron 2 at 0 gives its output weight nothing either).
        assert!((0..32).all(|i| grads[row(2, i)] == 0.0 && grads[row(3, i)] == 0.0));
        assert_eq!(grads[l.top_weights() + 2], 0.0);
        assert!(grads[l.top_weights() + 3].abs() > 0.0);
        // The other bucket's neurons and output are untouched by a three-piece position.
        assert!(grads[row(4, 0)..l.out_bias()].iter().all(|&g| g == 0.0));
        assert_eq!(grads[l.top_bias() + 1], 0.0);
        assert!(
            grads[l.top_weights() + 4..l.top_bias()]
                .iter()
                .all(|&g| g == 0.0)
        );
    }

    #[test]
    fn clip_keeps_weights_in_bounds() {
        let mut net = Network::random(Shape::flat(16, 1), 1);
        net.params_mut()[0] = 5.0;
        net.params_mut()[1] = -5.0;
        net.clip();
        assert_eq!(net.params()[0], WEIGHT_CLIP);
        assert_eq!(net.params()[1], -WEIGHT_CLIP);
        // A factorised network's first-layer rows, bucket and shared, keep a sum the engine
        // accepts; its other weights keep the common bound.
        let shape = Shape {
            hidden: 16,
            buckets: 1,
            palace: 6,
            second: 0,
        };
        let mut net = Network::random(shape, 1);
        let l = net.layout();
        let last = net.params().len() - 1;
        for i in [0, l.out_weights(), last] {
            net.params_mut()[i] = 5.0;
        }
        net.clip();
        assert_eq!(net.params()[0], FACTORISED_CLIP);
        assert_eq!(net.params()[last], FACTORISED_CLIP);
        assert_eq!(net.params()[l.out_weights()], WEIGHT_CLIP);
    }
}
