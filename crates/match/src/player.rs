//! One engine as a match sees it: started on demand, set up with its options, asked for moves
//! under a deadline, and restarted after a crash or a hang.

use crate::engine_spec::{EngineSpec, Protocol};
use crate::process::{EngineLog, EngineProcess, ReadError};
use crate::protocol::{
    EngineLine, EngineScore, GoRequest, go_command, move_from_engine, parse_line, position_command,
    setoption_command,
};
use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, Instant};
use xiangqi_rules::Move;

/// How long an engine may take to finish the handshake or answer `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(15);

/// How long an engine may take to exit after `quit`.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// Something went wrong with the engine process itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The engine could not be started or did not finish its handshake.
    StartFailure(String),
    /// The engine exited or closed its pipes; the text says how.
    Crash(String),
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
            Fault::StartFailure(why) => write!(f, "failed to start: {why}"),
            Fault::Crash(how) => write!(f, "crashed: {how}"),
            Fault::Hang { awaiting, waited } => write!(
                f,
                "hung: no {awaiting} within {:.3} s",
                waited.as_secs_f64()
            ),
        }
    }
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move text as the engine wrote it (`None` for `bestmove (none)` or `nobestmove`).
    pub text: Option<String>,
    /// The move read with the engine's rank numbering, if the text is a move at all.
    pub best: Option<Move>,
    /// The last exact score the engine reported.
    pub score: Option<EngineScore>,
    /// The depth of the last `info` line.
    pub depth: Option<u32>,
    /// Time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The last exact score and first move of each MultiPV line, best line first.
    pub lines: Vec<(EngineScore, Move)>,
}

/// An engine taking part in a match.
pub struct Player {
    spec: EngineSpec,
    log: Option<EngineLog>,
    process: Option<EngineProcess>,
    id_name: Option<String>,
}

impl Player {
    /// A player for `spec`; the process starts on first use.
    pub fn new(spec: EngineSpec, log: Option<EngineLog>) -> Player {
        Player {
            spec,
            log,
            process: None,
            id_name: None,
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

    /// Starts the engine if it is not running: handshake, options, `isready`.
    pub fn start(&mut self) -> Result<(), Fault> {
        if self.process.is_some() {
            return Ok(());
        }
        let process =
            EngineProcess::spawn(&self.spec, self.log.clone()).map_err(Fault::StartFailure)?;
        self.process = Some(process);
        let result = self.handshake();
        if result.is_err() {
            self.kill();
        }
        result.map_err(|fault| match fault {
            Fault::StartFailure(_) => fault,
            other => Fault::StartFailure(other.to_string()),
        })
    }

    fn handshake(&mut self) -> Result<(), Fault> {
        let protocol = self.spec.protocol;
        self.send(protocol.name())?;
        let since = Instant::now();
        let deadline = since + HANDSHAKE_TIMEOUT;
        let mut advertised = Vec::new();
        loop {
            match parse_line(&self.read(deadline, protocol_ok(protocol), since)?) {
                EngineLine::HandshakeDone => break,
                EngineLine::IdName(name) => self.id_name = Some(name),
                EngineLine::Option(name) => advertised.push(name),
                _ => {}
            }
        }
        let mut options = self.spec.options.clone();
        let wanted = |name: &str, wanted_protocol: Protocol| {
            protocol == wanted_protocol
                && advertised.iter().any(|a| a == name)
                && !self
                    .spec
                    .options
                    .iter()
                    .any(|(n, _)| n.eq_ignore_ascii_case(name))
        };
        // Fairy-Stockfish plays chess in plain UCI unless told otherwise.
        if wanted("UCI_Variant", Protocol::Uci) {
            options.push(("UCI_Variant".into(), "xiangqi".into()));
        }
        // UCCI engines that know `usemillisec` read `go time` in seconds unless it is set.
        if wanted("usemillisec", Protocol::Ucci) {
            options.push(("usemillisec".into(), "true".into()));
        }
        for (name, value) in &options {
            self.send(&setoption_command(protocol, name, value))?;
        }
        self.sync()
    }

    /// Prepares the engine for a new game (starting it if needed) and waits until it is
    /// ready.
    pub fn new_game(&mut self) -> Result<(), Fault> {
        self.start()?;
        if self.spec.protocol == Protocol::Uci {
            self.send("ucinewgame")?;
        }
        self.sync()
    }

    /// Sends `isready` and waits for `readyok`.
    fn sync(&mut self) -> Result<(), Fault> {
        self.send("isready")?;
        let since = Instant::now();
        let deadline = since + HANDSHAKE_TIMEOUT;
        loop {
            if parse_line(&self.read(deadline, "readyok", since)?) == EngineLine::ReadyOk {
                return Ok(());
            }
        }
    }

    /// Asks for a move in the position reached from `start_fen` by `moves`, and waits for
    /// `bestmove` until `allowed` has passed. A hang or a crash kills the process; the next
    /// call starts a fresh one.
    pub fn think(
        &mut self,
        start_fen: &str,
        moves: &[Move],
        request: GoRequest,
        allowed: Duration,
    ) -> Result<Thought, Fault> {
        self.start()?;
        let result = self.think_running(start_fen, moves, request, allowed);
        if result.is_err() {
            self.kill();
        }
        result
    }

    fn think_running(
        &mut self,
        start_fen: &str,
        moves: &[Move],
        request: GoRequest,
        allowed: Duration,
    ) -> Result<Thought, Fault> {
        self.send(&position_command(start_fen, moves, self.spec.ranks))?;
        self.send(&go_command(self.spec.protocol, request))?;
        let started = Instant::now();
        let deadline = started + allowed;
        let mut score = None;
        let mut depth = None;
        let mut lines = BTreeMap::new();
        loop {
            let line = self.read(deadline, "bestmove", started)?;
            match parse_line(&line) {
                EngineLine::Info(info) => {
                    if let (Some(line_score), Some(first)) = (info.score, &info.first_move) {
                        if let Some(m) = move_from_engine(first, self.spec.ranks) {
                            lines.insert(info.multipv.unwrap_or(1), (line_score, m));
                        }
                    }
                    if info.score.is_some() && info.multipv.unwrap_or(1) == 1 {
                        score = info.score;
                    }
                    if info.depth.is_some() {
                        depth = info.depth;
                    }
                }
                EngineLine::BestMove(text) => {
                    let elapsed = started.elapsed();
                    let best = text
                        .as_deref()
                        .and_then(|t| move_from_engine(t, self.spec.ranks));
                    return Ok(Thought {
                        text,
                        best,
                        score,
                        depth,
                        elapsed,
                        lines: lines.into_values().collect(),
                    });
                }
                _ => {}
            }
        }
    }

    /// Asks the engine to quit and ends its process.
    pub fn quit(&mut self) {
        if let Some(process) = self.process.take() {
            process.shut_down("quit", QUIT_GRACE);
        }
    }

    /// Ends the process at once (after a fault, or to stop a match).
    pub fn kill(&mut self) {
        self.process = None;
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        match self.process.as_mut() {
            Some(process) => process.send(line).map_err(Fault::Crash),
            None => Err(Fault::Crash("the engine is not running".into())),
        }
    }

    /// The next line, waiting until `deadline`; a timeout is a hang that began at `since`.
    fn read(
        &mut self,
        deadline: Instant,
        awaiting: &'static str,
        since: Instant,
    ) -> Result<String, Fault> {
        let Some(process) = self.process.as_mut() else {
            return Err(Fault::Crash("the engine is not running".into()));
        };
        process.read_line(deadline).map_err(|e| match e {
            ReadError::Closed(how) => Fault::Crash(format!("its output closed; {how}")),
            ReadError::Timeout => Fault::Hang {
                awaiting,
                waited: since.elapsed(),
            },
        })
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        self.quit();
    }
}

fn protocol_ok(protocol: Protocol) -> &'static str {
    match protocol {
        Protocol::Uci => "uciok",
        Protocol::Ucci => "ucciok",
    }
}
