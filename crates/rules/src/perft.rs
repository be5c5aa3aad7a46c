//! Perft: counting the leaves of the legal move tree, the standard test of move generation.

use crate::moves::Move;
use crate::position::Position;

/// Number of leaf positions `depth` plies below `pos` (1 at depth 0).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &m in moves.iter() {
        let undo = pos.make_move(m);
        total += perft(pos, depth - 1);
        pos.unmake_move(m, undo);
    }
    total
}

/// Leaf counts below each legal root move, in ICCS order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    moves.sort_by_key(|m| m.to_string());
    moves
        .into_iter()
        .map(|m| {
            let undo = pos.make_move(m);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake_move(m, undo);
            (m, n)
        })
        .collect()
}
