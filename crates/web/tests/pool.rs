//! The search pool through the API: requests beyond the engines wait, requests beyond the
//! queue get 503 with Retry-After, and a search whose page left or whose game changed gives
//! its engine back at once.

mod common;

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::Response;
use common::{app, id, new_game, play, respond, send, send_full};
use http_body_util::BodyExt;
use serde_json::json;
use std::time::{Duration, Instant};

/// Two new games' ids.
async fn two_games(app: &Router) -> (String, String) {
    let first = id(&new_game(app, json!({})).await);
    (first, id(&new_game(app, json!({})).await))
}

/// Opens a minute-long analysis stream of game `gid`; the engine is held until the response
/// is dropped or the game changes.
async fn long_analysis(app: &Router, gid: &str) -> Response {
    let path = format!("/api/games/{gid}/analysis?lines=1&millis=60000");
    let response = respond(app, "GET", &path, None).await;
    assert_eq!(response.status(), StatusCode::OK);
    response
}

/// Asks for a hint for game `gid` until one comes, for at most `limit`; how long it took.
async fn hint_within(app: &Router, gid: &str, limit: Duration) -> Duration {
    let start = Instant::now();
    loop {
        let (status, body) = send(app, "POST", &format!("/api/games/{gid}/hint"), None).await;
        if status == StatusCode::OK {
            return start.elapsed();
        }
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert!(
            start.elapsed() < limit,
            "no engine came free within {limit:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_request_beyond_the_queue_gets_503_with_retry_after() {
    let app = app(1, 0, 16);
    let (busy, other) = two_games(&app).await;
    let _stream = long_analysis(&app, &busy).await;
    let (status, headers, body) =
        send_full(&app, "POST", &format!("/api/games/{other}/hint"), None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["error"]["code"], "busy");
    let seconds: u64 = headers[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(seconds >= 1);
    assert_eq!(body["error"]["params"]["retry_after"], seconds);
}

#[tokio::test]
async fn a_closed_analysis_stream_gives_its_engine_back() {
    let app = app(1, 0, 16);
    let (watched, other) = two_games(&app).await;
    let stream = long_analysis(&app, &watched).await;
    drop(stream);
    // The analysis asked for a minute; the hint gets the engine long before.
    hint_within(&app, &other, Duration::from_secs(10)).await;
}

#[tokio::test]
async fn a_move_is_answered_while_the_engine_is_busy_and_stops_the_games_analysis() {
    let app = app(1, 0, 16);
    let gid = id(&new_game(&app, json!({})).await);
    let stream = long_analysis(&app, &gid).await;
    let game = play(&app, &gid, "h2", "e2").await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 1);
    // The analysis of the old position ends (at once, or without starting at all).
    let body = tokio::time::timeout(Duration::from_secs(10), stream.into_body().collect())
        .await
        .expect("the analysis of the old position ends when the game changes")
        .unwrap()
        .to_bytes();
    let text = String::from_utf8_lossy(&body);
    assert!(text.is_empty() || text.contains("\"done\":true"), "{text}");
    hint_within(&app, &gid, Duration::from_secs(10)).await;
}

#[tokio::test]
async fn requests_beyond_the_engines_wait_in_the_queue_and_are_answered() {
    let app = app(1, 4, 16);
    let mut games = Vec::new();
    for _ in 0..3 {
        games.push(id(&new_game(&app, json!({})).await));
    }
    let requests: Vec<_> = games
        .iter()
        .map(|gid| {
            let app = app.clone();
            let path = format!("/api/games/{gid}/engine");
            tokio::spawn(async move { send(&app, "POST", &path, Some(json!({"level": 0}))).await })
        })
        .collect();
    for request in requests {
        let (status, reply) = request.await.unwrap();
        assert_eq!(status, StatusCode::OK, "{reply}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_whose_page_left_stops_its_search() {
    use std::io::Write;
    let app = app(1, 4, 16);
    let (left, other) = two_games(&app).await;
    let listener = xiangqi_web::bind("127.0.0.1", 0).await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(axum::serve(listener, app.clone()).into_future());

    // A full-strength reply thinks for seconds; its page closes the connection at once.
    let body = json!({"level": 20}).to_string();
    let request = format!(
        "POST /api/games/{left}/engine HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    drop(stream);

    // The hint gets the only engine in about its own time, not after the reply's seconds.
    let took = hint_within(&app, &other, Duration::from_secs(10)).await;
    assert!(
        took < Duration::from_millis(2500),
        "the hint waited {took:?}"
    );
}
