//! The bench: a fixed-depth search of fixed positions with one thread and a 16 MB table.
//! Its node count is a fingerprint of search behaviour; its speed is the engine's nps.

use crate::engine::{Engine, EngineOptions, SearchRequest};
use crate::limits::SearchLimits;
use crate::nnue::Network;
use std::sync::Arc;
use std::time::Instant;
use xiangqi_rules::Position;

/// The bench positions, one FEN a line (openings, middlegames, endgames).
pub const POSITIONS: &str = include_str!("../data/bench.fens");

/// Depth searched per position when none is given.
pub const DEFAULT_DEPTH: i32 = 9;

/// What a bench run measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Positions searched.
    pub positions: usize,
}

impl BenchReport {
    /// The closing line: `<nodes> nodes <nps> nps`.
    pub fn summary(&self) -> String {
        format!("{} nodes {} nps", self.nodes, self.nps)
    }
}

/// The bench FENs, skipping blank lines and `#` comments.
pub fn positions() -> Vec<&'static str> {
    POSITIONS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// The evaluation a bench run searches with.
#[derive(Clone, Default)]
pub enum BenchEvaluation {
    /// The engine's default: the built-in network.
    #[default]
    Default,
    /// The handcrafted evaluation (the engine with `UseNNUE` off).
    Handcrafted,
    /// This network instead of the built-in one.
    Network(Arc<Network>),
}

/// Searches every bench position to `depth` with the default evaluation, writing one
/// progress line per position.
pub fn run(depth: i32, progress: &mut dyn FnMut(&str)) -> BenchReport {
    run_with(depth, &BenchEvaluation::Default, progress)
}

/// As [`run`], searching with the given evaluation.
pub fn run_with(
    depth: i32,
    evaluation: &BenchEvaluation,
    progress: &mut dyn FnMut(&str),
) -> BenchReport {
    let use_nnue = match evaluation {
        BenchEvaluation::Default => EngineOptions::default().use_nnue,
        BenchEvaluation::Handcrafted => false,
        BenchEvaluation::Network(_) => true,
    };
    let start = Instant::now();
    let mut nodes = 0;
    let list = positions();
    for (i, fen) in list.iter().enumerate() {
        let position = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                progress(&format!(
                    "info string error: bench position {} '{fen}': {e}",
                    i + 1
                ));
                continue;
            }
        };
        // A fresh engine per position keeps the count independent of order and history.
        let mut engine = Engine::new(EngineOptions {
            use_nnue,
            ..EngineOptions::default()
        });
        if let BenchEvaluation::Network(network) = evaluation {
            engine.set_network(Some(network.clone()));
        }
        let request = SearchRequest::new(
            position,
            SearchLimits {
                depth: Some(depth),
                ..Default::default()
            },
        );
        let result = engine.think(&request, &mut |_| {});
        nodes += result.nodes;
        let best = result
            .best_move
            .map_or("(none)".to_string(), |m| m.to_string());
        progress(&format!(
            "position {:>2}/{}: bestmove {best} score {} nodes {}",
            i + 1,
            list.len(),
            result.score,
            result.nodes
        ));
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    BenchReport {
        nodes,
        nps: nodes * 1000 / ms,
        positions: list.len(),
    }
}
