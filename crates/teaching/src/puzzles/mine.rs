//! The miner: finds puzzles in engine self-play games and in recorded games.
//!
//! Each position of a game gets a quick look — the engine at a small node budget with two
//! lines. A mate in at most five moves, or a gap of [`CANDIDATE_GAP`] between the two best
//! moves, makes it a candidate; the proofs then decide: the mate prover for mates, the
//! engine's fixed-depth search for material and defence. Positions are deduplicated by board
//! and side to move. Self-play games start from the start position or a given opening, a few
//! random plies on, and then the engine plays with some randomness (mostly its best move,
//! sometimes the second, now and then any legal move), which is also what makes tactics
//! appear. After a puzzle is found, the next [`AFTER_PUZZLE_GAP`] plies of its game are not
//! looked at (they mostly hold the same tactic a move on).

use super::motifs::detect_motifs;
use super::patterns::detect_patterns;
use super::proof::MateProver;
use super::puzzle::Puzzle;
use super::rating::measure;
use super::tactic::{ProofEngine, Tactic, classify, two_line_engine};
use super::theme::{LONGEST_MATE, Theme};
use std::collections::{HashMap, HashSet};
use xiangqi_engine::score::Reported;
use xiangqi_engine::{Engine, SearchLimits, SearchRequest, SearchResult};
use xiangqi_rules::random::SplitMix64;
use xiangqi_rules::{GameStatus, Move, Position};

/// The quick look's least gap between the two best moves that makes a tactic candidate.
pub const CANDIDATE_GAP: i32 = 150;
/// Nodes the mate prover may spend on one candidate.
pub const MINING_MATE_BUDGET: u64 = 1_500_000;
/// The longest self-play game, in plies.
pub const LONGEST_GAME: usize = 200;
/// Plies of a game not looked at after a puzzle was found in it (the same tactic, a move on).
pub const AFTER_PUZZLE_GAP: usize = 4;

/// The key a position is deduplicated by: its board and side to move.
pub fn position_key(position: &Position) -> String {
    let fen = position.to_fen();
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// A puzzle id from its kind and position: `m2-…`, `mat-…`, `def-…` with the position's hash.
pub fn puzzle_id(prefix: &str, position: &Position) -> String {
    format!("{prefix}-{:012x}", position.hash() & 0xFFFF_FFFF_FFFF)
}

/// What the quick look suggests a position may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Candidate {
    /// The engine sees a mate in this many moves.
    Mate(u8),
    /// The two best moves are far apart: material or defence.
    Tactic,
}

/// The candidate, if any, that a two-line search result shows.
pub fn candidate(result: &SearchResult) -> Option<Candidate> {
    let best = result.lines.first()?;
    if let Reported::Mate(n) = best.score
        && n > 0
    {
        return u8::try_from(n)
            .ok()
            .filter(|&n| n <= LONGEST_MATE)
            .map(Candidate::Mate);
    }
    let second = result.lines.get(1)?;
    let gap = best
        .score
        .centipawns()
        .saturating_sub(second.score.centipawns());
    (gap >= CANDIDATE_GAP).then_some(Candidate::Tactic)
}

/// Counts of what the miner has looked at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MineStats {
    /// Positions given a quick look.
    pub positions: u64,
    /// Candidates sent to a proof.
    pub candidates: u64,
    /// Puzzles proven.
    pub puzzles: u64,
}

/// The miner: its engines, the mate prover and the positions already seen.
pub struct Miner {
    play: Engine,
    proofs: ProofEngine,
    prover: MateProver,
    nodes: u64,
    seen: HashSet<String>,
    /// What was looked at so far.
    pub stats: MineStats,
}

impl Miner {
    /// A miner whose quick look and self-play moves search `nodes` nodes.
    pub fn new(nodes: u64) -> Miner {
        Miner {
            play: two_line_engine(),
            proofs: ProofEngine::new(),
            prover: MateProver::new(MINING_MATE_BUDGET),
            nodes,
            seen: HashSet::new(),
            stats: MineStats::default(),
        }
    }

    /// Marks a position as done (a puzzle already in the output).
    pub fn mark_seen(&mut self, position: &Position) {
        self.seen.insert(position_key(position));
    }

    fn quick_look(&self, position: &Position) -> SearchResult {
        let request = SearchRequest::new(
            position.clone(),
            SearchLimits {
                nodes: Some(self.nodes),
                ..SearchLimits::default()
            },
        );
        self.play.think(&request, &mut |_| {})
    }

    /// Proves what `candidate` suggests at `position`; the puzzle when a proof stands.
    pub fn examine(&mut self, position: &Position, candidate: Candidate) -> Option<Puzzle> {
        if !self.seen.insert(position_key(position)) {
            return None;
        }
        self.stats.candidates += 1;
        let (prefix, mut themes, line) = match candidate {
            Candidate::Mate(_) => {
                let length = self.prover.mate_distance(position, LONGEST_MATE).ok()??;
                let proof = self.prover.prove(position, u32::from(length)).ok()?;
                let theme = Theme::forced_win(length, line_end(position, &proof.line))?;
                let prefix = match theme {
                    Theme::StalemateIn(_) => format!("s{length}"),
                    _ => format!("m{length}"),
                };
                (prefix, vec![theme], proof.line)
            }
            Candidate::Tactic => match classify(&self.proofs, position).ok()? {
                Tactic::Material(line) => ("mat".to_string(), vec![Theme::Material], line),
                Tactic::Defence(first) => ("def".to_string(), vec![Theme::Defence], vec![first]),
            },
        };
        if !themes.contains(&Theme::Defence) {
            themes.extend(detect_motifs(position, &line));
        }
        themes.extend(detect_patterns(position, &line));
        // The search score: the shipped set's ratings are fitted from it when it is made.
        let rating = measure(&self.proofs, position, &line).score();
        self.stats.puzzles += 1;
        Some(Puzzle {
            id: puzzle_id(&prefix, position),
            position: position.clone(),
            moves: line,
            themes,
            rating,
        })
    }

    /// A puzzle from a named-pattern exercise: the mate proven at `mate_in`, the proof's
    /// principal line, themes `mateInN` and `pattern:<pattern>` (and any motif), id
    /// `pattern-<pattern>-<number>`. `None` when the position was already taken.
    pub fn pattern_puzzle(
        &mut self,
        pattern: &str,
        number: usize,
        position: &Position,
        mate_in: u32,
    ) -> Result<Option<Puzzle>, super::proof::MateProofError> {
        let proof = MateProver::new(super::proof::DEFAULT_NODE_BUDGET).prove(position, mate_in)?;
        if !self.seen.insert(position_key(position)) {
            return Ok(None);
        }
        let end = line_end(position, &proof.line);
        let mut themes = vec![
            Theme::forced_win(proof.length, end).unwrap_or(Theme::MateIn(proof.length)),
            Theme::Pattern(pattern.to_string()),
        ];
        themes.extend(detect_motifs(position, &proof.line));
        for found in detect_patterns(position, &proof.line) {
            if !themes.contains(&found) {
                themes.push(found);
            }
        }
        let rating = measure(&self.proofs, position, &proof.line).score();
        self.stats.puzzles += 1;
        Ok(Some(Puzzle {
            id: format!("pattern-{pattern}-{number}"),
            position: position.clone(),
            moves: proof.line,
            themes,
            rating,
        }))
    }

    /// Looks at one position: the quick look, then the proof if it is a candidate.
    pub fn look(&mut self, position: &Position) -> Option<Puzzle> {
        if position.status() != GameStatus::Ongoing
            || position.legal_moves().len() < 2
            || self.seen.contains(&position_key(position))
        {
            return None;
        }
        self.stats.positions += 1;
        let result = self.quick_look(position);
        let candidate = candidate(&result)?;
        self.examine(position, candidate)
    }

    /// Looks at every position of a recorded game's main line, calling `found` with each
    /// puzzle.
    pub fn mine_line(&mut self, start: &Position, moves: &[Move], found: &mut dyn FnMut(Puzzle)) {
        self.play.new_game();
        let mut position = start.clone();
        for &m in moves {
            if !position.is_legal(m) {
                return;
            }
            if let Some(puzzle) = self.look(&position) {
                found(puzzle);
            }
            position.make_move(m);
        }
        if let Some(puzzle) = self.look(&position) {
            found(puzzle);
        }
    }

    /// Plays one self-play game from `start` (a few random plies first), looking at every
    /// position; calls `found` with each puzzle and returns the plies played.
    pub fn play_game(
        &mut self,
        start: &Position,
        random: &mut SplitMix64,
        found: &mut dyn FnMut(Puzzle),
    ) -> usize {
        self.play.new_game();
        let mut position = start.clone();
        let mut plies = 0;
        for _ in 0..2 + random.below_by_remainder(5) {
            let moves = position.legal_moves();
            if moves.is_empty() {
                return plies;
            }
            position.make_move(moves.as_slice()[random.below_by_remainder(moves.len())]);
            plies += 1;
        }
        let mut repeats: HashMap<u64, u32> = HashMap::new();
        let mut look_from = 0;
        while plies < LONGEST_GAME && position.status() == GameStatus::Ongoing {
            let count = repeats.entry(position.hash()).or_insert(0);
            *count += 1;
            if *count >= 3 || position.halfmove_clock() >= 60 {
                break;
            }
            let result = self.quick_look(&position);
            self.stats.positions += 1;
            if plies >= look_from
                && let Some(c) = candidate(&result)
                && !self.seen.contains(&position_key(&position))
                && let Some(puzzle) = self.examine(&position, c)
            {
                found(puzzle);
                look_from = plies + 1 + AFTER_PUZZLE_GAP;
            }
            let Some(best) = result.best_move else {
                break;
            };
            let roll = random.below_by_remainder(100);
            let chosen = if roll < 6 {
                let moves = position.legal_moves();
                moves.as_slice()[random.below_by_remainder(moves.len())]
            } else if roll < 18 {
                result
                    .lines
                    .get(1)
                    .and_then(|l| l.pv.first().copied())
                    .unwrap_or(best)
            } else {
                best
            };
            position.make_move(chosen);
            plies += 1;
        }
        plies
    }
}

/// How `line` played from `position` ends: the status of the position after it.
fn line_end(position: &Position, line: &[Move]) -> GameStatus {
    let mut end = position.clone();
    for &m in line {
        end.make_move(m);
    }
    end.status()
}
