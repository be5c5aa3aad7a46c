//! The opening explorer: from a position in the first 20 moves of a game from the initial
//! position, each move that leads to an ECCO code, with the engine's short look at it.
//!
//! A move counts when it enters another named code than the position's own (the catch-all
//! `A00`, "other openings", is no line to follow), or when a line of the classification from
//! the position's code needs it on the way to a deeper code (e.g. 马二进三 after 中炮对进左马
//! heads for the Screen Horses codes). The moves come main lines first: the moves whose codes
//! the classification's lines go on from most (the more general openings), then the engine's
//! evaluation for the side to move.
//!
//! Exploring is three steps, so that the search in the middle can run wherever the caller
//! runs searches: [`Exploration::new`] finds the moves, [`evaluate`] searches each on an
//! engine, and [`Exploration::rank`] orders them with the scores.

use super::{Continuation, Opening, OpeningError, continuations, heads_toward, lines_below};
use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};
use xiangqi_engine::score::Reported;
use xiangqi_engine::{Engine, SearchLimits, SearchRequest};
use xiangqi_rules::{Color, Move, Position};

/// The explorer covers the first 20 moves of each side (40 plies).
pub const EXPLORER_PLIES: usize = 40;
/// Depth of the engine's search of the position after each move.
pub const EXPLORER_DEPTH: i32 = 7;
/// The longest the engine looks at all the moves together.
pub const EXPLORER_TIME: Duration = Duration::from_millis(1500);

/// The code that classifies games no line of the classification names.
const OTHER_OPENINGS: &str = "A00";

/// Why a position cannot be explored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplorerError {
    /// The game was set up from another position than the initial one.
    NotFromStart,
    /// The position is past the first [`EXPLORER_PLIES`] plies.
    TooLate,
    /// The classification could not read the moves.
    Classification(String),
}

impl fmt::Display for ExplorerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExplorerError::NotFromStart => {
                write!(
                    f,
                    "openings are explored only in games from the initial position"
                )
            }
            ExplorerError::TooLate => write!(
                f,
                "openings are explored in the first {} moves only",
                EXPLORER_PLIES / 2
            ),
            ExplorerError::Classification(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ExplorerError {}

impl From<OpeningError> for ExplorerError {
    fn from(e: OpeningError) -> ExplorerError {
        ExplorerError::Classification(e.to_string())
    }
}

/// A move the explorer lists, before it is scored: the code it enters, or the codes it
/// heads for.
#[derive(Clone, Debug)]
struct Found {
    mv: Move,
    enters: bool,
    /// Never empty; the most general first.
    toward: Vec<Opening>,
}

/// One move of the explorer's answer.
#[derive(Clone, Debug)]
pub struct ExplorerMove {
    /// The move.
    pub mv: Move,
    /// The opening the game reaches with it, or for a move on the way to deeper codes the
    /// most general of them.
    pub opening: Opening,
    /// Whether the move itself reaches `opening`; false for a move on the way to it.
    pub enters: bool,
    /// For a move on the way: every opening the lines it follows lead to, in code order.
    pub toward: Vec<Opening>,
    /// How many codes the move leads to: those reached or headed for and every code the
    /// classification's lines go on to from them.
    pub lines: usize,
    /// The engine's evaluation after the move, from Red's point of view; `None` when the
    /// search ran out of time before it.
    pub score_red: Option<Reported>,
    /// The depth the evaluation comes from (0 when there is none).
    pub depth: i32,
}

/// A position being explored: its opening and the moves to list.
#[derive(Clone, Debug)]
pub struct Exploration {
    /// The position explored.
    pub position: Position,
    /// The opening of the position, when a move has been played.
    pub opening: Option<Opening>,
    found: Vec<Found>,
}

/// `c` as the explorer lists it after `moves` at the `current` code, if it does.
fn found(current: Option<&Opening>, moves: &[Move], c: Continuation) -> Option<Found> {
    if current != Some(&c.opening) {
        return (c.opening.code != OTHER_OPENINGS).then(|| Found {
            mv: c.mv,
            enters: true,
            toward: vec![c.opening],
        });
    }
    let toward = heads_toward(current?.code, moves, c.mv);
    (!toward.is_empty()).then_some(Found {
        mv: c.mv,
        enters: false,
        toward,
    })
}

/// How many codes `opening` stands for: itself and those its lines go on to.
fn width(opening: &Opening) -> usize {
    1 + lines_below(opening.code).len()
}

impl Exploration {
    /// The moves to list after `moves` from `start`: refused for a game from another
    /// position than the initial one, and past the first [`EXPLORER_PLIES`] plies.
    pub fn new(start: &Position, moves: &[Move]) -> Result<Exploration, ExplorerError> {
        if !super::is_initial(start) {
            return Err(ExplorerError::NotFromStart);
        }
        if moves.len() >= EXPLORER_PLIES {
            return Err(ExplorerError::TooLate);
        }
        let mut position = start.clone();
        for &m in moves {
            position.make_move(m);
        }
        let opening = super::classify(moves).ok().flatten();
        let found = continuations(moves)?
            .into_iter()
            .filter_map(|c| found(opening.as_ref(), moves, c))
            .collect();
        Ok(Exploration {
            position,
            opening,
            found,
        })
    }

    /// The moves the engine should look at.
    pub fn moves(&self) -> Vec<Move> {
        self.found.iter().map(|f| f.mv).collect()
    }

    /// The listed moves, with the `scores` [`evaluate`] gave (Red's point of view, with the
    /// depth), main lines first, then the better for the side to move.
    pub fn rank(&self, scores: &HashMap<Move, (Reported, i32)>) -> Vec<ExplorerMove> {
        let mover = self.position.side_to_move();
        let mut rows: Vec<ExplorerMove> = self
            .found
            .iter()
            .map(|f| {
                let seen = scores.get(&f.mv);
                let mut toward = if f.enters {
                    Vec::new()
                } else {
                    f.toward.clone()
                };
                toward.sort_unstable_by_key(|o| o.code);
                ExplorerMove {
                    mv: f.mv,
                    opening: f.toward[0],
                    enters: f.enters,
                    toward,
                    lines: f.toward.iter().map(width).sum(),
                    score_red: seen.map(|&(s, _)| s),
                    depth: seen.map_or(0, |&(_, d)| d),
                }
            })
            .collect();
        rows.sort_by_key(|r| order_key(r, mover));
        rows
    }
}

/// Sort key for a row: the more general codes first, then the better evaluation for the
/// side to move (`mover`).
fn order_key(row: &ExplorerMove, mover: Color) -> (std::cmp::Reverse<usize>, i64) {
    let score = row.score_red.map_or(i64::MIN / 2, |s| {
        i64::from(if mover == Color::Red { s } else { -s }.centipawns())
    });
    (std::cmp::Reverse(row.lines), -score)
}

/// Each of `moves` from `request`'s position searched on its own with `engine` (so that one
/// line's search does not shape the next one's) to [`EXPLORER_DEPTH`], all within
/// [`EXPLORER_TIME`]: the score from Red's point of view and the depth from the explored
/// position. The moves left when the time is up get no score.
pub fn evaluate(
    engine: &mut Engine,
    request: &SearchRequest,
    moves: &[Move],
) -> HashMap<Move, (Reported, i32)> {
    let deadline = Instant::now() + EXPLORER_TIME;
    let mut scores = HashMap::new();
    for &mv in moves {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        // The position after the move, searched for the other side.
        let mut history = request.history.clone();
        history.push(request.position.hash());
        let mut history_moves = request.history_moves.clone();
        history_moves.push(mv);
        let after = SearchRequest {
            position: request.position.after(mv),
            history,
            history_moves,
            limits: SearchLimits {
                depth: Some(EXPLORER_DEPTH),
                movetime: Some(left),
                ..SearchLimits::default()
            },
            ..request.clone()
        };
        let result = engine.think(&after, &mut |_| {});
        if let Some(line) = result.lines.first() {
            let score_red = line.score.for_red(after.position.side_to_move());
            scores.insert(mv, (score_red, line.depth + 1));
        }
    }
    scores
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &[&str]) -> Vec<Move> {
        text.iter().map(|m| m.parse().unwrap()).collect()
    }

    #[test]
    fn only_games_from_the_start_and_their_first_twenty_moves_are_explored() {
        let other = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(
            Exploration::new(&other, &[]).unwrap_err(),
            ExplorerError::NotFromStart
        );
        // Forty plies of horses going out and back.
        let shuffle = moves(&["b0c2", "b9c7", "c2b0", "c7b9"]).repeat(10);
        assert_eq!(
            Exploration::new(&Position::startpos(), &shuffle).unwrap_err(),
            ExplorerError::TooLate
        );
        assert!(Exploration::new(&Position::startpos(), &shuffle[..39]).is_ok());
    }

    #[test]
    fn the_central_cannon_is_listed_and_the_more_general_codes_come_first() {
        let e = Exploration::new(&Position::startpos(), &[]).unwrap();
        assert!(e.opening.is_none());
        let listed = e.moves();
        let central: Move = "h2e2".parse().unwrap();
        assert!(listed.contains(&central));
        let rows = e.rank(&HashMap::new());
        assert_eq!(rows.len(), listed.len());
        assert!(rows.windows(2).all(|w| w[0].lines >= w[1].lines));
        assert!(rows.iter().all(|r| r.score_red.is_none() && r.depth == 0));
        assert!(rows.iter().all(|r| r.opening.code != OTHER_OPENINGS));
    }

    #[test]
    fn among_equal_codes_the_better_score_for_the_mover_comes_first() {
        // Red to move at the start, Black after the third-file soldier; scores are Red's.
        for (played, mover) in [(vec![], Color::Red), (moves(&["c3c4"]), Color::Black)] {
            let e = Exploration::new(&Position::startpos(), &played).unwrap();
            let scores: HashMap<Move, (Reported, i32)> = e
                .moves()
                .iter()
                .enumerate()
                .map(|(i, &m)| (m, (Reported::Cp((i as i32 * 37) % 101 - 50), 7)))
                .collect();
            let ranked = e.rank(&scores);
            let for_mover = |r: &ExplorerMove| {
                let cp = r.score_red.unwrap().centipawns();
                if mover == Color::Red { cp } else { -cp }
            };
            let mut ties = 0;
            for w in ranked.windows(2) {
                assert!(w[0].lines >= w[1].lines);
                if w[0].lines == w[1].lines {
                    ties += 1;
                    assert!(
                        for_mover(&w[0]) >= for_mover(&w[1]),
                        "{:?} before {:?}",
                        w[0].mv,
                        w[1].mv
                    );
                }
            }
            assert!(ties > 0, "some moves lead to as many codes as another");
            assert!(ranked.iter().all(|r| r.depth == 7));
        }
    }
}
