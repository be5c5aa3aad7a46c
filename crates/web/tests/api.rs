//! The HTTP API end to end through the router: games, moves, explanations, the engine,
//! undo/redo, the host check and bad requests.

mod common;

use axum::Router;
use axum::http::StatusCode;
use axum::http::header;
use common::{HOST, events, new_game, respond, send, send_raw};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use xiangqi_web::{AllowedHosts, ErrorCode, RecordFault, router};

fn app() -> Router {
    router(AllowedHosts::for_address("127.0.0.1", 8080))
}

async fn play(app: &Router, id: &str, from: &str, to: &str) -> (StatusCode, Value) {
    let path = format!("/api/games/{id}/move");
    send(app, "POST", &path, Some(json!({"from": from, "to": to}))).await
}

#[tokio::test]
async fn new_game_starts_from_the_initial_position() {
    let app = app();
    let game = new_game(&app, json!({})).await;
    assert_eq!(game["turn"], "red");
    assert_eq!(game["moves"].as_array().unwrap().len(), 0);
    assert_eq!(game["legal"]["h2"].as_array().unwrap().len(), 12);
    assert!(game["outcome"].is_null());
}

#[tokio::test]
async fn legal_move_is_played_and_written_in_every_notation() {
    let app = app();
    let game = new_game(&app, json!({})).await;
    let (status, game) = play(&app, game["id"].as_str().unwrap(), "h2", "e2").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(game["turn"], "black");
    let m = &game["last_move"];
    assert_eq!(m["iccs"], "h2e2");
    assert_eq!(m["wxf"], "C2=5");
    assert_eq!(m["chinese"], "炮二平五");
}

#[tokio::test]
async fn illegal_move_is_explained_with_points_to_highlight() {
    let app = app();
    let game = new_game(&app, json!({})).await;
    let (status, answer) = play(&app, game["id"].as_str().unwrap(), "b0", "b2").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(!message.is_empty());
    assert!(answer["error"]["code"].as_str().is_some());
}

#[tokio::test]
async fn engine_replies_at_beginner_level() {
    let app = app();
    let game = new_game(&app, json!({"moves": ["h2e2"]})).await;
    let path = format!("/api/games/{}/engine", game["id"].as_str().unwrap());
    let (status, answer) = send(&app, "POST", &path, Some(json!({"level": 0}))).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["game"]["turn"], "red");
    assert_eq!(answer["game"]["moves"].as_array().unwrap().len(), 2);
    assert!(answer["reply"]["iccs"].as_str().unwrap().len() == 4);
}

#[tokio::test]
async fn undo_and_redo_step_through_the_moves() {
    let app = app();
    let game = new_game(&app, json!({"moves": ["h2e2", "h9g7", "h0g2"]})).await;
    let id = game["id"].as_str().unwrap();
    let (_, undone) = send(
        &app,
        "POST",
        &format!("/api/games/{id}/undo"),
        Some(json!({"count": 2})),
    )
    .await;
    assert_eq!(undone["moves"].as_array().unwrap().len(), 1);
    assert_eq!(undone["redo"], json!(["h9g7", "h0g2"]));
    let (_, redone) = send(&app, "POST", &format!("/api/games/{id}/redo"), None).await;
    assert_eq!(redone["moves"].as_array().unwrap().len(), 2);
    assert_eq!(redone["redo"], json!(["h0g2"]));
    let (_, other) = play(&app, id, "b0", "c2").await;
    assert_eq!(other["redo"], json!([]));
}

#[tokio::test]
async fn mate_ends_the_game_with_the_reason() {
    let app = app();
    // Red's chariot mates on the back rank: the black general cannot leave e9's file.
    let game = new_game(&app, json!({"fen": "3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1"})).await;
    let (status, over) = play(&app, game["id"].as_str().unwrap(), "a0", "a9").await;
    assert_eq!(status, StatusCode::OK, "{over}");
    assert_eq!(over["outcome"]["result"], "red-wins");
    assert_eq!(over["outcome"]["code"], "checkmate");
    let (status, _) = play(&app, game["id"].as_str().unwrap(), "d9", "e9").await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn bad_fen_is_refused_with_the_rules_reason() {
    let app = app();
    let (status, answer) = send(&app, "POST", "/api/games", Some(json!({"fen": "9/9/9 w"}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("rank")
    );
    let (status, check) = send(
        &app,
        "POST",
        "/api/fen",
        Some(json!({"fen": "4k4/9/9/9/9/9/9/9/9/9 w"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(check["valid"], false);
    assert_eq!(check["code"], "fen-missing-general");
    assert_eq!(check["params"], json!({ "side": "red" }));
}

#[tokio::test]
async fn fen_faults_carry_their_code_and_blanks() {
    let app = app();
    let (status, answer) = send(&app, "POST", "/api/games", Some(json!({"fen": "9/9/9 w"}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(answer["error"]["code"], "bad-fen");
    assert_eq!(
        answer["error"]["params"],
        json!({ "reason": "fen-rank-count", "found": 3 })
    );
    let fen = "4k4/9/9/9/9/9/9/9/9/3K4A w";
    let (_, check) = send(&app, "POST", "/api/fen", Some(json!({ "fen": fen }))).await;
    assert_eq!(check["code"], "fen-unreachable-point");
    assert_eq!(
        check["params"],
        json!({ "side": "red", "piece": "A", "square": "i0" })
    );
    let (_, good) = send(
        &app,
        "POST",
        "/api/fen",
        Some(json!({"fen": "4k4/9/9/9/9/9/9/9/9/3K5 w"})),
    )
    .await;
    assert_eq!(good["valid"], true);
    assert!(good["code"].is_null());
}

#[tokio::test]
async fn refusals_carry_their_code_and_blanks() {
    let app = app();
    let (status, answer) = send(
        &app,
        "POST",
        "/api/games/nosuch/move",
        Some(json!({"from": "h2", "to": "e2"})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(answer["error"]["code"], "no-game");
    let (status, answer) = send_raw(
        &app,
        "POST",
        "/api/games/import?name=a.pgn",
        HOST,
        Some("  \n".into()),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(answer["error"]["code"], "bad-record");
    assert_eq!(answer["error"]["params"], json!({ "what": "empty-file" }));
    let cut = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. H2-E";
    let (status, answer) = send_raw(
        &app,
        "POST",
        "/api/games/import?name=a.pgn",
        HOST,
        Some(cut.into()),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert_eq!(answer["error"]["code"], "bad-record");
    let params = &answer["error"]["params"];
    assert!(
        params["what"] == "truncated" || params["what"] == "syntax",
        "{params}"
    );
    assert_eq!(params["line"], 4, "{params}");
    assert!(params["column"].as_u64().unwrap() > 1, "{params}");
}

#[tokio::test]
async fn foreign_host_header_is_rejected() {
    let app = app();
    let (status, answer) = send_raw(&app, "GET", "/", "evil.example:8080", None).await;
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
    assert_eq!(answer["error"]["code"], "bad-host");
    let (status, _) = send_raw(&app, "GET", "/api/levels", "localhost:8080", None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = send_raw(&app, "GET", "/api/levels", "127.0.0.1:9999", None).await;
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
}

#[tokio::test]
async fn bad_json_gets_a_client_error_with_a_message() {
    let app = app();
    let (status, answer) = send_raw(&app, "POST", "/api/games", HOST, Some("{oops".into())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("JSON")
    );
    let game = new_game(&app, json!({})).await;
    let path = format!("/api/games/{}/move", game["id"].as_str().unwrap());
    let (status, _) = send(&app, "POST", &path, Some(json!({"from": "z9", "to": "e2"}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = send(
        &app,
        "POST",
        "/api/games/nope/move",
        Some(json!({"from": "h2", "to": "e2"})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn two_games_are_independent() {
    let app = app();
    let a = new_game(&app, json!({})).await;
    let b = new_game(&app, json!({})).await;
    assert_ne!(a["id"], b["id"]);
    play(&app, a["id"].as_str().unwrap(), "h2", "e2").await;
    let (_, b_now) = send(
        &app,
        "GET",
        &format!("/api/games/{}", b["id"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(b_now["moves"].as_array().unwrap().len(), 0);
    let (_, a_now) = send(
        &app,
        "GET",
        &format!("/api/games/{}", a["id"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(a_now["moves"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn hint_suggests_a_legal_move() {
    let app = app();
    let game = new_game(&app, json!({})).await;
    let path = format!("/api/games/{}/hint", game["id"].as_str().unwrap());
    let (status, hint) = send(&app, "POST", &path, None).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    let from = hint["hint"]["from"].as_str().unwrap();
    assert!(
        game["legal"][from]
            .as_array()
            .unwrap()
            .contains(&hint["hint"]["to"])
    );
}

#[tokio::test]
async fn a_hint_says_what_its_move_threatens() {
    use xiangqi_rules::{Color, Position, Square};
    let app = app();
    // A lone red horse against a chariot: its only move that does not lose is the fork c5d7,
    // which checks the general and attacks the chariot (nothing can block the horse's leg);
    // the hint names the chariot, the more valuable of the two, where it stands.
    let game = new_game(
        &app,
        json!({"fen": "4k4/9/9/5r3/2N6/9/9/9/9/3K5 w - - 0 1"}),
    )
    .await;
    let path = format!("/api/games/{}/hint", game["id"].as_str().unwrap());
    let (status, hint) = send(&app, "POST", &path, None).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    let threat = &hint["threat"];
    assert_eq!(hint["hint"]["from"], "c5", "{hint}");
    assert_eq!(hint["hint"]["to"], "d7", "{hint}");
    assert!(threat.is_object(), "the fork attacks something: {hint}");
    assert_eq!(threat["square"], "f6", "{hint}");
    let after = Position::from_fen(hint["hint"]["fen"].as_str().unwrap()).unwrap();
    let square: Square = threat["square"].as_str().unwrap().parse().unwrap();
    let piece = after
        .piece_at(square)
        .expect("the threatened piece stands there");
    assert_eq!(piece.color, Color::Black, "{hint}");
    assert_eq!(threat["piece"], piece.fen_char().to_string(), "{hint}");
    // What it does, most important first: no end, no capture, a check, and the chariot.
    let effect = &hint["effect"];
    assert_eq!(effect["ends"], Value::Null, "{hint}");
    assert_eq!(effect["captures"], Value::Null, "{hint}");
    assert_eq!(effect["check"], true, "{hint}");
    assert_eq!(effect["threat"]["square"], "f6", "{hint}");
    let to: Square = hint["hint"]["to"].as_str().unwrap().parse().unwrap();
    assert!(
        after
            .attackers_to(square, Color::Red, after.occupied())
            .contains(to),
        "the hinted piece is the one that attacks it: {hint}"
    );
}

#[tokio::test]
async fn static_page_is_served_with_its_modules() {
    let app = app();
    for path in ["/", "/js/main.js", "/style.css"] {
        let response = respond(&app, "GET", path, None).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
    }
}

#[tokio::test]
async fn the_page_names_versioned_files_that_are_cached_for_good() {
    let app = app();
    let get = |path: String| {
        let app = app.clone();
        async move {
            let response = respond(&app, "GET", &path, None).await;
            let status = response.status();
            let cache = response
                .headers()
                .get(header::CACHE_CONTROL)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            let body = response.into_body().collect().await.unwrap().to_bytes();
            (status, cache, String::from_utf8_lossy(&body).into_owned())
        }
    };
    let (status, cache, page) = get("/".into()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(cache, "no-cache");
    let version = xiangqi_web::assets::version();
    let main = format!("/v/{version}/js/main.js");
    assert!(page.contains(&format!("\"{main}\"")), "{page}");
    assert!(page.contains(&format!("\"/v/{version}/style.css\"")));
    let (status, cache, body) = get(main).await;
    assert_eq!(status, StatusCode::OK);
    assert!(cache.contains("immutable"), "{cache}");
    assert!(body.contains("import"));
    let (status, cache, _) = get("/v/0000/js/main.js".into()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(cache, "no-cache");
    let (status, _, _) = get(format!("/v/{version}/js/none.js")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn reasons_carry_their_blanks_for_translation() {
    let app = app();
    let game = new_game(&app, json!({})).await;
    let id = game["id"].as_str().unwrap();
    let (status, answer) = play(&app, id, "b0", "d1").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(answer["error"]["code"], "horse-leg-blocked");
    assert_eq!(answer["error"]["params"], json!({"point": "c0"}));
    let chase = new_game(
        &app,
        json!({
            "fen": "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
            "moves": "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2".split(' ').collect::<Vec<_>>(),
        }),
    )
    .await;
    let outcome = &chase["outcome"];
    assert_eq!(outcome["code"], "perpetual-chase");
    assert_eq!(outcome["params"]["loser"], "red");
    assert_eq!(outcome["params"]["first"], 1);
    assert_eq!(outcome["params"]["pieces"][0]["piece"], "r");
}

#[tokio::test]
async fn engine_on_a_clock_answers_within_its_time() {
    let app = app();
    let game = new_game(&app, json!({"moves": ["h2e2"]})).await;
    let path = format!("/api/games/{}/engine", game["id"].as_str().unwrap());
    let started = std::time::Instant::now();
    let body = json!({"level": 20, "clock_ms": 2000, "increment_ms": 0});
    let (status, answer) = send(&app, "POST", &path, Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["game"]["moves"].as_array().unwrap().len(), 2);
    assert!(started.elapsed() < std::time::Duration::from_millis(1500));
}

#[tokio::test]
async fn analysis_streams_deepening_lines_and_ends() {
    let app = app();
    let game = new_game(&app, json!({})).await;
    let path = format!(
        "/api/games/{}/analysis?lines=2&millis=400",
        game["id"].as_str().unwrap()
    );
    let updates: Vec<Value> = events(&app, &path)
        .await
        .into_iter()
        .map(|(_, d)| d)
        .collect();
    assert!(updates.len() >= 2, "{updates:?}");
    let last = updates.last().unwrap();
    assert_eq!(last["done"], true);
    assert_eq!(last["lines"].as_array().unwrap().len(), 2);
    let depths: Vec<i64> = updates
        .iter()
        .filter_map(|u| u["lines"][0]["depth"].as_i64())
        .collect();
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    assert!(depths.last().unwrap() > depths.first().unwrap());
    let (status, _) = send(&app, "GET", "/api/games/none/analysis?lines=1", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// The page's words for the server's codes in `language`: its table's group `group`.
fn page_words(language: &str, group: &str) -> serde_json::Map<String, Value> {
    let path = format!("{}/static/i18n/{language}.json", env!("CARGO_MANIFEST_DIR"));
    let table: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    table[group]
        .as_object()
        .unwrap_or_else(|| panic!("{path} has no {group}"))
        .clone()
}

/// Every FEN fault the rules core can name, every error code the server sends, every record
/// fault and every reason the archive gives is worded in Russian and in Chinese by the page
/// (each has its text in both `errors` tables; English is the server's own message, or the
/// English table's text where the page words it otherwise).
#[test]
fn the_page_words_every_error_code_in_each_language() {
    let fens = [
        "",
        "9/9 w",
        "4k4/9/9/9/9/9/9/9/9/3K4 w",
        "4k4/9/9/9/9/9/9/9/9/3K4x w",
        "9/9/9/9/9/9/9/9/9/3K5 w",
        "3kk4/9/9/9/9/9/9/9/9/3K5 w",
        "4k4/9/9/9/9/9/9/9/RRR6/3K5 w",
        "4k4/9/4R4/9/9/9/9/9/9/3K5 w",
        "4k4/9/9/9/9/9/9/9/9/4K4 w",
        "4k4/9/9/9/9/9/9/9/9/3K5",
        "4k4/9/9/9/9/9/9/9/9/3K5 x",
        "4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1",
        "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 0",
        "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 extra",
    ];
    let mut keys: Vec<String> = fens
        .iter()
        .map(|fen| {
            xiangqi_rules::Position::from_fen(fen)
                .expect_err(fen)
                .code()
                .to_string()
        })
        .collect();
    let distinct: std::collections::HashSet<&String> = keys.iter().collect();
    assert_eq!(distinct.len(), fens.len(), "one FEN per fault: {keys:?}");
    keys.extend(
        [
            "unreachable.palace",
            "unreachable.elephant",
            "unreachable.soldier",
        ]
        .map(String::from),
    );
    // Every code the server answers with; an illegal move is answered with its rule's code,
    // worded under `reasons` (checked in `reasons.rs`' tests of the page's tables).
    keys.extend(
        ErrorCode::ALL
            .iter()
            .filter(|code| **code != ErrorCode::IllegalMove)
            .map(|code| code.code().to_string()),
    );
    keys.extend(
        RecordFault::ALL
            .iter()
            .map(|fault| format!("record.{}", fault.code())),
    );
    keys.extend(xiangqi_web::archive_reasons().map(String::from));
    for language in ["ru", "zh"] {
        let words = page_words(language, "errors");
        let missing: Vec<&String> = keys
            .iter()
            .filter(|key| {
                let text = words.get(*key).and_then(Value::as_str).unwrap_or("");
                text.trim().is_empty()
            })
            .collect();
        assert!(missing.is_empty(), "not worded in {language}: {missing:?}");
    }
}

#[tokio::test]
async fn every_error_answer_is_the_json_error_shape() {
    let app = app();
    let game = new_game(&app, json!({})).await;
    let id = game["id"].as_str().unwrap();
    let cases: [(&str, String, Option<String>, StatusCode, &str); 7] = [
        (
            "PUT",
            "/api/games".into(),
            None,
            StatusCode::METHOD_NOT_ALLOWED,
            "method-not-allowed",
        ),
        (
            "DELETE",
            "/api/levels".into(),
            None,
            StatusCode::METHOD_NOT_ALLOWED,
            "method-not-allowed",
        ),
        (
            "GET",
            "/api/nothing".into(),
            None,
            StatusCode::NOT_FOUND,
            "not-found",
        ),
        (
            "GET",
            "/js/nothing.js".into(),
            None,
            StatusCode::NOT_FOUND,
            "not-found",
        ),
        (
            "GET",
            "/api/archive/games/abc".into(),
            None,
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(format!("{{\"fen\": \"{}\"}}", "x".repeat(70_000))),
            StatusCode::PAYLOAD_TOO_LARGE,
            "too-large",
        ),
        (
            "POST",
            format!("/api/games/{id}/redo"),
            Some("null".into()),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
    ];
    for (method, path, body, status, code) in cases {
        let response = common::respond_raw(&app, method, &path, HOST, body).await;
        let got = response.status();
        let allow = response.headers().get(header::ALLOW).cloned();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let answer: Value = serde_json::from_slice(&bytes).unwrap_or_else(|_| {
            panic!(
                "{method} {path}: not JSON: {}",
                String::from_utf8_lossy(&bytes)
            )
        });
        assert_eq!(got, status, "{method} {path}: {answer}");
        assert_eq!(answer["error"]["code"], code, "{method} {path}: {answer}");
        assert!(!answer["error"]["message"].as_str().unwrap().is_empty());
        if status == StatusCode::METHOD_NOT_ALLOWED {
            assert!(allow.is_some(), "{method} {path}: the Allow header is kept");
        }
    }
}

#[tokio::test]
async fn undo_and_redo_take_no_body_an_object_or_refuse_anything_else() {
    let app = app();
    let game = new_game(&app, json!({"moves": ["h2e2", "h9g7", "h0g2", "i9h9"]})).await;
    let id = game["id"].as_str().unwrap();
    let step = |what: &'static str, body: Option<&'static str>| {
        let app = app.clone();
        let path = format!("/api/games/{id}/{what}");
        async move { send_raw(&app, "POST", &path, HOST, body.map(String::from)).await }
    };
    let moves = |view: &Value| view["moves"].as_array().map_or(usize::MAX, Vec::len);
    let (status, view) = step("undo", None).await;
    assert_eq!(
        (status, moves(&view)),
        (StatusCode::OK, 3),
        "no body: one move"
    );
    let (status, view) = step("undo", Some("{}")).await;
    assert_eq!(
        (status, moves(&view)),
        (StatusCode::OK, 2),
        "{{}}: one move"
    );
    let (status, view) = step("redo", Some("{\"count\": 2}")).await;
    assert_eq!((status, moves(&view)), (StatusCode::OK, 4));
    let version = view["version"].clone();
    for bad in [
        "[]",
        "null",
        "3",
        "{\"count\": 0}",
        "{\"count\": 100000}",
        "{\"steps\": 1}",
    ] {
        let (status, err) = step("undo", Some(bad)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {err}");
        assert_eq!(err["error"]["code"], "bad-request", "{bad}");
    }
    // Nothing to redo changes nothing.
    let (status, view) = step("redo", None).await;
    assert_eq!((status, moves(&view)), (StatusCode::OK, 4));
    assert_eq!(view["version"], version, "no change, no new version");
}

#[tokio::test]
async fn searches_past_the_servers_limits_are_refused_naming_the_limit() {
    let app = app();
    let game = new_game(&app, json!({})).await;
    let id = game["id"].as_str().unwrap();
    let engine = format!("/api/games/{id}/engine");
    let refusals = [
        (
            "POST",
            engine.clone(),
            Some(json!({"level": 20, "clock_ms": 1_000_000_000_000u64})),
        ),
        (
            "POST",
            engine.clone(),
            Some(json!({"level": 20, "clock_ms": 60_000, "increment_ms": 3_600_000})),
        ),
        (
            "POST",
            format!("/api/games/{id}/analyse"),
            Some(json!({"lines": 1, "millis": 70_000})),
        ),
        (
            "GET",
            format!("/api/games/{id}/analysis?lines=1&millis=70000"),
            None,
        ),
        ("GET", format!("/api/games/{id}/review?millis=6000"), None),
        ("GET", format!("/api/games/{id}/review?depth=31"), None),
    ];
    for (method, path, body) in refusals {
        let (status, err) = send(&app, method, &path, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path} {body:?}: {err}");
        assert_eq!(err["error"]["code"], "over-limit", "{path}: {err}");
        assert!(err["error"]["params"]["max"].is_number(), "{err}");
    }
    // Within the limits the engine answers.
    let (status, reply) = send(
        &app,
        "POST",
        &engine,
        Some(json!({"level": 0, "clock_ms": 60_000})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
}

#[tokio::test]
async fn every_answer_carries_the_security_headers_and_the_page_has_no_inline_script() {
    let app = app();
    for path in ["/", "/js/main.js", "/api/levels", "/api/games/none"] {
        let response = respond(&app, "GET", path, None).await;
        let headers = response.headers();
        let policy = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(policy.contains("script-src 'self';"), "{path}: {policy}");
        assert!(
            policy.contains("frame-ancestors 'none'"),
            "{path}: {policy}"
        );
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{path}");
        assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY", "{path}");
        assert_eq!(headers[header::REFERRER_POLICY], "same-origin", "{path}");
    }
    let page = respond(&app, "GET", "/", None).await;
    let html = String::from_utf8(
        page.into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec(),
    )
    .unwrap();
    // Every script is a file of the app's: the policy allows no inline one.
    for tag in html.split("<script").skip(1) {
        let head = &tag[..tag.find('>').unwrap()];
        assert!(head.contains("src="), "an inline script: <script{head}>");
    }
    assert!(html.contains("<script src=\"/early.js\">"), "{html}");
}

#[tokio::test]
async fn a_hint_that_mates_or_takes_with_check_says_so() {
    let app = app();
    let hint_for = |fen: &'static str| {
        let app = app.clone();
        async move {
            let game = new_game(&app, json!({ "fen": fen })).await;
            let path = format!("/api/games/{}/hint", game["id"].as_str().unwrap());
            let (status, hint) = send(&app, "POST", &path, None).await;
            assert_eq!(status, StatusCode::OK, "{hint}");
            hint
        }
    };
    // The chariot mates on the ninth rank.
    let mate = hint_for("3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1").await;
    assert_eq!(mate["hint"]["iccs"], "a0a9", "{mate}");
    assert_eq!(mate["effect"]["ends"], "checkmate", "{mate}");
    // The chariot takes the cannon on e6 with check; nothing else wins as much.
    let take = hint_for("4k4/9/9/4c4/9/9/9/9/9/3KR4 w - - 0 1").await;
    assert_eq!(take["hint"]["iccs"], "e0e6", "{take}");
    assert_eq!(take["effect"]["captures"]["piece"], "c", "{take}");
    assert_eq!(take["effect"]["check"], true, "{take}");
}
