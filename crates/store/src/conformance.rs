//! The checks every implementation of [`Store`] passes, written against the trait alone: a
//! test of an implementation calls [`check_all`] with a way to make an empty store of its
//! kind. Each check panics, naming what broke, when the store does not behave.

use crate::{
    Filter, GameEntry, GameResult, Level, PreparedImport, Progress, Source, Store, StoreError,
    StoredRoom, TrainerCard,
};
use std::time::Duration;
use xiangqi_records::Collection;
use xiangqi_rules::notation::Notation;
use xiangqi_rules::{Game, Position};

/// Runs every check, each on a fresh empty store made by `empty`.
pub fn check_all(empty: &mut dyn FnMut() -> Box<dyn Store>) {
    a_save_is_read_back_and_a_second_save_updates_the_row(&mut *empty());
    lists_filter_count_and_page(&mut *empty());
    a_deleted_key_never_comes_back(&mut *empty());
    a_review_is_kept_with_its_game(&mut *empty());
    rooms_are_kept_whole_and_a_later_state_wins(&mut *empty());
    trainer_cards_are_replaced_by_line_side_and_branch(&mut *empty());
    progress_is_kept_by_owner_topic_and_key_and_a_later_value_wins(&mut *empty());
    an_import_in_parts_adds_every_game_once(&mut *empty());
    probes_and_checkpoints_change_nothing(&mut *empty());
}

/// A game from the start after `moves` (ICCS).
fn played(moves: &[&str]) -> Game {
    let mut game = Game::new(Position::startpos());
    for m in moves {
        game.play(m.parse().expect("a coordinate move"))
            .expect("a legal move");
    }
    game
}

/// The entry of `game` under `key`, against the engine at `level`.
fn entry(key: &str, game: &Game, level: u32) -> GameEntry {
    GameEntry {
        key: Some(key.to_string()),
        finished: game.is_over(),
        red: "Ann".to_string(),
        black: format!("Level {level}"),
        level: Some(Level {
            number: level,
            name: format!("Level {level}"),
        }),
        end_reason: None,
        date: "2026.12.07".to_string(),
        opening: None,
        time_control: None,
        record: xiangqi_records::Game::from_played(game),
        source: Source::Played,
    }
}

fn a_save_is_read_back_and_a_second_save_updates_the_row(store: &mut dyn Store) {
    let first = store
        .save(&entry("k1", &played(&["h2e2"]), 1))
        .expect("saved");
    let again = store
        .save(&entry("k1", &played(&["h2e2", "h9g7"]), 1))
        .expect("saved again");
    assert_eq!(first, again, "a second save under a key updates its row");
    assert_eq!(store.count().unwrap(), 1);
    assert_eq!(store.id_of_key("k1").unwrap(), Some(first));
    let game = store.get(first).unwrap().expect("the row");
    assert_eq!(
        game.summary.moves_count, 2,
        "the latest save is what is kept"
    );
    assert_eq!(game.summary.red, "Ann");
    let record = game.record().expect("the record reads back");
    assert_eq!(record.mainline().count(), 2);
    assert_eq!(store.get(first + 1000).unwrap(), None);
}

fn lists_filter_count_and_page(store: &mut dyn Store) {
    for (i, level) in [1, 2, 2, 3].into_iter().enumerate() {
        store
            .save(&entry(&format!("g{i}"), &played(&["h2e2"]), level))
            .unwrap();
    }
    let everything = Filter::default();
    assert_eq!(store.list(&everything).unwrap().len(), 4);
    assert_eq!(store.count_matching(&everything).unwrap(), 4);
    let level_2 = Filter {
        level: Some(2),
        ..Filter::default()
    };
    assert_eq!(store.count_matching(&level_2).unwrap(), 2);
    assert!(
        store
            .list(&level_2)
            .unwrap()
            .iter()
            .all(|g| g.level.as_ref().is_some_and(|l| l.number == 2))
    );
    let page = Filter {
        limit: Some(3),
        offset: 2,
        ..Filter::default()
    };
    assert_eq!(
        store.list(&page).unwrap().len(),
        2,
        "offset 2 of 4 leaves 2"
    );
    assert_eq!(
        store.count_matching(&page).unwrap(),
        4,
        "counts ignore paging"
    );
    // Newest first: the last created comes first among games of one date.
    assert_eq!(store.list(&everything).unwrap()[0].key, "g3");
}

fn a_deleted_key_never_comes_back(store: &mut dyn Store) {
    let id = store.save(&entry("gone", &played(&["h2e2"]), 1)).unwrap();
    assert!(store.delete(id).unwrap());
    assert!(!store.delete(id).unwrap(), "a second delete finds nothing");
    assert_eq!(store.get(id).unwrap(), None);
    match store.save(&entry("gone", &played(&["h2e2", "h9g7"]), 1)) {
        Err(StoreError::Deleted { key }) => assert_eq!(key, "gone"),
        other => panic!("a deleted key was saved again: {other:?}"),
    }
    assert_eq!(store.count().unwrap(), 0);
}

fn a_review_is_kept_with_its_game(store: &mut dyn Store) {
    let id = store.save(&entry("r", &played(&["h2e2"]), 1)).unwrap();
    assert!(store.set_review(id, r#"{"moves":[]}"#).unwrap());
    assert!(!store.set_review(id + 1000, "{}").unwrap());
    let game = store.get(id).unwrap().unwrap();
    assert_eq!(game.review.as_deref(), Some(r#"{"moves":[]}"#));
    assert!(game.summary.reviewed);
    // A later save of the game keeps its review.
    store
        .save(&entry("r", &played(&["h2e2", "h9g7"]), 1))
        .unwrap();
    assert!(store.get(id).unwrap().unwrap().review.is_some());
}

fn rooms_are_kept_whole_and_a_later_state_wins(store: &mut dyn Store) {
    let room = |id: &str, at: u64, json: &str| StoredRoom {
        id: id.to_string(),
        code: format!("{id}-code"),
        updated_ms: at,
        json: json.to_string(),
    };
    store
        .put_rooms(&[room("a", 100, "{\"v\":1}"), room("b", 200, "{}")])
        .unwrap();
    store.put_rooms(&[room("a", 300, "{\"v\":2}")]).unwrap();
    // An older state does not replace a newer one.
    store.put_rooms(&[room("a", 150, "{\"v\":0}")]).unwrap();
    assert_eq!(store.room("a").unwrap(), Some(room("a", 300, "{\"v\":2}")));
    assert_eq!(store.room("nope").unwrap(), None);
    let mut since: Vec<String> = store
        .rooms_since(200)
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    since.sort();
    assert_eq!(since, ["a", "b"]);
    assert_eq!(store.rooms_since(250).unwrap().len(), 1);
    store.put_rooms(&[]).unwrap();
}

fn trainer_cards_are_replaced_by_line_side_and_branch(store: &mut dyn Store) {
    let card = |branch: &str, level: u8| TrainerCard {
        line: "screen-horses".into(),
        side: "red".into(),
        branch: branch.into(),
        level,
        reps: 1,
        lapses: 0,
        due_ms: 5,
        last_ms: 4,
    };
    store.save_trainer_card(&card("main", 1)).unwrap();
    store.save_trainer_card(&card("side", 1)).unwrap();
    store.save_trainer_card(&card("main", 3)).unwrap();
    let cards = store.trainer_cards().unwrap();
    assert_eq!(cards, vec![card("main", 3), card("side", 1)]);
}

fn progress_is_kept_by_owner_topic_and_key_and_a_later_value_wins(store: &mut dyn Store) {
    let value = |owner: &str, key: &str, value: &str, at: i64| Progress {
        owner: owner.into(),
        topic: "puzzles".into(),
        key: key.into(),
        value: value.into(),
        updated_ms: at,
    };
    store
        .save_progress(&value("", "rating", "1200", 10))
        .unwrap();
    store
        .save_progress(&value("", "solved", "[3]", 10))
        .unwrap();
    store
        .save_progress(&value("ann", "rating", "1500", 10))
        .unwrap();
    store
        .save_progress(&value("", "rating", "1250", 20))
        .unwrap();
    // An older value does not replace a newer one.
    store
        .save_progress(&value("", "rating", "900", 15))
        .unwrap();
    assert_eq!(
        store.progress("", "puzzles").unwrap(),
        vec![
            value("", "rating", "1250", 20),
            value("", "solved", "[3]", 10)
        ]
    );
    assert_eq!(
        store.progress("ann", "puzzles").unwrap(),
        vec![value("ann", "rating", "1500", 10)]
    );
    assert!(store.progress("", "course").unwrap().is_empty());
}

fn an_import_in_parts_adds_every_game_once(store: &mut dyn Store) {
    let text = (0..5)
        .map(|i| {
            format!(
                "[Event \"Club {i}\"]\n[Red \"R{i}\"]\n[Black \"B{i}\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 1-0\n\n"
            )
        })
        .collect::<String>()
        + "[Event \"Broken\"]\n\n1. a0a5 1-0\n";
    let collection: Collection = xiangqi_records::pgn::read_all_str(&text).expect("a PGN file");
    let mut prepared = PreparedImport::of(collection).unwrap();
    assert_eq!(prepared.progress(), (5, 0));
    let mut parts = 0;
    while store
        .import_some(&mut prepared, 2, Duration::from_secs(60))
        .unwrap()
    {
        parts += 1;
        assert!(parts < 10, "an import in parts ends");
    }
    assert_eq!(parts, 2, "five games two at a time: three parts");
    let report = prepared.into_report();
    assert_eq!(report.imported.len(), 5);
    assert_eq!(report.broken.len(), 1, "the broken game is reported");
    assert_eq!(store.count().unwrap(), 5);
    let results = Filter {
        result: Some(Some(GameResult::RedWins)),
        ..Filter::default()
    };
    assert_eq!(store.count_matching(&results).unwrap(), 5);
    let exported = store.export_pgn(Notation::Iccs).unwrap();
    assert_eq!(exported.matches("[Event ").count(), 5);
}

fn probes_and_checkpoints_change_nothing(store: &mut dyn Store) {
    store.save(&entry("p", &played(&["h2e2"]), 1)).unwrap();
    store
        .probe_write()
        .expect("a store that can be written passes the probe");
    store.checkpoint().expect("a checkpoint");
    store
        .intact()
        .expect("a store no one else touched is intact");
    assert_eq!(store.count().unwrap(), 1);
    assert_eq!(store.list(&Filter::default()).unwrap().len(), 1);
    assert!(!store.describe().is_empty());
}
