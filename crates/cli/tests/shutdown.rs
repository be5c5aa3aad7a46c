//! `xiangqi play` under load, stopped: by Ctrl+C (SIGINT) or SIGTERM it exits 0 within its
//! bound, and killed outright (SIGKILL) it still keeps every change it answered. Each cycle
//! starts a server with SIGINT ignored, as a shell does for a job it starts in the background,
//! plays moves, asks the engine to reply and streams analyses on several games at once, stops
//! the server at a random moment, and compares what every client was told with what the
//! archive holds.
//!
//! `XIANGQI_SHUTDOWN_CYCLES=N` sets how many cycles run (4 unless given; 50 for a stress
//! run), `XIANGQI_SHUTDOWN_SIGNALS=INT,KILL,…` the signals they take in turn (INT, KILL,
//! TERM, INT unless given).

#[path = "support/server.rs"]
mod server;

use server::{json, moves_of, request, start_server};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::process::Child;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use xiangqi_rules::random::SplitMix64;
use xiangqi_store::SqliteStore;
use xiangqi_store::Store;

/// The documented bound of a shutdown, with a second for the process to start exiting.
const SHUTDOWN_BOUND: Duration = Duration::from_secs(10);
/// Clients that play moves, clients that ask for engine replies, clients that stream
/// analyses.
const MOVERS: usize = 4;
const ENGINE_CLIENTS: usize = 2;
const ANALYSTS: usize = 2;

/// What the clients were told: each game's moves (by its archive key) in the last answer
/// that changed it.
type Told = Arc<Mutex<HashMap<String, Vec<String>>>>;

/// Changes answered: moves played by the clients, and engine replies.
static MOVES_ANSWERED: AtomicUsize = AtomicUsize::new(0);
static REPLIES_ANSWERED: AtomicUsize = AtomicUsize::new(0);

/// A new game and its archive key.
fn new_game(port: u16) -> Option<(String, String)> {
    let (status, body) = request(port, "POST", "/api/games", Some("{}"))?;
    if status != 201 {
        return None;
    }
    let id = json(&body)["id"].as_str()?.to_string();
    let (status, body) = request(
        port,
        "POST",
        &format!("/api/archive/sessions/{id}"),
        Some("{}"),
    )?;
    if status != 200 {
        return None;
    }
    let key = json(&body)["key"].as_str()?.to_string();
    Some((id, key))
}

/// A random legal move of a game view, as a move request's body.
fn random_move(view: &serde_json::Value, rng: &mut SplitMix64) -> Option<String> {
    let legal = view["legal"].as_object()?;
    let moves: Vec<(String, String)> = legal
        .iter()
        .flat_map(|(from, tos)| {
            tos.as_array()
                .into_iter()
                .flatten()
                .filter_map(|to| to.as_str().map(|to| (from.clone(), to.to_string())))
        })
        .collect();
    if moves.is_empty() {
        return None;
    }
    let (from, to) = &moves[rng.below(moves.len())];
    Some(format!(r#"{{"from":"{from}","to":"{to}"}}"#))
}

/// Plays random moves (or, with `engine`, asks the engine to reply) on games of its own until
/// the server goes away; records every answered change in `told`.
fn play(port: u16, engine: bool, seed: u64, told: Told, running: Arc<AtomicBool>) {
    let mut rng = SplitMix64::new(seed);
    let mut game: Option<(String, String, serde_json::Value)> = None;
    while running.load(Ordering::Relaxed) {
        let (id, key, view) = match game.take() {
            Some(g) => g,
            None => match new_game(port) {
                Some((id, key)) => {
                    let view = serde_json::json!({ "legal": {}, "moves": [] });
                    match request(port, "GET", &format!("/api/games/{id}"), None) {
                        Some((200, body)) => (id, key, json(&body)),
                        _ => (id, key, view),
                    }
                }
                None => return,
            },
        };
        let answer = if engine {
            // Mostly quick replies, now and then a full-strength one of seconds.
            let level = [0, 1, 3, 10, 20][rng.below(5)];
            request(
                port,
                "POST",
                &format!("/api/games/{id}/engine"),
                Some(&format!(r#"{{"level":{level}}}"#)),
            )
        } else {
            let Some(body) = random_move(&view, &mut rng) else {
                continue;
            };
            request(port, "POST", &format!("/api/games/{id}/move"), Some(&body))
        };
        let Some((status, body)) = answer else {
            return;
        };
        if status == 200 {
            let answered = if engine {
                &REPLIES_ANSWERED
            } else {
                &MOVES_ANSWERED
            };
            answered.fetch_add(1, Ordering::Relaxed);
            let value = json(&body);
            let view = if engine { value["game"].clone() } else { value };
            let moves = moves_of(&view);
            let over = view["outcome"].is_object() || moves.len() > 120;
            told.lock().unwrap().insert(key.clone(), moves);
            if !over {
                game = Some((id, key, view));
            }
        } else if status >= 500 && status != 503 {
            panic!("the server failed a request: {status} {body}");
        } else {
            game = Some((id, key, view));
        }
    }
}

/// Streams analyses of a fresh game until the server goes away.
fn analyse(port: u16, running: Arc<AtomicBool>) {
    while running.load(Ordering::Relaxed) {
        let Some((id, _)) = new_game(port) else {
            return;
        };
        if request(
            port,
            "GET",
            &format!("/api/games/{id}/analysis?millis=3000"),
            None,
        )
        .is_none()
        {
            return;
        }
    }
}

fn send_signal(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill {signal} failed");
}

/// Waits for `child` to exit, at most `bound`: its exit code and how long it took, or `None`
/// (and the process killed) when it did not exit in time.
fn wait_exit(child: &mut Child, bound: Duration) -> Option<(Option<i32>, Duration)> {
    let start = Instant::now();
    while start.elapsed() < bound {
        if let Some(status) = child.try_wait().expect("wait for the server") {
            return Some((status.code(), start.elapsed()));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// One cycle: a loaded server stopped by `signal` after `after`; panics when it does not exit
/// as it should or loses an answered change. The number of games checked.
fn cycle(signal: &str, after: Duration, seed: u64) -> usize {
    let data = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-shutdown-{}-{seed}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let (mut child, port) = start_server(&data);
    let told: Told = Arc::default();
    let running = Arc::new(AtomicBool::new(true));
    let mut clients = Vec::new();
    for i in 0..MOVERS + ENGINE_CLIENTS {
        let (told, running) = (told.clone(), running.clone());
        let engine = i >= MOVERS;
        let seed = seed * 31 + i as u64;
        clients.push(std::thread::spawn(move || {
            play(port, engine, seed, told, running)
        }));
    }
    for _ in 0..ANALYSTS {
        let running = running.clone();
        clients.push(std::thread::spawn(move || analyse(port, running)));
    }
    std::thread::sleep(after);
    send_signal(&child, signal);
    let exit = wait_exit(&mut child, SHUTDOWN_BOUND);
    running.store(false, Ordering::Relaxed);
    for client in clients {
        client.join().expect("a client failed");
    }
    if signal != "-KILL" {
        let (code, took) = exit.unwrap_or_else(|| {
            panic!("{signal}: the server did not exit within {SHUTDOWN_BOUND:?}")
        });
        assert_eq!(
            code,
            Some(0),
            "{signal}: the server's exit code (after {took:?})"
        );
        eprintln!("{signal} after {after:?}: exited 0 in {took:?}");
    }
    let archive = SqliteStore::open(data.join("games.sqlite3")).expect("open the archive");
    let told = told.lock().unwrap();
    for (key, moves) in told.iter() {
        let id = archive
            .id_of_key(key)
            .expect("read the archive")
            .unwrap_or_else(|| {
                panic!(
                    "{signal}: game {key} was answered ({} moves) but not saved",
                    moves.len()
                )
            });
        let stored = archive
            .get("", id)
            .expect("read a game")
            .expect("the game's row");
        let record = stored.record().expect("the stored record");
        let kept: Vec<String> = record.mainline().map(|m| m.to_string()).collect();
        assert!(
            kept.starts_with(moves),
            "{signal}: game {key} was answered with {} moves but {} are kept:\n told {moves:?}\n kept {kept:?}",
            moves.len(),
            kept.len()
        );
    }
    eprintln!(
        "{signal}: {} games kept as answered (so far {} moves and {} engine replies answered)",
        told.len(),
        MOVES_ANSWERED.load(Ordering::Relaxed),
        REPLIES_ANSWERED.load(Ordering::Relaxed)
    );
    drop(archive);
    let _ = std::fs::remove_dir_all(&data);
    told.len()
}

#[test]
fn a_stopped_server_exits_in_time_and_keeps_every_answered_change() {
    let cycles: u64 = std::env::var("XIANGQI_SHUTDOWN_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let signals: Vec<String> = std::env::var("XIANGQI_SHUTDOWN_SIGNALS")
        .unwrap_or_else(|_| "INT,KILL,TERM,INT".into())
        .split(',')
        .map(|s| format!("-{}", s.trim()))
        .collect();
    let mut rng = SplitMix64::new(0x5eed_0000 ^ u64::from(std::process::id()));
    let mut games = 0;
    for n in 0..cycles {
        let signal = &signals[n as usize % signals.len()];
        let after = Duration::from_millis(300 + rng.below(1200) as u64);
        games += cycle(signal, after, n + 1);
    }
    assert!(games > 0, "the clients were answered");
}

#[test]
fn a_server_whose_output_was_closed_still_stops_in_time_on_each_signal() {
    for signal in ["-TERM", "-INT"] {
        let data = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "xiangqi-closed-output-{}{signal}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&data);
        let binary = env!("CARGO_BIN_EXE_xiangqi");
        let mut child = Command::new(binary)
            .args(["play", "--port", "0", "--searchers", "1", "--data"])
            .arg(&data)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start xiangqi play");
        let mut stdout = BufReader::new(child.stdout.take().expect("the server's output"));
        let mut first = String::new();
        stdout
            .read_line(&mut first)
            .expect("the server's first line");
        let port: u16 = first
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.trim().split(['/', ' ']).next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in the server's first line: {first:?}"));
        // The reader goes away: every later line meets a closed pipe.
        drop(stdout);
        let (status, _) = request(port, "GET", "/api/levels", None).expect("an answer");
        assert_eq!(status, 200);
        send_signal(&child, signal);
        let exited = wait_exit(&mut child, SHUTDOWN_BOUND);
        let mut errors = String::new();
        if let Some(mut stderr) = child.stderr.take() {
            let _ = stderr.read_to_string(&mut errors);
        }
        let _ = std::fs::remove_dir_all(&data);
        let (code, _) = exited.unwrap_or_else(|| panic!("no exit within the bound on {signal}"));
        assert_eq!(code, Some(0), "{signal}: {errors}");
        assert!(!errors.contains("panicked"), "{signal}: {errors}");
    }
}
