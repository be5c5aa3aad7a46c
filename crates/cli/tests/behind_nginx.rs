//! `xiangqi serve` behind Debian's real nginx, configured with the proxy settings a club
//! copies (`deploy/xiangqi-proxy.conf`): the page comes through with its security headers
//! on the public name, another name is refused, the rooms' rate counts each client by the
//! address nginx forwards, and a room's WebSocket is upgraded through the proxy and plays.
//!
//! nginx must be installed (`scripts/test` installs it); the test fails, saying so, when it
//! is not.

#[path = "support/proxy.rs"]
mod proxy;
#[path = "support/server.rs"]
mod server;

use proxy::{Running, free_port, start_nginx, wait_listening};
use serde_json::{Value, json};
use server::{json, request_with};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::Message;
use tungstenite::client::IntoClientRequest;

/// `xiangqi serve` on `port`, public at `http://club.test:{public_port}`, trusting loopback.
fn start_serve(data: &Path, port: u16, public_port: u16) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .args(["--public-url", &format!("http://club.test:{public_port}")])
        .args([
            "--trusted-proxy",
            "127.0.0.1",
            "--rooms-burst",
            "2",
            "--searchers",
            "1",
        ])
        .arg("--data")
        .arg(data)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start xiangqi serve");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let said = lines.next().and_then(Result::ok).unwrap_or_default();
    assert!(
        said.contains(&format!("hosted at http://club.test:{public_port}/"))
            && said.contains("trusting the proxies 127.0.0.1"),
        "{said}"
    );
    std::thread::spawn(move || for _ in lines {});
    wait_listening(port, "xiangqi serve");
    Running(child)
}

#[test]
fn the_app_is_served_through_nginx_on_its_public_name() {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-nginx-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("nginx")).unwrap();
    let (server_port, public_port) = (free_port(), free_port());
    let _server = start_serve(&base.join("data"), server_port, public_port);
    let _nginx = start_nginx(&base.join("nginx"), public_port, &[server_port]);
    let public = format!("club.test:{public_port}");

    // The page, on the public name, with its security headers.
    let (status, head, page) =
        request_with(public_port, "GET", "/", None, &[("Host", &public)]).expect("an answer");
    assert_eq!(status, 200, "{head}");
    let head = head.to_ascii_lowercase();
    assert!(
        head.contains("content-security-policy: default-src 'self'"),
        "{head}"
    );
    assert!(head.contains("x-content-type-options: nosniff"), "{head}");
    assert!(page.contains("<script src=\"/early.js\">"));
    // Another name is refused (DNS rebinding), through the proxy as well.
    let (status, _, refused) =
        request_with(public_port, "GET", "/", None, &[("Host", "evil.example")]).unwrap();
    assert_eq!(status, 421, "{refused}");

    // The rooms' rate counts each client by the address nginx forwards: two rooms each.
    let make_room = |client: &str| {
        let body = json!({"side": "red", "name": "Ann"}).to_string();
        let headers = [("Host", public.as_str()), ("X-Forwarded-For", client)];
        let (status, _, answer) =
            request_with(public_port, "POST", "/api/rooms", Some(&body), &headers).unwrap();
        (status, json(&answer))
    };
    let (status, room) = make_room("203.0.113.1");
    assert_eq!(status, 201, "{room}");
    assert_eq!(make_room("203.0.113.1").0, 201);
    let (status, refused) = make_room("203.0.113.1");
    assert_eq!(status, 429, "{refused}");
    assert_eq!(refused["error"]["code"], "too-many-rooms");
    assert_eq!(
        make_room("203.0.113.2").0,
        201,
        "another client has its own rate"
    );

    // A room's socket is upgraded through the proxy: Red joins and plays.
    let id = room["id"].as_str().unwrap();
    let mut socket_request = format!("ws://127.0.0.1:{public_port}/api/rooms/{id}/socket")
        .into_client_request()
        .unwrap();
    let headers = socket_request.headers_mut();
    headers.insert("Host", public.parse().unwrap());
    headers.insert("Origin", format!("http://{public}").parse().unwrap());
    let (mut red, _) = tungstenite::connect(socket_request).expect("a socket through nginx");
    let join = json!({"type": "join", "token": room["token"], "name": "Ann"});
    red.send(Message::text(join.to_string())).unwrap();
    let read = |socket: &mut tungstenite::WebSocket<_>| -> Value {
        loop {
            if let Message::Text(text) = socket.read().expect("a message") {
                return serde_json::from_str(&text).unwrap();
            }
        }
    };
    let welcome = read(&mut red);
    assert_eq!(welcome["role"], "red", "{welcome}");
    let state = read(&mut red);
    assert_eq!(state["type"], "state", "{state}");
    assert_eq!(state["room"]["status"], "waiting");

    // The host adds an administrator on the command line while the server runs; the account
    // signs in through the proxy and the server knows it as an administrator.
    let users = |args: &[&str], stdin: &str| {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
            .arg("users")
            .arg("--data")
            .arg(base.join("data"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A command refused before it reads (a name not allowed) may be gone already.
        if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
        }
        let out = child.wait_with_output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (ok, said) = users(&["add", "Boss", "--admin"], "boss password\n");
    assert!(ok, "{said}");
    assert!(said.contains("added Boss (admin)"), "{said}");
    let (ok, said) = users(&["add", "Guest1"], "whatever123\n");
    assert!(!ok && said.contains("kept for guests"), "{said}");
    let (ok, said) = users(&["add", "Cy"], "");
    assert!(!ok && said.contains("standard input"), "{said}");
    let (ok, said) = users(&["disable", "Nobody"], "");
    assert!(!ok && said.contains("no account named Nobody"), "{said}");
    let (ok, said) = users(&["invite", "2"], "");
    assert!(ok, "{said}");
    assert_eq!(said.lines().count(), 2, "{said}");
    let body = json!({"name": "boss", "password": "boss password"}).to_string();
    let (status, head, answer) = request_with(
        public_port,
        "POST",
        "/api/account/sign-in",
        Some(&body),
        &[("Host", &public)],
    )
    .unwrap();
    assert_eq!(status, 200, "{answer}");
    let cookie = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or(l.strip_prefix("Set-Cookie: "))
        })
        .expect("a session cookie")
        .to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let session = cookie.split(';').next().unwrap().to_string();
    // Who the session is, through the proxy.
    let me = || {
        let headers = [("Host", public.as_str()), ("Cookie", session.as_str())];
        let (status, _, me) = request_with(public_port, "GET", "/api/me", None, &headers).unwrap();
        assert_eq!(status, 200, "{me}");
        json(&me)
    };
    assert_eq!(me()["account"]["role"], "admin");
    let (ok, said) = users(&["list"], "");
    assert!(ok && said.contains("Boss\tadmin"), "{said}");
    // Removed on the command line, the account's session opens nothing any more.
    let (ok, said) = users(&["remove", "Boss"], "");
    assert!(ok, "{said}");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let now = me();
        if now["account"].is_null() {
            break;
        }
        assert!(Instant::now() < deadline, "the session still opens: {now}");
        std::thread::sleep(Duration::from_millis(500));
    }
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_bad_public_url_is_refused_saying_what_is_wrong() {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--public-url",
            "club.example",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("must start with http:// or https://"),
        "{said}"
    );
}
