//! The endgame tables the server keeps in its data folder: the tables already there, read by
//! the analysis and the review, and those the endgame course has made on first use, in a
//! blocking task, one generation at a time.

use crate::kit::error::{ApiError, ErrorCode};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use xiangqi_egtb::{Ending, Options, Tablebases, generate};

/// The folder of endgame tables: where it is, the tables opened from it, which are being
/// made, and the lock that lets one generation run at a time.
#[derive(Clone)]
pub struct TableFolder {
    inner: Arc<Inner>,
}

struct Inner {
    dir: Option<PathBuf>,
    tables: Mutex<Option<Arc<Tablebases>>>,
    preparing: Mutex<HashMap<Ending, Prep>>,
    generation: tokio::sync::Mutex<()>,
}

#[derive(Clone)]
enum Prep {
    Preparing,
    Failed(String),
}

impl TableFolder {
    /// The tables in `data`'s `egtb` folder, else in `xiangqi_egtb::default_dir()`.
    pub fn new(data: Option<&Path>) -> TableFolder {
        let dir = data
            .map(|d| d.join("egtb"))
            .or_else(xiangqi_egtb::default_dir);
        TableFolder {
            inner: Arc::new(Inner {
                dir,
                tables: Mutex::new(None),
                preparing: Mutex::new(HashMap::new()),
                generation: tokio::sync::Mutex::new(()),
            }),
        }
    }

    /// Whether the table of `ending` and of every ending its captures lead to is on disk.
    pub fn ready(&self, ending: Ending) -> bool {
        self.inner.dir.as_ref().is_some_and(|dir| {
            ending
                .with_sub_endings()
                .iter()
                .all(|e| dir.join(e.file_name()).is_file())
        })
    }

    /// `ready`, `preparing`, `failed` or `missing`, with the failure's reason.
    pub fn state(&self, ending: Ending) -> (&'static str, Option<String>) {
        if self.ready(ending) {
            return ("ready", None);
        }
        let preparing = self
            .inner
            .preparing
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        match preparing.get(&ending) {
            Some(Prep::Preparing) => ("preparing", None),
            Some(Prep::Failed(reason)) => ("failed", Some(reason.clone())),
            None => ("missing", None),
        }
    }

    fn mark(&self, ending: Ending, prep: Option<Prep>) {
        let mut preparing = self
            .inner
            .preparing
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        match prep {
            Some(p) => preparing.insert(ending, p),
            None => preparing.remove(&ending),
        };
    }

    /// The opened tables (the folder made first).
    fn open(&self, dir: &Path) -> Result<Arc<Tablebases>, ApiError> {
        let mut tables = self.inner.tables.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = tables.as_ref() {
            return Ok(t.clone());
        }
        std::fs::create_dir_all(dir).map_err(|e| {
            ApiError::new(
                ErrorCode::Unavailable,
                format!("the tables' folder {} cannot be made: {e}", dir.display()),
            )
        })?;
        let opened = Arc::new(
            Tablebases::open(dir)
                .map_err(|e| ApiError::new(ErrorCode::Unavailable, e.to_string()))?,
        );
        *tables = Some(opened.clone());
        Ok(opened)
    }

    /// The tables already in the folder, for the analysis and the review: `None` when the
    /// folder is not there. Nothing is generated; a position whose table is missing is
    /// simply not covered.
    pub fn present(&self) -> Option<Arc<Tablebases>> {
        let dir = self.inner.dir.as_ref().filter(|d| d.is_dir())?;
        self.open(dir).ok()
    }

    /// The tables with `ending`'s made: generated first when missing, in a blocking task,
    /// one generation at a time.
    pub async fn prepare(&self, ending: Ending) -> Result<Arc<Tablebases>, ApiError> {
        let Some(dir) = self.inner.dir.clone() else {
            return Err(ApiError::new(
                ErrorCode::Unavailable,
                "the server has no data folder to keep endgame tables in",
            ));
        };
        let tables = self.open(&dir)?;
        if self.ready(ending) {
            return Ok(tables);
        }
        self.mark(ending, Some(Prep::Preparing));
        let _one_at_a_time = self.inner.generation.lock().await;
        if self.ready(ending) {
            self.mark(ending, None);
            return Ok(tables);
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let made = tokio::task::spawn_blocking(move || {
            generate(&[ending], &dir, &Options { threads }, &mut |_| {})
        })
        .await;
        let failure = match made {
            Ok(Ok(_)) => None,
            Ok(Err(e)) => Some(e.to_string()),
            Err(e) => Some(format!("the generation stopped: {e}")),
        };
        match failure {
            None => {
                self.mark(ending, None);
                Ok(tables)
            }
            Some(reason) => {
                self.mark(ending, Some(Prep::Failed(reason.clone())));
                Err(ApiError::new(
                    ErrorCode::Internal,
                    format!("the table of {ending} could not be made: {reason}"),
                ))
            }
        }
    }
}
