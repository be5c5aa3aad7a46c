//! Today's training over HTTP: the day's dose follows the learner's progress, the day's
//! puzzles stay the day's, each piece finished counts for the streak (two at once both), the
//! days are kept across a restart, and a bad day or kind is refused saying why.

mod common;

use axum::http::StatusCode;
use common::{app_with_data, data_folder, send};
use serde_json::{Value, json};

async fn today(app: &axum::Router, day: &str) -> Value {
    let (status, view) = send(app, "GET", &format!("/api/today?day={day}"), None).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    view
}

async fn trained(app: &axum::Router, day: &str, kind: &str) -> Value {
    let (status, view) = send(
        app,
        "POST",
        "/api/today/trained",
        Some(json!({ "day": day, "kind": kind })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    view
}

fn ids(view: &Value) -> Vec<String> {
    view["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn the_dose_follows_the_learners_progress_and_the_days_puzzles_stay() {
    let data = data_folder("today", "dose");
    let app = app_with_data(Some(&data));
    let first = today(&app, "2026-12-07").await;
    assert_eq!(first["streak"], 0, "{first}");
    assert_eq!(first["trained"], json!([]));
    assert_eq!(first["lesson"]["course"], "rules");
    assert_eq!(first["lesson"]["id"], "board");
    assert_eq!(first["lesson"]["number"], 1);
    assert_eq!(first["ending"]["id"], "chariot-general");
    assert_eq!(first["ending"]["finished"], 0);
    let puzzles = ids(&first);
    assert_eq!(puzzles.len(), 3, "{first}");
    // Near a newcomer's rating (900), easiest first, none tried yet.
    let ratings: Vec<u64> = first["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rating"].as_u64().unwrap())
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] <= w[1]), "{ratings:?}");
    assert!(
        ratings.iter().all(|r| r.abs_diff(900) <= 300),
        "{ratings:?}"
    );
    assert!(
        first["puzzles"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["tried"] == false)
    );

    // The learner passes the first lesson and the first ending's positions.
    let (status, _) = send(
        &app,
        "PUT",
        "/api/progress/course",
        Some(json!({ "value": { "done": ["board"], "current": null, "solved": [] } })),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, endings) = send(&app, "GET", "/api/endgames", None).await;
    let chariot = endings
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "chariot-general")
        .unwrap()
        .clone();
    let positions = chariot["positions"].as_array().unwrap().len();
    let done: Vec<String> = (0..positions)
        .map(|i| format!("chariot-general#{i}"))
        .collect();
    let (status, _) = send(
        &app,
        "PUT",
        "/api/progress/endgames",
        Some(json!({ "value": { "done": done } })),
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    // One of the day's puzzles solved: it is said so, and the day keeps its three.
    let (status, result) = send(
        &app,
        "POST",
        "/api/puzzles/result",
        Some(json!({ "id": puzzles[1], "solved": true })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{result}");
    let after = trained(&app, "2026-12-07", "puzzle").await;
    assert_eq!(after["lesson"]["id"], "general", "{after}");
    assert_eq!(after["lesson"]["number"], 2);
    assert_ne!(after["ending"]["id"], "chariot-general", "{after}");
    assert_eq!(ids(&after), puzzles, "the day's puzzles stay the day's");
    assert_eq!(after["puzzles"][1]["tried"], true);
    assert_eq!(after["puzzles"][1]["solved"], true);
    assert_eq!(after["puzzles"][0]["tried"], false);
    assert!(after["rating"].as_f64().unwrap() > 900.0, "{after}");
    assert_eq!(after["trained"], json!(["puzzle"]));
    assert_eq!(after["streak"], 1);

    // The next day brings other puzzles, none of them the one tried.
    let next = today(&app, "2026-12-08").await;
    assert!(!ids(&next).contains(&puzzles[1]), "{next}");
    assert_eq!(
        next["streak"], 1,
        "yesterday's streak stands in the morning"
    );
    assert_eq!(next["trained"], json!([]));
    let _ = std::fs::remove_dir_all(&data);
}

#[tokio::test]
async fn days_in_a_row_make_the_streak_and_are_kept_across_a_restart() {
    let data = data_folder("today", "streak");
    {
        let app = app_with_data(Some(&data));
        trained(&app, "2026-12-30", "lesson").await;
        trained(&app, "2026-12-31", "ending").await;
        // Two pieces finished at once both count.
        let (a, b) = tokio::join!(
            trained(&app, "2027-01-01", "card"),
            trained(&app, "2027-01-01", "lesson")
        );
        assert!(a["streak"] == 3 || b["streak"] == 3, "{a} {b}");
    }
    let app = app_with_data(Some(&data));
    let view = today(&app, "2027-01-01").await;
    assert_eq!(view["trained"], json!(["lesson", "card"]), "{view}");
    assert_eq!(view["streak"], 3);
    assert_eq!(today(&app, "2027-01-02").await["streak"], 3);
    // A day missed ends it.
    assert_eq!(today(&app, "2027-01-03").await["streak"], 0);
    // The same piece twice counts once.
    let again = trained(&app, "2027-01-01", "card").await;
    assert_eq!(again["trained"], json!(["lesson", "card"]));
    let _ = std::fs::remove_dir_all(&data);
}

#[tokio::test]
async fn a_bad_day_or_kind_is_refused_saying_why() {
    let data = data_folder("today", "bad");
    let app = app_with_data(Some(&data));
    for path in [
        "/api/today?day=2026-13-01",
        "/api/today?day=2026-02-29",
        "/api/today?day=today",
        "/api/today",
        "/api/today?day=2026-12-07&lang=fr",
        "/api/today?day=2026-12-07&week=1",
    ] {
        let (status, err) = send(&app, "GET", path, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {err}");
        assert!(
            !err["error"]["message"].as_str().unwrap_or("").is_empty(),
            "{err}"
        );
    }
    let (_, err) = send(&app, "GET", "/api/today?day=2026-13-01", None).await;
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap()
            .contains("YYYY-MM-DD"),
        "{err}"
    );
    let (status, err) = send(
        &app,
        "POST",
        "/api/today/trained",
        Some(json!({ "day": "2026-12-07", "kind": "nap" })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert!(
        err["error"]["message"].as_str().unwrap().contains("nap"),
        "{err}"
    );
    let (status, err) = send(
        &app,
        "POST",
        "/api/today/trained",
        Some(json!({ "day": "7.12.2026", "kind": "lesson" })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    // Nothing refused was kept.
    assert_eq!(today(&app, "2026-12-07").await["trained"], json!([]));
    let _ = std::fs::remove_dir_all(&data);
}
