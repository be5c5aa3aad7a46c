//! The opening trainer's cards in the archive: a database of the first schema (games only)
//! migrates to one with the cards' table and keeps its games; cards save, replace and survive
//! reopening the file.

use std::path::PathBuf;
use xiangqi_store::Store;
use xiangqi_store::{SCHEMA_VERSION, SqliteStore, TrainerCard};

fn folder(test: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-trainer-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn card(line: &str, side: &str, branch: &str, level: u8, due_ms: i64) -> TrainerCard {
    TrainerCard {
        line: line.into(),
        side: side.into(),
        branch: branch.into(),
        level,
        reps: u32::from(level) + 1,
        lapses: 1,
        due_ms,
        last_ms: due_ms - 1000,
    }
}

#[test]
fn a_database_of_the_first_schema_gains_the_cards_table_and_keeps_its_games() {
    let dir = folder("migrate");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.sqlite3");
    {
        // The first schema, as a file written by an earlier version holds it.
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE,
                created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
                finished INTEGER NOT NULL DEFAULT 0, red TEXT NOT NULL DEFAULT '',
                black TEXT NOT NULL DEFAULT '', level INTEGER, level_name TEXT, result TEXT,
                end_reason TEXT, date TEXT NOT NULL, opening TEXT, start_fen TEXT NOT NULL,
                moves_count INTEGER NOT NULL, pgn TEXT NOT NULL, source TEXT NOT NULL, review TEXT);
             CREATE INDEX games_by_date ON games (date DESC, created_ms DESC, id DESC);
             INSERT INTO games (key, created_ms, updated_ms, date, start_fen, moves_count, pgn, source)
                VALUES ('old', 1, 1, '2026.01.01',
                'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
                0, '[Event \"\"]\n\n*\n', 'played');
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let mut archive = SqliteStore::open(&path).unwrap();
    assert_eq!(archive.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(archive.count("").unwrap(), 1, "the old game is kept");
    assert!(archive.trainer_cards("").unwrap().is_empty());
    archive
        .save_trainer_card("", &card("screen-horses", "black", "main", 0, 5000))
        .unwrap();
    assert_eq!(archive.trainer_cards("").unwrap().len(), 1);
}

#[test]
fn cards_are_saved_replaced_and_kept_across_reopening() {
    let path = folder("cards").join("games.sqlite3");
    {
        let mut archive = SqliteStore::open(&path).unwrap();
        archive
            .save_trainer_card(
                "",
                &card("screen-horses", "black", "crossing-chariot", 0, 1_000),
            )
            .unwrap();
        archive
            .save_trainer_card(
                "",
                &card("screen-horses", "red", "crossing-chariot", 1, 2_000),
            )
            .unwrap();
        archive
            .save_trainer_card("", &card("elephant", "black", "seventh-pawn", 2, 3_000))
            .unwrap();
        // The same line, side and branch again: the row is replaced, not added.
        archive
            .save_trainer_card(
                "",
                &card("screen-horses", "black", "crossing-chariot", 3, 9_000),
            )
            .unwrap();
    }
    let archive = SqliteStore::open(&path).unwrap();
    let cards = archive.trainer_cards("").unwrap();
    assert_eq!(
        cards,
        vec![
            card("elephant", "black", "seventh-pawn", 2, 3_000),
            card("screen-horses", "black", "crossing-chariot", 3, 9_000),
            card("screen-horses", "red", "crossing-chariot", 1, 2_000),
        ]
    );
}
