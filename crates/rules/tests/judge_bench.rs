//! How long judging takes: replaying a 300-ply game through [`Game`] (legality, mate and
//! stalemate, repetition detection, and a perpetual ruling at the end), and one call of the
//! search entry point [`judge_cycle`]. Run with
//! `cargo test --release -p xiangqi-rules --test judge_bench -- --ignored --nocapture`
//! (or `scripts/bench-judge`); the game figure must stay under a millisecond.

use std::time::Instant;
use xiangqi_rules::repetition::{judge_cycle, repetition_distance};
use xiangqi_rules::{Game, GameRules, Move, Position, RuleSet};

/// Plies per benchmark game.
const PLIES: usize = 300;

/// Time this thread has spent on a CPU, in nanoseconds (Linux), so that a busy machine does
/// not inflate the figures; wall-clock time elsewhere.
fn cpu_now() -> f64 {
    if let Ok(text) = std::fs::read_to_string("/proc/thread-self/schedstat")
        && let Some(ns) = text
            .split_whitespace()
            .next()
            .and_then(|t| t.parse::<u64>().ok())
    {
        return ns as f64 * 1e-9;
    }
    use std::sync::OnceLock;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

/// A move of the side to move that the same piece can take back on the next turn.
fn reversible_moves(pos: &Position) -> Vec<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&m| {
            pos.is_empty(m.to()) && {
                let after = pos.after(m);
                let mut back = after.clone();
                // Black (or Red) passes by any quiet move is not possible; test the return
                // directly in the position with the mover to move again.
                back.make_null_move();
                back.is_legal(Move::new(m.to(), m.from()))
            }
        })
        .collect()
}

/// A legal game of exactly `PLIES` plies, mostly quiet moves, that nothing ends before its
/// last ply, where a shuttle repeats the final position for the third time.
fn benchmark_game(seed: u64) -> Option<(Position, Vec<Move>)> {
    let mut rng = Rng::new(seed);
    let start = Position::startpos();
    let mut game = Game::new(start.clone());
    let prefix = PLIES - 8;
    while game.len() < prefix {
        let pos = game.position().clone();
        let legal = pos.legal_moves();
        let quiet: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| pos.is_empty(m.to()))
            .collect();
        let mut played = false;
        for _ in 0..20 {
            let m = if !quiet.is_empty() && rng.below(6) != 0 {
                quiet[rng.below(quiet.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            game.play(m).expect("a legal move");
            if game.is_over() {
                game.undo();
            } else {
                played = true;
                break;
            }
        }
        if !played {
            return None;
        }
    }
    let pos = game.position().clone();
    let mut moves = game.moves().to_vec();
    // The shuttle: one piece of each side steps out and back, twice.
    for _ in 0..20 {
        let ours = reversible_moves(&pos);
        if ours.is_empty() {
            return None;
        }
        let a = ours[rng.below(ours.len())];
        let after_a = pos.after(a);
        let theirs = reversible_moves(&after_a);
        if theirs.is_empty() {
            continue;
        }
        let b = theirs[rng.below(theirs.len())];
        let cycle = [
            a,
            b,
            Move::new(a.to(), a.from()),
            Move::new(b.to(), b.from()),
        ];
        let mut probe = pos.clone();
        let mut ok = true;
        for _ in 0..2 {
            for &m in &cycle {
                if !probe.is_legal(m) {
                    ok = false;
                    break;
                }
                probe.make_move(m);
            }
        }
        if ok {
            moves.extend(cycle);
            moves.extend(cycle);
            return Some((start, moves));
        }
    }
    None
}

#[test]
#[ignore = "benchmark: run with --ignored --nocapture in a release build"]
fn judging_a_300_ply_game_takes_under_a_millisecond() {
    let games: Vec<(Position, Vec<Move>)> = (1..2000u64)
        .filter_map(|s| benchmark_game(s.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1))
        .take(200)
        .collect();
    assert!(
        games.len() >= 100,
        "too few benchmark games: {}",
        games.len()
    );

    let mut judged = 0;
    let started = cpu_now();
    for (start, moves) in &games {
        let mut game = Game::with_rules(start.clone(), GameRules::new(RuleSet::Asian));
        for &m in moves {
            game.play(m).expect("a legal benchmark move");
        }
        if game.outcome().is_some_and(|o| o.ply == PLIES) {
            judged += 1;
        }
    }
    let per_game = (cpu_now() - started) / games.len() as f64;

    let cycles: Vec<(Position, Vec<Move>)> = games
        .iter()
        .map(|(start, moves)| {
            let mut pos = start.clone();
            for &m in &moves[..moves.len() - 4] {
                pos.make_move(m);
            }
            let mut keys = vec![pos.hash()];
            let cycle = moves[moves.len() - 4..].to_vec();
            for &m in &cycle {
                pos.make_move(m);
                keys.push(pos.hash());
            }
            assert_eq!(repetition_distance(&keys), Some(4));
            (pos, cycle)
        })
        .collect();
    let rounds = 20;
    let started = cpu_now();
    for _ in 0..rounds {
        for (pos, cycle) in &cycles {
            std::hint::black_box(judge_cycle(pos, cycle, RuleSet::Asian));
        }
    }
    let per_cycle = (cpu_now() - started) / (rounds * cycles.len()) as f64;

    println!(
        "judging a {PLIES}-ply game: {:.1} µs on average over {} games ({judged} ended by the \
         final repetition); judge_cycle on a 4-ply cycle: {:.2} µs",
        per_game * 1e6,
        games.len(),
        per_cycle * 1e6
    );
    if !cfg!(debug_assertions) {
        assert!(per_game < 1e-3, "{:.1} µs per game", per_game * 1e6);
    }
}
