//! The players' ratings: Glicko-2 (the `skillratings` crate's implementation), one rating per
//! [`Speed`], updated after each rated game between two accounts.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use std::fmt;
use std::str::FromStr;

/// A newcomer's rating.
pub const START_RATING: f64 = 1500.0;
/// A newcomer's deviation: nothing is known yet.
pub const START_DEVIATION: f64 = 350.0;
/// A newcomer's volatility.
pub const START_VOLATILITY: f64 = 0.06;
/// Above this deviation a rating is provisional (shown with a "?").
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// The lowest deviation a rating keeps, so that it can still move.
pub const MIN_DEVIATION: f64 = 45.0;
/// The moves a game's estimated length counts the increment for (as the estimated game time
/// of the big chess sites: main time + 40 × increment).
pub const MOVES_ESTIMATED: u32 = 40;

/// How fast a game is, by its estimated time (main time + 40 × increment, in seconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// Under 3 minutes.
    Bullet,
    /// 3 to under 8 minutes.
    Blitz,
    /// 8 to under 25 minutes.
    Rapid,
    /// 25 minutes or more, or no clock.
    Classical,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 4] = [Speed::Bullet, Speed::Blitz, Speed::Rapid, Speed::Classical];

    /// The speed of a game of `seconds` main time and `increment` seconds a move; `None` for
    /// a game without a clock is classical.
    pub fn of(clock: Option<(u32, u32)>) -> Speed {
        let Some((seconds, increment)) = clock else {
            return Speed::Classical;
        };
        let estimated = seconds.saturating_add(increment.saturating_mul(MOVES_ESTIMATED));
        match estimated {
            0..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// The name kept and shown: `bullet`, `blitz`, `rapid`, `classical`.
    pub fn as_str(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Speed {
    type Err = String;

    fn from_str(s: &str) -> Result<Speed, String> {
        Speed::ALL
            .into_iter()
            .find(|speed| speed.as_str() == s)
            .ok_or_else(|| format!("{s:?} is not a speed (bullet, blitz, rapid or classical)"))
    }
}

/// A player's rating at one speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation (one standard deviation, in rating points).
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated games played at this speed.
    pub games: u32,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: START_RATING,
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
            games: 0,
        }
    }
}

impl Rating {
    /// Whether the rating is still provisional.
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn after(self, rated: Glicko2Rating) -> Rating {
        Rating {
            rating: rated.rating,
            deviation: rated.deviation.clamp(MIN_DEVIATION, START_DEVIATION),
            volatility: rated.volatility,
            games: self.games + 1,
        }
    }
}

/// How a rated game ended, for Red.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Red won.
    RedWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
}

/// Red's and Black's ratings after a game between them that ended with `score`.
pub fn rate(red: Rating, black: Rating, score: Score) -> (Rating, Rating) {
    let outcome = match score {
        Score::RedWins => Outcomes::WIN,
        Score::BlackWins => Outcomes::LOSS,
        Score::Draw => Outcomes::DRAW,
    };
    let (r, b) = glicko2(
        &red.glicko(),
        &black.glicko(),
        &outcome,
        &Glicko2Config::new(),
    );
    (red.after(r), black.after(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_follow_the_estimated_game_time() {
        assert_eq!(Speed::of(Some((60, 0))), Speed::Bullet);
        // 120 s + 40 × 1 s = 160 s.
        assert_eq!(Speed::of(Some((120, 1))), Speed::Bullet);
        assert_eq!(Speed::of(Some((180, 0))), Speed::Blitz);
        assert_eq!(Speed::of(Some((300, 3))), Speed::Blitz);
        assert_eq!(Speed::of(Some((600, 0))), Speed::Rapid);
        assert_eq!(Speed::of(Some((900, 10))), Speed::Rapid);
        assert_eq!(Speed::of(Some((1800, 0))), Speed::Classical);
        assert_eq!(Speed::of(None), Speed::Classical);
        for speed in Speed::ALL {
            assert_eq!(speed.as_str().parse::<Speed>(), Ok(speed));
        }
        assert!("slow".parse::<Speed>().is_err());
    }

    #[test]
    fn a_win_raises_the_winner_and_lowers_the_loser_by_what_was_expected() {
        let (red, black) = rate(Rating::default(), Rating::default(), Score::RedWins);
        assert!(red.rating > START_RATING && black.rating < START_RATING);
        assert!((red.rating - START_RATING - (START_RATING - black.rating)).abs() < 1e-6);
        assert_eq!((red.games, black.games), (1, 1));
        assert!(red.deviation < START_DEVIATION, "a game tells something");
        assert!(red.is_provisional());
        // Beating a much stronger player is worth more than beating an equal.
        let strong = Rating {
            rating: 1900.0,
            deviation: 60.0,
            ..Rating::default()
        };
        let (upset, _) = rate(Rating::default(), strong, Score::RedWins);
        assert!(upset.rating > red.rating);
        // A draw between equals moves neither rating.
        let settled = Rating {
            deviation: 60.0,
            games: 30,
            ..Rating::default()
        };
        let (a, b) = rate(settled, settled, Score::Draw);
        assert!((a.rating - START_RATING).abs() < 1e-6 && (b.rating - START_RATING).abs() < 1e-6);
        assert!(!a.is_provisional());
        assert!(a.deviation >= MIN_DEVIATION);
    }
}
