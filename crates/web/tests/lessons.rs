//! The rules course through the router: the lessons in each language, and moves tried on a
//! lesson board (legal lines, illegal moves with the rules core's reason, bad input).

mod common;

use axum::Router;
use axum::http::StatusCode;
use common::{HOST, send, send_raw};
use serde_json::{Value, json};

fn app() -> Router {
    common::app(1, 1, 4)
}

async fn lessons(app: &Router, query: &str) -> (StatusCode, Value) {
    send(app, "GET", &format!("/api/lessons{query}"), None).await
}

async fn try_moves(app: &Router, fen: &str, moves: &[&str]) -> (StatusCode, Value) {
    send(
        app,
        "POST",
        "/api/lessons/try",
        Some(json!({ "fen": fen, "moves": moves })),
    )
    .await
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn every_lesson_is_served_in_every_language() {
    let app = app();
    let shipped: Vec<String> = xiangqi_teaching::load_course()
        .unwrap()
        .into_iter()
        .map(|l| l.id)
        .collect();
    let mut titles = Vec::new();
    for lang in ["en", "ru", "zh"] {
        let (status, list) = lessons(&app, &format!("?lang={lang}")).await;
        assert_eq!(status, StatusCode::OK, "{list}");
        assert_eq!(ids(&list), shipped);
        for lesson in list.as_array().unwrap() {
            assert!(!lesson["title"].as_str().unwrap().is_empty());
            assert!(!lesson["pages"].as_array().unwrap().is_empty());
            for exercise in lesson["exercises"].as_array().unwrap() {
                assert!(!exercise["goal"].as_str().unwrap().is_empty());
                assert!(!exercise["solutions"].as_array().unwrap().is_empty());
                assert!(exercise["fen"].is_string() && exercise["hint"].is_string());
                assert!(
                    exercise.get("wrong").is_none(),
                    "wrong moves stay on the server"
                );
            }
        }
        titles.push(list[0]["title"].clone());
    }
    assert_eq!(titles, [json!("The board"), json!("Доска"), json!("棋盘")]);
}

#[tokio::test]
async fn english_is_served_when_no_language_is_asked() {
    let app = app();
    let (status, plain) = lessons(&app, "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plain, lessons(&app, "?lang=en").await.1);
}

#[tokio::test]
async fn an_unknown_language_is_refused_with_the_choices() {
    let (status, body) = lessons(&app(), "?lang=xx").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["code"], "bad-request");
    assert_eq!(
        body["error"]["message"],
        "unknown language 'xx': use en, ru or zh"
    );
}

#[tokio::test]
async fn a_legal_line_is_played_and_written_in_every_notation() {
    let start = xiangqi_rules::START_FEN;
    let (status, body) = try_moves(&app(), start, &["h2e2", "h9g7"]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["fen"],
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    assert_eq!(body["check"], false);
    assert_eq!(body["status"], "ongoing");
    assert_eq!(body["moves"][0]["iccs"], "h2e2");
    assert_eq!(body["moves"][0]["wxf"], "C2=5");
    assert_eq!(body["moves"][0]["chinese"], "炮二平五");
    assert_eq!(body["moves"][1]["chinese"], "马8进7");
}

#[tokio::test]
async fn a_mate_is_reported() {
    let fen = "3k5/4R4/9/9/9/9/9/9/9/4K2R1 w";
    let (status, body) = try_moves(&app(), fen, &["h0h9"]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["check"], true);
    assert_eq!(body["status"], "checkmate");
    assert!(body["escape"].is_null(), "a mate has no way out: {body}");
}

#[tokio::test]
async fn a_check_that_is_not_mate_comes_with_a_way_out() {
    // The chariot checks from h9 along rank 9, but the general can step down to d8: the
    // general's own step is the way out named.
    let fen = "3k5/9/9/9/9/9/9/9/9/4K2R1 w";
    let (status, body) = try_moves(&app(), fen, &["h0h9"]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["check"], true);
    assert_eq!(body["status"], "ongoing");
    assert_eq!(body["escape"]["from"], "d9", "{body}");
    // A quiet move checks nothing: no way out to name.
    let (_, quiet) = try_moves(&app(), fen, &["h0h5"]).await;
    assert_eq!(quiet["check"], false);
    assert!(quiet["escape"].is_null(), "{quiet}");
}

#[tokio::test]
async fn a_horse_with_a_blocked_leg_is_refused_with_the_reason() {
    // The red soldier on e4 stands on the leg of the horse on e3 towards d5 and f5.
    let fen = "4k4/9/9/9/9/4P4/4N4/9/9/3K5 w";
    // A refusal is the lesson board's answer (200), not a failed request: the page's console
    // stays clean.
    let (status, body) = try_moves(&app(), fen, &["e3d5"]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["refused"]["code"], "horse-leg-blocked");
    assert_eq!(body["refused"]["params"], json!({ "point": "e4" }));
    assert_eq!(
        body["fen"],
        fen.to_string() + " - - 0 1",
        "the position before the move"
    );
    assert!(
        body["refused"]["highlights"]
            .as_array()
            .unwrap()
            .contains(&json!("e4")),
        "{body}"
    );
    // The other moves of the horse are fine.
    let (status, fine) = try_moves(&app(), fen, &["e3c4"]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(fine["refused"].is_null(), "{fine}");
}

#[tokio::test]
async fn an_illegal_reply_later_in_the_line_is_refused_too() {
    let start = xiangqi_rules::START_FEN;
    let (status, body) = try_moves(&app(), start, &["h2e2", "b9b7"]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["refused"]["code"], "horse-move-shape");
    // The line stops at the refused move: the first move stands.
    assert_eq!(body["moves"].as_array().unwrap().len(), 1, "{body}");
}

#[tokio::test]
async fn a_malformed_fen_or_move_is_a_bad_request() {
    let app = app();
    let (status, body) = try_moves(&app, "9/9/9 w", &[]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["error"]["code"], "bad-request");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("the FEN is not valid: "),
        "{body}"
    );
    let start = xiangqi_rules::START_FEN;
    let (status, body) = try_moves(&app, start, &["h2z2"]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("h2z2"),
        "{body}"
    );
    let (status, body) = send_raw(&app, "POST", "/api/lessons/try", HOST, Some("{".into())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn the_patterns_course_is_served_with_chinese_names_and_pinyin() {
    let app = app();
    let shipped: Vec<String> = xiangqi_teaching::PATTERN_IDS
        .iter()
        .map(|id| id.to_string())
        .collect();
    let mut titles = Vec::new();
    for lang in ["en", "ru", "zh"] {
        let (status, list) = lessons(&app, &format!("?course=patterns&lang={lang}")).await;
        assert_eq!(status, StatusCode::OK, "{list}");
        assert_eq!(ids(&list), shipped);
        for lesson in list.as_array().unwrap() {
            assert_eq!(lesson["course"], "patterns");
            assert!(!lesson["chinese"].as_str().unwrap().is_empty(), "{lesson}");
            assert!(!lesson["pinyin"].as_str().unwrap().is_empty(), "{lesson}");
            let exercises = lesson["exercises"].as_array().unwrap();
            assert!(exercises.len() >= 3, "{}", lesson["id"]);
            for exercise in exercises {
                assert_eq!(exercise["kind"], "mate");
                assert_eq!(exercise["unique"], true);
            }
            // At least one mate in two or three, whose line carries Black's replies.
            assert!(
                exercises
                    .iter()
                    .any(|e| e["solutions"][0].as_array().unwrap().len() >= 3),
                "{}",
                lesson["id"]
            );
        }
        assert_eq!(list[0]["chinese"], "马后炮");
        assert_eq!(list[0]["pinyin"], "mǎ hòu pào");
        titles.push(list[0]["title"].clone());
    }
    assert_eq!(
        titles,
        [
            json!("Horse and cannon"),
            json!("Пушка за конём"),
            json!("马后炮")
        ]
    );
}

#[tokio::test]
async fn the_rules_course_is_the_default_and_names_its_course() {
    let app = app();
    let (status, plain) = lessons(&app, "?lang=en").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plain, lessons(&app, "?course=rules&lang=en").await.1);
    for lesson in plain.as_array().unwrap() {
        assert_eq!(lesson["course"], "rules");
        assert!(lesson.get("pinyin").is_none(), "{lesson}");
    }
}

#[tokio::test]
async fn an_unknown_course_is_refused_with_the_choices() {
    let (status, body) = lessons(&app(), "?course=openings").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["code"], "bad-request");
    assert_eq!(
        body["error"]["message"],
        "unknown course 'openings': use rules or patterns"
    );
}

/// The place (from 0) of the notation lesson's exercise whose answers include `answer`.
fn notation_exercise(answer: &str) -> usize {
    let lessons = xiangqi_teaching::load_course().unwrap();
    let lesson = lessons.iter().find(|l| l.id == "notation").unwrap();
    lesson
        .exercises
        .iter()
        .position(|e| {
            e.answers
                .as_ref()
                .is_some_and(|a| a.values().flatten().any(|t| t == answer))
        })
        .unwrap()
}

async fn answer(app: &Router, body: Value) -> (StatusCode, Value) {
    send(app, "POST", "/api/lessons/answer", Some(body)).await
}

#[tokio::test]
async fn a_written_answer_is_judged_by_the_rules_core() {
    let app = app();
    let soldier = notation_exercise("兵七进一");
    let judged = |text: &str, exercise: usize| {
        let app = app.clone();
        let body = json!({ "lesson": "notation", "exercise": exercise, "text": text });
        async move {
            let (status, view) = answer(&app, body).await;
            assert_eq!(status, StatusCode::OK, "{view}");
            view["correct"].as_bool().unwrap()
        }
    };
    // Traditional and full-width forms name the move; another move, or the move in WXF
    // where the exercise teaches the characters, does not.
    assert!(judged("兵七進一", soldier).await);
    assert!(judged("炮８平５", notation_exercise("炮8平5")).await);
    assert!(!judged("兵三进一", soldier).await);
    assert!(!judged("P7+1", soldier).await);
    // Which chariot moves is not about the characters: WXF is right too.
    assert!(judged("R-+2", notation_exercise("后车进二")).await);
}

#[tokio::test]
async fn an_answer_for_no_notation_exercise_or_too_long_is_refused() {
    let app = app();
    for (lesson, exercise) in [("notation", 99), ("no-such-lesson", 0), ("horse", 0)] {
        let (status, body) = answer(
            &app,
            json!({ "lesson": lesson, "exercise": exercise, "text": "H2+3" }),
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{lesson} {exercise}: {body}");
        assert_eq!(body["error"]["code"], "no-exercise");
        assert_eq!(body["error"]["params"]["lesson"], lesson);
    }
    let long = "兵".repeat(65);
    let (status, body) = answer(
        &app,
        json!({ "lesson": "notation", "exercise": 0, "text": long }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = answer(&app, json!({ "lesson": "notation", "text": "H2+3" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

/// The place (from 0) of the perpetual lesson's drill.
fn drill_exercise() -> usize {
    let lessons = xiangqi_teaching::load_course().unwrap();
    let lesson = lessons.iter().find(|l| l.id == "perpetual").unwrap();
    lesson
        .exercises
        .iter()
        .position(|e| e.kind == xiangqi_teaching::Kind::Perpetual)
        .unwrap()
}

async fn drill(app: &Router, moves: &[&str], lang: &str) -> (StatusCode, Value) {
    let body = json!({
        "lesson": "perpetual", "exercise": drill_exercise(), "moves": moves, "lang": lang,
    });
    send(app, "POST", "/api/lessons/drill", Some(body)).await
}

#[tokio::test]
async fn the_drill_answers_each_escape_with_a_check_and_counts_them() {
    let app = app();
    let (status, lessons) = lessons(&app, "").await;
    assert_eq!(status, StatusCode::OK);
    let served = &lessons
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "perpetual")
        .unwrap()["exercises"][drill_exercise()];
    assert_eq!(served["kind"], "perpetual");
    assert_eq!(served["rules"], "cxq");
    assert_eq!(served["check"], "h9h8");

    // At the start: the first check is counted, the learner is in check.
    let (status, start) = drill(&app, &[], "en").await;
    assert_eq!(status, StatusCode::OK, "{start}");
    assert_eq!(
        (start["checks"].clone(), start["limit"].clone()),
        (json!(1), json!(6))
    );
    assert_eq!(start["first_check"]["iccs"], "h9h8");
    let fen = start["fen"].as_str().unwrap();
    assert!(fen.starts_with(served["fen"].as_str().unwrap()), "{fen}");
    assert_eq!(start["check"], true);
    assert!(start["reply"].is_null() && start["verdict"].is_null());
    assert_eq!(start["escape"]["from"], "f8");

    // The escape to f9 is answered by the chariot's check from h9: check 2 of 6.
    let (_, after) = drill(&app, &["f8f9"], "en").await;
    assert_eq!(after["reply"]["iccs"], "h8h9");
    assert_eq!(after["reply"]["wxf"], "R2+1");
    assert_eq!(after["moves"].as_array().unwrap().len(), 2);
    assert_eq!(after["checks"], 2);
    assert_eq!(after["check"], true);
    assert!(after["verdict"].is_null());

    // Escapes at f9, f8, f7 in turn: the sixth check ends the game with the CXQ verdict.
    let escapes = ["f8f9", "f9f8", "f8f7", "f7f8", "f8f9"];
    let mut ends = Vec::new();
    for (lang, words) in [
        (
            "en",
            "Red has checked 6 times in a row with one piece (the chariot on h9): under the CXQ rules Red loses.",
        ),
        (
            "ru",
            "Красные объявили 6 шахов подряд одной фигурой (колесница на h9): по правилам CXQ красные проигрывают.",
        ),
        (
            "zh",
            "红方用一个子（h9的车）连续将军6次：按CXQ规则，红方判负。",
        ),
    ] {
        let (status, end) = drill(&app, &escapes, lang).await;
        assert_eq!(status, StatusCode::OK, "{end}");
        assert_eq!(end["checks"], 6);
        assert_eq!(end["reply"]["iccs"], "h8h9");
        assert_eq!(end["verdict"]["code"], "perpetual-check");
        assert_eq!(end["verdict"]["loser"], "red");
        assert_eq!(end["verdict"]["result"], "black-wins");
        assert_eq!(end["verdict"]["rules"], "cxq");
        assert_eq!(end["verdict"]["text"], words);
        assert!(end["escape"].is_null(), "nothing to escape once it is over");
        ends.push(end["fen"].clone());
    }
    assert!(ends.windows(2).all(|w| w[0] == w[1]));
    // Before the sixth check there is no verdict.
    let (_, fifth) = drill(&app, &escapes[..4], "en").await;
    assert_eq!(fifth["checks"], 5);
    assert!(fifth["verdict"].is_null());
}

#[tokio::test]
async fn a_move_that_stays_in_check_is_refused_with_the_reason() {
    let app = app();
    let (status, refused) = drill(&app, &["f8f9", "a1a0"], "en").await;
    assert_eq!(status, StatusCode::OK, "{refused}");
    assert_eq!(refused["refused"]["code"], "leaves-general-in-check");
    // The position is the one before the refused move: after f9 and the check from h9.
    assert_eq!(refused["moves"].as_array().unwrap().len(), 2);
    assert_eq!(refused["checks"], 2);
    assert!(refused["reply"].is_null());
    let (_, facing) = drill(&app, &["f8e8"], "en").await;
    assert_eq!(facing["refused"]["code"], "generals-face");
    assert_eq!(facing["checks"], 1);
}

#[tokio::test]
async fn a_move_after_the_verdict_or_a_place_with_no_drill_is_refused() {
    let app = app();
    let over = ["f8f9", "f9f8", "f8f9", "f9f8", "f8f9", "f9f8"];
    let (status, body) = drill(&app, &over, "en").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    for (lesson, exercise) in [("perpetual", 0), ("perpetual", 99), ("horse", 0)] {
        let body = json!({ "lesson": lesson, "exercise": exercise, "moves": [] });
        let (status, body) = send(&app, "POST", "/api/lessons/drill", Some(body)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{lesson} {exercise}: {body}");
        assert_eq!(body["error"]["code"], "no-exercise");
    }
}
