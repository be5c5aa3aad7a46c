//! How to start and talk to one engine: its name, command line, protocol, rank numbering and
//! options, as written on the command line (`name=dev cmd="xiangqi uci" proto=uci
//! option.Hash=16 ranks=0`).

use std::fmt;
use std::path::PathBuf;
use xiangqi_engine::protocol::Dialect;
use xiangqi_rules::RankBase;

/// Everything needed to start one engine and set it up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name used in the PGN and in reports.
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The protocol it speaks.
    pub dialect: Dialect,
    /// The rank numbering of its moves: 0–9 (UCCI engines, Pikafish, ours) or 1–10
    /// (Fairy-Stockfish in plain UCI).
    pub ranks: RankBase,
    /// Options set after the handshake, in order: (name, value).
    pub options: Vec<(String, String)>,
    /// The directory it runs in (the current one when absent).
    pub dir: Option<PathBuf>,
}

/// The keys an engine description may use, for messages.
const KEYS: &str = "name, cmd, proto, ranks, dir, option.NAME";

/// Why an engine description could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// A word is not `key=value`.
    NotKeyValue {
        /// The word.
        word: String,
    },
    /// A key that no setting has.
    UnknownKey {
        /// The key.
        key: String,
    },
    /// `cmd=` is empty.
    EmptyCommand,
    /// `cmd=` has a quote that is not closed.
    UnclosedQuote {
        /// The command text.
        command: String,
        /// The quote character.
        quote: char,
    },
    /// `proto=` is neither `uci` nor `ucci`.
    Protocol {
        /// The value given.
        value: String,
    },
    /// `ranks=` is neither 0 nor 1.
    Ranks {
        /// The value given.
        value: String,
    },
    /// No `cmd=` at all.
    NoCommand,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::NotKeyValue { word } => {
                write!(f, "engine setting '{word}' is not key=value (keys: {KEYS})")
            }
            SpecError::UnknownKey { key } => {
                write!(f, "unknown engine setting '{key}' (keys: {KEYS})")
            }
            SpecError::EmptyCommand => f.write_str("engine setting cmd= is empty"),
            SpecError::UnclosedQuote { command, quote } => {
                write!(f, "command '{command}' has an unclosed {quote} quote")
            }
            SpecError::Protocol { value } => {
                write!(f, "engine setting proto={value}: expected uci or ucci")
            }
            SpecError::Ranks { value } => write!(
                f,
                "engine setting ranks={value}: expected 0 (ranks 0-9) or 1 (ranks 1-10)"
            ),
            SpecError::NoCommand => f.write_str("engine description has no cmd=\"program args…\""),
        }
    }
}

impl std::error::Error for SpecError {}

impl EngineSpec {
    /// An engine running `command` (already split into words) with the default settings:
    /// UCI, ranks 0–9, no options, named after the program.
    pub fn new(command: Vec<String>) -> EngineSpec {
        let name = command
            .first()
            .map(|program| {
                std::path::Path::new(program)
                    .file_name()
                    .map_or_else(|| program.clone(), |n| n.to_string_lossy().into_owned())
            })
            .unwrap_or_default();
        EngineSpec {
            name,
            command,
            dialect: Dialect::Uci,
            ranks: RankBase::Zero,
            options: Vec::new(),
            dir: None,
        }
    }

    /// Reads a description from `key=value` words: `name=`, `cmd=` (split like a shell line),
    /// `proto=uci|ucci`, `ranks=0|1`, `dir=` and `option.NAME=VALUE`. `cmd` is required.
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<EngineSpec, SpecError> {
        let mut name = None;
        let mut command = None;
        let mut dialect = Dialect::Uci;
        let mut ranks = RankBase::Zero;
        let mut options = Vec::new();
        let mut dir = None;
        for word in words {
            let word = word.as_ref();
            let Some((key, value)) = word.split_once('=') else {
                return Err(SpecError::NotKeyValue {
                    word: word.to_string(),
                });
            };
            match key {
                "name" => name = Some(value.to_string()),
                "cmd" => {
                    let words = split_command(value)?;
                    if words.is_empty() {
                        return Err(SpecError::EmptyCommand);
                    }
                    command = Some(words);
                }
                "proto" | "protocol" => {
                    dialect = value.parse().map_err(|_| SpecError::Protocol {
                        value: value.to_string(),
                    })?;
                }
                "ranks" => {
                    ranks = match value {
                        "0" => RankBase::Zero,
                        "1" => RankBase::One,
                        _ => {
                            return Err(SpecError::Ranks {
                                value: value.to_string(),
                            });
                        }
                    }
                }
                "dir" => dir = Some(PathBuf::from(value)),
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        options.push((option.to_string(), value.to_string()))
                    }
                    _ => {
                        return Err(SpecError::UnknownKey {
                            key: key.to_string(),
                        });
                    }
                },
            }
        }
        let Some(command) = command else {
            return Err(SpecError::NoCommand);
        };
        let mut spec = EngineSpec::new(command);
        if let Some(name) = name {
            spec.name = name;
        }
        spec.dialect = dialect;
        spec.ranks = ranks;
        spec.options = options;
        spec.dir = dir;
        Ok(spec)
    }
}

/// Splits a command line into words the way a shell would for plain cases: white space
/// separates words, single quotes keep everything, double quotes keep everything but `\"` and
/// `\\`, and a backslash outside quotes escapes the next character.
pub fn split_command(text: &str) -> Result<Vec<String>, SpecError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(unclosed(text, '\'')),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(unclosed(text, '"')),
                        },
                        Some(c) => word.push(c),
                        None => return Err(unclosed(text, '"')),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

fn unclosed(text: &str, quote: char) -> SpecError {
    SpecError::UnclosedQuote {
        command: text.to_string(),
        quote,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_description_is_read() {
        let spec = EngineSpec::parse(&[
            "name=dev",
            "cmd=target/release/xiangqi uci",
            "proto=uci",
            "option.Hash=16",
            "option.Skill Level=5",
            "ranks=1",
        ])
        .unwrap();
        assert_eq!(spec.name, "dev");
        assert_eq!(spec.command, ["target/release/xiangqi", "uci"]);
        assert_eq!(spec.dialect, Dialect::Uci);
        assert_eq!(spec.ranks, RankBase::One);
        assert_eq!(
            spec.options,
            [
                ("Hash".to_string(), "16".to_string()),
                ("Skill Level".to_string(), "5".to_string())
            ]
        );
    }

    #[test]
    fn name_defaults_to_the_program() {
        let spec = EngineSpec::parse(&["cmd=/usr/games/fairy-stockfish", "proto=ucci"]).unwrap();
        assert_eq!(spec.name, "fairy-stockfish");
        assert_eq!(spec.dialect, Dialect::Ucci);
        assert_eq!(spec.ranks, RankBase::Zero);
    }

    #[test]
    fn bad_descriptions_say_what_is_wrong() {
        let error = |words: &[&str]| EngineSpec::parse(words).unwrap_err();
        assert_eq!(error(&["name=x"]), SpecError::NoCommand);
        assert_eq!(
            error(&["cmd=x", "proto=xboard"]),
            SpecError::Protocol {
                value: "xboard".into()
            }
        );
        assert_eq!(
            error(&["cmd=x", "ranks=2"]),
            SpecError::Ranks { value: "2".into() }
        );
        assert_eq!(
            error(&["cmd=x", "colour=red"]),
            SpecError::UnknownKey {
                key: "colour".into()
            }
        );
        assert_eq!(
            error(&["cmd=x", "hash"]),
            SpecError::NotKeyValue {
                word: "hash".into()
            }
        );
        assert_eq!(error(&["cmd="]), SpecError::EmptyCommand);
        let message = error(&["cmd=x", "proto=xboard"]).to_string();
        assert!(
            message.contains("proto=xboard") && message.contains("ucci"),
            "{message}"
        );
    }

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(split_command("a  b\tc").unwrap(), ["a", "b", "c"]);
        assert_eq!(
            split_command(r#"run "two words" 'single \ quoted' back\ slash"#).unwrap(),
            ["run", "two words", "single \\ quoted", "back slash"]
        );
        assert_eq!(split_command(r#""say \"hi\"""#).unwrap(), [r#"say "hi""#]);
        assert_eq!(split_command("''").unwrap(), [""]);
        assert_eq!(
            split_command("\"open"),
            Err(SpecError::UnclosedQuote {
                command: "\"open".into(),
                quote: '"'
            })
        );
    }
}
