//! The game review over HTTP: the event stream of a short game with a thrown-away chariot
//! reports its progress and ends with a review that calls that move a blunder and says why.

mod common;

use axum::Router;
use axum::http::StatusCode;
use common::{events, id, new_game, respond, send};
use serde_json::json;
use std::time::{Duration, Instant};
use xiangqi_web::{AllowedHosts, router};

fn app() -> Router {
    router(AllowedHosts::for_address("127.0.0.1", 8080))
}

#[tokio::test]
async fn a_hung_chariot_is_the_blunder_of_the_review() {
    let app = app();
    // 1. H2+3 H8+7 2. R1+1 H2+3 3. R1=2?? C8+6: the cannon takes the chariot over Red's
    // own cannon, and nothing takes the cannon back.
    let game = new_game(
        &app,
        json!({"moves": ["h0g2", "h9g7", "i0i1", "b9c7", "i1h1", "h7h1"]}),
    )
    .await;
    let path = format!("/api/games/{}/review?millis=200", id(&game));
    let events = events(&app, &path).await;
    let (last, review) = events.last().unwrap();
    assert_eq!(last, "review", "{events:?}");
    let progress: Vec<(u64, u64)> = events
        .iter()
        .filter(|(n, _)| n == "progress")
        .map(|(_, p)| (p["done"].as_u64().unwrap(), p["total"].as_u64().unwrap()))
        .collect();
    assert_eq!(progress.first(), Some(&(0, 6)));
    assert_eq!(progress.last(), Some(&(6, 6)));

    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    let blunders: Vec<u64> = moves
        .iter()
        .filter(|m| m["class"] == "blunder")
        .map(|m| m["ply"].as_u64().unwrap())
        .collect();
    assert_eq!(blunders, [5], "{review}");
    let blunder = &moves[4];
    assert_eq!(blunder["side"], "red");
    assert!(blunder["loss"].as_f64().unwrap() >= 0.2);
    // After the blunder Black is a chariot up.
    assert!(
        blunder["score_red"]["cp"].as_i64().unwrap() < -400,
        "{blunder}"
    );
    let best = &blunder["best"];
    assert_ne!(best["iccs"], "i1h1");
    assert_eq!(blunder["line"]["iccs"][0], best["iccs"]);
    assert!(!blunder["line"]["wxf"].as_array().unwrap().is_empty());
    let why = &blunder["why"];
    assert_eq!(why["reply"]["iccs"], "h7h1");
    assert_eq!(why["side"], "black");
    assert_eq!(why["kind"], "material");
    assert_eq!(why["piece"], "R");
    assert_eq!(why["square"], "h1");
    assert!(why["text"].as_str().unwrap().contains("chariot"), "{why}");
    // The capture itself is Black's best move.
    assert_eq!(moves[5]["class"], "best");
    assert!(moves[5]["why"].is_null());

    assert_eq!(review["red"]["moves"], 3);
    assert_eq!(review["red"]["counts"]["blunder"], 1);
    assert_eq!(review["black"]["counts"]["blunder"], 0);
    let red = review["red"]["accuracy"].as_f64().unwrap();
    let black = review["black"]["accuracy"].as_f64().unwrap();
    assert!(red < black, "red {red}, black {black}");
}

#[tokio::test]
async fn a_game_without_moves_reviews_to_nothing() {
    let app = app();
    let game = new_game(&app, json!({})).await;
    let events = events(&app, &format!("/api/games/{}/review", id(&game))).await;
    let (last, review) = events.last().unwrap();
    assert_eq!(last, "review");
    assert_eq!(review["moves"], json!([]));
    assert_eq!(review["red"]["accuracy"], 100.0);
}

#[tokio::test]
async fn bad_review_requests_are_refused() {
    let app = app();
    let (status, body) = send(&app, "GET", "/api/games/none/review", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let game = new_game(&app, json!({"moves": ["h2e2"]})).await;
    let path = format!("/api/games/{}/review?depth=99", id(&game));
    let (status, body) = send(&app, "GET", &path, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"]["message"].as_str().unwrap().contains("depth"),
        "{body}"
    );
    let path = format!("/api/games/{}/review?speed=fast", id(&game));
    let (status, _) = send(&app, "GET", &path, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_closed_review_gives_its_engine_back() {
    let app = common::app(1, 0, 16);
    let moves = json!(["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]);
    let reviewed = id(&new_game(&app, json!({ "moves": moves })).await);
    let other = id(&new_game(&app, json!({})).await);
    // Five seconds a position: the whole review would hold the engine for half a minute.
    let path = format!("/api/games/{reviewed}/review?millis=5000");
    let stream = respond(&app, "GET", &path, None).await;
    assert_eq!(stream.status(), StatusCode::OK);
    let hint = format!("/api/games/{other}/hint");
    let (status, _) = send(&app, "POST", &hint, None).await;
    assert_eq!(
        status,
        StatusCode::SERVICE_UNAVAILABLE,
        "the review holds the engine"
    );
    drop(stream);
    let start = Instant::now();
    loop {
        let (status, body) = send(&app, "POST", &hint, None).await;
        if status == StatusCode::OK {
            break;
        }
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the engine did not come back"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
