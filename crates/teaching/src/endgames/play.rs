//! An ending played against the tables: the learner's moves judged by the table one by one,
//! the app's replies chosen by it.
//!
//! # The app's move
//! The app plays the table's best result for itself ([`app_move`]): the shortest win, else a
//! draw, else the longest resistance (the loss furthest from mate). Among drawing moves it
//! plays the best try: the move that leaves the other side the fewest moves that keep its
//! result. Among moves still equal it plays the most natural one ([`natural_key`]): a
//! capture first, then a move of another piece before a move of the general, then the general
//! step that ends nearest the palace centre, then the first in ICCS order. The
//! choice depends on the position only, so a line of the learner's moves always gets the same
//! replies.

use super::Goal;
use xiangqi_egtb::{EgtbError, MoveValue, Tablebases, Value};
use xiangqi_rules::{Color, Move, Position};

/// The winner's moves to mate for a value: a win in `d` plies is mate in `(d + 1) / 2` of the
/// side to move's moves, a loss in `d` plies mate in `d / 2` of the other side's; none for a
/// draw.
pub fn mate_in(value: Value) -> Option<u16> {
    match value {
        Value::Win(d) => Some(d.div_ceil(2)),
        Value::Loss(d) => Some(d / 2),
        Value::Draw => None,
    }
}

/// How natural `mv` looks in `pos`, smaller first: a capture before a quiet move; then a move
/// of another piece before a move of the general; then the mover's general nearer its palace
/// centre (e1 for Red, e8 for Black, counted in steps along files and ranks) after the move;
/// then ICCS order.
pub fn natural_key(pos: &Position, mv: Move) -> (u8, u8, u8, String) {
    let side = pos.side_to_move();
    let capture = pos.piece_at(mv.to()).is_some();
    let general = pos.general(side);
    let by_general = mv.from() == general;
    let at = if by_general { mv.to() } else { general };
    let centre_rank = if side == Color::Red { 1 } else { 8 };
    let distance = at.file().abs_diff(4) + at.rank().abs_diff(centre_rank);
    (
        u8::from(!capture),
        u8::from(by_general),
        distance,
        mv.to_string(),
    )
}

/// How many moves of the side to move in `pos` keep at least a draw (every move that does not
/// lose by the table).
pub fn tries_left(tables: &Tablebases, pos: &Position) -> Result<usize, EgtbError> {
    let probe = tables.probe(pos)?;
    Ok(probe
        .moves
        .iter()
        .filter(|m| !matches!(m.value, Value::Loss(_)))
        .count())
}

/// The move of the best result for the side to move, the most natural among equals (see the
/// module's notes); none when it has no legal move.
pub fn app_move(tables: &Tablebases, pos: &Position) -> Result<Option<MoveValue>, EgtbError> {
    let probe = tables.probe(pos)?;
    let Some(best) = probe.moves.first().map(|m| m.value) else {
        return Ok(None);
    };
    let mut keyed = Vec::new();
    for m in probe.moves.iter().filter(|m| m.value == best) {
        let tries = if best == Value::Draw {
            tries_left(tables, &pos.after(m.mv))?
        } else {
            0
        };
        keyed.push(((tries, natural_key(pos, m.mv)), *m));
    }
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(keyed.into_iter().next().map(|(_, m)| m))
}

/// The table's best move for the learner, the most natural among the equally good.
fn best_move(probe: &[MoveValue], pos: &Position) -> Option<MoveValue> {
    let best = probe.first()?.value;
    probe
        .iter()
        .filter(|m| m.value == best)
        .min_by_key(|m| natural_key(pos, m.mv))
        .copied()
}

/// What one of the learner's moves did to the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Still winning, by the quickest way.
    Best,
    /// Still winning, but the mate is further off than with the best move.
    Slower,
    /// The win is gone: the position is now a draw.
    Slipped,
    /// Still a draw.
    Held,
    /// The move loses (the result was a win or a draw before it).
    Lost,
}

impl Verdict {
    /// The verdict as the API writes it: `best`, `slower`, `slipped`, `held` or `lost`.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Slower => "slower",
            Verdict::Slipped => "slipped",
            Verdict::Held => "held",
            Verdict::Lost => "lost",
        }
    }
}

/// Where an attempt stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The learner is to move.
    Playing,
    /// The learner mated the app (or left it without a move).
    Won,
    /// The learner held the draw to the move limit.
    Held,
    /// The learner used every move of the limit without mating.
    OutOfMoves,
    /// The learner was mated, or a drawn ending reached its limit lost by the table.
    Lost,
}

impl Status {
    /// The status as the API writes it: `playing`, `won`, `held`, `out-of-moves` or `lost`.
    pub const fn name(self) -> &'static str {
        match self {
            Status::Playing => "playing",
            Status::Won => "won",
            Status::Held => "held",
            Status::OutOfMoves => "out-of-moves",
            Status::Lost => "lost",
        }
    }
}

/// One of the learner's moves, judged, with the app's reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The position the learner moved in.
    pub position: Position,
    /// The learner's move.
    pub mv: Move,
    /// The learner's result before the move.
    pub before: Value,
    /// The learner's result after it (counted from the position before the move).
    pub after: Value,
    /// The table's best move (the most natural of the equally good).
    pub best: Move,
    /// What the move did.
    pub verdict: Verdict,
    /// The app's reply, none when the learner's move ended the game or the limit.
    pub reply: Option<Move>,
}

/// The learner's moves played out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The learner's result at the start.
    pub start: Value,
    /// Every learner move, judged.
    pub steps: Vec<Step>,
    /// The position now.
    pub position: Position,
    /// The learner's result now (for the side to move when it is the learner's turn; after
    /// the end, for the learner).
    pub now: Value,
    /// Where the attempt stands.
    pub status: Status,
}

impl Attempt {
    /// The learner's moves so far.
    pub fn moves_used(&self) -> usize {
        self.steps.len()
    }
}

/// Why the learner's moves could not be played.
#[derive(Debug)]
pub enum PlayError {
    /// The start position does not read.
    BadPosition(String),
    /// Move `index` (from 0) is not legal in `position`.
    Illegal {
        /// The move's place among the learner's moves.
        index: usize,
        /// The position it was tried in.
        position: Box<Position>,
        /// The move.
        mv: Move,
    },
    /// Move `index` comes after the attempt ended.
    Over {
        /// The move's place among the learner's moves.
        index: usize,
    },
    /// The tables could not answer.
    Table(EgtbError),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::BadPosition(e) => write!(f, "the position does not read: {e}"),
            PlayError::Illegal { index, mv, .. } => {
                write!(f, "move {} ({mv}) is not legal", index + 1)
            }
            PlayError::Over { index } => {
                write!(f, "move {} comes after the end of the attempt", index + 1)
            }
            PlayError::Table(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<EgtbError> for PlayError {
    fn from(e: EgtbError) -> PlayError {
        PlayError::Table(e)
    }
}

/// Plays the learner's `moves` from `fen` (the learner to move) with `goal` and `limit`
/// learner moves: each move is judged by the table and answered by [`app_move`].
pub fn play(
    tables: &Tablebases,
    fen: &str,
    goal: Goal,
    limit: u16,
    moves: &[Move],
) -> Result<Attempt, PlayError> {
    let mut pos = Position::from_fen(fen).map_err(|e| PlayError::BadPosition(e.to_string()))?;
    let start = tables.value(&pos)?;
    let mut now = start;
    let mut steps = Vec::with_capacity(moves.len());
    let mut status = Status::Playing;
    for (index, &mv) in moves.iter().enumerate() {
        if status != Status::Playing {
            return Err(PlayError::Over { index });
        }
        let probe = tables.probe(&pos)?;
        let Some(chosen) = probe.moves.iter().find(|m| m.mv == mv).copied() else {
            return Err(PlayError::Illegal {
                index,
                position: Box::new(pos),
                mv,
            });
        };
        let best = best_move(&probe.moves, &pos).expect("a legal move was found");
        let before = probe.value;
        let after = chosen.value;
        let verdict = match (before, after) {
            (_, Value::Loss(_)) => Verdict::Lost,
            (Value::Win(_), Value::Draw) => Verdict::Slipped,
            (Value::Win(_), Value::Win(_)) if after == before => Verdict::Best,
            (Value::Win(_), Value::Win(_)) => Verdict::Slower,
            _ => Verdict::Held,
        };
        let moved = pos.after(mv);
        let mut step = Step {
            position: pos.clone(),
            mv,
            before,
            after,
            best: best.mv,
            verdict,
            reply: None,
        };
        now = after;
        let used = index + 1;
        match app_move(tables, &moved)? {
            None => {
                status = Status::Won;
                pos = moved;
            }
            Some(_) if used >= limit as usize && goal == Goal::Win => {
                status = Status::OutOfMoves;
                pos = moved;
            }
            Some(reply) => {
                step.reply = Some(reply.mv);
                pos = moved.after(reply.mv);
                // The learner's value now, to move: the app's value seen from the other side,
                // one ply on.
                now = match reply.value {
                    Value::Win(d) => Value::Loss(d - 1),
                    Value::Loss(d) => Value::Win(d - 1),
                    Value::Draw => Value::Draw,
                };
                if pos.legal_moves().is_empty() {
                    status = Status::Lost;
                } else if used >= limit as usize {
                    status = match now {
                        Value::Loss(_) => Status::Lost,
                        _ if goal == Goal::Draw => Status::Held,
                        _ => Status::OutOfMoves,
                    };
                }
            }
        }
        steps.push(step);
    }
    Ok(Attempt {
        start,
        steps,
        position: pos,
        now,
        status,
    })
}
