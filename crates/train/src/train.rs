//! The training loop: epochs of shuffled mini-batches, each batch's gradient computed in
//! parallel over threads and summed, one Adam step per batch with weights clipped after it,
//! a step-decayed learning rate, and the validation loss after every epoch.

use crate::dataset::TrainingPosition;
use crate::model::{GradientJob, Network, Scratch};
use crate::optimiser::{Adam, Step};
use crate::rng::Rng;
use std::thread;
use std::time::{Duration, Instant};
use xiangqi_engine::memory::filled_in_huge_pages;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Last epoch to run (1-based; a resumed run continues up to it).
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Learning rate of the first epochs.
    pub lr: f32,
    /// The learning rate is multiplied by `lr_gamma` after every `lr_step` epochs (0: never).
    pub lr_step: usize,
    /// Factor of each learning-rate drop.
    pub lr_gamma: f32,
    /// Weight of the search score in the target; the result gets `1 − lambda`.
    pub lambda: f32,
    /// Decoupled weight decay (AdamW) per unit of learning rate; 0 for none.
    pub weight_decay: f32,
    /// Threads computing gradients.
    pub threads: usize,
    /// Seed of each epoch's shuffle.
    pub seed: u64,
}

impl TrainConfig {
    /// The learning rate of `epoch` (1-based).
    pub fn learning_rate(&self, epoch: usize) -> f32 {
        if self.lr_step == 0 {
            return self.lr;
        }
        let drops = (epoch.saturating_sub(1) / self.lr_step) as i32;
        self.lr * self.lr_gamma.powi(drops)
    }
}

/// What one epoch measured.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch (1-based).
    pub epoch: usize,
    /// Its learning rate.
    pub lr: f32,
    /// Mean loss over the epoch's training positions (measured as they were trained on).
    pub train_loss: f64,
    /// Mean loss over the validation positions after the epoch, if there are any.
    pub validation_loss: Option<f64>,
    /// Training positions per second.
    pub positions_per_second: f64,
    /// Time since training started.
    pub elapsed: Duration,
}

impl std::fmt::Display for EpochReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "epoch {:>3}  lr {:.2e}  train loss {:.6}",
            self.epoch, self.lr, self.train_loss
        )?;
        match self.validation_loss {
            Some(v) => write!(f, "  validation loss {v:.6}")?,
            None => write!(f, "  validation loss -")?,
        }
        write!(
            f,
            "  {:.0} pos/s  elapsed {:.1}s",
            self.positions_per_second,
            self.elapsed.as_secs_f64()
        )
    }
}

/// A network, its optimiser state and the per-thread gradient buffers.
pub struct Trainer {
    /// The network being trained.
    pub net: Network,
    /// Adam's state for the network's parameters.
    pub adam: Adam,
    /// Epochs already finished (nonzero when resumed from a checkpoint).
    pub epochs_done: usize,
    config: TrainConfig,
    buffers: Vec<Vec<f32>>,
    scratches: Vec<Scratch>,
}

impl Trainer {
    /// A trainer for `net`, continuing from `adam` after `epochs_done` epochs.
    pub fn new(net: Network, adam: Adam, epochs_done: usize, config: TrainConfig) -> Trainer {
        let threads = config.threads.max(1);
        let params = net.params().len();
        let hidden = net.hidden();
        Trainer {
            net,
            adam,
            epochs_done,
            config,
            buffers: (0..threads)
                .map(|_| filled_in_huge_pages(params, 0.0))
                .collect(),
            scratches: vec![Scratch::new(hidden); threads],
        }
    }

    /// The configuration.
    pub fn config(&self) -> &TrainConfig {
        &self.config
    }

    /// Runs the remaining epochs, calling `after_epoch` after each (to print and save); stops
    /// at the first error it returns.
    pub fn run<E>(
        &mut self,
        train: &[TrainingPosition],
        validation: &[TrainingPosition],
        mut after_epoch: impl FnMut(&Trainer, &EpochReport) -> Result<(), E>,
    ) -> Result<(), E> {
        let start = Instant::now();
        while self.epochs_done < self.config.epochs {
            let epoch = self.epochs_done + 1;
            let epoch_start = Instant::now();
            let lr = self.config.learning_rate(epoch);
            let train_loss = self.train_epoch(epoch, train, lr);
            let seconds = epoch_start.elapsed().as_secs_f64().max(1e-9);
            let validation_loss = (!validation.is_empty()).then(|| {
                mean_loss(
                    &self.net,
                    validation,
                    self.config.lambda,
                    &mut self.scratches,
                )
            });
            self.epochs_done = epoch;
            let report = EpochReport {
                epoch,
                lr,
                train_loss,
                validation_loss,
                positions_per_second: train.len() as f64 / seconds,
                elapsed: start.elapsed(),
            };
            after_epoch(self, &report)?;
        }
        Ok(())
    }

    /// One pass over `data` in an order shuffled from the seed and the epoch; returns the mean
    /// training loss.
    pub fn train_epoch(&mut self, epoch: usize, data: &[TrainingPosition], lr: f32) -> f64 {
        let mut order: Vec<u32> = (0..data.len() as u32).collect();
        Rng::new(self.config.seed ^ (epoch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .shuffle(&mut order);
        let mut loss_sum = 0.0;
        for batch in order.chunks(self.config.batch.max(1)) {
            loss_sum += self.batch_gradient(data, batch);
            self.optimiser_step(lr);
        }
        if data.is_empty() {
            0.0
        } else {
            loss_sum / data.len() as f64
        }
    }

    /// Leaves the mean gradient of `batch` spread over the buffers (each thread's share in its
    /// own, added to the zeros the last step left); returns the batch's summed loss.
    fn batch_gradient(&mut self, data: &[TrainingPosition], batch: &[u32]) -> f64 {
        let threads = self.buffers.len();
        let chunk = batch.len().div_ceil(threads).max(1);
        let weight = 1.0 / batch.len() as f32;
        let lambda = self.config.lambda;
        let net = &self.net;
        thread::scope(|s| {
            let workers: Vec<_> = self
                .buffers
                .iter_mut()
                .zip(self.scratches.iter_mut())
                .zip(batch.chunks(chunk))
                .map(|((grads, scratch), part)| {
                    s.spawn(move || {
                        let job = GradientJob {
                            data,
                            indices: part,
                            lambda,
                            weight,
                        };
                        net.accumulate_gradients(job, scratch, grads)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().expect("a gradient worker panicked"))
                .sum()
        })
    }

    /// One Adam step along the sum of the buffers, each parameter then clipped, on every
    /// thread: the parameters go in segments of [`SEGMENT`] (each within one clip range), a
    /// thread takes a run of segments, and sums, steps and zeroes the buffers segment by
    /// segment while they are in its cache. The sums and steps are the same in any order.
    fn optimiser_step(&mut self, lr: f32) {
        let step = self.adam.next_step(lr, self.config.weight_decay);
        let limits = self.net.clip_limits();
        let mut params = self.net.params_mut();
        let mut first = &mut self.adam.first[..];
        let mut second = &mut self.adam.second[..];
        let mut buffers: Vec<&mut [f32]> = self.buffers.iter_mut().map(|b| &mut b[..]).collect();
        let mut segments = Vec::new();
        for (range, limit) in limits {
            let mut left = range.len();
            while left > 0 {
                let n = left.min(SEGMENT);
                left -= n;
                segments.push(Segment {
                    params: take_front(&mut params, n),
                    first: take_front(&mut first, n),
                    second: take_front(&mut second, n),
                    grads: buffers.iter_mut().map(|b| take_front(b, n)).collect(),
                    limit,
                });
            }
        }
        let per_thread = segments.len().div_ceil(self.config.threads.max(1)).max(1);
        thread::scope(|s| {
            for run in segments.chunks_mut(per_thread) {
                s.spawn(move || {
                    for segment in run {
                        segment.apply(&step);
                    }
                });
            }
        });
    }
}

/// Parameters per segment of [`Trainer::optimiser_step`]: small enough that a segment's
/// parameters, moments and gradients stay in a core's cache.
const SEGMENT: usize = 8192;

/// One segment of the parameters with their moments, their gradients in every buffer and
/// their clip limit.
struct Segment<'a> {
    params: &'a mut [f32],
    first: &'a mut [f32],
    second: &'a mut [f32],
    grads: Vec<&'a mut [f32]>,
    limit: f32,
}

impl Segment<'_> {
    /// Sums the gradients into the first buffer, takes the step and leaves every buffer zero.
    fn apply(&mut self, step: &Step) {
        let (total, rest) = self
            .grads
            .split_first_mut()
            .expect("at least one gradient buffer");
        for other in rest.iter_mut() {
            for (t, o) in total.iter_mut().zip(other.iter_mut()) {
                *t += *o;
                *o = 0.0;
            }
        }
        step.apply(self.params, total, self.first, self.second, self.limit);
        total.fill(0.0);
    }
}

/// Splits the first `n` elements off the front of `slice`.
fn take_front<'a>(slice: &mut &'a mut [f32], n: usize) -> &'a mut [f32] {
    let (front, back) = std::mem::take(slice).split_at_mut(n);
    *slice = back;
    front
}

/// The mean loss of `net` over `data`, computed in parallel with one scratch per thread.
pub fn mean_loss(
    net: &Network,
    data: &[TrainingPosition],
    lambda: f32,
    scratches: &mut [Scratch],
) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let chunk = data.len().div_ceil(scratches.len().max(1));
    let sum: f64 = thread::scope(|s| {
        let workers: Vec<_> = scratches
            .iter_mut()
            .zip(data.chunks(chunk))
            .map(|(scratch, part)| {
                s.spawn(move || {
                    part.iter()
                        .map(|p| net.loss(p, lambda, scratch) as f64)
                        .sum::<f64>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a loss worker panicked"))
            .sum()
    });
    sum / data.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Shape;
    use crate::rng::symmetric;

    /// The step on three threads, segment by segment, moves every parameter exactly as one
    /// Adam step along the summed gradients followed by the clip, and leaves every buffer zero.
    #[test]
    fn the_threaded_step_equals_one_adam_step_and_clip_and_zeroes_the_buffers() {
        let shape = Shape {
            palace: 6,
            ..Shape::flat(16, 2)
        };
        let mut net = Network::random(shape, 4);
        let len = net.params().len();
        for (range, _) in net.clip_limits() {
            for w in net.params_mut()[range].iter_mut().step_by(997) {
                *w = 3.0;
            }
        }
        assert!(len > 3 * SEGMENT, "several segments per thread: {len}");
        let config = TrainConfig {
            epochs: 1,
            batch: 8,
            lr: 0.01,
            lr_step: 0,
            lr_gamma: 1.0,
            lambda: 0.5,
            weight_decay: 1.0,
            threads: 3,
            seed: 1,
        };
        let mut trainer = Trainer::new(net.clone(), Adam::new(len), 0, config);
        let mut rng = Rng::new(8);
        let limits = trainer.net.clip_limits();
        assert!(limits.len() >= 3, "{limits:?}");
        for round in 0..3 {
            for buffer in &mut trainer.buffers {
                for g in buffer.iter_mut() {
                    *g = symmetric(&mut rng, 40.0);
                }
            }
            let sum: Vec<f32> = (0..len)
                .map(|i| trainer.buffers.iter().fold(0.0, |t, b| t + b[i]))
                .collect();
            let mut expected = trainer.net.clone();
            let mut adam = trainer.adam.clone();
            adam.step(expected.params_mut(), &sum, 0.01, 1.0);
            expected.clip();
            trainer.optimiser_step(0.01);
            assert!(trainer.net.params() == expected.params());
            assert!(trainer.adam == adam);
            assert!(trainer.buffers.iter().all(|b| b.iter().all(|&g| g == 0.0)));
            if round == 0 {
                for (range, limit) in &limits {
                    let clipped = trainer.net.params()[range.clone()].iter();
                    assert!(clipped.clone().any(|w| w.abs() == *limit), "{range:?}");
                }
            }
        }
    }
}
