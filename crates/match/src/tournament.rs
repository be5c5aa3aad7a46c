//! A match between two engines: every opening played twice with colours swapped, several
//! games at once on worker threads (each with its own engine processes), results counted as
//! they come, every game appended to the PGN file, and an optional SPRT that stops the match
//! at a decision.

use crate::engine_spec::EngineSpec;
use crate::game::{GameRecord, GameSettings, play_game};
use crate::openings::Opening;
use crate::outcome::{Termination, points_for};
use crate::pgn::{PgnHeader, format_game};
use crate::player::{Fault, Player};
use crate::process::EngineLog;
use crate::sprt::{Sprt, SprtDecision};
use crate::stats::Tally;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use xiangqi_records::date::pgn_today;
use xiangqi_rules::{Color, EndReason};

/// Everything a match needs.
#[derive(Clone)]
pub struct MatchConfig {
    /// The two engines; results are counted from the first one's point of view.
    pub engines: [EngineSpec; 2],
    /// Limits and rules for every game.
    pub settings: GameSettings,
    /// Openings in the order they are used; each is played twice, colours swapped.
    pub openings: Vec<Opening>,
    /// Games to play (an odd number leaves the last opening's second game out).
    pub games: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop at an SPRT decision.
    pub sprt: Option<Sprt>,
    /// Where to write the PGN of every game.
    pub pgn: Option<PathBuf>,
    /// The PGN `Event` tag.
    pub event: String,
    /// A log of all engine traffic.
    pub log: Option<EngineLog>,
}

/// One finished game, as reported while the match runs.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// 1-based game number in the schedule.
    pub number: usize,
    /// 0-based index of the opening pair.
    pub pair: usize,
    /// Whether the first engine had Red.
    pub first_is_red: bool,
    /// The game.
    pub record: GameRecord,
}

/// The state of a match: counts, SPRT, and why games ended.
#[derive(Clone, Debug, Default)]
pub struct Standing {
    /// The two engines' names.
    pub names: [String; 2],
    /// Games planned.
    pub planned: usize,
    /// Results from the first engine's point of view.
    pub tally: Tally,
    /// Games won by Red, drawn, won by Black.
    pub by_colour: [u32; 3],
    /// Plies played in all games.
    pub plies: u64,
    /// How games ended: reason (with the engine at fault) → count.
    pub terminations: BTreeMap<String, u32>,
    /// The SPRT, if one runs.
    pub sprt: Option<Sprt>,
    /// The current log-likelihood ratio.
    pub llr: Option<f64>,
    /// The SPRT decision, once reached.
    pub decision: Option<SprtDecision>,
}

impl Standing {
    /// Counts one finished game.
    fn record(&mut self, game: &FinishedGame, first_half: &mut HashMap<usize, f64>) {
        let result = game.record.outcome.result;
        let first_colour = if game.first_is_red {
            Color::Red
        } else {
            Color::Black
        };
        let points = points_for(result, first_colour);
        self.tally.add_game(points);
        self.by_colour[match result.winner() {
            Some(Color::Red) => 0,
            None => 1,
            Some(Color::Black) => 2,
        }] += 1;
        self.plies += game.record.moves.len() as u64;
        let key = termination_key(
            &game.record.outcome.termination,
            &game.record.red,
            &game.record.black,
        );
        *self.terminations.entry(key).or_insert(0) += 1;
        if let Some(other) = first_half.remove(&game.pair) {
            self.tally.add_pair(points + other);
        } else {
            first_half.insert(game.pair, points);
        }
        if let Some(sprt) = self.sprt {
            let llr = sprt.llr(&self.tally.pentanomial);
            self.llr = Some(llr);
            if self.decision.is_none() {
                self.decision = sprt.decision(llr);
            }
        }
    }
}

/// A short key for how a game ended, naming the engine at fault.
pub fn termination_key(termination: &Termination, red: &str, black: &str) -> String {
    let name = |side: &Color| match side {
        Color::Red => red,
        Color::Black => black,
    };
    match termination {
        Termination::Rules(EndReason::Verdict(verdict)) => match verdict.side {
            Some(side) => format!("{} by {}", verdict.kind.code(), name(&side)),
            None => verdict.kind.code().into(),
        },
        Termination::Rules(reason) => reason.code().into(),
        Termination::MaxPlies { .. } => "game length limit".into(),
        Termination::Adjudication { .. } => "score adjudication".into(),
        Termination::IllegalMove { side, .. } => format!("illegal move by {}", name(side)),
        Termination::NoMove { side } => format!("no move from {}", name(side)),
        Termination::Fault { side, fault } => {
            let what = match fault {
                Fault::Spawn(_) | Fault::StartUp(_) => "start failure",
                Fault::Crash(_) => "crash",
                Fault::Hang { .. } => "hang",
            };
            format!("{what} of {}", name(side))
        }
        Termination::TimeForfeit { side, .. } => format!("time loss by {}", name(side)),
    }
}

/// Why a match could not be played to its end.
#[derive(Debug)]
pub enum MatchError {
    /// There is no opening position to play.
    NoOpenings,
    /// The PGN file could not be created.
    PgnCreate {
        /// The file.
        path: PathBuf,
        /// The system's error.
        error: std::io::Error,
    },
    /// A game could not be written to the PGN file; the match stopped.
    PgnWrite {
        /// The file.
        path: PathBuf,
        /// The system's error.
        error: std::io::Error,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::NoOpenings => f.write_str("no opening positions to play"),
            MatchError::PgnCreate { path, error } => {
                write!(f, "cannot create the PGN file {}: {error}", path.display())
            }
            MatchError::PgnWrite { path, error } => {
                write!(f, "cannot write the PGN file {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for MatchError {}

/// One scheduled game.
#[derive(Clone, Copy, Debug)]
struct Job {
    number: usize,
    pair: usize,
    first_is_red: bool,
}

/// Plays the match, calling `on_game` after each game with the updated standing. Fails only
/// when the PGN file cannot be written or there is nothing to play.
pub fn run_match(
    config: &MatchConfig,
    on_game: &mut dyn FnMut(&FinishedGame, &Standing),
) -> Result<Standing, MatchError> {
    if config.openings.is_empty() {
        return Err(MatchError::NoOpenings);
    }
    let mut pgn = match &config.pgn {
        Some(path) => Some((
            path,
            File::create(path).map_err(|error| MatchError::PgnCreate {
                path: path.clone(),
                error,
            })?,
        )),
        None => None,
    };
    let jobs: VecDeque<Job> = (0..config.games)
        .map(|i| Job {
            number: i + 1,
            pair: i / 2,
            first_is_red: i % 2 == 0,
        })
        .collect();
    let jobs = Arc::new(Mutex::new(jobs));
    let stop = Arc::new(AtomicBool::new(false));
    let (sender, results) = channel::<FinishedGame>();
    let mut standing = Standing {
        names: config.engines.clone().map(|e| e.name),
        planned: config.games,
        sprt: config.sprt,
        ..Standing::default()
    };
    let date = pgn_today();
    let mut first_half = HashMap::new();
    let mut write_error = None;

    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1).min(config.games.max(1)) {
            let jobs = Arc::clone(&jobs);
            let stop = Arc::clone(&stop);
            let sender = sender.clone();
            scope.spawn(move || {
                let mut players = config
                    .engines
                    .clone()
                    .map(|spec| Player::new(spec, config.log.clone()));
                while !stop.load(Ordering::Relaxed) {
                    let Some(job) = jobs.lock().ok().and_then(|mut q| q.pop_front()) else {
                        break;
                    };
                    let opening = &config.openings[job.pair % config.openings.len()];
                    let [first, second] = &mut players;
                    let (red, black) = if job.first_is_red {
                        (first, second)
                    } else {
                        (second, first)
                    };
                    let record = play_game(red, black, opening, &config.settings);
                    let finished = FinishedGame {
                        number: job.number,
                        pair: job.pair,
                        first_is_red: job.first_is_red,
                        record,
                    };
                    if sender.send(finished).is_err() {
                        break;
                    }
                }
                for player in &mut players {
                    player.quit();
                }
            });
        }
        drop(sender);
        for finished in results {
            standing.record(&finished, &mut first_half);
            if let Some((path, file)) = pgn.as_mut() {
                let header = PgnHeader {
                    event: config.event.clone(),
                    site: "xiangqi match".into(),
                    date: date.clone(),
                    round: format!(
                        "{}.{}",
                        finished.pair + 1,
                        2 - usize::from(finished.first_is_red)
                    ),
                    time_control: config.settings.limits.pgn_tag(),
                };
                if let Err(error) = file
                    .write_all(format_game(&header, &finished.record).as_bytes())
                    .and_then(|()| file.flush())
                {
                    write_error.get_or_insert(MatchError::PgnWrite {
                        path: path.to_path_buf(),
                        error,
                    });
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if standing.decision.is_some() {
                stop.store(true, Ordering::Relaxed);
            }
            on_game(&finished, &standing);
        }
    });
    match write_error {
        Some(e) => Err(e),
        None => Ok(standing),
    }
}
