//! The opening explorer through the router: the named continuations of a position with the
//! engine's evaluation of each, main lines first, and the positions it refuses by code.

mod common;

use axum::Router;
use axum::http::StatusCode;
use common::{id, new_game, send};
use serde_json::{Value, json};
use xiangqi_web::{AllowedHosts, router};

fn app() -> Router {
    router(AllowedHosts::for_address("127.0.0.1", 8080))
}

async fn explore(app: &Router, game: &Value, query: &str) -> (StatusCode, Value) {
    let path = format!("/api/games/{}/openings{query}", id(game));
    send(app, "GET", &path, None).await
}

/// The rows' moves, ICCS, in the order given.
fn moves(answer: &Value) -> Vec<String> {
    answer["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["move"]["iccs"].as_str().unwrap().to_string())
        .collect()
}

fn row<'a>(answer: &'a Value, iccs: &str) -> &'a Value {
    answer["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["move"]["iccs"] == iccs)
        .unwrap_or_else(|| panic!("no row for {iccs} in {answer}"))
}

#[tokio::test]
async fn the_start_lists_the_central_cannon_among_the_main_lines_with_evaluations() {
    let app = app();
    let game = new_game(&app, json!({})).await;
    let (status, answer) = explore(&app, &game, "").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["ply"], 0);
    let order = moves(&answer);
    let at = order.iter().position(|m| m == "h2e2").expect("h2e2 listed");
    assert!(at < 5, "central cannon at row {at}: {order:?}");
    let cannon = row(&answer, "h2e2");
    assert_eq!(cannon["move"]["chinese"], "炮二平五");
    assert_eq!(cannon["move"]["wxf"], "C2=5");
    let code = cannon["opening"]["code"].as_str().unwrap();
    assert!(
        code.starts_with('B') || code.starts_with('C') || code.starts_with('D'),
        "{code}"
    );
    assert!(
        cannon["opening"]["name"].as_str().unwrap().contains("中炮"),
        "{cannon}"
    );
    assert_eq!(cannon["opening"]["family"]["en"], "Central Cannon");
    assert!(cannon["lines"].as_u64().unwrap() > 10, "{cannon}");
    assert!(cannon["score_red"]["cp"].is_i64(), "{cannon}");
    assert!(cannon["depth"].as_i64().unwrap() > 0, "{cannon}");
    // Every row names an opening; the rows come by how far their lines go on, widest first.
    let rows = answer["rows"].as_array().unwrap();
    assert!(rows.len() >= 5, "{answer}");
    assert!(
        rows.iter().all(|r| r["opening"]["code"] != "A00"),
        "{answer}"
    );
    let widths: Vec<u64> = rows.iter().map(|r| r["lines"].as_u64().unwrap()).collect();
    assert!(widths.windows(2).all(|w| w[0] >= w[1]), "{widths:?}");
}

#[tokio::test]
async fn a_ply_while_browsing_explores_that_position() {
    let app = app();
    let game = new_game(&app, json!({"moves": ["h2e2", "h9g7", "h0g2"]})).await;
    let (status, now) = explore(&app, &game, "").await;
    assert_eq!(status, StatusCode::OK, "{now}");
    assert_eq!(now["ply"], 3);
    assert!(now["opening"]["code"].is_string(), "{now}");
    let (status, back) = explore(&app, &game, "?ply=1").await;
    assert_eq!(status, StatusCode::OK, "{back}");
    assert_eq!(back["ply"], 1);
    // Black to move after 炮二平五: the screen horse answer is among the rows.
    let horse = row(&back, "h9g7");
    assert_eq!(horse["move"]["chinese"], "马8进7");
    assert_ne!(moves(&now), moves(&back));
}

#[tokio::test]
async fn a_move_on_the_way_to_deeper_codes_is_listed_with_the_codes_it_heads_for() {
    let app = app();
    // 炮二平五 马２进３ 马二进三 (B01): 卒３进１ enters no code yet, but the lines from B01 to
    // B02, B03, B30 and C00 need it (with one more move of Black's).
    let game = new_game(&app, json!({"moves": ["h2e2", "b9c7", "h0g2"]})).await;
    let (status, answer) = explore(&app, &game, "").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["opening"]["code"], "B01");
    let horse = row(&answer, "c6c5");
    assert_eq!(horse["enters"], false, "{horse}");
    let toward: Vec<&str> = horse["toward"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(!toward.is_empty(), "{horse}");
    assert!(
        toward.contains(&horse["opening"]["code"].as_str().unwrap()),
        "{horse}"
    );
    assert!(
        toward.contains(&"B02") && toward.contains(&"C00"),
        "{toward:?}"
    );
    // A move that enters a code itself (炮８平６, B30) is listed as entering it.
    let cannon = row(&answer, "h7f7");
    assert_eq!(cannon["enters"], true, "{cannon}");
    assert_eq!(cannon["opening"]["code"], "B30");
}

#[tokio::test]
async fn positions_the_explorer_does_not_cover_are_refused_by_code() {
    let app = app();
    let fen = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    let set_up = new_game(&app, json!({ "fen": fen })).await;
    let (status, answer) = explore(&app, &set_up, "").await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(answer["error"]["code"], "opening-not-from-start");

    let game = new_game(&app, json!({"moves": ["h2e2"]})).await;
    let (status, answer) = explore(&app, &game, "?ply=5").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(answer["error"]["code"], "bad-ply");
    let (status, answer) = explore(&app, &game, "?ply=x").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(answer["error"]["code"], "bad-request");

    // Twenty moves of each side shuffling the horses: move 21 is beyond the explorer.
    let shuffle = ["b0c2", "b9c7", "c2b0", "c7b9"];
    let long: Vec<&str> = shuffle.iter().cycle().take(40).copied().collect();
    let late = new_game(&app, json!({ "moves": long })).await;
    let (status, answer) = explore(&app, &late, "").await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(answer["error"]["code"], "opening-too-late");
    let (status, answer) = explore(&app, &late, "?ply=39").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

#[tokio::test]
async fn an_unknown_game_is_refused() {
    let app = app();
    let (status, answer) = send(&app, "GET", "/api/games/nope/openings", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
}
