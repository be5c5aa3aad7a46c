//! One self-play game: a varied, balanced start (a few random legal plies from the start
//! position, kept only when a search scores it near level), then the engine plays both sides
//! at a node budget until the rules or the adjudicator end the game.
//!
//! A game depends only on the settings, the seed and the game's index: the engine's table
//! and histories are cleared first, it searches with one thread and a node limit, and the
//! random plies come from a generator seeded by (seed, index).

use super::adjudication::{AdjudicationRules, Adjudicator};
use super::format::{GameRecord, stored_score};
use crate::engine::{Engine, EngineOptions, Evaluation, SearchRequest};
use crate::limits::SearchLimits;
use crate::random::SplitMix64;
use crate::score::Reported;
use crate::search::SearchResult;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use xiangqi_rules::{Game, GameRules, Move, Position};

/// Tries at finding a start within the window before the last one tried is kept anyway.
const START_TRIES: usize = 1000;

/// How self-play games are played.
#[derive(Clone, Debug)]
pub struct SelfPlaySettings {
    /// Seed of the whole run; game `i` uses (seed, i).
    pub seed: u64,
    /// Node limit of each search.
    pub nodes: u64,
    /// Fewest random plies played from the start position.
    pub random_plies_min: u32,
    /// Most random plies played from the start position.
    pub random_plies_max: u32,
    /// A start is kept only when its search score lies within ± this many centipawns.
    pub start_window: i32,
    /// Transposition table size of each engine, in MB.
    pub hash_mb: usize,
    /// When games are adjudicated.
    pub adjudication: AdjudicationRules,
    /// The evaluation both sides play with.
    pub evaluation: Evaluation,
}

impl Default for SelfPlaySettings {
    fn default() -> Self {
        SelfPlaySettings {
            seed: 1,
            nodes: 5000,
            random_plies_min: 4,
            random_plies_max: 8,
            start_window: 150,
            hash_mb: 4,
            adjudication: AdjudicationRules::default(),
            evaluation: Evaluation::Default,
        }
    }
}

impl SelfPlaySettings {
    /// An engine set up for self-play: one search thread, full strength, a small table.
    pub fn engine(&self) -> Engine {
        self.evaluation.engine(EngineOptions {
            hash_mb: self.hash_mb,
            threads: 1,
            ..EngineOptions::default()
        })
    }

    /// The random generator of game `index`.
    fn game_random(&self, index: u64) -> SplitMix64 {
        let mut random =
            SplitMix64::new(self.seed ^ index.wrapping_add(1).wrapping_mul(0xd1b5_4a32_d192_ed03));
        random.next_u64();
        random
    }
}

/// The engine played a move the rules refuse: a bug, reported with where it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayError {
    /// Index of the game.
    pub game: u64,
    /// The position.
    pub fen: String,
    /// The move.
    pub mv: Option<Move>,
}

impl fmt::Display for SelfPlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mv {
            Some(mv) => write!(
                f,
                "self-play game {}: the engine chose the illegal move {mv} in {}",
                self.game, self.fen
            ),
            None => write!(
                f,
                "self-play game {}: the engine found no move in {}, which is not over",
                self.game, self.fen
            ),
        }
    }
}

impl std::error::Error for SelfPlayError {}

/// The score to store for a search result (side to move's view).
fn result_score(result: &SearchResult) -> i16 {
    match result.score {
        Reported::Cp(cp) => stored_score(cp),
        Reported::Mate(moves) if moves > 0 => stored_score(crate::score::MATE),
        Reported::Mate(_) => stored_score(-crate::score::MATE),
    }
}

/// Searches the game's current position at the node budget.
fn search(engine: &Engine, game: &Game, nodes: u64) -> SearchResult {
    let mut history = game.hashes_since_capture();
    history.pop();
    let request = SearchRequest {
        history,
        history_moves: game.moves_since_capture().to_vec(),
        ..SearchRequest::new(
            game.position().clone(),
            SearchLimits {
                nodes: Some(nodes),
                ..SearchLimits::default()
            },
        )
    };
    engine.think(&request, &mut |_| {})
}

/// A start for game `index` and the search of it: random legal plies from the start
/// position, retried until the search score lies within the window.
fn balanced_start(
    engine: &Engine,
    settings: &SelfPlaySettings,
    random: &mut SplitMix64,
) -> (Game, SearchResult) {
    let span = settings
        .random_plies_max
        .saturating_sub(settings.random_plies_min) as usize
        + 1;
    let mut tries = 0;
    loop {
        tries += 1;
        let plies = settings.random_plies_min as usize + random.below(span);
        let mut position = Position::startpos();
        for _ in 0..plies {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            position.make_move(moves.as_slice()[random.below(moves.len())]);
        }
        let game = Game::with_rules(position, GameRules::default());
        if game.is_over() {
            continue;
        }
        engine.new_game();
        let result = search(engine, &game, settings.nodes);
        let score = match result.score {
            Reported::Cp(cp) => cp,
            Reported::Mate(_) => i32::MAX,
        };
        if score.abs() <= settings.start_window || tries >= START_TRIES {
            return (game, result);
        }
    }
}

/// Plays game `index` with `engine` (which it resets first). Returns `Ok(None)` when `stop`
/// was raised before the game finished.
pub fn play_game(
    engine: &Engine,
    settings: &SelfPlaySettings,
    index: u64,
    stop: &AtomicBool,
) -> Result<Option<GameRecord>, SelfPlayError> {
    let mut random = settings.game_random(index);
    let (mut game, mut result) = balanced_start(engine, settings, &mut random);
    let start = game.position().clone();
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    let mut plies = Vec::new();
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let error = |game: &Game, mv| SelfPlayError {
            game: index,
            fen: game.position().to_fen(),
            mv,
        };
        let Some(mv) = result.best_move else {
            return Err(error(&game, None));
        };
        let mover = game.position().side_to_move();
        let score = result_score(&result);
        game.play(mv).map_err(|_| error(&game, Some(mv)))?;
        plies.push((mv, score));
        let verdict = match game.outcome() {
            Some(outcome) => Some(outcome.result),
            None => adjudicator.record(mover, score),
        };
        if let Some(result) = verdict {
            return Ok(Some(GameRecord {
                start,
                result,
                plies,
            }));
        }
        result = search(engine, &game, settings.nodes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick_settings(seed: u64) -> SelfPlaySettings {
        SelfPlaySettings {
            seed,
            nodes: 300,
            adjudication: AdjudicationRules {
                max_plies: 60,
                ..AdjudicationRules::default()
            },
            ..SelfPlaySettings::default()
        }
    }

    #[test]
    fn a_game_is_legal_and_ends_by_a_rule_or_the_adjudicator() {
        let settings = quick_settings(3);
        let engine = settings.engine();
        let game = play_game(&engine, &settings, 0, &AtomicBool::new(false))
            .unwrap()
            .unwrap();
        assert!(!game.plies.is_empty() && game.plies.len() <= 60);
        let mut replay = Game::with_rules(game.start.clone(), GameRules::default());
        for &(mv, _) in &game.plies {
            assert!(!replay.is_over());
            replay.play(mv).unwrap();
        }
        // The start came from 4-8 random plies from the start position.
        let played = game.start.fullmove_number();
        assert!(played >= 3, "start {}", game.start.to_fen());
    }

    #[test]
    fn the_same_seed_and_index_give_the_same_game() {
        let settings = quick_settings(11);
        let (a, b) = (settings.engine(), settings.engine());
        let stop = AtomicBool::new(false);
        let first = play_game(&a, &settings, 5, &stop).unwrap().unwrap();
        // A used engine is reset, so an earlier game does not change the next one.
        play_game(&b, &settings, 4, &stop).unwrap();
        let second = play_game(&b, &settings, 5, &stop).unwrap().unwrap();
        assert_eq!(first, second);
        let other = play_game(&a, &settings, 6, &stop).unwrap().unwrap();
        assert_ne!(first, other);
    }

    #[test]
    fn a_raised_stop_abandons_the_game() {
        let settings = quick_settings(1);
        let engine = settings.engine();
        let stop = AtomicBool::new(true);
        assert_eq!(play_game(&engine, &settings, 0, &stop), Ok(None));
    }
}
