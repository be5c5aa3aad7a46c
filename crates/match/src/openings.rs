//! Opening positions: the shipped set and files of one position a line.
//!
//! A line holds a FEN, optionally followed by `;` and a comment (the shipped file records the
//! moves that reach the position and our engine's evaluation there). EPD lines — four FEN
//! fields followed by opcodes — are read too. Blank lines and lines starting with `#` are
//! skipped.

use std::fmt;
use std::path::{Path, PathBuf};
use xiangqi_rules::{FenError, Position};

/// The shipped openings: balanced positions a few moves deep (see the file's header for the
/// command that generated them).
pub const SHIPPED_OPENINGS: &str = include_str!("../data/openings.fens");

/// One opening position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position.
    pub position: Position,
    /// Its FEN as we write it.
    pub fen: String,
    /// The comment after the FEN, if any.
    pub comment: Option<String>,
}

impl Opening {
    /// The standard start position.
    pub fn start() -> Opening {
        let position = Position::startpos();
        Opening {
            fen: position.to_fen(),
            position,
            comment: None,
        }
    }
}

/// Why openings could not be read.
#[derive(Debug)]
pub enum OpeningsError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        error: std::io::Error,
    },
    /// A line is not a position.
    Fen {
        /// The file or text the line is in.
        source: String,
        /// The line number, from 1.
        line: usize,
        /// What is wrong with the FEN.
        error: FenError,
    },
    /// There is not one position.
    Empty {
        /// The file or text.
        source: String,
    },
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Read { path, error } => {
                write!(f, "cannot read openings from {}: {error}", path.display())
            }
            OpeningsError::Fen {
                source,
                line,
                error,
            } => write!(f, "{source}:{line}: bad FEN: {error}"),
            OpeningsError::Empty { source } => write!(f, "{source}: no opening positions"),
        }
    }
}

impl std::error::Error for OpeningsError {}

/// Reads openings from `text`; `source` names it in errors (`file.fens:12: …`).
pub fn parse_openings(text: &str, source: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (fen, comment) = match line.split_once(';') {
            Some((fen, comment)) => (fen.trim(), Some(comment.trim().to_string())),
            None => (line, None),
        };
        let position = match Position::from_fen(fen) {
            Ok(position) => position,
            Err(full_error) => {
                // EPD: the first four fields are the position, opcodes follow.
                let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
                Position::from_fen(&fields.join(" ")).map_err(|_| OpeningsError::Fen {
                    source: source.to_string(),
                    line: number + 1,
                    error: full_error,
                })?
            }
        };
        openings.push(Opening {
            fen: position.to_fen(),
            position,
            comment: comment.filter(|c| !c.is_empty()),
        });
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty {
            source: source.to_string(),
        });
    }
    Ok(openings)
}

/// Reads the openings in the file at `path`.
pub fn load_openings(path: &Path) -> Result<Vec<Opening>, OpeningsError> {
    let text = std::fs::read_to_string(path).map_err(|error| OpeningsError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    parse_openings(&text, &path.display().to_string())
}

/// The shipped openings.
pub fn shipped_openings() -> Vec<Opening> {
    parse_openings(SHIPPED_OPENINGS, "openings.fens").unwrap_or_else(|_| vec![Opening::start()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn lines_with_comments_epd_and_blanks_are_read() {
        let text = "# header\n\n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 ; start\n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - c0 \"h2e2\";\n";
        let openings = parse_openings(text, "test").unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].comment.as_deref(), Some("start"));
        assert_eq!(openings[0].position, Position::startpos());
        assert_eq!(
            openings[1].position.side_to_move(),
            xiangqi_rules::Color::Black
        );
    }

    #[test]
    fn bad_lines_are_reported_with_their_number() {
        let err = parse_openings("# x\nnot a fen\n", "book.fens").unwrap_err();
        assert!(matches!(err, OpeningsError::Fen { line: 2, .. }), "{err:?}");
        assert!(err.to_string().starts_with("book.fens:2: bad FEN"), "{err}");
        assert!(matches!(
            parse_openings("# only comments\n", "empty"),
            Err(OpeningsError::Empty { .. })
        ));
        let missing = load_openings(Path::new("/nonexistent/book.fens")).unwrap_err();
        assert!(
            missing.to_string().contains("/nonexistent/book.fens"),
            "{missing}"
        );
    }

    #[test]
    fn shipped_openings_are_many_distinct_and_playable() {
        let openings = parse_openings(SHIPPED_OPENINGS, "openings.fens").unwrap();
        assert!(openings.len() >= 200, "{}", openings.len());
        let mut seen = HashSet::new();
        for opening in &openings {
            assert!(
                seen.insert(opening.position.hash()),
                "duplicate {}",
                opening.fen
            );
            assert!(
                !opening.position.legal_moves().is_empty(),
                "{}",
                opening.fen
            );
        }
    }
}
