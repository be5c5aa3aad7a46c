//! Keeping one puzzle of each kind in a set.
//!
//! Positions are compared as the solver sees them: a position with Black to move is first
//! turned round (ranks read from the other side, colours swapped), so that the solver always
//! plays up the board; then a position and its mirror (files `a`–`i` read as `i`–`a`) are the
//! same. Two puzzles are the same when
//! - **their positions are the same** (or mirrors of each other), or
//! - **they share an idea**: the same first two moves of the solution from the same
//!   structure — the same pieces on both sides, soldiers aside, and both generals on the same
//!   points — after the same turning round and mirroring. A game's position met again with
//!   a soldier elsewhere, or the same blow struck in two games, is kept once.
//!
//! Of the puzzles that are the same, the first in the set is kept, so a set's order says
//! which of them stays (the shipped puzzles first keep their ids and addresses).

use super::puzzle::Puzzle;
use std::collections::HashSet;
use xiangqi_rules::{Color, Position, Square};

/// What [`dedupe`] kept and what it left out, and why.
#[derive(Clone, Debug, Default)]
pub struct Deduped {
    /// The puzzles kept, in their order.
    pub kept: Vec<Puzzle>,
    /// Ids left out because their position (or its mirror) was already kept.
    pub same_position: Vec<String>,
    /// Ids left out because their idea (first two moves from the same structure) was already
    /// kept.
    pub same_idea: Vec<String>,
}

/// Keeps the first puzzle of each position and of each idea (see the module docs).
pub fn dedupe(puzzles: impl IntoIterator<Item = Puzzle>) -> Deduped {
    let mut positions = HashSet::new();
    let mut ideas = HashSet::new();
    let mut out = Deduped::default();
    for puzzle in puzzles {
        if !positions.insert(position_key(&puzzle.position)) {
            out.same_position.push(puzzle.id);
            continue;
        }
        if !ideas.insert(idea_key(&puzzle)) {
            out.same_idea.push(puzzle.id);
            continue;
        }
        out.kept.push(puzzle);
    }
    out
}

/// A point as the solver sees it: turned round when `turn` (the solver is Black), then
/// mirrored when `mirror`.
fn seen(sq: Square, turn: bool, mirror: bool) -> Square {
    let rank = if turn { 9 - sq.rank() } else { sq.rank() };
    let file = if mirror { 8 - sq.file() } else { sq.file() };
    Square::new(file, rank).unwrap_or(sq)
}

/// The board as the solver sees it, a byte a point (`.` for none, upper case the solver's).
fn board(position: &Position, mirror: bool) -> Vec<u8> {
    let turn = position.side_to_move() == Color::Black;
    let mut out = vec![b'.'; 90];
    for sq in Square::all() {
        if let Some(piece) = position.piece_at(sq) {
            let solver = piece.color == position.side_to_move();
            let letter = piece.kind.fen_letter();
            let letter = if solver {
                letter.to_ascii_uppercase()
            } else {
                letter.to_ascii_lowercase()
            };
            out[seen(sq, turn, mirror).index()] = letter as u8;
        }
    }
    out
}

/// The same key for a position, its mirror, and the same seen from the other side.
pub fn position_key(position: &Position) -> Vec<u8> {
    board(position, false).min(board(position, true))
}

/// The key of a puzzle's idea: its first two moves, its pieces but the soldiers and its
/// generals' points,
/// as the solver sees them, the lesser of the two mirrors.
pub fn idea_key(puzzle: &Puzzle) -> Vec<u8> {
    let position = &puzzle.position;
    let turn = position.side_to_move() == Color::Black;
    let mut material: Vec<u8> = board(position, false)
        .into_iter()
        .filter(|&b| b != b'.' && !b.eq_ignore_ascii_case(&b'p'))
        .collect();
    material.sort_unstable();
    let key = |mirror: bool| {
        let mut key = material.clone();
        let solver = position.side_to_move();
        for general in [
            position.general(solver),
            position.general(solver.opponent()),
        ] {
            key.push(seen(general, turn, mirror).index() as u8);
        }
        for m in puzzle.moves.iter().take(2) {
            key.push(seen(m.from(), turn, mirror).index() as u8);
            key.push(seen(m.to(), turn, mirror).index() as u8);
        }
        key
    };
    key(false).min(key(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::Theme;

    fn puzzle(id: &str, fen: &str, moves: &str) -> Puzzle {
        Puzzle {
            id: id.to_string(),
            position: Position::from_fen(fen).unwrap(),
            moves: moves.split(' ').map(|m| m.parse().unwrap()).collect(),
            themes: vec![Theme::Material],
            rating: 600,
        }
    }

    #[test]
    fn a_position_its_mirror_and_its_black_twin_are_one_puzzle() {
        let red = puzzle("a", "3k5/9/9/9/9/4r4/9/9/9/R3K4 w", "a0a4");
        let mirror = puzzle("b", "5k3/9/9/9/9/4r4/9/9/9/4K3R w", "i0i4");
        // The same seen from Black's side: ranks turned round, colours swapped.
        let black = puzzle("c", "r3k4/9/9/9/4R4/9/9/9/9/3K5 b", "a9a5");
        let other = puzzle("d", "3k5/9/9/9/9/4r4/9/9/9/1R2K4 w", "b0b4");
        let out = dedupe([red, mirror, black, other]);
        let kept: Vec<&str> = out.kept.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(kept, ["a", "d"]);
        assert_eq!(out.same_position, ["b", "c"]);
    }

    #[test]
    fn the_same_first_moves_from_the_same_structure_are_one_idea() {
        // A soldier far away does not make a new puzzle of the same blow.
        let first = puzzle("a", "3k5/9/9/9/9/4r4/9/9/9/R3K4 w", "a0a4 d9d8 a4e4");
        let again = puzzle("b", "3k5/9/9/9/9/4r4/8P/9/9/R3K4 w", "a0a4 d9d8 a4e4");
        // Other material is another structure, and another reply another idea.
        let more = puzzle("c", "3k5/9/9/9/9/4r4/8P/9/9/R2AK4 w", "a0a4 d9d8 a4e4");
        let other = puzzle("d", "3k5/9/9/9/9/4r4/6P2/9/9/R3K4 w", "a0a4 d9e9 a4e4");
        let out = dedupe([first, again, more, other]);
        let kept: Vec<&str> = out.kept.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(kept, ["a", "c", "d"]);
        assert_eq!(out.same_idea, ["b"]);
    }
}
