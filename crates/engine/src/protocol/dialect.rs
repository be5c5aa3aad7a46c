//! The two dialects a session can speak: UCI (as Pikafish and Fairy-Stockfish speak it for
//! Xiangqi) and UCCI (as ElephantEye speaks it). They share most words; where they differ —
//! the greeting, its answer, the clock words of `go`, the form of a score, a missing best
//! move — the other modules ask the dialect.

use std::fmt;
use std::str::FromStr;

/// Which protocol a session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// UCI as Pikafish speaks it for Xiangqi.
    Uci,
    /// UCCI as ElephantEye speaks it.
    Ucci,
}

impl Dialect {
    /// Both dialects, UCI first.
    pub const ALL: [Dialect; 2] = [Dialect::Uci, Dialect::Ucci];

    /// The greeting that starts a session, and the dialect's name: `uci` or `ucci`.
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Ucci => "ucci",
        }
    }

    /// The engine's answer once it has listed its options: `uciok` or `ucciok`.
    pub const fn handshake_done(self) -> &'static str {
        match self {
            Dialect::Uci => "uciok",
            Dialect::Ucci => "ucciok",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A dialect name that is neither `uci` nor `ucci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownDialect {
    /// The text as given.
    pub text: String,
}

impl fmt::Display for UnknownDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a protocol: expected uci or ucci", self.text)
    }
}

impl std::error::Error for UnknownDialect {}

impl FromStr for Dialect {
    type Err = UnknownDialect;

    /// Reads `uci` or `ucci`, in either case.
    fn from_str(text: &str) -> Result<Dialect, UnknownDialect> {
        Dialect::ALL
            .into_iter()
            .find(|d| text.eq_ignore_ascii_case(d.name()))
            .ok_or_else(|| UnknownDialect {
                text: text.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_in_either_case() {
        for dialect in Dialect::ALL {
            assert_eq!(dialect.to_string().parse(), Ok(dialect));
        }
        assert_eq!("UCCI".parse(), Ok(Dialect::Ucci));
        let error = "xboard".parse::<Dialect>().unwrap_err().to_string();
        assert!(
            error.contains("'xboard'") && error.contains("ucci"),
            "{error}"
        );
    }
}
