//! What an engine writes: its name and author, its options, the end of the handshake,
//! `readyok`, `info` lines, the best move, and UCCI's `bye`.

use super::{Dialect, Info};
use std::fmt;
use xiangqi_rules::{Move, ParseMoveError, RankBase};

/// The kind and range of an option an engine offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number.
    Spin {
        /// The value it starts with.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// On or off.
    Check {
        /// The value it starts with.
        default: bool,
    },
    /// An action without a value.
    Button,
    /// Anything else (`string`, `combo`, …): the words after `type`, as written.
    Other(String),
}

/// One option an engine offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// The option's name (UCI names may hold spaces).
    pub name: String,
    /// Its kind and range.
    pub kind: OptionKind,
}

/// A best move: the move to play and the reply the engine expects, if it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move; `None` when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
}

/// One line an engine writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name …`.
    IdName(String),
    /// `id author …`.
    IdAuthor(String),
    /// `option …`.
    Option(OptionDecl),
    /// `uciok` or `ucciok`.
    HandshakeDone(Dialect),
    /// `readyok`.
    ReadyOk,
    /// `info …`.
    Info(Info),
    /// `bestmove …`, or UCCI's `nobestmove`.
    BestMove(BestMove),
    /// `bye`: UCCI's answer to `quit`.
    Bye,
}

/// A line that starts like a reply but cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplyError {
    /// The best move is not a move.
    BestMove {
        /// The word after `bestmove`.
        text: String,
        /// What is wrong with it.
        error: ParseMoveError,
    },
}

impl fmt::Display for ReplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplyError::BestMove { error, .. } => write!(f, "bestmove: {error}"),
        }
    }
}

impl std::error::Error for ReplyError {}

/// The words that stand for "no move" after `bestmove`.
const NO_MOVE: [&str; 4] = ["(none)", "0000", "none", "null"];

impl Reply {
    /// Reads one line, moves with ranks numbered from `ranks`. `Ok(None)` for a line that
    /// is none of the replies (engines print banners and notes of their own).
    pub fn parse(line: &str, ranks: RankBase) -> Result<Option<Reply>, ReplyError> {
        let line = line.trim();
        let (first, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let words: Vec<&str> = rest.split_whitespace().collect();
        let reply = match first {
            "id" => match words.split_first() {
                Some((&"name", name)) => Reply::IdName(name.join(" ")),
                Some((&"author", author)) => Reply::IdAuthor(author.join(" ")),
                _ => return Ok(None),
            },
            "option" => Reply::Option(parse_option(&words)),
            "uciok" => Reply::HandshakeDone(Dialect::Uci),
            "ucciok" => Reply::HandshakeDone(Dialect::Ucci),
            "readyok" => Reply::ReadyOk,
            "info" => Reply::Info(Info::parse(rest, ranks)),
            "nobestmove" => Reply::BestMove(BestMove {
                best: None,
                ponder: None,
            }),
            "bestmove" => {
                let read = |text: &str| Move::parse_coordinates(text, ranks);
                let best = match words.first() {
                    None => None,
                    Some(text) if NO_MOVE.contains(text) => None,
                    Some(text) => Some(read(text).map_err(|error| ReplyError::BestMove {
                        text: text.to_string(),
                        error,
                    })?),
                };
                let ponder = match words.get(1..) {
                    Some(["ponder", text, ..]) => read(text).ok(),
                    _ => None,
                };
                Reply::BestMove(BestMove { best, ponder })
            }
            "bye" => Reply::Bye,
            _ => return Ok(None),
        };
        Ok(Some(reply))
    }

    /// The line in `dialect`, moves with ranks numbered from `ranks`.
    pub fn format(&self, dialect: Dialect, ranks: RankBase) -> String {
        match self {
            Reply::IdName(name) => format!("id name {name}"),
            Reply::IdAuthor(author) => format!("id author {author}"),
            Reply::Option(option) => format_option(option, dialect),
            Reply::HandshakeDone(dialect) => dialect.handshake_done().to_string(),
            Reply::ReadyOk => "readyok".to_string(),
            Reply::Info(info) => info.format(dialect, ranks),
            Reply::BestMove(BestMove { best: None, .. }) => match dialect {
                Dialect::Uci => "bestmove (none)".to_string(),
                Dialect::Ucci => "nobestmove".to_string(),
            },
            Reply::BestMove(BestMove {
                best: Some(best),
                ponder,
            }) => match ponder {
                Some(ponder) => format!(
                    "bestmove {} ponder {}",
                    best.coordinates(ranks),
                    ponder.coordinates(ranks)
                ),
                None => format!("bestmove {}", best.coordinates(ranks)),
            },
            Reply::Bye => "bye".to_string(),
        }
    }
}

/// Reads the words after `option`: UCI `name <id…> type …`, UCCI `<id> type …`.
fn parse_option(words: &[&str]) -> OptionDecl {
    let words = words.strip_prefix(&["name"]).unwrap_or(words);
    let split = words
        .iter()
        .position(|w| *w == "type")
        .unwrap_or(words.len());
    let name = words[..split].join(" ");
    let after = words.get(split + 1..).unwrap_or(&[]);
    let value = |key: &str| {
        after
            .iter()
            .position(|w| *w == key)
            .and_then(|i| after.get(i + 1))
            .copied()
    };
    let number = |key: &str| value(key).and_then(|v| v.parse::<i64>().ok());
    let kind = match after.first().copied() {
        Some("spin") => match (number("default"), number("min"), number("max")) {
            (Some(default), Some(min), Some(max)) => Some(OptionKind::Spin { default, min, max }),
            _ => None,
        },
        Some("check") => match value("default") {
            Some("true") => Some(OptionKind::Check { default: true }),
            Some("false") => Some(OptionKind::Check { default: false }),
            _ => None,
        },
        Some("button") if after.len() == 1 => Some(OptionKind::Button),
        _ => None,
    };
    OptionDecl {
        name,
        kind: kind.unwrap_or_else(|| OptionKind::Other(after.join(" "))),
    }
}

/// The `option` line in `dialect`'s order of words.
fn format_option(option: &OptionDecl, dialect: Dialect) -> String {
    let kind = match (&option.kind, dialect) {
        (OptionKind::Spin { default, min, max }, Dialect::Uci) => {
            format!("spin default {default} min {min} max {max}")
        }
        (OptionKind::Spin { default, min, max }, Dialect::Ucci) => {
            format!("spin min {min} max {max} default {default}")
        }
        (OptionKind::Check { default }, _) => format!("check default {default}"),
        (OptionKind::Button, _) => "button".to_string(),
        (OptionKind::Other(words), _) => words.clone(),
    };
    match dialect {
        Dialect::Uci => format!("option name {} type {kind}", option.name),
        Dialect::Ucci => format!("option {} type {kind}", option.name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Option<Reply> {
        Reply::parse(line, RankBase::Zero).unwrap()
    }

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn lines_are_classified() {
        assert_eq!(read("uciok"), Some(Reply::HandshakeDone(Dialect::Uci)));
        assert_eq!(read("ucciok"), Some(Reply::HandshakeDone(Dialect::Ucci)));
        assert_eq!(read("readyok"), Some(Reply::ReadyOk));
        assert_eq!(read("bye"), Some(Reply::Bye));
        assert_eq!(
            read("id name Fairy-Stockfish 11.1 LB 64"),
            Some(Reply::IdName("Fairy-Stockfish 11.1 LB 64".into()))
        );
        assert_eq!(read("Fairy-Stockfish 11.1 by the authors"), None);
        assert_eq!(read(""), None);
    }

    #[test]
    fn best_moves_and_their_absence_are_read() {
        let best = |best, ponder| Some(Reply::BestMove(BestMove { best, ponder }));
        assert_eq!(
            read("bestmove h2e2 ponder h9g7"),
            best(Some(mv("h2e2")), Some(mv("h9g7")))
        );
        for none in ["bestmove (none)", "bestmove 0000", "nobestmove", "bestmove"] {
            assert_eq!(read(none), best(None, None), "{none}");
        }
        assert_eq!(
            Reply::parse("bestmove a10a9", RankBase::One).unwrap(),
            best(Some(mv("a9a8")), None)
        );
        let error = Reply::parse("bestmove hello", RankBase::Zero).unwrap_err();
        assert!(matches!(&error, ReplyError::BestMove { text, .. } if text == "hello"));
        assert!(error.to_string().contains("'hello'"), "{error}");
    }

    #[test]
    fn options_are_read_in_both_orders() {
        let uci = read("option name Skill Level type spin default 20 min 0 max 20");
        let ucci = read("option skill type spin min 0 max 20 default 20");
        let spin = OptionKind::Spin {
            default: 20,
            min: 0,
            max: 20,
        };
        assert_eq!(
            uci,
            Some(Reply::Option(OptionDecl {
                name: "Skill Level".into(),
                kind: spin.clone()
            }))
        );
        assert_eq!(
            ucci,
            Some(Reply::Option(OptionDecl {
                name: "skill".into(),
                kind: spin
            }))
        );
        assert_eq!(
            read("option name UCI_Variant type combo default chess var chess var xiangqi"),
            Some(Reply::Option(OptionDecl {
                name: "UCI_Variant".into(),
                kind: OptionKind::Other("combo default chess var chess var xiangqi".into())
            }))
        );
    }
}
