//! The walk along a trainer line: which branches the moves so far follow, whether the
//! learner's next move stays on one of them, and the app's reply. The app's side chooses among
//! the branches still followed: the one being trained while it is followed, else the one the
//! caller ranks first (the schedule's most due); a learner's move that another branch plays
//! switches to that branch. A move that no branch plays leaves the line, and the branch's own
//! move is named as the main line.

use super::lines::{Branch, TrainerLine};
use std::fmt;
use xiangqi_rules::{Color, Move, Position};

/// What the learner's move does to the walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    /// The move is on the line.
    OnLine {
        /// The branch followed now.
        branch: &'a Branch,
        /// The app's answer along it, when the branch goes on.
        reply: Option<Move>,
        /// Whether the branch ends here (after the learner's move or the reply).
        done: bool,
    },
    /// The move leaves the line.
    OffLine(Deviation<'a>),
}

/// A move off the line, with the line's move in its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deviation<'a> {
    /// The 0-based ply of the move.
    pub ply: usize,
    /// The learner's move.
    pub played: Move,
    /// The main line's move there: the trained branch's, or the first followed branch's.
    pub main: Move,
    /// The branch the main move belongs to.
    pub branch: &'a Branch,
}

/// Why a request does not fit the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WalkError {
    /// The line has no branch of that id.
    NoBranch(String),
    /// The moves already played leave every branch at `ply`.
    OffTheLine {
        /// The 0-based ply of the first move no branch plays.
        ply: usize,
    },
    /// It is the app's turn, not the learner's, after the moves played.
    NotYourTurn,
    /// Every branch the moves follow is over.
    LineOver,
    /// A move is not legal where it is played.
    IllegalMove {
        /// The 0-based ply.
        ply: usize,
        /// The move.
        mv: Move,
    },
}

impl fmt::Display for WalkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WalkError::NoBranch(id) => write!(f, "the line has no branch {id:?}"),
            WalkError::OffTheLine { ply } => {
                write!(
                    f,
                    "move {} of the moves sent is on no branch of the line",
                    ply + 1
                )
            }
            WalkError::NotYourTurn => f.write_str("after these moves it is the app's turn"),
            WalkError::LineOver => f.write_str("the line is already played to its end"),
            WalkError::IllegalMove { ply, mv } => {
                write!(f, "move {} ({mv}) is not legal where it is played", ply + 1)
            }
        }
    }
}

impl std::error::Error for WalkError {}

/// The side whose move is at `ply` (0: Red).
fn mover(ply: usize) -> Color {
    if ply.is_multiple_of(2) {
        Color::Red
    } else {
        Color::Black
    }
}

/// The branches of `line` whose moves begin with `moves`, in the line's order.
pub fn following<'a>(line: &'a TrainerLine, moves: &[Move]) -> Vec<&'a Branch> {
    line.branches
        .iter()
        .filter(|b| b.moves.len() >= moves.len() && b.moves[..moves.len()] == *moves)
        .collect()
}

/// Among `candidates` (never empty), the trained branch when it is there, else the one
/// `rank` puts first (lowest), the line's order breaking ties.
fn choose<'a>(
    candidates: &[&'a Branch],
    trained: &Branch,
    rank: &dyn Fn(&Branch) -> u64,
) -> &'a Branch {
    candidates
        .iter()
        .copied()
        .find(|b| b.id == trained.id)
        .or_else(|| candidates.iter().copied().min_by_key(|b| rank(b)))
        .unwrap_or(candidates[0])
}

/// The app's moves before the learner's first: none for Red, the branch's first for Black.
pub fn opening_moves(branch: &Branch, learner: Color) -> Vec<Move> {
    match learner {
        Color::Red => Vec::new(),
        Color::Black => branch.moves[..1].to_vec(),
    }
}

/// The branch `id` of `line`.
pub fn branch<'a>(line: &'a TrainerLine, id: &str) -> Result<&'a Branch, WalkError> {
    line.branch(id)
        .ok_or_else(|| WalkError::NoBranch(id.to_string()))
}

/// The learner (`learner`) plays `mv` after `moves` on `line`, training branch `trained`;
/// `rank` orders the other branches for the app's choice (lower first). `moves` must follow
/// a branch and leave the learner to move; `mv` must be legal.
pub fn step<'a>(
    line: &'a TrainerLine,
    learner: Color,
    trained: &Branch,
    moves: &[Move],
    mv: Move,
    rank: &dyn Fn(&Branch) -> u64,
) -> Result<Step<'a>, WalkError> {
    let mut pos = Position::startpos();
    for (ply, &m) in moves.iter().enumerate() {
        if !pos.is_legal(m) {
            return Err(WalkError::IllegalMove { ply, mv: m });
        }
        pos.make_move(m);
        if following(line, &moves[..=ply]).is_empty() {
            return Err(WalkError::OffTheLine { ply });
        }
    }
    let ply = moves.len();
    if mover(ply) != learner {
        return Err(WalkError::NotYourTurn);
    }
    let open: Vec<&Branch> = following(line, moves)
        .into_iter()
        .filter(|b| b.moves.len() > ply)
        .collect();
    if open.is_empty() {
        return Err(WalkError::LineOver);
    }
    if !pos.is_legal(mv) {
        return Err(WalkError::IllegalMove { ply, mv });
    }
    let played: Vec<&Branch> = open
        .iter()
        .copied()
        .filter(|b| b.moves[ply] == mv)
        .collect();
    if played.is_empty() {
        let main = choose(&open, trained, rank);
        return Ok(Step::OffLine(Deviation {
            ply,
            played: mv,
            main: main.moves[ply],
            branch: main,
        }));
    }
    let now = choose(&played, trained, rank);
    if now.moves.len() == ply + 1 {
        return Ok(Step::OnLine {
            branch: now,
            reply: None,
            done: true,
        });
    }
    // The app answers along the branches that go on after the learner's move.
    let mut after = moves.to_vec();
    after.push(mv);
    let going_on: Vec<&Branch> = following(line, &after)
        .into_iter()
        .filter(|b| b.moves.len() > ply + 1)
        .collect();
    let next = if going_on.is_empty() {
        now
    } else {
        choose(&going_on, now, rank)
    };
    let reply = next.moves[ply + 1];
    Ok(Step::OnLine {
        branch: next,
        reply: Some(reply),
        done: next.moves.len() == ply + 2,
    })
}
