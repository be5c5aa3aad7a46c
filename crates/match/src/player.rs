//! One engine as a match sees it: started on demand, set up with its options, asked for moves
//! under a deadline, and restarted after a crash or a hang. The words are the engine crate's
//! protocol; this module only drives the process.

use crate::engine_spec::EngineSpec;
use crate::process::{EngineLog, EngineProcess, ProcessEnd, ReadError, SpawnError};
use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, Instant};
use xiangqi_engine::protocol::{
    BestMove, Command, Dialect, GoParams, OptionDecl, PositionCommand, Reply, ReplyError, Reported,
};
use xiangqi_rules::{Move, Position};

/// How long an engine may take to finish the handshake or answer `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(15);

/// How long an engine may take to exit after `quit`.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// Something went wrong with the engine process itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The program could not be started.
    Spawn(SpawnError),
    /// The engine started but did not finish its start-up (handshake, options, `isready`).
    StartUp(Box<Fault>),
    /// The engine's pipes closed: it exited or crashed.
    Crash(ProcessEnd),
    /// The engine did not answer in time.
    Hang {
        /// What we waited for: `bestmove`, `readyok`, …
        awaiting: &'static str,
        /// How long we waited.
        waited: Duration,
    },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Spawn(error) => write!(f, "failed to start: {error}"),
            Fault::StartUp(fault) => write!(f, "failed to start: {fault}"),
            Fault::Crash(end) => write!(f, "crashed: {end}"),
            Fault::Hang { awaiting, waited } => write!(
                f,
                "hung: no {awaiting} within {:.3} s",
                waited.as_secs_f64()
            ),
        }
    }
}

impl std::error::Error for Fault {}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move (`None` for `bestmove (none)` or `nobestmove`), or why the word after
    /// `bestmove` is not a move.
    pub best: Result<Option<Move>, ReplyError>,
    /// The last exact score the engine reported for its best line.
    pub score: Option<Reported>,
    /// The depth of the last `info` line.
    pub depth: Option<u32>,
    /// Time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The last exact score and first move of each MultiPV line, best line first.
    pub lines: Vec<(Reported, Move)>,
}

/// An engine taking part in a match.
pub struct Player {
    spec: EngineSpec,
    log: Option<EngineLog>,
    process: Option<EngineProcess>,
    id_name: Option<String>,
    options: Vec<OptionDecl>,
}

impl Player {
    /// A player for `spec`; the process starts on first use.
    pub fn new(spec: EngineSpec, log: Option<EngineLog>) -> Player {
        Player {
            spec,
            log,
            process: None,
            id_name: None,
            options: Vec::new(),
        }
    }

    /// How the engine is started and set up.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The name the engine gave in `id name`, once it has started.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// The options the engine offered in its handshake, once it has started.
    pub fn options(&self) -> &[OptionDecl] {
        &self.options
    }

    /// Starts the engine if it is not running: handshake, options, `isready`.
    pub fn start(&mut self) -> Result<(), Fault> {
        if self.process.is_some() {
            return Ok(());
        }
        let process = EngineProcess::spawn(&self.spec, self.log.clone()).map_err(Fault::Spawn)?;
        self.process = Some(process);
        let result = self.handshake();
        if result.is_err() {
            self.kill();
        }
        result.map_err(|fault| Fault::StartUp(Box::new(fault)))
    }

    fn handshake(&mut self) -> Result<(), Fault> {
        let dialect = self.spec.dialect;
        self.send(&Command::Hello(dialect))?;
        let since = Instant::now();
        let deadline = since + HANDSHAKE_TIMEOUT;
        self.options.clear();
        loop {
            match self.read(deadline, dialect.handshake_done(), since)? {
                Ok(Some(Reply::HandshakeDone(_))) => break,
                Ok(Some(Reply::IdName(name))) => self.id_name = Some(name),
                Ok(Some(Reply::Option(option))) => self.options.push(option),
                _ => {}
            }
        }
        let mut options = self.spec.options.clone();
        let wanted = |name: &str, wanted_dialect: Dialect| {
            dialect == wanted_dialect
                && self.options.iter().any(|a| a.name == name)
                && !self
                    .spec
                    .options
                    .iter()
                    .any(|(n, _)| n.eq_ignore_ascii_case(name))
        };
        // Fairy-Stockfish plays chess in plain UCI unless told otherwise.
        if wanted("UCI_Variant", Dialect::Uci) {
            options.push(("UCI_Variant".into(), "xiangqi".into()));
        }
        // UCCI engines that know `usemillisec` read `go time` in seconds unless it is set.
        if wanted("usemillisec", Dialect::Ucci) {
            options.push(("usemillisec".into(), "true".into()));
        }
        for (name, value) in options {
            self.send(&Command::SetOption { name, value })?;
        }
        self.sync()
    }

    /// Prepares the engine for a new game (starting it if needed) and waits until it is
    /// ready.
    pub fn new_game(&mut self) -> Result<(), Fault> {
        self.start()?;
        if self.spec.dialect == Dialect::Uci {
            self.send(&Command::NewGame)?;
        }
        self.sync()
    }

    /// Sends `isready` and waits for `readyok`.
    fn sync(&mut self) -> Result<(), Fault> {
        self.send(&Command::IsReady)?;
        let since = Instant::now();
        let deadline = since + HANDSHAKE_TIMEOUT;
        loop {
            if let Ok(Some(Reply::ReadyOk)) = self.read(deadline, "readyok", since)? {
                return Ok(());
            }
        }
    }

    /// Asks for a move in the position reached from `start` by `moves`, and waits for
    /// `bestmove` until `allowed` has passed. A hang or a crash kills the process; the next
    /// call starts a fresh one.
    pub fn think(
        &mut self,
        start: &Position,
        moves: &[Move],
        go: &GoParams,
        allowed: Duration,
    ) -> Result<Thought, Fault> {
        self.start()?;
        let result = self.think_running(start, moves, go, allowed);
        if result.is_err() {
            self.kill();
        }
        result
    }

    fn think_running(
        &mut self,
        start: &Position,
        moves: &[Move],
        go: &GoParams,
        allowed: Duration,
    ) -> Result<Thought, Fault> {
        self.send(&Command::Position(PositionCommand {
            start: start.clone(),
            moves: moves.to_vec(),
        }))?;
        self.send(&Command::Go(go.clone()))?;
        let started = Instant::now();
        let deadline = started + allowed;
        let mut score = None;
        let mut depth = None;
        let mut lines = BTreeMap::new();
        loop {
            let best = match self.read(deadline, "bestmove", started)? {
                Ok(Some(Reply::Info(info))) => {
                    let multipv = info.multipv.unwrap_or(1);
                    if let (Some(line_score), Some(&first)) = (info.exact_score(), info.pv.first())
                    {
                        lines.insert(multipv, (line_score, first));
                    }
                    if info.exact_score().is_some() && multipv == 1 {
                        score = info.exact_score();
                    }
                    if info.depth.is_some() {
                        depth = info.depth;
                    }
                    continue;
                }
                Ok(Some(Reply::BestMove(BestMove { best, .. }))) => Ok(best),
                Err(error @ ReplyError::BestMove { .. }) => Err(error),
                Ok(_) => continue,
            };
            return Ok(Thought {
                best,
                score,
                depth,
                elapsed: started.elapsed(),
                lines: lines.into_values().collect(),
            });
        }
    }

    /// Asks the engine to quit and ends its process.
    pub fn quit(&mut self) {
        if let Some(process) = self.process.take() {
            let quit = Command::Quit.format(self.spec.dialect, self.spec.ranks);
            process.shut_down(&quit, QUIT_GRACE);
        }
    }

    /// Ends the process at once (after a fault, or to stop a match).
    pub fn kill(&mut self) {
        self.process = None;
    }

    fn send(&mut self, command: &Command) -> Result<(), Fault> {
        let line = command.format(self.spec.dialect, self.spec.ranks);
        match self.process.as_mut() {
            Some(process) => process.send(&line).map_err(Fault::Crash),
            None => Err(Fault::Crash(ProcessEnd::NotRunning)),
        }
    }

    /// The next line, read as a reply, waiting until `deadline`; a timeout is a hang that
    /// began at `since`.
    fn read(
        &mut self,
        deadline: Instant,
        awaiting: &'static str,
        since: Instant,
    ) -> Result<Result<Option<Reply>, ReplyError>, Fault> {
        let Some(process) = self.process.as_mut() else {
            return Err(Fault::Crash(ProcessEnd::NotRunning));
        };
        let line = process.read_line(deadline).map_err(|e| match e {
            ReadError::Closed(end) => Fault::Crash(end),
            ReadError::Timeout => Fault::Hang {
                awaiting,
                waited: since.elapsed(),
            },
        })?;
        Ok(Reply::parse(&line, self.spec.ranks))
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        self.quit();
    }
}
