//! A game the server has dropped (evicted by newer games, or lost in a restart) answers
//! `no-game`, and the page's copy of it (start position, moves, redo moves) brings it back
//! exactly as it was, engine included.

mod common;

use axum::Router;
use axum::http::StatusCode;
use common::{app, id, new_game, play, send};
use serde_json::{Value, json};

/// A game with three moves played and one taken back.
async fn played(app: &Router) -> Value {
    let game = new_game(app, json!({})).await;
    let gid = id(&game);
    play(app, &gid, "h2", "e2").await;
    play(app, &gid, "h9", "g7").await;
    play(app, &gid, "h0", "g2").await;
    let (status, game) = send(app, "POST", &format!("/api/games/{gid}/undo"), None).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    game
}

/// What the page keeps of `game` and sends to bring it back.
fn page_copy(game: &Value) -> Value {
    let moves: Vec<&Value> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["iccs"])
        .collect();
    json!({"fen": game["start_fen"], "moves": moves, "redo": game["redo"]})
}

async fn assert_forgotten(app: &Router, gid: &str) {
    let (status, err) = send(app, "GET", &format!("/api/games/{gid}"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{err}");
    assert_eq!(err["error"]["code"], "no-game");
}

/// Brings `game` back on `app` and checks it is the same game and the engine plays it.
async fn assert_restores(app: &Router, game: &Value) {
    let restored = new_game(app, page_copy(game)).await;
    assert_ne!(restored["id"], game["id"], "a restored game has a new id");
    for field in ["start_fen", "fen", "turn", "moves", "redo", "legal"] {
        assert_eq!(
            restored[field], game[field],
            "{field} differs after restoring"
        );
    }
    let path = format!("/api/games/{}/engine", id(&restored));
    let (status, reply) = send(app, "POST", &path, Some(json!({"level": 0}))).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["game"]["moves"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn an_evicted_game_is_restored_from_the_page_copy() {
    let app = app(1, 4, 3);
    let game = played(&app).await;
    let gid = id(&game);
    for _ in 0..3 {
        new_game(&app, json!({})).await;
    }
    assert_forgotten(&app, &gid).await;
    assert_restores(&app, &game).await;
}

#[tokio::test]
async fn a_game_lost_in_a_restart_is_restored_from_the_page_copy() {
    let before = app(1, 4, 16);
    let game = played(&before).await;
    drop(before);
    let after = app(1, 4, 16);
    assert_forgotten(&after, &id(&game)).await;
    assert_restores(&after, &game).await;
}

#[tokio::test]
async fn the_least_recently_used_game_is_the_one_dropped() {
    let app = app(1, 4, 2);
    let old = id(&new_game(&app, json!({})).await);
    let newer = id(&new_game(&app, json!({})).await);
    play(&app, &old, "h2", "e2").await;
    new_game(&app, json!({})).await;
    assert_forgotten(&app, &newer).await;
    let (status, game) = send(&app, "GET", &format!("/api/games/{old}"), None).await;
    assert_eq!(status, StatusCode::OK, "{game}");
}
