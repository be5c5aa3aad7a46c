//! Helpers shared by the HTTP tests: a sized app and requests through it.

#![allow(dead_code)]

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use axum::response::Response;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use tower::ServiceExt;
use xiangqi_web::{AllowedHosts, PoolOptions, ServerOptions, router_with};

/// The host the test apps serve.
pub const HOST: &str = "127.0.0.1:8080";

/// An app with `searchers` engines, a queue of `queue` and room for `max_games` games.
pub fn app(searchers: usize, queue: usize, max_games: usize) -> Router {
    let options = ServerOptions {
        pool: PoolOptions {
            searchers,
            queue,
            hash_mb: 1,
        },
        max_games,
        ..ServerOptions::default()
    };
    router_with(AllowedHosts::for_address("127.0.0.1", 8080), &options)
}

/// A fresh data folder for test `test` of the suite `suite`.
pub fn data_folder(suite: &str, test: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-web-{suite}-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The app keeping its games in `data`, what a server started with `--data` serves; none:
/// no archive.
pub fn app_with_data(data: Option<&Path>) -> Router {
    let options = ServerOptions {
        pool: PoolOptions {
            searchers: 1,
            queue: 8,
            hash_mb: 1,
        },
        data: data.map(Path::to_path_buf),
        ..ServerOptions::default()
    };
    router_with(AllowedHosts::for_address("127.0.0.1", 8080), &options)
}

/// The response to `method` `path` with `body` sent to `host`, its body not yet read.
pub async fn respond_raw(
    app: &Router,
    method: &str,
    path: &str,
    host: &str,
    body: Option<String>,
) -> Response {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, host);
    if body.is_some() {
        request = request.header(header::CONTENT_TYPE, "application/json");
    }
    let request = request
        .body(body.map_or_else(Body::empty, Body::from))
        .unwrap();
    app.clone().oneshot(request).await.unwrap()
}

/// The response to `method` `path` with `body`, its body not yet read.
pub async fn respond(app: &Router, method: &str, path: &str, body: Option<Value>) -> Response {
    respond_raw(app, method, path, HOST, body.map(|b| b.to_string())).await
}

/// The status, headers and JSON body of `response`.
pub async fn read(response: Response) -> (StatusCode, HeaderMap, Value) {
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, headers, value)
}

/// The status and JSON body answered to `method` `path` with `body` sent to `host`.
pub async fn send_raw(
    app: &Router,
    method: &str,
    path: &str,
    host: &str,
    body: Option<String>,
) -> (StatusCode, Value) {
    let (status, _, value) = read(respond_raw(app, method, path, host, body).await).await;
    (status, value)
}

/// The status, headers and JSON body answered to `method` `path` with `body`.
pub async fn send_full(
    app: &Router,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, HeaderMap, Value) {
    read(respond(app, method, path, body).await).await
}

/// The status and JSON body answered to `method` `path` with `body`.
pub async fn send(
    app: &Router,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (status, _, value) = send_full(app, method, path, body).await;
    (status, value)
}

/// A new game from `body`; fails the test when it is refused.
pub async fn new_game(app: &Router, body: Value) -> Value {
    let (status, game) = send(app, "POST", "/api/games", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    game
}

/// Plays `from`→`to` in game `id`; fails the test when it is refused.
pub async fn play(app: &Router, id: &str, from: &str, to: &str) -> Value {
    let path = format!("/api/games/{id}/move");
    let (status, game) = send(app, "POST", &path, Some(json!({"from": from, "to": to}))).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    game
}

/// The id of the game view `game`.
pub fn id(game: &Value) -> String {
    game["id"].as_str().unwrap().to_string()
}

/// The events of the server-sent stream at `path` (answered 200 as `text/event-stream`), as
/// (event name, data) pairs; unnamed events have the name of the last named one, or "".
pub async fn events(app: &Router, path: &str) -> Vec<(String, Value)> {
    let response = respond(app, "GET", path, None).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let mut out = Vec::new();
    let mut name = String::new();
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("event: ") {
            name = n.to_string();
        } else if let Some(d) = line.strip_prefix("data: ") {
            out.push((name.clone(), serde_json::from_str(d).unwrap()));
        }
    }
    out
}
