//! Reads `xiangqi datagen` files and turns their games into training positions.
//!
//! Each game is replayed from its start. A position is dropped when its label is unreliable:
//! in the opening (the first K plies, if asked), in check, where the recorded move captures,
//! with a mate score, or inside a repeated cycle (a position whose hash occurs again in the
//! game, and every position between the two occurrences: perpetual-check and -chase rules make
//! those scores and results unreliable). If asked, it is also dropped late in a drawn game's
//! long run without a capture, where both sides only shuffle pieces towards the draw. Each
//! kept position stores both perspectives' active features from [`xiangqi_engine::nnue`], so
//! training and inference build inputs alike.
//! Whole games are held out for validation. Optionally each training position is added a
//! second time mirrored left to right (the rules and the board are symmetric).

use crate::dataset::{FeatureError, Split, TrainingPosition, Wdl, is_validation_game};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use xiangqi_engine::datagen::format::is_stored_mate;
use xiangqi_engine::datagen::{DataError, DataErrorKind, DataReader, GameRecord};
use xiangqi_engine::nnue::{active_features, features_of};
use xiangqi_rules::{Color, Position, Square};

/// Scores at or beyond this magnitude are mate scores.
pub const MATE_THRESHOLD: i16 = 20_000;

/// Which positions of a game to drop beyond those whose label is unreliable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filters {
    /// Drop the first this many plies of every game.
    pub skip_plies: usize,
    /// In a drawn game, drop the positions more than this many plies after the last capture
    /// (`None`: keep them).
    pub drawn_ending_plies: Option<u32>,
}

/// Which positions to keep and how to split them.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadSettings {
    /// Which positions of a game to drop.
    pub filters: Filters,
    /// Add every training position a second time mirrored left to right.
    pub mirror: bool,
    /// About this fraction of games goes to the validation set.
    pub validation_fraction: f64,
    /// Seed of the validation split.
    pub seed: u64,
    /// Palace buckets of the network the features are for (1, or
    /// [`xiangqi_engine::nnue::PALACE_BUCKETS`]).
    pub palace: usize,
}

impl Default for LoadSettings {
    fn default() -> LoadSettings {
        LoadSettings {
            filters: Filters::default(),
            mirror: false,
            validation_fraction: 0.0,
            seed: 0,
            palace: 1,
        }
    }
}

/// Why a position is not trained on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// Among the first plies the settings drop.
    Opening,
    /// The side to move is in check.
    InCheck,
    /// The recorded move captures.
    Capture,
    /// The score is a mate score.
    MateScore,
    /// The position lies inside a repeated cycle.
    Repetition,
    /// Late in a drawn game's run without a capture.
    DrawnEnding,
}

/// How many games and positions were read, kept and dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadCounts {
    /// Complete games read.
    pub games: u64,
    /// Positions (plies) in those games.
    pub positions: u64,
    /// Positions kept (before mirroring).
    pub kept: u64,
    /// Dropped as opening plies.
    pub opening: u64,
    /// Dropped in check.
    pub in_check: u64,
    /// Dropped because the move captures.
    pub capture: u64,
    /// Dropped for a mate score.
    pub mate_score: u64,
    /// Dropped inside a repeated cycle.
    pub repetition: u64,
    /// Dropped late in a drawn game's run without a capture.
    pub drawn_ending: u64,
    /// Truncated games at file ends, skipped.
    pub truncated_games: u64,
    /// Kept positions held out for validation.
    pub validation: u64,
    /// Mirrored copies added to the training set.
    pub mirrored: u64,
}

impl LoadCounts {
    fn count(&mut self, verdict: Option<SkipReason>) {
        let slot = match verdict {
            None => &mut self.kept,
            Some(SkipReason::Opening) => &mut self.opening,
            Some(SkipReason::InCheck) => &mut self.in_check,
            Some(SkipReason::Capture) => &mut self.capture,
            Some(SkipReason::MateScore) => &mut self.mate_score,
            Some(SkipReason::Repetition) => &mut self.repetition,
            Some(SkipReason::DrawnEnding) => &mut self.drawn_ending,
        };
        *slot += 1;
    }
}

impl fmt::Display for LoadCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "games {}  positions {}", self.games, self.positions)?;
        writeln!(
            f,
            "kept {} ({} for validation)  skipped: opening {}  in check {}  capture {}  \
             mate score {}  repetition {}  drawn ending {}",
            self.kept,
            self.validation,
            self.opening,
            self.in_check,
            self.capture,
            self.mate_score,
            self.repetition,
            self.drawn_ending
        )?;
        write!(
            f,
            "mirrored copies {}  truncated games skipped {}",
            self.mirrored, self.truncated_games
        )
    }
}

/// Why data could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// A data file could not be opened or read, or is not valid.
    Data(PathBuf, DataError),
    /// A position's features could not be stored.
    Features {
        /// The file.
        path: PathBuf,
        /// The game (1-based) in that file.
        game: u64,
        /// What is wrong.
        error: FeatureError,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Data(path, e) => write!(f, "{}: {e}", path.display()),
            LoadError::Features { path, game, error } => {
                write!(f, "{}: game {game}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// For each ply of `game`, why its position is dropped (`None`: kept).
pub fn classify(game: &GameRecord, filters: &Filters) -> Vec<Option<SkipReason>> {
    let cycles = repetition_cycles(game);
    let drawn = game.result.winner().is_none();
    game.positions()
        .enumerate()
        .map(|(ply, (position, mv, score))| {
            if ply < filters.skip_plies {
                Some(SkipReason::Opening)
            } else if position.in_check() {
                Some(SkipReason::InCheck)
            } else if position.piece_at(mv.to()).is_some() {
                Some(SkipReason::Capture)
            } else if score.abs() >= MATE_THRESHOLD || is_stored_mate(score) {
                Some(SkipReason::MateScore)
            } else if cycles[ply] {
                Some(SkipReason::Repetition)
            } else if drawn
                && filters
                    .drawn_ending_plies
                    .is_some_and(|limit| position.halfmove_clock() > limit)
            {
                Some(SkipReason::DrawnEnding)
            } else {
                None
            }
        })
        .collect()
}

/// For each position of the game (the start, then after each move), whether it lies between
/// two occurrences of one position, both included.
fn repetition_cycles(game: &GameRecord) -> Vec<bool> {
    let mut position = game.start.clone();
    let mut hashes = Vec::with_capacity(game.plies.len() + 1);
    hashes.push(position.hash());
    for &(mv, _) in &game.plies {
        position.make_move(mv);
        hashes.push(position.hash());
    }
    // +1 where a cycle starts, −1 just after it ends; the running sum marks the cycles.
    let mut delta = vec![0i32; hashes.len() + 1];
    let mut last_seen: HashMap<u64, usize> = HashMap::new();
    for (i, &h) in hashes.iter().enumerate() {
        if let Some(previous) = last_seen.insert(h, i) {
            delta[previous] += 1;
            delta[i + 1] -= 1;
        }
    }
    let mut depth = 0;
    hashes
        .iter()
        .enumerate()
        .map(|(i, _)| {
            depth += delta[i];
            depth > 0
        })
        .collect()
}

/// The point mirrored left to right (file `a` ↔ `i`).
fn mirrored(square: Square) -> Square {
    Square::new(8 - square.file(), square.rank()).expect("a mirrored point is on the board")
}

/// The active features of `position` from `perspective` in a network of `palace` palace
/// buckets, the board mirrored left to right.
fn mirrored_features(position: &Position, perspective: Color, palace: usize, out: &mut Vec<usize>) {
    let pieces = position.occupied().filter_map(|square| {
        position
            .piece_at(square)
            .map(|piece| (piece, mirrored(square)))
    });
    let general = mirrored(position.general(perspective));
    features_of(pieces, perspective, general, palace, out);
}

fn outcome_for(game: &GameRecord, side: Color) -> Wdl {
    match game.result.winner() {
        None => Wdl::Draw,
        Some(winner) if winner == side => Wdl::Win,
        Some(_) => Wdl::Loss,
    }
}

/// The positions of one game that `filters` keep, appended to `out` (and their mirror images
/// to `mirror_out` when given), with the features of a network of `palace` palace buckets.
pub fn game_positions(
    game: &GameRecord,
    filters: &Filters,
    palace: usize,
    counts: &mut LoadCounts,
    out: &mut Vec<TrainingPosition>,
    mut mirror_out: Option<&mut Vec<TrainingPosition>>,
) -> Result<(), FeatureError> {
    let verdicts = classify(game, filters);
    let (mut stm, mut other) = (Vec::with_capacity(32), Vec::with_capacity(32));
    for ((position, _, score), verdict) in game.positions().zip(verdicts) {
        counts.positions += 1;
        counts.count(verdict);
        if verdict.is_some() {
            continue;
        }
        let side = position.side_to_move();
        let outcome = outcome_for(game, side);
        stm.clear();
        other.clear();
        active_features(&position, side, palace, &mut stm);
        active_features(&position, side.opponent(), palace, &mut other);
        out.push(TrainingPosition::new(&stm, &other, score, outcome)?);
        if let Some(mirror) = mirror_out.as_deref_mut() {
            stm.clear();
            other.clear();
            mirrored_features(&position, side, palace, &mut stm);
            mirrored_features(&position, side.opponent(), palace, &mut other);
            mirror.push(TrainingPosition::new(&stm, &other, score, outcome)?);
            counts.mirrored += 1;
        }
    }
    Ok(())
}

/// Loads every file in `paths` into a training and a validation set. A truncated last game
/// is skipped and reported through `warn`; any other fault is an error naming the file.
pub fn load_files(
    paths: &[PathBuf],
    settings: &LoadSettings,
    mut warn: impl FnMut(&str),
) -> Result<(Split, LoadCounts), LoadError> {
    let mut split = Split::default();
    let mut counts = LoadCounts::default();
    for path in paths {
        load_file(path, settings, &mut split, &mut counts, &mut warn)?;
    }
    Ok((split, counts))
}

fn load_file(
    path: &Path,
    settings: &LoadSettings,
    split: &mut Split,
    counts: &mut LoadCounts,
    warn: &mut impl FnMut(&str),
) -> Result<(), LoadError> {
    let data_error = |e| LoadError::Data(path.to_path_buf(), e);
    let reader = DataReader::open(path).map_err(data_error)?;
    for (game_in_file, record) in (1u64..).zip(reader) {
        let game = match record {
            Ok(game) => game,
            Err(e) if matches!(e.kind, DataErrorKind::TruncatedGame { .. }) => {
                warn(&format!("{}: {e}; skipped", path.display()));
                counts.truncated_games += 1;
                break;
            }
            Err(e) => return Err(data_error(e)),
        };
        let held_out =
            is_validation_game(settings.seed, counts.games, settings.validation_fraction);
        counts.games += 1;
        let kept_before = counts.kept;
        let features_error = |error| LoadError::Features {
            path: path.to_path_buf(),
            game: game_in_file,
            error,
        };
        if held_out {
            game_positions(
                &game,
                &settings.filters,
                settings.palace,
                counts,
                &mut split.validation,
                None,
            )
            .map_err(features_error)?;
            counts.validation += counts.kept - kept_before;
        } else {
            let mut mirror = Vec::new();
            game_positions(
                &game,
                &settings.filters,
                settings.palace,
                counts,
                &mut split.train,
                settings.mirror.then_some(&mut mirror),
            )
            .map_err(features_error)?;
            split.train.append(&mut mirror);
        }
    }
    Ok(())
}
