//! The review's classes measured on real games: each game of the PGN files given is reviewed
//! and the moves counted by class, under the rule in force ([`review::model::judge`]) and
//! under the earlier one (every move the engine did not choose classed by its loss alone, the
//! engine's own `best`, `excellent` shown as `!`, and best, excellent and good all written
//! `$1` in PGN), with each side's accuracy.
//!
//! `cargo run --release -p xiangqi-teaching --example review_calibration -- MILLIS FILE...`

use std::time::Duration;
use xiangqi_records::pgn;
use xiangqi_rules::Color;
use xiangqi_teaching::review::{self, Class, MoveReview, ReviewLimits, model};

/// A move's class and accuracy under the earlier rule.
fn earlier(m: &MoveReview) -> (Class, f64) {
    let loss = model::expected_loss(m.before, m.after);
    (
        model::classify(m.best == Some(m.played), loss),
        model::move_accuracy(loss),
    )
}

fn index(class: Class) -> usize {
    Class::ALL.iter().position(|&c| c == class).unwrap_or(0)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let millis: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .expect("usage: review_calibration MILLIS FILE...");
    let limits = ReviewLimits {
        movetime: Some(Duration::from_millis(millis)),
        depth: None,
    };
    let engine = review::review_engine();
    // Every judged move, one a line, to the file named by REVIEW_CALIBRATION_MOVES.
    let mut dump = std::env::var_os("REVIEW_CALIBRATION_MOVES")
        .map(|path| std::fs::File::create(path).expect("writable file"));
    let mut now = [0usize; 7];
    let mut before = [0usize; 7];
    let (mut games, mut moves, mut old_pgn_marks) = (0, 0, 0);
    let mut only_per_game = Vec::new();
    println!(
        "game\tmoves\tresult\t! now\t! before (UI)\t$1 before (PGN)\tloser's accuracy now/before\tloser's ?/?? now/before"
    );
    for file in args {
        let text = std::fs::read_to_string(&file).expect("readable PGN");
        for game in pgn::read_str(&text).expect("PGN") {
            let line: Vec<_> = game.mainline().collect();
            let reviewed =
                match review::review(&engine, &game.start, &line, limits, None, &mut |_, _| {}) {
                    Ok(r) => r,
                    Err(e) => {
                        eprintln!("{file}: {e}");
                        continue;
                    }
                };
            games += 1;
            moves += reviewed.moves.len();
            let mut only = 0;
            let mut old_excellent = 0;
            let mut old_marks = 0;
            for m in &reviewed.moves {
                if let Some(out) = &mut dump {
                    use std::io::Write;
                    let _ = writeln!(
                        out,
                        "{file}\t{}\t{:?}\t{}\t{}\t{}\t{}\t{:.4}\t{}",
                        m.number,
                        m.mover(),
                        m.before,
                        m.after,
                        m.best == Some(m.played),
                        m.alternative.map_or("-".to_string(), |a| a.to_string()),
                        m.loss,
                        m.class
                    );
                }
                now[index(m.class)] += 1;
                let (old, _) = earlier(m);
                before[index(old)] += 1;
                only += usize::from(m.class == Class::Only);
                old_excellent += usize::from(old == Class::Excellent);
                old_marks += usize::from(old <= Class::Good);
            }
            old_pgn_marks += old_marks;
            only_per_game.push(only);
            let result = game.result.map_or("*".to_string(), |r| r.to_string());
            let loser = game.result.and_then(|r| r.winner()).map(|w| w.opponent());
            let loser_text = match loser {
                Some(side) => {
                    let mine: Vec<&MoveReview> = reviewed
                        .moves
                        .iter()
                        .filter(|m| m.mover() == side)
                        .collect();
                    let old_accuracy =
                        mine.iter().map(|m| earlier(m).1).sum::<f64>() / mine.len().max(1) as f64;
                    let bad_now = mine.iter().filter(|m| m.class >= Class::Mistake).count();
                    let bad_before = mine
                        .iter()
                        .filter(|m| earlier(m).0 >= Class::Mistake)
                        .count();
                    format!(
                        "{:.1}% / {old_accuracy:.1}%\t{bad_now} / {bad_before}",
                        reviewed.summary(side).accuracy
                    )
                }
                None => "-\t-".to_string(),
            };
            let name = std::path::Path::new(&file)
                .file_name()
                .map_or(file.clone(), |n| n.to_string_lossy().into_owned());
            println!(
                "{name}\t{}\t{result}\t{only}\t{old_excellent}\t{old_marks}\t{loser_text}",
                reviewed.moves.len()
            );
            for side in Color::ALL {
                eprintln!("  {name} {side:?}: {}", reviewed.summary(side));
            }
        }
    }
    println!();
    println!("{games} games, {moves} moves, {millis} ms a position");
    let share = |n: usize| 100.0 * n as f64 / moves.max(1) as f64;
    println!("class\tnow\tbefore");
    for class in Class::ALL {
        println!(
            "{class}\t{} ({:.1}%)\t{} ({:.1}%)",
            now[index(class)],
            share(now[index(class)]),
            before[index(class)],
            share(before[index(class)])
        );
    }
    let most = only_per_game.iter().max().copied().unwrap_or(0);
    println!(
        "'!' per game now: {:.2} (at most {most}); before: {:.2} in the page (excellent), {:.2} as $1 in PGN",
        now[index(Class::Only)] as f64 / games.max(1) as f64,
        before[index(Class::Excellent)] as f64 / games.max(1) as f64,
        old_pgn_marks as f64 / games.max(1) as f64
    );
}
