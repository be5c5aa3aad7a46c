//! The engine's side of a session: reads command lines, searches on a background thread, and
//! writes replies. Bad input gets `info string error: …` and the engine stays usable.

use super::{
    BestMove, Command, Dialect, Info, OptionDecl, OptionKind, ParsedPosition, PositionCommand,
    Reply, ScoreBound,
};
use crate::bench;
use crate::book::{self, OpeningBook};
use crate::engine::{Engine, EngineOptions, SearchRequest};
use crate::levels::{ELO_RANGE, Level, MAX_LEVEL};
use crate::search::params::{ParamError, TUNABLES, Tunable};
use crate::search::{SearchInfo, SearchResult};
use crate::tt::Bound;
use std::fmt;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use xiangqi_rules::{Move, Position, RankBase};

/// Where replies go; shared with the search thread.
pub type Output = Arc<Mutex<dyn Write + Send>>;

/// The rank numbering this engine reads and writes: 0–9.
const RANKS: RankBase = RankBase::Zero;

fn send(out: &Output, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// Engine name and version for `id name`.
pub const ENGINE_NAME: &str = concat!("Xiangqi ", env!("CARGO_PKG_VERSION"));

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
enum OptionError {
    /// The option takes a whole number up to `max`.
    Number {
        name: String,
        max: u64,
        value: String,
    },
    /// The option takes `true` or `false`.
    Flag { name: String, value: String },
    /// A search parameter (under `--tune`) with a value it cannot take.
    Param(ParamError),
    /// No option has this name.
    Unknown { name: String },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Number { name, max, value } => write!(
                f,
                "option '{name}' needs a whole number up to {max}, got '{value}'"
            ),
            OptionError::Flag { name, value } => {
                write!(f, "option '{name}' needs true or false, got '{value}'")
            }
            OptionError::Param(e) => write!(f, "option {e}"),
            OptionError::Unknown { name } => write!(f, "unknown option '{name}'"),
        }
    }
}

/// One protocol session.
pub struct Session {
    dialect: Dialect,
    engine: Engine,
    options: EngineOptions,
    skill_level: u32,
    limit_strength: bool,
    elo: u32,
    position: Position,
    history: Vec<u64>,
    history_moves: Vec<Move>,
    banned: Vec<Move>,
    /// The search or bench running on its own thread, if any.
    search: Option<JoinHandle<()>>,
    /// How to stop the bench when that thread runs one.
    bench: Option<Arc<bench::BenchStop>>,
    out: Output,
    /// The opening book the learner levels play from, if the session has one.
    book: Option<Arc<dyn OpeningBook>>,
    /// Whether the learner levels play from the book (`OwnBook`, `usebook`; on by default).
    own_book: bool,
    /// The moves from the initial position to the current one, when the position command
    /// started there; none after a setup of another position.
    opening: Option<Vec<Move>>,
    /// The current game's seed for the book's draws, new at each new game.
    seed: u64,
    /// Whether the search's tunable numbers are offered as options (for tuning only).
    tuning: bool,
}

impl Session {
    /// A session speaking `dialect`, writing to `out`.
    pub fn new(dialect: Dialect, out: Output) -> Session {
        let options = EngineOptions::default();
        Session {
            dialect,
            engine: Engine::new(options.clone()),
            options,
            skill_level: MAX_LEVEL,
            limit_strength: false,
            elo: ELO_RANGE.1,
            position: Position::startpos(),
            history: Vec::new(),
            history_moves: Vec::new(),
            banned: Vec::new(),
            search: None,
            bench: None,
            out,
            book: None,
            own_book: true,
            opening: Some(Vec::new()),
            seed: fresh_seed(),
            tuning: false,
        }
    }

    /// The same session offering every tunable search number ([`TUNABLES`]) as a UCI spin
    /// option, for tuning by matches; ordinary play never needs them.
    pub fn with_tuning(mut self) -> Session {
        self.tuning = true;
        self
    }

    /// The same session with `book` for its learner levels to open from.
    pub fn with_book(mut self, book: Arc<dyn OpeningBook>) -> Session {
        self.book = Some(book);
        self
    }

    fn reply(&self, reply: &Reply) {
        send(&self.out, &reply.format(self.dialect, RANKS));
    }

    fn error(&self, message: impl fmt::Display) {
        self.reply(&Reply::Info(Info::text(format!("error: {message}"))));
    }

    /// Reads commands from `input` until `quit` or end of input.
    pub fn run(&mut self, input: impl BufRead) {
        for line in input.lines() {
            let Ok(line) = line else {
                self.error("input is not valid UTF-8; line ignored");
                continue;
            };
            if !self.handle(&line) {
                break;
            }
        }
        self.stop_search();
    }

    /// Handles one command line; returns false after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        match Command::parse(line, self.dialect, RANKS) {
            Ok(Some(command)) => return self.execute(command),
            Ok(None) => {}
            Err(super::CommandError::Position(error)) => {
                self.error(format_args!("{error}; position unchanged"))
            }
            Err(error) => self.error(error),
        }
        true
    }

    /// Carries out one command; returns false after `quit`.
    fn execute(&mut self, command: Command) -> bool {
        match command {
            Command::Hello(dialect) => {
                self.dialect = dialect;
                self.identify();
            }
            Command::IsReady => self.reply(&Reply::ReadyOk),
            Command::NewGame => {
                self.stop_search();
                self.engine.new_game();
                self.history.clear();
                self.history_moves.clear();
                self.banned.clear();
                self.seed = fresh_seed();
            }
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::Position(position) => self.set_position(&position),
            Command::BanMoves(moves) => self.ban_moves(moves),
            Command::Go(go) => self.go(&go),
            Command::Stop => self.stop_search(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Bench(depth) => self.bench(depth.unwrap_or(bench::DEFAULT_DEPTH)),
            Command::Show => {
                send(&self.out, &self.position.diagram());
                send(&self.out, &format!("fen {}", self.position.to_fen()));
            }
            Command::Eval => {
                let score = self.engine.static_eval(&self.position);
                self.reply(&Reply::Info(Info::text(format!(
                    "static evaluation {score} (side to move)"
                ))));
            }
            Command::Quit => {
                self.stop_search();
                if self.dialect == Dialect::Ucci {
                    self.reply(&Reply::Bye);
                }
                return false;
            }
        }
        true
    }

    fn identify(&self) {
        self.reply(&Reply::IdName(ENGINE_NAME.to_string()));
        self.reply(&Reply::IdAuthor("the Xiangqi authors".to_string()));
        for option in self.options_offered() {
            self.reply(&Reply::Option(option));
        }
        self.reply(&Reply::HandshakeDone(self.dialect));
    }

    /// The options this engine offers in its dialect.
    fn options_offered(&self) -> Vec<OptionDecl> {
        let (lo, hi) = ELO_RANGE;
        let level = i64::from(MAX_LEVEL);
        let spin = |name: &str, default, min, max| OptionDecl {
            name: name.to_string(),
            kind: OptionKind::Spin { default, min, max },
        };
        let check = |name: &str| OptionDecl {
            name: name.to_string(),
            kind: OptionKind::Check { default: false },
        };
        let button = |name: &str| OptionDecl {
            name: name.to_string(),
            kind: OptionKind::Button,
        };
        let use_nnue = |name: &str| OptionDecl {
            name: name.to_string(),
            kind: OptionKind::Check {
                default: EngineOptions::default().use_nnue,
            },
        };
        let own_book = |name: &str| OptionDecl {
            name: name.to_string(),
            kind: OptionKind::Check {
                default: self.book.is_some(),
            },
        };
        let path = |name: &str| OptionDecl {
            name: name.to_string(),
            kind: OptionKind::Other("string default <empty>".to_string()),
        };
        let tunables = TUNABLES.iter().filter(|_| self.tuning).map(|t| {
            spin(
                t.name,
                i64::from(t.default),
                i64::from(t.min),
                i64::from(t.max),
            )
        });
        match self.dialect {
            Dialect::Uci => [
                spin("Hash", 16, 1, 65536),
                spin("Threads", 1, 1, 256),
                spin("MultiPV", 1, 1, 128),
                spin("Skill Level", level, 0, level),
                check("UCI_LimitStrength"),
                spin("UCI_Elo", i64::from(hi), i64::from(lo), i64::from(hi)),
                spin("Move Overhead", 10, 0, 5000),
                check("Ponder"),
                button("Clear Hash"),
                use_nnue("UseNNUE"),
                path("EvalFile"),
                own_book("OwnBook"),
                path("EgtbPath"),
            ]
            .into_iter()
            .chain(tunables)
            .collect(),
            Dialect::Ucci => vec![
                spin("hashsize", 16, 1, 65536),
                spin("threads", 1, 1, 256),
                spin("skill", level, 0, level),
                own_book("usebook"),
                button("newgame"),
                use_nnue("usennue"),
                path("evalfile"),
                path("egtbpath"),
            ],
        }
    }

    fn apply_options(&mut self) {
        self.stop_search();
        self.options.level = if self.limit_strength {
            Level::from_elo(self.elo)
        } else {
            Level::new(self.skill_level)
        };
        self.engine.set_options(self.options.clone());
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let number = |max: u64| -> Result<u64, OptionError> {
            value
                .parse::<u64>()
                .ok()
                .filter(|v| *v <= max)
                .ok_or_else(|| OptionError::Number {
                    name: name.to_string(),
                    max,
                    value: value.to_string(),
                })
        };
        let flag = || -> Result<bool, OptionError> {
            match value.to_ascii_lowercase().as_str() {
                "true" | "on" => Ok(true),
                "false" | "off" => Ok(false),
                _ => Err(OptionError::Flag {
                    name: name.to_string(),
                    value: value.to_string(),
                }),
            }
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "hash" | "hashsize" => number(65536).map(|v| self.resize_hash(v.max(1) as usize)),
            "threads" => number(256).map(|v| self.options.threads = v.max(1) as usize),
            "multipv" => number(128).map(|v| self.options.multipv = v.max(1) as usize),
            "skill level" | "skill" => {
                number(MAX_LEVEL as u64).map(|v| self.skill_level = v as u32)
            }
            "uci_limitstrength" => flag().map(|v| self.limit_strength = v),
            "uci_elo" => number(u64::from(u32::MAX))
                .map(|v| self.elo = (v as u32).clamp(ELO_RANGE.0, ELO_RANGE.1)),
            "move overhead" => {
                number(5000).map(|v| self.options.move_overhead = Duration::from_millis(v))
            }
            "ownbook" | "usebook" => flag().map(|v| self.own_book = v),
            "ponder" => flag().map(|_| ()),
            "usennue" => flag().map(|v| {
                if v != self.options.use_nnue {
                    // The table's stored evaluations came from the other evaluation.
                    self.stop_search();
                    self.engine.new_game();
                }
                self.options.use_nnue = v;
            }),
            "evalfile" => {
                self.load_eval_file(value);
                Ok(())
            }
            "egtbpath" => {
                self.load_tablebases(value);
                Ok(())
            }
            "clear hash" => {
                self.stop_search();
                self.engine.new_game();
                Ok(())
            }
            "newgame" => {
                self.stop_search();
                self.engine.new_game();
                self.seed = fresh_seed();
                Ok(())
            }
            _ => match Tunable::named(name).filter(|_| self.tuning) {
                Some(tunable) => tunable
                    .set(&mut self.options.search_params, value)
                    .map_err(OptionError::Param),
                None => Err(OptionError::Unknown {
                    name: name.to_string(),
                }),
            },
        };
        match result {
            Ok(()) => self.apply_options(),
            Err(e) => self.error(e),
        }
        let about_nnue = matches!(name.to_ascii_lowercase().as_str(), "usennue" | "evalfile");
        if about_nnue && self.options.use_nnue && self.engine.network().is_none() {
            self.reply(&Reply::Info(Info::text(
                "UseNNUE is on but no network is loaded (set EvalFile): \
                 the handcrafted evaluation is used"
                    .to_string(),
            )));
        }
    }

    /// Gives the engine a table of `megabytes` MB; when that memory cannot be had, says so
    /// and keeps the table it has.
    fn resize_hash(&mut self, megabytes: usize) {
        self.stop_search();
        match self.engine.resize_hash(megabytes) {
            Ok(()) => self.options.hash_mb = megabytes,
            Err(e) => self.error(format_args!(
                "Hash {megabytes}: {e}; the table stays at {} MB",
                self.options.hash_mb
            )),
        }
    }

    /// Loads the network at `path` (empty or `<empty>`: the built-in one); on an error the
    /// evaluation stays as it was and the error is reported.
    fn load_eval_file(&mut self, path: &str) {
        self.stop_search();
        let path = if path == "<empty>" { "" } else { path };
        match self.engine.load_eval_file(path) {
            Ok(()) => {
                // The table's stored evaluations came from the previous network.
                self.engine.new_game();
                let text = match (self.engine.network(), path) {
                    (Some(network), "") => format!(
                        "EvalFile: the built-in network, {} hidden units",
                        network.hidden()
                    ),
                    (Some(network), _) => format!(
                        "EvalFile: network '{path}' loaded, {} hidden units",
                        network.hidden()
                    ),
                    (None, _) => "EvalFile: no network loaded".to_string(),
                };
                self.reply(&Reply::Info(Info::text(text)));
            }
            Err(e) => self.error(format_args!(
                "EvalFile '{path}': {e}; the evaluation is unchanged"
            )),
        }
    }

    /// Gives the engine the endgame tables in the folder `path` (empty or `<empty>`: none).
    /// A missing folder or a table that cannot be read is reported; the engine plays on
    /// with the tables that could be read, or without tables.
    fn load_tablebases(&mut self, path: &str) {
        self.stop_search();
        let path = path.trim();
        let path = if path == "<empty>" { "" } else { path };
        if path.is_empty() {
            self.engine.set_tablebases(None);
            return self.reply(&Reply::Info(Info::text(
                "EgtbPath: no endgame tables".to_string(),
            )));
        }
        let tables = match xiangqi_egtb::Tablebases::open(path) {
            Ok(tables) => tables,
            Err(e) => {
                self.engine.set_tablebases(None);
                return self.error(format_args!(
                    "EgtbPath '{path}': {e}; playing without endgame tables"
                ));
            }
        };
        for e in self.engine.set_tablebases(Some(Arc::new(tables))) {
            self.error(format_args!(
                "EgtbPath '{path}': {e}; that table is left out"
            ));
        }
        let endings = self
            .engine
            .tablebases()
            .map(|t| t.endings())
            .unwrap_or_default();
        let text = if endings.is_empty() {
            format!("EgtbPath: no endgame tables could be read in '{path}'")
        } else {
            let names: Vec<String> = endings.iter().map(|e| e.name()).collect();
            format!(
                "EgtbPath: {} endgame tables from '{path}': {}",
                endings.len(),
                names.join(" ")
            )
        };
        self.reply(&Reply::Info(Info::text(text)));
    }

    fn set_position(&mut self, command: &PositionCommand) {
        let opening = book::is_initial(&command.start).then(|| command.moves.clone());
        match command.replay() {
            Ok(ParsedPosition {
                position,
                history,
                history_moves,
            }) => {
                self.stop_search();
                self.position = position;
                self.history = history;
                self.history_moves = history_moves;
                self.banned.clear();
                self.opening = opening;
            }
            Err(e) => self.error(format_args!("{e}; position unchanged")),
        }
    }

    fn ban_moves(&mut self, moves: Vec<Move>) {
        if let Some(m) = moves.iter().find(|&&m| !self.position.is_legal(m)) {
            return self.error(format_args!("banmoves: '{m}' is not a legal move here"));
        }
        self.banned = moves;
    }

    /// Ends the search or bench in progress, if any, and waits for its last line.
    fn stop_search(&mut self) {
        if let Some(handle) = self.search.take() {
            self.engine.stop();
            if let Some(bench) = self.bench.take() {
                bench.stop();
            }
            let _ = handle.join();
        }
    }

    /// Runs the bench on its own thread, as a search runs: `isready` is answered meanwhile,
    /// and `stop`, `quit` or any command that ends a search ends it.
    fn bench(&mut self, depth: i32) {
        self.stop_search();
        let stop = Arc::new(bench::BenchStop::default());
        self.bench = Some(stop.clone());
        let out = self.out.clone();
        self.search = Some(std::thread::spawn(move || {
            let report = bench::run_stoppable(
                depth,
                &crate::Evaluation::Default,
                &mut |line| send(&out, line),
                &stop,
            );
            send(&out, &report.summary());
        }));
    }

    fn go(&mut self, go: &super::GoParams) {
        self.stop_search();
        if let Some(m) = go
            .search_moves
            .iter()
            .find(|&&m| !self.position.is_legal(m))
        {
            return self.error(format_args!("searchmoves: '{m}' is not a legal move here"));
        }
        let request = SearchRequest {
            position: self.position.clone(),
            history: self.history.clone(),
            history_moves: self.history_moves.clone(),
            limits: go.limits(self.position.side_to_move()),
            excluded: self.banned.clone(),
            search_moves: go.search_moves.clone(),
        };
        let proposals = self.book_proposals(&request);
        let judge = (!proposals.is_empty()).then(|| self.book_judge());
        let engine = self.engine.clone();
        // Armed here, not on the search's thread: a `stop` read right after this `go` must
        // reach the search however late its thread starts.
        engine.arm(request.limits.ponder);
        let out = self.out.clone();
        let dialect = self.dialect;
        self.search = Some(std::thread::spawn(move || {
            let from_book = judge.and_then(|judge| book::book_reply(&judge, &request, &proposals));
            if let Some(mv) = from_book {
                send(
                    &out,
                    &Reply::Info(Info::text(format!("book move {mv}"))).format(dialect, RANKS),
                );
                let reply = BestMove {
                    best: Some(mv),
                    ponder: None,
                };
                return send(&out, &Reply::BestMove(reply).format(dialect, RANKS));
            }
            let result = engine.think_armed(&request, &mut |info| {
                send(
                    &out,
                    &Reply::Info(info_of(info, dialect)).format(dialect, RANKS),
                )
            });
            send(
                &out,
                &Reply::BestMove(best_move_of(&result)).format(dialect, RANKS),
            );
        }));
    }
}

impl Session {
    /// The book moves the level may open with for `request`, in the order tried: none without a
    /// book or with it off, at full strength, away from the initial position's game, out of
    /// the book, and for a search that is not the choice of a move (infinite, pondering, or
    /// among given moves); banned moves are left out.
    fn book_proposals(&self, request: &SearchRequest) -> Vec<Move> {
        let (Some(book), Some(moves)) = (&self.book, &self.opening) else {
            return Vec::new();
        };
        let limits = &request.limits;
        if !self.own_book || limits.infinite || limits.ponder || !request.search_moves.is_empty() {
            return Vec::new();
        }
        let mut proposals = book::proposals(
            book.as_ref(),
            self.options.level,
            &Position::startpos(),
            moves,
            self.seed,
        );
        proposals.retain(|m| !self.banned.contains(m));
        proposals
    }

    /// An engine that checks book moves: the session's evaluation, on a small table of its
    /// own, so that the check neither disturbs the game's table nor misses a `stop`.
    fn book_judge(&self) -> Engine {
        let mut judge = Engine::new(EngineOptions {
            hash_mb: 1,
            threads: 1,
            ..self.options.clone()
        });
        judge.set_network(self.engine.network().cloned());
        judge
    }
}

/// A seed for a new game's book draws.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    xiangqi_rules::random::mix(nanos)
}

/// What a search line is reported as: UCI gets every field, UCCI depth, score, nodes, time
/// and the line.
fn info_of(info: &SearchInfo, dialect: Dialect) -> Info {
    let time = Some(Duration::from_millis(
        u64::try_from(info.elapsed.as_millis()).unwrap_or(u64::MAX),
    ));
    let score = Some(info.score);
    let pv = info.pv.clone();
    let depth = Some(u32::try_from(info.depth).unwrap_or(0));
    let nodes = Some(info.nodes);
    match dialect {
        Dialect::Uci => Info {
            depth,
            seldepth: Some(u32::try_from(info.seldepth).unwrap_or(u32::MAX)),
            multipv: Some(u32::try_from(info.multipv).unwrap_or(u32::MAX)),
            score,
            bound: match info.bound {
                Some(Bound::Lower) => Some(ScoreBound::Lower),
                Some(Bound::Upper) => Some(ScoreBound::Upper),
                _ => None,
            },
            nodes,
            nps: Some(info.nps()),
            hashfull: Some(info.hashfull),
            time,
            pv,
            string: None,
        },
        Dialect::Ucci => Info {
            depth,
            score,
            nodes,
            time,
            pv,
            ..Info::default()
        },
    }
}

/// The best move a search result is reported as.
fn best_move_of(result: &SearchResult) -> BestMove {
    BestMove {
        best: result.best_move,
        ponder: result.best_move.and(result.ponder_move),
    }
}

/// Runs a session on standard input and output.
pub fn run_stdio(dialect: Dialect, book: Option<Arc<dyn OpeningBook>>, tuning: bool) {
    let out: Output = Arc::new(Mutex::new(std::io::stdout()));
    let mut session = Session::new(dialect, out);
    if let Some(book) = book {
        session = session.with_book(book);
    }
    if tuning {
        session = session.with_tuning();
    }
    let stdin = std::io::stdin();
    session.run(stdin.lock());
}
