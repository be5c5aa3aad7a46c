//! Load on a running server's rooms: `GAMES` rooms, each with its two players and
//! `SPECTATORS` spectators on their own WebSockets; each player moves (a random legal move)
//! 1–3 s after the opponent's move reaches it. Prints, as one JSON line, the moves played
//! and the relay latency (from the move sent to the state with it received) at the
//! opponent's and at the spectators' sockets: p50, p99 and the largest, in milliseconds.
//! With `CROWD`, that many more spectators then come to the first room, one after another,
//! before play starts, and the messages every socket of that room receives meanwhile (and in
//! the two seconds after) are counted: the messages per arrival.
//!
//!     cargo run --release -p xiangqi-web --example bench_rooms -- PORT GAMES SECONDS [SPECTATORS] [CROWD]
//!
//! `scripts/bench-rooms` starts the server and runs it.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// When each ply of a game was sent.
type Sent = Arc<Mutex<Vec<Instant>>>;

#[derive(Default)]
struct Samples {
    opponent: Vec<f64>,
    spectator: Vec<f64>,
    moves: u64,
    errors: u64,
}

async fn create(port: u16) -> Value {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let body = r#"{"side":"red","minutes":30,"increment":0,"name":"bench"}"#;
    let request = format!(
        "POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer);
    let start = text.find("{\"").unwrap();
    let end = text.rfind('}').unwrap();
    serde_json::from_str(&text[start..=end]).unwrap()
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

async fn join(port: u16, id: &str, token: Option<&str>) -> Ws {
    let url = format!("ws://127.0.0.1:{port}/api/rooms/{id}/socket");
    let mut request = url.into_client_request().unwrap();
    request.headers_mut().insert(
        "Origin",
        format!("http://127.0.0.1:{port}").parse().unwrap(),
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let join = json!({"type": "join", "token": token});
    ws.send(Message::text(join.to_string())).await.unwrap();
    // Seated (or watching) before the next socket joins: with several servers, two sockets
    // joining at once without a token race for the free seat.
    while let Some(Ok(message)) = ws.next().await {
        if let Message::Text(text) = message
            && text.contains("\"welcome\"")
        {
            break;
        }
    }
    ws
}

fn rand_u64(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// One socket: records the relay latency of each ply it sees; a player also moves, 1–3 s
/// after the opponent's move reached it, until `until`.
async fn client(
    mut ws: Ws,
    side: Option<&'static str>,
    sent: Sent,
    samples: Arc<Mutex<Samples>>,
    until: Instant,
    seed: u64,
) {
    let mut seen = 0usize;
    let mut rng = seed | 1;
    let mut pending: Option<(Instant, String, String)> = None;
    loop {
        let wait = pending
            .as_ref()
            .map_or(until, |(at, _, _)| (*at).min(until));
        let message = tokio::select! {
            m = ws.next() => m,
            () = tokio::time::sleep_until(wait.into()) => {
                if Instant::now() >= until {
                    return;
                }
                if let Some((_, from, to)) = pending.take() {
                    let plies = seen + 1;
                    {
                        let mut s = sent.lock().unwrap();
                        if s.len() < plies {
                            s.resize(plies, Instant::now());
                        }
                        s[plies - 1] = Instant::now();
                    }
                    let m = json!({"type": "move", "from": from, "to": to});
                    if ws.send(Message::text(m.to_string())).await.is_err() {
                        return;
                    }
                    samples.lock().unwrap().moves += 1;
                }
                continue;
            }
        };
        let Some(Ok(Message::Text(text))) = message else {
            match message {
                Some(Ok(_)) => continue,
                _ => return,
            }
        };
        let now = Instant::now();
        let value: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(_) => continue,
        };
        if value["type"] == "error" {
            samples.lock().unwrap().errors += 1;
            continue;
        }
        if value["type"] != "state" {
            continue;
        }
        let room = &value["room"];
        let plies = room["game"]["moves"].as_array().map_or(0, Vec::len);
        if plies > seen {
            let turn = room["game"]["turn"].as_str().unwrap_or("");
            // The mover of the ply just played is the side not to move now.
            let mine = side.is_some_and(|s| s != turn);
            if !mine && let Some(at) = sent.lock().unwrap().get(plies - 1).copied() {
                let ms = now.duration_since(at).as_secs_f64() * 1000.0;
                let mut s = samples.lock().unwrap();
                if side.is_some() {
                    s.opponent.push(ms);
                } else {
                    s.spectator.push(ms);
                }
            }
            seen = plies;
        }
        let my_turn = side == room["game"]["turn"].as_str() && room["status"] == "playing";
        if my_turn && pending.is_none() && plies == seen {
            let legal = room["game"]["legal"].as_object();
            let moves: Vec<(String, String)> = legal
                .into_iter()
                .flatten()
                .flat_map(|(from, tos)| {
                    tos.as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|to| Some((from.clone(), to.as_str()?.to_string())))
                        .collect::<Vec<_>>()
                })
                .collect();
            if !moves.is_empty() {
                let (from, to) = moves[(rand_u64(&mut rng) % moves.len() as u64) as usize].clone();
                let delay = 1000 + rand_u64(&mut rng) % 2000;
                pending = Some((now + Duration::from_millis(delay), from, to));
            }
        }
    }
}

/// Reads `ws` until `stop` fires, counting its text messages; the socket and the count.
async fn count_messages(mut ws: Ws, mut stop: tokio::sync::watch::Receiver<bool>) -> (Ws, u64) {
    let mut n = 0;
    loop {
        tokio::select! {
            _ = stop.changed() => return (ws, n),
            m = ws.next() => match m {
                Some(Ok(Message::Text(_))) => n += 1,
                Some(Ok(_)) => {}
                _ => return (ws, n),
            },
        }
    }
}

/// `crowd` spectators come to room `id` one after another: the room's sockets and the
/// newcomers count what they receive until two seconds after the last came. The sockets
/// back (the newcomers among the watchers), and the arrivals, the messages and how long the
/// arrivals took.
async fn crowd_arrives(
    port: u16,
    id: &str,
    red: Ws,
    black: Ws,
    watchers: Vec<Ws>,
    crowd: usize,
) -> (Ws, Ws, Vec<Ws>, (usize, u64, f64)) {
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let count = |ws: Ws| tokio::spawn(count_messages(ws, stopped.clone()));
    let red = count(red);
    let black = count(black);
    let mut counting: Vec<_> = watchers.into_iter().map(count).collect();
    let began = Instant::now();
    for _ in 0..crowd {
        counting.push(count(join(port, id, None).await));
    }
    let took = began.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let _ = stop.send(true);
    let (red, a) = red.await.unwrap();
    let (black, b) = black.await.unwrap();
    let mut total = a + b;
    let mut watchers = Vec::new();
    for task in counting {
        let (ws, n) = task.await.unwrap();
        total += n;
        watchers.push(ws);
    }
    (red, black, watchers, (crowd, total, took))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: bench_rooms PORT GAMES SECONDS [SPECTATORS] [CROWD]";
    let number = |i: usize, default: Option<u64>| -> u64 {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .or(default)
            .unwrap_or_else(|| {
                eprintln!("{usage}");
                std::process::exit(2)
            })
    };
    let port = number(1, None) as u16;
    let games = number(2, None) as usize;
    let seconds = number(3, None);
    let spectators = number(4, Some(2)) as usize;
    let crowd = number(5, Some(0)) as usize;
    let samples = Arc::new(Mutex::new(Samples::default()));
    let mut rooms = Vec::new();
    let mut first_id = None;
    let setup = Instant::now();
    for _ in 0..games {
        let room = create(port).await;
        let id = room["id"].as_str().unwrap().to_string();
        first_id.get_or_insert_with(|| id.clone());
        let token = room["token"].as_str().unwrap().to_string();
        let red = join(port, &id, Some(&token)).await;
        let black = join(port, &id, None).await;
        let mut watchers = Vec::new();
        for _ in 0..spectators {
            watchers.push(join(port, &id, None).await);
        }
        rooms.push((red, black, watchers));
    }
    eprintln!(
        "{games} rooms, {} sockets, set up in {:.1} s",
        games * (2 + spectators),
        setup.elapsed().as_secs_f64()
    );
    let arrivals = if crowd > 0 && !rooms.is_empty() {
        let id = first_id.clone().unwrap_or_default();
        let (red, black, watchers) = rooms.remove(0);
        let (red, black, watchers, counted) =
            crowd_arrives(port, &id, red, black, watchers, crowd).await;
        rooms.insert(0, (red, black, watchers));
        Some(counted)
    } else {
        None
    };
    let until = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for (n, (red, black, watchers)) in rooms.into_iter().enumerate() {
        let sent: Sent = Arc::new(Mutex::new(Vec::new()));
        let seed = 0x9e37_79b9_7f4a_7c15 ^ (n as u64 + 1);
        tasks.push(tokio::spawn(client(
            red,
            Some("red"),
            sent.clone(),
            samples.clone(),
            until,
            seed,
        )));
        tasks.push(tokio::spawn(client(
            black,
            Some("black"),
            sent.clone(),
            samples.clone(),
            until,
            seed * 3,
        )));
        for w in watchers {
            tasks.push(tokio::spawn(client(
                w,
                None,
                sent.clone(),
                samples.clone(),
                until,
                0,
            )));
        }
    }
    for t in tasks {
        let _ = t.await;
    }
    let mut s = samples.lock().unwrap();
    s.opponent.sort_by(f64::total_cmp);
    s.spectator.sort_by(f64::total_cmp);
    let stats = |v: &[f64]| {
        json!({
            "samples": v.len(),
            "p50_ms": (percentile(v, 0.5) * 10.0).round() / 10.0,
            "p99_ms": (percentile(v, 0.99) * 10.0).round() / 10.0,
            "max_ms": (v.last().copied().unwrap_or(0.0) * 10.0).round() / 10.0,
        })
    };
    println!(
        "{}",
        json!({
            "games": games,
            "sockets": games * (2 + spectators),
            "seconds": seconds,
            "moves": s.moves,
            "errors": s.errors,
            "opponent": stats(&s.opponent),
            "spectator": stats(&s.spectator),
            "crowd": arrivals.map(|(n, messages, seconds)| json!({
                "arrivals": n,
                "messages": messages,
                "messages_per_arrival": (messages as f64 / n as f64 * 100.0).round() / 100.0,
                "arrival_seconds": (seconds * 10.0).round() / 10.0,
            })),
        })
    );
}
