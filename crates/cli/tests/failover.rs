//! Two `xiangqi serve` processes on one PostgreSQL store (a real server of the test's own)
//! behind Debian's nginx with the deploy folder's upstream settings: a rated-clock game is
//! played through the proxy, the server holding Red's socket is killed outright (SIGKILL)
//! mid-game, Red's page connects again through nginx and lands on the other server, which
//! takes the room up from the store: the game goes on with its clocks where they were, and
//! every move answered before the kill is kept.
//!
//! nginx and PostgreSQL must be installed (`scripts/test` installs them); the test fails,
//! saying so, when they are not.

#[path = "support/proxy.rs"]
mod proxy;
#[path = "support/server.rs"]
mod server;

use proxy::{Running, free_port, start_nginx, wait_listening};
use serde_json::{Value, json};
use server::{json, request_with};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};
use xiangqi_store::temp_postgres::TempPostgres;

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// An opening of 8 plies, no position repeated.
const OPENING: [&str; 8] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9",
];

/// `xiangqi serve` on `port` with its store in `database`, public at
/// `http://club.test:{public}` behind nginx on loopback.
fn start_serve(database: &str, port: u16, public: u16) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .args(["--public-url", &format!("http://club.test:{public}")])
        .args(["--trusted-proxy", "127.0.0.1", "--searchers", "1"])
        .args(["--database", database])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start xiangqi serve");
    let lines = BufReader::new(child.stdout.take().unwrap()).lines();
    std::thread::spawn(move || for _ in lines {});
    wait_listening(port, "xiangqi serve");
    Running(child)
}

/// A socket on room `id` through nginx, joined with `token` (none: the free seat): the
/// socket, the port of the server nginx chose, the welcome and the first state.
fn join(public: u16, id: &str, token: Option<&str>, name: &str) -> (Socket, u16, Value, Value) {
    let mut request = format!("ws://127.0.0.1:{public}/api/rooms/{id}/socket")
        .into_client_request()
        .unwrap();
    let host = format!("club.test:{public}");
    request.headers_mut().insert("Host", host.parse().unwrap());
    request
        .headers_mut()
        .insert("Origin", format!("http://{host}").parse().unwrap());
    let (mut socket, response) = tungstenite::connect(request).expect("a socket through nginx");
    let upstream: u16 = response
        .headers()
        .get("x-upstream")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(':').next())
        .and_then(|p| p.parse().ok())
        .expect("nginx names the server");
    if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
        stream
            .set_read_timeout(Some(Duration::from_secs(15)))
            .unwrap();
    }
    let join = json!({"type": "join", "token": token, "name": name});
    socket.send(Message::text(join.to_string())).unwrap();
    let welcome = read(&mut socket);
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let state = until(&mut socket, |_| true);
    (socket, upstream, welcome, state)
}

/// The next JSON message.
fn read(socket: &mut Socket) -> Value {
    loop {
        match socket.read().expect("a message within 15 s") {
            Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            Message::Close(_) => panic!("the socket closed"),
            _ => {}
        }
    }
}

/// The first state from the next message on for which `wanted` holds.
fn until(socket: &mut Socket, wanted: impl Fn(&Value) -> bool) -> Value {
    loop {
        let message = read(socket);
        if message["type"] == "state" && wanted(&message["room"]) {
            return message["room"].clone();
        }
    }
}

fn plies(state: &Value) -> usize {
    state["game"]["moves"].as_array().map_or(0, Vec::len)
}

/// Plays `OPENING[from..to]`, each move sent by the side to move and seen on both sockets.
fn play(red: &mut Socket, black: &mut Socket, from: usize, to: usize) -> Value {
    let mut state = Value::Null;
    for (ply, iccs) in OPENING.iter().enumerate().take(to).skip(from) {
        let mover = if ply % 2 == 0 { &mut *red } else { &mut *black };
        let mv = json!({"type": "move", "from": &iccs[..2], "to": &iccs[2..]});
        mover.send(Message::text(mv.to_string())).unwrap();
        for socket in [&mut *red, &mut *black] {
            state = until(socket, |s| plies(s) == ply + 1);
            assert_eq!(state["game"]["moves"][ply]["iccs"], *iccs, "ply {ply}");
        }
    }
    state
}

#[test]
fn a_game_goes_on_through_nginx_when_the_server_holding_a_socket_is_killed() {
    let postgres = std::thread::spawn(|| {
        let server = TempPostgres::start()
            .unwrap_or_else(|e| panic!("the test needs a PostgreSQL server: {e}"));
        let url = server.new_database();
        (server, url)
    })
    .join()
    .unwrap();
    let (_postgres, database) = postgres;
    let base = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-failover-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let (a, b, public) = (free_port(), free_port(), free_port());
    let mut servers: HashMap<u16, Running> = [a, b]
        .into_iter()
        .map(|port| (port, start_serve(&database, port, public)))
        .collect();
    let _nginx = start_nginx(&base.join("nginx"), public, &[a, b]);

    let host = format!("club.test:{public}");
    let body = json!({"side": "red", "name": "Ann", "minutes": 5}).to_string();
    let (status, _, answer) = request_with(
        public,
        "POST",
        "/api/rooms",
        Some(&body),
        &[("Host", host.as_str())],
    )
    .unwrap();
    assert_eq!(status, 201, "{answer}");
    let room = json(&answer);
    let id = room["id"].as_str().unwrap().to_string();
    let red_token = room["token"].as_str().unwrap().to_string();
    let (mut red, red_server, welcome, _) = join(public, &id, Some(&red_token), "");
    assert_eq!(welcome["role"], "red");
    let (mut black, black_server, welcome, _) = join(public, &id, None, "Bo");
    assert_eq!(welcome["role"], "black");
    let black_token = welcome["token"].as_str().unwrap().to_string();
    let before = play(&mut red, &mut black, 0, 4);
    let clocks = before["clocks"].clone();
    assert_eq!(clocks["running"], "red", "{clocks}");

    // The server holding Red's socket dies with it.
    servers.get_mut(&red_server).unwrap().kill();
    let other = if red_server == a { b } else { a };
    // Red's page connects again, through nginx, to the server still up.
    let (mut red, now_on, welcome, state) = join(public, &id, Some(&red_token), "");
    assert_eq!(now_on, other, "nginx passes the dead server over");
    assert_eq!(welcome["role"], "red", "{welcome}");
    assert_eq!(
        plies(&state),
        4,
        "every move answered before the kill is kept"
    );
    assert_eq!(state["status"], "playing");
    // The clocks go on from the stored stamps: Red's has run on since, Black's stands.
    assert_eq!(state["clocks"]["running"], "red");
    let red_before = clocks["red_ms"].as_u64().unwrap();
    let red_now = state["clocks"]["red_ms"].as_u64().unwrap();
    assert!(
        red_now <= red_before && red_before - red_now < 60_000,
        "{red_before} → {red_now}"
    );
    assert_eq!(state["clocks"]["black_ms"], clocks["black_ms"]);
    if black_server == red_server {
        let (socket, _, welcome, _) = join(public, &id, Some(&black_token), "");
        assert_eq!(welcome["role"], "black");
        black = socket;
    }
    let after = play(&mut red, &mut black, 4, 8);
    assert_eq!(plies(&after), 8);

    // The store holds the whole game.
    let kept: Value = std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&database, postgres::NoTls).unwrap();
        let row = client
            .query_one("SELECT room FROM rooms WHERE id = $1", &[&id])
            .unwrap();
        serde_json::from_str(&row.get::<_, String>(0)).unwrap()
    })
    .join()
    .unwrap();
    let moves: Vec<&str> = kept["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(moves, OPENING, "{kept}");
    let _ = std::fs::remove_dir_all(&base);
}
