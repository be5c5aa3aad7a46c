//! A game's lines through the router: the move tree in the game's view, the requests that
//! play from an earlier position and change lines with the codes of their refusals, the
//! engine's reply in a variation, the record with its variations, and the safety net's answer
//! for a move that leaves a piece hanging. What the lines do is tested with the type that
//! keeps them (`xiangqi_records::PlayedGame`, `crates/records/tests/played_game.rs`).

mod common;

use axum::Router;
use axum::http::{StatusCode, header};
use common::{id, new_game, respond, send};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use xiangqi_web::{AllowedHosts, router};

fn app() -> Router {
    router(AllowedHosts::for_address("127.0.0.1", 8080))
}

/// Ten moves of a cannon opening.
const GAME: [&str; 10] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "b7b3", "a0a1", "g6g5",
];

async fn post(app: &Router, game: &Value, action: &str, body: Value) -> (StatusCode, Value) {
    let path = format!("/api/games/{}/{action}", id(game));
    send(app, "POST", &path, Some(body)).await
}

/// Plays `mv` (ICCS) from ply `ply` as `choice`; fails the test when refused.
async fn play_from(app: &Router, game: &Value, ply: usize, mv: &str, choice: &str) -> Value {
    let body = json!({"from": &mv[..2], "to": &mv[2..], "ply": ply, "choice": choice});
    let (status, answer) = post(app, game, "move", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer
}

/// The moves played in the game view `game`, by ICCS.
fn moves(game: &Value) -> Vec<String> {
    line_of(&game["moves"])
}

/// The moves of a list of moves (the moves played, or a line of the tree), by ICCS.
fn line_of(nodes: &Value) -> Vec<String> {
    nodes
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap().to_string())
        .collect()
}

async fn ten_moves(app: &Router) -> Value {
    new_game(app, json!({"moves": GAME})).await
}

#[tokio::test]
async fn a_variation_keeps_the_main_line_and_play_goes_on_in_it() {
    let app = app();
    let game = ten_moves(&app).await;
    let game = play_from(&app, &game, 3, "b9c7", "variation").await;
    assert_eq!(moves(&game), ["h2e2", "h9g7", "h0g2", "b9c7"]);
    assert_eq!(game["line"], 1);
    let tree = &game["tree"];
    assert_eq!(line_of(tree), GAME);
    // The variation stands beside the main line's fourth move.
    let variations = tree[3]["variations"].as_array().unwrap();
    assert_eq!(variations.len(), 1);
    assert_eq!(line_of(&variations[0]), ["b9c7"]);
    assert_eq!(variations[0][0]["line"], 1);
    assert_eq!(variations[0][0]["played"], true);
    assert_eq!(tree[3]["played"], false);
    assert_eq!(tree[2]["played"], true);
    assert_eq!(variations[0][0]["ply"], 4);
    // Play goes on in the variation.
    let (status, game) = post(&app, &game, "move", json!({"from": "i0", "to": "i1"})).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    let variation = &game["tree"][3]["variations"][0];
    assert_eq!(line_of(variation), ["b9c7", "i0i1"]);
    assert_eq!(line_of(&game["tree"]), GAME, "the main line is still there");
}

#[tokio::test]
async fn the_engine_answers_in_the_variation() {
    let app = app();
    let game = ten_moves(&app).await;
    let game = play_from(&app, &game, 2, "b0c2", "variation").await;
    let (status, answer) = post(&app, &game, "engine", json!({"level": 0})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let game = &answer["game"];
    assert_eq!(moves(game).len(), 4);
    assert_eq!(moves(game)[..3], ["h2e2", "h9g7", "b0c2"]);
    let variation = &game["tree"][2]["variations"][0];
    assert_eq!(line_of(variation).len(), 2, "{variation}");
    assert_eq!(line_of(&game["tree"]), GAME);
}

#[tokio::test]
async fn a_main_line_move_switches_back_and_lines_can_be_promoted_and_deleted() {
    let app = app();
    let game = ten_moves(&app).await;
    let game = play_from(&app, &game, 3, "b9c7", "variation").await;
    let (status, main) = post(&app, &game, "line", json!({"line": 0, "action": "switch"})).await;
    assert_eq!(status, StatusCode::OK, "{main}");
    assert_eq!(moves(&main), GAME);
    assert_eq!(main["line"], 0);
    assert_eq!(main["tree"][3]["variations"][0][0]["played"], false);

    let (_, promoted) = post(&app, &game, "line", json!({"line": 1, "action": "promote"})).await;
    let tree = &promoted["tree"];
    assert_eq!(line_of(tree), ["h2e2", "h9g7", "h0g2", "b9c7"]);
    assert_eq!(line_of(&tree[3]["variations"][0]), GAME[3..]);
    assert_eq!(moves(&promoted), GAME, "play stays where it was");

    let (status, refused) = post(&app, &game, "line", json!({"line": 0, "action": "delete"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused["error"]["code"], "main-line");

    // Deleting the line being played goes back to the main line.
    let (status, left) = post(&app, &game, "line", json!({"line": 1, "action": "delete"})).await;
    assert_eq!(status, StatusCode::OK, "{left}");
    assert!(left["tree"].is_null(), "{left}");
    assert_eq!(moves(&left), ["h2e2", "h9g7", "h0g2", "b9c7"]);

    let (status, missing) = post(&app, &game, "line", json!({"line": 5, "action": "switch"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(missing["error"]["code"], "no-line");
    assert_eq!(missing["error"]["params"]["lines"], 1);
}

#[tokio::test]
async fn a_bad_ply_or_a_missing_choice_is_refused_with_its_code() {
    let app = app();
    let game = ten_moves(&app).await;
    let body = json!({"from": "b9", "to": "c7", "ply": 11, "choice": "variation"});
    let (status, answer) = post(&app, &game, "move", body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(answer["error"]["code"], "bad-ply");
    assert_eq!(answer["error"]["params"]["ply"], 11);
    assert_eq!(answer["error"]["params"]["moves"], 10);

    let body = json!({"from": "b9", "to": "c7", "ply": 3});
    let (status, answer) = post(&app, &game, "move", body).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(answer["error"]["code"], "choice-needed");

    let body = json!({"from": "b9", "to": "c7", "ply": 3, "choice": "sideways"});
    let (status, _) = post(&app, &game, "move", body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Black's chariot is blocked by its own soldier.
    let body = json!({"from": "a9", "to": "a5", "ply": 3, "choice": "replace"});
    let (status, answer) = post(&app, &game, "move", body).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(answer["error"]["code"], "chariot-path-blocked", "{answer}");
}

#[tokio::test]
async fn a_finished_game_can_be_played_on_from_an_earlier_position() {
    let app = app();
    // The chariot to c9 mates: Red's other chariot holds the eighth rank.
    let fen = "4k4/7R1/9/9/6n2/2R1N4/9/9/9/3K5 w - - 0 1";
    let game = new_game(&app, json!({"fen": fen, "moves": ["c4c9"]})).await;
    assert_eq!(game["outcome"]["code"], "checkmate", "{game}");
    let (status, answer) = post(&app, &game, "move", json!({"from": "d0", "to": "d1"})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(answer["error"]["code"], "game-over");
    let game = play_from(&app, &game, 0, "c4c3", "variation").await;
    assert!(game["outcome"].is_null(), "{game}");
    assert_eq!(line_of(&game["tree"]), ["c4c9"]);
}

#[tokio::test]
async fn the_record_carries_the_variations() {
    let app = app();
    let game = ten_moves(&app).await;
    let game = play_from(&app, &game, 3, "b9c7", "variation").await;
    let path = format!("/api/games/{}/record?format=pgn-iccs", id(&game));
    let response = respond(&app, "GET", &path, None).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .contains("pgn")
    );
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let pgn = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(pgn.contains("(2... B9-C7)"), "{pgn}");
    assert!(pgn.contains("G6-G5"), "the main line is whole: {pgn}");
    // Read back, the record opens on its main line.
    let response = respond_import(&app, pgn).await;
    assert_eq!(moves(&response["game"]), GAME);
}

async fn respond_import(app: &Router, pgn: String) -> Value {
    let request = axum::http::Request::builder()
        .method("POST")
        .uri("/api/games/import?name=v.pgn")
        .header(header::HOST, common::HOST)
        .body(axum::body::Body::from(pgn))
        .unwrap();
    use tower::ServiceExt;
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&bytes).unwrap()
}

#[tokio::test]
async fn a_hanging_move_is_answered_not_played_when_asked() {
    let app = app();
    // Red's horse on c2, Black's chariot on a4 sweeping the fourth rank.
    let game = new_game(&app, json!({"fen": "5k3/9/9/9/9/r8/9/2N6/9/4K4 w - - 0 1"})).await;
    let body = json!({"from": "c2", "to": "d4", "check_hanging": true});
    let (status, answer) = post(&app, &game, "move", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        answer["hanging"],
        json!({"piece": "N", "square": "d4", "loss": 400, "defended": false,
               "attacker": "r", "attacker_square": "a4"})
    );
    let (_, now) = send(&app, "GET", &format!("/api/games/{}", id(&game)), None).await;
    assert_eq!(moves(&now).len(), 0, "nothing was played");
    // A safe move is played at once; the hanging one is played when not checked.
    let body = json!({"from": "c2", "to": "e1", "check_hanging": true});
    let (_, played) = post(&app, &game, "move", body).await;
    assert_eq!(moves(&played), ["c2e1"]);
    let game = new_game(&app, json!({"fen": "5k3/9/9/9/9/r8/9/2N6/9/4K4 w - - 0 1"})).await;
    let (_, played) = post(&app, &game, "move", json!({"from": "c2", "to": "d4"})).await;
    assert_eq!(moves(&played), ["c2d4"]);
}
