//! The search finds what it must: mates, material, the stalemate win, and stays legal under
//! every kind of limit.

use std::time::Duration;
use xiangqi_engine::score::Reported;
use xiangqi_engine::{Engine, EngineOptions, SearchLimits, SearchParams, SearchRequest};
use xiangqi_rules::{Move, Position};

fn mv(s: &str) -> Move {
    s.parse::<Move>().unwrap()
}

fn search(fen: &str, limits: SearchLimits) -> xiangqi_engine::SearchResult {
    search_with(SearchParams::default(), fen, limits)
}

fn search_with(
    search_params: SearchParams,
    fen: &str,
    limits: SearchLimits,
) -> xiangqi_engine::SearchResult {
    let engine = Engine::new(EngineOptions {
        search_params,
        ..EngineOptions::default()
    });
    let request = SearchRequest::new(Position::from_fen(fen).unwrap(), limits);
    engine.think(&request, &mut |_| {})
}

fn depth(d: i32) -> SearchLimits {
    SearchLimits {
        depth: Some(d),
        ..Default::default()
    }
}

#[test]
fn finds_mate_in_one() {
    let r = search("3k5/9/3P5/9/9/9/9/9/9/R3K4 w", depth(3));
    assert_eq!(r.best_move, Some(mv("a0a9")));
    assert_eq!(r.score, Reported::Mate(1));
}

/// Quiet checks at the leaves of the main search (`QsearchChecks` 2) see a mate in two a
/// one-ply search misses when its quiescence search tries only captures: the chariot's
/// check f1d1, the forced capture d6d1, and the cannon's quiet mate c1c0.
#[test]
fn quiet_checks_at_the_leaves_see_a_mate_in_two_at_depth_one() {
    let fen = "2bak1b2/4a4/9/pNNRp1p1p/9/2P6/9/2C1B1C2/2r2r3/3K3R1 b";
    let at_depth_one = |qsearch_checks| {
        let params = SearchParams {
            qsearch_checks,
            ..SearchParams::default()
        };
        search_with(params, fen, depth(1))
    };
    let with_checks = at_depth_one(2);
    assert_eq!(
        with_checks.score,
        Reported::Mate(2),
        "pv {:?}",
        with_checks.pv
    );
    assert_eq!(with_checks.best_move, Some(mv("f1d1")));
    let captures_only = at_depth_one(0);
    assert!(
        !matches!(captures_only.score, Reported::Mate(_)),
        "score {:?} pv {:?}",
        captures_only.score,
        captures_only.pv
    );
}

#[test]
fn two_chariots_mate_a_bare_general() {
    let r = search("4k4/9/9/9/9/9/9/9/R8/1R1K5 w", depth(9));
    assert!(
        matches!(r.score, Reported::Mate(n) if n > 0),
        "score {:?} pv {:?}",
        r.score,
        r.pv
    );
}

#[test]
fn stalemating_the_opponent_wins() {
    // Red's chariot can take e9 away from the general (d8 is the soldier's); then Black has
    // no move at all, and a side without moves loses.
    let r = search("3k5/9/3P5/9/9/9/9/9/9/R4K3 w", depth(4));
    assert_eq!(r.score, Reported::Mate(1), "pv {:?}", r.pv);
}

#[test]
fn takes_a_hanging_chariot() {
    let r = search(
        "rnbakabn1/9/1c5c1/p1p1p1p1p/9/8r/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        depth(4),
    );
    assert_eq!(r.best_move, Some(mv("i3i4")), "pv {:?}", r.pv);
}

#[test]
fn a_side_without_moves_has_no_best_move_and_a_lost_score() {
    // Stalemated: d8 is covered by the chariot and the soldier, e9 by the facing general.
    let stalemated = search("3k5/R8/3P5/9/9/9/9/9/9/4K4 b", depth(3));
    assert_eq!(stalemated.best_move, None);
    assert_eq!(stalemated.score, Reported::Mate(0));
    let mated = search("R2k5/9/3P5/9/9/9/9/9/9/4K4 b", depth(3));
    assert_eq!(mated.best_move, None);
    assert_eq!(mated.score, Reported::Mate(0));
}

#[test]
fn node_limit_is_respected_and_counts_are_repeatable() {
    let limits = SearchLimits {
        nodes: Some(20_000),
        ..Default::default()
    };
    let a = search(xiangqi_rules::START_FEN, limits.clone());
    let b = search(xiangqi_rules::START_FEN, limits);
    assert!(a.nodes <= 20_100, "{} nodes", a.nodes);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best_move, b.best_move);
}

#[test]
fn several_threads_agree_on_legality() {
    let engine = Engine::new(EngineOptions {
        threads: 2,
        ..Default::default()
    });
    let pos = Position::startpos();
    let request = SearchRequest::new(
        pos.clone(),
        SearchLimits {
            movetime: Some(Duration::from_millis(300)),
            ..Default::default()
        },
    );
    let r = engine.think(&request, &mut |_| {});
    assert!(pos.is_legal(r.best_move.unwrap()));
    assert!(r.depth >= 3);
}

#[test]
fn repetition_is_scored_as_a_draw() {
    // Red is a chariot down. Without history the search sees the deficit; after a shuttle that
    // returns to this position, stepping back into the shuttle repeats a position, which the
    // search scores as a draw.
    let start = Position::from_fen("3k5/9/9/9/9/9/9/9/r8/4K4 w").unwrap();
    let engine = Engine::new(EngineOptions::default());
    let fresh = engine.think(&SearchRequest::new(start.clone(), depth(6)), &mut |_| {});
    // Without history, e0f0 a1e1 leaves Red without a move, which loses.
    assert_eq!(fresh.score, Reported::Mate(-1), "pv {:?}", fresh.pv);

    let mut pos = start.clone();
    let mut history = Vec::new();
    for m in ["e0f0", "a1b1", "f0e0", "b1a1"] {
        history.push(pos.hash());
        pos.make_move(mv(m));
    }
    assert_eq!(pos.hash(), start.hash());
    engine.new_game();
    let request = SearchRequest {
        history,
        ..SearchRequest::new(pos, depth(6))
    };
    let r = engine.think(&request, &mut |_| {});
    assert_eq!(r.score, Reported::Cp(0), "pv {:?}", r.pv);
    assert_eq!(r.best_move, Some(mv("e0f0")));
}

#[test]
fn a_hash_table_too_large_for_memory_is_refused_and_the_old_one_kept() {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 2,
        ..EngineOptions::default()
    });
    // 2^40 MB is more than any machine has; 2^50 MB does not even fit in a byte count.
    for megabytes in [1 << 40, 1 << 50] {
        let err = engine.resize_hash(megabytes).expect_err("refused");
        assert_eq!(err.megabytes, megabytes);
        assert!(err.to_string().contains("cannot be allocated"), "{err}");
        assert_eq!(engine.options().hash_mb, 2, "the table keeps its size");
    }
    let request = SearchRequest::new(Position::startpos(), depth(4));
    let result = engine.think(&request, &mut |_| {});
    assert!(result.best_move.is_some(), "the engine still searches");
    engine.resize_hash(4).expect("a table that fits");
    assert_eq!(engine.options().hash_mb, 4);
}

#[test]
fn many_more_threads_than_cores_still_stop_on_the_clock() {
    // 256 threads on a machine with a few cores: every thread watches the clock and the main
    // thread searches while the helpers start, so the answer comes on time and is a searched
    // move, not the first move of the list.
    let engine = Engine::new(EngineOptions {
        threads: 256,
        ..Default::default()
    });
    for fen in [
        Position::startpos().to_fen(),
        "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w".to_string(),
    ] {
        let pos = Position::from_fen(&fen).unwrap();
        let request = SearchRequest::new(
            pos.clone(),
            SearchLimits {
                movetime: Some(Duration::from_millis(100)),
                ..Default::default()
            },
        );
        let start = std::time::Instant::now();
        let r = engine.think(&request, &mut |_| {});
        let took = start.elapsed();
        assert!(
            took < Duration::from_millis(1_500),
            "{fen}: answered after {took:?}"
        );
        assert!(r.depth >= 1, "{fen}: no iteration completed");
        assert!(pos.is_legal(r.best_move.unwrap()));
    }
}
