//! Play a friend over a real server: rooms made over HTTP and played over WebSockets. Every
//! refusal (a move out of turn, a forged or foreign token, a spectator's move, oversized,
//! malformed and flooding messages, a page elsewhere) is answered with its code and leaves
//! the room as it was; the server's clock ends a game on time with no message; a restarted
//! server goes on with every room from its database; a finished game is in My games; a
//! spectator's analysis streams while the players allow it and stops when they turn it off.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use xiangqi_web::{PoolOptions, ServerOptions, Shutdown, SocketLimits};

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

struct Server {
    port: u16,
    stop: tokio::sync::mpsc::UnboundedSender<()>,
    ended: tokio::task::JoinHandle<std::io::Result<Shutdown>>,
}

async fn start(data: Option<&Path>) -> Server {
    start_with(ServerOptions {
        data: data.map(Path::to_path_buf),
        ..ServerOptions::default()
    })
    .await
}

/// A server sized by `options`, with one small searcher.
async fn start_with(options: ServerOptions) -> Server {
    let listener = xiangqi_web::bind("127.0.0.1", 0).await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let options = ServerOptions {
        pool: PoolOptions {
            searchers: 1,
            queue: 4,
            hash_mb: 1,
        },
        ..options
    };
    let (stop, stops) = tokio::sync::mpsc::unbounded_channel();
    let ended =
        tokio::spawn(
            async move { xiangqi_web::serve(listener, "127.0.0.1", &options, stops).await },
        );
    Server { port, stop, ended }
}

impl Server {
    /// A handle on the server at `port` for requests only (it cannot stop it).
    fn at(port: u16) -> Server {
        let (stop, _) = tokio::sync::mpsc::unbounded_channel();
        Server {
            port,
            stop,
            ended: tokio::spawn(async {
                Ok(Shutdown {
                    drained: true,
                    unsaved: 0,
                })
            }),
        }
    }

    async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.stop.send(());
        let _ = self.ended.await;
    }

    /// `method` `path` with `body`: the status and the JSON answer.
    async fn http(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let (status, _, answer) = http_as(self, method, path, body, "").await;
        (status, answer)
    }

    /// `GET path` read to its end: the status and the body's text.
    async fn get_text(&self, path: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).await.unwrap();
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            self.port
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.unwrap();
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let status: u16 = answer[9..12].parse().unwrap();
        (status, answer)
    }

    /// The `lines` events of the analysis stream `path`, read to its end, and how long the
    /// stream lasted.
    async fn analysis(&self, path: &str) -> (Vec<Value>, Duration) {
        let began = std::time::Instant::now();
        let (status, body) = self.get_text(path).await;
        assert_eq!(status, 200, "{body}");
        let events = body
            .lines()
            .filter_map(|line| line.strip_prefix("data: "))
            .map(|data| serde_json::from_str(data).unwrap())
            .collect();
        (events, began.elapsed())
    }

    async fn create(&self, body: Value) -> Value {
        let (status, room) = self.http("POST", "/api/rooms", Some(body)).await;
        assert_eq!(status, 201, "{room}");
        room
    }

    async fn socket_from(&self, id: &str, origin: &str) -> Result<Ws, u16> {
        let url = format!("ws://127.0.0.1:{}/api/rooms/{id}/socket", self.port);
        let mut request = url.into_client_request().unwrap();
        if !origin.is_empty() {
            request
                .headers_mut()
                .insert("Origin", origin.parse().unwrap());
        }
        match tokio_tungstenite::connect_async(request).await {
            Ok((ws, _)) => Ok(ws),
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
            Err(e) => panic!("{e}"),
        }
    }

    /// A socket joined to room `id` with `token` (none: the free seat or a spectator's
    /// place): the socket, its welcome and the first state.
    async fn join(&self, id: &str, token: Option<&str>, name: &str) -> (Ws, Value, Value) {
        join_as(self, id, token, name, "").await
    }
}

async fn send(ws: &mut Ws, message: Value) {
    ws.send(Message::text(message.to_string())).await.unwrap();
}

/// The next JSON message (pongs and pings skipped); `Value::Null` once the socket is closed.
async fn next(ws: &mut Ws) -> Value {
    loop {
        let got = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s");
        match got {
            Some(Ok(Message::Text(t))) => return serde_json::from_str(&t).unwrap(),
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return Value::Null,
            _ => {}
        }
    }
}

/// The next state message (other messages skipped).
async fn next_state(ws: &mut Ws) -> Value {
    loop {
        let m = next(ws).await;
        assert!(!m.is_null(), "the socket closed");
        if m["type"] == "state" {
            return m["room"].clone();
        }
    }
}

/// The first state (from the next message on) for which `wanted` holds.
async fn until(ws: &mut Ws, wanted: impl Fn(&Value) -> bool) -> Value {
    loop {
        let state = next_state(ws).await;
        if wanted(&state) {
            return state;
        }
    }
}

fn plies(state: &Value) -> usize {
    state["game"]["moves"].as_array().map_or(0, Vec::len)
}

/// The next crowd message (who is in the room) for which `wanted` holds.
async fn until_crowd(ws: &mut Ws, wanted: impl Fn(&Value) -> bool) -> Value {
    loop {
        let m = next(ws).await;
        assert!(!m.is_null(), "the socket closed");
        if m["type"] == "crowd" && wanted(&m) {
            return m;
        }
    }
}

/// The next error message's code (states of others' changes, and crowds, skipped).
async fn next_error(ws: &mut Ws) -> String {
    loop {
        let m = next(ws).await;
        if m["type"] == "state" || m["type"] == "crowd" {
            continue;
        }
        assert_eq!(m["type"], "error", "{m}");
        return m["error"]["code"].as_str().unwrap().to_string();
    }
}

/// Whether the socket is closed by the server (its close frame, or the end of the stream).
async fn is_closed(ws: &mut Ws) -> bool {
    loop {
        match tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => return true,
            Ok(Some(Ok(_))) => {}
            Err(_) => return false,
        }
    }
}

fn mv(from: &str, to: &str) -> Value {
    json!({"type": "move", "from": from, "to": to})
}

fn data_folder(test: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-web-rooms-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A room with Red and Black seated and a spectator: the server, the room, and the three
/// sockets (their first state read).
async fn seated(server: &Server, settings: Value) -> (Value, Ws, Ws, Ws, String, String) {
    let room = server.create(settings).await;
    let id = room["id"].as_str().unwrap().to_string();
    let red_token = room["token"].as_str().unwrap().to_string();
    let (mut red, welcome, _) = server.join(&id, Some(&red_token), "").await;
    assert_eq!(welcome["role"], "red");
    assert!(
        welcome.get("token").is_none(),
        "a seat's token is sent once"
    );
    let (black, welcome, state) = server.join(&id, None, "Bo").await;
    assert_eq!(plies(&state), 0);
    assert_eq!(welcome["role"], "black");
    let black_token = welcome["token"].as_str().unwrap().to_string();
    assert_eq!(state["status"], "playing");
    assert_eq!(state["black"]["name"], "Bo");
    let (spectator, welcome, _) = server.join(&id, None, "Cy").await;
    assert_eq!(welcome["role"], "spectator");
    assert!(welcome.get("token").is_none());
    // Red's and Black's sockets hear the spectator come, with the next crowd message.
    let mut black = black;
    until_crowd(&mut red, |c| c["spectators"] == 1).await;
    until_crowd(&mut black, |c| c["spectators"] == 1).await;
    (room, red, black, spectator, red_token, black_token)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_is_made_joined_by_link_and_played_live_on_every_board() {
    let server = start(None).await;
    let room = server
        .create(json!({"side": "red", "minutes": 10, "increment": 5, "name": "Ann"}))
        .await;
    let id = room["id"].as_str().unwrap();
    assert_eq!(room["link"], format!("/#/room/{id}"));
    assert_eq!(room["side"], "red");
    assert_eq!(id.len(), 22);
    let (status, found) = server
        .http(
            "GET",
            &format!(
                "/api/room-codes/{}",
                room["code"].as_str().unwrap().to_lowercase()
            ),
            None,
        )
        .await;
    assert_eq!((status, found["id"].as_str()), (200, Some(id)));
    let (status, err) = server
        .http("GET", "/api/rooms/nosuchroomnosuchroom00", None)
        .await;
    assert_eq!(
        (status, err["error"]["code"].as_str()),
        (404, Some("no-room"))
    );

    let (_, mut red, mut black, mut spectator, _, _) =
        seated(&server, json!({"side": "red", "name": "Ann"})).await;
    send(&mut red, mv("h2", "e2")).await;
    for ws in [&mut red, &mut black, &mut spectator] {
        let state = until(ws, |s| plies(s) == 1).await;
        assert_eq!(state["game"]["moves"][0]["iccs"], "h2e2");
        assert_eq!(state["game"]["turn"], "black");
    }
    send(&mut black, mv("h9", "g7")).await;
    until(&mut spectator, |s| plies(s) == 2).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_answered_with_their_codes_and_leave_the_room_unharmed() {
    let server = start(None).await;
    let (room, mut red, mut black, mut spectator, _, _) =
        seated(&server, json!({"side": "red"})).await;
    let id = room["id"].as_str().unwrap();

    // A move out of turn, a spectator's move and offer, an illegal move.
    send(&mut black, mv("h7", "e7")).await;
    assert_eq!(next_error(&mut black).await, "not-your-turn");
    send(&mut spectator, mv("h2", "e2")).await;
    assert_eq!(next_error(&mut spectator).await, "not-seated");
    send(&mut spectator, json!({"type": "resign"})).await;
    assert_eq!(next_error(&mut spectator).await, "not-seated");
    send(&mut red, mv("b0", "d1")).await;
    let m = next(&mut red).await;
    assert_eq!(m["error"]["code"], "horse-leg-blocked", "{m}");
    assert_eq!(m["status"], 422);
    // Malformed messages: not JSON, an unknown kind, a point that is none, a second join.
    for bad in [
        "not json".to_string(),
        json!({"type": "fly"}).to_string(),
        json!({"type": "move", "from": "z9", "to": "e2"}).to_string(),
        json!({"type": "join"}).to_string(),
    ] {
        red.send(Message::text(bad)).await.unwrap();
        assert_eq!(next_error(&mut red).await, "bad-request");
    }
    // A take-back with nothing to take back, an answer to no offer, a claim while the
    // opponent is here.
    send(&mut red, json!({"type": "offer", "kind": "takeback"})).await;
    assert_eq!(next_error(&mut red).await, "cannot-offer");
    send(
        &mut red,
        json!({"type": "answer", "kind": "draw", "accept": true}),
    )
    .await;
    assert_eq!(next_error(&mut red).await, "no-offer");
    send(&mut red, json!({"type": "claim"})).await;
    assert_eq!(next_error(&mut red).await, "cannot-claim");

    // A forged token and a token of another room are refused, and the socket closed.
    let other = server.create(json!({})).await;
    for token in [
        "forged-token-forged-token-forged1",
        other["token"].as_str().unwrap(),
    ] {
        let origin = format!("http://127.0.0.1:{}", server.port);
        let mut ws = server.socket_from(id, &origin).await.unwrap();
        send(&mut ws, json!({"type": "join", "token": token})).await;
        assert_eq!(next_error(&mut ws).await, "bad-seat-token");
        assert!(is_closed(&mut ws).await);
    }
    // A page elsewhere (or none named) cannot open the socket.
    assert_eq!(
        server.socket_from(id, "http://evil.example").await.err(),
        Some(403)
    );
    assert_eq!(server.socket_from(id, "").await.err(), Some(403));

    // An oversized message closes the socket that sent it.
    let (mut big, _, _) = server.join(id, None, "").await;
    big.send(Message::text(format!(
        "{{\"type\":\"ping\",\"x\":\"{}\"}}",
        "x".repeat(4000)
    )))
    .await
    .unwrap();
    assert_eq!(next_error(&mut big).await, "message-too-large");
    assert!(is_closed(&mut big).await);
    // So does one past the socket's frame limit (64 KiB), with the same close code.
    let (mut huge, _, _) = server.join(id, None, "").await;
    let _ = huge.send(Message::text("x".repeat(100 * 1024))).await;
    let code = loop {
        match tokio::time::timeout(Duration::from_secs(5), huge.next()).await {
            Ok(Some(Ok(Message::Close(frame)))) => break frame.map(|f| u16::from(f.code)),
            Ok(Some(Ok(_))) => {}
            other => panic!("no close frame: {other:?}"),
        }
    };
    assert_eq!(code, Some(1008));
    // A ping frame before the join does not stand in its way.
    let url = format!("ws://127.0.0.1:{}/api/rooms/{id}/socket", server.port);
    let mut request = url.into_client_request().unwrap();
    let origin = format!("http://127.0.0.1:{}", server.port);
    request
        .headers_mut()
        .insert("Origin", origin.parse().unwrap());
    let (mut pinged, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    pinged.send(Message::Ping(vec![1].into())).await.unwrap();
    send(
        &mut pinged,
        json!({"type": "join", "token": null, "name": ""}),
    )
    .await;
    let welcome = loop {
        let m = next(&mut pinged).await;
        if m["type"] == "welcome" {
            break m;
        }
        assert!(!m.is_null(), "the socket closed");
    };
    assert_eq!(welcome["role"], "spectator");
    // So does a flood.
    let (mut flood, _, _) = server.join(id, None, "").await;
    for _ in 0..60 {
        if flood
            .send(Message::text(r#"{"type":"ping"}"#))
            .await
            .is_err()
        {
            break;
        }
    }
    let code = loop {
        let m = next(&mut flood).await;
        if m.is_null() || m["type"] == "error" {
            break m["error"]["code"].as_str().unwrap_or("").to_string();
        }
    };
    assert_eq!(code, "too-many-messages");
    assert!(is_closed(&mut flood).await);

    // The room is unharmed: no move was played, and play goes on.
    let (status, state) = server.http("GET", &format!("/api/rooms/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(state["game"]["moves"].as_array().unwrap().len(), 0);
    assert_eq!(state["status"], "playing");
    send(&mut red, mv("h2", "e2")).await;
    until(&mut black, |s| plies(s) == 1).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offers_take_back_draw_resign_and_rematch_with_colours_swapped() {
    let data = data_folder("offers");
    let server = start(Some(&data)).await;
    let (room, mut red, mut black, mut spectator, red_token, _) = seated(
        &server,
        json!({"side": "red", "minutes": 5, "increment": 3, "name": "Ann"}),
    )
    .await;
    let id = room["id"].as_str().unwrap();
    send(&mut red, mv("h2", "e2")).await;
    until(&mut black, |s| plies(s) == 1).await;
    send(&mut black, mv("h9", "g7")).await;
    until(&mut red, |s| plies(s) == 2).await;
    until(&mut spectator, |s| plies(s) == 2).await;
    send(&mut spectator, json!({"type": "offer", "kind": "draw"})).await;
    assert_eq!(next_error(&mut spectator).await, "not-seated");
    // Black asks to take back; Red accepts: Black's move is gone.
    send(&mut black, json!({"type": "offer", "kind": "takeback"})).await;
    let state = until(&mut red, |s| !s["offer"].is_null()).await;
    assert_eq!(state["offer"], json!({"kind": "takeback", "by": "black"}));
    let accept = json!({"type": "answer", "kind": "takeback", "accept": true});
    send(&mut red, accept).await;
    let state = until(&mut spectator, |s| plies(s) == 1).await;
    assert!(state["offer"].is_null(), "{state}");
    assert_eq!(state["game"]["turn"], "black");
    // Red offers a draw; Black declines; Black resigns.
    send(&mut red, json!({"type": "offer", "kind": "draw"})).await;
    until(&mut black, |s| s["offer"]["kind"] == "draw").await;
    let decline = json!({"type": "answer", "kind": "draw", "accept": false});
    send(&mut black, decline).await;
    let state = until(&mut black, |s| s["offer"].is_null()).await;
    assert_eq!(state["status"], "playing");
    send(&mut black, json!({"type": "resign"})).await;
    let state = until(&mut spectator, |s| s["status"] == "over").await;
    assert_eq!(state["result"]["result"], "red-wins");
    assert_eq!(state["result"]["code"], "resignation");
    // Rematch: the colours swap.
    send(&mut red, json!({"type": "offer", "kind": "rematch"})).await;
    until(&mut black, |s| s["offer"]["kind"] == "rematch").await;
    let accept = json!({"type": "answer", "kind": "rematch", "accept": true});
    send(&mut black, accept).await;
    // Each open tab is told its new colour, and plays it.
    let mut told = Vec::new();
    for socket in [&mut red, &mut black] {
        let (mut role, mut second) = (Value::Null, false);
        while role.is_null() || !second {
            let m = next(socket).await;
            assert!(!m.is_null(), "the socket closed");
            if m["type"] == "welcome" {
                role = m["role"].clone();
            } else if m["type"] == "state" && m["room"]["number"] == 2 {
                second = true;
            }
        }
        told.push(role);
    }
    assert_eq!(
        told,
        [json!("black"), json!("red")],
        "Ann's tab plays Black, Bo's Red"
    );
    let state = until(&mut spectator, |s| s["number"] == 2).await;
    assert_eq!(state["status"], "playing");
    assert_eq!(state["red"]["name"], "Bo");
    assert_eq!(state["black"]["name"], "Ann");
    assert!(
        state["clocks"]["running"].is_null(),
        "no clock runs before Red's first move: {state}"
    );
    // Ann's tab (Red before) cannot move first; Bo's (now Red) does.
    send(&mut red, mv("h2", "e2")).await;
    assert_eq!(next_error(&mut red).await, "not-your-turn");
    send(&mut black, mv("h2", "e2")).await;
    let state = until(&mut spectator, |s| plies(s) == 1).await;
    assert_eq!(state["clocks"]["running"], "black", "{state}");
    // Ann resigns from her tab: Bo, who is Red now, wins.
    send(&mut red, json!({"type": "resign"})).await;
    let state = until(&mut spectator, |s| s["status"] == "over").await;
    assert_eq!(state["result"]["result"], "red-wins", "{state}");
    // Ann's token now holds Black.
    let (_, welcome, _) = server.join(id, Some(&red_token), "").await;
    assert_eq!(welcome["role"], "black");

    // My games has both finished games, with both names, their end and the time control.
    let mut found = Value::Null;
    for _ in 0..50 {
        let (_, list) = server.http("GET", "/api/archive/games", None).await;
        let games = list["games"].as_array().cloned().unwrap_or_default();
        if games.len() == 2 {
            assert_eq!(games[0]["red"], "Bo", "the rematch, newest first");
            assert_eq!(games[0]["result"], "red-wins");
            found = games[1].clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(found["red"], "Ann");
    assert_eq!(found["black"], "Bo");
    assert_eq!(found["end_reason"], "resignation");
    assert_eq!(found["result"], "red-wins");
    assert_eq!(found["time_control"], "300+3", "{found}");
    let (_, game) = server
        .http("GET", &format!("/api/archive/games/{}", found["id"]), None)
        .await;
    assert_eq!(game["time_control"], "300+3", "{game}");
    let pgn = game["pgn"].as_str().unwrap();
    assert!(pgn.contains("[TimeControl \"300+3\"]"), "{pgn}");
    // Opened from My games, the room's game is reviewed like any other.
    let (status, opened) = server
        .http(
            "POST",
            &format!("/api/archive/games/{}/open", found["id"]),
            None,
        )
        .await;
    assert!(status == 200 || status == 201, "{status} {opened}");
    let gid = opened["game"]["id"].as_str().unwrap().to_string();
    let (status, review) = server
        .get_text(&format!("/api/games/{gid}/review?millis=20"))
        .await;
    assert_eq!(status, 200, "{review}");
    assert!(review.contains("event: review"), "{review}");
    // Opened in another browser (its own settings name other players) and reloaded there: the
    // page brings the game back under the room's key; no row is added, no name changed.
    let key = opened["archived"]["key"].as_str().unwrap().to_string();
    assert!(key.starts_with("room-"), "{key}");
    let moves: Vec<Value> = opened["game"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].clone())
        .collect();
    for _ in 0..2 {
        let (status, resumed) = server
            .http(
                "POST",
                "/api/archive/resume",
                Some(json!({"key": key, "fen": opened["game"]["start_fen"], "moves": moves})),
            )
            .await;
        assert_eq!(status, 201, "{resumed}");
        let rid = resumed["id"].as_str().unwrap();
        let players = json!({"red": "Player", "black": "Xiangqi (Beginner)", "level": 0});
        let (status, _) = server
            .http(
                "POST",
                &format!("/api/archive/sessions/{rid}"),
                Some(players),
            )
            .await;
        assert_eq!(status, 200);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, list) = server.http("GET", "/api/archive/games", None).await;
    let games = list["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{list}");
    assert_eq!(
        (&games[1]["red"], &games[1]["black"]),
        (&json!("Ann"), &json!("Bo"))
    );
    server.stop().await;
    let _ = std::fs::remove_dir_all(data);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_clock_ends_a_game_on_time_with_no_message() {
    let server = start(None).await;
    let (_, mut red, mut black, mut spectator, _, _) =
        seated(&server, json!({"side": "red", "seconds": 2})).await;
    send(&mut red, mv("h2", "e2")).await;
    let state = until(&mut black, |s| plies(s) == 1).await;
    assert_eq!(state["clocks"]["running"], "black");
    let left = state["clocks"]["black_ms"].as_u64().unwrap();
    assert!(left > 1500 && left <= 2000, "{left}");
    // Nobody sends anything: Black's flag falls on the server's clock.
    let state = tokio::time::timeout(Duration::from_secs(4), async {
        until(&mut spectator, |s| s["status"] == "over").await
    })
    .await
    .expect("the flag falls");
    assert_eq!(state["result"]["code"], "time");
    assert_eq!(state["result"]["result"], "red-wins");
    assert_eq!(state["clocks"]["black_ms"], 0);
    assert!(state["clocks"]["running"].is_null());
    send(&mut black, mv("h9", "g7")).await;
    assert_eq!(next_error(&mut black).await, "game-over");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_goes_on_with_every_room_from_its_database() {
    let data = data_folder("restart");
    let server = start(Some(&data)).await;
    let (room, mut red, mut black, _spectator, red_token, black_token) =
        seated(&server, json!({"side": "red", "minutes": 10})).await;
    let id = room["id"].as_str().unwrap().to_string();
    send(&mut red, mv("h2", "e2")).await;
    until(&mut black, |s| plies(s) == 1).await;
    drop((red, black));
    server.stop().await;
    // The server is down for a while: Black's clock runs on.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let server = start(Some(&data)).await;
    let (mut black, welcome, state) = server.join(&id, Some(&black_token), "").await;
    assert_eq!(welcome["role"], "black");
    assert_eq!(state["game"]["moves"][0]["iccs"], "h2e2");
    assert_eq!(state["clocks"]["running"], "black");
    let left = state["clocks"]["black_ms"].as_u64().unwrap();
    assert!(left < 600_000 - 1500 && left > 600_000 - 10_000, "{left}");
    let (mut red, welcome, _) = server.join(&id, Some(&red_token), "").await;
    assert_eq!(welcome["role"], "red");
    send(&mut black, mv("h9", "g7")).await;
    let state = until(&mut red, |s| plies(s) == 2).await;
    assert_eq!(state["game"]["moves"][1]["iccs"], "h9g7");
    server.stop().await;
    let _ = std::fs::remove_dir_all(data);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_room_settings_are_refused_with_their_codes() {
    let server = start(None).await;
    let (status, err) = server
        .http("POST", "/api/rooms", Some(json!({"minutes": 999})))
        .await;
    assert_eq!(
        (status, err["error"]["code"].as_str()),
        (400, Some("bad-time-control"))
    );
    let (status, err) = server
        .http("POST", "/api/rooms", Some(json!({"side": "green"})))
        .await;
    assert_eq!(
        (status, err["error"]["code"].as_str()),
        (400, Some("bad-request"))
    );
    let (status, err) = server.http("GET", "/api/room-codes/nope", None).await;
    assert_eq!(
        (status, err["error"]["code"].as_str()),
        (404, Some("no-room"))
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_analysis_streams_while_the_players_allow_it() {
    let server = start(None).await;
    let (room, mut red, mut black, mut spectator, _, _) =
        seated(&server, json!({"side": "red", "name": "Ann"})).await;
    let id = room["id"].as_str().unwrap();
    let path = |millis: u32| format!("/api/rooms/{id}/analysis?lines=2&millis={millis}");
    // Off until a player allows it.
    let (status, body) = server.get_text(&path(100)).await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("\"analysis-off\""), "{body}");
    send(&mut red, json!({"type": "analysis", "on": true})).await;
    until(&mut spectator, |s| s["analysis"] == true).await;
    // The analysis of the start position: two lines, the last event marked done.
    let (events, _) = server.analysis(&path(300)).await;
    let last = events.last().expect("an event");
    assert_eq!(last["done"], true);
    assert_eq!(last["version"], 0);
    let lines = last["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{last}");
    assert!(!lines[0]["pv"].as_array().unwrap().is_empty());
    assert!(
        lines[0]["pv_wxf"].as_array().unwrap().len() <= lines[0]["pv"].as_array().unwrap().len()
    );

    // After a move, the position analysed is the room's new one: Black's first move leads.
    send(&mut red, mv("h2", "e2")).await;
    until(&mut spectator, |s| plies(s) == 1).await;
    let (events, _) = server.analysis(&path(300)).await;
    let last = events.last().unwrap();
    assert_eq!(last["version"], 1);
    let first = last["lines"][0]["pv"][0].as_str().unwrap();
    assert!(
        ('6'..='9').contains(&first.chars().nth(1).unwrap()),
        "a black piece moves first: {first}"
    );

    // A move in the room stops a running analysis at once.
    let watching = tokio::spawn({
        let port = server.port;
        let path = path(20_000);
        async move { Server::at(port).analysis(&path).await }
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    send(&mut black, mv("h9", "g7")).await;
    let (events, lasted) = watching.await.unwrap();
    assert!(
        lasted < Duration::from_secs(8),
        "the stream went on for {lasted:?}"
    );
    assert_eq!(events.last().unwrap()["done"], true);

    // Turned off by a player, a running analysis stops and a new one is refused.
    let watching = tokio::spawn({
        let port = server.port;
        let path = path(20_000);
        async move { Server::at(port).analysis(&path).await }
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    send(&mut black, json!({"type": "analysis", "on": false})).await;
    let state = until(&mut spectator, |s| s["analysis"] == false).await;
    assert_eq!(state["status"], "playing");
    let (_, lasted) = watching.await.unwrap();
    assert!(
        lasted < Duration::from_secs(8),
        "the stream went on for {lasted:?}"
    );
    let (status, body) = server.get_text(&path(300)).await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("\"analysis-off\""), "{body}");
    // A spectator cannot turn it back on.
    send(&mut spectator, json!({"type": "analysis", "on": true})).await;
    assert_eq!(next_error(&mut spectator).await, "not-seated");

    // Once the game is over, anyone may analyse it again.
    send(&mut red, json!({"type": "resign"})).await;
    until(&mut spectator, |s| s["status"] == "over").await;
    let (events, _) = server.analysis(&path(200)).await;
    assert_eq!(events.last().unwrap()["version"], 2);
    let (status, body) = server
        .get_text("/api/rooms/nosuchroomnosuchroom00/analysis")
        .await;
    assert_eq!(status, 404, "{body}");
    server.stop().await;
}

#[tokio::test]
async fn one_address_making_rooms_past_its_rate_is_told_when_to_come_back() {
    let server = start(None).await;
    // The server's default: ten rooms at once, then one every 30 s.
    for _ in 0..10 {
        server.create(json!({})).await;
    }
    let (status, refused) = server.http("POST", "/api/rooms", Some(json!({}))).await;
    assert_eq!(status, 429, "{refused}");
    assert_eq!(refused["error"]["code"], "too-many-rooms");
    let params = &refused["error"]["params"];
    assert_eq!(params["burst"], 10);
    assert_eq!(params["every_seconds"], 30);
    let wait = params["retry_after"].as_u64().unwrap();
    assert!((1..=30).contains(&wait), "{refused}");
    server.stop().await;
}

/// The room `id` as the archive's database holds it now, read on a connection of its own.
fn stored_room(data: &Path, id: &str) -> Option<Value> {
    let conn = rusqlite::Connection::open(data.join(xiangqi_web::ARCHIVE_FILE)).ok()?;
    let json: String = conn
        .query_row("SELECT room FROM rooms WHERE id = ?1", [id], |r| r.get(0))
        .ok()?;
    serde_json::from_str(&json).ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_reaches_the_players_only_once_the_database_holds_it() {
    let data = data_folder("committed");
    let server = start(Some(&data)).await;
    let (room, mut red, mut black, _spectator, _, _) =
        seated(&server, json!({"side": "red"})).await;
    let id = room["id"].as_str().unwrap().to_string();
    for (n, (from, to)) in [("h2", "e2"), ("h9", "g7"), ("h0", "g2")]
        .into_iter()
        .enumerate()
    {
        let (mover, watcher) = if n % 2 == 0 {
            (&mut red, &mut black)
        } else {
            (&mut black, &mut red)
        };
        send(mover, mv(from, to)).await;
        until(watcher, |s| plies(s) == n + 1).await;
        // Seen by the opponent: the move is in the database already.
        let kept = stored_room(&data, &id).expect("the room is in the archive");
        assert!(
            kept["moves"]
                .as_array()
                .is_some_and(|m| m.len() == n + 1 && m[n] == format!("{from}{to}")),
            "move {} was seen before it was kept: {kept}",
            n + 1
        );
    }
    drop((red, black));
    server.stop().await;
    let _ = std::fs::remove_dir_all(data);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_an_earlier_version_kept_in_their_own_file_come_back() {
    let data = data_folder("adopt");
    std::fs::create_dir_all(&data).unwrap();
    let settings = xiangqi_rooms::RoomSettings {
        side: xiangqi_rooms::SideChoice::Red,
        clock: None,
        rules: xiangqi_rooms::Rules::Asian,
        rated: false,
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let (room, _) = xiangqi_rooms::Room::create(
        "old-room".into(),
        "ABCD2345".into(),
        &settings,
        "old-token".into(),
        xiangqi_rooms::Player::named("Ann"),
        now,
    );
    {
        let conn = rusqlite::Connection::open(data.join(xiangqi_store::OLD_ROOMS_FILE)).unwrap();
        conn.execute_batch(
            "CREATE TABLE rooms (id TEXT PRIMARY KEY, code TEXT NOT NULL,
                updated_ms INTEGER NOT NULL, room TEXT NOT NULL);
             PRAGMA user_version = 1;",
        )
        .unwrap();
        conn.execute(
            "INSERT INTO rooms VALUES (?1, ?2, ?3, ?4)",
            rusqlite::params!["old-room", "ABCD2345", now as i64, room.to_json()],
        )
        .unwrap();
    }
    let server = start(Some(&data)).await;
    let (status, found) = server.http("GET", "/api/room-codes/ABCD2345", None).await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["id"], "old-room");
    let (_, welcome, state) = server.join("old-room", Some("old-token"), "").await;
    assert_eq!(welcome["role"], "red");
    assert_eq!(state["red"]["name"], "Ann");
    assert!(!data.join(xiangqi_store::OLD_ROOMS_FILE).exists());
    server.stop().await;
    let _ = std::fs::remove_dir_all(data);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_that_cannot_be_kept_is_refused_not_played_and_play_resumes_when_it_can() {
    let data = data_folder("locked");
    let server = start(Some(&data)).await;
    let (room, mut red, mut black, _spectator, _, _) =
        seated(&server, json!({"side": "red"})).await;
    let id = room["id"].as_str().unwrap().to_string();
    send(&mut red, mv("h2", "e2")).await;
    until(&mut black, |s| plies(s) == 1).await;

    // Another program takes the file's write lock and holds it.
    let holder = rusqlite::Connection::open(data.join(xiangqi_web::ARCHIVE_FILE)).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    send(&mut black, mv("h9", "g7")).await;
    assert_eq!(next_error(&mut black).await, "not-saved");
    // Refused at once while writes fail; the move was never played.
    send(&mut black, mv("b9", "c7")).await;
    assert_eq!(next_error(&mut black).await, "not-saved");
    let (status, _) = server.http("GET", &format!("/api/rooms/{id}"), None).await;
    assert_eq!(status, 200);
    let kept = stored_room(&data, &id).unwrap();
    assert_eq!(kept["moves"], json!(["h2e2"]));

    // The lock goes: the server finds it can write again by itself, and play resumes.
    holder.execute_batch("ROLLBACK").unwrap();
    drop(holder);
    let mut resumed = false;
    for _ in 0..100 {
        send(&mut black, mv("h9", "g7")).await;
        let answer = loop {
            let m = next(&mut black).await;
            if m["type"] == "error" || (m["type"] == "state" && plies(&m["room"]) == 2) {
                break m;
            }
        };
        if answer["type"] == "state" {
            resumed = true;
            break;
        }
        assert_eq!(answer["error"]["code"], "not-saved", "{answer}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(resumed, "play did not resume once the lock was gone");
    let state = until(&mut red, |s| plies(s) == 2).await;
    assert_eq!(state["game"]["moves"][1]["iccs"], "h9g7");
    assert_eq!(
        stored_room(&data, &id).unwrap()["moves"],
        json!(["h2e2", "h9g7"]),
        "exactly the moves answered are kept"
    );
    drop((red, black));
    server.stop().await;
    let _ = std::fs::remove_dir_all(data);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_are_capped_by_address_and_by_room_and_give_their_places_back() {
    let server = start_with(ServerOptions {
        max_connections: 6,
        sockets: SocketLimits {
            per_address: 4,
            per_room: 3,
        },
        ..ServerOptions::default()
    })
    .await;
    let room = server.create(json!({"side": "red"})).await;
    let id = room["id"].as_str().unwrap().to_string();
    let origin = format!("http://127.0.0.1:{}", server.port);
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(server.socket_from(&id, &origin).await.unwrap());
    }
    // The room has as many as it may: a fourth is refused before it is opened.
    assert_eq!(server.socket_from(&id, &origin).await.err(), Some(503));
    // Another room: one more from this address, then its cap. (The refused socket's and the
    // rooms' own connections give their places back once the server sees them closed.)
    let other = server.create(json!({"side": "red"})).await;
    let other = other["id"].as_str().unwrap().to_string();
    let mut one_more = None;
    for _ in 0..50 {
        match server.socket_from(&other, &origin).await {
            Ok(ws) => {
                one_more = Some(ws);
                break;
            }
            Err(503) => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
            Err(status) => panic!("{status}"),
        }
    }
    held.push(one_more.expect("a socket to the other room"));
    assert_eq!(server.socket_from(&other, &origin).await.err(), Some(429));
    // Four sockets hold four of the six connection places; requests are still answered.
    let (status, _) = server.http("GET", "/api/levels", None).await;
    assert_eq!(status, 200);
    // A closed socket gives its places back.
    let mut first = held.remove(0);
    first.close(None).await.unwrap();
    drop(first);
    let mut again = None;
    for _ in 0..50 {
        if let Ok(ws) = server.socket_from(&id, &origin).await {
            again = Some(ws);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(again.is_some(), "the room's place was given back");
    drop(held);
    server.stop().await;
}

/// A server hosted for many people (`xiangqi serve`), its data in `data`.
async fn hosted(data: &Path) -> Server {
    start_with(ServerOptions {
        data: Some(data.to_path_buf()),
        site: Some(xiangqi_web::Site::new("http://club.test", Vec::new()).unwrap()),
        ..ServerOptions::default()
    })
    .await
}

/// Signs `name` up on `server`: the session's cookies, as a `Cookie` header holds them.
async fn account(server: &Server, name: &str) -> String {
    let (status, cookies, answer) = http_as(
        server,
        "POST",
        "/api/account/sign-up",
        Some(json!({"name": name, "password": "correct horse"})),
        "",
    )
    .await;
    assert_eq!(status, 201, "{answer}");
    cookies.join("; ")
}

/// `method` `path` with `body` and `cookie` (none when empty) on `server`: the status, the
/// `Set-Cookie` pairs (`name=value`) and the JSON answer (a chunked body's JSON lies between
/// the first size line and the closing chunk).
async fn http_as(
    server: &Server,
    method: &str,
    path: &str,
    body: Option<Value>,
    cookie: &str,
) -> (u16, Vec<String>, Value) {
    let mut stream = TcpStream::connect(("127.0.0.1", server.port))
        .await
        .unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let cookie = if cookie.is_empty() {
        String::new()
    } else {
        format!("Cookie: {cookie}\r\n")
    };
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
         {cookie}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        server.port,
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer);
    let status: u16 = answer[9..12].parse().unwrap();
    let (head, rest) = answer.split_once("\r\n\r\n").unwrap();
    let cookies = head
        .lines()
        .filter_map(|l| l.strip_prefix("set-cookie: "))
        .map(|c| c.split(';').next().unwrap().to_string())
        .collect();
    let json = rest
        .find('{')
        .map(|start| &rest[start..=rest.rfind('}').unwrap()])
        .unwrap_or("null");
    (
        status,
        cookies,
        serde_json::from_str(json).unwrap_or(Value::Null),
    )
}

/// A socket to room `id` sent with `cookie` (none when empty), joined with `token` (or none) under `name`.
async fn join_as(
    server: &Server,
    id: &str,
    token: Option<&str>,
    name: &str,
    cookie: &str,
) -> (Ws, Value, Value) {
    let url = format!("ws://127.0.0.1:{}/api/rooms/{id}/socket", server.port);
    let mut request = url.into_client_request().unwrap();
    let headers = request.headers_mut();
    headers.insert(
        "Origin",
        format!("http://127.0.0.1:{}", server.port).parse().unwrap(),
    );
    if !cookie.is_empty() {
        headers.insert("Cookie", cookie.parse().unwrap());
    }
    let (mut ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    send(
        &mut ws,
        json!({"type": "join", "token": token, "name": name}),
    )
    .await;
    let welcome = next(&mut ws).await;
    let state = next(&mut ws).await["room"].clone();
    (ws, welcome, state)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_game_goes_to_each_player_s_own_archive_and_a_rated_room_seats_accounts_only() {
    let data = data_folder("owners");
    let server = hosted(&data).await;
    let ann = account(&server, "Ann").await;
    let bob = account(&server, "Bob").await;
    let cy = account(&server, "Cy").await;
    // A guest may not make a rated room.
    let (status, _, refused) = http_as(
        &server,
        "POST",
        "/api/rooms",
        Some(json!({"side": "red", "rated": true, "name": "Guest"})),
        "",
    )
    .await;
    assert_eq!(status, 401, "{refused}");
    let (status, _, room) = http_as(
        &server,
        "POST",
        "/api/rooms",
        Some(json!({"side": "red", "rated": true, "name": "typed"})),
        &ann,
    )
    .await;
    assert_eq!(status, 201, "{room}");
    assert_eq!(
        room["room"]["red"]["name"], "Ann",
        "an account plays under its name"
    );
    let id = room["id"].as_str().unwrap();
    let (mut red, welcome, _) = join_as(&server, id, room["token"].as_str(), "", &ann).await;
    assert_eq!(welcome["role"], "red");
    // A visitor with no account only watches a rated room.
    let (_watcher, welcome, _) = join_as(&server, id, None, "Guest 1234", "").await;
    assert_eq!(welcome["role"], "spectator");
    let (mut black, welcome, state) = join_as(&server, id, None, "", &bob).await;
    assert_eq!(welcome["role"], "black", "{state}");
    assert_eq!(state["black"]["name"], "Bob");
    send(&mut red, json!({"type": "move", "from": "h2", "to": "e2"})).await;
    until(&mut black, |s| plies(s) == 1).await;
    send(&mut black, json!({"type": "resign"})).await;
    until(&mut red, |s| s["status"] == "over").await;
    // The game is in Ann's and Bob's My games, not in Cy's.
    let games = |cookie: String| {
        let server = &server;
        async move {
            let deadline = std::time::Instant::now() + Duration::from_secs(10);
            loop {
                let (status, _, list) =
                    http_as(server, "GET", "/api/archive/games", None, &cookie).await;
                assert_eq!(status, 200, "{list}");
                let n = list["games"].as_array().unwrap().len();
                if n > 0 || std::time::Instant::now() > deadline {
                    return list;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    for cookie in [ann, bob] {
        let list = games(cookie).await;
        assert_eq!(list["games"].as_array().unwrap().len(), 1, "{list}");
        assert_eq!(list["games"][0]["red"], "Ann");
        assert_eq!(list["games"][0]["black"], "Bob");
        assert_eq!(list["games"][0]["result"], "red-wins");
    }
    let (_, _, list) = http_as(&server, "GET", "/api/archive/games", None, &cy).await;
    assert_eq!(list["games"].as_array().unwrap().len(), 0, "{list}");
    server.stop().await;
}

/// The lobby's stream for `cookie`, read until an event named `name` comes: its data.
async fn lobby_event(stream: &mut TcpStream, name: &str) -> Value {
    let mut seen = String::new();
    let mut buffer = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(at) = seen.find(&format!("event: {name}\n")) {
            let rest = &seen[at..];
            // The event's data line, once it has come whole.
            if let Some(start) = rest.find("data: ")
                && let Some(end) = rest[start..].find('\n')
            {
                let data = rest[start + "data: ".len()..start + end].trim_end();
                return serde_json::from_str(data).unwrap();
            }
        }
        let read = tokio::time::timeout_at(deadline, stream.read(&mut buffer))
            .await
            .unwrap_or_else(|_| panic!("no `{name}` event in: {seen}"))
            .unwrap();
        assert!(read > 0, "the stream ended: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..read]));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_in_the_lobby_is_accepted_into_a_rated_game_that_moves_both_ratings() {
    let data = data_folder("lobby");
    let server = hosted(&data).await;
    let (ann, bob) = (account(&server, "Ann").await, account(&server, "Bob").await);
    // Ann opens the lobby and posts a rated blitz seek, playing Red.
    let mut lobby = TcpStream::connect(("127.0.0.1", server.port))
        .await
        .unwrap();
    let request = format!(
        "GET /api/lobby/stream HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nCookie: {ann}\r\n\r\n",
        server.port
    );
    lobby.write_all(request.as_bytes()).await.unwrap();
    let first = lobby_event(&mut lobby, "seeks").await;
    assert_eq!(first["seeks"], json!([]));
    let (status, _, seek) = http_as(
        &server,
        "POST",
        "/api/lobby/seeks",
        Some(json!({"minutes": 5, "increment": 3, "rated": true, "side": "red"})),
        &ann,
    )
    .await;
    assert_eq!(status, 201, "{seek}");
    assert_eq!(seek["speed"], "blitz");
    assert_eq!(seek["mine"], true);
    let listed = lobby_event(&mut lobby, "seeks").await;
    assert_eq!(listed["seeks"][0]["name"], "Ann");
    // A guest cannot post a rated seek, nor accept Ann's; Ann cannot accept her own.
    let (status, _, _) = http_as(
        &server,
        "POST",
        "/api/lobby/seeks",
        Some(json!({"minutes": 5, "rated": true})),
        "",
    )
    .await;
    assert_eq!(status, 401);
    let id = seek["id"].as_str().unwrap();
    let accept = format!("/api/lobby/seeks/{id}/accept");
    let (status, _, own) = http_as(&server, "POST", &accept, Some(json!({})), &ann).await;
    assert_eq!(status, 409, "{own}");
    // Bob sees it in the lobby and accepts: both are seated in a new rated room.
    let (_, _, seen) = http_as(&server, "GET", "/api/lobby", None, &bob).await;
    assert_eq!(seen["seeks"][0]["mine"], false);
    let (status, _, seat) = http_as(&server, "POST", &accept, Some(json!({})), &bob).await;
    assert_eq!(status, 201, "{seat}");
    assert_eq!(seat["side"], "black");
    let matched = lobby_event(&mut lobby, "matched").await;
    assert_eq!(matched["id"], seat["id"]);
    assert_eq!(matched["side"], "red");
    let (status, _, gone) = http_as(&server, "POST", &accept, Some(json!({})), &bob).await;
    assert_eq!(status, 404, "an accepted seek is gone: {gone}");
    let room = seat["id"].as_str().unwrap();
    let (mut red, welcome, state) =
        join_as(&server, room, matched["token"].as_str(), "", &ann).await;
    assert_eq!(welcome["role"], "red");
    assert_eq!(state["rated"], true);
    let (mut black, welcome, _) = join_as(&server, room, seat["token"].as_str(), "", &bob).await;
    assert_eq!(welcome["role"], "black");
    send(&mut red, json!({"type": "move", "from": "h2", "to": "e2"})).await;
    until(&mut black, |s| plies(s) == 1).await;
    send(&mut black, json!({"type": "resign"})).await;
    until(&mut red, |s| s["status"] == "over").await;
    // Both ratings moved, and both profiles list the game.
    let profile = |name: &'static str, cookie: String| {
        let server = &server;
        async move {
            let deadline = std::time::Instant::now() + Duration::from_secs(10);
            loop {
                let (status, _, p) = http_as(
                    server,
                    "GET",
                    &format!("/api/players/{name}"),
                    None,
                    &cookie,
                )
                .await;
                assert_eq!(status, 200, "{p}");
                if !p["games"].as_array().unwrap().is_empty()
                    || std::time::Instant::now() > deadline
                {
                    return p;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    let ann_profile = profile("ann", ann.clone()).await;
    assert_eq!(ann_profile["name"], "Ann");
    let blitz = &ann_profile["ratings"][0];
    assert_eq!(blitz["speed"], "blitz");
    assert!(blitz["rating"].as_i64().unwrap() > 1500, "{ann_profile}");
    assert_eq!(blitz["provisional"], true);
    let game = &ann_profile["games"][0];
    assert_eq!(game["outcome"], "win");
    assert_eq!(game["opponent"], "Bob");
    assert!(
        game["row"].is_number(),
        "Ann may review her own game: {game}"
    );
    assert_eq!(ann_profile["history"]["blitz"].as_array().unwrap().len(), 1);
    // Bob's profile, as Ann sees it: his loss, without his My games' row.
    let bob_profile = profile("Bob", ann.clone()).await;
    assert!(bob_profile["ratings"][0]["rating"].as_i64().unwrap() < 1500);
    assert_eq!(bob_profile["games"][0]["outcome"], "loss");
    assert_eq!(bob_profile["games"][0]["row"], Value::Null);
    let (status, _, _) = http_as(&server, "GET", "/api/players/nobody", None, "").await;
    assert_eq!(status, 404);
    // The game counted once, whatever happens next.
    let (_, _, again) = http_as(&server, "GET", "/api/players/ann", None, "").await;
    assert_eq!(again["ratings"][0]["games"], 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_arriving_cost_the_room_one_crowd_message_not_a_state_each() {
    let server = start(None).await;
    let (room, mut red, mut black, _spectator, _, _) =
        seated(&server, json!({"side": "red", "name": "Ann"})).await;
    let id = room["id"].as_str().unwrap();
    // A move: every state carries the room's version, one more for each change.
    send(&mut red, mv("h2", "e2")).await;
    let moved = loop {
        let m = next(&mut black).await;
        if m["type"] == "state" {
            break m;
        }
    };
    let version = moved["version"].as_u64().unwrap();
    assert!(version >= 1, "{moved}");
    until(&mut red, |s| plies(s) == 1).await;
    // Twenty spectators come at once: each is sent the room; the players hear of them in
    // crowd messages (at most one a second), never in a state of the whole room.
    let mut watchers = Vec::new();
    for i in 0..20 {
        let (ws, welcome, state) = server.join(id, None, &format!("W{i}")).await;
        assert_eq!(welcome["role"], "spectator");
        assert_eq!(plies(&state), 1, "the newcomer is sent the room as it is");
        watchers.push(ws);
    }
    let began = tokio::time::Instant::now();
    let (mut states, mut crowds, mut last) = (0, 0, Value::Null);
    while began.elapsed() < Duration::from_millis(2500) {
        match tokio::time::timeout(Duration::from_millis(200), red.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                let m: Value = serde_json::from_str(&t).unwrap();
                if m["type"] == "state" {
                    states += 1;
                } else if m["type"] == "crowd" {
                    crowds += 1;
                    last = m;
                }
            }
            Ok(_) => break,
            Err(_) => {}
        }
    }
    assert_eq!(states, 0, "no state for a spectator's arrival");
    assert!(
        (1..=4).contains(&crowds),
        "{crowds} crowd messages for 20 arrivals"
    );
    assert_eq!(last["spectators"], 21);
    assert_eq!(
        last["version"], version,
        "the crowd names the state it follows"
    );
    assert_eq!(last["red"]["present"], true);
    // A page that missed a version asks for the room afresh.
    send(&mut black, json!({"type": "sync"})).await;
    let fresh = loop {
        let m = next(&mut black).await;
        if m["type"] == "state" {
            break m;
        }
    };
    assert_eq!(fresh["version"], version);
    assert_eq!(plies(&fresh["room"]), 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_administrator_closes_a_room_and_its_game_ends_with_no_result() {
    let data = data_folder("close");
    let server = hosted(&data).await;
    let (boss, bob) = (
        account(&server, "Boss").await,
        account(&server, "Bob").await,
    );
    rusqlite::Connection::open(data.join("games.sqlite3"))
        .unwrap()
        .execute("UPDATE accounts SET role = 'admin' WHERE name = 'Boss'", [])
        .unwrap();
    // The role is read again once the session is looked up afresh: sign in anew.
    let (status, cookies, _) = http_as(
        &server,
        "POST",
        "/api/account/sign-in",
        Some(json!({"name": "Boss", "password": "correct horse"})),
        &boss,
    )
    .await;
    assert_eq!(status, 200);
    let boss = cookies.join("; ");
    let (room, mut red, mut black, _spectator, _, _) =
        seated(&server, json!({"side": "red", "name": "Ann"})).await;
    let id = room["id"].as_str().unwrap();
    send(&mut red, mv("h2", "e2")).await;
    until(&mut black, |s| plies(s) == 1).await;
    let close = format!("/api/admin/rooms/{id}/close");
    let (status, _, refused) = http_as(&server, "POST", &close, None, &bob).await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(refused["error"]["code"], "admin-only");
    let (status, _, _) = http_as(&server, "POST", &close, None, "").await;
    assert_eq!(status, 401);
    let (status, _, answer) = http_as(&server, "POST", &close, None, &boss).await;
    assert_eq!(status, 204, "{answer}");
    let closed = until(&mut red, |s| s["closed"] == true).await;
    assert_eq!(closed["status"], "over");
    assert_eq!(closed["result"], Value::Null, "no result");
    send(&mut black, mv("h9", "g7")).await;
    assert_eq!(next_error(&mut black).await, "game-over");
    send(&mut red, json!({"type": "offer", "kind": "rematch"})).await;
    assert_eq!(next_error(&mut red).await, "game-over");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_s_other_browser_is_never_shown_the_analysis_of_their_own_game() {
    let data = data_folder("own-analysis");
    let server = hosted(&data).await;
    let (ann, bob) = (account(&server, "Ann").await, account(&server, "Bob").await);
    let (status, _, room) = http_as(
        &server,
        "POST",
        "/api/rooms",
        Some(json!({"side": "red"})),
        &ann,
    )
    .await;
    assert_eq!(status, 201, "{room}");
    let id = room["id"].as_str().unwrap();
    let (mut red, _, _) = join_as(&server, id, room["token"].as_str(), "", &ann).await;
    let (_black, welcome, _) = join_as(&server, id, None, "", &bob).await;
    assert_eq!(welcome["role"], "black");
    // The players allow the spectators' analysis of this casual game.
    send(&mut red, json!({"type": "analysis", "on": true})).await;
    until(&mut red, |s| s["analysis"] == true).await;
    let path = format!("/api/rooms/{id}/analysis?lines=1&millis=200");
    // Ann's second browser, as a spectator: refused while her game goes on.
    let (status, _, refused) = http_as(&server, "GET", &path, None, &ann).await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(refused["error"]["code"], "analysis-off");
    // Anyone else watching is shown it.
    let (status, _) = server.get_text(&path).await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[path = "rooms/across_servers.rs"]
mod across_servers;
