//! The PostgreSQL store as several servers use it, on a real server of the test's own:
//! stores on two connections writing at once count each rated game once and give one name
//! to one account; a connection the server drops is made again; an address that leads
//! nowhere is refused with what is wrong.

use std::sync::{Arc, Barrier};
use xiangqi_store::temp_postgres::TempPostgres;
use xiangqi_store::{
    Created, NewAccount, PostgresStore, RatedResult, Reason, Store, StoredRating, shown_url,
};

fn server() -> TempPostgres {
    TempPostgres::start().unwrap_or_else(|e| panic!("the test needs a PostgreSQL server: {e}"))
}

fn account(store: &mut PostgresStore, name: &str) -> i64 {
    match store
        .create_account(&NewAccount {
            name: name.into(),
            name_key: name.to_lowercase(),
            password: "hash".into(),
            role: "player".into(),
            invite: None,
            created_ms: 1,
        })
        .unwrap()
    {
        Created::Made(a) => a.id,
        other => panic!("{name}: {other:?}"),
    }
}

/// Adds one game to both ratings: the red player's rating one up, the black one's one down.
fn one_more(
    red: Option<StoredRating>,
    black: Option<StoredRating>,
) -> ((StoredRating, StoredRating), (StoredRating, StoredRating)) {
    let start = |r: Option<StoredRating>| {
        r.unwrap_or(StoredRating {
            speed: "blitz".into(),
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
            games: 0,
        })
    };
    let moved = |r: &StoredRating, by: f64| StoredRating {
        rating: r.rating + by,
        games: r.games + 1,
        ..r.clone()
    };
    let (red, black) = (start(red), start(black));
    let (red_after, black_after) = (moved(&red, 1.0), moved(&black, -1.0));
    ((red, red_after), (black, black_after))
}

/// How many rated games the stress test ends, each recorded by both servers at once.
const RATED_GAMES: u32 = 300;

#[test]
fn two_servers_recording_the_same_games_at_once_count_each_once() {
    let server = server();
    let url = server.new_database();
    let mut first = PostgresStore::connect(&url).unwrap();
    let red = account(&mut first, "Red");
    let black = account(&mut first, "Black");
    let barrier = Arc::new(Barrier::new(2));
    let threads: Vec<_> = (0..2)
        .map(|n| {
            let url = url.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut store = PostgresStore::connect(&url).unwrap();
                barrier.wait();
                let mut counted = 0;
                for i in 0..RATED_GAMES {
                    // The two servers go through the games in opposite orders.
                    let number = if n == 0 { i } else { RATED_GAMES - 1 - i };
                    let game = RatedResult {
                        room: format!("room-{}", number % 7),
                        number,
                        speed: "blitz".into(),
                        red,
                        black,
                        result: "red-wins".into(),
                        ended_ms: i64::from(number),
                    };
                    if store.record_rated_game(&game, &one_more).unwrap().is_some() {
                        counted += 1;
                    }
                }
                counted
            })
        })
        .collect();
    let counted: u32 = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(
        counted, RATED_GAMES,
        "each game recorded by exactly one server"
    );
    let ratings = first.ratings(red).unwrap();
    assert_eq!(ratings.len(), 1);
    assert_eq!(ratings[0].games, RATED_GAMES, "no update lost");
    assert_eq!(ratings[0].rating, 1500.0 + f64::from(RATED_GAMES));
    assert_eq!(
        first.ratings(black).unwrap()[0].rating,
        1500.0 - f64::from(RATED_GAMES)
    );
    assert_eq!(
        first.rated_games(red, 10_000).unwrap().len(),
        RATED_GAMES as usize
    );
}

#[test]
fn two_servers_making_one_name_at_once_make_one_account_and_an_invitation_is_used_once() {
    let server = server();
    let url = server.new_database();
    let mut first = PostgresStore::connect(&url).unwrap();
    for round in 0..40 {
        first.add_invite(&format!("code-{round}"), 1).unwrap();
    }
    let barrier = Arc::new(Barrier::new(2));
    let threads: Vec<_> = (0..2)
        .map(|n| {
            let url = url.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut store = PostgresStore::connect(&url).unwrap();
                let mut outcomes = Vec::new();
                for round in 0..40 {
                    barrier.wait();
                    // Odd rounds: the same name, different codes; even: the same code.
                    let (name, code) = if round % 2 == 1 {
                        (format!("Same{round}"), format!("missing-{n}-{round}"))
                    } else {
                        (format!("Name{round}-{n}"), format!("code-{round}"))
                    };
                    let invite = (round % 2 == 0).then_some(code);
                    let created = store
                        .create_account(&NewAccount {
                            name: name.clone(),
                            name_key: name.to_lowercase(),
                            password: "hash".into(),
                            role: "player".into(),
                            invite,
                            created_ms: 1,
                        })
                        .unwrap();
                    outcomes.push(created);
                }
                outcomes
            })
        })
        .collect();
    let outcomes: Vec<Vec<Created>> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    for round in 0..40 {
        let made = outcomes
            .iter()
            .filter(|o| matches!(o[round], Created::Made(_)))
            .count();
        assert_eq!(
            made, 1,
            "round {round}: {:?} / {:?}",
            outcomes[0][round], outcomes[1][round]
        );
    }
    assert_eq!(first.accounts().unwrap().len(), 40);
}

#[test]
fn a_connection_the_server_dropped_is_made_again() {
    let server = server();
    let url = server.new_database();
    let mut store = PostgresStore::connect(&url).unwrap();
    let mut admin = postgres::Client::connect(&server.url("postgres"), postgres::NoTls).unwrap();
    admin
        .execute(
            "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity \
             WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'",
            &[],
        )
        .unwrap();
    // The request on the dropped connection fails as a database failure, saying so …
    let failed = store.count("").unwrap_err();
    assert_eq!(failed.reason(), Reason::Database, "{failed}");
    // … and the writer's probe connects again, after which requests pass.
    store.probe_write().unwrap();
    assert_eq!(store.count("").unwrap(), 0);
}

#[test]
fn an_address_that_leads_nowhere_is_refused_with_what_is_wrong() {
    let server = server();
    let refused =
        PostgresStore::connect("postgres://postgres:secret@127.0.0.1:1/none").unwrap_err();
    assert_eq!(refused.reason(), Reason::Open);
    let said = refused.to_string();
    assert!(
        said.contains("postgres://postgres@127.0.0.1:1/none"),
        "{said}"
    );
    assert!(
        !said.contains("secret"),
        "the password is never shown: {said}"
    );
    let garbage = PostgresStore::connect("postgres://[::1").unwrap_err();
    assert!(garbage.to_string().contains("not one"), "{garbage}");
    let missing = PostgresStore::connect(&server.url("no_such_database")).unwrap_err();
    assert!(
        missing.to_string().contains("no_such_database"),
        "the server's own words: {missing}"
    );
    assert_eq!(
        shown_url("postgres://u:p@h:5/d"),
        "postgres://u@h:5/d",
        "the password left out"
    );
    assert_eq!(shown_url("host=h password=p dbname=d"), "host=h dbname=d");
}
