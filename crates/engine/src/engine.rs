//! The engine as a library: options, a shared table, and blocking searches that the protocol
//! front ends and the app drive (best move, hints, MultiPV analysis with progress reports).

use crate::eval::{Evaluator, HandcraftedEval};
use crate::levels::{LONGEST_THINK, Level};
use crate::limits::SearchLimits;
use crate::nnue::{Network, NetworkError};
use crate::random::SplitMix64;
use crate::search::params::SearchParams;
use crate::search::{SearchConfig, SearchInfo, SearchResult, Shared, search};
use crate::tablebase::EngineTables;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use xiangqi_egtb::{EgtbError, Tablebases};
use xiangqi_rules::{Move, Position};

/// Settings a front end can change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Playing level.
    pub level: Level,
    /// Time kept back per move for communication.
    pub move_overhead: Duration,
    /// Evaluate with the loaded network (NNUE) instead of the handcrafted evaluation; with
    /// no network loaded the handcrafted evaluation is used.
    pub use_nnue: bool,
    /// The search's tunable numbers (changed only for tuning).
    pub search_params: SearchParams,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            level: Level::new(crate::levels::MAX_LEVEL),
            move_overhead: Duration::from_millis(10),
            use_nnue: crate::nnue::EMBEDDED_NET.is_some(),
            search_params: SearchParams::default(),
        }
    }
}

/// The evaluation an engine plays with, as the command line chooses it.
#[derive(Clone, Default)]
pub enum Evaluation {
    /// The engine's default: the built-in network.
    #[default]
    Default,
    /// The handcrafted evaluation (the engine with `UseNNUE` off).
    Handcrafted,
    /// This network instead of the built-in one.
    Network(Arc<Network>),
}

impl std::fmt::Debug for Evaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Evaluation::Default => f.write_str("Default"),
            Evaluation::Handcrafted => f.write_str("Handcrafted"),
            Evaluation::Network(network) => write!(f, "Network({} hidden)", network.hidden()),
        }
    }
}

impl Evaluation {
    /// An engine with `options` that evaluates this way (`use_nnue` is set to match).
    pub fn engine(&self, options: EngineOptions) -> Engine {
        let use_nnue = match self {
            Evaluation::Default => EngineOptions::default().use_nnue,
            Evaluation::Handcrafted => false,
            Evaluation::Network(_) => true,
        };
        let mut engine = Engine::new(EngineOptions {
            use_nnue,
            ..options
        });
        if let Evaluation::Network(network) = self {
            engine.set_network(Some(network.clone()));
        }
        engine
    }
}

/// A search request: the position, how it was reached, and the limits.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// Position to search.
    pub position: Position,
    /// Hashes of the earlier positions of the game since the last capture, oldest first.
    pub history: Vec<u64>,
    /// The move played from each of those positions (same length as `history`), so that
    /// repeated cycles can be judged for perpetual check and chase; empty when unknown.
    pub history_moves: Vec<Move>,
    /// Limits of this search.
    pub limits: SearchLimits,
    /// Root moves not to play.
    pub excluded: Vec<Move>,
    /// Root moves to choose from (all when empty).
    pub search_moves: Vec<Move>,
}

impl SearchRequest {
    /// A request for `position` with no game history.
    pub fn new(position: Position, limits: SearchLimits) -> SearchRequest {
        SearchRequest {
            position,
            history: Vec::new(),
            history_moves: Vec::new(),
            limits,
            excluded: Vec::new(),
            search_moves: Vec::new(),
        }
    }
}

/// The engine. Clones share the table and the stop signal, so one clone can stop another's
/// search from a different thread.
#[derive(Clone)]
pub struct Engine {
    shared: Arc<Shared>,
    eval: Arc<dyn Evaluator>,
    network: Option<Arc<Network>>,
    tables: Option<Arc<EngineTables>>,
    options: EngineOptions,
    random: Arc<Mutex<SplitMix64>>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(EngineOptions::default())
    }
}

impl Engine {
    /// An engine with the handcrafted evaluation and the built-in network, if any, for
    /// [`EngineOptions::use_nnue`].
    pub fn new(options: EngineOptions) -> Engine {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x9E37_79B9, |d| d.as_nanos() as u64)
            | 1;
        Engine {
            shared: Arc::new(Shared::new(options.hash_mb)),
            eval: Arc::new(HandcraftedEval::new()),
            network: crate::nnue::embedded_network(),
            tables: None,
            options,
            random: Arc::new(Mutex::new(SplitMix64::new(seed))),
        }
    }

    /// The current options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Gives the engine a new hash table of `megabytes` MB (not during a search); when the
    /// memory cannot be had, the table stays as it was and the error says so.
    pub fn resize_hash(&mut self, megabytes: usize) -> Result<(), crate::tt::TableTooLarge> {
        if megabytes != self.options.hash_mb {
            self.shared = Arc::new(Shared::try_new(megabytes)?);
            self.options.hash_mb = megabytes;
        }
        Ok(())
    }

    /// Changes options; a new hash size reallocates the table (not during a search).
    pub fn set_options(&mut self, options: EngineOptions) {
        if options.hash_mb != self.options.hash_mb {
            self.shared = Arc::new(Shared::new(options.hash_mb));
        }
        self.options = options;
    }

    /// The static evaluation of `position` for the side to move, in centipawns, by the
    /// evaluation the search uses.
    pub fn static_eval(&self, position: &Position) -> crate::score::Score {
        match self.active_network() {
            Some(network) => network.evaluate(position),
            None => self.eval.evaluate(position),
        }
    }

    /// The loaded network, whether or not it is in use.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// The network the search evaluates with: the loaded one when
    /// [`EngineOptions::use_nnue`] is on and the level uses it ([`Level::uses_network`]).
    pub fn active_network(&self) -> Option<&Arc<Network>> {
        self.network
            .as_ref()
            .filter(|_| self.options.use_nnue && self.options.level.uses_network())
    }

    /// Replaces the loaded network (`None` unloads it).
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.network = network;
    }

    /// Loads the network file at `path`; an empty path restores the built-in network (none
    /// when the binary has none). On an error the loaded network stays as it was.
    pub fn load_eval_file(&mut self, path: &str) -> Result<(), NetworkError> {
        let path = path.trim();
        self.network = if path.is_empty() {
            crate::nnue::embedded_network()
        } else {
            Some(Arc::new(Network::load(path)?))
        };
        Ok(())
    }

    /// Gives the search endgame tables to probe (`None`: none). Every table in the folder is
    /// read now; one that cannot be read is left out and its error returned, and the engine
    /// plays on with the others. The tables serve full-strength play only: the learner levels
    /// keep their own mistakes.
    pub fn set_tablebases(&mut self, tables: Option<Arc<Tablebases>>) -> Vec<EgtbError> {
        let Some(tables) = tables else {
            self.tables = None;
            return Vec::new();
        };
        let (loaded, errors) = EngineTables::load(tables);
        self.tables = Some(Arc::new(loaded));
        errors
    }

    /// The endgame tables the search probes, if any.
    pub fn tablebases(&self) -> Option<&Arc<EngineTables>> {
        self.tables.as_ref()
    }

    /// Forgets what earlier searches learned (a new game).
    pub fn new_game(&self) {
        self.shared.tt.clear();
        self.shared.clear_histories();
    }

    /// Asks a running search to stop soon; it then returns its best move.
    pub fn stop(&self) {
        self.shared.pondering.store(false, Ordering::Relaxed);
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// Turns a ponder search into a normal one with its clock starting now.
    pub fn ponderhit(&self) {
        self.shared.restart_clock();
        self.shared.pondering.store(false, Ordering::Relaxed);
    }

    fn next_random(&self) -> f64 {
        self.random.lock().unwrap_or_else(|e| e.into_inner()).unit()
    }

    /// Searches `request` at the configured level, calling `report` after each completed
    /// line, and returns the move to play.
    pub fn think(
        &self,
        request: &SearchRequest,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.arm(request.limits.ponder);
        self.think_armed(request, report)
    }

    /// Readies the engine for its next search: an earlier [`Engine::stop`] is forgotten, and
    /// the search ponders when `ponder` is set. A search handed to another thread is armed on
    /// the thread that takes the stop commands, before it is handed over, so that a stop that
    /// comes at any moment after is heard; [`Engine::think_armed`] then runs it.
    pub fn arm(&self, ponder: bool) {
        self.shared.arm(ponder);
    }

    /// Stops the running search, and every search after it until [`Engine::resume`]: for a
    /// caller whose searches, however many, all belong to one request that is now void.
    pub fn halt(&self) {
        self.shared.halt();
    }

    /// Lets searches run again after [`Engine::halt`].
    pub fn resume(&self) {
        self.shared.resume();
    }

    /// Searches as [`Engine::think`] does, for an engine already [armed](Engine::arm): a stop
    /// that came after the arming ends this search at once, with its best move so far.
    pub fn think_armed(
        &self,
        request: &SearchRequest,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let level = self.options.level;
        let mut limits = request.limits.clone();
        let mut multipv = self.options.multipv;
        if !level.is_full_strength() {
            limits.depth = min_opt(limits.depth, level.depth_limit());
            limits.nodes = min_opt(limits.nodes, level.node_limit());
            if !limits.infinite && !limits.ponder {
                let cap = limits
                    .time_budget(self.options.move_overhead)
                    .map_or(LONGEST_THINK, |b| b.hard.min(LONGEST_THINK));
                limits.movetime = Some(cap + self.options.move_overhead);
            }
            multipv = multipv.max(level.candidate_lines());
        }
        let config = SearchConfig {
            limits,
            threads: self.options.threads,
            multipv,
            move_overhead: self.options.move_overhead,
            excluded: request.excluded.clone(),
            search_moves: request.search_moves.clone(),
            network: self.active_network().cloned(),
            tables: self.tables.clone().filter(|_| level.is_full_strength()),
            params: self.options.search_params,
        };
        let shown = self.options.multipv;
        let mut filtered = |info: &SearchInfo| {
            if info.multipv <= shown {
                report(info);
            }
        };
        let mut result = search(
            &request.position,
            &request.history,
            &request.history_moves,
            &config,
            &self.shared,
            self.eval.as_ref(),
            &mut filtered,
        );
        if !level.is_full_strength()
            && let Some(chosen) = level.choose(&result.lines, self.next_random())
            && Some(chosen) != result.best_move
            && let Some(line) = result.lines.iter().find(|l| l.pv.first() == Some(&chosen))
        {
            result.best_move = Some(chosen);
            result.ponder_move = line.pv.get(1).copied();
            result.score = line.score;
            result.pv = line.pv.clone();
        }
        result
    }

    /// A hint for the side to move within `budget`: the best move, its line and score.
    /// `history` and `history_moves` are as in [`SearchRequest`].
    pub fn hint(
        &self,
        position: &Position,
        history: &[u64],
        history_moves: &[Move],
        budget: Duration,
    ) -> SearchResult {
        let mut full = self.clone();
        full.options.level = Level::new(crate::levels::MAX_LEVEL);
        full.options.multipv = 1;
        let request = SearchRequest {
            history: history.to_vec(),
            history_moves: history_moves.to_vec(),
            ..SearchRequest::new(
                position.clone(),
                SearchLimits {
                    movetime: Some(budget),
                    ..Default::default()
                },
            )
        };
        full.think(&request, &mut |_| {})
    }
}

fn min_opt<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}
