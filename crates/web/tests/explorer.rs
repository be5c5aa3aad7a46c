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
    let path = format!("/api/games/{}/explorer{query}", id(game));
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
    // The row names the code itself (B00) in every language, not only its family.
    assert_eq!(cannon["opening"]["code"], "B00");
    assert_eq!(cannon["opening"]["title"]["en"], "Central Cannon Opening");
    assert_eq!(cannon["opening"]["title"]["ru"], "Дебют центральной пушки");
    assert_eq!(cannon["opening"]["title"]["zh"], "中炮局");
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
    // Black to move after 炮二平五: the screen horse answer is among the rows, named by the
    // code it enters (B05), and the position's own opening by B00's names.
    let horse = row(&back, "h9g7");
    assert_eq!(horse["move"]["chinese"], "马8进7");
    assert_eq!(horse["opening"]["code"], "B05");
    assert_eq!(
        horse["opening"]["title"]["en"],
        "Central Cannon vs Left Horse"
    );
    assert_eq!(
        horse["opening"]["title"]["ru"],
        "Центральная пушка против левого коня"
    );
    assert_eq!(back["opening"]["title"]["en"], "Central Cannon Opening");
    assert_ne!(moves(&now), moves(&back));
}

/// The opening of a new game played to `moves`, as the game view gives it.
async fn game_opening(app: &Router, moves: &[&str]) -> Value {
    let game = new_game(app, json!({ "moves": moves })).await;
    game["opening"].clone()
}

#[tokio::test]
async fn the_game_view_names_each_code_in_every_language() {
    let app = app();
    // 炮二平五 (B00) and 炮二平五 马８进７ (B05), by the steps of lines.tsv: two codes of one
    // family, each with its own English and Russian name.
    let b00 = game_opening(&app, &["h2e2"]).await;
    let b05 = game_opening(&app, &["h2e2", "h9g7"]).await;
    assert_eq!(b00["code"], "B00", "{b00}");
    assert_eq!(b05["code"], "B05", "{b05}");
    assert_eq!(b00["family"], b05["family"]);
    assert_eq!(b00["title"]["en"], "Central Cannon Opening");
    assert_eq!(b00["title"]["ru"], "Дебют центральной пушки");
    assert_eq!(b00["title"]["zh"], "中炮局");
    assert_eq!(b05["title"]["en"], "Central Cannon vs Left Horse");
    assert_eq!(b05["title"]["ru"], "Центральная пушка против левого коня");
    assert_eq!(b05["title"]["zh"], "中炮对进左马");
    for lang in ["en", "ru", "zh"] {
        assert_ne!(b00["title"][lang], b05["title"][lang], "{lang}");
        assert_ne!(b05["title"][lang], b05["family"][lang], "{lang}");
    }

    // A code with a variation: `Opening — Variation` in English and Russian, the Chinese
    // opening and variation as ECCO writes them.
    let c48 = game_opening(
        &app,
        &[
            "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "g6g5", "h0h6", "b9c7", "c3c4", "h7i7", "h6g6",
            "i7i8", "b2d2",
        ],
    )
    .await;
    assert_eq!(c48["code"], "C48", "{c48}");
    assert_eq!(
        c48["title"]["zh"],
        "中炮过河车互进七兵对屏风马平炮兑车 红仕角炮对黑退边炮"
    );
    assert!(
        c48["title"]["en"]
            .as_str()
            .unwrap()
            .ends_with(" — Red: palcorner cannon; Black: edge cannon back"),
        "{c48}"
    );
    assert!(
        c48["title"]["ru"]
            .as_str()
            .unwrap()
            .ends_with(" — красные: пушка в углу дворца; чёрные: отход пушки с края"),
        "{c48}"
    );
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
        .map(|o| o["code"].as_str().unwrap())
        .collect();
    assert!(!toward.is_empty(), "{horse}");
    // Each opening headed for comes with its names, for the page to list.
    assert!(
        horse["toward"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o["title"]["en"].as_str().is_some_and(|t| !t.is_empty())),
        "{horse}"
    );
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
    let (status, answer) = send(&app, "GET", "/api/games/nope/explorer", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
}
