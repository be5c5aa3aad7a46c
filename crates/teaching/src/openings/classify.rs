//! The classifier: walks the steps of the table from the start, taking at each code the step
//! whose moves were all played (in any order, within each side's first ten moves), the
//! lowest rank first and, among equal ranks, the one completed earliest. The code where no
//! step can be taken any more is the game's.

use super::table::{Need, Step, Table, WINDOW, mirrored};
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

/// The ply (0 = Red's first move) by which every need of `needs` is met, or `None`.
fn met_by(needs: &[Need], played: &[Move], side: usize) -> Option<Option<usize>> {
    let mut last = None;
    for need in needs {
        let i = played
            .iter()
            .take(need.within)
            .position(|m| need.moves.contains(m))?;
        let ply = 2 * i + side;
        last = Some(last.map_or(ply, |l: usize| l.max(ply)));
    }
    Some(last)
}

/// The ply by which `step` is complete in `sides`, or `None` when it is not.
fn completion(step: &Step, sides: &Sides) -> Option<usize> {
    let red = met_by(&step.red, &sides.red, 0)?;
    let black = met_by(&step.black, &sides.black, 1)?;
    red.max(black)
}

/// The index of the entry `sides` reach, `None` when no step from the start is taken.
pub fn walk(table: &Table, sides: &Sides) -> Option<usize> {
    let mut current = None;
    // Each step moves to a deeper code; the bound only guards against a cycle in the data.
    for _ in 0..table.steps.len() {
        let next = table
            .steps
            .iter()
            .filter(|s| s.parent == current)
            .filter_map(|s| completion(s, sides).map(|ply| (s.rank, ply, s.child)))
            .min();
        match next {
            Some((_, _, child)) => current = Some(child),
            None => break,
        }
    }
    current
}
