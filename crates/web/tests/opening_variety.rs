//! The learner levels open games in more than one named way through the HTTP API.

mod common;

use common::{id, new_game, send};
use serde_json::json;
use std::collections::BTreeSet;
use xiangqi_teaching::openings::classify;
use xiangqi_web::{AllowedHosts, router};

#[tokio::test]
async fn beginner_games_start_with_different_named_openings() {
    let app = router(AllowedHosts::for_address("127.0.0.1", 8080));
    let mut firsts = Vec::new();
    for _ in 0..12 {
        let game = new_game(&app, json!({})).await;
        let path = format!("/api/games/{}/engine", id(&game));
        let (status, answer) = send(&app, "POST", &path, Some(json!({"level": 0}))).await;
        assert_eq!(status, axum::http::StatusCode::OK, "{answer}");
        firsts.push(answer["reply"]["iccs"].as_str().unwrap().to_string());
    }
    let named = firsts
        .iter()
        .filter(|m| {
            let opening = classify(&[m.parse().unwrap()]).unwrap().unwrap();
            opening.named && opening.code != "A00"
        })
        .count();
    // Each game has its own seed; a book move refused three times by the check leaves the
    // level's own move, which may be any.
    assert!(named >= 10, "first moves: {firsts:?}");
    let distinct: BTreeSet<&String> = firsts.iter().collect();
    assert!(distinct.len() >= 2, "every game opened {firsts:?}");
}
