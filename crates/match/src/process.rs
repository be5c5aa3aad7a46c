//! A running engine process: its standard input, its output read line by line on a helper
//! thread so that every wait has a deadline, and an optional shared log of all traffic.

use crate::engine_spec::EngineSpec;
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A log file shared by every engine of a match: one line per message, `name > line` for what
/// we sent and `name < line` for what the engine wrote.
#[derive(Clone)]
pub struct EngineLog {
    file: Arc<Mutex<File>>,
    start: Instant,
}

impl EngineLog {
    /// A log written to `path` (created or truncated).
    pub fn create(path: &Path) -> std::io::Result<EngineLog> {
        Ok(EngineLog {
            file: Arc::new(Mutex::new(File::create(path)?)),
            start: Instant::now(),
        })
    }

    fn write(&self, name: &str, arrow: char, line: &str) {
        if let Ok(mut file) = self.file.lock() {
            let at = self.start.elapsed().as_secs_f64();
            let _ = writeln!(file, "{at:10.3} {name} {arrow} {line}");
        }
    }
}

/// How an engine process ended, as far as we can tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcessEnd {
    /// It exited with this status.
    Exited(i32),
    /// A signal killed it.
    Killed(i32),
    /// It ended some other way; the text is the system's description.
    Other(String),
    /// It closed its pipes but is still running.
    StillRunning,
    /// Its state could not be read; the text says why.
    Unknown(String),
    /// There is no process (it was never started or has been ended).
    NotRunning,
}

impl fmt::Display for ProcessEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProcessEnd::Exited(code) => write!(f, "it exited with status {code}"),
            ProcessEnd::Killed(signal) => write!(f, "it was killed by signal {signal}"),
            ProcessEnd::Other(how) => write!(f, "it ended ({how})"),
            ProcessEnd::StillRunning => f.write_str("its output closed but it is still running"),
            ProcessEnd::Unknown(why) => write!(f, "its state is unknown ({why})"),
            ProcessEnd::NotRunning => f.write_str("the engine is not running"),
        }
    }
}

/// Why an engine process could not be started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpawnError {
    /// The description has no program to run.
    EmptyCommand {
        /// The engine's name.
        engine: String,
    },
    /// The system refused to start the program.
    Start {
        /// The command line.
        command: String,
        /// The system's kind of error.
        kind: std::io::ErrorKind,
        /// The system's message.
        message: String,
    },
    /// The process has no standard output to read.
    NoOutput {
        /// The engine's name.
        engine: String,
    },
}

impl fmt::Display for SpawnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpawnError::EmptyCommand { engine } => {
                write!(f, "engine {engine} has an empty command")
            }
            SpawnError::Start {
                command, message, ..
            } => write!(f, "cannot start '{command}': {message}"),
            SpawnError::NoOutput { engine } => {
                write!(f, "engine {engine} has no standard output")
            }
        }
    }
}

impl std::error::Error for SpawnError {}

/// Why reading from an engine stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The engine closed its output (it exited or crashed).
    Closed(ProcessEnd),
    /// Nothing came before the deadline.
    Timeout,
}

/// A started engine process.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    log: Option<EngineLog>,
}

impl EngineProcess {
    /// Starts the engine described by `spec`; its standard error is discarded.
    pub fn spawn(spec: &EngineSpec, log: Option<EngineLog>) -> Result<EngineProcess, SpawnError> {
        let (program, args) =
            spec.command
                .split_first()
                .ok_or_else(|| SpawnError::EmptyCommand {
                    engine: spec.name.clone(),
                })?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(|e| SpawnError::Start {
            command: spec.command.join(" "),
            kind: e.kind(),
            message: e.to_string(),
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or_else(|| SpawnError::NoOutput {
            engine: spec.name.clone(),
        })?;
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            name: spec.name.clone(),
            child,
            stdin,
            lines,
            log,
        })
    }

    /// Writes one line to the engine. A failure means the engine has gone; the error says how
    /// it ended.
    pub fn send(&mut self, line: &str) -> Result<(), ProcessEnd> {
        if let Some(log) = &self.log {
            log.write(&self.name, '>', line);
        }
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()),
            None => Err(std::io::Error::other("input already closed")),
        };
        written.map_err(|_| self.end())
    }

    /// The next line the engine writes, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                if let Some(log) = &self.log {
                    log.write(&self.name, '<', &line);
                }
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed(self.end())),
        }
    }

    /// How the process ended, waiting briefly for it to finish.
    pub fn end(&mut self) -> ProcessEnd {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return process_end(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                Ok(None) => return ProcessEnd::StillRunning,
                Err(e) => return ProcessEnd::Unknown(e.to_string()),
            }
        }
    }

    /// Asks the engine to quit with `quit_line`, waits up to `grace` for it to exit, then kills
    /// it.
    pub fn shut_down(mut self, quit_line: &str, grace: Duration) {
        let _ = self.send(quit_line);
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Drop kills it.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(unix)]
fn process_end(status: std::process::ExitStatus) -> ProcessEnd {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => ProcessEnd::Exited(code),
        (None, Some(signal)) => ProcessEnd::Killed(signal),
        (None, None) => ProcessEnd::Other(status.to_string()),
    }
}

#[cfg(not(unix))]
fn process_end(status: std::process::ExitStatus) -> ProcessEnd {
    match status.code() {
        Some(code) => ProcessEnd::Exited(code),
        None => ProcessEnd::Other(status.to_string()),
    }
}
