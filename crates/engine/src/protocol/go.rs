//! The `go` command's parameters in both dialects: reading them, writing them, and turning
//! them into the search's limits.
//!
//! UCI gives both clocks by colour (`wtime btime winc binc`); UCCI gives the mover's clock
//! (`time increment`) and the opponent's (`opptime oppincrement oppmovestogo`). Both know
//! `movestogo depth nodes movetime mate ponder infinite`; UCI adds `searchmoves`, UCCI
//! `draw`. Times are whole milliseconds.

use super::Dialect;
use crate::limits::SearchLimits;
use std::fmt;
use std::time::Duration;
use xiangqi_rules::{Color, Move, ParseMoveError, RankBase};

/// What a `go` asks for. Unset fields were not given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `wtime`: Red's clock.
    pub red_time: Option<Duration>,
    /// `btime`: Black's clock.
    pub black_time: Option<Duration>,
    /// `winc`: Red's increment per move.
    pub red_increment: Option<Duration>,
    /// `binc`: Black's increment per move.
    pub black_increment: Option<Duration>,
    /// UCCI `time`: the mover's clock.
    pub time: Option<Duration>,
    /// UCCI `increment`: the mover's increment per move.
    pub increment: Option<Duration>,
    /// UCCI `opptime`: the opponent's clock.
    pub opponent_time: Option<Duration>,
    /// UCCI `oppincrement`: the opponent's increment.
    pub opponent_increment: Option<Duration>,
    /// `movestogo`: the mover's moves to the next time control.
    pub moves_to_go: Option<u32>,
    /// UCCI `oppmovestogo`: the opponent's moves to the next time control.
    pub opponent_moves_to_go: Option<u32>,
    /// `depth`: the deepest iteration.
    pub depth: Option<u32>,
    /// `nodes`: the node budget.
    pub nodes: Option<u64>,
    /// `movetime`: exactly this long.
    pub movetime: Option<Duration>,
    /// `mate`: look for a mate in this many moves.
    pub mate: Option<u32>,
    /// `ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `infinite`: until `stop`.
    pub infinite: bool,
    /// UCCI `draw`: the opponent offers a draw.
    pub draw: bool,
    /// `searchmoves`: only these root moves (the rest of the line).
    pub search_moves: Vec<Move>,
}

/// What is wrong with a `go` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// A word that needs a number is the last one.
    MissingNumber {
        /// The word, e.g. `depth`.
        word: String,
    },
    /// The word after a parameter is not a whole number.
    BadNumber {
        /// The parameter, e.g. `depth`.
        word: String,
        /// What followed it.
        value: String,
    },
    /// A parameter of the other dialect, e.g. UCCI's `time` in a UCI session.
    OtherDialect {
        /// The parameter.
        word: String,
        /// The dialect the session speaks.
        dialect: Dialect,
    },
    /// `go perft`, which this engine leaves to the `xiangqi perft` command.
    Perft,
    /// A word that is no parameter of `go`.
    Unknown {
        /// The word.
        word: String,
    },
    /// A `searchmoves` word that is not a move.
    SearchMove(ParseMoveError),
}

impl fmt::Display for GoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoError::MissingNumber { word } => write!(f, "go: '{word}' needs a number"),
            GoError::BadNumber { word, value } => {
                write!(f, "go: '{word}' needs a whole number, got '{value}'")
            }
            GoError::OtherDialect { word, dialect } => {
                write!(f, "go: '{word}' is not a {dialect} parameter")
            }
            GoError::Perft => {
                f.write_str("go perft is not supported; use the `xiangqi perft` command")
            }
            GoError::Unknown { word } => write!(f, "go: unknown parameter '{word}'"),
            GoError::SearchMove(error) => write!(f, "go searchmoves: {error}"),
        }
    }
}

impl std::error::Error for GoError {}

/// Milliseconds, whole.
fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// `d` cut to whole milliseconds, as the protocol carries it.
fn whole_ms(d: Duration) -> Duration {
    Duration::from_millis(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl GoParams {
    /// `go depth D`.
    pub fn depth(depth: u32) -> GoParams {
        GoParams {
            depth: Some(depth),
            ..GoParams::default()
        }
    }

    /// `go nodes N`.
    pub fn nodes(nodes: u64) -> GoParams {
        GoParams {
            nodes: Some(nodes),
            ..GoParams::default()
        }
    }

    /// A search with the clocks running: `time` and `increment` (indexed by
    /// [`Color::index`]) are each side's clock and increment, `side` is to move. UCI gets
    /// both clocks by colour, UCCI the mover's; times are cut to whole milliseconds.
    pub fn clocks(
        dialect: Dialect,
        side: Color,
        time: [Duration; 2],
        increment: [Duration; 2],
    ) -> GoParams {
        let [time, increment] = [time, increment].map(|pair| pair.map(whole_ms));
        match dialect {
            Dialect::Uci => GoParams {
                red_time: Some(time[Color::Red.index()]),
                black_time: Some(time[Color::Black.index()]),
                red_increment: Some(increment[Color::Red.index()]),
                black_increment: Some(increment[Color::Black.index()]),
                ..GoParams::default()
            },
            Dialect::Ucci => GoParams {
                time: Some(time[side.index()]),
                increment: Some(increment[side.index()]),
                ..GoParams::default()
            },
        }
    }

    /// Reads the words after `go` in `dialect`; `searchmoves` takes moves with ranks
    /// numbered from `ranks`.
    pub fn parse(rest: &str, dialect: Dialect, ranks: RankBase) -> Result<GoParams, GoError> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let mut go = GoParams::default();
        let mut i = 0;
        while i < words.len() {
            let word = words[i];
            let number = || -> Result<u64, GoError> {
                let value = words.get(i + 1).ok_or_else(|| GoError::MissingNumber {
                    word: word.to_string(),
                })?;
                // A GUI may send a clock that has run below zero; that is no time left.
                value
                    .parse::<i64>()
                    .map(|v| v.max(0) as u64)
                    .map_err(|_| GoError::BadNumber {
                        word: word.to_string(),
                        value: value.to_string(),
                    })
            };
            let time = || number().map(Duration::from_millis);
            let count = || number().map(|v| u32::try_from(v).unwrap_or(u32::MAX));
            let mut consumed = 2;
            match word {
                "wtime" => go.red_time = Some(time()?),
                "btime" => go.black_time = Some(time()?),
                "winc" => go.red_increment = Some(time()?),
                "binc" => go.black_increment = Some(time()?),
                "time" | "increment" | "opptime" | "oppincrement" | "oppmovestogo"
                    if dialect == Dialect::Uci =>
                {
                    return Err(GoError::OtherDialect {
                        word: word.to_string(),
                        dialect,
                    });
                }
                "time" => go.time = Some(time()?),
                "increment" => go.increment = Some(time()?),
                "opptime" => go.opponent_time = Some(time()?),
                "oppincrement" => go.opponent_increment = Some(time()?),
                "oppmovestogo" => go.opponent_moves_to_go = Some(count()?),
                "movestogo" => go.moves_to_go = Some(count()?),
                "depth" => go.depth = Some(count()?),
                "nodes" => go.nodes = Some(number()?),
                "movetime" => go.movetime = Some(time()?),
                "mate" => go.mate = Some(count()?),
                "ponder" => {
                    go.ponder = true;
                    consumed = 1;
                }
                "infinite" => {
                    go.infinite = true;
                    consumed = 1;
                }
                "draw" => {
                    go.draw = true;
                    consumed = 1;
                }
                "searchmoves" => {
                    go.search_moves = words[i + 1..]
                        .iter()
                        .map(|text| Move::parse_coordinates(text, ranks))
                        .collect::<Result<_, _>>()
                        .map_err(GoError::SearchMove)?;
                    consumed = words.len() - i;
                }
                "perft" => return Err(GoError::Perft),
                _ => {
                    return Err(GoError::Unknown {
                        word: word.to_string(),
                    });
                }
            }
            i += consumed;
        }
        Ok(go)
    }

    /// The command: `go` and every parameter given, moves with ranks numbered from `ranks`.
    pub fn format(&self, ranks: RankBase) -> String {
        let mut line = String::from("go");
        let mut flag = |on: bool, word: &str| {
            if on {
                line.push(' ');
                line.push_str(word);
            }
        };
        flag(self.ponder, "ponder");
        flag(self.infinite, "infinite");
        flag(self.draw, "draw");
        let times = [
            ("wtime", self.red_time),
            ("btime", self.black_time),
            ("winc", self.red_increment),
            ("binc", self.black_increment),
            ("time", self.time),
            ("increment", self.increment),
            ("opptime", self.opponent_time),
            ("oppincrement", self.opponent_increment),
            ("movetime", self.movetime),
        ];
        for (word, value) in times {
            if let Some(value) = value {
                line.push_str(&format!(" {word} {}", ms(value)));
            }
        }
        let numbers = [
            ("movestogo", self.moves_to_go.map(u64::from)),
            ("oppmovestogo", self.opponent_moves_to_go.map(u64::from)),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("mate", self.mate.map(u64::from)),
        ];
        for (word, value) in numbers {
            if let Some(value) = value {
                line.push_str(&format!(" {word} {value}"));
            }
        }
        if !self.search_moves.is_empty() {
            line.push_str(" searchmoves");
            for m in &self.search_moves {
                line.push(' ');
                line.push_str(&m.coordinates(ranks));
            }
        }
        line
    }

    /// The search's limits for `side` to move: the mover's clock (by colour, or UCCI's own
    /// `time`), depth 1–120, at least one node, a mate in 1–60; without any limit the search
    /// runs until `stop`.
    pub fn limits(&self, side: Color) -> SearchLimits {
        let (own_time, own_increment) = match side {
            Color::Red => (self.red_time, self.red_increment),
            Color::Black => (self.black_time, self.black_increment),
        };
        let mut limits = SearchLimits {
            depth: self.depth.map(|d| d.clamp(1, 120) as i32),
            nodes: self.nodes.map(|n| n.max(1)),
            movetime: self.movetime,
            time_left: self.time.or(own_time),
            increment: self.increment.or(own_increment).unwrap_or_default(),
            moves_to_go: self.moves_to_go,
            mate: self.mate.map(|m| m.clamp(1, 60)),
            infinite: self.infinite,
            ponder: self.ponder,
            max_time: None,
        };
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.time_left.is_none()
            && limits.mate.is_none()
            && !limits.ponder
        {
            limits.infinite = true;
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    fn uci(text: &str) -> Result<GoParams, GoError> {
        GoParams::parse(text, Dialect::Uci, RankBase::Zero)
    }

    fn ucci(text: &str) -> Result<GoParams, GoError> {
        GoParams::parse(text, Dialect::Ucci, RankBase::Zero)
    }

    #[test]
    fn uci_clocks_are_read_by_colour() {
        let go = uci("wtime 4000 btime 3500 winc 50 binc 60 movestogo 20").unwrap();
        assert_eq!(go.red_time, Some(ms(4000)));
        assert_eq!(go.black_increment, Some(ms(60)));
        let limits = go.limits(Color::Black);
        assert_eq!(limits.time_left, Some(ms(3500)));
        assert_eq!(limits.increment, ms(60));
        assert_eq!(limits.moves_to_go, Some(20));
        assert!(!limits.infinite);
    }

    #[test]
    fn ucci_clocks_are_the_movers() {
        let go = ucci("time 2000 increment 10 opptime 900 oppincrement 5 draw").unwrap();
        let limits = go.limits(Color::Black);
        assert_eq!(limits.time_left, Some(ms(2000)));
        assert_eq!(limits.increment, ms(10));
        assert!(go.draw);
        assert_eq!(
            uci("time 2000"),
            Err(GoError::OtherDialect {
                word: "time".into(),
                dialect: Dialect::Uci
            })
        );
    }

    #[test]
    fn limits_are_clamped_and_default_to_infinite() {
        let limits = uci("depth 0 nodes 0 mate 99").unwrap().limits(Color::Red);
        assert_eq!(limits.depth, Some(1));
        assert_eq!(limits.nodes, Some(1));
        assert_eq!(limits.mate, Some(60));
        assert!(uci("").unwrap().limits(Color::Red).infinite);
        assert!(!uci("ponder").unwrap().limits(Color::Red).infinite);
        // A clock below zero means no time left.
        assert_eq!(uci("wtime -20").unwrap().red_time, Some(Duration::ZERO));
    }

    #[test]
    fn bad_parameters_name_the_word() {
        assert_eq!(
            uci("depth banana"),
            Err(GoError::BadNumber {
                word: "depth".into(),
                value: "banana".into()
            })
        );
        assert_eq!(
            uci("nodes"),
            Err(GoError::MissingNumber {
                word: "nodes".into()
            })
        );
        assert_eq!(
            uci("sideways 3"),
            Err(GoError::Unknown {
                word: "sideways".into()
            })
        );
        assert_eq!(uci("perft 5"), Err(GoError::Perft));
        assert!(matches!(
            uci("searchmoves h2e2 zz"),
            Err(GoError::SearchMove(_))
        ));
        let message = uci("depth banana").unwrap_err().to_string();
        assert!(
            message.contains("'depth'") && message.contains("'banana'"),
            "{message}"
        );
    }

    #[test]
    fn search_moves_take_the_rest_of_the_line_in_either_numbering() {
        let go = GoParams::parse(
            "depth 3 searchmoves h3e3 a10a9",
            Dialect::Uci,
            RankBase::One,
        )
        .unwrap();
        assert_eq!(go.depth, Some(3));
        assert_eq!(
            go.search_moves,
            ["h2e2", "a9a8"].map(|m| m.parse::<Move>().unwrap())
        );
        assert_eq!(
            go.format(RankBase::One),
            "go depth 3 searchmoves h3e3 a10a9"
        );
    }

    #[test]
    fn clocks_are_written_in_the_dialects_words() {
        let time = [ms(4000), ms(3500)];
        let increment = [ms(50), ms(50)];
        let go = GoParams::clocks(Dialect::Uci, Color::Black, time, increment);
        assert_eq!(
            go.format(RankBase::Zero),
            "go wtime 4000 btime 3500 winc 50 binc 50"
        );
        let go = GoParams::clocks(Dialect::Ucci, Color::Black, time, increment);
        assert_eq!(go.format(RankBase::Zero), "go time 3500 increment 50");
        assert_eq!(GoParams::depth(3).format(RankBase::Zero), "go depth 3");
    }
}
