//! The bench: a fixed-depth search of fixed positions with one thread and a 16 MB table.
//! Its node count is a fingerprint of search behaviour; its speed is the engine's nps.

use crate::engine::{Engine, EngineOptions, Evaluation, SearchRequest};
use crate::limits::SearchLimits;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// Positions done (a position that cannot be read counts, with its error line).
    pub positions: usize,
    /// Positions in the bench; more than `positions` when the run was stopped.
    pub of: usize,
}

impl BenchReport {
    /// The closing line: `<nodes> nodes <nps> nps` for a whole run; a stopped run says how
    /// far it came instead, so that its count is never taken for the bench's.
    pub fn summary(&self) -> String {
        if self.stopped() {
            format!(
                "info string bench stopped after {} of {} positions, {} nodes {} nps",
                self.positions, self.of, self.nodes, self.nps
            )
        } else {
            format!("{} nodes {} nps", self.nodes, self.nps)
        }
    }

    /// Whether the run was stopped before its last position.
    pub fn stopped(&self) -> bool {
        self.positions < self.of
    }
}

/// Stops a bench run from another thread: the position being searched ends at once and no
/// further position is started.
#[derive(Default)]
pub struct BenchStop {
    requested: AtomicBool,
    searching: Mutex<Option<Engine>>,
}

impl BenchStop {
    /// Asks the run to stop.
    pub fn stop(&self) {
        let searching = self.searching.lock().unwrap_or_else(|e| e.into_inner());
        self.requested.store(true, Ordering::Relaxed);
        if let Some(engine) = searching.as_ref() {
            engine.stop();
        }
    }

    /// Arms `engine` for the next position and makes it the one a stop reaches; false when
    /// a stop was asked for already.
    fn start(&self, engine: &Engine) -> bool {
        let mut searching = self.searching.lock().unwrap_or_else(|e| e.into_inner());
        engine.arm(false);
        *searching = Some(engine.clone());
        !self.requested.load(Ordering::Relaxed)
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

/// Searches every bench position to `depth` with the default evaluation, writing one
/// progress line per position.
pub fn run(depth: i32, progress: &mut dyn FnMut(&str)) -> BenchReport {
    run_with(depth, &Evaluation::Default, progress)
}

/// As [`run`], searching with the given evaluation.
pub fn run_with(
    depth: i32,
    evaluation: &Evaluation,
    progress: &mut dyn FnMut(&str),
) -> BenchReport {
    run_stoppable(depth, evaluation, progress, &BenchStop::default())
}

/// As [`run_with`], ending early when `stop` is asked to.
pub fn run_stoppable(
    depth: i32,
    evaluation: &Evaluation,
    progress: &mut dyn FnMut(&str),
    stop: &BenchStop,
) -> BenchReport {
    let start = Instant::now();
    let mut nodes = 0;
    let mut searched = 0;
    let list = positions();
    for (i, fen) in list.iter().enumerate() {
        let position = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                progress(&format!(
                    "info string error: bench position {} '{fen}': {e}",
                    i + 1
                ));
                searched += 1;
                continue;
            }
        };
        // A fresh engine per position keeps the count independent of order and history.
        let engine = evaluation.engine(EngineOptions::default());
        let request = SearchRequest::new(
            position,
            SearchLimits {
                depth: Some(depth),
                ..Default::default()
            },
        );
        if !stop.start(&engine) {
            break;
        }
        let result = engine.think_armed(&request, &mut |_| {});
        nodes += result.nodes;
        if stop.requested.load(Ordering::Relaxed) {
            break;
        }
        searched += 1;
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
        positions: searched,
        of: list.len(),
    }
}
