//! Games as files through the router: exporting a game in every record format, importing
//! record files (several games, cut-off files, bad input) and the size limit of imports.

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;
use xiangqi_web::{AllowedHosts, router};

const HOST: &str = "127.0.0.1:8080";

/// Moves of a short opening, ICCS.
const OPENING: [&str; 6] = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"];

fn app() -> Router {
    router(AllowedHosts::for_address("127.0.0.1", 8080))
}

/// A request's answer: status, headers and body bytes.
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    bytes: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.bytes).unwrap_or(Value::Null)
    }

    fn header(&self, name: header::HeaderName) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    fn message(&self) -> String {
        self.json()["error"]["message"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }
}

async fn request(app: &Router, method: &str, path: &str, body: Vec<u8>, json: bool) -> Answer {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, HOST);
    if json {
        request = request.header(header::CONTENT_TYPE, "application/json");
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::from(body)).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response
        .into_body()
        .collect()
        .await
        .map(|b| b.to_bytes().to_vec())
        .unwrap_or_default();
    Answer {
        status,
        headers,
        bytes,
    }
}

async fn new_game(app: &Router, body: Value) -> Value {
    let answer = request(
        app,
        "POST",
        "/api/games",
        body.to_string().into_bytes(),
        true,
    )
    .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.json());
    answer.json()
}

async fn export(app: &Router, id: &str, query: &str) -> Answer {
    request(
        app,
        "GET",
        &format!("/api/games/{id}/record?{query}"),
        Vec::new(),
        false,
    )
    .await
}

async fn import(app: &Router, query: &str, bytes: Vec<u8>) -> Answer {
    request(
        app,
        "POST",
        &format!("/api/games/import?{query}"),
        bytes,
        false,
    )
    .await
}

fn iccs_moves(game: &Value) -> Vec<String> {
    game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap().to_string())
        .collect()
}

fn assert_bad_record(answer: &Answer) {
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.json()
    );
    assert_eq!(answer.json()["error"]["code"], "bad-record");
    assert!(!answer.message().is_empty());
}

/// A PGN game in ICCS notation with `moves` (`H2-E2` style) and a result.
fn pgn_game(event: &str, moves: &str) -> String {
    format!(
        "[Game \"Chinese Chess\"]\n[Event \"{event}\"]\n[Result \"*\"]\n[Format \"ICCS\"]\n\n{moves} *\n\n"
    )
}

#[tokio::test]
async fn every_format_round_trips_the_moves_played() {
    let app = app();
    let game = new_game(&app, json!({"moves": OPENING, "redo": ["c3c4"]})).await;
    let id = game["id"].as_str().unwrap();
    assert_eq!(game["redo"], json!(["c3c4"]));
    for (format, content_type, ext) in [
        ("pgn-iccs", "application/x-chess-pgn; charset=utf-8", "pgn"),
        ("pgn-wxf", "application/x-chess-pgn; charset=utf-8", "pgn"),
        (
            "pgn-chinese",
            "application/x-chess-pgn; charset=utf-8",
            "pgn",
        ),
        ("xqf", "application/octet-stream", "xqf"),
        ("dhtmlxq", "text/plain; charset=utf-8", "txt"),
    ] {
        let file = export(&app, id, &format!("format={format}&red=Lü%20Qin&black=Hu")).await;
        assert_eq!(file.status, StatusCode::OK, "{format}: {}", file.json());
        if format.starts_with("pgn") {
            let text = String::from_utf8_lossy(&file.bytes);
            assert!(
                text.contains("[ECCO \"") && text.contains("[Opening \""),
                "{format}: the opening is named: {text}"
            );
        }
        assert_eq!(file.header(header::CONTENT_TYPE), content_type);
        let disposition = file.header(header::CONTENT_DISPOSITION);
        assert!(
            disposition.starts_with("attachment; filename=\"xiangqi-")
                && disposition.ends_with(&format!(".{ext}\""))
                && disposition.len()
                    == "attachment; filename=\"xiangqi-YYYYMMDD.\"".len() + ext.len(),
            "{disposition}"
        );
        let loaded = import(&app, &format!("name=game.{ext}"), file.bytes).await;
        assert_eq!(
            loaded.status,
            StatusCode::CREATED,
            "{format}: {}",
            loaded.json()
        );
        let answer = loaded.json();
        assert_eq!(iccs_moves(&answer["game"]), OPENING, "{format}");
        assert_eq!(answer["game"]["fen"], game["fen"], "{format}");
        assert_eq!(answer["game"]["start_fen"], game["start_fen"], "{format}");
        assert_eq!(answer["game"]["redo"], json!([]));
        assert_ne!(answer["game"]["id"], game["id"]);
        assert_eq!(answer["games"], 1);
        assert_eq!(answer["index"], 0);
        assert!(answer["warning"].is_null());
        assert_eq!(answer["tags"]["Red"], "Lü Qin", "{format}");
        assert_eq!(answer["tags"]["Black"], "Hu", "{format}");
        assert!(
            answer["tags"]["Date"].as_str().unwrap().len() >= 8,
            "{format}"
        );
    }
}

#[tokio::test]
async fn the_default_format_is_pgn_wxf() {
    let app = app();
    let game = new_game(&app, json!({"moves": ["h2e2"]})).await;
    let file = export(&app, game["id"].as_str().unwrap(), "").await;
    assert_eq!(file.status, StatusCode::OK);
    let text = String::from_utf8(file.bytes).unwrap();
    assert!(text.contains("[Format \"WXF\"]"), "{text}");
    assert!(text.contains("C2=5"), "{text}");
    assert!(text.contains("[Event \""), "{text}");
    assert!(text.contains("[Date \""), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
}

#[tokio::test]
async fn a_set_up_position_round_trips() {
    let app = app();
    let fen = "3k5/9/3P5/9/9/9/9/9/4A4/R3K4 b - - 0 1";
    let game = new_game(&app, json!({"fen": fen, "moves": ["d9e9", "a0a9"]})).await;
    let id = game["id"].as_str().unwrap();
    for (format, ext) in [("pgn-chinese", "pgn"), ("xqf", "xqf"), ("dhtmlxq", "txt")] {
        let file = export(&app, id, &format!("format={format}")).await;
        assert_eq!(file.status, StatusCode::OK, "{format}");
        let loaded = import(&app, &format!("name=x.{ext}"), file.bytes).await;
        assert_eq!(
            loaded.status,
            StatusCode::CREATED,
            "{format}: {}",
            loaded.json()
        );
        let answer = loaded.json();
        assert_eq!(answer["game"]["start_fen"], game["start_fen"], "{format}");
        assert_eq!(answer["game"]["fen"], game["fen"], "{format}");
        assert_eq!(iccs_moves(&answer["game"]), ["d9e9", "a0a9"], "{format}");
    }
}

#[tokio::test]
async fn a_finished_game_has_its_result_and_reason() {
    let app = app();
    let game = new_game(
        &app,
        json!({"fen": "3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": ["a0a9"]}),
    )
    .await;
    assert_eq!(game["outcome"]["code"], "checkmate");
    let id = game["id"].as_str().unwrap();
    let file = export(&app, id, "format=pgn-iccs").await;
    let text = String::from_utf8(file.bytes.clone()).unwrap();
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("checkmated"), "{text}");
    let loaded = import(&app, "name=mate.pgn", file.bytes).await;
    assert_eq!(loaded.status, StatusCode::CREATED, "{}", loaded.json());
    let answer = loaded.json();
    assert_eq!(answer["result"], "1-0");
    assert_eq!(answer["game"]["outcome"]["code"], "checkmate");
    for format in ["xqf", "dhtmlxq"] {
        let file = export(&app, id, &format!("format={format}")).await;
        let loaded = import(&app, "", file.bytes).await;
        assert_eq!(loaded.status, StatusCode::CREATED, "{format}");
        assert_eq!(loaded.json()["result"], "1-0", "{format}");
    }
}

#[tokio::test]
async fn a_game_of_a_multi_game_pgn_is_chosen_by_index() {
    let app = app();
    let pgn = [
        pgn_game("First", "1. H2-E2 H9-G7"),
        pgn_game("Second", "1. B2-E2 B9-C7 2. B0-C2"),
        pgn_game("Third", "1. C3-C4"),
    ]
    .concat();
    let loaded = import(&app, "name=games.pgn&index=1", pgn.clone().into_bytes()).await;
    assert_eq!(loaded.status, StatusCode::CREATED, "{}", loaded.json());
    let answer = loaded.json();
    assert_eq!(answer["games"], 3);
    assert_eq!(answer["index"], 1);
    assert_eq!(answer["tags"]["Event"], "Second");
    assert_eq!(iccs_moves(&answer["game"]), ["b2e2", "b9c7", "b0c2"]);
    let first = import(&app, "name=games.pgn", pgn.clone().into_bytes()).await;
    assert_eq!(first.json()["tags"]["Event"], "First");
    let missing = import(&app, "name=games.pgn&index=3", pgn.into_bytes()).await;
    assert_bad_record(&missing);
    assert!(
        missing.message().contains("3 games"),
        "{}",
        missing.message()
    );
}

#[tokio::test]
async fn a_truncated_pgn_loads_the_moves_before_the_cut_with_a_warning() {
    let app = app();
    let text =
        "[Game \"Chinese Chess\"]\n[Event \"Cut\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2";
    let loaded = import(&app, "name=cut.pgn", text.as_bytes().to_vec()).await;
    assert_eq!(loaded.status, StatusCode::CREATED, "{}", loaded.json());
    let answer = loaded.json();
    assert_eq!(iccs_moves(&answer["game"]), ["h2e2", "h9g7", "h0g2"]);
    assert_eq!(answer["tags"]["Event"], "Cut");
    let warning = &answer["warning"];
    assert_eq!(warning["code"], "bad-record", "{warning}");
    assert_eq!(warning["params"]["what"], "truncated", "{warning}");
    assert!(warning["params"]["line"].as_u64().is_some(), "{warning}");
    let message = warning["message"].as_str().unwrap();
    assert!(message.contains("cut off"), "{message}");
}

#[tokio::test]
async fn a_truncated_xqf_loads_the_moves_before_the_cut_with_a_warning() {
    let app = app();
    let game = new_game(&app, json!({"moves": OPENING})).await;
    let file = export(&app, game["id"].as_str().unwrap(), "format=xqf").await;
    let mut bytes = file.bytes;
    // Cut the last move off in the middle of its record.
    bytes.truncate(bytes.len() - 4);
    let loaded = import(&app, "name=cut.xqf", bytes).await;
    assert_eq!(loaded.status, StatusCode::CREATED, "{}", loaded.json());
    let answer = loaded.json();
    let moves = iccs_moves(&answer["game"]);
    assert!(
        !moves.is_empty() && moves.len() < OPENING.len(),
        "{moves:?}"
    );
    assert_eq!(moves, OPENING[..moves.len()]);
    let warning = &answer["warning"];
    assert_eq!(warning["params"]["what"], "truncated", "{warning}");
    assert!(warning["params"]["byte"].as_u64().is_some(), "{warning}");
    let message = warning["message"].as_str().unwrap();
    assert!(message.contains("byte offset"), "{message}");
}

#[tokio::test]
async fn a_file_cut_off_before_any_move_is_refused() {
    let app = app();
    let game = new_game(&app, json!({"moves": OPENING})).await;
    let file = export(&app, game["id"].as_str().unwrap(), "format=xqf").await;
    let header_only = file.bytes[..0x300].to_vec();
    assert_bad_record(&import(&app, "name=cut.xqf", header_only).await);
}

#[tokio::test]
async fn garbage_is_refused_with_what_and_where() {
    let app = app();
    for (name, bytes) in [
        ("junk.pgn", b"[Event \"x\"\n1. Zz9-Q1 ]]]".to_vec()),
        ("junk.xqf", b"XQ\x0a\xff\x00\x13garbage".to_vec()),
        (
            "junk.bin",
            vec![0xff, 0xfe, 0xfd, 0x00, 0x81, 0x7f, 0x20, 0x9c],
        ),
    ] {
        let answer = import(&app, &format!("name={name}"), bytes).await;
        assert_bad_record(&answer);
        let message = answer.message();
        assert!(
            message.contains("line") || message.contains("byte") || message.contains("UTF-8"),
            "{name}: {message}"
        );
    }
}

#[tokio::test]
async fn an_illegal_move_in_a_record_is_named_with_the_rules_reason() {
    let app = app();
    let pgn = pgn_game("Bad", "1. H2-E2 H9-G7 2. A0-A9");
    let answer = import(&app, "name=bad.pgn", pgn.into_bytes()).await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    // The code and blanks are those the play API gives for the same move.
    let error = &answer.json()["error"];
    assert_eq!(error["code"], "chariot-path-blocked", "{error}");
    assert_eq!(error["params"]["point"], "a3", "{error}");
    assert_eq!(error["highlights"], json!(["a3"]), "{error}");
    assert_eq!(error["params"]["move"], "2.", "{error}");
    assert_eq!(error["params"]["text"], "A0-A9", "{error}");
    assert_eq!(error["params"]["line"], 6, "{error}");
    let message = answer.message();
    assert!(message.contains("2."), "{message}");
    assert!(message.contains("line 6"), "{message}");
    assert!(!message.contains("partial"), "{message}");
    let played = new_game(&app, json!({"moves": ["h2e2", "h9g7"]})).await;
    let id = played["id"].as_str().unwrap();
    let body = json!({ "from": "a0", "to": "a9" }).to_string().into_bytes();
    let refused = request(&app, "POST", &format!("/api/games/{id}/move"), body, true).await;
    assert_eq!(refused.json()["error"]["code"], error["code"]);
    assert_eq!(
        refused.json()["error"]["params"]["point"],
        error["params"]["point"]
    );
}

#[tokio::test]
async fn a_broken_game_of_a_collection_is_named_and_the_others_open() {
    let app = app();
    let pgn = [
        pgn_game("First", "1. H2-E2 H9-G7"),
        pgn_game("Second", "1. H2-E2 H9-G7 2. A0-A9"),
        pgn_game("Third", "1. C3-C4"),
    ]
    .concat();
    let third = import(&app, "name=games.pgn&index=2", pgn.clone().into_bytes()).await;
    assert_eq!(third.status, StatusCode::CREATED, "{}", third.json());
    let answer = third.json();
    assert_eq!(answer["games"], 3);
    assert_eq!(iccs_moves(&answer["game"]), ["c3c4"]);
    let unreadable = answer["unreadable"].as_array().unwrap();
    assert_eq!(unreadable.len(), 1, "{answer}");
    let broken = &unreadable[0];
    assert_eq!(broken["code"], "chariot-path-blocked", "{broken}");
    assert_eq!(broken["params"]["game"], 2, "{broken}");
    assert_eq!(broken["params"]["line"], 13, "{broken}");
    let message = broken["message"].as_str().unwrap();
    assert!(message.contains("game 2, line 13"), "{message}");
    let second = import(&app, "name=games.pgn&index=1", pgn.into_bytes()).await;
    assert_eq!(second.json()["error"]["code"], "chariot-path-blocked");
    assert_eq!(second.json()["error"]["params"]["game"], 2);
}

#[tokio::test]
async fn text_after_the_last_game_is_skipped_with_a_warning() {
    let app = app();
    let pgn = format!(
        "{}======================\r\nhttp://www.example.com/\r\n",
        pgn_game("Only", "1. H2-E2 H9-G7").replace('\n', "\r\n")
    );
    let answer = import(&app, "name=site.pgn", pgn.into_bytes()).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.json());
    let answer = answer.json();
    assert_eq!(answer["games"], 1);
    assert!(answer["warning"].is_null());
    let warnings = answer["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{answer}");
    let warning = &warnings[0];
    assert_eq!(warning["code"], "skipped-text", "{warning}");
    assert_eq!(warning["params"]["line"], 8, "{warning}");
    let text = warning["params"]["text"].as_str().unwrap();
    assert!(text.contains("====="), "{text}");
    let message = warning["message"].as_str().unwrap();
    assert!(message.contains("line 8"), "{message}");
}

#[tokio::test]
async fn a_download_names_what_the_format_could_not_hold() {
    let app = app();
    let game = new_game(&app, json!({"moves": OPENING})).await;
    let id = game["id"].as_str().unwrap();
    let long = "广东碧桂园象棋队特级大师许银川";
    let query = format!("format=xqf&red={}", urlencode(long));
    let file = export(&app, id, &query).await;
    assert_eq!(file.status, StatusCode::OK);
    let warnings: Vec<Value> =
        serde_json::from_str(file.header(header::HeaderName::from_static("x-record-warnings")))
            .unwrap();
    assert!(
        warnings.iter().any(|w| w["code"] == "tag-cut"
            && w["params"]["tag"] == "Red"
            && w["params"]["kept"]
                .as_str()
                .is_some_and(|k| long.starts_with(k))),
        "{warnings:?}"
    );
    // Event and Date have no XQF field either way; nothing else is lost.
    let pgn = export(
        &app,
        id,
        &format!("format=pgn-iccs&red={}", urlencode(long)),
    )
    .await;
    assert_eq!(
        pgn.header(header::HeaderName::from_static("x-record-warnings")),
        "[]"
    );
}

/// Percent-encodes a query value.
fn urlencode(text: &str) -> String {
    text.bytes().map(|b| format!("%{b:02X}")).collect()
}

#[tokio::test]
async fn an_empty_body_is_refused() {
    let app = app();
    for bytes in [Vec::new(), b" \n\r\n ".to_vec()] {
        let answer = import(&app, "name=empty.pgn", bytes).await;
        assert_bad_record(&answer);
        assert!(answer.message().contains("empty"), "{}", answer.message());
    }
}

#[tokio::test]
async fn a_bad_format_name_or_game_id_is_refused() {
    let app = app();
    let game = new_game(&app, json!({})).await;
    let answer = export(&app, game["id"].as_str().unwrap(), "format=cbf").await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let message = answer.message();
    for name in ["pgn-iccs", "pgn-wxf", "pgn-chinese", "xqf", "dhtmlxq"] {
        assert!(message.contains(name), "{message}");
    }
    let answer = export(&app, "nope", "format=xqf").await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.json()["error"]["code"], "no-game");
    let answer = import(&app, "index=first", pgn_game("x", "1. H2-E2").into_bytes()).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
}

/// A PGN of `count` games, each a few moves long.
fn many_games(count: usize) -> Vec<u8> {
    let game = pgn_game(
        "Many",
        "1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 B9-C7 4. B0-C2 B7-B3",
    );
    game.repeat(count).into_bytes()
}

#[tokio::test]
async fn a_file_over_64_kib_is_imported() {
    let app = app();
    let bytes = many_games(1000);
    assert!(bytes.len() > 64 * 1024 && bytes.len() < 4 * 1024 * 1024);
    let answer = import(&app, "name=many.pgn&index=999", bytes).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.json());
    assert_eq!(answer.json()["games"], 1000);
    assert_eq!(answer.json()["index"], 999);
    // Other routes keep the small limit.
    let big = format!("{{\"fen\": \"{}\"}}", " ".repeat(70 * 1024));
    let refused = request(&app, "POST", "/api/games", big.into_bytes(), true).await;
    assert_eq!(refused.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(
        refused.message().contains("64 KiB"),
        "{}",
        refused.message()
    );
}

#[tokio::test]
async fn a_file_over_4_mib_is_refused() {
    let app = app();
    let bytes = many_games(40_000);
    assert!(bytes.len() > 4 * 1024 * 1024);
    let answer = import(&app, "name=huge.pgn", bytes).await;
    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(answer.json()["error"]["code"], "too-large");
}

#[tokio::test]
async fn a_big5_record_opens_and_says_the_encoding_it_was_read_in() {
    let app = app();
    let bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../records/tests/real-world/ccpd-big5-game.pgn"),
    )
    .unwrap();
    let loaded = import(&app, "name=00000042.pgn", bytes).await;
    assert_eq!(loaded.status, StatusCode::CREATED, "{}", loaded.json());
    let answer = loaded.json();
    assert_eq!(answer["encoding"], "Big5");
    assert_eq!(answer["tags"]["Red"], "東北韓福德");
    assert_eq!(iccs_moves(&answer["game"])[..2], ["b2e2", "b7e7"]);
    let utf8 = import(
        &app,
        "name=a.pgn",
        pgn_game("Plain", "1. C3-C4").into_bytes(),
    )
    .await;
    assert_eq!(utf8.json()["encoding"], "UTF-8");
}
