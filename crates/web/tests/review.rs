//! The game review over HTTP: the event stream of a short game with a thrown-away chariot
//! reports its progress and ends with a review that calls that move a blunder and says why,
//! as what would follow; the archive's PGN export of a reviewed game carries the review's
//! glyphs, and a record read back from it has the same.

mod common;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{events, id, new_game, play, respond, send};
use http_body_util::BodyExt;
use serde_json::json;
use std::time::{Duration, Instant};
use tower::ServiceExt;
use xiangqi_records::pgn;
use xiangqi_teaching::review::Class;
use xiangqi_web::{AllowedHosts, router};

fn app() -> Router {
    router(AllowedHosts::for_address("127.0.0.1", 8080))
}

/// 1. H2+3 H8+7 2. R1+1 H2+3 3. R1=2?? C8+6.
const GAME: [&str; 6] = ["h0g2", "h9g7", "i0i1", "b9c7", "i1h1", "h7h1"];

#[tokio::test]
async fn a_hung_chariot_is_the_blunder_of_the_review() {
    let app = app();
    // 1. H2+3 H8+7 2. R1+1 H2+3 3. R1=2?? C8+6: the cannon takes the chariot over Red's
    // own cannon, and nothing takes the cannon back.
    let game = new_game(&app, json!({ "moves": GAME })).await;
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
    // The reply is the engine's, not necessarily the game's: the sentence says what would
    // follow.
    assert_eq!(
        why["text"], "if Black answers 炮8进6, the chariot on h1 falls",
        "{why}"
    );
    let played: Vec<&str> = moves
        .iter()
        .map(|m| m["played"].as_str().unwrap())
        .collect();
    assert_eq!(played, GAME);
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

/// The text answered to `method` `path` with `body` as it is.
async fn send_text(app: &Router, method: &str, path: &str, body: &str) -> (StatusCode, String) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, common::HOST)
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

/// The move-quality glyphs of each main-line move of the one game in `text`.
fn glyphs(text: &str) -> Vec<Vec<u8>> {
    let games = pgn::read_str(text).expect("the export reads back");
    assert_eq!(games.len(), 1, "{text}");
    games[0]
        .moves
        .moves
        .iter()
        .map(|n| {
            n.nags
                .iter()
                .map(|n| n.0)
                .filter(|n| (1..=6).contains(n))
                .collect()
        })
        .collect()
}

#[tokio::test]
async fn the_export_of_a_reviewed_game_carries_the_reviews_glyphs() {
    let app = common::app_with_data(Some(&common::data_folder("review", "export")));
    let gid = id(&new_game(&app, json!({})).await);
    for m in GAME {
        play(&app, &gid, &m[..2], &m[2..]).await;
    }
    let (status, before) = send_text(&app, "GET", "/api/archive/export?format=pgn-iccs", "").await;
    assert_eq!(status, StatusCode::OK, "{before}");
    assert!(
        glyphs(&before).iter().all(Vec::is_empty),
        "no glyph before the review: {before}"
    );
    let events = events(&app, &format!("/api/games/{gid}/review?millis=100")).await;
    let (last, review) = events.last().unwrap();
    assert_eq!(last, "review", "{events:?}");
    // What the review marks, as PGN glyphs: a blunder $4, a best move none.
    let expected: Vec<Vec<u8>> = review["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let class = Class::from_code(m["class"].as_str().unwrap()).expect("a class");
            class.nag().into_iter().collect()
        })
        .collect();
    assert_eq!(expected[4], [4], "{review}");
    assert!(expected[5].is_empty(), "{review}");

    // The review is kept on the archive's own thread; the export follows once it is.
    let start = Instant::now();
    let text = loop {
        let (status, text) =
            send_text(&app, "GET", "/api/archive/export?format=pgn-iccs", "").await;
        assert_eq!(status, StatusCode::OK, "{text}");
        if glyphs(&text) == expected {
            break text;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the export has no glyphs {expected:?}: {text}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(text.contains("I1-H1 $4"), "{text}");

    // Imported into another archive and exported again, the glyphs are the same.
    let other = common::app_with_data(Some(&common::data_folder("review", "export-again")));
    let (status, answer) = send_text(
        &other,
        "POST",
        "/api/archive/import?name=reviewed.pgn",
        &text,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let (_, again) = send_text(&other, "GET", "/api/archive/export?format=pgn-wxf", "").await;
    assert_eq!(glyphs(&again), expected, "{again}");
}
