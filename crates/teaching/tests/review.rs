//! Reviewing short games from set-up positions: a hung chariot is a blunder with its
//! refutation, a mate ends the review without a search, progress counts every move, and an
//! illegal move is named before any search.

use xiangqi_engine::score::Reported;
use xiangqi_rules::notation::Notation;
use xiangqi_rules::{Color, Move, Position};
use xiangqi_teaching::review::{
    self, Class, Consequence, Eval, IllegalMoveInGame, Review, ReviewLimits,
};

fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| m.parse().expect("ICCS move"))
        .collect()
}

fn limits() -> ReviewLimits {
    ReviewLimits {
        movetime: None,
        depth: Some(5),
    }
}

fn run(fen: &str, line: &str) -> (Result<Review, IllegalMoveInGame>, Vec<(usize, usize)>) {
    run_to(fen, line, limits())
}

/// As [`run`], with `limits`.
fn run_to(
    fen: &str,
    line: &str,
    limits: ReviewLimits,
) -> (Result<Review, IllegalMoveInGame>, Vec<(usize, usize)>) {
    let start = Position::from_fen(fen).expect("FEN");
    let engine = review::review_engine();
    let mut seen = Vec::new();
    let result = review::review(
        &engine,
        &start,
        &moves(line),
        limits,
        None,
        &mut |done, total| seen.push((done, total)),
    );
    (result, seen)
}

/// Chariot against chariot, Red's general guarded; Red puts its chariot on the h-file, where
/// Black's takes it.
const CHARIOTS: &str = "3k5/9/7r1/9/9/9/9/9/R8/2BAKAB2 w - - 0 1";

#[test]
fn a_hung_chariot_is_a_blunder_and_the_capture_explains_it() {
    let (result, progress) = run(CHARIOTS, "a1h1 h7h1");
    let review = result.expect("legal game");
    assert_eq!(progress, [(1, 2), (2, 2)]);
    let hang = &review.moves[0];
    assert_eq!(hang.mover(), Color::Red);
    assert_eq!(hang.class, Class::Blunder);
    assert!(hang.loss > 0.3, "loss {}", hang.loss);
    assert_ne!(hang.best, Some(hang.played));
    let refutation = hang
        .refutation
        .as_ref()
        .expect("a blunder has a refutation");
    assert_eq!(refutation.reply, "h7h1".parse().unwrap());
    assert!(
        matches!(
            refutation.consequence,
            Consequence::Material { net: 900.., .. }
        ),
        "{refutation:?}"
    );
    let after = review.position_before(1);
    assert_eq!(
        refutation.english(&after, Notation::Iccs),
        "after h7h1 the chariot on h1 falls"
    );
    // Taking the gift is the engine's own move.
    let take = &review.moves[1];
    assert_eq!(take.class, Class::Best);
    assert!(take.refutation.is_none());
    // The score after move 1 is the score before move 2, turned.
    assert_eq!(hang.after, take.before.flipped());
    let red = review.summary(Color::Red);
    assert_eq!((red.moves, red.count(Class::Blunder)), (1, 1));
    assert!(red.accuracy < 40.0, "accuracy {}", red.accuracy);
    let black = review.summary(Color::Black);
    assert_eq!(black.count(Class::Best), 1);
    // The engine's own move loses only what two depth-5 searches, before and after it, disagree
    // by: a few points of accuracy at most. (The second search starts from the evaluation
    // corrections the first one learned for the same advisors and elephants with a chariot
    // more on the board, so the two differ by some 30 cp of the 500 Black is up.)
    assert!(black.accuracy > 90.0, "accuracy {}", black.accuracy);
}

#[test]
fn a_mating_move_is_best_and_the_mated_position_is_not_searched() {
    let (result, progress) = run("4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1", "b7b9");
    let review = result.expect("legal game");
    assert_eq!(progress, [(1, 1)]);
    let mate = &review.moves[0];
    assert_eq!(mate.before, Eval::Score(Reported::Mate(1)));
    assert_eq!(mate.after, Eval::Won);
    assert_eq!(mate.class, Class::Best);
    assert!(mate.accuracy() > 99.99);
}

#[test]
fn a_set_up_position_with_black_to_move_numbers_from_black() {
    let (result, _) = run(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        "h9g7 h0g2",
    );
    let review = result.expect("legal game");
    let numbers: Vec<String> = review.moves.iter().map(|m| m.number.to_string()).collect();
    assert_eq!(numbers, ["1...", "2."]);
    assert_eq!(review.moves[0].mover(), Color::Black);
}

#[test]
fn an_illegal_move_is_named_before_any_search() {
    let (result, progress) = run(xiangqi_rules::START_FEN, "h2e2 h9g7 h2e2");
    let error = result.expect_err("the third move is illegal");
    assert_eq!(error.number.to_string(), "2.");
    assert_eq!(error.mv, "h2e2".parse().unwrap());
    assert!(error.to_string().starts_with("move 2. h2e2 is illegal: "));
    assert!(progress.is_empty());
}

#[test]
fn a_cancelled_review_stops_before_its_next_search() {
    let start = Position::from_fen(CHARIOTS).expect("FEN");
    let engine = review::review_engine();
    let mut seen = Vec::new();
    let cancelled = std::cell::Cell::new(false);
    let result = review::review_until(
        &engine,
        &start,
        &moves("a1h1 h7h1"),
        limits(),
        None,
        &mut |done, total| {
            seen.push((done, total));
            cancelled.set(true);
        },
        &|| cancelled.get(),
    );
    assert_eq!(result, Ok(None));
    assert_eq!(seen, [(1, 2)]);
    let whole = review::review_until(
        &engine,
        &start,
        &moves("a1h1 h7h1"),
        limits(),
        None,
        &mut |_, _| {},
        &|| false,
    );
    assert_eq!(whole.expect("legal game").map(|r| r.moves.len()), Some(2));
}

// The rule of the marks ([`review::model::judge`]) on set-up positions.

#[test]
fn a_routine_opening_move_is_no_only_move() {
    let (result, _) = run(xiangqi_rules::START_FEN, "h2e2 h9g7 h0g2 i9h9");
    let review = result.expect("legal game");
    for m in &review.moves {
        assert_ne!(m.class, Class::Only, "{} {}", m.number, m.played);
        assert!(m.class.nag() != Some(1), "{} {}", m.number, m.played);
    }
}

/// Black's chariot checks Red's general down the e-file; the general cannot go to f0, where
/// it would face Black's, so Red either steps to d0 or puts its chariot in the way on e2,
/// where it is taken for nothing.
const ONE_WAY_OUT: &str = "5k3/9/9/9/4r4/9/9/R8/9/4K4 w - - 0 1";

#[test]
fn the_one_good_move_among_bad_ones_is_an_only_move() {
    let (result, _) = run(ONE_WAY_OUT, "e0d0");
    let review = result.expect("legal game");
    let step = &review.moves[0];
    assert_eq!(step.best, Some(step.played));
    let other = step.alternative.expect("the other move was searched");
    assert!(
        step.before.expected_score() - other.expected_score() >= review::model::ONLY_MOVE_GAP,
        "{:?} against {other:?}",
        step.before
    );
    assert_eq!(step.class, Class::Only);
    assert_eq!(step.class.nag(), Some(1));
    assert_eq!(review.summary(Color::Red).count(Class::Only), 1);
    // Blocking with the chariot is a blunder.
    let (result, _) = run(ONE_WAY_OUT, "a2e2");
    assert_eq!(result.expect("legal game").moves[0].class, Class::Blunder);
}

/// Black, a chariot down with a horse left, keeps Red's chariot on b7 off its back rank with
/// its own on d9; Red's chariot on a8 holds the general's way out on e8.
const BACK_RANK: &str = "3rk4/R8/1R4n2/9/9/9/9/9/9/5K3 b - - 0 1";

#[test]
fn a_move_that_lets_in_a_mate_is_a_blunder_or_a_mistake_and_the_summary_shows_it() {
    // 1... R4-9?? lets Red mate in four moves (seven plies). Best play, a chariot down, puts
    // the mate beyond the review's depth (a search of 16 plies finds Black lost in ten moves
    // or more). Searched deep enough to see the short mate: its last move is quiet, and
    // pruning near the leaves skips quiet moves where a large win is already expected.
    let deeper = ReviewLimits {
        depth: Some(10),
        ..limits()
    };
    let (result, _) = run_to(BACK_RANK, "d9d1 b7b9", deeper);
    let review = result.expect("legal game");
    let open = &review.moves[0];
    assert!(
        !review::model::is_mated(open.before),
        "best play holds: {:?}",
        open.before
    );
    assert!(review::model::is_mated(open.after), "{:?}", open.after);
    assert!(
        open.class >= Class::Mistake,
        "{:?} {}",
        open.class,
        open.loss
    );
    assert!(open.class.nag().is_some_and(|n| n == 2 || n == 4));
    let black = review.summary(Color::Black);
    assert_eq!(black.count(Class::Mistake) + black.count(Class::Blunder), 1);
    assert!(black.accuracy < 80.0, "{black}");
    assert!(black.accuracy < review.summary(Color::Red).accuracy);
}
