//! The learned evaluation (NNUE): accumulators kept on make and unmake equal fresh ones, the
//! quantised network agrees with its float form, the AVX2 and scalar kernels agree, the
//! loader names what is wrong with a bad file, and the engine searches and answers with a
//! network loaded — or with a bad one refused.

mod captured;

use captured::Captured;
use std::sync::Arc;
use xiangqi_engine::bench;
use xiangqi_engine::nnue::{
    AccumulatorStack, Backend, FloatNetwork, Network, NetworkError, PALACE_BUCKETS, output_bucket,
};
use xiangqi_engine::protocol::{Dialect, Session};
use xiangqi_engine::random::SplitMix64;
use xiangqi_engine::{Engine, EngineOptions, SearchLimits, SearchRequest};
use xiangqi_rules::{Color, Position};

fn bench_positions() -> Vec<Position> {
    bench::positions()
        .iter()
        .map(|fen| Position::from_fen(fen).unwrap())
        .collect()
}

/// A random network of `hidden` units and `buckets` output buckets whose weights stay
/// inside the trainer's ±1.98 clip.
fn random_network(hidden: usize, buckets: usize, seed: u64) -> Network {
    let float = FloatNetwork::random_bucketed(hidden, buckets, seed, 0.5, 1.98);
    Network::from_float(&float).unwrap()
}

/// [`random_network`] with palace buckets: every input depends on where its side's general
/// stands.
fn random_palace_network(hidden: usize, buckets: usize, seed: u64) -> Network {
    let float = FloatNetwork::random_shaped(hidden, buckets, PALACE_BUCKETS, seed, 0.5, 1.98);
    Network::from_float(&float).unwrap()
}

/// [`random_palace_network`] with a second hidden layer of `second` units.
fn random_layered_network(hidden: usize, buckets: usize, second: usize, seed: u64) -> Network {
    let float = layered_float(hidden, buckets, second, seed);
    Network::from_float(&float).unwrap()
}

/// A float network with palace buckets and a second layer of `second` units whose neurons'
/// biases leave about half of them inside the clipped ReLU's sloped part on a typical
/// position (the random first-layer sums spread around a few units).
fn layered_float(hidden: usize, buckets: usize, second: usize, seed: u64) -> FloatNetwork {
    let mut float = FloatNetwork::random_layered(
        hidden,
        buckets,
        PALACE_BUCKETS,
        second,
        seed,
        0.5,
        1.98 / (hidden as f32).sqrt(),
    );
    for (i, b) in float.out_bias.iter_mut().enumerate() {
        *b = 0.1 * (i % 9) as f32;
    }
    for w in &mut float.top_weights {
        *w *= 2.0;
    }
    float
}

/// What a random walk did.
#[derive(Default)]
struct Walked {
    captures: usize,
    /// Moves of a general, which change its side's palace bucket or mirroring.
    general_moves: usize,
}

fn pieces(pos: &Position) -> usize {
    pos.occupied().count() as usize
}

/// What a line of the walk did, to take it back.
enum Step {
    Move(xiangqi_rules::Move, xiangqi_rules::Undo),
    Null(xiangqi_rules::Undo),
}

/// Walks a seeded random line from `start` — moves (captures and general moves preferred
/// when there are some), null moves and take-backs — keeping `stacks` (stack `i` for network
/// `i`) in step with the position, and calls `check` after about one step in three, so that
/// several pending updates pile up between checks.
fn random_walk(
    start: &Position,
    seed: u64,
    steps: usize,
    networks: &[&Network],
    stacks: &mut [AccumulatorStack],
    check: &mut dyn FnMut(&Position, &mut [AccumulatorStack]),
) -> Walked {
    let mut rng = SplitMix64::new(seed);
    let mut pos = start.clone();
    let mut line: Vec<Step> = Vec::new();
    let mut walked = Walked::default();
    for _ in 0..steps {
        let roll = rng.below(10);
        let moves = pos.legal_moves();
        if (roll < 3 && !line.is_empty()) || (moves.is_empty() && !line.is_empty()) {
            match line.pop().unwrap() {
                Step::Move(m, undo) => pos.unmake_move(m, undo),
                Step::Null(undo) => pos.unmake_null_move(undo),
            }
            stacks.iter_mut().for_each(AccumulatorStack::pop);
        } else if roll == 3 && !pos.in_check() {
            line.push(Step::Null(pos.make_null_move()));
            stacks.iter_mut().for_each(AccumulatorStack::push_null);
        } else if !moves.is_empty() {
            let captures_here: Vec<_> = moves.iter().filter(|m| !pos.is_empty(m.to())).collect();
            let general = pos.general(pos.side_to_move());
            let general_here: Vec<_> = moves.iter().filter(|m| m.from() == general).collect();
            let m = if !captures_here.is_empty() && rng.below(2) == 0 {
                *captures_here[rng.below(captures_here.len())]
            } else if !general_here.is_empty() && rng.below(3) == 0 {
                *general_here[rng.below(general_here.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            let piece = pos.piece_at(m.from()).unwrap();
            let captured = pos.piece_at(m.to());
            walked.captures += usize::from(captured.is_some());
            walked.general_moves += usize::from(m.from() == general);
            let undo = pos.make_move(m);
            for (stack, network) in stacks.iter_mut().zip(networks) {
                stack.push_move(network, &pos, piece, m.from(), m.to(), captured);
            }
            line.push(Step::Move(m, undo));
        }
        if rng.below(3) == 0 {
            check(&pos, stacks);
        }
    }
    check(&pos, stacks);
    walked
}

#[test]
fn incremental_accumulators_equal_fresh_ones_after_random_games() {
    for net in [
        random_network(64, 8, 1),
        random_palace_network(64, 8, 1),
        random_layered_network(64, 2, 16, 1),
    ] {
        incremental_equals_fresh(&net);
    }
}

fn incremental_equals_fresh(net: &Network) {
    let net = net.clone();
    let mut starts = vec![Position::startpos()];
    starts.extend(bench_positions().into_iter().step_by(7));
    let mut captures = 0;
    let mut general_moves = 0;
    let mut checks = 0;
    for (i, start) in starts.iter().enumerate() {
        let mut stacks = vec![AccumulatorStack::new(&net, 16)];
        stacks[0].reset(&net, start);
        let walked = random_walk(
            start,
            100 + i as u64,
            400,
            &[&net],
            &mut stacks,
            &mut |pos, stacks| {
                checks += 1;
                for color in Color::ALL {
                    assert_eq!(
                        stacks[0].values(&net, color),
                        net.accumulator_values(pos, color),
                        "{color}'s accumulator differs at {pos}"
                    );
                }
                let side = pos.side_to_move();
                assert_eq!(
                    stacks[0].evaluate(&net, side, pieces(pos)),
                    xiangqi_engine::eval::Evaluator::evaluate(&net, pos)
                );
            },
        );
        captures += walked.captures;
        general_moves += walked.general_moves;
    }
    assert!(captures >= 50, "only {captures} captures were made");
    assert!(
        general_moves >= 50,
        "only {general_moves} general moves were made"
    );
    assert!(checks >= 500);
}

#[test]
fn avx2_and_scalar_give_the_same_accumulators_and_evaluations() {
    for net in [
        random_network(128, 8, 2),
        random_palace_network(128, 8, 2),
        random_layered_network(128, 2, 16, 2),
    ] {
        avx2_equals_scalar(net);
    }
}

fn avx2_equals_scalar(fast: Network) {
    assert_eq!(fast.backend(), Backend::detect());
    if Backend::avx2().is_none() {
        eprintln!("no AVX2 on this processor: the detected backend is the scalar one");
    }
    let scalar = fast.clone().with_backend(Backend::Scalar);
    for pos in bench_positions() {
        for color in Color::ALL {
            assert_eq!(
                fast.accumulator_values(&pos, color),
                scalar.accumulator_values(&pos, color)
            );
        }
        assert_eq!(
            xiangqi_engine::eval::Evaluator::evaluate(&fast, &pos),
            xiangqi_engine::eval::Evaluator::evaluate(&scalar, &pos)
        );
    }
    let start = Position::startpos();
    let mut stacks = vec![
        AccumulatorStack::new(&fast, 16),
        AccumulatorStack::new(&scalar, 16),
    ];
    stacks[0].reset(&fast, &start);
    stacks[1].reset(&scalar, &start);
    let networks = [&fast, &scalar];
    random_walk(
        &start,
        7,
        600,
        &networks,
        &mut stacks,
        &mut |pos, stacks| {
            let side = pos.side_to_move();
            let (a, b) = stacks.split_at_mut(1);
            assert_eq!(a[0].values(&fast, side), b[0].values(&scalar, side));
            let n = pieces(pos);
            assert_eq!(
                a[0].evaluate(&fast, side, n),
                b[0].evaluate(&scalar, side, n)
            );
        },
    );
}

/// The standard deviation, in centipawns, of the difference that rounding the weights to
/// their quantised steps makes to `float`'s evaluation of `pos`: each output weight moves by
/// up to 1/(2·QB) and each feature weight and bias by up to 1/(2·QA), uniformly, and an
/// accumulator inside (0, 1) passes its error on with slope 2·clamp. With a second layer,
/// each neuron's sum errs so, and passes its error on with its output weight while inside
/// (0, 1); the neurons' errors add up as independent ones (the feature weights they share
/// make them correlated, so this can understate the spread).
fn rounding_sigma_cp(float: &FloatNetwork, pos: &Position) -> f32 {
    let (qa, qb) = (255f32, 64f32);
    let us = pos.side_to_move();
    let count = pieces(pos);
    let pieces = count as f32;
    let h = float.hidden;
    let accs = [
        float.accumulator(pos, us),
        float.accumulator(pos, us.opponent()),
    ];
    // The variance of row `r`'s sum, and the sum itself.
    let row = |r: usize| -> (f32, f32) {
        let mut variance = 0f32;
        let mut sum = float.out_bias[r];
        for (half, acc) in accs.iter().enumerate() {
            let start = 2 * h * r + half * h;
            for (a, w) in acc.iter().zip(&float.out_weights[start..start + h]) {
                let c = a.clamp(0.0, 1.0);
                sum += c * c * w;
                variance += (c * c).powi(2) / (12.0 * qb * qb);
                if *a > 0.0 && *a < 1.0 {
                    variance += (2.0 * c * w).powi(2) * (pieces + 1.0) / (12.0 * qa * qa);
                }
            }
        }
        (variance, sum)
    };
    let bucket = output_bucket(count, float.buckets());
    let variance = if float.second == 0 {
        row(bucket).0
    } else {
        let first = bucket * float.second;
        (first..first + float.second)
            .map(|r| {
                let (variance, sum) = row(r);
                let slope = if sum > 0.0 && sum < 1.0 { 1.0 } else { 0.0 };
                variance * (slope * float.top_weights[r]).powi(2)
            })
            .sum()
    };
    400.0 * variance.sqrt()
}

#[test]
fn float_and_quantised_evaluations_agree_on_the_bench_positions() {
    // Every weight inside the trainer's ±1.98 clip: feature weights within ±0.5 (a
    // trained net's range) and within ±1.98, output weights within ±1.98.
    let shapes = [
        (11, 0.5, 1, 1),
        (12, 1.98, 1, 1),
        (13, 0.5, 8, 1),
        (14, 0.5, 8, PALACE_BUCKETS),
    ];
    let mut floats: Vec<(u64, FloatNetwork)> = shapes
        .into_iter()
        .map(|(seed, ft_range, buckets, palace)| {
            let float = FloatNetwork::random_shaped(256, buckets, palace, seed, ft_range, 1.98);
            (seed, float)
        })
        .collect();
    floats.push((15, layered_float(256, 2, 16, 15)));
    for (seed, float) in floats {
        let net = Network::from_float(&float).unwrap();
        let mut total = 0f32;
        let positions = bench_positions();
        for pos in &positions {
            let f = float.evaluate_cp(pos);
            let q = xiangqi_engine::eval::Evaluator::evaluate(&net, pos) as f32;
            let difference = (f - q).abs();
            // Rounding explains the difference: within five of its standard deviations,
            // plus a centipawn for each of the two integer divisions.
            let bound = 5.0 * rounding_sigma_cp(&float, pos) + 2.0;
            assert!(
                difference <= bound,
                "seed {seed}: float {f:.1} cp, quantised {q} cp at {pos}: {difference:.1} > {bound:.1}"
            );
            assert!(
                difference <= 150.0,
                "seed {seed}: {difference:.1} cp at {pos}"
            );
            total += difference;
        }
        let mean = total / positions.len() as f32;
        assert!(mean <= 40.0, "seed {seed}: mean difference {mean:.1} cp");
    }
}

/// A network file's bytes with the u32 field at `offset` replaced and the checksum
/// recomputed, so that only that field is wrong.
fn with_field(bytes: &[u8], offset: usize, value: u32) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
    let body = out.len() - 8;
    let checksum = xiangqi_engine::nnue::net::fnv1a64(&out[..body]);
    out[body..].copy_from_slice(&checksum.to_le_bytes());
    out
}

#[test]
fn the_loader_names_what_is_wrong_with_a_bad_file() {
    let bytes = random_network(32, 1, 3).to_bytes();
    let len = bytes.len();
    assert_eq!(len, 28 + 2 * (1260 * 32 + 32 + 64) + 4 + 8);
    let error = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();

    let mut bad_magic = bytes.clone();
    bad_magic[0] = b'Y';
    assert_eq!(error(&bad_magic), NetworkError::NotANetwork);
    assert_eq!(error(b""), NetworkError::NotANetwork);
    assert!(
        error(&bad_magic)
            .to_string()
            .starts_with("not a network file")
    );

    let version_5 = with_field(&bytes, 4, 5);
    assert_eq!(error(&version_5), NetworkError::UnsupportedVersion(5));
    assert!(
        error(&version_5)
            .to_string()
            .starts_with("version 5 not supported (this engine reads versions 1 to 4)")
    );
    // A version-1 file read as version 2 takes its hidden size for the bucket count and
    // finds the file the wrong length.
    assert!(matches!(
        error(&with_field(&bytes, 4, 2)),
        NetworkError::BadBuckets(_) | NetworkError::Truncated { .. }
    ));

    let cut = &bytes[..len - 100];
    assert_eq!(
        error(cut).to_string(),
        format!("file truncated: expected {len} bytes, got {}", len - 100)
    );
    assert_eq!(
        error(&bytes[..10]),
        NetworkError::Truncated {
            expected: 28,
            got: 10
        }
    );
    let mut long = bytes.clone();
    long.push(0);
    assert!(matches!(error(&long), NetworkError::TrailingBytes { .. }));

    let mut damaged = bytes.clone();
    damaged[len / 2] ^= 0x10;
    assert!(matches!(
        error(&damaged),
        NetworkError::ChecksumMismatch { .. }
    ));
    assert!(error(&damaged).to_string().starts_with("checksum mismatch"));

    assert_eq!(
        error(&with_field(&bytes, 8, 768)),
        NetworkError::WrongInputs(768)
    );
    assert_eq!(
        error(&with_field(&bytes, 12, 24)),
        NetworkError::BadHidden(24)
    );
    assert!(matches!(
        error(&with_field(&bytes, 20, 256)),
        NetworkError::WrongConstant {
            name: "qa",
            found: 256,
            expected: 255
        }
    ));
    // An output weight the integer kernels could overflow on: the first one set to 200.
    let mut heavy = bytes.clone();
    let out_weights = 28 + 2 * (1260 * 32 + 32);
    heavy[out_weights..out_weights + 2].copy_from_slice(&200i16.to_le_bytes());
    let heavy = with_field(&heavy, 8, 1260);
    assert_eq!(
        error(&heavy),
        NetworkError::WeightOutOfRange {
            layer: "output weight",
            index: 0,
            value: 200,
            limit: 128
        }
    );

    let missing =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-such-dir-for-nnue/net.nnue");
    assert!(matches!(
        Network::load(&missing),
        Err(NetworkError::Io { .. })
    ));
    assert!(Network::from_bytes(&bytes).is_ok());
}

#[test]
fn bucketed_networks_are_version_2_files_and_each_bucket_has_its_own_output_layer() {
    // Piece counts 2–32 cut into runs of equal length, fewest pieces first.
    assert_eq!(output_bucket(32, 1), 0);
    assert_eq!(output_bucket(2, 8), 0);
    assert_eq!(output_bucket(5, 8), 0);
    assert_eq!(output_bucket(6, 8), 1);
    assert_eq!(output_bucket(32, 8), 7);
    assert_eq!(output_bucket(0, 8), 0);

    let net = random_network(32, 8, 4);
    assert_eq!(net.buckets(), 8);
    let bytes = net.to_bytes();
    assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 2);
    assert_eq!(u32::from_le_bytes(bytes[16..20].try_into().unwrap()), 8);
    assert_eq!(bytes.len(), 32 + 2 * (1260 * 32 + 32 + 8 * 64) + 4 * 8 + 8);
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back.to_bytes(), bytes);
    let error = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();
    assert_eq!(
        error(&with_field(&bytes, 16, 0)),
        NetworkError::BadBuckets(0)
    );
    assert_eq!(
        error(&with_field(&bytes, 16, 17)).to_string(),
        "17 output buckets; a network has 1 to 16"
    );

    // A network whose buckets differ only in their output bias evaluates a full board and a
    // bare ending with different biases: the bucket follows the piece count.
    let mut float = FloatNetwork::random_bucketed(32, 8, 5, 0.0, 0.0);
    for (i, bias) in float.out_bias.iter_mut().enumerate() {
        *bias = i as f32 / 40.0;
    }
    let net = Network::from_float(&float).unwrap();
    let ending: Position = "4k4/9/9/9/9/9/9/9/4A4/3K1R3 w - - 0 1".parse().unwrap();
    let evaluate = |pos: &Position| xiangqi_engine::eval::Evaluator::evaluate(&net, pos);
    assert_eq!(evaluate(&Position::startpos()), 70);
    assert_eq!(evaluate(&ending), 0);
    assert_eq!(float.evaluate_cp(&Position::startpos()).round(), 70.0);
}

#[test]
fn a_search_with_a_network_returns_a_legal_move() {
    let net = Arc::new(random_network(64, 1, 4));
    let mut engine = Engine::new(EngineOptions {
        use_nnue: true,
        ..EngineOptions::default()
    });
    engine.set_network(Some(net.clone()));
    let handcrafted = Engine::new(EngineOptions {
        use_nnue: false,
        ..EngineOptions::default()
    });
    let limits = SearchLimits {
        depth: Some(5),
        ..Default::default()
    };
    let positions: Vec<Position> = bench_positions().into_iter().step_by(5).collect();
    let mut differing = 0;
    for pos in &positions {
        assert_eq!(
            engine.static_eval(pos),
            xiangqi_engine::eval::Evaluator::evaluate(net.as_ref(), pos)
        );
        let request = SearchRequest::new(pos.clone(), limits.clone());
        let result = engine.think(&request, &mut |_| {});
        let best = result.best_move.expect("a move");
        assert!(
            pos.legal_moves().contains(best),
            "{best} is not legal in {pos}"
        );
        let other = handcrafted.think(&request, &mut |_| {});
        differing += usize::from((result.nodes, result.score) != (other.nodes, other.score));
    }
    // The network, not the handcrafted evaluation, steered these searches (a forced mate
    // may be found alike by both).
    assert!(
        differing * 2 > positions.len(),
        "{differing} of {}",
        positions.len()
    );
}

#[test]
fn a_bad_eval_file_is_reported_and_the_engine_keeps_answering() {
    let captured = Captured::default();
    let mut session = Session::new(Dialect::Uci, captured.output());
    session.handle("uci");
    let default = EngineOptions::default().use_nnue;
    assert!(
        captured
            .text()
            .contains(&format!("option name UseNNUE type check default {default}"))
    );
    assert!(
        captured
            .text()
            .contains("option name EvalFile type string default <empty>")
    );
    let handcrafted_eval = Engine::new(EngineOptions {
        use_nnue: false,
        ..EngineOptions::default()
    })
    .static_eval(&Position::startpos());

    // A missing file: an error, and the handcrafted evaluation still answers.
    session.handle("setoption name EvalFile value /no/such/file.nnue");
    assert!(
        captured
            .text()
            .contains("info string error: EvalFile '/no/such/file.nnue': cannot read"),
        "{}",
        captured.text()
    );
    session.handle("setoption name UseNNUE value true");
    if xiangqi_engine::nnue::EMBEDDED_NET.is_none() {
        assert!(captured.text().contains("no network is loaded"));
    }
    session.handle("position startpos");
    session.handle("go depth 3");
    captured.wait_for("bestmove", 1);

    // A good file is loaded and used; a damaged one afterwards leaves it in place.
    let net = random_network(32, 1, 5);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-nnue-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.nnue");
    let damaged = dir.join("damaged.nnue");
    let bytes = net.to_bytes();
    std::fs::write(&good, &bytes).unwrap();
    std::fs::write(&damaged, &bytes[..bytes.len() / 2]).unwrap();
    session.handle(&format!("setoption name EvalFile value {}", good.display()));
    assert!(
        captured.text().contains("32 hidden units"),
        "{}",
        captured.text()
    );
    session.handle(&format!(
        "setoption name EvalFile value {}",
        damaged.display()
    ));
    assert!(captured.text().contains("file truncated: expected"));
    let net_eval = xiangqi_engine::eval::Evaluator::evaluate(&net, &Position::startpos());
    assert_ne!(net_eval, handcrafted_eval);
    session.handle("eval");
    assert!(
        captured
            .text()
            .contains(&format!("static evaluation {net_eval} (side to move)")),
        "{}",
        captured.text()
    );
    session.handle("go depth 3");
    captured.wait_for("bestmove", 2);
    // Switched off, the handcrafted evaluation is back.
    session.handle("setoption name UseNNUE value false");
    session.handle("eval");
    assert!(captured.text().contains(&format!(
        "static evaluation {handcrafted_eval} (side to move)"
    )));
    session.handle("quit");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn level_zero_keeps_the_handcrafted_evaluation_and_level_one_uses_the_network() {
    let net = Arc::new(random_network(64, 8, 6));
    let at_level = |level, use_nnue| {
        let mut engine = Engine::new(EngineOptions {
            use_nnue,
            level: xiangqi_engine::levels::Level::new(level),
            ..EngineOptions::default()
        });
        engine.set_network(Some(net.clone()));
        engine
    };
    assert!(at_level(0, true).active_network().is_none());
    assert!(at_level(1, true).active_network().is_some());
    assert!(at_level(1, false).active_network().is_none());
    let handcrafted = Engine::new(EngineOptions {
        use_nnue: false,
        ..EngineOptions::default()
    });
    let mut differing = 0;
    let positions: Vec<Position> = bench_positions().into_iter().step_by(5).collect();
    for pos in &positions {
        assert_eq!(
            at_level(0, true).static_eval(pos),
            handcrafted.static_eval(pos)
        );
        differing +=
            usize::from(at_level(1, true).static_eval(pos) != handcrafted.static_eval(pos));
    }
    assert!(
        differing * 2 > positions.len(),
        "{differing} of {}",
        positions.len()
    );
}

#[test]
fn palace_networks_are_version_3_files_and_see_a_mirror_image_alike() {
    let net = random_palace_network(32, 8, 7);
    assert_eq!(net.palace_buckets(), PALACE_BUCKETS);
    let bytes = net.to_bytes();
    let field = |offset: usize| u32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap());
    assert_eq!(field(4), 3, "version");
    assert_eq!(field(8), 6 * 1260, "inputs");
    assert_eq!(field(16), 8, "output buckets");
    assert_eq!(field(20), 6, "palace buckets");
    assert_eq!(
        bytes.len(),
        36 + 2 * (6 * 1260 * 32 + 32 + 8 * 64) + 4 * 8 + 8
    );
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back.to_bytes(), bytes);

    let error = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();
    assert_eq!(
        error(&with_field(&bytes, 20, 5)),
        NetworkError::BadPalaceBuckets(5)
    );
    assert_eq!(
        error(&with_field(&bytes, 20, 5)).to_string(),
        "5 palace buckets; a network has 1 or 6"
    );
    // Inputs that do not match the palace buckets.
    assert_eq!(
        error(&with_field(&bytes, 8, 1260)),
        NetworkError::WrongInputs(1260)
    );

    // With both generals off the middle file, a position and its mirror image have the same
    // inputs, and so the same evaluation; a network without palace buckets tells them apart.
    let pos: Position = "3k5/4a4/2n6/9/2p6/9/6P2/2C6/4A4/5KR2 w - - 0 1"
        .parse()
        .unwrap();
    let mirror: Position = "5k3/4a4/6n2/9/6p2/9/2P6/6C2/4A4/2RK5 w - - 0 1"
        .parse()
        .unwrap();
    let evaluate =
        |net: &Network, pos: &Position| xiangqi_engine::eval::Evaluator::evaluate(net, pos);
    assert_eq!(evaluate(&net, &pos), evaluate(&net, &mirror));
    let flat = random_network(32, 8, 7);
    assert_ne!(evaluate(&flat, &pos), evaluate(&flat, &mirror));
    // Moving a general to another palace bucket changes every input of its side.
    let moved: Position = "3k5/4a4/2n6/9/2p6/9/6P2/2C6/4AK3/6R2 b - - 1 1"
        .parse()
        .unwrap();
    let (before, after) = (
        net.accumulator_values(&pos, Color::Red),
        net.accumulator_values(&moved, Color::Red),
    );
    let changed = before.iter().zip(&after).filter(|(a, b)| a != b).count();
    assert!(changed > 24, "only {changed} of 32 values changed");
}

#[test]
fn second_layer_networks_are_version_4_files_whose_neurons_each_count() {
    let net = random_layered_network(32, 2, 8, 8);
    assert_eq!(net.second_layer(), 8);
    let bytes = net.to_bytes();
    let field = |offset: usize| u32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap());
    assert_eq!(field(4), 4, "version");
    assert_eq!(field(8), 6 * 1260, "inputs");
    assert_eq!(field(16), 2, "output buckets");
    assert_eq!(field(20), 6, "palace buckets");
    assert_eq!(field(24), 8, "second-layer units");
    assert_eq!(
        bytes.len(),
        40 + 2 * (6 * 1260 * 32 + 32 + 2 * 8 * 64) + 4 * 2 * 8 + 4 * (2 * 8 + 2) + 8
    );
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back.to_bytes(), bytes);

    let error = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();
    assert_eq!(
        error(&with_field(&bytes, 24, 0)),
        NetworkError::BadSecondLayer(0)
    );
    assert_eq!(
        error(&with_field(&bytes, 24, 33)).to_string(),
        "a second hidden layer of 33 units; it has 1 to 32"
    );
    // Another unit count than the file holds: the file is the wrong length.
    assert!(matches!(
        error(&with_field(&bytes, 24, 9)),
        NetworkError::Truncated { .. }
    ));
    // The output layer's floats are checked: a NaN weight is named.
    let mut nan = bytes.clone();
    let top = bytes.len() - 8 - 4 * (2 * 8 + 2);
    nan[top + 4..top + 8].copy_from_slice(&f32::NAN.to_le_bytes());
    let body = nan.len() - 8;
    let checksum = xiangqi_engine::nnue::net::fnv1a64(&nan[..body]);
    nan[body..].copy_from_slice(&checksum.to_le_bytes());
    assert_eq!(
        error(&nan),
        NetworkError::NotFinite {
            layer: "output weight",
            index: 1
        }
    );

    // Each neuron of the position's bucket counts: silencing one output weight at a time
    // changes the evaluation of most positions, for each of the eight.
    let float = layered_float(32, 1, 8, 9);
    let positions = bench_positions();
    let evaluate = |float: &FloatNetwork, pos: &Position| {
        xiangqi_engine::eval::Evaluator::evaluate(&Network::from_float(float).unwrap(), pos)
    };
    for j in 0..8 {
        let mut silenced = float.clone();
        silenced.top_weights[j] = 0.0;
        let differing = positions
            .iter()
            .filter(|pos| evaluate(&float, pos) != evaluate(&silenced, pos))
            .count();
        assert!(
            differing * 4 > positions.len(),
            "neuron {j}: {differing} of {}",
            positions.len()
        );
    }
    // A second layer of the wrong length is refused by name.
    let mut short = float.clone();
    short.top_weights.pop();
    assert_eq!(
        Network::from_float(&short).unwrap_err(),
        NetworkError::WrongShape {
            layer: "output weight",
            expected: 8,
            got: 7
        }
    );
}
