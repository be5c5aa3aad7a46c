//! The endgame course against the exact tables (generated once for the run): every
//! position's result and distance as its file says, the app's defence and attack as the
//! table's best, the learner's moves judged, and the texts in the house words.

use std::path::PathBuf;
use std::sync::OnceLock;
use xiangqi_egtb::{Asian, Ending, Options, Tablebases, Value, generate};
use xiangqi_rules::{Move, Position};
use xiangqi_teaching::endgames::{
    Goal, Status, Verdict, app_move, endgame, endgames, load_endgames, mate_in, natural_key, play,
    tries_left,
};
use xiangqi_teaching::words::problems;
use xiangqi_teaching::{Lang, Text};

/// The tables of every ending of the course, generated once for the whole run.
fn tables() -> &'static Tablebases {
    static TABLES: OnceLock<Tablebases> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("endgame-course-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut endings: Vec<Ending> = Vec::new();
        for e in endgames().unwrap() {
            let m = e.material().unwrap();
            if !endings.contains(&m) {
                endings.push(m);
            }
        }
        generate(&endings, &dir, &Options::default(), &mut |_| {}).unwrap();
        Tablebases::open(&dir).unwrap()
    })
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

#[test]
fn the_course_has_twenty_endings_or_more_each_complete() {
    let all = load_endgames().unwrap_or_else(|e| panic!("{e}"));
    assert!(all.len() >= 20, "{}", all.len());
    let mut ids: Vec<&str> = all.iter().map(|e| e.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "ids are unique");
    for e in &all {
        let ending = e.material().unwrap_or_else(|err| panic!("{}: {err}", e.id));
        assert!(!e.pages.is_empty(), "{}: a page on the plan", e.id);
        assert!(!e.positions.is_empty(), "{}: positions", e.id);
        assert!(
            e.chinese
                .chars()
                .all(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{}: {}",
            e.id,
            e.chinese
        );
        for p in &e.positions {
            let position = pos(&p.fen);
            let (of, _) = Ending::of_position(&position);
            assert_eq!(of, ending, "{}: {}", e.id, p.fen);
            // The learner has the stronger side to win and the weaker to hold.
            let strong = ending.side(position.side_to_move()) == ending.strong();
            assert_eq!(strong, e.goal == Goal::Win, "{}: {}", e.id, p.fen);
            assert!(p.limit > 0);
            assert_eq!(p.mate_in.is_some(), e.goal == Goal::Win, "{}", e.id);
            if let Some(n) = p.mate_in {
                assert!(p.limit >= n, "{}: a limit below the mate", e.id);
            }
        }
    }
}

#[test]
fn every_position_has_the_result_and_distance_its_file_says() {
    let t = tables();
    let mut checked = 0;
    for e in endgames().unwrap() {
        for p in &e.positions {
            let (value, asian) = t.lookup(&pos(&p.fen)).unwrap();
            match e.goal {
                Goal::Win => {
                    assert!(
                        matches!(value, Value::Win(_)),
                        "{} {}: {value}",
                        e.id,
                        p.fen
                    );
                    assert_eq!(mate_in(value), p.mate_in, "{} {}: {value}", e.id, p.fen);
                }
                Goal::Draw => {
                    assert_eq!(value, Value::Draw, "{} {}", e.id, p.fen);
                    // Drawn under the Asian rules too: the learner holds without checking.
                    assert_eq!(asian, Asian::Same, "{} {}", e.id, p.fen);
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 24, "{checked}");
}

#[test]
fn the_texts_keep_the_glossary_and_the_chinese_punctuation() {
    let mut found = Vec::new();
    for e in endgames().unwrap() {
        let mut texts: Vec<(String, &Text)> = vec![("title".into(), &e.title)];
        for (i, page) in e.pages.iter().enumerate() {
            texts.push((format!("page {}", i + 1), &page.text));
        }
        for (place, text) in texts {
            for lang in [Lang::En, Lang::Ru, Lang::Zh] {
                assert!(!text.get(lang).trim().is_empty(), "{} {place} {lang}", e.id);
            }
            for lang in [Lang::Ru, Lang::Zh] {
                for problem in problems(lang, text.get(lang)) {
                    found.push(format!("{} {place} ({lang}): {problem}", e.id));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// Plays the table's best move (the most natural of the best) for the learner until the
/// attempt ends; returns the attempt's moves.
fn best_line(fen: &str, goal: Goal, limit: u16) -> Vec<Move> {
    let t = tables();
    let mut moves = Vec::new();
    loop {
        let attempt = play(t, fen, goal, limit, &moves).unwrap();
        if attempt.status != Status::Playing {
            return moves;
        }
        let probe = t.probe(&attempt.position).unwrap();
        let best = probe.moves[0].value;
        let choice = probe
            .moves
            .iter()
            .filter(|m| m.value == best)
            .min_by_key(|m| natural_key(&attempt.position, m.mv))
            .unwrap();
        moves.push(choice.mv);
    }
}

#[test]
fn the_best_moves_mate_in_exactly_the_recorded_number_against_the_longest_defence() {
    let t = tables();
    for e in endgames().unwrap().iter().filter(|e| e.goal == Goal::Win) {
        for p in &e.positions {
            let moves = best_line(&p.fen, e.goal, p.limit);
            let attempt = play(t, &p.fen, e.goal, p.limit, &moves).unwrap();
            assert_eq!(attempt.status, Status::Won, "{} {}", e.id, p.fen);
            assert_eq!(attempt.moves_used() as u16, p.mate_in.unwrap(), "{}", e.id);
            assert!(attempt.steps.iter().all(|s| s.verdict == Verdict::Best));
            // Every reply was the longest resistance the table knows.
            for s in &attempt.steps {
                let Some(reply) = s.reply else { continue };
                let after = s.position.after(s.mv);
                let probe = t.probe(&after).unwrap();
                let longest = probe.moves[0].value;
                let played = probe.moves.iter().find(|m| m.mv == reply).unwrap();
                assert_eq!(played.value, longest, "{} after {}", e.id, s.mv);
            }
        }
    }
}

#[test]
fn a_drawn_ending_held_with_the_tables_moves_reaches_its_limit() {
    let t = tables();
    for e in endgames().unwrap().iter().filter(|e| e.goal == Goal::Draw) {
        for p in &e.positions {
            let moves = best_line(&p.fen, e.goal, p.limit);
            let attempt = play(t, &p.fen, e.goal, p.limit, &moves).unwrap();
            assert_eq!(attempt.status, Status::Held, "{} {}", e.id, p.fen);
            assert_eq!(attempt.moves_used(), p.limit as usize);
            assert!(attempt.steps.iter().all(|s| s.verdict == Verdict::Held));
            assert_eq!(attempt.now, Value::Draw);
        }
    }
}

#[test]
fn a_slip_is_named_with_the_winning_move() {
    let t = tables();
    let e = endgame("chariot-full-guard-win").unwrap();
    let fen = &e.positions[0].fen;
    // A move the table calls a draw lets the win go; the verdict names a winning move.
    let probe = t.probe(&pos(fen)).unwrap();
    let slip = probe
        .moves
        .iter()
        .find(|m| m.value == Value::Draw)
        .expect("a move that lets the guard hold");
    let attempt = play(t, fen, Goal::Win, e.positions[0].limit, &[slip.mv]).unwrap();
    let step = &attempt.steps[0];
    assert_eq!(step.verdict, Verdict::Slipped);
    assert_eq!(step.after, Value::Draw);
    assert!(matches!(step.before, Value::Win(_)));
    let named = probe.moves.iter().find(|m| m.mv == step.best).unwrap();
    assert_eq!(named.value, step.before, "the named move keeps the win");
    assert_eq!(attempt.now, Value::Draw);
    // A slower win is told apart from the best.
    let slower = probe
        .moves
        .iter()
        .find(|m| matches!(m.value, Value::Win(_)) && m.value != probe.value);
    if let Some(slower) = slower {
        let attempt = play(t, fen, Goal::Win, 20, &[slower.mv]).unwrap();
        assert_eq!(attempt.steps[0].verdict, Verdict::Slower);
    }
}

#[test]
fn a_losing_move_in_a_drawn_ending_is_named_and_the_app_then_mates() {
    let t = tables();
    let e = endgame("chariot-full-guard-draw").unwrap();
    let p = &e.positions[0];
    let probe = t.probe(&pos(&p.fen)).unwrap();
    let losing = probe
        .moves
        .iter()
        .find(|m| matches!(m.value, Value::Loss(_)))
        .expect("a move that breaks the guard");
    let mut moves = vec![losing.mv];
    let first = play(t, &p.fen, e.goal, p.limit, &moves).unwrap();
    assert_eq!(first.steps[0].verdict, Verdict::Lost);
    let held = probe
        .moves
        .iter()
        .find(|m| m.mv == first.steps[0].best)
        .unwrap();
    assert_eq!(held.value, Value::Draw, "the named move holds");
    // From here the learner keeps the longest resistance; the app mates or the limit comes
    // with the position lost by the table.
    let rest = best_line(&first.position.to_fen(), Goal::Draw, p.limit - 1);
    moves.extend(rest);
    let attempt = play(t, &p.fen, e.goal, p.limit, &moves).unwrap();
    assert_eq!(attempt.status, Status::Lost);
}

#[test]
fn the_apps_try_in_a_draw_leaves_the_fewest_holding_replies() {
    let t = tables();
    let e = endgame("chariot-full-guard-draw").unwrap();
    let p = &e.positions[0];
    // A holding move of the learner, then the app's try.
    let start = pos(&p.fen);
    let hold = t
        .probe(&start)
        .unwrap()
        .moves
        .into_iter()
        .find(|m| m.value == Value::Draw)
        .unwrap();
    let after = start.after(hold.mv);
    let chosen = app_move(t, &after).unwrap().unwrap();
    assert_eq!(chosen.value, Value::Draw);
    let fewest = t
        .probe(&after)
        .unwrap()
        .moves
        .iter()
        .filter(|m| m.value == Value::Draw)
        .map(|m| tries_left(t, &after.after(m.mv)).unwrap())
        .min()
        .unwrap();
    assert_eq!(tries_left(t, &after.after(chosen.mv)).unwrap(), fewest);
}

#[test]
fn among_equal_moves_the_app_plays_the_most_natural() {
    // Black to move: the general's step to the palace centre before the step away from it,
    // another piece's move before the general's, a capture before all.
    let p = pos("4k4/9/9/9/9/9/9/9/9/3K5 b");
    assert!(natural_key(&p, mv("e9e8")) < natural_key(&p, mv("e9f9")));
    let p = pos("3k5/4a4/9/9/9/9/9/9/9/5K3 b");
    assert!(natural_key(&p, mv("e8f7")) < natural_key(&p, mv("d9d8")));
    let p = pos("3k5/3R5/9/9/9/9/9/9/9/5K3 b");
    assert!(natural_key(&p, mv("d9d8")) < natural_key(&p, mv("d9e9")));
    // The choice depends on the position only.
    let t = tables();
    let fen = "3aka3/9/9/9/9/9/9/9/9/R2K5 w";
    let first = play(t, fen, Goal::Win, 9, &[mv("a0a8")]).unwrap();
    let again = play(t, fen, Goal::Win, 9, &[mv("a0a8")]).unwrap();
    assert_eq!(first, again);
}

#[test]
fn illegal_moves_and_moves_after_the_end_are_refused() {
    let t = tables();
    let fen = "9/4k4/9/9/9/9/9/9/9/R2K5 w";
    let err = play(t, fen, Goal::Win, 5, &[mv("a0b1")]).unwrap_err();
    assert!(
        matches!(
            err,
            xiangqi_teaching::endgames::PlayError::Illegal { index: 0, .. }
        ),
        "{err}"
    );
    let line = best_line(fen, Goal::Win, 5);
    let mut longer = line.clone();
    longer.push(mv("d0d1"));
    let err = play(t, fen, Goal::Win, 5, &longer).unwrap_err();
    assert!(
        matches!(err, xiangqi_teaching::endgames::PlayError::Over { index } if index == line.len()),
        "{err}"
    );
    // Out of moves: the limit passes without mate.
    let attempt = play(t, fen, Goal::Win, 1, &[mv("a0a1")]).unwrap();
    assert_eq!(attempt.status, Status::OutOfMoves);
}

/// The kind of a result, without its distance: a plan's move may be slower than the best,
/// never worse.
fn kind(value: Value) -> u8 {
    match value {
        Value::Win(_) => 2,
        Value::Draw => 1,
        Value::Loss(_) => 0,
    }
}

#[test]
fn every_plan_is_in_steps_whose_arrows_keep_the_result_by_the_tables() {
    let t = tables();
    let mut arrows = 0;
    for e in endgames().unwrap() {
        // An overview, then at least two steps, each shown by an arrow.
        assert!(e.pages.len() >= 3, "{}: a plan in steps", e.id);
        for (i, page) in e.pages.iter().enumerate().skip(1) {
            assert!(!page.arrows.is_empty(), "{} page {}: an arrow", e.id, i + 1);
        }
        for (i, page) in e.pages.iter().enumerate() {
            let position = pos(&page.fen);
            if page.arrows.is_empty() {
                continue;
            }
            assert!(t.covers(&position), "{} page {}: {}", e.id, i + 1, page.fen);
            let probe = t.probe(&position).unwrap();
            for [from, to] in &page.arrows {
                let m = mv(&format!("{from}{to}"));
                let played = probe.moves.iter().find(|v| v.mv == m);
                let played = played.unwrap_or_else(|| panic!("{} page {}: {m}", e.id, i + 1));
                assert_eq!(
                    kind(played.value),
                    kind(probe.value),
                    "{} page {} ({}): {m} gives {} where the position is {}",
                    e.id,
                    i + 1,
                    page.fen,
                    played.value,
                    probe.value
                );
                arrows += 1;
            }
        }
    }
    assert!(arrows >= 48, "{arrows}");
}

#[test]
fn every_plan_page_reads_and_its_arrows_are_legal_moves_there() {
    for e in load_endgames().unwrap() {
        for (i, page) in e.pages.iter().enumerate() {
            let position = pos(&page.fen);
            for [from, to] in &page.arrows {
                let m = mv(&format!("{from}{to}"));
                assert!(position.is_legal(m), "{} page {}: {m}", e.id, i + 1);
            }
        }
    }
    // The chariot's plan ends with the mate it describes.
    let chariot = load_endgames()
        .unwrap()
        .into_iter()
        .find(|e| e.id == "chariot-general")
        .unwrap();
    assert!(chariot.pages.len() >= 3, "a plan in steps");
    let last = chariot.pages.last().unwrap();
    let [from, to] = &last.arrows[0];
    let after = pos(&last.fen).after(mv(&format!("{from}{to}")));
    assert!(matches!(
        after.status(),
        xiangqi_rules::GameStatus::Checkmate { .. }
    ));
}
