//! What can go wrong with the archive, each case naming the file or folder and what is wrong,
//! with its [`Reason`], whose stable code an interface words.

use std::fmt;
use std::path::PathBuf;

/// Why the archive could not be opened or a request on it failed.
#[derive(Debug)]
pub enum StoreError {
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
    /// A request on the PostgreSQL server failed (the connection lost, the server refusing).
    Postgres(postgres::Error),
    /// The database file was deleted, moved, replaced or overwritten by another program
    /// while the store had it open: writing on would lose what is written.
    Gone {
        /// The file.
        path: PathBuf,
        /// What happened to it: `deleted or moved`, `replaced`, `overwritten by another
        /// program`.
        what: &'static str,
    },
}

/// What kind of failure, as an interface words it: each has a stable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The program keeps nothing: it was started without a data folder.
    Off,
    /// The folder for the database could not be created.
    Folder,
    /// The database could not be opened (or written: read-only).
    Open,
    /// The file is no database or is damaged.
    Corrupt,
    /// The file was written by a newer version of the program.
    Newer,
    /// A game's record could not be written or read back.
    Record,
    /// The game was deleted; it is not saved again.
    Deleted,
    /// Any other database failure.
    Database,
    /// The file was deleted, replaced or overwritten while the store had it open.
    Gone,
}

impl Reason {
    /// Every reason, for checking that each language words them all.
    pub const ALL: [Reason; 9] = [
        Reason::Off,
        Reason::Folder,
        Reason::Open,
        Reason::Corrupt,
        Reason::Newer,
        Reason::Record,
        Reason::Deleted,
        Reason::Database,
        Reason::Gone,
    ];

    /// Its stable code: `archive-off`, `archive-folder`, `archive-open`, `archive-corrupt`,
    /// `archive-newer`, `archive-record`, `archive-deleted`, `archive-database` or
    /// `archive-gone`.
    pub fn code(self) -> &'static str {
        match self {
            Reason::Off => "archive-off",
            Reason::Folder => "archive-folder",
            Reason::Open => "archive-open",
            Reason::Corrupt => "archive-corrupt",
            Reason::Newer => "archive-newer",
            Reason::Record => "archive-record",
            Reason::Deleted => "archive-deleted",
            Reason::Database => "archive-database",
            Reason::Gone => "archive-gone",
        }
    }
}

impl StoreError {
    /// What kind of failure it is.
    pub fn reason(&self) -> Reason {
        match self {
            StoreError::CannotCreateFolder { .. } => Reason::Folder,
            StoreError::CannotOpen { .. } => Reason::Open,
            StoreError::Corrupt { .. } => Reason::Corrupt,
            StoreError::NewerSchema { .. } => Reason::Newer,
            StoreError::Record(_) => Reason::Record,
            StoreError::Deleted { .. } => Reason::Deleted,
            StoreError::Database(_) | StoreError::Postgres(_) => Reason::Database,
            StoreError::Gone { .. } => Reason::Gone,
        }
    }

    /// Whether the error says the file is damaged or is no database: the archive cannot be
    /// trusted until the file is moved aside. A value of the wrong type or text that is not
    /// UTF-8 in a column this program wrote is damage too: bytes changed inside a row.
    pub fn is_damage(&self) -> bool {
        use rusqlite::{Error, ErrorCode};
        match self {
            StoreError::Corrupt { .. } => true,
            StoreError::Database(
                Error::InvalidColumnType(..)
                | Error::FromSqlConversionFailure(..)
                | Error::Utf8Error(..),
            ) => true,
            StoreError::Database(e) => matches!(
                e.sqlite_error_code(),
                Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt)
            ),
            _ => false,
        }
    }

    /// The file or folder concerned, where there is one.
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            StoreError::CannotCreateFolder { path, .. }
            | StoreError::CannotOpen { path, .. }
            | StoreError::Corrupt { path, .. }
            | StoreError::NewerSchema { path, .. }
            | StoreError::Gone { path, .. } => Some(path),
            StoreError::Record(_)
            | StoreError::Deleted { .. }
            | StoreError::Database(_)
            | StoreError::Postgres(_) => None,
        }
    }

    /// The error of a database request on the file at `path`: a damaged file or one that is
    /// no database becomes [`StoreError::Corrupt`], one that cannot be opened
    /// [`StoreError::CannotOpen`].
    pub(crate) fn at(path: &std::path::Path, error: rusqlite::Error) -> StoreError {
        use rusqlite::ErrorCode;
        match error.sqlite_error_code() {
            Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => StoreError::Corrupt {
                path: path.to_path_buf(),
                reason: error.to_string(),
            },
            Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied | ErrorCode::ReadOnly) => {
                StoreError::CannotOpen {
                    path: path.to_path_buf(),
                    reason: error.to_string(),
                }
            }
            _ => StoreError::Database(error),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::CannotCreateFolder { path, source } => write!(
                f,
                "the folder {} for the games archive cannot be created: {source}",
                path.display()
            ),
            StoreError::CannotOpen { path, reason } => write!(
                f,
                "the games archive {} cannot be opened: {reason}",
                path.display()
            ),
            StoreError::Corrupt { path, reason } => write!(
                f,
                "the games archive {} is not a database or is damaged ({reason}); move it away \
                 to start a new archive",
                path.display()
            ),
            StoreError::NewerSchema { path, found, known } => write!(
                f,
                "the games archive {} was written by a newer version of this program (schema \
                 {found}, this version knows up to {known}); update the program to open it",
                path.display()
            ),
            StoreError::Record(reason) => write!(f, "a game's record failed: {reason}"),
            StoreError::Deleted { key } => write!(
                f,
                "the game {key} was deleted from the archive; it is not saved again"
            ),
            StoreError::Database(e) => write!(f, "the games archive failed: {e}"),
            StoreError::Postgres(e) => match e.as_db_error() {
                Some(db) => write!(f, "the PostgreSQL store failed: {}", db.message()),
                None => write!(f, "the PostgreSQL store failed: {e}"),
            },
            StoreError::Gone { path, what } => write!(
                f,
                "the games archive {} was {what} while the server ran; games are no longer \
                 saved (restart the server to open or start the archive again)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::CannotCreateFolder { source, .. } => Some(source),
            StoreError::Database(e) => Some(e),
            StoreError::Postgres(e) => Some(e),
            _ => None,
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> StoreError {
        StoreError::Database(error)
    }
}

impl From<postgres::Error> for StoreError {
    fn from(error: postgres::Error) -> StoreError {
        StoreError::Postgres(error)
    }
}
