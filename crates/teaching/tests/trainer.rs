//! The opening trainer's lines and walk: every move of every branch legal and classified
//! inside its line's ECCO codes, the end of every branch a sound position by the engine's
//! look, and the walk along a line (on it, off it, the app's replies, refusals).

use xiangqi_engine::score::Reported;
use xiangqi_engine::{Engine, EngineOptions, SearchLimits, SearchRequest};
use xiangqi_rules::{Color, Move, Position};
use xiangqi_teaching::Lang;
use xiangqi_teaching::openings::trainer::walk::{self, following, opening_moves};
use xiangqi_teaching::openings::trainer::{Step, WalkError, line, lines};
use xiangqi_teaching::openings::{classify, lines_below};

fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| m.parse().unwrap_or_else(|e| panic!("{m}: {e}")))
        .collect()
}

#[test]
fn the_catalogue_names_the_main_openings_in_three_languages() {
    let all = lines();
    assert!(all.len() >= 10, "only {} lines", all.len());
    for l in all {
        for lang in Lang::ALL {
            assert!(
                !l.name(lang).trim().is_empty(),
                "{} has no {lang} name",
                l.id
            );
        }
        assert!(
            l.branches.len() >= 2,
            "{} has no branch beside its main line",
            l.id
        );
    }
    let screen = line("screen-horses").expect("the screen horses line");
    assert_eq!(screen.name(Lang::Zh), "中炮对屏风马");
    assert_eq!(screen.name(Lang::En), "Central Cannon vs Screen Horses");
    for zh in [
        "中炮对反宫马",
        "顺炮局",
        "列炮局",
        "仙人指路对卒底炮",
        "飞相局",
        "起马局",
        "过宫炮局",
    ] {
        assert!(all.iter().any(|l| l.name(Lang::Zh) == zh), "no line {zh}");
    }
}

#[test]
fn every_move_is_legal_and_every_branch_stays_inside_its_codes() {
    for l in lines() {
        for b in &l.branches {
            let mut pos = Position::startpos();
            for (ply, &m) in b.moves.iter().enumerate() {
                assert!(
                    pos.is_legal(m),
                    "{}/{} ply {ply}: {m} is illegal",
                    l.id,
                    b.id
                );
                pos.make_move(m);
                let code = classify(&b.moves[..=ply]).unwrap().unwrap().code;
                // On the way to the line's codes, or inside them.
                let heads_there = lines_below(code).iter().any(|o| l.covers(o.code));
                assert!(
                    l.covers(code) || heads_there,
                    "{}/{} ply {ply} ({m}) is at {code}, off {}-{}",
                    l.id,
                    b.id,
                    l.first_code,
                    l.last_code
                );
            }
            let end = classify(&b.moves).unwrap().unwrap();
            assert!(l.covers(end.code), "{}/{} ends at {end}", l.id, b.id);
            assert!(
                end.named,
                "{}/{} ends at the unused code {}",
                l.id, b.id, end.code
            );
        }
    }
}

#[test]
fn each_branch_of_a_line_ends_in_its_own_code() {
    for l in lines() {
        let mut ends: Vec<&str> = l
            .branches
            .iter()
            .map(|b| classify(&b.moves).unwrap().unwrap().code)
            .collect();
        let count = ends.len();
        ends.sort_unstable();
        ends.dedup();
        assert_eq!(ends.len(), count, "{}: two branches end in one code", l.id);
    }
}

#[test]
fn no_branch_ends_in_a_lost_position() {
    let engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
        multipv: 1,
        ..EngineOptions::default()
    });
    let mut report = Vec::new();
    for l in lines() {
        for b in &l.branches {
            let mut pos = Position::startpos();
            for &m in &b.moves {
                pos.make_move(m);
            }
            engine.new_game();
            let request = SearchRequest::new(
                pos.clone(),
                SearchLimits {
                    depth: Some(7),
                    ..SearchLimits::default()
                },
            );
            let score = engine.think(&request, &mut |_| {}).score;
            let red = match score.for_red(pos.side_to_move()) {
                Reported::Cp(cp) => cp,
                Reported::Mate(n) => panic!("{}/{} ends in a mate ({n})", l.id, b.id),
            };
            report.push(format!("{}/{}: {red}", l.id, b.id));
            // Neither side is a piece down: within two and a half pawns of level (a horse or
            // cannon is worth four and more; the networks' scores of these branches reach 210).
            assert!(
                red.abs() <= 250,
                "{}/{} ends at {red} cp for Red",
                l.id,
                b.id
            );
        }
    }
    println!("{}", report.join("\n"));
}

/// Ranks no branch above another: the line's order decides.
fn no_rank(_: &xiangqi_teaching::openings::trainer::Branch) -> u64 {
    0
}

#[test]
fn as_black_the_app_opens_and_answers_along_the_trained_branch_to_its_end() {
    let l = line("screen-horses").unwrap();
    let trained = l.branch("left-horse-river").unwrap();
    let mut played = opening_moves(trained, Color::Black);
    assert_eq!(played, trained.moves[..1]);
    while played.len() < trained.moves.len() {
        let mv = trained.moves[played.len()];
        let step = walk::step(l, Color::Black, trained, &played, mv, &no_rank).unwrap();
        let Step::OnLine {
            branch,
            reply,
            done,
        } = step
        else {
            panic!("{mv} after {played:?} is off the line");
        };
        assert_eq!(branch.id, trained.id);
        played.push(mv);
        if let Some(reply) = reply {
            assert_eq!(reply, trained.moves[played.len()]);
            played.push(reply);
        }
        assert_eq!(done, played.len() == trained.moves.len());
    }
    assert!(matches!(
        walk::step(
            l,
            Color::Black,
            trained,
            &played,
            "a6a5".parse().unwrap(),
            &no_rank
        ),
        Err(WalkError::NotYourTurn | WalkError::LineOver)
    ));
}

#[test]
fn a_move_off_the_line_is_named_with_the_main_move() {
    let l = line("screen-horses").unwrap();
    let trained = l.main();
    // After 炮二平五, Black answers 炮８平５ (the same direction cannons) instead of 马８进７.
    let played = moves("h2e2");
    let step = walk::step(
        l,
        Color::Black,
        trained,
        &played,
        "h7e7".parse().unwrap(),
        &no_rank,
    );
    let Ok(Step::OffLine(deviation)) = step else {
        panic!("h7e7 is not named off the line: {step:?}");
    };
    assert_eq!(deviation.ply, 1);
    assert_eq!(deviation.played.to_string(), "h7e7");
    assert_eq!(deviation.main.to_string(), "h9g7");
    assert_eq!(deviation.branch.id, trained.id);
}

#[test]
fn a_move_of_another_branch_switches_to_it_and_the_app_prefers_the_trained_one() {
    let l = line("screen-horses").unwrap();
    let main = l.main();
    let advisor = l.branch("advisor").unwrap();
    // Black's tenth ply: 士４进５ is the advisor branch's move, not the main line's.
    let before = &advisor.moves[..9];
    let step = walk::step(l, Color::Black, main, before, advisor.moves[9], &no_rank).unwrap();
    let Step::OnLine { branch, reply, .. } = step else {
        panic!("the advisor branch's move is off the line");
    };
    assert_eq!(branch.id, "advisor");
    assert_eq!(reply, Some(advisor.moves[10]));
    // As Red, where Black's branches part, the app plays the trained branch's move, or the
    // one the schedule ranks first.
    let river = l.branch("left-horse-river").unwrap();
    let before = &main.moves[..8];
    let answer = |trained, rank: &dyn Fn(&xiangqi_teaching::openings::trainer::Branch) -> u64| {
        match walk::step(l, Color::Red, trained, before, main.moves[8], rank).unwrap() {
            Step::OnLine { reply, .. } => reply.unwrap(),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(answer(river, &no_rank), river.moves[9]);
    assert_eq!(answer(main, &no_rank), main.moves[9]);
}

#[test]
fn requests_that_do_not_fit_the_line_are_refused() {
    let l = line("screen-horses").unwrap();
    let main = l.main();
    let h9g7: Move = "h9g7".parse().unwrap();
    // Moves sent that already left the line.
    assert_eq!(
        walk::step(
            l,
            Color::Black,
            main,
            &moves("h2e2 h7e7 h0g2"),
            h9g7,
            &no_rank
        ),
        Err(WalkError::OffTheLine { ply: 1 })
    );
    // Red to move, but the learner plays Black.
    assert_eq!(
        walk::step(
            l,
            Color::Black,
            main,
            &[],
            "h2e2".parse().unwrap(),
            &no_rank
        ),
        Err(WalkError::NotYourTurn)
    );
    // An illegal move: a horse cannot jump three points.
    assert!(matches!(
        walk::step(
            l,
            Color::Black,
            main,
            &moves("h2e2"),
            "h9h6".parse().unwrap(),
            &no_rank
        ),
        Err(WalkError::IllegalMove { ply: 1, .. })
    ));
    assert!(walk::branch(l, "no-such-branch").is_err());
    assert!(following(l, &moves("h2e2 h9g7")).len() == l.branches.len());
}
