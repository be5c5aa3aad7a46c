//! The review with exact endgame tables (KRKA, generated for the run): a move that throws
//! the win away and one that lets the draw slip are blunders named with the exact results,
//! a slower win is not a mistake, and the table's best move and line replace the search.

use std::path::PathBuf;
use std::sync::OnceLock;
use xiangqi_egtb::{Ending, Options, Tablebases, Value, generate};
use xiangqi_engine::score::Reported;
use xiangqi_rules::{Move, Position};
use xiangqi_teaching::review::{
    self, Class, EndgameTables, Eval, Review, ReviewLimits, TableChange, TableJudgement,
};

fn tables() -> &'static Tablebases {
    static TABLES: OnceLock<Tablebases> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("review-tables-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        generate(
            &[Ending::parse("KRKA").unwrap()],
            &dir,
            &Options::default(),
            &mut |_| {},
        )
        .unwrap();
        Tablebases::open(&dir).unwrap()
    })
}

/// Chariot against one advisor: Red mates in 5 (9 plies).
const KRKA: &str = "9/9/3ak4/9/9/9/9/9/9/3K1R3 w - - 0 1";

fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect()
}

fn reviewed(line: &str, tables: Option<&dyn EndgameTables>) -> Review {
    let engine = review::review_engine();
    let limits = ReviewLimits {
        movetime: None,
        depth: Some(4),
    };
    review::review_until(
        &engine,
        &Position::from_fen(KRKA).unwrap(),
        &moves(line),
        limits,
        tables,
        &mut |_, _| {},
        &|| false,
    )
    .unwrap()
    .unwrap()
}

#[test]
fn a_move_that_throws_the_win_away_is_named_exactly() {
    // 2. Rf8?? lets the general take the chariot (the winning 2. Kd2 mates in 4); Black then
    // walks into the corner (2… Ke9??) instead of taking it.
    let review = reviewed("d0d1 e7e8 f0f8 e8e9", Some(tables()));
    let classes: Vec<Class> = review.moves.iter().map(|m| m.class).collect();
    assert_eq!(
        classes,
        [Class::Best, Class::Best, Class::Blunder, Class::Blunder]
    );

    let thrown = &review.moves[2];
    let exact = thrown.table.expect("judged by the table");
    assert_eq!(
        exact,
        TableJudgement {
            best: Value::Win(7),
            played: Value::Draw
        }
    );
    assert_eq!(exact.change(), TableChange::WinThrown);
    assert_eq!(
        exact.english().unwrap(),
        "this throws away the win: mate in 4 became a draw"
    );
    assert_eq!(thrown.before, Eval::Score(Reported::Mate(4)));
    assert_eq!(thrown.after, Eval::Score(Reported::Cp(0)));
    assert_eq!(thrown.loss, 0.5);
    assert_eq!(thrown.best, Some("d1d2".parse().unwrap()));
    // The table's line: the best move, then best play to the mate (7 plies).
    assert_eq!(thrown.best_line.len(), 7);
    assert_eq!(thrown.best_line[0], "d1d2".parse().unwrap());

    let slipped = review.moves[3].table.unwrap();
    assert_eq!(slipped.change(), TableChange::DrawSlipped);
    assert_eq!(
        slipped.english().unwrap(),
        "this lets the draw slip: now mated in 3"
    );
    // The best move was the capture of the chariot.
    assert_eq!(review.moves[3].best, Some("e8f8".parse().unwrap()));

    // Black's first move held out longest (1… Ae8 is mated in 2); both moves lose, so it is
    // best, not an only move.
    let longest = review.moves[1].table.unwrap();
    assert_eq!(
        (longest.best, longest.played),
        (Value::Loss(8), Value::Loss(8))
    );
}

#[test]
fn a_slower_win_is_not_a_mistake() {
    // 2. Kd0 still wins, but mates in 6 instead of 4.
    let review = reviewed("d0d1 e7e8 d1d0", Some(tables()));
    let slower = &review.moves[2];
    assert_eq!(slower.class, Class::Excellent);
    assert_eq!(slower.loss, 0.0);
    let exact = slower.table.unwrap();
    assert_eq!(exact.change(), TableChange::Slower);
    assert_eq!(exact.moves_given(), 2);
    assert_eq!(
        exact.english().unwrap(),
        "slower: mate in 6 instead of mate in 4"
    );
}

#[test]
fn without_tables_the_engine_judges() {
    let review = reviewed("d0d1 e7e8 f0f8 e8e9", None);
    assert!(review.moves.iter().all(|m| m.table.is_none()));
    // The engine sees the chariot lost too.
    assert!(review.moves[2].class >= Class::Mistake);
}
