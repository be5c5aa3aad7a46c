//! A small opening book made from the ECCO lines, so that the learner levels open the game
//! with named openings and not always the same way.
//!
//! From a position reached from the start within [`BOOK_PLIES`] plies, the book moves are
//! the legal moves that take the game down a named ECCO line: those that reach a named code
//! below the game's code now (from the start: any named code but the catch-all A00), and
//! those that play a move a step further down still needs (a step of ECCO's lines often
//! takes moves of both sides before the code changes).
//!
//! Each book move is weighted by how much of the classification lies below the code it
//! reaches: the square root of one plus the number of codes the game can still go on to.
//! ECCO gives its codes to the lines masters play, so the openings played most (中炮 with its
//! hundreds of codes, then 仙人指路, 飞相, 起马; for Black 屏风马, 反宫马, 顺炮, 卒底炮) come
//! first, and the square root keeps the rarer named openings in play now and then.

use super::table::{Need, mirrored, table};
use super::{Opening, OpeningError, continuations, lines_below, opening_at};
use xiangqi_engine::book::{BookEntry, OpeningBook};
use xiangqi_rules::{Move, Position};

/// How many plies from the start the book covers: the first eight moves of each side.
pub const BOOK_PLIES: usize = 16;

/// The code ECCO gives to openings it does not name.
const CATCH_ALL: &str = "A00";

/// A move of the book: where it leads and how often it is chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// The named opening the game reaches with it.
    pub opening: Opening,
    /// Its share among the moves of the position (any positive scale).
    pub weight: f64,
}

/// The book moves after `moves` (played from the initial position, Red first), in ICCS
/// order; empty past [`BOOK_PLIES`] or when no move continues a named line. An error names
/// the first illegal move of `moves`.
pub fn book_moves(moves: &[Move]) -> Result<Vec<BookMove>, OpeningError> {
    if moves.len() >= BOOK_PLIES {
        return Ok(Vec::new());
    }
    let current = super::classify(moves)?;
    let below: Option<Vec<&str>> =
        current.map(|o| lines_below(o.code).iter().map(|o| o.code).collect());
    let continues_a_line = |opening: &Opening| {
        opening.named
            && opening.code != CATCH_ALL
            && below
                .as_ref()
                .is_none_or(|codes| codes.contains(&opening.code))
    };
    let mut out: Vec<BookMove> = continuations(moves)?
        .into_iter()
        .filter(|c| continues_a_line(&c.opening))
        .map(|c| BookMove {
            mv: c.mv,
            opening: c.opening,
            weight: weight_of(c.opening.code),
        })
        .collect();
    if let Some(current) = current {
        for (mv, weight) in moves_on_the_way(moves, current.code) {
            if !out.iter().any(|b| b.mv == mv) {
                out.push(BookMove {
                    mv,
                    opening: current,
                    weight,
                });
            }
        }
    }
    out.sort_by_key(|b| b.mv.to_string());
    Ok(out)
}

/// The legal moves of the side to move after `moves` (legal, at `code`) that a step between
/// the codes below `code` still needs, each weighted by the best named code it leads to.
fn moves_on_the_way(moves: &[Move], code: &str) -> Vec<(Move, f64)> {
    let t = table();
    let Some(at) = t.position(code) else {
        return Vec::new();
    };
    let mut pos = Position::startpos();
    for &m in moves {
        pos.make_move(m);
    }
    // The table reads games whose first move is on the left half turned over.
    let left_first = moves.first().is_some_and(|m| m.from().file() < 4);
    let turn = |m: Move| if left_first { mirrored(m) } else { m };
    let side = moves.len() % 2;
    let played: Vec<Move> = moves
        .iter()
        .skip(side)
        .step_by(2)
        .map(|&m| turn(m))
        .collect();
    let unmet =
        |need: &&Need| played.len() < need.within && !played.iter().any(|m| need.moves.contains(m));
    let mut out: Vec<(Move, f64)> = Vec::new();
    let mut below = vec![false; t.entries.len()];
    below[at] = true;
    for o in lines_below(code) {
        if let Some(i) = t.position(o.code) {
            below[i] = true;
        }
    }
    for step in t
        .steps
        .iter()
        .filter(|s| s.parent.is_some_and(|p| below[p]))
    {
        let child = opening_at(step.child);
        if !child.named {
            continue;
        }
        let needs = if side == 0 { &step.red } else { &step.black };
        let weight = weight_of(child.code);
        for need in needs.iter().filter(unmet) {
            for &m in &need.moves {
                let mv = turn(m);
                if !pos.is_legal(mv) {
                    continue;
                }
                match out.iter_mut().find(|(o, _)| *o == mv) {
                    Some((_, w)) => *w = w.max(weight),
                    None => out.push((mv, weight)),
                }
            }
        }
    }
    out
}

/// The ECCO book as the engine's learner levels open from it (see `xiangqi_engine::book`).
#[derive(Clone, Copy, Debug, Default)]
pub struct EccoBook;

impl OpeningBook for EccoBook {
    fn moves(&self, moves: &[Move]) -> Vec<BookEntry> {
        book_moves(moves)
            .unwrap_or_default()
            .into_iter()
            .map(|b| BookEntry {
                mv: b.mv,
                weight: b.weight,
            })
            .collect()
    }
}

/// The weight of a move reaching `code`: the square root of one plus the codes below it.
fn weight_of(code: &str) -> f64 {
    ((1 + lines_below(code).len()) as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::classify;
    use xiangqi_rules::Position;

    fn line(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect()
    }

    /// Every book move, from the start and after each book move, down to `plies`.
    fn walk(moves: &mut Vec<Move>, plies: usize, visit: &mut dyn FnMut(&[Move], &BookMove)) {
        if moves.len() >= plies {
            return;
        }
        for b in book_moves(moves).unwrap() {
            visit(moves, &b);
            moves.push(b.mv);
            walk(moves, plies, visit);
            moves.pop();
        }
    }

    #[test]
    fn every_book_move_is_legal_and_names_the_opening_it_reaches() {
        let mut seen = 0;
        walk(&mut Vec::new(), 3, &mut |moves, b| {
            let mut pos = Position::startpos();
            for &m in moves {
                pos.make_move(m);
            }
            assert!(pos.is_legal(b.mv), "{b:?} after {moves:?}");
            let mut after = moves.to_vec();
            after.push(b.mv);
            let reached = classify(&after).unwrap().unwrap();
            assert!(reached.named && reached.code != CATCH_ALL, "{reached}");
            // The move reaches a code below the game's, or stays on its way to one.
            if let Some(before) = classify(moves).unwrap() {
                let below = lines_below(before.code);
                assert!(
                    reached == before || below.contains(&reached),
                    "{b:?} after {moves:?} leaves {before} for {reached}"
                );
            }
            assert!(b.weight >= 1.0);
            seen += 1;
        });
        assert!(
            seen > 100,
            "only {seen} book moves in the first three plies"
        );
    }

    #[test]
    fn the_start_offers_the_main_families_and_weighs_the_central_cannon_most() {
        let start = book_moves(&[]).unwrap();
        let weight = |m: &str| {
            start
                .iter()
                .find(|b| b.mv.to_string() == m)
                .map(|b| b.weight)
        };
        // 炮二平五, 兵七进一, 相三进五, 马二进三: all in the book.
        for m in ["h2e2", "c3c4", "g0e2", "h0g2"] {
            assert!(weight(m).is_some(), "{m} missing from {start:?}");
        }
        assert!(weight("h2e2") > weight("c3c4"));
        assert!(weight("c3c4") > weight("h0g2"));
        // 兵九进一 opens a named code too, but 车九进一 is no ECCO opening.
        assert_eq!(weight("a0a1"), None);
    }

    #[test]
    fn black_answers_the_central_cannon_with_named_defences() {
        let replies: Vec<String> = book_moves(&line("h2e2"))
            .unwrap()
            .iter()
            .map(|b| b.mv.to_string())
            .collect();
        // 马８进７ (屏风马 or 反宫马 later), 炮８平５ (顺炮), 炮２平５ (列炮).
        for m in ["h9g7", "h7e7", "b7e7"] {
            assert!(replies.contains(&m.to_string()), "{m} not in {replies:?}");
        }
    }

    #[test]
    fn the_book_ends_after_eight_moves_each_and_refuses_illegal_moves() {
        let moves =
            line("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 h0h6 c6c5 h6g6 b7a7 b0c2 f9e8 c0a2 a7a8");
        assert_eq!(moves.len(), BOOK_PLIES);
        assert!(book_moves(&moves).unwrap().is_empty());
        // The book follows this line of the central cannon against the screen horses.
        for n in 0..9 {
            let book = book_moves(&moves[..n]).unwrap();
            assert!(book.iter().any(|b| b.mv == moves[n]), "ply {n}: {book:?}");
        }
        assert!(matches!(
            book_moves(&line("h2e2 h2h3")),
            Err(OpeningError::IllegalMove { ply: 1, .. })
        ));
    }
}
