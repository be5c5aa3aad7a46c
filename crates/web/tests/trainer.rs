//! The opening trainer through the router: the catalogue, a run started as Black with the
//! app's first move, moves on the line answered along it, a move off the line named with the
//! main move and the engine's view, the card recorded in the archive (a miss due at once, a
//! clean run spaced out) and kept across a restart, the trainer without an archive, and bad
//! requests refused with codes the page words.

mod common;

use axum::Router;
use axum::http::StatusCode;
use common::{app_with_data, send};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::Instant;

/// A fresh data folder for one test.
fn data_folder(test: &str) -> PathBuf {
    common::data_folder("trainer", test)
}

fn error_code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or("")
}

/// The moves (ICCS) of `branch` of `line` from the catalogue.
fn branch_moves(catalogue: &Value, line: &str, branch: &str) -> Vec<String> {
    let l = catalogue["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == line)
        .unwrap();
    let b = l["branches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == branch)
        .unwrap();
    b["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap().to_string())
        .collect()
}

async fn play(
    app: &Router,
    branch: &str,
    moves: &[String],
    mv: &str,
    missed: bool,
) -> (StatusCode, Value) {
    send(
        app,
        "POST",
        "/api/trainer/move",
        Some(json!({
            "line": "screen-horses", "side": "black", "branch": branch,
            "moves": moves, "move": mv, "missed": missed,
        })),
    )
    .await
}

fn card<'a>(catalogue: &'a Value, branch: &str) -> Option<&'a Value> {
    catalogue["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["line"] == "screen-horses" && c["side"] == "black" && c["branch"] == branch)
}

#[tokio::test]
async fn the_catalogue_lists_named_lines_and_offers_a_new_card_first() {
    let app = app_with_data(None);
    let (status, body) = send(&app, "GET", "/api/trainer?side=black", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let lines = body["lines"].as_array().unwrap();
    assert!(lines.len() >= 10);
    let screen = &lines[0];
    assert_eq!(screen["name"]["zh"], "中炮对屏风马");
    assert_eq!(screen["codes"], json!(["C00", "C99"]));
    assert_eq!(screen["branches"][0]["moves"][1]["chinese"], "马8进7");
    // Each branch names the ECCO code it ends in by that code's own names, in every language.
    for branch in lines.iter().flat_map(|l| l["branches"].as_array().unwrap()) {
        let opening = &branch["opening"];
        let code = opening["code"].as_str().unwrap();
        let ecco = xiangqi_teaching::openings::by_code(code).unwrap();
        for lang in xiangqi_teaching::Lang::ALL {
            assert_eq!(
                opening["title"][lang.code()],
                ecco.title(lang).as_str(),
                "{branch}"
            );
        }
    }
    let first = &screen["branches"][0]["opening"];
    assert_ne!(first["title"]["en"], first["family"]["en"], "{first}");
    assert_ne!(first["title"]["ru"], first["family"]["ru"], "{first}");
    // Nothing played yet: the first card of the side, and progress not saved (no archive).
    assert_eq!(body["next"]["side"], "black");
    assert_eq!(body["next"]["line"], "screen-horses");
    assert_eq!(body["progress"]["saved"], false);
    assert_eq!(body["progress"]["error"]["code"], "archive-unavailable");
}

#[tokio::test]
async fn a_run_as_black_named_off_the_line_then_finished_is_recorded_and_kept() {
    let data = data_folder("run");
    let app = app_with_data(Some(&data));
    let (_, catalogue) = send(&app, "GET", "/api/trainer", None).await;
    assert_eq!(catalogue["progress"]["saved"], true, "{catalogue}");
    let (status, start) = send(
        &app,
        "POST",
        "/api/trainer/start",
        Some(json!({ "line": "screen-horses", "side": "black" })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{start}");
    let branch = start["branch"].as_str().unwrap().to_string();
    assert_eq!(
        branch, "crossing-chariot",
        "a new line starts with its main line"
    );
    let line = branch_moves(&catalogue, "screen-horses", &branch);
    assert_eq!(
        start["moves"][0]["iccs"],
        line[0].as_str(),
        "the app opens as Red"
    );
    assert_eq!(start["card"]["reps"], 0);

    // One deviation: 炮８平５ instead of 马8进7. Named, with the main move and the engine.
    let mut moves = vec![line[0].clone()];
    let asked = Instant::now();
    let (status, off) = play(&app, &branch, &moves, "h7e7", false).await;
    let took = asked.elapsed();
    assert_eq!(status, StatusCode::OK, "{off}");
    println!("off-line move answered in {} ms", took.as_millis());
    assert_eq!(off["on_line"], false);
    assert_eq!(off["main"]["iccs"], "h9g7");
    assert_eq!(off["main"]["chinese"], "马8进7");
    assert_eq!(off["main"]["wxf"], "H8+7");
    assert_eq!(
        off["opening"]["code"].as_str().unwrap().chars().next(),
        Some('D')
    );
    let engine = &off["engine"];
    assert!(engine["played"]["cp"].is_i64(), "{engine}");
    assert!(engine["main"]["cp"].is_i64(), "{engine}");
    assert!(engine["depth"].as_i64().unwrap() >= 1);
    assert_eq!(off["record"]["outcome"], "missed");
    assert_eq!(off["record"]["card"]["due"], true, "a miss is due at once");
    assert_eq!(off["record"]["progress"]["saved"], true);

    // The right move, then the line to its end; the miss is not recorded twice.
    while moves.len() < line.len() {
        let mv = line[moves.len()].clone();
        let (status, answer) = play(&app, &branch, &moves, &mv, true).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["on_line"], true, "{mv}: {answer}");
        assert!(answer["record"].is_null());
        moves.push(mv);
        if let Some(reply) = answer["reply"]["iccs"].as_str() {
            assert_eq!(reply, line[moves.len()]);
            moves.push(reply.to_string());
        }
        assert_eq!(answer["done"], moves.len() == line.len());
    }
    // A restart: the same data folder, a new server.
    drop(app);
    let app = app_with_data(Some(&data));
    let (_, catalogue) = send(&app, "GET", "/api/trainer?side=black", None).await;
    let missed = card(&catalogue, &branch).expect("the card is kept");
    assert_eq!(missed["lapses"], 1);
    assert_eq!(missed["due"], true);
    assert_eq!(
        catalogue["next"]["branch"],
        branch.as_str(),
        "the missed card comes back first"
    );

    // A clean run of the same card spaces it out.
    let mut moves = vec![line[0].clone()];
    let mut last = Value::Null;
    while moves.len() < line.len() {
        let mv = line[moves.len()].clone();
        let (_, answer) = play(&app, &branch, &moves, &mv, false).await;
        moves.push(mv);
        if let Some(reply) = answer["reply"]["iccs"].as_str() {
            moves.push(reply.to_string());
        }
        last = answer;
    }
    assert_eq!(last["done"], true);
    assert_eq!(last["record"]["outcome"], "clean");
    assert_eq!(last["record"]["card"]["due"], false);
    assert_eq!(last["record"]["card"]["level"], 1);
    let (_, catalogue) = send(&app, "GET", "/api/trainer?side=black", None).await;
    assert_eq!(card(&catalogue, &branch).unwrap()["reps"], 2);
    assert_ne!(
        catalogue["next"]["branch"],
        branch.as_str(),
        "a new card before the waiting one"
    );
}

#[tokio::test]
async fn bad_requests_get_codes_the_page_words() {
    let app = app_with_data(None);
    let start = |body: Value| {
        let app = app.clone();
        async move { send(&app, "POST", "/api/trainer/start", Some(body)).await }
    };
    let (status, body) = start(json!({ "line": "no-such-line", "side": "red" })).await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::NOT_FOUND, "no-trainer-line")
    );
    assert_eq!(body["error"]["params"]["line"], "no-such-line");
    let (status, body) = start(json!({ "line": "screen-horses", "side": "green" })).await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::BAD_REQUEST, "bad-side")
    );
    assert_eq!(body["error"]["params"]["side"], "green");
    let (status, body) =
        start(json!({ "line": "screen-horses", "side": "red", "branch": "nope" })).await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::NOT_FOUND, "no-trainer-branch")
    );
    let (status, body) = send(&app, "GET", "/api/trainer?side=white", None).await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::BAD_REQUEST, "bad-side")
    );

    let main = "crossing-chariot";
    // An illegal move: the horse cannot jump three points; the rules' reason comes back.
    let (status, body) = play(&app, main, &["h2e2".into()], "h9h6", false).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(!error_code(&body).is_empty());
    let (status, body) = play(&app, main, &["h2e2".into()], "xyz", false).await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::BAD_REQUEST, "bad-move-text")
    );
    // Moves that already left the line, and a move out of turn.
    let (status, body) = play(&app, main, &["h2e2".into(), "h7e7".into()], "h0g2", false).await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::CONFLICT, "trainer-moves-off-line")
    );
    assert_eq!(body["error"]["params"]["ply"], 2);
    let (status, body) = play(&app, main, &[], "h2e2", false).await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::CONFLICT, "trainer-not-your-turn")
    );
    let (status, body) = send(
        &app,
        "POST",
        "/api/trainer/move",
        Some(json!({ "line": "screen-horses", "side": "black" })),
    )
    .await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::BAD_REQUEST, "bad-request")
    );
}
