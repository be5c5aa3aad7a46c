//! How long engines may think: a time control with per-engine clocks (`5+0.05`), or a fixed
//! node count or depth per move.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Base time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time on each clock at the start of the game.
    pub base: Duration,
    /// Time added to the mover's clock after each move.
    pub increment: Duration,
}

/// Which part of a time control is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimePart {
    /// The time on each clock at the start.
    Base,
    /// The time added after each move.
    Increment,
}

impl fmt::Display for TimePart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TimePart::Base => "base time",
            TimePart::Increment => "increment",
        })
    }
}

/// Why a time control could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControlError {
    /// A part is not a number of seconds.
    NotSeconds {
        /// The whole text.
        text: String,
        /// Which part.
        part: TimePart,
        /// What that part says.
        value: String,
    },
    /// Both parts are zero.
    NoTime {
        /// The whole text.
        text: String,
    },
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlError::NotSeconds { text, part, value } => write!(
                f,
                "time control '{text}': the {part} '{value}' is not a number of seconds \
                 (expected e.g. 5+0.05)"
            ),
            TimeControlError::NoTime { text } => {
                write!(f, "time control '{text}' gives no time at all")
            }
        }
    }
}

impl std::error::Error for TimeControlError {}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads `SECONDS[+INCREMENT]`, e.g. `5+0.05`, `10`, `60+1`.
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let (base, increment) = match text.split_once('+') {
            Some((b, i)) => (b, i),
            None => (text, "0"),
        };
        let seconds = |value: &str, part: TimePart| -> Result<Duration, TimeControlError> {
            value
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e7)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| TimeControlError::NotSeconds {
                    text: text.to_string(),
                    part,
                    value: value.to_string(),
                })
        };
        let tc = TimeControl {
            base: seconds(base, TimePart::Base)?,
            increment: seconds(increment, TimePart::Increment)?,
        };
        if tc.base.is_zero() && tc.increment.is_zero() {
            return Err(TimeControlError::NoTime {
                text: text.to_string(),
            });
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

/// What bounds each search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limits {
    /// Per-engine clocks with base time and increment.
    Clock(TimeControl),
    /// A fixed number of nodes per move.
    Nodes(u64),
    /// A fixed depth per move.
    Depth(u32),
}

impl Limits {
    /// The PGN `TimeControl` tag value: `300+0.05` style seconds, or `-` for node and depth
    /// limits.
    pub fn pgn_tag(self) -> String {
        match self {
            Limits::Clock(tc) => tc.to_string(),
            Limits::Nodes(_) | Limits::Depth(_) => "-".to_string(),
        }
    }
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limits::Clock(tc) => write!(f, "tc {tc}"),
            Limits::Nodes(n) => write!(f, "{n} nodes per move"),
            Limits::Depth(d) => write!(f, "depth {d}"),
        }
    }
}

/// One engine's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    remaining: Duration,
    increment: Duration,
}

/// A move took longer than the clock allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLoss {
    /// Time the move took.
    pub used: Duration,
    /// Time on the clock when the move was asked for.
    pub had: Duration,
}

impl Clock {
    /// A full clock for `tc`.
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            remaining: tc.base,
            increment: tc.increment,
        }
    }

    /// Time left.
    pub fn remaining(self) -> Duration {
        self.remaining
    }

    /// The increment added after each move.
    pub fn increment(self) -> Duration {
        self.increment
    }

    /// Charges a move that took `used`. Overrunning the clock by up to `margin` is forgiven
    /// (process start-up and pipe delays are not the engine's fault); more loses on time.
    pub fn charge(&mut self, used: Duration, margin: Duration) -> Result<(), TimeLoss> {
        if used > self.remaining + margin {
            return Err(TimeLoss {
                used,
                had: self.remaining,
            });
        }
        self.remaining = self.remaining.saturating_sub(used) + self.increment;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn time_controls_are_read_in_seconds() {
        let tc: TimeControl = "5+0.05".parse().unwrap();
        assert_eq!(tc.base, ms(5000));
        assert_eq!(tc.increment, ms(50));
        let tc: TimeControl = "10".parse().unwrap();
        assert_eq!((tc.base, tc.increment), (ms(10_000), Duration::ZERO));
        assert_eq!("0.5+0.01".parse::<TimeControl>().unwrap().base, ms(500));
        for bad in ["", "x", "5+", "-1+1", "0+0", "5+0.05+1"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(
            "5+x".parse::<TimeControl>(),
            Err(TimeControlError::NotSeconds {
                text: "5+x".into(),
                part: TimePart::Increment,
                value: "x".into()
            })
        );
        assert_eq!(
            "0".parse::<TimeControl>(),
            Err(TimeControlError::NoTime { text: "0".into() })
        );
    }

    #[test]
    fn clock_adds_the_increment_after_each_move() {
        let mut clock = Clock::new("1+0.1".parse().unwrap());
        clock.charge(ms(300), ms(50)).unwrap();
        assert_eq!(clock.remaining(), ms(800));
    }

    #[test]
    fn small_overrun_is_forgiven_and_large_overrun_loses() {
        let mut clock = Clock::new("1+0".parse().unwrap());
        clock.charge(ms(1040), ms(50)).unwrap();
        assert_eq!(clock.remaining(), Duration::ZERO);
        let mut clock = Clock::new("1+0".parse().unwrap());
        assert_eq!(
            clock.charge(ms(1051), ms(50)),
            Err(TimeLoss {
                used: ms(1051),
                had: ms(1000)
            })
        );
    }
}
