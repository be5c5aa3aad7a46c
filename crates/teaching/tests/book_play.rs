//! The learner levels opening from the ECCO book through the engine's book play: they open in
//! several named ways, and the check keeps the unsound named moves out.

use std::collections::BTreeMap;
use xiangqi_engine::book::{self, DRAWS, book_reply, is_sound, proposals};
use xiangqi_engine::levels::Level;
use xiangqi_engine::{Engine, EngineOptions, SearchLimits, SearchRequest};
use xiangqi_rules::{Move, Position};
use xiangqi_teaching::openings::book::{EccoBook, book_moves};
use xiangqi_teaching::openings::classify;

fn engine() -> Engine {
    Engine::new(EngineOptions::default())
}

fn request_at(moves: &[Move]) -> SearchRequest {
    let mut pos = Position::startpos();
    for &m in moves {
        pos.make_move(m);
    }
    SearchRequest::new(pos, SearchLimits::default())
}

/// The first move the level plays from the start with `seed`: the book's, or the level's own
/// search's.
fn first_move(engine: &mut Engine, level: Level, seed: u64) -> Move {
    let request = request_at(&[]);
    let proposals = proposals(&EccoBook, level, &Position::startpos(), &[], seed);
    book_reply(engine, &request, &proposals).unwrap_or_else(|| {
        engine.set_options(EngineOptions {
            level,
            ..EngineOptions::default()
        });
        engine.think(&request, &mut |_| {}).best_move.unwrap()
    })
}

#[test]
fn a_beginner_opens_in_several_named_ways() {
    let mut engine = engine();
    let mut firsts: BTreeMap<String, usize> = BTreeMap::new();
    for seed in 0..20 {
        let mv = first_move(&mut engine, Level::new(0), seed);
        let opening = classify(&[mv]).unwrap().unwrap();
        assert!(opening.named && opening.code != "A00", "{mv}: {opening}");
        *firsts.entry(mv.to_string()).or_default() += 1;
    }
    assert!(firsts.len() >= 3, "first moves over 20 games: {firsts:?}");
}

#[test]
fn the_same_seed_gives_the_same_opening_and_seeds_differ() {
    let start = Position::startpos();
    let level = Level::new(4);
    let a = proposals(&EccoBook, level, &start, &[], 7);
    assert_eq!(a.len(), DRAWS);
    assert!(a.iter().all(|m| a.iter().filter(|o| *o == m).count() == 1));
    assert_eq!(a, proposals(&EccoBook, level, &start, &[], 7));
    let all: Vec<_> = (0..20)
        .map(|s| proposals(&EccoBook, level, &start, &[], s))
        .collect();
    assert!(all.iter().any(|p| p[0] != a[0]));
    assert_ne!(book::seed_of("g1-ab12"), book::seed_of("g2-ab12"));
}

#[test]
fn the_check_passes_the_sound_book_moves_and_filters_the_rest() {
    let engine = engine();
    let request = request_at(&[]);
    let (passed, refused): (Vec<Move>, Vec<Move>) = book_moves(&[])
        .unwrap()
        .iter()
        .map(|b| b.mv)
        .partition(|&mv| is_sound(&engine, &request, mv));
    // 炮二平五, 兵七进一, 相三进五 and 马二进三 are sound first moves.
    for m in ["h2e2", "c3c4", "g0e2", "h0g2"] {
        assert!(passed.contains(&m.parse().unwrap()), "{m} refused");
    }
    // Not every named first move is: some fall short of the best by more than the margin
    // (with the built-in network, 炮二平三).
    assert!(
        !refused.is_empty(),
        "every named first move passed: {passed:?}"
    );
    // A learner level plays only the moves that passed, whatever the seed.
    for seed in 0..40 {
        let proposals = proposals(&EccoBook, Level::new(0), &Position::startpos(), &[], seed);
        if let Some(mv) = book_reply(&engine, &request, &proposals) {
            assert!(passed.contains(&mv), "seed {seed}: {mv}");
        }
    }
    // Black's answers to the central cannon pass or are filtered the same way.
    let moves = ["h2e2".parse().unwrap()];
    let request = request_at(&moves);
    let answers: Vec<Move> = book_moves(&moves)
        .unwrap()
        .iter()
        .map(|b| b.mv)
        .filter(|&mv| is_sound(&engine, &request, mv))
        .collect();
    // 马８进７ (toward 屏风马 or 反宫马) passes.
    assert!(answers.contains(&"h9g7".parse().unwrap()), "{answers:?}");
}
