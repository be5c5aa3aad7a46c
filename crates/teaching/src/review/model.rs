//! The win-probability model and what follows from it: the expected score of an evaluation,
//! the class of a move by the expected score it lost, and a move's accuracy.

use std::fmt;
use xiangqi_engine::score::Reported;

/// Centipawns per factor of ten in the odds of the logistic model: `W(cp) = 1 / (1 +
/// 10^(-cp / 400))`, the Elo curve. A horse up (400 cp) is then worth an expected score of
/// 0.91 and a chariot up (900 cp) 0.99, which is how a clean extra piece plays out between
/// players who can use it; a soldier (100 cp) is worth 0.64.
pub const CP_PER_DECADE: f64 = 400.0;

/// An evaluation from one side's point of view: the engine's score, or the game already over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// The engine's score (centipawns or a mate).
    Score(Reported),
    /// The game is over: this side has won.
    Won,
    /// The game is over, drawn.
    Drawn,
    /// The game is over: this side has lost.
    Lost,
}

impl Eval {
    /// The same evaluation from the other side's point of view.
    pub fn flipped(self) -> Eval {
        match self {
            Eval::Score(s) => Eval::Score(-s),
            Eval::Won => Eval::Lost,
            Eval::Drawn => Eval::Drawn,
            Eval::Lost => Eval::Won,
        }
    }

    /// The expected score (0 lost, ½ drawn, 1 won) of this evaluation: the logistic
    /// [`win_probability`] of centipawns; a forced mate is 1 for the mating side and 0 for
    /// the mated one.
    pub fn expected_score(self) -> f64 {
        match self {
            Eval::Score(Reported::Cp(cp)) => win_probability(cp),
            Eval::Score(Reported::Mate(n)) => {
                if n > 0 {
                    1.0
                } else {
                    0.0
                }
            }
            Eval::Won => 1.0,
            Eval::Drawn => 0.5,
            Eval::Lost => 0.0,
        }
    }
}

impl fmt::Display for Eval {
    /// `+0.35` (pawns), `#3` / `#-3` (mate in 3 for / against this side), `won`, `drawn`,
    /// `lost`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eval::Score(Reported::Cp(cp)) => write!(f, "{:+.2}", f64::from(*cp) / 100.0),
            Eval::Score(Reported::Mate(n)) => write!(f, "#{n}"),
            Eval::Won => f.write_str("won"),
            Eval::Drawn => f.write_str("drawn"),
            Eval::Lost => f.write_str("lost"),
        }
    }
}

/// The expected score of a side `cp` centipawns ahead: `1 / (1 + 10^(-cp / 400))`.
pub fn win_probability(cp: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-f64::from(cp) / CP_PER_DECADE))
}

/// The expected score of the engine's `score` for the side it is given for.
pub fn win_probability_of(score: Reported) -> f64 {
    Eval::Score(score).expected_score()
}

/// How good a move was, by the expected score it lost against the engine's best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// The only move: the engine's own choice, where the best other move would have lost
    /// [`ONLY_MOVE_GAP`] or more; see [`is_only_move`].
    Only,
    /// The engine's own choice.
    Best,
    /// Lost less than 0.02 of expected score.
    Excellent,
    /// Lost less than 0.05.
    Good,
    /// Lost less than 0.10.
    Inaccuracy,
    /// Lost less than 0.20, or let in a forced mate that the best move avoided from a
    /// position already lost ([`LET_IN_MATE`]).
    Mistake,
    /// Lost 0.20 or more, or let in a forced mate that the best move avoided.
    Blunder,
}

/// The least expected score the best other move must lose for the engine's choice to be an
/// only move (`!`): 0.20, what makes a blunder, so that every other move would have been one.
pub const ONLY_MOVE_GAP: f64 = 0.20;

/// A move after which the other side has a forced mate, where the best move left none, is at
/// least a blunder when the mover's expected score before it was this much or more, and at
/// least a mistake below it: the mate decides even a game that was going badly, and the
/// expected-score loss alone (small once a side is far behind) would not say so.
pub const LET_IN_MATE: f64 = 0.05;

impl Class {
    /// Every class, best first.
    pub const ALL: [Class; 7] = [
        Class::Only,
        Class::Best,
        Class::Excellent,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
    ];

    /// Expected-score losses below which a move is excellent, good, an inaccuracy and a
    /// mistake; at or above the last it is a blunder. A hung horse in a level position (0 →
    /// −400 cp) loses 0.41; the same horse when already a chariot up (+900 → +500) loses
    /// 0.04, and the review calls that good: it no longer changes the result.
    pub const LIMITS: [f64; 4] = [0.02, 0.05, 0.10, 0.20];

    /// The code of the class: `only`, `best`, `excellent`, `good`, `inaccuracy`, `mistake`,
    /// `blunder`.
    pub const fn code(self) -> &'static str {
        match self {
            Class::Only => "only",
            Class::Best => "best",
            Class::Excellent => "excellent",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// The class of a [`code`](Class::code).
    pub fn from_code(code: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.code() == code)
    }

    /// The PGN annotation glyph of the class, when it has one: only move `$1` (!),
    /// inaccuracy `$6` (?!), mistake `$2` (?), blunder `$4` (??). A best, excellent or good
    /// move carries none: it is what a player is expected to find, and a mark on it would
    /// make the marks that matter hard to see. The review never gives `$3` (!!) or `$5`
    /// (!?): they judge daring and beauty, which the engine's score does not measure.
    pub const fn nag(self) -> Option<u8> {
        match self {
            Class::Only => Some(1),
            Class::Best | Class::Excellent | Class::Good => None,
            Class::Inaccuracy => Some(6),
            Class::Mistake => Some(2),
            Class::Blunder => Some(4),
        }
    }

    /// The class a glyph stands for, for the glyphs the review gives ([`Class::nag`]).
    pub fn of_nag(nag: u8) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.nag() == Some(nag))
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The expected score a move lost: the evaluation of best play before it less the evaluation
/// after it, both from the mover's side, never below 0 (a deeper look after the move may
/// find more than the look before it did).
pub fn expected_loss(before: Eval, after: Eval) -> f64 {
    (before.expected_score() - after.expected_score()).max(0.0)
}

/// The class of a move that lost `loss` of expected score; the engine's best move is always
/// [`Class::Best`]. [`judge`] adds the only move and the mate let in.
pub fn classify(is_engine_best: bool, loss: f64) -> Class {
    if is_engine_best {
        return Class::Best;
    }
    let [excellent, good, inaccuracy, mistake] = Class::LIMITS;
    if loss < excellent {
        Class::Excellent
    } else if loss < good {
        Class::Good
    } else if loss < inaccuracy {
        Class::Inaccuracy
    } else if loss < mistake {
        Class::Mistake
    } else {
        Class::Blunder
    }
}

/// Whether an evaluation is a forced mate against its side (or the game lost).
pub fn is_mated(eval: Eval) -> bool {
    matches!(eval, Eval::Score(Reported::Mate(n)) if n <= 0) || eval == Eval::Lost
}

/// Whether the engine's choice is an only move: the best other move (`second`, from the
/// mover's side; `None` when there is no other move) would have lost at least
/// [`ONLY_MOVE_GAP`] of expected score against it, the move itself counted at the lower of
/// the score before it (`before`) and the score of the position it leaves (`after`), so that
/// a move the next search finds worse is not called the only one. A move with no
/// alternative is forced, not an only move.
pub fn is_only_move(before: Eval, after: Eval, second: Option<Eval>) -> bool {
    let kept = before.expected_score().min(after.expected_score());
    second.is_some_and(|s| kept - s.expected_score() >= ONLY_MOVE_GAP)
}

/// What the review decides about one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// Expected score lost; a mate let in counts at least the loss of its class's lower
    /// limit, so that the side's accuracy shows it.
    pub loss: f64,
    /// The class.
    pub class: Class,
}

/// The whole rule for one move: `before` (best play) and `after` (the move played) from the
/// mover's side; `is_engine_best` whether the move was the engine's choice; `second` the
/// score of the best other move when it was searched ([`is_only_move`]); `plain` whether the
/// move is plain whatever the position (a recapture, or taking a piece worth at least the
/// taker), which is never an only move.
///
/// 1. The engine's choice is [`Class::Only`] when every other move would lose at least
///    [`ONLY_MOVE_GAP`] and the move is not plain; otherwise [`Class::Best`].
/// 2. Another move is classed by its loss ([`classify`], [`Class::LIMITS`]).
/// 3. A move other than the engine's choice that lets in a forced mate the best move avoided
///    is at least a blunder, or a mistake when the mover's expected score before it was below [`LET_IN_MATE`]; its loss
///    is raised to that class's lower limit.
pub fn judge(
    before: Eval,
    after: Eval,
    is_engine_best: bool,
    second: Option<Eval>,
    plain: bool,
) -> Judgement {
    let mut loss = expected_loss(before, after);
    let mut class = classify(is_engine_best, loss);
    if class == Class::Best && !plain && is_only_move(before, after, second) {
        class = Class::Only;
    }
    if !is_engine_best && is_mated(after) && !is_mated(before) {
        let (floor, limit) = if before.expected_score() >= LET_IN_MATE {
            (Class::Blunder, Class::LIMITS[3])
        } else {
            (Class::Mistake, Class::LIMITS[2])
        };
        if class < floor {
            class = floor;
            loss = loss.max(limit);
        }
    }
    Judgement { loss, class }
}

/// A move's accuracy in percent from the expected score it lost, `103.1668 · e^(-4.354 ·
/// loss) − 3.1669` clamped to 0–100 (the curve Lichess fitted to its players' moves): 100
/// for a move that loses nothing, about 64 for a 0.10 loss, 36 for 0.22 and 0 from 0.80.
pub fn move_accuracy(loss: f64) -> f64 {
    (103.1668 * (-4.354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(cp: i32) -> Eval {
        Eval::Score(Reported::Cp(cp))
    }

    #[test]
    fn the_model_is_the_logistic_elo_curve() {
        assert!((win_probability(0) - 0.5).abs() < 1e-12);
        assert!((win_probability(400) - 10.0 / 11.0).abs() < 1e-12);
        assert!((win_probability(-400) - 1.0 / 11.0).abs() < 1e-12);
        assert!((win_probability(250) + win_probability(-250) - 1.0).abs() < 1e-12);
        assert!(win_probability(900) > 0.99);
    }

    #[test]
    fn mates_and_finished_games_are_certain() {
        let mate = |n| Eval::Score(Reported::Mate(n));
        assert_eq!(mate(3).expected_score(), 1.0);
        assert_eq!(mate(-1).expected_score(), 0.0);
        assert_eq!(mate(0).expected_score(), 0.0);
        assert_eq!(Eval::Won.expected_score(), 1.0);
        assert_eq!(Eval::Drawn.expected_score(), 0.5);
        assert_eq!(Eval::Lost.flipped(), Eval::Won);
        assert_eq!(mate(2).flipped(), mate(-2));
        // Missing a mate for a big material edge still loses almost nothing.
        assert!(expected_loss(mate(5), cp(1500)) < 0.001);
        // Walking into a mate from a level position loses half a point.
        assert!((expected_loss(cp(0), mate(-4)) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn the_engines_move_is_best_whatever_the_loss() {
        assert_eq!(classify(true, 0.0), Class::Best);
        assert_eq!(classify(true, 0.5), Class::Best);
        assert_eq!(classify(false, 0.0), Class::Excellent);
    }

    #[test]
    fn classes_change_exactly_at_their_limits() {
        let cases = [
            (0.019_999, Class::Excellent),
            (0.02, Class::Good),
            (0.049_999, Class::Good),
            (0.05, Class::Inaccuracy),
            (0.099_999, Class::Inaccuracy),
            (0.10, Class::Mistake),
            (0.199_999, Class::Mistake),
            (0.20, Class::Blunder),
            (1.0, Class::Blunder),
        ];
        for (loss, class) in cases {
            assert_eq!(classify(false, loss), class, "loss {loss}");
        }
    }

    #[test]
    fn a_hung_piece_is_a_blunder_only_while_the_game_is_open() {
        let level = expected_loss(cp(0), cp(-400));
        assert_eq!(classify(false, level), Class::Blunder);
        let already_won = expected_loss(cp(900), cp(500));
        assert_eq!(classify(false, already_won), Class::Good);
        // A deeper look that finds the move better than the best counts no loss.
        assert_eq!(expected_loss(cp(10), cp(60)), 0.0);
    }

    #[test]
    fn a_mate_let_in_is_marked_even_when_little_was_left_to_lose() {
        let mated = Eval::Score(Reported::Mate(-8));
        // Far behind already: the loss alone would be good; the mate makes it a mistake.
        let far = judge(cp(-1200), mated, false, None, false);
        assert_eq!(
            classify(false, expected_loss(cp(-1200), mated)),
            Class::Excellent
        );
        assert_eq!(far.class, Class::Mistake);
        assert!(far.loss >= Class::LIMITS[2]);
        // Behind but playing on: a blunder.
        assert_eq!(
            judge(cp(-400), mated, false, None, false).class,
            Class::Blunder
        );
        // Mated either way, or the engine's own move: nothing added.
        assert_eq!(
            judge(mated, mated, false, None, false).class,
            Class::Excellent
        );
        assert_eq!(judge(cp(-400), mated, true, None, false).class, Class::Best);
    }

    #[test]
    fn only_the_one_good_move_among_bad_ones_is_an_only_move() {
        let only = |before, after, second, plain| judge(before, after, true, second, plain).class;
        assert_eq!(only(cp(0), cp(0), Some(cp(-400)), false), Class::Only);
        // A plain move (a recapture) or one with no alternative is best, not only.
        assert_eq!(only(cp(0), cp(0), Some(cp(-400)), true), Class::Best);
        assert_eq!(only(cp(0), cp(0), None, false), Class::Best);
        // Another move nearly as good: best.
        assert_eq!(only(cp(0), cp(0), Some(cp(-50)), false), Class::Best);
        // The next search finds the move itself no better than the other.
        assert_eq!(only(cp(0), cp(-350), Some(cp(-400)), false), Class::Best);
    }

    #[test]
    fn accuracy_falls_from_100_with_the_loss() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!((move_accuracy(0.10) - 63.6).abs() < 0.1);
        assert_eq!(move_accuracy(0.9), 0.0);
        assert!(move_accuracy(0.05) > move_accuracy(0.06));
    }

    #[test]
    fn nags_follow_the_pgn_meanings() {
        let nags: Vec<Option<u8>> = Class::ALL.iter().map(|c| c.nag()).collect();
        assert_eq!(nags, [Some(1), None, None, None, Some(6), Some(2), Some(4)]);
        for nag in [1, 2, 4, 6] {
            assert_eq!(Class::of_nag(nag).and_then(Class::nag), Some(nag));
        }
        assert_eq!(Class::of_nag(3), None);
        for class in Class::ALL {
            assert_eq!(Class::from_code(class.code()), Some(class));
        }
        assert_eq!(Class::Blunder.to_string(), "blunder");
    }
}
