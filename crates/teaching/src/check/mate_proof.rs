//! The proof of a mate in N: a `mate` exercise whose lines are longer than one move is proven
//! by the puzzles' mate prover ([`crate::puzzles::MateProver`]): one first move mates in N
//! against every defence, in no fewer, and no other first move mates as fast. Its first line
//! is the prover's principal line; every line answers each of the defender's turns with one
//! reply, a longest defence, and lists at each later turn of the learner every move that
//! still mates in the moves left (the app accepts those and refuses the rest).

use super::{Place, Report};
use crate::puzzles::proof::{DEFAULT_NODE_BUDGET, line_text};
use crate::puzzles::{MateProofError, MateProver};
use std::collections::BTreeSet;
use xiangqi_rules::{Move, Position};

/// The proof of one exercise: where it is, its position and its lines.
pub(super) struct MateTree<'a> {
    /// Where the exercise is, for the report.
    pub place: Place,
    /// The exercise's position; the side to move mates.
    pub pos: &'a Position,
    /// The solution lines, played (every move legal).
    pub lines: Vec<&'a [Move]>,
}

impl MateTree<'_> {
    /// Checks the tree; every fault goes to `report`.
    pub fn check(&self, report: &mut Report) {
        let length = self.lines[0].len();
        if self.lines.iter().any(|line| line.len() != length) {
            report.add(
                self.place,
                "the solution lines of a mate have different lengths; every line of a mate in N \
                 has 2N-1 moves"
                    .to_string(),
            );
            return;
        }
        let n = length.div_ceil(2);
        let mut prover = MateProver::new(DEFAULT_NODE_BUDGET);
        let proof = match prover.prove(self.pos, n as u32) {
            Ok(proof) => proof,
            Err(e) => {
                report.add(self.place, format!("the mate in {n} is not proven: {e}"));
                return;
            }
        };
        if self.lines[0] != proof.line.as_slice() {
            report.add(
                self.place,
                format!(
                    "solution 1 is not the prover's principal line: {}",
                    line_text(&proof.line)
                ),
            );
        }
        let firsts: BTreeSet<Move> = self.lines.iter().map(|line| line[0]).collect();
        if firsts.len() != 1 {
            report.add(
                self.place,
                format!(
                    "only {} mates in {n}, but the lines start with {}",
                    proof.line[0],
                    line_text(&firsts.into_iter().collect::<Vec<_>>())
                ),
            );
            return;
        }
        let all: Vec<usize> = (0..self.lines.len()).collect();
        let mut pos = self.pos.clone();
        let first = self.lines[0][0];
        let undo = pos.make_move(first);
        let mut walk = Walk {
            tree: self,
            report,
            prover,
        };
        let walked = walk.defender_turn(&mut pos, 1, &all, n - 1);
        pos.unmake_move(first, undo);
        if let Err(e) = walked {
            report.add(self.place, format!("the proof did not finish: {e}"));
        }
    }

    /// The moves the lines `at` play at ply `ply`.
    fn moves_at(&self, at: &[usize], ply: usize) -> BTreeSet<Move> {
        at.iter().map(|&i| self.lines[i][ply]).collect()
    }

    /// The moves of line `line` before ply `ply`, as a prefix for a problem's text.
    fn path(&self, line: usize, ply: usize) -> String {
        format!("after {}: ", line_text(&self.lines[line][..ply]))
    }
}

/// A walk down a tree's lines: the tree, where its faults go, and the prover that judges
/// each turn.
struct Walk<'t, 'a, 'r, 'p> {
    tree: &'t MateTree<'a>,
    report: &'r mut Report<'p>,
    prover: MateProver,
}

impl Walk<'_, '_, '_, '_> {
    /// The learner's turn at ply `ply` on the lines `at`, with `n` moves to mate: the lines
    /// list exactly the moves that still mate in `n`.
    fn solver_turn(
        &mut self,
        pos: &mut Position,
        ply: usize,
        at: &[usize],
        n: usize,
    ) -> Result<(), MateProofError> {
        let tree = self.tree;
        let listed = tree.moves_at(at, ply);
        let mating: BTreeSet<Move> = self
            .prover
            .mating_first_moves(pos, n as u8)?
            .into_iter()
            .collect();
        let path = tree.path(at[0], ply);
        for m in listed.difference(&mating) {
            self.report.add(
                tree.place,
                format!("{path}{m} does not mate in {n}: the defence holds"),
            );
        }
        for m in mating.difference(&listed) {
            self.report.add(
                tree.place,
                format!("{path}{m} mates in {n} too but is not a solution"),
            );
        }
        if n == 1 {
            return Ok(());
        }
        for &m in listed.intersection(&mating) {
            let next: Vec<usize> = at
                .iter()
                .copied()
                .filter(|&i| tree.lines[i][ply] == m)
                .collect();
            let undo = pos.make_move(m);
            let walked = self.defender_turn(pos, ply + 1, &next, n - 1);
            pos.unmake_move(m, undo);
            walked?;
        }
        Ok(())
    }

    /// The defender's turn at ply `ply`, mated in `n` more moves of the learner at the
    /// longest: the lines give one reply, and after it the mate takes all `n`.
    fn defender_turn(
        &mut self,
        pos: &mut Position,
        ply: usize,
        at: &[usize],
        n: usize,
    ) -> Result<(), MateProofError> {
        let tree = self.tree;
        let replies = tree.moves_at(at, ply);
        let path = tree.path(at[0], ply);
        if replies.len() != 1 {
            self.report.add(
                tree.place,
                format!(
                    "{path}the lines give {} different replies; list one, the longest defence",
                    replies.len()
                ),
            );
            return Ok(());
        }
        let reply = tree.lines[at[0]][ply];
        let undo = pos.make_move(reply);
        let needed = self.prover.mate_distance(pos, n as u8);
        let walked = match needed {
            Ok(Some(d)) if usize::from(d) == n => self.solver_turn(pos, ply + 1, at, n),
            Ok(Some(d)) => {
                self.report.add(
                    tree.place,
                    format!(
                        "{path}reply {reply} is not the longest defence: it is mated in {d}, \
                         not {n}"
                    ),
                );
                Ok(())
            }
            Ok(None) => {
                self.report.add(
                    tree.place,
                    format!("{path}after reply {reply} there is no mate in {n}"),
                );
                Ok(())
            }
            Err(e) => Err(e),
        };
        pos.unmake_move(reply, undo);
        walked
    }
}
