//! The training loop: epochs of shuffled mini-batches, each batch's gradient computed in
//! parallel over threads and summed, one Adam step per batch with weights clipped after it,
//! a step-decayed learning rate, and the validation loss after every epoch.

use crate::dataset::TrainingPosition;
use crate::model::{GradientJob, Network, Scratch};
use crate::optimiser::Adam;
use crate::rng::Rng;
use std::thread;
use std::time::{Duration, Instant};

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
            buffers: vec![vec![0.0; params]; threads],
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
            self.adam.step(
                self.net.params_mut(),
                &self.buffers[0],
                lr,
                self.config.weight_decay,
            );
            self.net.clip();
        }
        if data.is_empty() {
            0.0
        } else {
            loss_sum / data.len() as f64
        }
    }

    /// Leaves the mean gradient of `batch` in the first buffer; returns the batch's summed loss.
    fn batch_gradient(&mut self, data: &[TrainingPosition], batch: &[u32]) -> f64 {
        let threads = self.buffers.len();
        let chunk = batch.len().div_ceil(threads).max(1);
        let used = batch.len().div_ceil(chunk).max(1);
        let weight = 1.0 / batch.len() as f32;
        let lambda = self.config.lambda;
        let net = &self.net;
        let loss = thread::scope(|s| {
            let workers: Vec<_> = self
                .buffers
                .iter_mut()
                .zip(self.scratches.iter_mut())
                .zip(batch.chunks(chunk))
                .map(|((grads, scratch), part)| {
                    s.spawn(move || {
                        grads.fill(0.0);
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
        });
        if batch.is_empty() {
            self.buffers[0].fill(0.0);
        }
        sum_into_first(&mut self.buffers[..used]);
        loss
    }
}

/// Adds every buffer after the first into the first, in parallel over slices of the buffers.
fn sum_into_first(buffers: &mut [Vec<f32>]) {
    let Some((total, rest)) = buffers.split_first_mut() else {
        return;
    };
    if rest.is_empty() {
        return;
    }
    let part = total.len().div_ceil(rest.len() + 1);
    let rest: &[Vec<f32>] = rest;
    thread::scope(|s| {
        for (k, slice) in total.chunks_mut(part).enumerate() {
            s.spawn(move || {
                let start = k * part;
                for other in rest {
                    for (t, o) in slice.iter_mut().zip(&other[start..]) {
                        *t += o;
                    }
                }
            });
        }
    });
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
