//! A data generation run: self-play games on several threads, written to one file in game
//! order, until a number of games or positions is reached.
//!
//! Games are written in the order of their index, each as soon as it and every game before
//! it are finished, so the file holds games 0, 1, 2, … whatever the thread count: the same
//! seed and settings give the same bytes with one thread or many. A run that finds its
//! output file already there checks it, cuts a partial last game (a killed run), and goes on
//! from the next game index, so an interrupted run resumed gives the file an uninterrupted
//! one would have written.

use super::format::{DataError, DataErrorKind, DataReader, HEADER_LEN, write_game, write_header};
use super::selfplay::{SelfPlayError, SelfPlaySettings, play_game};
use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use xiangqi_rules::GameResult;

/// When a run stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Once the file holds at least this many positions (the last game is kept whole).
    Positions(u64),
    /// Once the file holds this many games.
    Games(u64),
}

/// How a run is set up.
#[derive(Clone, Debug)]
pub struct RunSettings {
    /// How each game is played.
    pub selfplay: SelfPlaySettings,
    /// When to stop.
    pub target: Target,
    /// Games played at once, each on its own thread with its own engine.
    pub threads: usize,
    /// How often to report progress.
    pub progress_every: Duration,
}

/// Counts of what the output file holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Positions (one per move).
    pub positions: u64,
    /// Games Red won.
    pub red_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games Black won.
    pub black_wins: u64,
}

impl Tally {
    fn add(&mut self, result: GameResult, plies: usize) {
        self.games += 1;
        self.positions += plies as u64;
        match result {
            GameResult::RedWins => self.red_wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::BlackWins => self.black_wins += 1,
        }
    }

    fn reached(&self, target: Target) -> bool {
        match target {
            Target::Positions(n) => self.positions >= n,
            Target::Games(n) => self.games >= n,
        }
    }
}

/// What a run reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The output file already held games: the run goes on after them.
    Resumed {
        /// What the file held.
        tally: Tally,
        /// Bytes of a partial last game cut off.
        cut_bytes: u64,
    },
    /// Progress so far (also sent once at the end).
    Progress {
        /// What the file holds now.
        tally: Tally,
        /// Positions written by this run.
        new_positions: u64,
        /// Time since this run started.
        elapsed: Duration,
    },
}

/// Why a run failed.
#[derive(Debug)]
pub enum RunError {
    /// The output file could not be created, read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// The error.
        error: io::Error,
    },
    /// The output file exists but is not a data file this run can append to.
    BadOutput {
        /// The file.
        path: PathBuf,
        /// What is wrong in it.
        error: DataError,
    },
    /// Another run is writing to the output file.
    InUse {
        /// The file.
        path: PathBuf,
    },
    /// A self-play game went wrong.
    SelfPlay(SelfPlayError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Io {
                path,
                action,
                error,
            } => write!(f, "cannot {action} {}: {error}", path.display()),
            RunError::BadOutput { path, error } => write!(
                f,
                "{} exists and is not a datagen file that can be continued ({error}); \
                 choose another output file",
                path.display()
            ),
            RunError::InUse { path } => write!(
                f,
                "another datagen run is writing to {}; wait for it to end or choose another \
                 output file",
                path.display()
            ),
            RunError::SelfPlay(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for RunError {}

/// Opens `path` for appending games: creates it with a header when it is missing or empty,
/// otherwise checks every game in it and cuts a partial last one. Returns the file,
/// positioned at its end and locked against other runs until it is dropped, with what it
/// holds and the bytes cut.
pub fn open_output(path: &Path) -> Result<(File, Tally, u64), RunError> {
    let io_error = |action, error| RunError::Io {
        path: path.to_path_buf(),
        action,
        error,
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| io_error("open", e))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(RunError::InUse {
                path: path.to_path_buf(),
            });
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(io_error("lock", e)),
    }
    let len = file.metadata().map_err(|e| io_error("read", e))?.len();
    if len < HEADER_LEN {
        // Empty, or a header cut short by a kill right after creation.
        let mut start = Vec::new();
        file.read_to_end(&mut start)
            .map_err(|e| io_error("read", e))?;
        let mut header = Vec::new();
        write_header(&mut header).map_err(|e| io_error("write", e))?;
        if !header.starts_with(&start) {
            return Err(RunError::BadOutput {
                path: path.to_path_buf(),
                error: DataError {
                    offset: 0,
                    game: None,
                    kind: DataErrorKind::TruncatedHeader { len },
                },
            });
        }
        file.set_len(0).map_err(|e| io_error("write", e))?;
        file.seek(SeekFrom::Start(0))
            .map_err(|e| io_error("write", e))?;
        file.write_all(&header).map_err(|e| io_error("write", e))?;
        return Ok((file, Tally::default(), 0));
    }
    let bad = |error| RunError::BadOutput {
        path: path.to_path_buf(),
        error,
    };
    let mut reader = DataReader::new(BufReader::with_capacity(
        1 << 16,
        file.try_clone().map_err(|e| io_error("read", e))?,
    ))
    .map_err(bad)?;
    let mut tally = Tally::default();
    for game in reader.by_ref() {
        match game {
            Ok(game) => tally.add(game.result, game.plies.len()),
            Err(DataError {
                kind: DataErrorKind::TruncatedGame { .. },
                ..
            }) => break,
            Err(error) => return Err(bad(error)),
        }
    }
    let end = reader.offset();
    file.set_len(end).map_err(|e| io_error("cut", e))?;
    file.seek(SeekFrom::Start(end))
        .map_err(|e| io_error("write", e))?;
    Ok((file, tally, len - end))
}

/// Runs data generation into `path` until `settings.target`, calling `events` with what
/// happens. Returns what the file holds at the end.
pub fn run(
    path: &Path,
    settings: &RunSettings,
    events: &mut dyn FnMut(Event),
) -> Result<Tally, RunError> {
    let (mut file, mut tally, cut_bytes) = open_output(path)?;
    if tally.games > 0 || cut_bytes > 0 {
        events(Event::Resumed { tally, cut_bytes });
    }
    let started = Instant::now();
    let first_positions = tally.positions;
    let progress = |tally: Tally| Event::Progress {
        tally,
        new_positions: tally.positions - first_positions,
        elapsed: started.elapsed(),
    };
    if tally.reached(settings.target) {
        events(progress(tally));
        return Ok(tally);
    }
    let index_limit = match settings.target {
        Target::Games(n) => n,
        Target::Positions(_) => u64::MAX,
    };
    let next_index = AtomicU64::new(tally.games);
    let stop = AtomicBool::new(false);
    let outcome = std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        for _ in 0..settings.threads.max(1) {
            let sender = sender.clone();
            let (next_index, stop) = (&next_index, &stop);
            scope.spawn(move || {
                let engine = settings.selfplay.engine();
                while !stop.load(Ordering::Relaxed) {
                    let index = next_index.fetch_add(1, Ordering::Relaxed);
                    if index >= index_limit {
                        break;
                    }
                    match play_game(&engine, &settings.selfplay, index, stop) {
                        Ok(Some(game)) => {
                            if sender.send((index, Ok(game))).is_err() {
                                break;
                            }
                        }
                        Ok(None) => break,
                        Err(error) => {
                            let _ = sender.send((index, Err(error)));
                            break;
                        }
                    }
                }
            });
        }
        drop(sender);
        let mut pending = BTreeMap::new();
        let mut last_report = Instant::now();
        let result = loop {
            let received = receiver.recv_timeout(settings.progress_every);
            match received {
                Ok((_, Err(error))) => break Err(RunError::SelfPlay(error)),
                Ok((index, Ok(game))) => {
                    pending.insert(index, game);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(()),
            }
            let mut written = Ok(());
            while !tally.reached(settings.target)
                && let Some(game) = pending.remove(&tally.games)
            {
                written = write_game(&mut file, &game);
                if written.is_err() {
                    break;
                }
                tally.add(game.result, game.plies.len());
            }
            if let Err(error) = written {
                break Err(RunError::Io {
                    path: path.to_path_buf(),
                    action: "write",
                    error,
                });
            }
            if tally.reached(settings.target) {
                break Ok(());
            }
            if last_report.elapsed() >= settings.progress_every {
                events(progress(tally));
                last_report = Instant::now();
            }
        };
        stop.store(true, Ordering::Relaxed);
        result
    });
    outcome?;
    file.sync_data().map_err(|error| RunError::Io {
        path: path.to_path_buf(),
        action: "write",
        error,
    })?;
    events(progress(tally));
    Ok(tally)
}
