//! A game's row as both stores keep it: the fields an entry sets, its record written out as
//! PGN with ICCS moves, and the games of a record file made ready to be added.

use crate::entry::{GameEntry, ImportReport, Source};
use crate::error::StoreError;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};
use xiangqi_records::{Collection, GameResult, pgn};
use xiangqi_rules::notation::Notation;

/// The notation moves are stored in: ICCS reads back exactly from any position.
const STORED_NOTATION: Notation = Notation::Iccs;

/// The games of a record file made ready to be added to an archive: their rows built (the
/// record written as PGN), which takes the time, without the database.
pub struct PreparedImport {
    pub(crate) rows: Vec<(GameEntry, RowTexts)>,
    /// The first row not yet added.
    pub(crate) next: usize,
    pub(crate) report: ImportReport,
}

impl PreparedImport {
    /// The rows of the games read into `collection`; those that could not be read go to the
    /// report.
    pub fn of(collection: Collection, owner: &str) -> Result<PreparedImport, StoreError> {
        let mut report = ImportReport {
            warnings: collection.warnings,
            ..ImportReport::default()
        };
        let mut rows = Vec::new();
        for game in collection.games {
            match game {
                Ok(record) => {
                    let mut entry = imported_entry(record);
                    entry.owner = owner.to_string();
                    let texts = RowTexts::of(&entry)?;
                    rows.push((entry, texts));
                }
                Err(error) => report.broken.push(error),
            }
        }
        Ok(PreparedImport {
            rows,
            next: 0,
            report,
        })
    }

    /// How many games are to be added in all, and how many have been.
    pub fn progress(&self) -> (usize, usize) {
        (self.rows.len(), self.next)
    }

    /// What the import has done so far: the games added, and those that could not be read.
    pub fn report(&self) -> &ImportReport {
        &self.report
    }

    /// The report, once the import is over.
    pub fn into_report(self) -> ImportReport {
        self.report
    }
}

/// What a row stores of an entry: its fields and what the record gives.
pub(crate) struct Stored<'e> {
    pub(crate) entry: &'e GameEntry,
    pub(crate) level: Option<u32>,
    pub(crate) level_name: Option<&'e str>,
    pub(crate) result: Option<&'static str>,
    pub(crate) start_fen: String,
    pub(crate) moves_count: i64,
    pub(crate) pgn: String,
    /// The time control, empty for none.
    pub(crate) time_control: &'e str,
}

/// What takes the time in building a row: its record written out.
pub(crate) struct RowTexts {
    start_fen: String,
    pgn: String,
}

impl RowTexts {
    pub(crate) fn of(entry: &GameEntry) -> Result<RowTexts, StoreError> {
        let mut record = entry.record.clone();
        set_tag(&mut record, "Red", &entry.red);
        set_tag(&mut record, "Black", &entry.black);
        set_tag(&mut record, "Date", &entry.date);
        if let Some(control) = &entry.time_control {
            set_tag(&mut record, "TimeControl", control);
        }
        Ok(RowTexts {
            start_fen: record.start.to_fen(),
            pgn: write_pgn(&record)?,
        })
    }
}

impl<'e> Stored<'e> {
    pub(crate) fn of(entry: &'e GameEntry) -> Result<Stored<'e>, StoreError> {
        Ok(Stored::with(entry, &RowTexts::of(entry)?))
    }

    /// The row of `entry`, its record written out as `texts`.
    pub(crate) fn with(entry: &'e GameEntry, texts: &RowTexts) -> Stored<'e> {
        Stored {
            entry,
            level: entry.level.as_ref().map(|l| l.number),
            level_name: entry.level.as_ref().map(|l| l.name.as_str()),
            result: result_text(entry.record.result),
            start_fen: texts.start_fen.clone(),
            moves_count: entry.record.moves.moves.len() as i64,
            pgn: texts.pgn.clone(),
            time_control: entry.time_control.as_deref().unwrap_or(""),
        }
    }
}

fn set_tag(record: &mut xiangqi_records::Game, name: &str, value: &str) {
    if value.is_empty() {
        record.tags.remove(name);
    } else {
        record.tags.set(name, value);
    }
}

/// The entry for a game read from a file.
fn imported_entry(record: xiangqi_records::Game) -> GameEntry {
    let tag = |name: &str| record.tags.get(name).unwrap_or("").trim().to_string();
    let date = match tag("Date") {
        d if d.is_empty() => "????.??.??".to_string(),
        d => d,
    };
    let opening = Some(tag("Opening")).filter(|o| !o.is_empty());
    // PGN writes `-` for a game without a clock and `?` for one not known.
    let time_control = Some(tag("TimeControl")).filter(|t| !matches!(t.as_str(), "" | "-" | "?"));
    GameEntry {
        key: None,
        finished: record.result.is_some(),
        red: tag("Red"),
        black: tag("Black"),
        level: None,
        end_reason: None,
        date,
        opening,
        time_control,
        source: Source::Imported,
        owner: String::new(),
        record,
    }
}

/// How a result is kept: its words (`red-wins`, `black-wins`, `draw`), or NULL when not known.
pub(crate) fn result_text(result: Option<GameResult>) -> Option<&'static str> {
    result.map(GameResult::as_str)
}

/// The record as it is stored: PGN with ICCS moves.
pub(crate) fn write_pgn(record: &xiangqi_records::Game) -> Result<String, StoreError> {
    pgn::write_game(record, STORED_NOTATION).map_err(|e| StoreError::Record(e.to_string()))
}

/// A stored record read back.
pub(crate) fn read_pgn(text: &str) -> Result<xiangqi_records::Game, StoreError> {
    let mut games = pgn::read_str(text).map_err(|e| StoreError::Record(e.to_string()))?;
    match games.len() {
        1 => Ok(games.remove(0)),
        n => Err(StoreError::Record(format!(
            "a stored record holds {n} games instead of one"
        ))),
    }
}

/// Now, in milliseconds since 1970 (UTC).
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A key no other game has: 128 random bits from the standard library's hasher seeds, mixed
/// with the time and a counter.
pub fn new_key() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let part = |salt: u64| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(salt);
        h.write_u64(n);
        h.write_i64(now_ms());
        h.finish()
    };
    format!("{:016x}{:016x}", part(1), part(2))
}
