//! Generates repetition cycles for cross-checking the perpetual rules (used by
//! `scripts/crosscheck-perpetual`).
//!
//! `cargo run --release -p xiangqi-rules --example perpetual_cycles -- [COUNT] [SEED]`
//! prints COUNT lines `fen<TAB>moves<TAB>result<TAB>reason`: a position (a random middlegame
//! reached from the start, or a random endgame) and a cycle repeated until the position
//! occurs a third time — a 4-ply shuttle (one piece of each side steps out and back) or an
//! 8-ply double shuttle (each side shuttles two pieces in turn) — with our Asian verdict.
//! Among the cycles a position offers, the generator prefers verdict kinds it has produced
//! least, and it keeps plain repetitions to about a third of the cases, so checks, chases,
//! mutual ones and plain repetitions all get their share.

use std::collections::HashMap;
use xiangqi_rules::{EndReason, Game, GameRules, Move, Piece, PieceKind, Position, Square};

#[path = "../tests/support/rng.rs"]
mod rng;
use rng::Rng;

fn quiet_moves(pos: &Position) -> Vec<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|m| pos.is_empty(m.to()))
        .collect()
}

fn back(m: Move) -> Move {
    Move::new(m.to(), m.from())
}

/// A random middlegame: 8 to 70 random moves from the start.
fn middlegame(rng: &mut Rng) -> Option<Position> {
    let mut pos = Position::startpos();
    for _ in 0..8 + rng.below(63) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.make_move(moves[rng.below(moves.len())]);
    }
    Position::from_fen(&fen_without_clocks(&pos)).ok()
}

fn fen_without_clocks(pos: &Position) -> String {
    let fen = pos.to_fen();
    let mut parts: Vec<&str> = fen.split(' ').collect();
    parts.truncate(4);
    format!("{} 0 1", parts.join(" "))
}

/// A random endgame: the generals and one to five more pieces a side.
fn endgame(rng: &mut Rng) -> Option<Position> {
    let kinds = [
        PieceKind::Chariot,
        PieceKind::Chariot,
        PieceKind::Horse,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Cannon,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Soldier,
        PieceKind::Soldier,
        PieceKind::Soldier,
    ];
    for _ in 0..200 {
        let mut board = [None::<Piece>; 90];
        for color in xiangqi_rules::Color::ALL {
            let general = Piece::new(color, PieceKind::General);
            let palace: Vec<Square> = Square::all()
                .filter(|&s| xiangqi_rules::fen::is_reachable(general, s))
                .collect();
            let sq = palace[rng.below(palace.len())];
            board[sq.index()] = Some(general);
            for _ in 0..1 + rng.below(5) {
                let piece = Piece::new(color, kinds[rng.below(kinds.len())]);
                let points: Vec<Square> = Square::all()
                    .filter(|&s| {
                        board[s.index()].is_none() && xiangqi_rules::fen::is_reachable(piece, s)
                    })
                    .collect();
                if !points.is_empty() {
                    board[points[rng.below(points.len())].index()] = Some(piece);
                }
            }
        }
        let mut fen = String::new();
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match board[rank * 9 + file] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if rng.below(2) == 0 { " w" } else { " b" });
        if let Ok(pos) = Position::from_fen(&fen)
            && !pos.legal_moves().is_empty()
        {
            return Some(pos);
        }
    }
    None
}

/// Whether `cycle`, played twice from `pos`, is legal, captures nothing and comes back.
fn valid(pos: &Position, cycle: &[Move]) -> bool {
    let mut p = pos.clone();
    for _ in 0..2 {
        for &m in cycle {
            if !p.is_legal(m) || !p.is_empty(m.to()) {
                return false;
            }
            p.make_move(m);
        }
    }
    p.hash() == pos.hash()
}

/// Our verdict on a case: the result, the reason, and the kind of ending as a key.
struct Ruling {
    result: String,
    reason: String,
    key: String,
}

/// Our verdict on `cycle` played twice from `pos`.
fn verdict(pos: &Position, cycle: &[Move]) -> Option<Ruling> {
    let mut game = Game::with_rules(pos.clone(), GameRules::default());
    for _ in 0..2 {
        for &m in cycle {
            game.play(m).ok()?;
        }
    }
    let o = game.outcome()?;
    if o.ply != 2 * cycle.len() {
        return None;
    }
    let key = match &o.reason {
        EndReason::Verdict(v) => v.kind.code().to_string(),
        other => other.code().to_string(),
    };
    Some(Ruling {
        result: o.result.to_string(),
        reason: o.reason.to_string(),
        key,
    })
}

/// Candidate cycles of `pos`: 4-ply shuttles, and some 8-ply double shuttles.
fn candidates(pos: &Position, rng: &mut Rng) -> Vec<Vec<Move>> {
    let mut out = Vec::new();
    let mut ours = quiet_moves(pos);
    if ours.is_empty() {
        return out;
    }
    // Shuffle, then try a bounded number of first moves and replies.
    for i in (1..ours.len()).rev() {
        ours.swap(i, rng.below(i + 1));
    }
    let mut shuttles = Vec::new();
    for &a in ours.iter().take(14) {
        let mid = pos.after(a);
        let mut theirs = quiet_moves(&mid);
        for i in (1..theirs.len()).rev() {
            theirs.swap(i, rng.below(i + 1));
        }
        for &b in theirs.iter().take(10) {
            let cycle = vec![a, b, back(a), back(b)];
            if valid(pos, &cycle) {
                shuttles.push(cycle);
            }
        }
    }
    for _ in 0..6 {
        if shuttles.len() < 2 {
            break;
        }
        let x = &shuttles[rng.below(shuttles.len())];
        let y = &shuttles[rng.below(shuttles.len())];
        if x[0].from() != y[0].from() && x[1].from() != y[1].from() {
            let cycle: Vec<Move> = x.iter().chain(y.iter()).copied().collect();
            if valid(pos, &cycle) {
                out.push(cycle);
            }
        }
    }
    out.extend(shuttles);
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1200);
    let seed: u64 = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_240_611);
    let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut produced: HashMap<String, usize> = HashMap::new();
    let mut made = 0;
    while made < count {
        let pos = if rng.below(2) == 0 {
            middlegame(&mut rng)
        } else {
            endgame(&mut rng)
        };
        let Some(pos) = pos else { continue };
        let mut best: Option<(usize, Vec<Move>, Ruling)> = None;
        for cycle in candidates(&pos, &mut rng) {
            let Some(v) = verdict(&pos, &cycle) else {
                continue;
            };
            let seen = produced.get(&v.key).copied().unwrap_or(0);
            if best.as_ref().is_none_or(|(s, _, _)| seen < *s) {
                best = Some((seen, cycle, v));
            }
        }
        let Some((
            _,
            cycle,
            Ruling {
                result,
                reason,
                key,
            },
        )) = best
        else {
            continue;
        };
        // Plain repetitions are what most positions offer; keep them to about a third.
        if key == "repetition" && 3 * produced.get(&key).copied().unwrap_or(0) > made {
            continue;
        }
        *produced.entry(key).or_default() += 1;
        let moves: Vec<String> = cycle
            .iter()
            .chain(cycle.iter())
            .map(|m| m.to_string())
            .collect();
        println!(
            "{}\t{}\t{result}\t{reason}",
            fen_without_clocks(&pos),
            moves.join(" ")
        );
        made += 1;
    }
}
