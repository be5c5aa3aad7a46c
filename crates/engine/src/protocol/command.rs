//! What a GUI or match runner writes to an engine: the greeting, `isready`, a new game,
//! options, the position, banned moves, `go`, `stop`, `ponderhit` and `quit` — and this
//! engine's own `bench`, `d` and `eval`.

use super::{Dialect, GoError, GoParams, PositionCommand, PositionError};
use std::fmt;
use xiangqi_rules::{Move, ParseMoveError, RankBase};

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci` or `ucci`: start a session in that dialect.
    Hello(Dialect),
    /// `isready`.
    IsReady,
    /// `ucinewgame`.
    NewGame,
    /// `setoption name <name> [value <value>]` (UCI) or `setoption <name> [<value>]` (UCCI);
    /// the value is empty for a button.
    SetOption {
        /// The option's name.
        name: String,
        /// Its new value.
        value: String,
    },
    /// `position …`.
    Position(PositionCommand),
    /// UCCI's `banmoves …`: moves the search must not play.
    BanMoves(Vec<Move>),
    /// `go …`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `bench [DEPTH]`: this engine's fixed-depth search of the bench positions.
    Bench(Option<i32>),
    /// `d`: show the position.
    Show,
    /// `eval`: the static evaluation of the position.
    Eval,
}

/// What is wrong with a command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is no command.
    Unknown {
        /// The word.
        word: String,
    },
    /// `setoption` without a name.
    OptionName,
    /// A bad `position`.
    Position(PositionError),
    /// A bad `go`.
    Go(GoError),
    /// A `banmoves` word that is not a move.
    BanMove(ParseMoveError),
    /// `bench` with a depth that is not a whole number.
    BenchDepth {
        /// The word after `bench`.
        text: String,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown { word } => write!(f, "unknown command '{word}'"),
            CommandError::OptionName => f.write_str("setoption needs an option name"),
            CommandError::Position(error) => write!(f, "{error}"),
            CommandError::Go(error) => write!(f, "{error}"),
            CommandError::BanMove(error) => write!(f, "banmoves: {error}"),
            CommandError::BenchDepth { text } => {
                write!(f, "bench: the depth '{text}' is not a whole number")
            }
        }
    }
}

impl std::error::Error for CommandError {}

impl From<PositionError> for CommandError {
    fn from(error: PositionError) -> CommandError {
        CommandError::Position(error)
    }
}

impl From<GoError> for CommandError {
    fn from(error: GoError) -> CommandError {
        CommandError::Go(error)
    }
}

impl Command {
    /// Reads one line in a session speaking `dialect`, moves with ranks numbered from
    /// `ranks`. `Ok(None)` for a blank line.
    pub fn parse(
        line: &str,
        dialect: Dialect,
        ranks: RankBase,
    ) -> Result<Option<Command>, CommandError> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let command = match word {
            "" => return Ok(None),
            "uci" => Command::Hello(Dialect::Uci),
            "ucci" => Command::Hello(Dialect::Ucci),
            "isready" => Command::IsReady,
            "ucinewgame" => Command::NewGame,
            "setoption" => parse_setoption(rest)?,
            "position" => Command::Position(PositionCommand::parse(rest, ranks)?),
            "banmoves" => Command::BanMoves(
                rest.split_whitespace()
                    .map(|text| Move::parse_coordinates(text, ranks))
                    .collect::<Result<_, _>>()
                    .map_err(CommandError::BanMove)?,
            ),
            "go" => Command::Go(GoParams::parse(rest, dialect, ranks)?),
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "bench" if rest.is_empty() => Command::Bench(None),
            "bench" => Command::Bench(Some(rest.parse().map_err(|_| {
                CommandError::BenchDepth {
                    text: rest.to_string(),
                }
            })?)),
            "d" => Command::Show,
            "eval" => Command::Eval,
            _ => {
                return Err(CommandError::Unknown {
                    word: word.to_string(),
                });
            }
        };
        Ok(Some(command))
    }

    /// The line in `dialect`, moves with ranks numbered from `ranks`.
    pub fn format(&self, dialect: Dialect, ranks: RankBase) -> String {
        match self {
            Command::Hello(dialect) => dialect.name().to_string(),
            Command::IsReady => "isready".to_string(),
            Command::NewGame => "ucinewgame".to_string(),
            Command::SetOption { name, value } => match (dialect, value.is_empty()) {
                (Dialect::Uci, true) => format!("setoption name {name}"),
                (Dialect::Uci, false) => format!("setoption name {name} value {value}"),
                (Dialect::Ucci, true) => format!("setoption {name}"),
                (Dialect::Ucci, false) => format!("setoption {name} {value}"),
            },
            Command::Position(position) => position.format(ranks),
            Command::BanMoves(moves) => {
                let mut line = String::from("banmoves");
                for m in moves {
                    line.push(' ');
                    line.push_str(&m.coordinates(ranks));
                }
                line
            }
            Command::Go(go) => go.format(ranks),
            Command::Stop => "stop".to_string(),
            Command::PonderHit => "ponderhit".to_string(),
            Command::Quit => "quit".to_string(),
            Command::Bench(None) => "bench".to_string(),
            Command::Bench(Some(depth)) => format!("bench {depth}"),
            Command::Show => "d".to_string(),
            Command::Eval => "eval".to_string(),
        }
    }
}

/// Reads the words after `setoption`: UCI `name <id…> [value <x…>]`, UCCI `<id> [<x…>]`.
fn parse_setoption(rest: &str) -> Result<Command, CommandError> {
    let (name, value) = match rest.strip_prefix("name ") {
        Some(named) => match named.split_once(" value ") {
            Some((name, value)) => (name, value),
            None => (named.strip_suffix(" value").unwrap_or(named), ""),
        },
        None => rest.split_once(char::is_whitespace).unwrap_or((rest, "")),
    };
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        return Err(CommandError::OptionName);
    }
    Ok(Command::SetOption {
        name,
        value: value.trim().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(line: &str) -> Result<Option<Command>, CommandError> {
        Command::parse(line, Dialect::Uci, RankBase::Zero)
    }

    #[test]
    fn options_are_read_in_both_forms() {
        let option = |name: &str, value: &str| {
            Ok(Some(Command::SetOption {
                name: name.into(),
                value: value.into(),
            }))
        };
        assert_eq!(
            uci("setoption name Skill Level value 5"),
            option("Skill Level", "5")
        );
        assert_eq!(uci("setoption name Clear Hash"), option("Clear Hash", ""));
        assert_eq!(uci("setoption hashsize 16"), option("hashsize", "16"));
        assert_eq!(uci("setoption newgame"), option("newgame", ""));
        assert_eq!(uci("setoption"), Err(CommandError::OptionName));
    }

    #[test]
    fn unknown_words_and_bad_arguments_are_named() {
        assert_eq!(uci("   "), Ok(None));
        assert_eq!(
            uci("frobnicate now"),
            Err(CommandError::Unknown {
                word: "frobnicate".into()
            })
        );
        assert!(matches!(
            uci("banmoves a0a9 j9"),
            Err(CommandError::BanMove(_))
        ));
        assert!(matches!(
            uci("position nowhere"),
            Err(CommandError::Position(_))
        ));
        assert!(matches!(uci("go depth x"), Err(CommandError::Go(_))));
        assert_eq!(uci("bench 4"), Ok(Some(Command::Bench(Some(4)))));
        assert!(matches!(
            uci("bench deep"),
            Err(CommandError::BenchDepth { .. })
        ));
    }
}
