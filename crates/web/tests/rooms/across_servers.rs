//! Rooms across two servers on one PostgreSQL store (a real server of the test's own): a
//! room made on one is taken up by the other; players and spectators on either see every
//! move; two different moves of one player sent to the two servers at once keep one, and
//! every board on either server shows that one (the second server's write finds the room
//! moved on, reads it again and judges its move again: not its turn); a flag falls once,
//! whichever servers watch the clock.

use super::*;
use xiangqi_store::temp_postgres::TempPostgres;

/// Two servers sharing the database `url`.
async fn two_servers(url: &str) -> (Server, Server) {
    let on = |url: &str| ServerOptions {
        database: Some(url.to_string()),
        ..ServerOptions::default()
    };
    (start_with(on(url)).await, start_with(on(url)).await)
}

/// A PostgreSQL server of the test's own and a new database on it (the blocking client
/// runs off the test's runtime).
fn postgres() -> (TempPostgres, String) {
    std::thread::spawn(|| {
        let server = TempPostgres::start()
            .unwrap_or_else(|e| panic!("the test needs a PostgreSQL server: {e}"));
        let url = server.new_database();
        (server, url)
    })
    .join()
    .unwrap()
}

/// The room `id` as the store keeps it: its JSON and version.
fn stored(url: &str, id: &str) -> (Value, i64) {
    let (url, id) = (url.to_string(), id.to_string());
    std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        let row = client
            .query_one("SELECT room, version FROM rooms WHERE id = $1", &[&id])
            .unwrap();
        let json: String = row.get(0);
        (serde_json::from_str(&json).unwrap(), row.get(1))
    })
    .join()
    .unwrap()
}

/// An opening of 12 plies, each piece developed once (no position repeats).
const OPENING: [(&str, &str); 12] = [
    ("h2", "e2"),
    ("h9", "g7"),
    ("h0", "g2"),
    ("i9", "h9"),
    ("i0", "h0"),
    ("b9", "c7"),
    ("b0", "c2"),
    ("a9", "b9"),
    ("a0", "b0"),
    ("c6", "c5"),
    ("g3", "g4"),
    ("g6", "g5"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_made_on_one_server_is_played_on_both_and_every_socket_sees_every_move() {
    let (_pg, url) = postgres();
    let (a, b) = two_servers(&url).await;
    let room = a.create(json!({"side": "red", "name": "Ann"})).await;
    let id = room["id"].as_str().unwrap().to_string();
    // The room's code leads to it on the other server too.
    let (status, found) = b
        .http(
            "GET",
            &format!("/api/room-codes/{}", room["code"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!((status, found["id"].as_str()), (200, Some(id.as_str())));
    let (mut red, welcome, _) = a.join(&id, room["token"].as_str(), "").await;
    assert_eq!(welcome["role"], "red");
    // Black sits down on the other server, which takes the room up from the store.
    let (mut black, welcome, state) = b.join(&id, None, "Bo").await;
    assert_eq!(welcome["role"], "black", "{welcome}");
    assert_eq!(state["status"], "playing");
    let (mut watcher_a, _, _) = a.join(&id, None, "Cy").await;
    let (mut watcher_b, _, _) = b.join(&id, None, "Di").await;
    // Red's socket on A hears that Black sat down on B.
    until(&mut red, |s| s["status"] == "playing").await;
    for (ply, (from, to)) in OPENING.iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut red } else { &mut black };
        send(mover, mv(from, to)).await;
        for ws in [&mut red, &mut black, &mut watcher_a, &mut watcher_b] {
            let state = until(ws, |s| plies(s) == ply + 1).await;
            assert_eq!(
                state["game"]["moves"][ply]["iccs"],
                format!("{from}{to}"),
                "ply {ply}"
            );
        }
    }
    let (kept, version) = stored(&url, &id);
    assert_eq!(kept["moves"].as_array().map(Vec::len), Some(12), "{kept}");
    assert!(version >= 14, "made, joined, 12 moves: version {version}");
    a.stop().await;
    b.stop().await;
}

/// How many plies the race plays: at each, the player to move sends two different moves at
/// once, one to each server.
const RACED_PLIES: usize = 24;

/// Two different legal moves of `state` (the first and the last in the view's order).
fn two_moves(state: &Value) -> (Value, Value) {
    let all: Vec<(String, String)> = state["game"]["legal"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(from, tos)| {
            tos.as_array()
                .unwrap()
                .iter()
                .map(move |to| (from.clone(), to.as_str().unwrap().to_string()))
        })
        .collect();
    let (first, last) = (&all[0], &all[all.len() - 1]);
    assert_ne!(first, last, "two moves to race");
    (mv(&first.0, &first.1), mv(&last.0, &last.1))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_moves_sent_to_two_servers_at_once_keep_one_and_every_board_agrees() {
    let (_pg, url) = postgres();
    let (a, b) = two_servers(&url).await;
    let room = a.create(json!({"side": "red", "name": "Ann"})).await;
    let id = room["id"].as_str().unwrap().to_string();
    let red_token = room["token"].as_str().unwrap().to_string();
    let (mut red_a, _, _) = a.join(&id, Some(&red_token), "").await;
    let (mut black_b, welcome, _) = b.join(&id, None, "Bo").await;
    let black_token = welcome["token"].as_str().unwrap().to_string();
    // Each player has a socket on both servers, and each server a spectator.
    let (mut red_b, welcome, _) = b.join(&id, Some(&red_token), "").await;
    assert_eq!(welcome["role"], "red");
    let (mut black_a, welcome, _) = a.join(&id, Some(&black_token), "").await;
    assert_eq!(welcome["role"], "black");
    let (mut watcher_a, _, mut state) = a.join(&id, None, "Cy").await;
    let (mut watcher_b, _, _) = b.join(&id, None, "Di").await;
    let mut seen = Vec::new();
    for ply in 0..RACED_PLIES {
        if state["status"] != "playing" {
            break;
        }
        let (one, other) = if ply % 2 == 0 {
            (&mut red_a, &mut red_b)
        } else {
            (&mut black_a, &mut black_b)
        };
        let (first, second) = two_moves(&state);
        tokio::join!(send(one, first.clone()), send(other, second.clone()));
        state = until(&mut watcher_a, |s| plies(s) > ply).await;
        assert_eq!(plies(&state), ply + 1, "one move kept, not two: {state}");
        let kept = state["game"]["moves"][ply]["iccs"].clone();
        let iccs = |m: &Value| {
            format!(
                "{}{}",
                m["from"].as_str().unwrap(),
                m["to"].as_str().unwrap()
            )
        };
        assert!(kept == iccs(&first) || kept == iccs(&second), "{kept}");
        // Every board, on either server, shows the same move.
        for ws in [
            &mut red_a,
            &mut red_b,
            &mut black_a,
            &mut black_b,
            &mut watcher_b,
        ] {
            let theirs = until(ws, |s| plies(s) == ply + 1).await;
            assert_eq!(theirs["game"]["moves"][ply]["iccs"], kept, "ply {ply}");
        }
        seen.push(kept.as_str().unwrap().to_string());
    }
    assert!(seen.len() >= 10, "the race went on: {seen:?}");
    let (kept, _) = stored(&url, &id);
    let kept_moves: Vec<String> = kept["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(kept_moves, seen, "the store holds what every board shows");
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_once_whichever_servers_watch_the_clock() {
    let (_pg, url) = postgres();
    let (a, b) = two_servers(&url).await;
    let room = a.create(json!({"side": "red", "seconds": 2})).await;
    let id = room["id"].as_str().unwrap().to_string();
    let (mut red, _, _) = a.join(&id, room["token"].as_str(), "").await;
    let (mut black, _, _) = b.join(&id, None, "Bo").await;
    send(&mut red, mv("h2", "e2")).await;
    until(&mut black, |s| plies(s) == 1).await;
    let (_, before) = stored(&url, &id);
    // Nobody moves: Black's flag falls on both servers' clocks, and is kept once.
    for ws in [&mut red, &mut black] {
        let state = tokio::time::timeout(Duration::from_secs(6), async {
            until(ws, |s| s["status"] == "over").await
        })
        .await
        .expect("the flag falls");
        assert_eq!(state["result"]["code"], "time");
        assert_eq!(state["result"]["result"], "red-wins");
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (kept, after) = stored(&url, &id);
    assert_eq!(after, before + 1, "one write ended the game: {kept}");
    a.stop().await;
    b.stop().await;
}

/// The answer to a claim of a win by the opponent's absence: the error's wait in seconds
/// (null: the opponent is here, nothing to wait for).
async fn claim(ws: &mut Ws) -> Value {
    send(ws, json!({"type": "claim"})).await;
    loop {
        let m = next(ws).await;
        assert!(!m.is_null(), "the socket closed");
        if m["type"] == "error" {
            assert_eq!(m["error"]["code"], "cannot-claim", "{m}");
            return m["error"]["params"]["wait_seconds"].clone();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_connected_to_the_other_server_is_not_away() {
    let (_pg, url) = postgres();
    let (a, b) = two_servers(&url).await;
    let room = a.create(json!({"side": "red", "name": "Ann"})).await;
    let id = room["id"].as_str().unwrap().to_string();
    let (mut red, _, _) = a.join(&id, room["token"].as_str(), "").await;
    let (black, _, _) = b.join(&id, None, "Bo").await;
    // Black is connected to B: on A, Red's claim finds Black here (once B has told it).
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let wait = claim(&mut red).await;
        if wait.is_null() {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "Black counts as away: {wait}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Black's page closes: now Red may claim once the grace has run.
    drop(black);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let wait = claim(&mut red).await;
        if wait.as_u64().is_some() {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "Black still counts as here"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    a.stop().await;
    b.stop().await;
}
