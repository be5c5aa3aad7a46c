//! The mate prover: an exact search that proves the side to move mates in N (N ≤ 5) with one
//! first move and no other, and gives the principal line.
//!
//! The search is an AND/OR search over every legal move on both sides (the rules core is the
//! judge: a side with no legal move has lost, mated or stalemated). The solver's moves are
//! tried checks first, then captures; the defender's last refutation at each depth is tried
//! first; a transposition table keeps, for each position, the shortest depth known to win and
//! the longest known not to. Mates are searched with the depth growing from 1, so a shorter
//! mate is always found first.
//!
//! What a proof establishes:
//! - the first move mates in N against every defence, and in no fewer against the best one;
//! - no other first move mates in N or fewer;
//! - the line answers the longest defence at each reply (ties: the first reply in ICCS
//!   order), and each later solver move in it is the only one that mates as fast — except the
//!   last, where any mating move is as good and the line shows one (checkmate before
//!   stalemate);
//! - every defence has a mating answer: the proof re-searches them all, so it can be
//!   recomputed at will from the position alone.
//!
//! Repetition rules (perpetual check, chasing) cannot touch these lines: a forced mate in at
//! most five moves never repeats a position (a repeat would mean a shorter mate from its first
//! occurrence), and a puzzle has no game history before its position.

use super::theme::LONGEST_MATE;
use std::collections::HashMap;
use std::fmt;
use xiangqi_rules::{GameStatus, Move, MoveList, Position};

/// Nodes a proof may visit by default before it gives up.
pub const DEFAULT_NODE_BUDGET: u64 = 200_000_000;

/// A proven mate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateProof {
    /// Moves of the solver to mate (1–5).
    pub length: u8,
    /// The principal line: the solver's moves and the longest defences, ending in mate.
    pub line: Vec<Move>,
    /// Nodes the proof visited.
    pub nodes: u64,
}

/// Why a mate could not be proven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateProofError {
    /// The length asked for is 0 or over the longest mate a puzzle may ask for.
    BadLength(u32),
    /// The game is already over in the position.
    GameOver,
    /// No first move mates within the length.
    NoMate {
        /// The length searched.
        within: u8,
    },
    /// The only mating first move mates faster than asked.
    Shorter {
        /// The mating move.
        key: Move,
        /// The length it mates in.
        length: u8,
    },
    /// More than one first move mates within the length.
    NotUnique {
        /// Every first move that mates within the length.
        moves: Vec<Move>,
        /// The length searched.
        within: u8,
    },
    /// A later solver move of the principal line is not the only one that mates as fast.
    LineNotUnique {
        /// The number of the solver's move in the line, from 1.
        solver_move: usize,
        /// The moves that mate as fast there.
        moves: Vec<Move>,
    },
    /// The search used up its node budget before it could decide.
    Undecided {
        /// The budget.
        nodes: u64,
    },
}

impl fmt::Display for MateProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MateProofError::BadLength(n) => {
                write!(
                    f,
                    "a mate in {n} is not a puzzle (1 to {LONGEST_MATE} moves)"
                )
            }
            MateProofError::GameOver => write!(f, "the game is already over in the position"),
            MateProofError::NoMate { within } => {
                write!(f, "no first move mates in {within} or fewer")
            }
            MateProofError::Shorter { key, length } => {
                write!(f, "{key} mates in {length}, faster than asked")
            }
            MateProofError::NotUnique { moves, within } => write!(
                f,
                "{} first moves mate in {within} or fewer: {}",
                moves.len(),
                line_text(moves)
            ),
            MateProofError::LineNotUnique { solver_move, moves } => write!(
                f,
                "solver move {solver_move} of the line is not the only mate as fast: {}",
                line_text(moves)
            ),
            MateProofError::Undecided { nodes } => {
                write!(f, "the proof did not finish within {nodes} nodes")
            }
        }
    }
}

impl std::error::Error for MateProofError {}

/// Moves in ICCS, separated by spaces, as a report or an error shows a line.
pub(crate) fn line_text(moves: &[Move]) -> String {
    let shown: Vec<String> = moves.iter().map(Move::to_string).collect();
    shown.join(" ")
}

/// The search ran out of nodes.
#[derive(Clone, Copy, Debug)]
struct OutOfNodes;

/// What the table knows of a position with the solver to move.
#[derive(Clone, Copy)]
struct Known {
    /// Smallest depth known to win (`u8::MAX` when none).
    wins_within: u8,
    /// Largest depth known not to win (0 when none).
    fails_within: u8,
}

/// An exact mate search with its table; reusable across positions.
pub struct MateProver {
    table: HashMap<u64, Known>,
    /// The defender's last refutation at each depth, tried first.
    killers: [Option<Move>; LONGEST_MATE as usize + 2],
    nodes: u64,
    budget: u64,
}

impl MateProver {
    /// A prover that gives up after `budget` nodes per proof.
    pub fn new(budget: u64) -> MateProver {
        MateProver {
            table: HashMap::new(),
            killers: [None; LONGEST_MATE as usize + 2],
            nodes: 0,
            budget,
        }
    }

    fn reset(&mut self) {
        self.table.clear();
        self.killers = [None; LONGEST_MATE as usize + 2];
        self.nodes = 0;
    }

    /// The error for a search that ran out of this prover's budget.
    fn undecided(&self) -> MateProofError {
        MateProofError::Undecided { nodes: self.budget }
    }

    /// The shortest mate for the side to move within `max` moves, if any (`Ok(None)`: none).
    pub fn mate_distance(
        &mut self,
        position: &Position,
        max: u8,
    ) -> Result<Option<u8>, MateProofError> {
        self.reset();
        let mut position = position.clone();
        self.distance(&mut position, max)
            .map_err(|_| self.undecided())
    }

    /// Every first move of the side to move that mates within `max` moves, in ICCS order
    /// (`Ok` and empty: none does).
    pub fn mating_first_moves(
        &mut self,
        position: &Position,
        max: u8,
    ) -> Result<Vec<Move>, MateProofError> {
        self.reset();
        let mut position = position.clone();
        self.mating_moves(&mut position, max)
            .map_err(|_| self.undecided())
    }

    /// Proves that the side to move mates in exactly `moves` with a single first move; see
    /// the module docs for what the proof establishes.
    pub fn prove(&mut self, position: &Position, moves: u32) -> Result<MateProof, MateProofError> {
        self.reset();
        let within = match u8::try_from(moves) {
            Ok(n) if (1..=LONGEST_MATE).contains(&n) => n,
            _ => return Err(MateProofError::BadLength(moves)),
        };
        if position.status() != GameStatus::Ongoing {
            return Err(MateProofError::GameOver);
        }
        let mut pos = position.clone();
        let mating = self
            .mating_moves(&mut pos, within)
            .map_err(|_| self.undecided())?;
        let key = match mating.as_slice() {
            [] => return Err(MateProofError::NoMate { within }),
            [key] => *key,
            _ => {
                return Err(MateProofError::NotUnique {
                    moves: mating,
                    within,
                });
            }
        };
        let undo = pos.make_move(key);
        let mut length = within;
        for n in 1..within {
            if self
                .defender_lost(&mut pos, n)
                .map_err(|_| self.undecided())?
            {
                length = n;
                break;
            }
        }
        pos.unmake_move(key, undo);
        if length < within {
            return Err(MateProofError::Shorter { key, length });
        }
        let line = self.principal_line(&pos, key, length)?;
        Ok(MateProof {
            length,
            line,
            nodes: self.nodes,
        })
    }

    /// The line from `key`: longest defence at each reply, the solver's fastest answer.
    fn principal_line(
        &mut self,
        position: &Position,
        key: Move,
        length: u8,
    ) -> Result<Vec<Move>, MateProofError> {
        let mut pos = position.clone();
        let mut line = vec![key];
        pos.make_move(key);
        let mut left = length - 1;
        let mut solver_move = 1;
        while left > 0 {
            let mut replies: Vec<Move> = pos.legal_moves().iter().copied().collect();
            replies.sort();
            let mut longest: Option<(u8, Move)> = None;
            for &reply in &replies {
                let undo = pos.make_move(reply);
                let needed = self
                    .distance(&mut pos, left)
                    .map_err(|_| self.undecided())?;
                pos.unmake_move(reply, undo);
                // The proof showed every reply loses within `left`.
                let needed = needed.ok_or(MateProofError::NoMate { within: length })?;
                if longest.is_none_or(|(best, _)| needed > best) {
                    longest = Some((needed, reply));
                }
            }
            let Some((needed, reply)) = longest else {
                break;
            };
            pos.make_move(reply);
            line.push(reply);
            solver_move += 1;
            let answers = self
                .mating_moves(&mut pos, needed)
                .map_err(|_| self.undecided())?;
            let answer = if needed == 1 {
                *answers
                    .iter()
                    .find(|&&m| pos.after(m).in_check())
                    .or(answers.first())
                    .ok_or(MateProofError::NoMate { within: length })?
            } else {
                match answers.as_slice() {
                    [only] => *only,
                    _ => {
                        return Err(MateProofError::LineNotUnique {
                            solver_move,
                            moves: answers,
                        });
                    }
                }
            };
            pos.make_move(answer);
            line.push(answer);
            left = needed - 1;
        }
        Ok(line)
    }

    /// Every first move of the side to move that mates within `n`, in ICCS order.
    fn mating_moves(&mut self, pos: &mut Position, n: u8) -> Result<Vec<Move>, OutOfNodes> {
        let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        moves.sort();
        let mut mating = Vec::new();
        for m in moves {
            let undo = pos.make_move(m);
            let lost = self.lost_within(pos, n);
            pos.unmake_move(m, undo);
            if lost? {
                mating.push(m);
            }
        }
        Ok(mating)
    }

    /// Whether the defender, to move, loses with the solver having `n` moves in hand
    /// (searched with the depth growing, so the table fills from short mates up).
    fn lost_within(&mut self, pos: &mut Position, n: u8) -> Result<bool, OutOfNodes> {
        for depth in 1..=n {
            if self.defender_lost(pos, depth)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The shortest mate for the side to move within `max`.
    fn distance(&mut self, pos: &mut Position, max: u8) -> Result<Option<u8>, OutOfNodes> {
        for n in 1..=max {
            if self.solver_wins(pos, n)? {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// Whether the side to move mates within `n` of its moves.
    fn solver_wins(&mut self, pos: &mut Position, n: u8) -> Result<bool, OutOfNodes> {
        let key = pos.hash();
        if let Some(known) = self.table.get(&key) {
            if known.wins_within <= n {
                return Ok(true);
            }
            if known.fails_within >= n {
                return Ok(false);
            }
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(OutOfNodes);
        }
        let moves = ordered_solver_moves(pos);
        let mut wins = false;
        for m in moves {
            let undo = pos.make_move(m);
            let lost = self.defender_lost(pos, n);
            pos.unmake_move(m, undo);
            if lost? {
                wins = true;
                break;
            }
        }
        let entry = self.table.entry(key).or_insert(Known {
            wins_within: u8::MAX,
            fails_within: 0,
        });
        if wins {
            entry.wins_within = entry.wins_within.min(n);
        } else {
            entry.fails_within = entry.fails_within.max(n);
        }
        Ok(wins)
    }

    /// Whether the defender, to move, has lost: no legal move now, or (with `n` > 1) every
    /// reply lets the solver mate within `n - 1`.
    fn defender_lost(&mut self, pos: &mut Position, n: u8) -> Result<bool, OutOfNodes> {
        let mut replies = MoveList::new();
        pos.generate_legal(xiangqi_rules::GenKind::All, &mut replies);
        if replies.is_empty() {
            return Ok(true);
        }
        if n <= 1 {
            return Ok(false);
        }
        let killer = self.killers[n as usize].filter(|k| replies.contains(*k));
        let order = killer
            .into_iter()
            .chain(replies.iter().copied().filter(move |&m| Some(m) != killer));
        for reply in order {
            let undo = pos.make_move(reply);
            let wins = self.solver_wins(pos, n - 1);
            pos.unmake_move(reply, undo);
            if !wins? {
                self.killers[n as usize] = Some(reply);
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The solver's legal moves: checks first, then captures, then the rest.
fn ordered_solver_moves(pos: &mut Position) -> Vec<Move> {
    let mut scored: Vec<(u8, Move)> = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let capture = pos.piece_at(m.to()).is_some();
            let undo = pos.make_move(m);
            let check = pos.in_check();
            pos.unmake_move(m, undo);
            (u8::from(!check) * 2 + u8::from(!capture), m)
        })
        .collect();
    scored.sort_by_key(|&(rank, _)| rank);
    scored.into_iter().map(|(_, m)| m).collect()
}

/// Proves a mate in exactly `moves` for the side to move with the default node budget; see
/// [`MateProver::prove`].
pub fn prove_mate(position: &Position, moves: u32) -> Result<MateProof, MateProofError> {
    MateProver::new(DEFAULT_NODE_BUDGET).prove(position, moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn line(proof: &MateProof) -> String {
        line_text(&proof.line)
    }

    #[test]
    fn a_unique_mate_in_three_is_proven_with_the_longest_defence() {
        // The general steps aside so the chariot can sweep the back rank.
        let proof = prove_mate(&pos("3ak4/4a4/9/9/9/9/9/9/9/3K2R2 w"), 3).unwrap();
        assert_eq!(proof.length, 3);
        assert_eq!(line(&proof), "d0e0 e9f9 g0f0 e8f7 f0f7");
        let mut end = pos("3ak4/4a4/9/9/9/9/9/9/9/3K2R2 w");
        for &m in &proof.line {
            assert!(end.is_legal(m));
            end.make_move(m);
        }
        assert!(matches!(end.status(), GameStatus::Checkmate { .. }));
    }

    #[test]
    fn a_stalemate_counts_as_a_mate() {
        // After f0e0 Black has no legal move without being in check: in Xiangqi that loses.
        let proof = prove_mate(&pos("4ka3/4a4/9/9/9/9/9/9/9/3K1R3 w"), 1).unwrap();
        assert_eq!(line(&proof), "f0e0");
    }

    #[test]
    fn several_mating_first_moves_are_not_a_puzzle() {
        let error = prove_mate(&pos("3k5/9/4R4/9/9/9/9/9/9/4K1R2 w"), 1).unwrap_err();
        let MateProofError::NotUnique { moves, within: 1 } = error else {
            panic!("{error}");
        };
        let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
        assert_eq!(moves, ["e7d7", "e7e8", "g0g8"]);
    }

    #[test]
    fn a_position_without_a_mate_is_refused() {
        let error = prove_mate(&pos("4k4/4a4/3a5/9/9/9/9/9/4R4/3K5 w"), 2).unwrap_err();
        assert_eq!(error, MateProofError::NoMate { within: 2 });
    }

    #[test]
    fn a_faster_mate_than_asked_is_refused() {
        let error = prove_mate(&pos("3ak4/4a4/9/9/9/9/9/9/9/3K2R2 w"), 4).unwrap_err();
        assert!(
            matches!(
                error,
                MateProofError::NotUnique { .. } | MateProofError::Shorter { .. }
            ),
            "{error}"
        );
    }

    #[test]
    fn lengths_outside_one_to_five_are_refused() {
        let p = pos("3ak4/4a4/9/9/9/9/9/9/9/3K2R2 w");
        assert_eq!(prove_mate(&p, 0), Err(MateProofError::BadLength(0)));
        assert_eq!(prove_mate(&p, 6), Err(MateProofError::BadLength(6)));
    }

    #[test]
    fn a_node_budget_stops_the_search() {
        let mut prover = MateProver::new(10);
        let error = prover.prove(&Position::startpos(), 2).unwrap_err();
        assert_eq!(error, MateProofError::Undecided { nodes: 10 });
    }
}
