//! The trainer learns: on a synthetic set whose scores are a sum of per-feature values, a few
//! epochs cut the held-out loss by more than half, with one thread or two alike.

use xiangqi_train::dataset::{TrainingPosition, Wdl};
use xiangqi_train::model::{Network, Scratch, Shape};
use xiangqi_train::optimiser::Adam;
use xiangqi_train::rng::{Rng, symmetric};
use xiangqi_train::train::{TrainConfig, Trainer, mean_loss};

/// Positions of 16–32 random features; the score is a fixed value per feature summed over the
/// side to move's features minus the other side's, and the result follows the score.
fn synthetic(count: usize, seed: u64) -> Vec<TrainingPosition> {
    let mut values = Rng::new(1);
    let value: Vec<f32> = (0..1260).map(|_| symmetric(&mut values, 60.0)).collect();
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let n = 16 + rng.below(17);
            let stm: Vec<usize> = (0..n).map(|_| rng.below(1260)).collect();
            let other: Vec<usize> = (0..n).map(|_| rng.below(1260)).collect();
            let score: f32 = stm.iter().map(|&f| value[f]).sum::<f32>()
                - other.iter().map(|&f| value[f]).sum::<f32>();
            let outcome = if score > 150.0 {
                Wdl::Win
            } else if score < -150.0 {
                Wdl::Loss
            } else {
                Wdl::Draw
            };
            TrainingPosition::new(&stm, &other, score.clamp(-3000.0, 3000.0) as i16, outcome)
                .unwrap()
        })
        .collect()
}

fn loss_after_training(threads: usize) -> (f64, f64, Vec<f64>) {
    let train = synthetic(20_000, 2);
    let validation = synthetic(2_000, 3);
    let net = Network::random(Shape::flat(32, 1), 7);
    let mut scratches = vec![Scratch::new(32)];
    let before = mean_loss(&net, &validation, 0.75, &mut scratches);
    let config = TrainConfig {
        epochs: 6,
        batch: 512,
        lr: 0.005,
        lr_step: 4,
        lr_gamma: 0.3,
        lambda: 0.75,
        weight_decay: 0.0,
        threads,
        seed: 11,
    };
    let adam = Adam::new(net.params().len());
    let mut trainer = Trainer::new(net, adam, 0, config);
    let mut curve = Vec::new();
    trainer
        .run(&train, &validation, |_, report| {
            curve.push(report.validation_loss.unwrap());
            Ok::<(), ()>(())
        })
        .unwrap();
    let after = mean_loss(&trainer.net, &validation, 0.75, &mut scratches);
    eprintln!(
        "{threads} thread(s): validation loss {before:.5} → {after:.5}, per epoch {curve:.5?}"
    );
    (before, after, curve)
}

#[test]
fn validation_loss_falls_by_more_than_half_in_six_epochs() {
    let (before, after, curve) = loss_after_training(1);
    assert_eq!(curve.len(), 6);
    assert!(
        after < 0.5 * before,
        "validation loss {before} → {after}; curve {curve:?}"
    );
    assert!(curve[5] < curve[0], "curve {curve:?}");
}

#[test]
fn two_threads_follow_the_same_loss_curve_as_one() {
    // The same batches in the same order: only the order of float additions differs.
    let (_, _, one) = loss_after_training(1);
    let (before, after, two) = loss_after_training(2);
    assert!(
        after < 0.5 * before,
        "validation loss {before} → {after}; curve {two:?}"
    );
    for (a, b) in one.iter().zip(&two) {
        assert!(
            (a - b).abs() < 2e-4,
            "one thread {one:?}, two threads {two:?}"
        );
    }
}
