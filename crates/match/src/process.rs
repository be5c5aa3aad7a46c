//! A running engine process: its standard input, its output read line by line on a helper
//! thread so that every wait has a deadline, and an optional shared log of all traffic.

use crate::engine_spec::EngineSpec;
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

/// Why reading from an engine stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The engine closed its output (it exited or crashed); the text says how it ended.
    Closed(String),
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
    pub fn spawn(spec: &EngineSpec, log: Option<EngineLog>) -> Result<EngineProcess, String> {
        let (program, args) = spec
            .command
            .split_first()
            .ok_or_else(|| format!("engine {} has an empty command", spec.name))?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", spec.command.join(" ")))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| format!("engine {} has no standard output", spec.name))?;
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

    /// Writes one line to the engine. A failure means the engine has gone; the error says how.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        if let Some(log) = &self.log {
            log.write(&self.name, '>', line);
        }
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()),
            None => Err(std::io::Error::other("input already closed")),
        };
        written.map_err(|e| format!("cannot write to the engine ({e}); {}", self.exit_text()))
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
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed(self.exit_text())),
        }
    }

    /// How the process ended, in words, waiting briefly for it to finish ("exited with status
    /// 1", "killed by signal 9"), or "still running".
    pub fn exit_text(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return describe_exit(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                Ok(None) => return "it is still running".to_string(),
                Err(e) => return format!("its state is unknown ({e})"),
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
fn describe_exit(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("it exited with status {code}"),
        (None, Some(signal)) => format!("it was killed by signal {signal}"),
        (None, None) => format!("it ended ({status})"),
    }
}

#[cfg(not(unix))]
fn describe_exit(status: std::process::ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("it exited with status {code}"),
        None => format!("it ended ({status})"),
    }
}
