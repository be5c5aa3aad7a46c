//! Two `xiangqi serve` processes on one PostgreSQL store (a real server of the test's own,
//! Debian's `postgresql` package, which `scripts/test` installs): an account the host adds
//! with `xiangqi users --database` signs in on one server and is signed in on the other; a
//! game saved on one is listed by the other; a sign-out on one ends the session on both; the
//! limit on making rooms counts a client's rooms on both servers together; a server told to keep everything in a database it cannot reach does not start, saying why.

#[path = "support/server.rs"]
mod server;

use server::{json, request_with};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use xiangqi_store::temp_postgres::TempPostgres;

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Kills a process when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `xiangqi serve` on `port` with its store in `database`.
fn start_serve(database: &str, port: u16) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .args(["--public-url", &format!("http://127.0.0.1:{port}")])
        .args([
            "--searchers",
            "1",
            "--rooms-burst",
            "2",
            "--database",
            database,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start xiangqi serve");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let said: Vec<String> = lines.by_ref().take(2).map_while(Result::ok).collect();
    assert!(
        said.iter()
            .any(|l| l.contains("kept in the PostgreSQL database postgres://postgres@")),
        "{said:?}"
    );
    std::thread::spawn(move || for _ in lines {});
    let began = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "no server on {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Running(child)
}

/// A request to the server on `port`, with the session `cookie` if any: status and JSON.
fn ask(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&str>,
    cookie: Option<&str>,
) -> (u16, String, serde_json::Value) {
    let host = format!("127.0.0.1:{port}");
    let mut headers = vec![("Host", host.as_str())];
    if let Some(cookie) = cookie {
        headers.push(("Cookie", cookie));
    }
    let (status, head, answer) = request_with(port, method, path, body, &headers)
        .unwrap_or_else(|| panic!("no whole answer to {method} {path}"));
    let value = if answer.is_empty() {
        serde_json::Value::Null
    } else {
        json(&answer)
    };
    (status, head, value)
}

#[test]
fn two_servers_on_one_postgres_store_share_accounts_sessions_and_games() {
    let postgres =
        TempPostgres::start().unwrap_or_else(|e| panic!("the test needs a PostgreSQL server: {e}"));
    let database = postgres.new_database();

    // The host adds an account on the command line, into the database.
    let mut users = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(["users", "--database", &database, "add", "Ann"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    users
        .stdin
        .take()
        .unwrap()
        .write_all(b"ann's password\n")
        .unwrap();
    let out = users.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let (a, b) = (free_port(), free_port());
    let _server_a = start_serve(&database, a);
    let _server_b = start_serve(&database, b);

    // Signed in on A …
    let body = r#"{"name": "ann", "password": "ann's password"}"#;
    let (status, head, answer) = ask(a, "POST", "/api/account/sign-in", Some(body), None);
    assert_eq!(status, 200, "{answer}");
    let session = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or(l.strip_prefix("Set-Cookie: "))
        })
        .expect("a session cookie")
        .split(';')
        .next()
        .unwrap()
        .to_string();
    // … is signed in on B.
    let (status, _, me) = ask(b, "GET", "/api/me", None, Some(&session));
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["account"]["name"], "Ann", "{me}");

    // A game played and kept on A is in Ann's games on B.
    let (status, _, game) = ask(a, "POST", "/api/games", Some("{}"), Some(&session));
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    let (status, _, kept) = ask(
        a,
        "POST",
        &format!("/api/archive/sessions/{id}"),
        Some("{}"),
        Some(&session),
    );
    assert_eq!(status, 200, "{kept}");
    let (status, _, moved) = ask(
        a,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(r#"{"from":"h2","to":"e2"}"#),
        Some(&session),
    );
    assert_eq!(status, 200, "{moved}");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, _, list) = ask(b, "GET", "/api/archive/games", None, Some(&session));
        assert_eq!(status, 200, "{list}");
        if list["total"] == 1 && list["games"][0]["moves"] == 1 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "B does not list A's game: {list}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    // Someone not signed in is refused it.
    let (status, _, refused) = ask(b, "GET", "/api/archive/games", None, None);
    assert_eq!(status, 401, "{refused}");
    assert_eq!(refused["error"]["code"], "signed-out");

    // A client makes rooms two at once (then one every 30 s), on both servers together.
    let room = r#"{"side": "red", "name": "Ann"}"#;
    assert_eq!(ask(a, "POST", "/api/rooms", Some(room), None).0, 201);
    assert_eq!(ask(b, "POST", "/api/rooms", Some(room), None).0, 201);
    let (status, _, refused) = ask(a, "POST", "/api/rooms", Some(room), None);
    assert_eq!(status, 429, "{refused}");
    assert_eq!(refused["error"]["code"], "too-many-rooms");
    let (status, _, refused) = ask(b, "POST", "/api/rooms", Some(room), None);
    assert_eq!(
        status, 429,
        "the other server counts the same rooms: {refused}"
    );

    // Signed out on B, the session opens nothing on A either.
    let (status, _, out) = ask(
        b,
        "POST",
        "/api/account/sign-out",
        Some("{}"),
        Some(&session),
    );
    assert!(status == 200 || status == 204, "{status} {out}");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, _, me) = ask(a, "GET", "/api/me", None, Some(&session));
        if me["account"].is_null() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the session still opens on A: {me}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

#[test]
fn a_server_whose_database_cannot_be_reached_does_not_start() {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(["--public-url", "http://127.0.0.1"])
        .args(["--database", "postgres://someone:secret@127.0.0.1:1/club"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("the server needs its store"), "{said}");
    assert!(
        said.contains("postgres://someone@127.0.0.1:1/club"),
        "{said}"
    );
    assert!(!said.contains("secret"), "{said}");
}
