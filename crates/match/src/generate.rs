//! Generates balanced opening positions with an engine: seeded random walks from the start
//! position that pick, at each ply, among the moves the engine scores close to its best
//! (MultiPV at a shallow depth), then keep the end position when a deeper search scores it
//! near zero. Positions already seen, or the mirror image of one, are left out.

use crate::engine_spec::EngineSpec;
use crate::player::{Fault, Player};
use crate::random::SplitMix64;
use std::collections::HashSet;
use std::fmt;
use std::fmt::Write as _;
use std::time::Duration;
use xiangqi_engine::protocol::GoParams;
use xiangqi_rules::{GameStatus, Move, Position};

/// How to generate openings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateSettings {
    /// Openings wanted.
    pub count: usize,
    /// Fewest plies from the start position.
    pub min_plies: u32,
    /// Most plies from the start position.
    pub max_plies: u32,
    /// Depth of the searches that choose each move.
    pub choice_depth: u32,
    /// MultiPV lines those searches report.
    pub choice_lines: u32,
    /// How far below the best a move may score and still be chosen, in centipawns.
    pub choice_margin: i32,
    /// Depth of the search that scores the end position.
    pub eval_depth: u32,
    /// The largest score (either side) a kept position may have, in centipawns.
    pub max_eval: i32,
    /// The seed of the random choices.
    pub seed: u64,
}

impl Default for GenerateSettings {
    fn default() -> GenerateSettings {
        GenerateSettings {
            count: 240,
            min_plies: 4,
            max_plies: 8,
            choice_depth: 6,
            choice_lines: 8,
            choice_margin: 40,
            eval_depth: 10,
            max_eval: 60,
            seed: 1,
        }
    }
}

/// One generated opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedOpening {
    /// The moves from the start position.
    pub moves: Vec<Move>,
    /// The position they reach.
    pub position: Position,
    /// The engine's score for the side to move at the evaluation depth, in centipawns.
    pub score: i32,
}

/// Why openings could not be generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// The shortest length is above the longest.
    Lengths {
        /// Fewest plies asked for.
        min: u32,
        /// Most plies asked for.
        max: u32,
    },
    /// The engine failed.
    Engine(Fault),
    /// The engine gave no score for a position it was asked to evaluate.
    NoScore,
    /// Too few walks ended in a balanced position.
    TooFewBalanced {
        /// Openings found.
        found: usize,
        /// Walks tried.
        tried: usize,
    },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::Lengths { min, max } => write!(
                f,
                "opening length {min}-{max}: the first number must not be larger"
            ),
            GenerateError::Engine(fault) => write!(f, "engine {fault}"),
            GenerateError::NoScore => f.write_str("the engine reported no score"),
            GenerateError::TooFewBalanced { found, tried } => write!(
                f,
                "only {found} balanced openings found in {tried} tries; allow a larger --max-eval"
            ),
        }
    }
}

impl std::error::Error for GenerateError {}

impl From<Fault> for GenerateError {
    fn from(fault: Fault) -> GenerateError {
        GenerateError::Engine(fault)
    }
}

/// Longest wait for one search before the engine counts as hung.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(120);

/// Walks to be tried per opening wanted before giving up.
const TRIES_PER_OPENING: usize = 50;

/// Generates openings with the engine `spec` (it must speak UCI and know `MultiPV`).
/// `progress` hears (kept, tried) after each walk.
pub fn generate_openings(
    spec: &EngineSpec,
    settings: &GenerateSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<GeneratedOpening>, GenerateError> {
    if settings.min_plies > settings.max_plies {
        return Err(GenerateError::Lengths {
            min: settings.min_plies,
            max: settings.max_plies,
        });
    }
    let mut chooser_spec = spec.clone();
    chooser_spec
        .options
        .push(("MultiPV".into(), settings.choice_lines.to_string()));
    let mut chooser = Player::new(chooser_spec, None);
    let mut evaluator = Player::new(spec.clone(), None);
    let mut rng = SplitMix64::new(settings.seed);
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    let mut tried = 0;
    while kept.len() < settings.count {
        if tried >= settings.count * TRIES_PER_OPENING {
            return Err(GenerateError::TooFewBalanced {
                found: kept.len(),
                tried,
            });
        }
        tried += 1;
        let plies = settings.min_plies
            + rng.below((settings.max_plies - settings.min_plies + 1) as usize) as u32;
        let walk = random_walk(&mut chooser, &mut rng, plies, settings)?;
        if let Some((moves, position)) = walk {
            let mirror = mirrored_hash(&position);
            if seen.insert(position.hash()) && !seen.contains(&mirror) {
                let score = evaluate(&mut evaluator, &moves, settings.eval_depth)?;
                if score.abs() <= settings.max_eval {
                    kept.push(GeneratedOpening {
                        moves,
                        position,
                        score,
                    });
                }
            }
        }
        progress(kept.len(), tried);
    }
    chooser.quit();
    evaluator.quit();
    Ok(kept)
}

/// Plays `plies` moves from the start, each chosen at random among the engine's near-best
/// lines. `None` when the walk ends the game.
fn random_walk(
    chooser: &mut Player,
    rng: &mut SplitMix64,
    plies: u32,
    settings: &GenerateSettings,
) -> Result<Option<(Vec<Move>, Position)>, Fault> {
    let start = Position::startpos();
    let mut position = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        chooser.new_game()?;
        let thought = chooser.think(
            &start,
            &moves,
            &GoParams::depth(settings.choice_depth),
            SEARCH_TIMEOUT,
        )?;
        let best = thought
            .lines
            .iter()
            .map(|(score, _)| score.centipawns())
            .max();
        let candidates: Vec<Move> = match best {
            Some(best) => thought
                .lines
                .iter()
                .filter(|(score, m)| {
                    score.centipawns() >= best - settings.choice_margin && position.is_legal(*m)
                })
                .map(|(_, m)| *m)
                .collect(),
            None => thought
                .best
                .ok()
                .flatten()
                .into_iter()
                .filter(|m| position.is_legal(*m))
                .collect(),
        };
        if candidates.is_empty() {
            return Ok(None);
        }
        let m = candidates[rng.below(candidates.len())];
        position.make_move(m);
        moves.push(m);
        if position.status() != GameStatus::Ongoing {
            return Ok(None);
        }
    }
    Ok(Some((moves, position)))
}

/// The engine's score for the side to move after `moves`, at `depth`.
fn evaluate(evaluator: &mut Player, moves: &[Move], depth: u32) -> Result<i32, GenerateError> {
    evaluator.new_game()?;
    let start = Position::startpos();
    let thought = evaluator.think(&start, moves, &GoParams::depth(depth), SEARCH_TIMEOUT)?;
    thought
        .score
        .map(|s| s.centipawns())
        .ok_or(GenerateError::NoScore)
}

/// The hash of the position mirrored left to right (the same opening, files swapped).
fn mirrored_hash(position: &Position) -> u64 {
    let fen = position.to_fen();
    let (board, rest) = fen.split_once(' ').unwrap_or((&fen, ""));
    let mirrored: Vec<String> = board
        .split('/')
        .map(|rank| rank.chars().rev().collect())
        .collect();
    Position::from_fen(&format!("{} {rest}", mirrored.join("/"))).map_or(0, |p| p.hash())
}

/// The openings as a file: `header` lines as `#` comments, then one line each:
/// `FEN ; moves ; cp SCORE` (score for the side to move).
pub fn format_openings(openings: &[GeneratedOpening], header: &[String]) -> String {
    let mut out = String::new();
    for line in header {
        let _ = writeln!(out, "# {line}");
    }
    for opening in openings {
        let moves: Vec<String> = opening.moves.iter().map(|m| m.to_string()).collect();
        let _ = writeln!(
            out,
            "{} ; {} ; cp {:+}",
            opening.position.to_fen(),
            moves.join(" "),
            opening.score
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_of_the_central_cannon_is_the_other_cannon() {
        let mut left = Position::startpos();
        left.make_move("b2e2".parse().unwrap());
        let mut right = Position::startpos();
        right.make_move("h2e2".parse().unwrap());
        assert_eq!(mirrored_hash(&left), right.hash());
        assert_eq!(
            mirrored_hash(&Position::startpos()),
            Position::startpos().hash()
        );
    }

    #[test]
    fn openings_file_lines_read_back() {
        let mut position = Position::startpos();
        let m: Move = "h2e2".parse().unwrap();
        position.make_move(m);
        let text = format_openings(
            &[GeneratedOpening {
                moves: vec![m],
                position: position.clone(),
                score: -7,
            }],
            &["made for a test".into()],
        );
        assert!(text.starts_with("# made for a test\n"));
        assert!(text.contains(" ; h2e2 ; cp -7\n"));
        let read = crate::openings::parse_openings(&text, "test").unwrap();
        assert_eq!(read[0].position, position);
    }
}
