//! Errors of the tables: each names the ending and the file it concerns.

use crate::ending::EndingError;
use std::fmt;
use std::path::PathBuf;

/// Why a table could not be made, read or asked.
#[derive(Debug)]
pub enum EgtbError {
    /// An ending name that does not parse.
    BadEnding(EndingError),
    /// The tables' folder does not exist or is not a folder.
    NoFolder(PathBuf),
    /// No table for this material in the folder.
    NoTable {
        /// The ending of the position's material.
        ending: String,
        /// Where its table would be.
        path: PathBuf,
    },
    /// A table file that is damaged: cut short, a wrong checksum, another ending inside.
    Damaged {
        /// The ending the file should hold.
        ending: String,
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// An ending too large for this generator (more pieces or entries than it can index).
    TooLarge {
        /// The ending.
        ending: String,
        /// Why.
        reason: String,
    },
    /// Reading or writing a file failed.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The system's error.
        error: std::io::Error,
    },
    /// A table's own check failed (see [`crate::Tablebases::verify`]).
    Check {
        /// The ending.
        ending: String,
        /// The first contradiction found, with its position.
        reason: String,
    },
}

impl fmt::Display for EgtbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgtbError::BadEnding(e) => write!(f, "{e}"),
            EgtbError::NoFolder(path) => {
                write!(f, "no tablebase folder at {}", path.display())
            }
            EgtbError::NoTable { ending, path } => write!(
                f,
                "no table for this material ({ending}): {} does not exist; make it with `xiangqi egtb generate {ending}`",
                path.display()
            ),
            EgtbError::Damaged {
                ending,
                path,
                reason,
            } => write!(
                f,
                "the {ending} table {} is damaged: {reason}; delete it and generate it again",
                path.display()
            ),
            EgtbError::TooLarge { ending, reason } => {
                write!(f, "the ending {ending} is too large: {reason}")
            }
            EgtbError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            EgtbError::Check { ending, reason } => {
                write!(f, "the {ending} table fails its check: {reason}")
            }
        }
    }
}

impl std::error::Error for EgtbError {}

impl From<EndingError> for EgtbError {
    fn from(e: EndingError) -> EgtbError {
        EgtbError::BadEnding(e)
    }
}
