//! The checks every implementation of [`Store`] passes, written against the trait alone: a
//! test of an implementation calls [`check_all`] with a way to make an empty store of its
//! kind. Each check panics, naming what broke, when the store does not behave.

use crate::{
    AccountChange, Created, Filter, GameEntry, GameResult, Level, NewAccount, PreparedImport,
    Progress, RatedResult, Source, Store, StoreError, StoredRating, StoredRoom, TrainerCard,
    account_owner,
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
    each_owner_sees_and_changes_only_its_own(&mut *empty());
    accounts_have_one_name_and_invitations_are_used_once(&mut *empty());
    sessions_open_and_close_and_an_account_goes_with_all_it_owns(&mut *empty());
    a_guest_s_things_go_to_the_account_they_make(&mut *empty());
    a_rated_game_counts_once_and_moves_both_ratings(&mut *empty());
    token_buckets_spend_refill_and_keep_apart(&mut *empty());
    a_room_is_written_only_over_the_version_it_was_read_at(&mut *empty());
    a_player_s_sockets_on_other_servers_count_while_those_servers_live(&mut *empty());
}

/// A player with a socket on server `b` is present to server `a` while `b` was seen lately;
/// a count of 0 takes the presence away; `a`'s own sockets do not count as elsewhere; a
/// server's heartbeat sees its presences again.
fn a_player_s_sockets_on_other_servers_count_while_those_servers_live(store: &mut dyn Store) {
    store.set_presence("room", "red", "b", 2, 1000).unwrap();
    store.set_presence("room", "black", "a", 1, 1000).unwrap();
    let elsewhere = |store: &dyn Store, token: &str, server: &str, since: i64| {
        store
            .present_elsewhere("room", token, server, since)
            .unwrap()
    };
    assert!(elsewhere(store, "red", "a", 500));
    assert!(!elsewhere(store, "red", "b", 500), "not elsewhere than b");
    assert!(!elsewhere(store, "red", "a", 1500), "b not seen since 1500");
    assert!(
        !elsewhere(store, "black", "a", 0),
        "black's socket is on a itself"
    );
    store.touch_presence("b", 2000).unwrap();
    assert!(elsewhere(store, "red", "a", 1500), "b's heartbeat");
    store.set_presence("room", "red", "b", 0, 2500).unwrap();
    assert!(
        !elsewhere(store, "red", "a", 0),
        "red closed its sockets on b"
    );
    // Another room is another presence.
    assert!(!store.present_elsewhere("other", "black", "b", 0).unwrap());
}

/// A room written over a version: the first write of a room is over version 0 (none kept);
/// a write over the version kept passes and moves it on; a write over an older version (the
/// room changed on another server meanwhile) is refused without writing; in one batch, a
/// refused room leaves the others written. A room is found by its code.
fn a_room_is_written_only_over_the_version_it_was_read_at(store: &mut dyn Store) {
    let room = |id: &str, version: u64, json: &str| StoredRoom {
        id: id.to_string(),
        code: format!("{id}-code"),
        updated_ms: 1000 + version,
        json: json.to_string(),
        version,
    };
    let none: Vec<String> = Vec::new();
    assert_eq!(
        store.put_rooms_checked(&[(room("a", 1, "a1"), 0)]).unwrap(),
        none
    );
    assert_eq!(
        store.put_rooms_checked(&[(room("a", 2, "a2"), 1)]).unwrap(),
        none
    );
    // Another server, still at version 1, is refused; nothing is written.
    assert_eq!(
        store
            .put_rooms_checked(&[(room("a", 2, "other"), 1)])
            .unwrap(),
        ["a"]
    );
    assert_eq!(store.room("a").unwrap(), Some(room("a", 2, "a2")));
    // A batch: the refused room is not written, the others are.
    let conflicts = store
        .put_rooms_checked(&[
            (room("b", 1, "b1"), 0),
            (room("a", 3, "late"), 1),
            (room("c", 1, "c1"), 0),
        ])
        .unwrap();
    assert_eq!(conflicts, ["a"]);
    assert_eq!(store.room("b").unwrap(), Some(room("b", 1, "b1")));
    assert_eq!(store.room("c").unwrap(), Some(room("c", 1, "c1")));
    assert_eq!(store.room("a").unwrap().unwrap().json, "a2");
    assert_eq!(
        store.room_with_code("b-code").unwrap(),
        Some(room("b", 1, "b1"))
    );
    assert_eq!(store.room_with_code("nope").unwrap(), None);
}

/// Buckets of 2 tokens, one more every second: two takes pass, the third waits the second
/// out; half a second later half a token is there; each kind and key has its own bucket,
/// and a bucket never holds more than its burst.
fn token_buckets_spend_refill_and_keep_apart(store: &mut dyn Store) {
    let mut take = |kind: &str, key: &str, at: i64| {
        store
            .take_token(kind, key, 2, 1000, at)
            .expect("take a token")
    };
    assert_eq!(take("rooms", "192.0.2.1", 10_000), None);
    assert_eq!(take("rooms", "192.0.2.1", 10_000), None);
    assert_eq!(
        take("rooms", "192.0.2.1", 10_000),
        Some(1000),
        "the bucket is empty"
    );
    assert_eq!(
        take("rooms", "192.0.2.1", 10_500),
        Some(500),
        "half a token came"
    );
    assert_eq!(take("rooms", "192.0.2.2", 10_500), None, "another key");
    assert_eq!(take("sign-in", "192.0.2.1", 10_500), None, "another kind");
    assert_eq!(
        take("rooms", "192.0.2.1", 11_000),
        None,
        "a whole token came"
    );
    // A long wait fills the bucket to its burst, no more.
    assert_eq!(take("rooms", "192.0.2.1", 100_000), None);
    assert_eq!(take("rooms", "192.0.2.1", 100_000), None);
    assert_eq!(take("rooms", "192.0.2.1", 100_000), Some(1000));
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
        owner: String::new(),
    }
}

/// The entry of `game` under `key`, owned by `owner`.
fn owned(owner: &str, key: &str, game: &Game) -> GameEntry {
    GameEntry {
        owner: owner.to_string(),
        ..entry(key, game, 1)
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
    assert_eq!(store.count("").unwrap(), 1);
    assert_eq!(store.id_of_key("k1").unwrap(), Some(first));
    let game = store.get("", first).unwrap().expect("the row");
    assert_eq!(
        game.summary.moves_count, 2,
        "the latest save is what is kept"
    );
    assert_eq!(game.summary.red, "Ann");
    let record = game.record().expect("the record reads back");
    assert_eq!(record.mainline().count(), 2);
    assert_eq!(store.get("", first + 1000).unwrap(), None);
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
    assert!(store.delete("", id).unwrap());
    assert!(
        !store.delete("", id).unwrap(),
        "a second delete finds nothing"
    );
    assert_eq!(store.get("", id).unwrap(), None);
    match store.save(&entry("gone", &played(&["h2e2", "h9g7"]), 1)) {
        Err(StoreError::Deleted { key }) => assert_eq!(key, "gone"),
        other => panic!("a deleted key was saved again: {other:?}"),
    }
    assert_eq!(store.count("").unwrap(), 0);
}

fn a_review_is_kept_with_its_game(store: &mut dyn Store) {
    let id = store.save(&entry("r", &played(&["h2e2"]), 1)).unwrap();
    assert!(store.set_review(id, r#"{"moves":[]}"#).unwrap());
    assert!(!store.set_review(id + 1000, "{}").unwrap());
    let game = store.get("", id).unwrap().unwrap();
    assert_eq!(game.review.as_deref(), Some(r#"{"moves":[]}"#));
    assert!(game.summary.reviewed);
    // A later save of the game keeps its review.
    store
        .save(&entry("r", &played(&["h2e2", "h9g7"]), 1))
        .unwrap();
    assert!(store.get("", id).unwrap().unwrap().review.is_some());
}

fn rooms_are_kept_whole_and_a_later_state_wins(store: &mut dyn Store) {
    let room = |id: &str, at: u64, json: &str| StoredRoom {
        id: id.to_string(),
        code: format!("{id}-code"),
        updated_ms: at,
        json: json.to_string(),
        version: 0,
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
    store.save_trainer_card("", &card("main", 1)).unwrap();
    store.save_trainer_card("", &card("side", 1)).unwrap();
    store.save_trainer_card("", &card("main", 3)).unwrap();
    let cards = store.trainer_cards("").unwrap();
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
    store
        .save_progress(&Progress {
            topic: "course".into(),
            ..value("", "lesson", "3", 10)
        })
        .unwrap();
    let every: Vec<(String, String)> = store
        .all_progress("")
        .unwrap()
        .into_iter()
        .map(|p| (p.topic, p.key))
        .collect();
    assert_eq!(
        every,
        [
            ("course".to_string(), "lesson".to_string()),
            ("puzzles".to_string(), "rating".to_string()),
            ("puzzles".to_string(), "solved".to_string())
        ]
    );
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
    let mut prepared = PreparedImport::of(collection, "").unwrap();
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
    assert_eq!(store.count("").unwrap(), 5);
    let results = Filter {
        result: Some(Some(GameResult::RedWins)),
        ..Filter::default()
    };
    assert_eq!(store.count_matching(&results).unwrap(), 5);
    let exported = store.export_pgn("", Notation::Iccs).unwrap();
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
    assert_eq!(store.count("").unwrap(), 1);
    assert_eq!(store.list(&Filter::default()).unwrap().len(), 1);
    assert!(!store.describe().is_empty());
}

fn each_owner_sees_and_changes_only_its_own(store: &mut dyn Store) {
    let ann = store
        .save(&owned("account:1", "a1", &played(&["h2e2"])))
        .unwrap();
    store
        .save(&owned("account:1", "a2", &played(&["b2e2"])))
        .unwrap();
    let bob = store
        .save(&owned("account:2", "b1", &played(&["h2e2"])))
        .unwrap();
    let mine = |owner: &str| Filter {
        owner: owner.to_string(),
        ..Filter::default()
    };
    assert_eq!(store.count("account:1").unwrap(), 2);
    assert_eq!(store.count("account:2").unwrap(), 1);
    assert_eq!(store.count("").unwrap(), 0, "the app's own owner has none");
    assert_eq!(store.list(&mine("account:1")).unwrap().len(), 2);
    assert_eq!(store.count_matching(&mine("account:2")).unwrap(), 1);
    assert!(store.list(&Filter::default()).unwrap().is_empty());
    assert!(store.get("account:1", ann).unwrap().is_some());
    assert_eq!(store.get("account:2", ann).unwrap(), None, "another's game");
    assert!(
        !store.delete("account:2", ann).unwrap(),
        "another's game stays"
    );
    assert!(store.get("account:1", ann).unwrap().is_some());
    // A save under another owner's key is refused, and the game stays as it was.
    match store.save(&owned("account:2", "a1", &played(&["c3c4"]))) {
        Err(StoreError::Deleted { key }) => assert_eq!(key, "a1"),
        other => panic!("a save under another's key: {other:?}"),
    }
    let kept = store.get("account:1", ann).unwrap().unwrap();
    assert_eq!(kept.record().unwrap().mainline().count(), 1);
    let exported = store.export_pgn("account:2", Notation::Iccs).unwrap();
    assert_eq!(exported.matches("[Red ").count(), 1);
    assert!(store.delete("account:2", bob).unwrap());
    // Trainer cards by owner.
    let card = TrainerCard {
        line: "l".into(),
        side: "red".into(),
        branch: "b".into(),
        level: 2,
        ..TrainerCard::default()
    };
    store.save_trainer_card("account:1", &card).unwrap();
    assert_eq!(
        store.trainer_cards("account:1").unwrap(),
        vec![card.clone()]
    );
    assert!(store.trainer_cards("account:2").unwrap().is_empty());
    assert!(store.trainer_cards("").unwrap().is_empty());
}

/// An account to make, named `name`.
fn new_account(name: &str, invite: Option<&str>) -> NewAccount {
    NewAccount {
        name: name.to_string(),
        name_key: name.to_lowercase(),
        password: "$argon2id$hash".to_string(),
        role: "player".to_string(),
        invite: invite.map(str::to_string),
        created_ms: 1_000,
    }
}

fn accounts_have_one_name_and_invitations_are_used_once(store: &mut dyn Store) {
    let Created::Made(ann) = store.create_account(&new_account("Ann", None)).unwrap() else {
        panic!("the first account is made");
    };
    assert_eq!(ann.name, "Ann");
    assert_eq!(ann.owner(), account_owner(ann.id));
    assert!(!ann.disabled);
    assert_eq!(
        store.create_account(&new_account("ANN", None)).unwrap(),
        Created::NameTaken,
        "names differ in more than case"
    );
    assert_eq!(store.account_named("ann").unwrap(), Some(ann.clone()));
    assert_eq!(store.account(ann.id).unwrap(), Some(ann.clone()));
    assert_eq!(store.account_named("nobody").unwrap(), None);
    // An invitation makes one account.
    assert_eq!(
        store
            .create_account(&new_account("Bob", Some("code-1")))
            .unwrap(),
        Created::InviteUnknown
    );
    assert_eq!(
        store.account_named("bob").unwrap(),
        None,
        "a refused invitation makes no account"
    );
    store.add_invite("code-1", 5).unwrap();
    assert!(matches!(
        store
            .create_account(&new_account("Bob", Some("code-1")))
            .unwrap(),
        Created::Made(_)
    ));
    assert_eq!(
        store
            .create_account(&new_account("Cy", Some("code-1")))
            .unwrap(),
        Created::InviteUnknown,
        "an invitation is used once"
    );
    let names: Vec<String> = store
        .accounts()
        .unwrap()
        .into_iter()
        .map(|a| a.name)
        .collect();
    assert_eq!(names, ["Ann", "Bob"]);
    // Changes.
    assert!(
        store
            .change_account(ann.id, &AccountChange::Password("$new".into()))
            .unwrap()
    );
    assert!(
        store
            .change_account(ann.id, &AccountChange::Role("admin".into()))
            .unwrap()
    );
    assert!(
        store
            .change_account(ann.id, &AccountChange::Disabled(true))
            .unwrap()
    );
    let changed = store.account(ann.id).unwrap().unwrap();
    assert_eq!(
        (
            changed.password.as_str(),
            changed.role.as_str(),
            changed.disabled
        ),
        ("$new", "admin", true)
    );
    assert!(
        !store
            .change_account(ann.id + 100, &AccountChange::Disabled(true))
            .unwrap()
    );
}

fn sessions_open_and_close_and_an_account_goes_with_all_it_owns(store: &mut dyn Store) {
    let Created::Made(ann) = store.create_account(&new_account("Ann", None)).unwrap() else {
        panic!("made");
    };
    let Created::Made(bob) = store.create_account(&new_account("Bob", None)).unwrap() else {
        panic!("made");
    };
    store.open_session("s1", ann.id, 10).unwrap();
    store.open_session("s2", ann.id, 11).unwrap();
    store.open_session("s3", bob.id, 12).unwrap();
    assert_eq!(store.session("s1").unwrap(), Some((ann.clone(), 10)));
    assert_eq!(
        store.session("s3").unwrap().map(|(a, _)| a.id),
        Some(bob.id)
    );
    assert_eq!(store.session("nope").unwrap(), None);
    assert!(store.close_session("s1").unwrap());
    assert!(!store.close_session("s1").unwrap());
    assert_eq!(store.session("s1").unwrap(), None);
    store.open_session("s4", ann.id, 13).unwrap();
    assert_eq!(store.close_sessions(ann.id).unwrap(), 2);
    assert_eq!(store.session("s2").unwrap(), None);
    assert!(
        store.session("s3").unwrap().is_some(),
        "another's session stays"
    );
    // Deleting an account takes its games, cards, progress and sessions, nobody else's.
    store.open_session("s5", ann.id, 14).unwrap();
    let game = store
        .save(&owned(&ann.owner(), "ann-game", &played(&["h2e2"])))
        .unwrap();
    store
        .save(&owned(&bob.owner(), "bob-game", &played(&["h2e2"])))
        .unwrap();
    store
        .save_trainer_card(&ann.owner(), &TrainerCard::default())
        .unwrap();
    let progress = |owner: &str| Progress {
        owner: owner.to_string(),
        topic: "puzzles".into(),
        key: "rating".into(),
        value: "1500".into(),
        updated_ms: 1,
    };
    store.save_progress(&progress(&ann.owner())).unwrap();
    store.save_progress(&progress(&bob.owner())).unwrap();
    assert!(store.delete_account(ann.id).unwrap());
    assert!(!store.delete_account(ann.id).unwrap());
    assert_eq!(store.account(ann.id).unwrap(), None);
    assert_eq!(store.session("s5").unwrap(), None);
    assert_eq!(store.get(&ann.owner(), game).unwrap(), None);
    assert_eq!(store.count(&ann.owner()).unwrap(), 0);
    assert!(store.trainer_cards(&ann.owner()).unwrap().is_empty());
    assert!(store.progress(&ann.owner(), "puzzles").unwrap().is_empty());
    assert_eq!(store.count(&bob.owner()).unwrap(), 1);
    assert_eq!(store.progress(&bob.owner(), "puzzles").unwrap().len(), 1);
    assert!(store.session("s3").unwrap().is_some());
    // A deleted account's game is not saved again by a board still open.
    assert!(matches!(
        store.save(&owned(&ann.owner(), "ann-game", &played(&["h2e2", "h9g7"]))),
        Err(StoreError::Deleted { .. })
    ));
}

fn a_guest_s_things_go_to_the_account_they_make(store: &mut dyn Store) {
    let guest = "guest:abc";
    store.save(&owned(guest, "g1", &played(&["h2e2"]))).unwrap();
    let card = |level: u8| TrainerCard {
        line: "l".into(),
        level,
        ..TrainerCard::default()
    };
    store.save_trainer_card(guest, &card(1)).unwrap();
    store.save_trainer_card("account:7", &card(4)).unwrap();
    let progress = |owner: &str, key: &str| Progress {
        owner: owner.to_string(),
        topic: "puzzles".into(),
        key: key.into(),
        value: "1".into(),
        updated_ms: 1,
    };
    store.save_progress(&progress(guest, "rating")).unwrap();
    store.save_progress(&progress(guest, "solved")).unwrap();
    store
        .save_progress(&progress("account:7", "rating"))
        .unwrap();
    assert!(store.reown(guest, "account:7").unwrap() >= 2);
    assert_eq!(store.count("account:7").unwrap(), 1);
    assert_eq!(store.count(guest).unwrap(), 0);
    assert_eq!(
        store.trainer_cards("account:7").unwrap(),
        vec![card(4)],
        "the account's own card wins"
    );
    assert!(store.trainer_cards(guest).unwrap().is_empty());
    assert_eq!(store.progress("account:7", "puzzles").unwrap().len(), 2);
    assert!(store.progress(guest, "puzzles").unwrap().is_empty());
}

fn a_rated_game_counts_once_and_moves_both_ratings(store: &mut dyn Store) {
    let made = |store: &mut dyn Store, name: &str| match store
        .create_account(&new_account(name, None))
        .unwrap()
    {
        Created::Made(a) => a.id,
        other => panic!("{other:?}"),
    };
    let (ann, bob) = (made(store, "Ann"), made(store, "Bob"));
    let game = |number: u32, ended_ms: i64| RatedResult {
        room: "room-1".into(),
        number,
        speed: "blitz".into(),
        red: ann,
        black: bob,
        result: "red-wins".into(),
        ended_ms,
    };
    // A stand-in for the rating rule: the winner gains 10, the loser loses 10, from 1500.
    let rate = |red: Option<StoredRating>, black: Option<StoredRating>| {
        let now = |r: Option<StoredRating>| {
            r.unwrap_or(StoredRating {
                speed: "blitz".into(),
                rating: 1500.0,
                deviation: 350.0,
                volatility: 0.06,
                games: 0,
            })
        };
        let (red, black) = (now(red), now(black));
        let moved = |r: &StoredRating, by: f64| StoredRating {
            rating: r.rating + by,
            games: r.games + 1,
            ..r.clone()
        };
        let (red_after, black_after) = (moved(&red, 10.0), moved(&black, -10.0));
        ((red, red_after), (black, black_after))
    };
    let first = store
        .record_rated_game(&game(1, 100), &rate)
        .unwrap()
        .expect("recorded");
    assert_eq!(
        (first.red_name.as_str(), first.black_name.as_str()),
        ("Ann", "Bob")
    );
    assert_eq!(first.red_rating, (1500.0, 1510.0));
    assert_eq!(first.black_rating, (1500.0, 1490.0));
    assert_eq!(
        store.record_rated_game(&game(1, 100), &rate).unwrap(),
        None,
        "a game counts once"
    );
    store.record_rated_game(&game(2, 200), &rate).unwrap();
    let ratings = store.ratings(ann).unwrap();
    assert_eq!(ratings.len(), 1);
    assert_eq!((ratings[0].rating, ratings[0].games), (1520.0, 2));
    assert_eq!(store.ratings(bob).unwrap()[0].rating, 1480.0);
    let games = store.rated_games(bob, 10).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].game.number, 2, "the latest first");
    assert_eq!(games[0].black_rating, (1490.0, 1480.0));
    assert_eq!(store.rated_games(bob, 1).unwrap().len(), 1);
    // A deleted account's ratings go with it; the opponent keeps the game, unnamed.
    assert!(store.delete_account(ann).unwrap());
    assert!(store.ratings(ann).unwrap().is_empty());
    let games = store.rated_games(bob, 10).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].red_name, "");
}
