//! The classifier: walks the steps of the table from the start, taking at each code the step
//! whose moves were all played (in any order, within each side's first ten moves and before
//! a move that settles the game at the code), the lowest rank first and, among equal ranks,
//! the one completed earliest. The code where no step can be taken any more is the game's.

use super::table::{Need, Step, Stop, Table, WINDOW, mirrored};
use xiangqi_rules::Move;

/// Red's and Black's moves of the first ten each, turned so that Red's first move is on the
/// right half of the board (files e–i), as ECCO reads a game.
pub struct Sides {
    red: Vec<Move>,
    black: Vec<Move>,
}

impl Sides {
    /// Splits `moves` (Red first) into the two sides' windows.
    pub fn new(moves: &[Move]) -> Sides {
        let left_first = moves.first().is_some_and(|m| m.from().file() < 4);
        let turn = |m: &Move| if left_first { mirrored(*m) } else { *m };
        let red = moves.iter().step_by(2).take(WINDOW).map(turn).collect();
        let black = moves
            .iter()
            .skip(1)
            .step_by(2)
            .take(WINDOW)
            .map(turn)
            .collect();
        Sides { red, black }
    }
}

impl Sides {
    /// Whether the moves so far still allow `step`: each need of each side is met among
    /// that side's first moves it looks at, or the side has not played that many yet.
    pub fn can_still_take(&self, step: &Step) -> bool {
        let open = |needs: &[Need], played: &[Move]| {
            needs.iter().all(|need| {
                played.len() < need.within
                    || played
                        .iter()
                        .take(need.within)
                        .any(|m| need.moves.contains(m))
            })
        };
        open(&step.red, &self.red) && open(&step.black, &self.black)
    }
}

/// The ply (0 = Red's first move) by which every need of `needs` is met among the side's
/// first `limit` moves, or `None`.
fn met_by(needs: &[Need], played: &[Move], side: usize, limit: usize) -> Option<Option<usize>> {
    let mut last = None;
    for need in needs {
        let i = played
            .iter()
            .take(need.within.min(limit))
            .position(|m| need.moves.contains(m))?;
        let ply = 2 * i + side;
        last = Some(last.map_or(ply, |l: usize| l.max(ply)));
    }
    Some(last)
}

/// The ply by which `step` is complete in `sides`, or `None` when it is not; each side's
/// moves are read up to (not including) its index in `limits`.
fn completion(step: &Step, sides: &Sides, limits: [usize; 2]) -> Option<usize> {
    let red = met_by(&step.red, &sides.red, 0, limits[0])?;
    let black = met_by(&step.black, &sides.black, 1, limits[1])?;
    red.max(black)
}

/// The index of the move of `played` that settles the game at a code with `stop`, whose
/// leaving steps need `needed`: the first from `stop.from` on that is in neither; or the
/// number of moves when none does.
fn stop_index(stop: &Stop, needed: &[&Need], played: &[Move]) -> usize {
    played
        .iter()
        .enumerate()
        .skip(stop.from)
        .find(|(_, m)| {
            !stop.passing.contains(m) && !needed.iter().any(|need| need.moves.contains(m))
        })
        .map_or(played.len(), |(i, _)| i)
}

/// How far each side's moves are read at `code`.
fn limits(table: &Table, code: usize, leaving: &[&Step], sides: &Sides) -> [usize; 2] {
    let mut limits = [WINDOW; 2];
    for (side, stop) in table.stops[code].iter().enumerate() {
        let Some(stop) = stop else { continue };
        let (played, needed): (&[Move], Vec<&Need>) = if side == 0 {
            (&sides.red, leaving.iter().flat_map(|s| &s.red).collect())
        } else {
            (
                &sides.black,
                leaving.iter().flat_map(|s| &s.black).collect(),
            )
        };
        limits[side] = stop_index(stop, &needed, played);
    }
    limits
}

/// The index of the entry `sides` reach, `None` when no step from the start is taken.
pub fn walk(table: &Table, sides: &Sides) -> Option<usize> {
    let mut current = None;
    // Each step moves to a deeper code; the bound only guards against a cycle in the data.
    for _ in 0..table.steps.len() {
        let leaving: Vec<&Step> = table.steps.iter().filter(|s| s.parent == current).collect();
        let limits = current.map_or([WINDOW; 2], |code| limits(table, code, &leaving, sides));
        let next = leaving
            .iter()
            .filter_map(|s| completion(s, sides, limits).map(|ply| (s.rank, ply, s.child)))
            .min();
        match next {
            Some((_, _, child)) => current = Some(child),
            None => break,
        }
    }
    current
}
