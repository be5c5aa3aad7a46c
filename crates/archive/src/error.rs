//! What can go wrong with the archive, each case naming the file or folder and what is wrong,
//! with a stable code for an interface to word it.

use std::fmt;
use std::path::PathBuf;

/// Why the archive could not be opened or a request on it failed.
#[derive(Debug)]
pub enum ArchiveError {
    /// The folder for the database could not be created.
    CannotCreateFolder {
        /// The folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The database file could not be opened or created (no permission, a folder in the way).
    CannotOpen {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        reason: String,
    },
    /// The file is not a SQLite database, or its content is damaged.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        reason: String,
    },
    /// The database was written by a newer version of this program, with a schema this one
    /// does not know.
    NewerSchema {
        /// The file.
        path: PathBuf,
        /// The schema version in the file.
        found: i64,
        /// The newest version this program knows.
        known: i64,
    },
    /// A game's record could not be written or read back.
    Record(String),
    /// The game saved under this key was deleted; it is not saved again.
    Deleted {
        /// The game's key.
        key: String,
    },
    /// Any other database failure (a full disk, a lock held too long …).
    Database(rusqlite::Error),
}

impl ArchiveError {
    /// Every value [`ArchiveError::code`] can return, for checking that each language words
    /// them all.
    pub const CODES: [&'static str; 7] = [
        "archive-folder",
        "archive-open",
        "archive-corrupt",
        "archive-newer",
        "archive-record",
        "archive-deleted",
        "archive-database",
    ];

    /// A stable code for the case: `archive-folder`, `archive-open`, `archive-corrupt`,
    /// `archive-newer`, `archive-record`, `archive-deleted` or `archive-database`.
    pub fn code(&self) -> &'static str {
        match self {
            ArchiveError::CannotCreateFolder { .. } => "archive-folder",
            ArchiveError::CannotOpen { .. } => "archive-open",
            ArchiveError::Corrupt { .. } => "archive-corrupt",
            ArchiveError::NewerSchema { .. } => "archive-newer",
            ArchiveError::Record(_) => "archive-record",
            ArchiveError::Deleted { .. } => "archive-deleted",
            ArchiveError::Database(_) => "archive-database",
        }
    }

    /// Whether the error says the file is damaged or is no database: the archive cannot be
    /// trusted until the file is moved aside. A value of the wrong type or text that is not
    /// UTF-8 in a column this program wrote is damage too: bytes changed inside a row.
    pub fn is_damage(&self) -> bool {
        use rusqlite::{Error, ErrorCode};
        match self {
            ArchiveError::Corrupt { .. } => true,
            ArchiveError::Database(
                Error::InvalidColumnType(..)
                | Error::FromSqlConversionFailure(..)
                | Error::Utf8Error(..),
            ) => true,
            ArchiveError::Database(e) => matches!(
                e.sqlite_error_code(),
                Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt)
            ),
            _ => false,
        }
    }

    /// The file or folder concerned, where there is one.
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            ArchiveError::CannotCreateFolder { path, .. }
            | ArchiveError::CannotOpen { path, .. }
            | ArchiveError::Corrupt { path, .. }
            | ArchiveError::NewerSchema { path, .. } => Some(path),
            ArchiveError::Record(_) | ArchiveError::Deleted { .. } | ArchiveError::Database(_) => {
                None
            }
        }
    }

    /// The error of a database request on the file at `path`: a damaged file or one that is
    /// no database becomes [`ArchiveError::Corrupt`], one that cannot be opened
    /// [`ArchiveError::CannotOpen`].
    pub(crate) fn at(path: &std::path::Path, error: rusqlite::Error) -> ArchiveError {
        use rusqlite::ErrorCode;
        match error.sqlite_error_code() {
            Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => ArchiveError::Corrupt {
                path: path.to_path_buf(),
                reason: error.to_string(),
            },
            Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied | ErrorCode::ReadOnly) => {
                ArchiveError::CannotOpen {
                    path: path.to_path_buf(),
                    reason: error.to_string(),
                }
            }
            _ => ArchiveError::Database(error),
        }
    }
}

impl fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArchiveError::CannotCreateFolder { path, source } => write!(
                f,
                "the folder {} for the games archive cannot be created: {source}",
                path.display()
            ),
            ArchiveError::CannotOpen { path, reason } => write!(
                f,
                "the games archive {} cannot be opened: {reason}",
                path.display()
            ),
            ArchiveError::Corrupt { path, reason } => write!(
                f,
                "the games archive {} is not a database or is damaged ({reason}); move it away \
                 to start a new archive",
                path.display()
            ),
            ArchiveError::NewerSchema { path, found, known } => write!(
                f,
                "the games archive {} was written by a newer version of this program (schema \
                 {found}, this version knows up to {known}); update the program to open it",
                path.display()
            ),
            ArchiveError::Record(reason) => write!(f, "a game's record failed: {reason}"),
            ArchiveError::Deleted { key } => write!(
                f,
                "the game {key} was deleted from the archive; it is not saved again"
            ),
            ArchiveError::Database(e) => write!(f, "the games archive failed: {e}"),
        }
    }
}

impl std::error::Error for ArchiveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ArchiveError::CannotCreateFolder { source, .. } => Some(source),
            ArchiveError::Database(e) => Some(e),
            _ => None,
        }
    }
}

impl From<rusqlite::Error> for ArchiveError {
    fn from(error: rusqlite::Error) -> ArchiveError {
        ArchiveError::Database(error)
    }
}
