//! The database file as the store opened it, to notice it deleted, replaced, emptied or
//! overwritten in place while the program runs: SQLite would go on writing to a deleted
//! file, or rebuild an emptied one, and what was written would be lost at the next start.

use crate::error::StoreError;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The file's identity and its last state as its one writer left it.
pub(crate) struct FileWatch {
    path: PathBuf,
    /// Device and inode of the file opened.
    identity: Option<(u64, u64)>,
    /// The file's length and when it was last written, as the writer left it: the file is
    /// written only by the writer's own checkpoints, so any other change of them is a write
    /// by someone else (the file overwritten in place).
    stamp: Option<(u64, SystemTime)>,
}

impl FileWatch {
    /// Watches the file at `path` as it is now.
    pub(crate) fn of(path: &Path) -> FileWatch {
        let meta = std::fs::metadata(path).ok();
        FileWatch {
            path: path.to_path_buf(),
            identity: meta.as_ref().map(identity_of),
            stamp: meta.as_ref().and_then(stamp_of),
        }
    }

    /// Takes the file as it is now as the writer's own (after a checkpoint).
    pub(crate) fn rebase(&mut self) {
        self.stamp = std::fs::metadata(&self.path)
            .ok()
            .as_ref()
            .and_then(stamp_of);
    }

    /// Whether the file is still the one opened, as its writer left it.
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        let gone = |what| StoreError::Gone {
            path: self.path.clone(),
            what,
        };
        match std::fs::metadata(&self.path) {
            Err(_) => Err(gone("deleted or moved")),
            Ok(m) if Some(identity_of(&m)) != self.identity => Err(gone("replaced")),
            Ok(m) if m.len() == 0 => Err(StoreError::Corrupt {
                path: self.path.clone(),
                reason: "the file was emptied while the server ran".into(),
            }),
            Ok(m) if stamp_of(&m) != self.stamp => Err(gone("overwritten by another program")),
            Ok(_) => Ok(()),
        }
    }
}

/// A file's length and last write time.
fn stamp_of(meta: &std::fs::Metadata) -> Option<(u64, SystemTime)> {
    Some((meta.len(), meta.modified().ok()?))
}

#[cfg(unix)]
fn identity_of(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn identity_of(_meta: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}
