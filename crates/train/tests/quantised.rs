//! The written network file loads with the engine's loader, and the engine's quantised
//! evaluation of the bench positions agrees with the trainer's float evaluation.

use xiangqi_engine::bench;
use xiangqi_engine::eval::Evaluator;
use xiangqi_engine::nnue::{Network as EngineNetwork, active_features};
use xiangqi_rules::Position;
use xiangqi_train::dataset::{TrainingPosition, Wdl};
use xiangqi_train::model::Network;
use xiangqi_train::quantise::{float_network, network_bytes, write_network};

fn position_features(pos: &Position) -> TrainingPosition {
    let side = pos.side_to_move();
    let (mut stm, mut other) = (Vec::new(), Vec::new());
    active_features(pos, side, &mut stm);
    active_features(pos, side.opponent(), &mut other);
    TrainingPosition::new(&stm, &other, 0, Wdl::Draw).unwrap()
}

/// A network of `buckets` output buckets with larger weights than a fresh one, and biases
/// that put accumulators in SCReLU's sloped part, so that evaluations spread over hundreds
/// of centipawns.
fn spread_network(buckets: usize) -> Network {
    let mut net = Network::random(64, buckets, 21);
    let hidden = net.hidden();
    let len = net.params().len();
    let params = net.params_mut();
    for w in &mut params[..1260 * hidden] {
        *w *= 2.0;
    }
    for (i, b) in params[1260 * hidden..1261 * hidden].iter_mut().enumerate() {
        *b = 0.2 + 0.01 * (i % 30) as f32;
    }
    for w in &mut params[1261 * hidden..len - buckets] {
        *w *= 3.0;
    }
    for (i, b) in params[len - buckets..].iter_mut().enumerate() {
        *b = 0.05 - 0.01 * i as f32;
    }
    net.clip();
    net
}

/// Rounding every weight to 1/255 (feature layer) and 1/64 (output layer) moves each
/// evaluation of these networks by a few centipawns, at most about 15 (one bucket) and 37
/// (eight buckets, whose output layers are other random draws) on the bench positions; a
/// wrong layout or scale would move them by hundreds. The engine's own test bounds each
/// position by the rounding's standard deviation.
const MAX_DIFFERENCE_CP: f32 = 45.0;

#[test]
fn the_written_file_loads_and_evaluates_like_the_float_network() {
    for buckets in [1, 8] {
        written_file_agrees(buckets);
    }
}

fn written_file_agrees(buckets: usize) {
    let net = spread_network(buckets);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xqtrain-{}-agree.xqnn", std::process::id()));
    write_network(&path, &net).unwrap();
    let engine = EngineNetwork::load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(engine.hidden(), 64);
    assert_eq!(engine.buckets(), buckets);
    assert_eq!(engine.to_bytes(), network_bytes(&net).unwrap());

    let mut spread = (f32::MAX, f32::MIN);
    let mut checked = 0;
    let mut worst = 0.0f32;
    for fen in bench::positions() {
        let pos: Position = fen.parse().unwrap();
        let p = position_features(&pos);
        let float_cp = net.evaluate_cp(p.side_to_move(), p.other());
        let quantised_cp = engine.evaluate(&pos) as f32;
        assert!(
            (float_cp - quantised_cp).abs() <= MAX_DIFFERENCE_CP,
            "{fen}: float {float_cp:.1} cp, quantised {quantised_cp} cp"
        );
        spread = (spread.0.min(float_cp), spread.1.max(float_cp));
        worst = worst.max((float_cp - quantised_cp).abs());
        checked += 1;
    }
    eprintln!(
        "{checked} positions, float evaluations {spread:.0?} cp, largest difference {worst:.1} cp"
    );
    assert!(checked >= 10);
    // The positions' evaluations differ, so agreement is not agreement on a constant.
    assert!(
        spread.1 - spread.0 > 500.0,
        "evaluations span only {spread:?}"
    );
}

#[test]
fn the_engine_float_network_reads_the_trained_weights_alike() {
    for buckets in [1, 8] {
        let net = spread_network(buckets);
        let engine_float = float_network(&net);
        for fen in bench::positions() {
            let pos: Position = fen.parse().unwrap();
            let p = position_features(&pos);
            let ours = net.evaluate_cp(p.side_to_move(), p.other());
            let theirs = engine_float.evaluate_cp(&pos);
            assert!(
                (ours - theirs).abs() < 0.05,
                "{buckets} buckets, {fen}: trainer {ours} cp, engine float {theirs} cp"
            );
        }
    }
}
