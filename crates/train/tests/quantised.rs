//! The written network file loads with the engine's loader, and the engine's quantised
//! evaluation of the bench positions agrees with the trainer's float evaluation.

use xiangqi_engine::bench;
use xiangqi_engine::eval::Evaluator;
use xiangqi_engine::nnue::{Network as EngineNetwork, PALACE_BUCKETS, active_features};
use xiangqi_rules::Position;
use xiangqi_train::dataset::{TrainingPosition, Wdl};
use xiangqi_train::model::{Network, Shape};
use xiangqi_train::quantise::{float_network, network_bytes, write_network};

fn position_features(pos: &Position, palace: usize) -> TrainingPosition {
    let side = pos.side_to_move();
    let (mut stm, mut other) = (Vec::new(), Vec::new());
    active_features(pos, side, palace, &mut stm);
    active_features(pos, side.opponent(), palace, &mut other);
    TrainingPosition::new(&stm, &other, 0, Wdl::Draw).unwrap()
}

/// A network of `buckets` output buckets, `palace` palace buckets and a second layer of
/// `second` units with larger weights than a fresh one, and biases that put accumulators in
/// SCReLU's sloped part (and a second layer's sums in its clipped ReLU's), so that
/// evaluations spread over hundreds of centipawns. A factorised network's bucket rows get
/// weights of their own beside the shared rows, so that the buckets differ.
fn spread_network((buckets, palace, second): (usize, usize, usize)) -> Network {
    let shape = Shape {
        hidden: 64,
        buckets,
        palace,
        second,
    };
    let mut net = Network::random(shape, 21);
    let hidden = shape.hidden;
    let ft_end = palace * 1260 * hidden;
    let rows = buckets * second.max(1);
    let out_bias = ft_end + hidden + rows * 2 * hidden;
    let params = net.params_mut();
    for (i, w) in params[..ft_end].iter_mut().enumerate() {
        *w = if palace > 1 {
            0.1 * ((i * 7919 % 1000) as f32 / 500.0 - 1.0)
        } else {
            *w * 2.0
        };
    }
    // The shared rows, and a second layer's output weights (two and a half times as much again).
    let top = if second > 0 {
        buckets * (second + 1)
    } else {
        0
    };
    let top_start = params.len() - top;
    for (i, w) in params[out_bias + rows..].iter_mut().enumerate() {
        *w *= if out_bias + rows + i >= top_start {
            5.0
        } else {
            2.0
        };
    }
    for (i, b) in params[ft_end..ft_end + hidden].iter_mut().enumerate() {
        *b = 0.2 + 0.01 * (i % 30) as f32;
    }
    for w in &mut params[ft_end + hidden..out_bias] {
        *w *= 3.0;
    }
    for (i, b) in params[out_bias..out_bias + rows].iter_mut().enumerate() {
        *b = if second > 0 {
            0.1 * (i % 7) as f32
        } else {
            0.05 - 0.01 * i as f32
        };
    }
    net.clip();
    net
}

/// The shapes checked, as (output buckets, palace buckets, second-layer units): the first
/// architecture, output buckets, palace buckets, and a second hidden layer.
const SHAPES: [(usize, usize, usize); 5] = [
    (1, 1, 0),
    (8, 1, 0),
    (8, PALACE_BUCKETS, 0),
    (1, PALACE_BUCKETS, 16),
    (4, 1, 8),
];

/// Rounding every weight to 1/255 (feature layer) and 1/64 (output layer, or second layer)
/// moves each evaluation of these networks by a few centipawns, at most about 15 (one
/// bucket), 37 (eight buckets, whose output layers are other random draws) and 28 (a second
/// layer) on the bench positions; a
/// wrong layout or scale would move them by hundreds. The engine's own test bounds each
/// position by the rounding's standard deviation.
const MAX_DIFFERENCE_CP: f32 = 45.0;

#[test]
fn the_written_file_loads_and_evaluates_like_the_float_network() {
    for shape in SHAPES {
        written_file_agrees(shape);
    }
}

fn written_file_agrees(shape: (usize, usize, usize)) {
    let (buckets, palace, second) = shape;
    let net = spread_network(shape);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xqtrain-{}-agree.xqnn", std::process::id()));
    write_network(&path, &net).unwrap();
    let engine = EngineNetwork::load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(engine.hidden(), 64);
    assert_eq!(engine.buckets(), buckets);
    assert_eq!(engine.palace_buckets(), palace);
    assert_eq!(engine.second_layer(), second);
    assert_eq!(engine.to_bytes(), network_bytes(&net).unwrap());

    let mut spread = (f32::MAX, f32::MIN);
    let mut checked = 0;
    let mut worst = 0.0f32;
    for fen in bench::positions() {
        let pos: Position = fen.parse().unwrap();
        let p = position_features(&pos, palace);
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
        "{shape:?}: {checked} positions, float evaluations {spread:.0?} cp, largest difference {worst:.1} cp"
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
    for shape in SHAPES {
        let (buckets, palace, second) = shape;
        let net = spread_network(shape);
        let engine_float = float_network(&net);
        for fen in bench::positions() {
            let pos: Position = fen.parse().unwrap();
            let p = position_features(&pos, palace);
            let ours = net.evaluate_cp(p.side_to_move(), p.other());
            let theirs = engine_float.evaluate_cp(&pos);
            assert!(
                (ours - theirs).abs() < 0.05,
                "{buckets} buckets, {palace} palace buckets, second layer {second}, {fen}: trainer {ours} cp, engine float {theirs} cp"
            );
        }
    }
}
