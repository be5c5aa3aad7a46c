//! The endgame tables in play and review: with the chariot-and-advisor table made through
//! the endgame course, the analysis of a covered position (streamed and at once) is the
//! table's exact result with its best moves, and a review of a game into that ending names
//! the move that throws the win away by the exact results. Without the table the engine
//! searches as before.

mod common;

use axum::Router;
use axum::http::StatusCode;
use common::{app_with_data, data_folder, events, id, new_game, send};
use serde_json::{Value, json};

/// Red mates in 5 (the table: a win in 9 plies).
const KRKA: &str = "9/9/3ak4/9/9/9/9/9/9/3K1R3 w - - 0 1";

/// The app with the chariot-and-advisor tables (KRKA and what its captures lead to) made in
/// its data folder through the course's API.
async fn app_with_tables(test: &str) -> Router {
    let app = app_with_data(Some(&data_folder("tables", test)));
    let (status, state) = send(&app, "POST", "/api/endgames/chariot-advisor/table", None).await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["state"], "ready");
    app
}

fn last_lines(events: &[(String, Value)]) -> Value {
    events
        .iter()
        .rev()
        .find(|(name, _)| name == "lines")
        .map(|(_, data)| data.clone())
        .expect("a lines event")
}

#[tokio::test]
async fn the_analysis_of_a_covered_position_is_the_tables_result() {
    let app = app_with_tables("analysis").await;
    let game = new_game(&app, json!({ "fen": KRKA })).await;
    let gid = id(&game);

    let got = events(
        &app,
        &format!("/api/games/{gid}/analysis?lines=3&millis=5000"),
    )
    .await;
    // One event, already done: the table needs no search.
    assert_eq!(got.len(), 1, "{got:?}");
    let update = last_lines(&got);
    assert_eq!(update["done"], true);
    assert_eq!(update["table"], json!({ "result": "red", "mate_in": 5 }));
    let lines = update["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    // Every first move of the best three mates in 5, the table's line plays it out to mate.
    for line in lines {
        assert_eq!(line["table"], json!({ "result": "red", "mate_in": 5 }));
        assert_eq!(line["score_red"], json!({ "mate": 5 }));
        assert_eq!(line["pv"].as_array().unwrap().len(), 9, "{line}");
    }
    assert_eq!(lines[0]["pv"][0], "d0d1");

    // Black to move after 1. Kd1: Black is mated in 4 (the table's longest defence first).
    common::play(&app, &gid, "d0", "d1").await;
    let update = last_lines(
        &events(
            &app,
            &format!("/api/games/{gid}/analysis?lines=2&millis=5000"),
        )
        .await,
    );
    assert_eq!(update["table"], json!({ "result": "red", "mate_in": 4 }));
    assert_eq!(update["lines"][0]["pv"][0], "e7e8");
    assert_eq!(update["lines"][0]["score_red"], json!({ "mate": 4 }));
    assert_eq!(update["lines"][1]["table"]["mate_in"], 2);

    // The analysis at once says the same.
    let (status, lines) = send(
        &app,
        "POST",
        &format!("/api/games/{gid}/analyse"),
        Some(json!({ "lines": 1, "millis": 100 })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{lines}");
    assert_eq!(lines[0]["table"], json!({ "result": "red", "mate_in": 4 }));
    assert_eq!(lines[0]["pv"][0], "e7e8");
}

#[tokio::test]
async fn a_draw_in_the_table_is_told_as_a_draw() {
    let app = app_with_tables("draw").await;
    // After 2. Rf8?? the general takes the chariot: a draw.
    let game = new_game(
        &app,
        json!({ "fen": KRKA, "moves": ["d0d1", "e7e8", "f0f8"] }),
    )
    .await;
    let update =
        last_lines(&events(&app, &format!("/api/games/{}/analysis?lines=1", id(&game))).await);
    assert_eq!(
        update["table"],
        json!({ "result": "draw", "mate_in": null })
    );
    assert_eq!(update["lines"][0]["pv"][0], "e8f8");
    assert_eq!(update["lines"][0]["score_red"], json!({ "cp": 0 }));
}

#[tokio::test]
async fn without_the_table_the_engine_searches() {
    let app = app_with_data(Some(&data_folder("tables", "none")));
    let game = new_game(&app, json!({ "fen": KRKA })).await;
    let update = last_lines(
        &events(
            &app,
            &format!("/api/games/{}/analysis?lines=1&millis=300", id(&game)),
        )
        .await,
    );
    assert!(update.get("table").is_none(), "{update}");
    assert!(update["lines"][0]["depth"].as_i64().unwrap() > 0);
    assert!(update["lines"][0].get("table").is_none());
}

#[tokio::test]
async fn the_review_names_the_move_that_throws_the_win_away() {
    let app = app_with_tables("review").await;
    let game = new_game(
        &app,
        json!({ "fen": KRKA, "moves": ["d0d1", "e7e8", "f0f8", "e8f8"] }),
    )
    .await;
    let got = events(&app, &format!("/api/games/{}/review?millis=50", id(&game))).await;
    let (_, review) = got
        .iter()
        .find(|(name, _)| name == "review")
        .expect("a review event");
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    let thrown = &moves[2];
    assert_eq!(thrown["class"], "blunder");
    assert_eq!(
        thrown["table"],
        json!({
            "change": "win-thrown",
            "best": "win",
            "best_mate": 4,
            "played": "draw",
            "played_mate": null,
            "text": "this throws away the win: mate in 4 became a draw",
        })
    );
    assert_eq!(thrown["best"]["iccs"], "d1d2");
    assert_eq!(thrown["best_score_red"], json!({ "mate": 4 }));
    assert_eq!(thrown["score_red"], json!({ "cp": 0 }));
    // The moves around it keep their results exactly.
    assert_eq!(moves[0]["class"], "best");
    assert_eq!(moves[0]["table"]["change"], "kept");
    // Black's capture of the chariot keeps the draw.
    assert_eq!(moves[3]["table"]["change"], "kept");
    assert_eq!(review["red"]["counts"]["blunder"], 1);
}
