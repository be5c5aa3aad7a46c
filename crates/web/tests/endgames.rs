//! The endgame course through the router: the endings in each language, a table made on
//! first use in the data folder, the learner's moves judged by the table (a move that keeps
//! the win, a slip that loses it with the winning move named, the app's longest resistance, a
//! draw held to the move limit) and bad input refused with codes.

mod common;

use axum::Router;
use axum::http::StatusCode;
use common::{app_with_data, data_folder, send};
use serde_json::{Value, json};
use std::path::PathBuf;
use xiangqi_egtb::Tablebases;
use xiangqi_rules::Position;

fn app(test: &str) -> (Router, PathBuf) {
    let data = data_folder("endgames", test);
    (app_with_data(Some(&data)), data)
}

async fn play(app: &Router, lesson: &str, position: usize, moves: &[&str]) -> (StatusCode, Value) {
    send(
        app,
        "POST",
        "/api/endgames/play",
        Some(json!({ "lesson": lesson, "position": position, "moves": moves })),
    )
    .await
}

#[tokio::test]
async fn the_endings_are_served_in_every_language_and_a_table_is_made_on_first_use() {
    let (app, data) = app("list");
    for lang in ["en", "ru", "zh"] {
        let (status, list) = send(&app, "GET", &format!("/api/endgames?lang={lang}"), None).await;
        assert_eq!(status, StatusCode::OK, "{list}");
        let list = list.as_array().unwrap();
        assert!(list.len() >= 20);
        for e in list {
            assert!(!e["title"].as_str().unwrap().is_empty());
            assert!(!e["chinese"].as_str().unwrap().is_empty());
            assert!(!e["pages"][0]["text"].as_str().unwrap().is_empty());
            assert!(["win", "draw"].contains(&e["goal"].as_str().unwrap()));
            assert_eq!(e["table"], "missing");
        }
    }
    let (status, state) = send(&app, "GET", "/api/endgames/chariot-general/table", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["state"], "missing");
    assert_eq!(state["ending"], "KRK");
    let (status, state) = send(&app, "POST", "/api/endgames/chariot-general/table", None).await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["state"], "ready");
    assert!(data.join("egtb").join("KRK.xqtb").is_file());
    let (_, state) = send(&app, "GET", "/api/endgames/chariot-general/table", None).await;
    assert_eq!(state["state"], "ready");
    let (_, list) = send(&app, "GET", "/api/endgames", None).await;
    assert_eq!(list[0]["table"], "ready");
}

#[tokio::test]
async fn a_move_that_keeps_the_win_is_told_with_the_mate_and_the_app_resists_longest() {
    let (app, data) = app("keep");
    let (status, start) = play(&app, "chariot-advisor", 1, &[]).await;
    assert_eq!(status, StatusCode::OK, "{start}");
    assert_eq!(start["status"], "playing");
    assert_eq!(start["start"]["result"], "win");
    let shortest = start["shortest"].as_u64().unwrap();
    assert_eq!(start["start"]["mate_in"].as_u64().unwrap(), shortest);
    let best = start["options"][0]["iccs"].as_str().unwrap().to_string();
    assert_eq!(start["options"][0]["result"], "win");

    let (status, after) = play(&app, "chariot-advisor", 1, &[&best]).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let step = &after["steps"][0];
    assert_eq!(step["verdict"], "best");
    assert_eq!(step["after"]["result"], "win");
    assert_eq!(step["after"]["mate_in"].as_u64().unwrap(), shortest);
    assert_eq!(after["now"]["result"], "win");
    assert_eq!(after["now"]["mate_in"].as_u64().unwrap(), shortest - 1);
    // The app's reply is the table's longest resistance.
    let tables = Tablebases::open(data.join("egtb")).unwrap();
    let moved = Position::from_fen(step["mv"]["fen"].as_str().unwrap()).unwrap();
    let probe = tables.probe(&moved).unwrap();
    let reply = step["reply"]["iccs"].as_str().unwrap();
    let replied = probe
        .moves
        .iter()
        .find(|m| m.mv.to_string() == reply)
        .unwrap();
    assert_eq!(replied.value, probe.moves[0].value);
    assert!(
        probe
            .moves
            .iter()
            .all(|m| m.value.preference() >= replied.value.preference())
    );
}

#[tokio::test]
async fn a_slip_that_lets_the_win_go_names_the_winning_move() {
    let (app, _data) = app("slip");
    let (_, start) = play(&app, "chariot-advisor", 1, &[]).await;
    let slip = start["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["result"] == "draw")
        .expect("a move that gives the chariot away")["iccs"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, after) = play(&app, "chariot-advisor", 1, &[&slip]).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let step = &after["steps"][0];
    assert_eq!(step["verdict"], "slipped");
    assert_eq!(step["before"]["result"], "win");
    assert_eq!(step["after"]["result"], "draw");
    let named = step["best"]["iccs"].as_str().unwrap();
    let keeps = start["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["iccs"] == named)
        .unwrap();
    assert_eq!(keeps["result"], "win");
    assert_eq!(keeps["mate_in"], start["start"]["mate_in"]);
    assert!(!step["best"]["chinese"].as_str().unwrap().is_empty());
    assert_eq!(after["now"]["result"], "draw");
}

#[tokio::test]
async fn the_winning_line_mates_and_counts_the_moves() {
    let (app, _data) = app("mate");
    let mut moves: Vec<String> = Vec::new();
    let last = loop {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let (status, now) = play(&app, "chariot-general", 0, &refs).await;
        assert_eq!(status, StatusCode::OK, "{now}");
        if now["status"] != "playing" {
            break now;
        }
        moves.push(now["options"][0]["iccs"].as_str().unwrap().to_string());
    };
    assert_eq!(last["status"], "won");
    assert_eq!(last["moves_used"], last["shortest"]);
    assert!(last["options"].as_array().unwrap().is_empty());
    // The end is named as the position is: checkmate (in check) or stalemate (not in check;
    // the table's quickest win here leaves the general without a move and not in check).
    let end = xiangqi_rules::Position::from_fen(last["fen"].as_str().unwrap()).unwrap();
    let code = match end.status() {
        xiangqi_rules::GameStatus::Checkmate { .. } => "checkmate",
        xiangqi_rules::GameStatus::Stalemate { .. } => "stalemate",
        xiangqi_rules::GameStatus::Ongoing => panic!("a won attempt ends the game: {last}"),
    };
    assert_eq!(last["ending"]["code"], code, "{last}");
    assert_eq!(last["check"], code == "checkmate");
    assert_eq!(
        last["ending"]["general"],
        end.general(end.side_to_move()).to_string()
    );
}

#[tokio::test]
async fn a_drawn_ending_is_held_to_the_move_limit() {
    let (app, _data) = app("hold");
    let mut moves: Vec<String> = Vec::new();
    let last = loop {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let (status, now) = play(&app, "bottom-soldier", 0, &refs).await;
        assert_eq!(status, StatusCode::OK, "{now}");
        assert_eq!(now["goal"], "draw");
        if now["status"] != "playing" {
            break now;
        }
        assert_eq!(now["now"]["result"], "draw");
        let hold = now["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["result"] == "draw")
            .unwrap();
        moves.push(hold["iccs"].as_str().unwrap().to_string());
    };
    assert_eq!(last["status"], "held");
    assert_eq!(last["moves_used"], last["limit"]);
    assert!(
        last["steps"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["verdict"] == "held")
    );
    // Another move after the end is refused.
    let mut more: Vec<&str> = moves.iter().map(String::as_str).collect();
    let fen = last["fen"].as_str().unwrap();
    let pos = Position::from_fen(fen).unwrap();
    let any = pos.legal_moves().iter().next().unwrap().to_string();
    more.push(&any);
    let (status, err) = play(&app, "bottom-soldier", 0, &more).await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    assert_eq!(err["error"]["code"], "game-over");
}

#[tokio::test]
async fn bad_input_is_refused_with_codes() {
    let (app, _data) = app("bad");
    let (status, err) = play(&app, "no-such-ending", 0, &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(err["error"]["code"], "no-exercise");
    let (status, err) = play(&app, "chariot-general", 9, &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(err["error"]["code"], "no-exercise");
    let (status, err) = send(&app, "GET", "/api/endgames/no-such-ending/table", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(err["error"]["code"], "no-exercise");
    // An illegal move: the rules core's reason.
    let (status, err) = play(&app, "chariot-general", 0, &["a0b1"]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{err}");
    assert_eq!(err["error"]["code"], "chariot-move-shape");
    // A move that does not read.
    let (status, err) = play(&app, "chariot-general", 0, &["zz99"]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    // An unknown field.
    let (status, _) = send(
        &app,
        "POST",
        "/api/endgames/play",
        Some(json!({ "lesson": "chariot-general", "position": 0, "extra": 1 })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Too many moves.
    let many = vec!["a0a1"; 201];
    let (status, err) = play(&app, "chariot-general", 0, &many).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert_eq!(err["error"]["code"], "over-limit");
}
