//! The archive on real database files: creation and migration, data kept across reopening,
//! concurrent writers, damaged files, filters and order, finishing, review, export and import.

use std::path::PathBuf;
use xiangqi_records::Collection;
use xiangqi_rules::notation::Notation;
use xiangqi_rules::{Game, GameRules, Move, Position};
use xiangqi_store::Store;
use xiangqi_store::{
    Filter, GameEntry, GameResult, Level, SCHEMA_VERSION, Source, SqliteStore, StoreError,
};

/// A fresh folder for one test, under the system's temporary folder.
fn folder(test: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-store-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn mv(text: &str) -> Move {
    text.parse().expect("a coordinate move")
}

/// A played game from the start position after `moves` (ICCS).
fn played(moves: &[&str]) -> Game {
    let mut game = Game::new(Position::startpos());
    for m in moves {
        game.play(mv(m)).expect("a legal move");
    }
    game
}

/// The entry the app saves for `game` against the engine at `level`.
fn entry(key: &str, game: &Game, date: &str, level: u32) -> GameEntry {
    GameEntry {
        key: Some(key.to_string()),
        finished: game.is_over(),
        red: "You".to_string(),
        black: format!("Xiangqi level {level}"),
        level: Some(Level {
            number: level,
            name: format!("Level {level} (~{})", 800 + level * 100),
        }),
        end_reason: game.outcome().map(|o| o.reason.code().to_string()),
        date: date.to_string(),
        opening: None,
        time_control: None,
        record: xiangqi_records::Game::from_played(game),
        source: Source::Played,
        owner: String::new(),
    }
}

/// A game that ends in mate: Red's chariot mates on the top edge.
fn mated() -> Game {
    let mut game = Game::with_rules(
        Position::from_fen("3k5/2R6/9/9/9/9/9/9/9/4K3R w - - 0 1").unwrap(),
        GameRules::default(),
    );
    game.play(mv("i0i9")).unwrap();
    assert!(game.is_over());
    game
}

#[test]
fn a_new_file_is_created_with_its_folder_and_migrated_to_the_newest_schema() {
    let dir = folder("new");
    let path = dir.join("deeper").join("games.sqlite3");
    let archive = SqliteStore::open(&path).unwrap();
    assert!(path.is_file());
    assert_eq!(archive.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(archive.count("").unwrap(), 0);
    assert!(archive.list(&Filter::default()).unwrap().is_empty());
}

#[test]
fn reopening_keeps_the_games() {
    let path = folder("reopen").join("games.sqlite3");
    let game = played(&["h2e2", "h9g7", "h0g2"]);
    let id = {
        let mut archive = SqliteStore::open(&path).unwrap();
        archive.save(&entry("k1", &game, "2026.01.02", 0)).unwrap()
    };
    let archive = SqliteStore::open(&path).unwrap();
    assert_eq!(archive.schema_version().unwrap(), SCHEMA_VERSION);
    let stored = archive.get("", id).unwrap().expect("the game is kept");
    assert_eq!(stored.summary.moves_count, 3);
    assert_eq!(stored.summary.key, "k1");
    assert!(!stored.summary.finished);
    assert_eq!(stored.summary.level.as_ref().map(|l| l.number), Some(0));
    let record = stored.record().unwrap();
    assert_eq!(
        record.mainline().collect::<Vec<_>>(),
        game.moves().to_vec(),
        "the moves read back"
    );
    assert_eq!(record.tags.get("Red"), Some("You"));
}

#[test]
fn saving_under_the_same_key_updates_one_row() {
    let path = folder("same-key").join("games.sqlite3");
    let mut archive = SqliteStore::open(&path).unwrap();
    let first = archive
        .save(&entry("same", &played(&["h2e2"]), "2026.01.02", 4))
        .unwrap();
    let again = archive
        .save(&entry("same", &played(&["h2e2", "h9g7"]), "2026.01.02", 4))
        .unwrap();
    assert_eq!(first, again);
    assert_eq!(archive.count("").unwrap(), 1);
    assert_eq!(
        archive.get("", first).unwrap().unwrap().summary.moves_count,
        2
    );
}

#[test]
fn concurrent_writers_on_their_own_connections_lose_nothing() {
    let path = folder("concurrent").join("games.sqlite3");
    SqliteStore::open(&path).unwrap();
    const THREADS: usize = 6;
    const GAMES: usize = 20;
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut archive = SqliteStore::open(&path).unwrap();
                let moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"];
                for g in 0..GAMES {
                    // Each game is saved after every move, as the app does.
                    for n in 1..=moves.len() {
                        let key = format!("t{t}-g{g}");
                        archive
                            .save(&entry(&key, &played(&moves[..n]), "2026.02.03", 8))
                            .unwrap();
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().expect("a writer finished");
    }
    let archive = SqliteStore::open(&path).unwrap();
    let games = archive.list(&Filter::default()).unwrap();
    assert_eq!(games.len(), THREADS * GAMES);
    assert!(
        games.iter().all(|g| g.moves_count == 6),
        "every last save kept"
    );
}

#[test]
fn a_file_of_garbage_is_reported_as_damaged() {
    let dir = folder("garbage");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.sqlite3");
    let garbage: Vec<u8> = (0..8192u32).map(|i| (i * 7919 % 251) as u8).collect();
    std::fs::write(&path, garbage).unwrap();
    let error = SqliteStore::open(&path).unwrap_err();
    assert!(matches!(error, StoreError::Corrupt { .. }), "{error:?}");
    assert_eq!(error.reason().code(), "archive-corrupt");
    assert!(error.to_string().contains("games.sqlite3"), "{error}");
}

/// The tables of schema version 3, the last without the time control, as that version made
/// them.
const SCHEMA_3: &str = "
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        key         TEXT    NOT NULL UNIQUE,
        created_ms  INTEGER NOT NULL,
        updated_ms  INTEGER NOT NULL,
        finished    INTEGER NOT NULL DEFAULT 0,
        red         TEXT    NOT NULL DEFAULT '',
        black       TEXT    NOT NULL DEFAULT '',
        level       INTEGER,
        level_name  TEXT,
        result      TEXT,
        end_reason  TEXT,
        date        TEXT    NOT NULL,
        opening     TEXT,
        start_fen   TEXT    NOT NULL,
        moves_count INTEGER NOT NULL,
        pgn         TEXT    NOT NULL,
        source      TEXT    NOT NULL,
        review      TEXT
    );
    CREATE INDEX games_by_date ON games (date DESC, created_ms DESC, id DESC);
    CREATE TABLE trainer_cards (
        line        TEXT    NOT NULL,
        side        TEXT    NOT NULL,
        branch      TEXT    NOT NULL,
        box         INTEGER NOT NULL,
        reps        INTEGER NOT NULL,
        lapses      INTEGER NOT NULL,
        due_ms      INTEGER NOT NULL,
        last_ms     INTEGER NOT NULL,
        PRIMARY KEY (line, side, branch)
    );
    CREATE TABLE deleted_games (
        key         TEXT    PRIMARY KEY,
        deleted_ms  INTEGER NOT NULL
    );
    PRAGMA user_version = 3;";

#[test]
fn an_archive_of_schema_3_migrates_on_open_keeping_its_games_with_no_time_control() {
    let path = folder("schema-3").join("games.sqlite3");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let game = played(&["h2e2", "h9g7", "h0g2"]);
    let mut record = xiangqi_records::Game::from_played(&game);
    record.tags.set("Red", "Ann");
    record.tags.set("Black", "Bo");
    record.tags.set("TimeControl", "600+5");
    let pgn = xiangqi_records::pgn::write_game(&record, Notation::Iccs).unwrap();
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(SCHEMA_3).unwrap();
        conn.execute(
            "INSERT INTO games (key, created_ms, updated_ms, finished, red, black, result,
                 end_reason, date, start_fen, moves_count, pgn, source, review)
             VALUES ('old', 1, 2, 1, 'Ann', 'Bo', 'draw', 'agreement', '2025.12.31', ?1, 3,
                 ?2, 'played', '{\"moves\":[]}')",
            rusqlite::params![record.start.to_fen(), pgn],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO trainer_cards VALUES ('l', 'red', 'b', 2, 3, 1, 10, 5)",
            [],
        )
        .unwrap();
        conn.execute("INSERT INTO deleted_games VALUES ('gone', 7)", [])
            .unwrap();
    }

    let mut archive = SqliteStore::open(&path).unwrap();
    assert_eq!(archive.schema_version().unwrap(), SCHEMA_VERSION);
    let games = archive.list(&Filter::default()).unwrap();
    assert_eq!(games.len(), 1);
    let old = &games[0];
    assert_eq!(
        (old.key.as_str(), old.red.as_str(), old.black.as_str()),
        ("old", "Ann", "Bo")
    );
    assert_eq!(
        (old.result, old.end_reason.as_deref(), old.date.as_str()),
        (Some(GameResult::Draw), Some("agreement"), "2025.12.31")
    );
    assert_eq!((old.created_ms, old.updated_ms), (1, 2));
    assert!(old.reviewed);
    assert_eq!(old.time_control, None, "the new column starts empty");
    let stored = archive.get("", old.id).unwrap().unwrap();
    assert_eq!(stored.pgn, pgn, "the record is kept as it was");
    assert_eq!(stored.summary.time_control, None);
    assert_eq!(
        stored.record().unwrap().mainline().collect::<Vec<_>>(),
        game.moves().to_vec()
    );
    assert_eq!(archive.trainer_cards("").unwrap().len(), 1);
    let again = entry("gone", &game, "2026.01.01", 0);
    assert_eq!(
        archive.save(&again).unwrap_err().reason().code(),
        "archive-deleted"
    );

    // The migrated archive keeps a time control from then on, and opens again as it is.
    let mut timed = entry("new", &game, "2026.01.02", 0);
    timed.time_control = Some("300+3".to_string());
    let id = archive.save(&timed).unwrap();
    drop(archive);
    let archive = SqliteStore::open(&path).unwrap();
    assert_eq!(archive.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(archive.count("").unwrap(), 2);
    let summary = archive.get("", id).unwrap().unwrap().summary;
    assert_eq!(summary.time_control.as_deref(), Some("300+3"));
}

#[test]
fn the_time_control_is_kept_listed_written_in_the_record_and_imported() {
    let dir = folder("time-control");
    let mut archive = SqliteStore::open(dir.join("games.sqlite3")).unwrap();
    let mut timed = entry("timed", &mated(), "2026.01.03", 0);
    timed.level = None;
    timed.time_control = Some("300+3".to_string());
    let timed_id = archive.save(&timed).unwrap();
    let untimed_id = archive
        .save(&entry("untimed", &played(&["h2e2"]), "2026.01.02", 0))
        .unwrap();

    let games = archive.list(&Filter::default()).unwrap();
    let control = |id| {
        games
            .iter()
            .find(|g| g.id == id)
            .map(|g| g.time_control.clone())
            .unwrap()
    };
    assert_eq!(control(timed_id).as_deref(), Some("300+3"));
    assert_eq!(control(untimed_id), None);
    let stored = archive.get("", timed_id).unwrap().unwrap();
    assert_eq!(stored.summary.time_control.as_deref(), Some("300+3"));
    assert_eq!(
        stored.record().unwrap().tags.get("TimeControl"),
        Some("300+3")
    );
    let untimed = archive.get("", untimed_id).unwrap().unwrap();
    assert_eq!(untimed.record().unwrap().tags.get("TimeControl"), None);

    // Saving again under the key sets it as the entry says.
    timed.time_control = Some("600+0".to_string());
    assert_eq!(archive.save(&timed).unwrap(), timed_id);
    let summary = archive.get("", timed_id).unwrap().unwrap().summary;
    assert_eq!(summary.time_control.as_deref(), Some("600+0"));
    timed.time_control = None;
    assert_eq!(archive.save(&timed).unwrap(), timed_id);
    assert_eq!(
        archive
            .get("", timed_id)
            .unwrap()
            .unwrap()
            .summary
            .time_control,
        None
    );

    // An imported record's TimeControl tag fills the column; `-` (no clock) leaves it empty.
    let file = "[Game \"Chinese Chess\"]\n[TimeControl \"900+10\"]\n[Format \"ICCS\"]\n\n\
                1. h2e2 h9g7 *\n\n\
                [Game \"Chinese Chess\"]\n[TimeControl \"-\"]\n[Format \"ICCS\"]\n\n\
                1. b2e2 *\n\n";
    let collection: Collection = xiangqi_records::pgn::read_all_str(file).unwrap();
    let mut other = SqliteStore::open(dir.join("other.sqlite3")).unwrap();
    let report = other.import(collection, "").unwrap();
    assert_eq!(report.imported.len(), 2);
    let controls: Vec<_> = report
        .imported
        .iter()
        .map(|&id| other.get("", id).unwrap().unwrap().summary.time_control)
        .collect();
    assert_eq!(controls, [Some("900+10".to_string()), None]);
}

#[test]
fn a_schema_newer_than_the_program_is_refused() {
    let path = folder("newer").join("games.sqlite3");
    drop(SqliteStore::open(&path).unwrap());
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
    }
    let error = SqliteStore::open(&path).unwrap_err();
    match error {
        StoreError::NewerSchema { found, known, .. } => {
            assert_eq!((found, known), (SCHEMA_VERSION + 1, SCHEMA_VERSION));
        }
        other => panic!("expected a newer schema, got {other:?}"),
    }
}

#[test]
fn a_folder_that_cannot_be_made_is_named() {
    let dir = folder("blocked");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, b"not a folder").unwrap();
    let error = SqliteStore::open(file.join("games.sqlite3")).unwrap_err();
    assert_eq!(error.reason().code(), "archive-folder", "{error:?}");
    assert_eq!(error.path(), Some(file.as_path()));
}

#[test]
fn lists_filter_by_result_level_and_state_newest_first() {
    let path = folder("filters").join("games.sqlite3");
    let mut archive = SqliteStore::open(&path).unwrap();
    let old = archive
        .save(&entry("old", &mated(), "2025.12.30", 0))
        .unwrap();
    let new = archive
        .save(&entry("new", &played(&["h2e2"]), "2026.03.01", 4))
        .unwrap();
    let middle = archive
        .save(&entry("middle", &played(&["b2e2"]), "2026.01.15", 0))
        .unwrap();
    let all: Vec<_> = archive
        .list(&Filter::default())
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(all, [new, middle, old]);
    let won = archive
        .list(&Filter {
            result: Some(Some(GameResult::RedWins)),
            ..Filter::default()
        })
        .unwrap();
    assert_eq!(won.len(), 1);
    assert_eq!(won[0].id, old);
    assert!(won[0].finished);
    assert_eq!(won[0].end_reason.as_deref(), Some("checkmate"));
    let level0: Vec<_> = archive
        .list(&Filter {
            level: Some(0),
            ..Filter::default()
        })
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(level0, [middle, old]);
    let going: Vec<_> = archive
        .list(&Filter {
            finished: Some(false),
            ..Filter::default()
        })
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(going, [new, middle]);
    let limited = archive
        .list(&Filter {
            limit: Some(1),
            ..Filter::default()
        })
        .unwrap();
    assert_eq!(limited.len(), 1);
}

#[test]
fn finishing_sets_the_result_and_reason_in_the_row_and_the_record() {
    let path = folder("finish").join("games.sqlite3");
    let mut archive = SqliteStore::open(&path).unwrap();
    let mut game = entry("f", &played(&["h2e2"]), "2026.01.02", 0);
    let id = archive.save(&game).unwrap();
    assert!(!archive.get("", id).unwrap().unwrap().summary.finished);
    game.finished = true;
    game.end_reason = Some("time".to_string());
    game.record.result = Some(GameResult::BlackWins);
    assert_eq!(archive.save(&game).unwrap(), id);
    let stored = archive.get("", id).unwrap().unwrap();
    assert!(stored.summary.finished);
    assert_eq!(stored.summary.result, Some(GameResult::BlackWins));
    assert_eq!(stored.summary.end_reason.as_deref(), Some("time"));
    assert_eq!(stored.record().unwrap().result, Some(GameResult::BlackWins));
}

#[test]
fn a_review_is_kept_and_a_deleted_game_is_gone() {
    let path = folder("review").join("games.sqlite3");
    let mut archive = SqliteStore::open(&path).unwrap();
    let id = archive
        .save(&entry("r", &played(&["h2e2"]), "2026.01.02", 0))
        .unwrap();
    assert!(archive.set_review(id, r#"{"accuracy":[90,80]}"#).unwrap());
    let stored = archive.get("", id).unwrap().unwrap();
    assert!(stored.summary.reviewed);
    assert_eq!(stored.review.as_deref(), Some(r#"{"accuracy":[90,80]}"#));
    assert!(archive.delete("", id).unwrap());
    assert!(archive.get("", id).unwrap().is_none());
    assert!(!archive.delete("", id).unwrap());
    // A board still playing the deleted game cannot bring it back, even after a reopen.
    drop(archive);
    let mut archive = SqliteStore::open(&path).unwrap();
    let err = archive
        .save(&entry("r", &played(&["h2e2", "h9g7"]), "2026.01.02", 0))
        .expect_err("a deleted key is not saved again");
    assert_eq!(err.reason().code(), "archive-deleted");
    assert!(err.to_string().contains("deleted"), "{err}");
    assert_eq!(archive.count("").unwrap(), 0);
}

#[test]
fn export_writes_every_game_and_import_adds_them_back_with_broken_games_reported() {
    let dir = folder("export");
    let mut archive = SqliteStore::open(dir.join("games.sqlite3")).unwrap();
    let mut record_game = played(&["h2e2", "h9g7"]);
    record_game.play(mv("h0g2")).unwrap();
    archive
        .save(&entry("a", &record_game, "2026.01.02", 0))
        .unwrap();
    archive
        .save(&entry("b", &mated(), "2026.01.03", 4))
        .unwrap();
    let text = archive.export_pgn("", Notation::Wxf).unwrap();
    assert_eq!(
        text.matches("[Game \"Chinese Chess\"]").count(),
        2,
        "{text}"
    );
    assert!(text.contains("[Result \"1-0\"]"), "{text}");

    let broken = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. a0a5 *\n\n";
    let file = format!("{text}\n{broken}");
    let collection: Collection = xiangqi_records::pgn::read_all_str(&file).unwrap();
    let mut other = SqliteStore::open(dir.join("other.sqlite3")).unwrap();
    let report = other.import(collection, "").unwrap();
    assert_eq!(report.imported.len(), 2);
    assert_eq!(report.broken.len(), 1, "the illegal game is reported");
    let games = other.list(&Filter::default()).unwrap();
    assert!(games.iter().all(|g| g.source == Source::Imported));
    let mate = games.iter().find(|g| g.finished).expect("the mated game");
    assert_eq!(mate.result, Some(GameResult::RedWins));
    assert_eq!(mate.date, "2026.01.03");
    assert_eq!(mate.red, "You");
}

#[test]
fn a_large_import_is_written_a_part_at_a_time_and_adds_every_game_once() {
    let dir = folder("parts");
    let game = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n";
    let broken = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. a0a5 *\n\n";
    let file = format!("{}{broken}{}", game.repeat(30), game.repeat(20));
    let collection: Collection = xiangqi_records::pgn::read_all_str(&file).unwrap();
    let mut prepared = xiangqi_store::PreparedImport::of(collection, "").unwrap();
    assert_eq!(prepared.progress(), (50, 0));
    let mut archive = SqliteStore::open(dir.join("games.sqlite3")).unwrap();
    let mut parts = 0;
    while archive
        .import_some(&mut prepared, 8, std::time::Duration::MAX)
        .unwrap()
    {
        parts += 1;
        let (total, done) = prepared.progress();
        assert_eq!((total, done), (50, parts * 8));
        // Each part is in the archive as soon as it is written.
        assert_eq!(archive.count("").unwrap(), done);
    }
    assert_eq!(parts, 6, "six full parts, then the last two games");
    let report = prepared.into_report();
    assert_eq!(report.imported.len(), 50);
    assert_eq!(report.broken.len(), 1);
    let mut ids = report.imported.clone();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 50, "every game added once");
    assert_eq!(archive.count("").unwrap(), 50);
    // A part never stops before its first game, however short its time.
    let collection: Collection = xiangqi_records::pgn::read_all_str(game).unwrap();
    let mut one = xiangqi_store::PreparedImport::of(collection, "").unwrap();
    assert!(
        !archive
            .import_some(&mut one, usize::MAX, std::time::Duration::ZERO)
            .unwrap()
    );
    assert_eq!(one.report().imported.len(), 1);
}
