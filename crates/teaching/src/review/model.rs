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

/// How good a move was, by the expected score it lost against the engine's best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// The engine's own choice.
    Best,
    /// Lost less than 0.02 of expected score.
    Excellent,
    /// Lost less than 0.05.
    Good,
    /// Lost less than 0.10.
    Inaccuracy,
    /// Lost less than 0.20.
    Mistake,
    /// Lost 0.20 or more.
    Blunder,
}

impl Class {
    /// Every class, best first.
    pub const ALL: [Class; 6] = [
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

    /// The code of the class: `best`, `excellent`, `good`, `inaccuracy`, `mistake`,
    /// `blunder`.
    pub const fn code(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Excellent => "excellent",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// The PGN annotation glyph: best, excellent and good `$1` (!), inaccuracy `$6` (?!),
    /// mistake `$2` (?), blunder `$4` (??). The comment beside it names the class.
    pub const fn nag(self) -> u8 {
        match self {
            Class::Best | Class::Excellent | Class::Good => 1,
            Class::Inaccuracy => 6,
            Class::Mistake => 2,
            Class::Blunder => 4,
        }
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
/// [`Class::Best`].
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
    fn accuracy_falls_from_100_with_the_loss() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!((move_accuracy(0.10) - 63.6).abs() < 0.1);
        assert_eq!(move_accuracy(0.9), 0.0);
        assert!(move_accuracy(0.05) > move_accuracy(0.06));
    }

    #[test]
    fn nags_follow_the_pgn_meanings() {
        let nags: Vec<u8> = Class::ALL.iter().map(|c| c.nag()).collect();
        assert_eq!(nags, [1, 1, 1, 6, 2, 4]);
        assert_eq!(Class::Blunder.to_string(), "blunder");
    }
}
