//! The archive on real database files: creation and migration, data kept across reopening,
//! concurrent writers, damaged files, filters and order, finishing, review, export and import.

use std::path::PathBuf;
use xiangqi_archive::{
    Archive, ArchiveError, Filter, GameEntry, GameResult, Level, SCHEMA_VERSION, Source,
};
use xiangqi_records::Collection;
use xiangqi_rules::notation::Notation;
use xiangqi_rules::{Game, GameRules, Move, Position};

/// A fresh folder for one test, under the system's temporary folder.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-archive-{}-{test}", std::process::id()));
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
        record: xiangqi_records::Game::from_played(game),
        source: Source::Played,
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
    let archive = Archive::open(&path).unwrap();
    assert!(path.is_file());
    assert_eq!(archive.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(archive.count().unwrap(), 0);
    assert!(archive.list(&Filter::default()).unwrap().is_empty());
}

#[test]
fn reopening_keeps_the_games() {
    let path = folder("reopen").join("games.sqlite3");
    let game = played(&["h2e2", "h9g7", "h0g2"]);
    let id = {
        let mut archive = Archive::open(&path).unwrap();
        archive.save(&entry("k1", &game, "2026.01.02", 0)).unwrap()
    };
    let archive = Archive::open(&path).unwrap();
    assert_eq!(archive.schema_version().unwrap(), SCHEMA_VERSION);
    let stored = archive.get(id).unwrap().expect("the game is kept");
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
    let mut archive = Archive::open(&path).unwrap();
    let first = archive
        .save(&entry("same", &played(&["h2e2"]), "2026.01.02", 4))
        .unwrap();
    let again = archive
        .save(&entry("same", &played(&["h2e2", "h9g7"]), "2026.01.02", 4))
        .unwrap();
    assert_eq!(first, again);
    assert_eq!(archive.count().unwrap(), 1);
    assert_eq!(archive.get(first).unwrap().unwrap().summary.moves_count, 2);
}

#[test]
fn concurrent_writers_on_their_own_connections_lose_nothing() {
    let path = folder("concurrent").join("games.sqlite3");
    Archive::open(&path).unwrap();
    const THREADS: usize = 6;
    const GAMES: usize = 20;
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut archive = Archive::open(&path).unwrap();
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
    let archive = Archive::open(&path).unwrap();
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
    let error = Archive::open(&path).unwrap_err();
    assert!(matches!(error, ArchiveError::Corrupt { .. }), "{error:?}");
    assert_eq!(error.code(), "archive-corrupt");
    assert!(error.to_string().contains("games.sqlite3"), "{error}");
}

#[test]
fn a_schema_newer_than_the_program_is_refused() {
    let path = folder("newer").join("games.sqlite3");
    drop(Archive::open(&path).unwrap());
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
    }
    let error = Archive::open(&path).unwrap_err();
    match error {
        ArchiveError::NewerSchema { found, known, .. } => {
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
    let error = Archive::open(file.join("games.sqlite3")).unwrap_err();
    assert_eq!(error.code(), "archive-folder", "{error:?}");
    assert_eq!(error.path(), Some(file.as_path()));
}

#[test]
fn lists_filter_by_result_level_and_state_newest_first() {
    let path = folder("filters").join("games.sqlite3");
    let mut archive = Archive::open(&path).unwrap();
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
    let mut archive = Archive::open(&path).unwrap();
    let id = archive
        .save(&entry("f", &played(&["h2e2"]), "2026.01.02", 0))
        .unwrap();
    assert!(archive.finish(id, GameResult::BlackWins, "time").unwrap());
    let stored = archive.get(id).unwrap().unwrap();
    assert!(stored.summary.finished);
    assert_eq!(stored.summary.result, Some(GameResult::BlackWins));
    assert_eq!(stored.summary.end_reason.as_deref(), Some("time"));
    assert_eq!(stored.record().unwrap().result, Some(GameResult::BlackWins));
    assert!(!archive.finish(id + 100, GameResult::Draw, "x").unwrap());
}

#[test]
fn a_review_is_kept_and_a_deleted_game_is_gone() {
    let path = folder("review").join("games.sqlite3");
    let mut archive = Archive::open(&path).unwrap();
    let id = archive
        .save(&entry("r", &played(&["h2e2"]), "2026.01.02", 0))
        .unwrap();
    assert!(archive.set_review(id, r#"{"accuracy":[90,80]}"#).unwrap());
    let stored = archive.get(id).unwrap().unwrap();
    assert!(stored.summary.reviewed);
    assert_eq!(stored.review.as_deref(), Some(r#"{"accuracy":[90,80]}"#));
    assert!(archive.delete(id).unwrap());
    assert!(archive.get(id).unwrap().is_none());
    assert!(!archive.delete(id).unwrap());
    // A board still playing the deleted game cannot bring it back, even after a reopen.
    drop(archive);
    let mut archive = Archive::open(&path).unwrap();
    let err = archive
        .save(&entry("r", &played(&["h2e2", "h9g7"]), "2026.01.02", 0))
        .expect_err("a deleted key is not saved again");
    assert_eq!(err.code(), "archive-deleted");
    assert!(err.to_string().contains("deleted"), "{err}");
    assert_eq!(archive.count().unwrap(), 0);
}

#[test]
fn export_writes_every_game_and_import_adds_them_back_with_broken_games_reported() {
    let dir = folder("export");
    let mut archive = Archive::open(dir.join("games.sqlite3")).unwrap();
    let mut record_game = played(&["h2e2", "h9g7"]);
    record_game.play(mv("h0g2")).unwrap();
    archive
        .save(&entry("a", &record_game, "2026.01.02", 0))
        .unwrap();
    archive
        .save(&entry("b", &mated(), "2026.01.03", 4))
        .unwrap();
    let text = archive.export_pgn(Notation::Wxf).unwrap();
    assert_eq!(
        text.matches("[Game \"Chinese Chess\"]").count(),
        2,
        "{text}"
    );
    assert!(text.contains("[Result \"1-0\"]"), "{text}");

    let broken = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. a0a5 *\n\n";
    let file = format!("{text}\n{broken}");
    let collection: Collection = xiangqi_records::pgn::read_all_str(&file).unwrap();
    let mut other = Archive::open(dir.join("other.sqlite3")).unwrap();
    let report = other.import(collection).unwrap();
    assert_eq!(report.imported.len(), 2);
    assert_eq!(report.broken.len(), 1, "the illegal game is reported");
    let games = other.list(&Filter::default()).unwrap();
    assert!(games.iter().all(|g| g.source == Source::Imported));
    let mate = games.iter().find(|g| g.finished).expect("the mated game");
    assert_eq!(mate.result, Some(GameResult::RedWins));
    assert_eq!(mate.date, "2026.01.03");
    assert_eq!(mate.red, "You");
}
