//! The games archive over HTTP: games saved from their first move and with every change,
//! finished with their result and reason, kept across a restart (the page resumes under the
//! archive key), listed with filters, opened, deleted, exported and imported; a damaged
//! database leaves the app playing without it.

#[path = "accounts/owners.rs"]
mod accounts;
mod common;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{HOST, events, id, new_game, play, send};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use tower::ServiceExt;

/// A fresh data folder for one test.
fn data_folder(test: &str) -> PathBuf {
    common::data_folder("archive", test)
}

/// The app keeping its games in `data`: what a server started with `--data` serves.
fn archived_app(data: &Path) -> Router {
    common::app_with_data(Some(data))
}

/// The archive's games, newest first, chosen by `query`.
async fn listed(app: &Router, query: &str) -> Vec<Value> {
    let (status, list) = send(app, "GET", &format!("/api/archive/games{query}"), None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list["games"].as_array().unwrap().clone()
}

/// Tells the archive the players of game `gid`; the session's answer.
async fn name_players(app: &Router, gid: &str, body: Value) -> Value {
    let (status, answer) = send(
        app,
        "POST",
        &format!("/api/archive/sessions/{gid}"),
        Some(body),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer
}

fn versus_beginner() -> Value {
    json!({"red": "Player", "black": "Xiangqi (Beginner)", "level": 0})
}

/// A position where Red mates in one with i0i9.
const MATE_IN_ONE: &str = "3k5/2R6/9/9/9/9/9/9/9/4K3R w - - 0 1";

#[tokio::test]
async fn without_a_data_folder_the_archive_says_it_is_off_and_games_play() {
    let app = common::app(1, 4, 16);
    let (status, state) = send(&app, "GET", "/api/archive", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["available"], false);
    assert_eq!(state["error"]["code"], "archive-unavailable");
    assert_eq!(state["error"]["params"]["reason"], "archive-off");
    let (status, err) = send(&app, "GET", "/api/archive/games", None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{err}");
    let game = new_game(&app, json!({})).await;
    play(&app, &id(&game), "h2", "e2").await;
}

#[tokio::test]
async fn a_game_is_saved_from_its_first_move_and_follows_every_change() {
    let data = data_folder("follows");
    let app = archived_app(&data);
    let game = new_game(&app, json!({})).await;
    let gid = id(&game);
    let answer = name_players(&app, &gid, versus_beginner()).await;
    assert_eq!(answer["saved"], false);
    assert!(answer["key"].is_string());
    assert!(
        listed(&app, "").await.is_empty(),
        "nothing saved before a move"
    );

    play(&app, &gid, "h2", "e2").await;
    let games = listed(&app, "").await;
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["moves"], 1);
    assert_eq!(games[0]["finished"], false);
    assert_eq!(games[0]["red"], "Player");
    assert_eq!(games[0]["level"], 0);
    assert_eq!(games[0]["level_name"], "Beginner (~800)");
    assert_eq!(games[0]["key"], answer["key"]);
    // The Play view's clock is the page's own: its games list no time control.
    assert_eq!(games[0]["time_control"], Value::Null);
    // 1. C2=5 alone: ECCO B00, the central cannon (中炮局).
    assert_eq!(listed(&app, "?lang=zh").await[0]["opening"], "B00 中炮局");
    assert_eq!(games[0]["opening_code"], "B00");

    let (status, reply) = send(
        &app,
        "POST",
        &format!("/api/games/{gid}/engine"),
        Some(json!({"level": 0})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(listed(&app, "").await[0]["moves"], 2);
    let (status, _) = send(
        &app,
        "POST",
        &format!("/api/games/{gid}/undo"),
        Some(json!({"count": 2})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let games = listed(&app, "").await;
    assert_eq!(games.len(), 1, "undo updates the same row");
    assert_eq!(games[0]["moves"], 0);
    let (status, _) = send(
        &app,
        "POST",
        &format!("/api/games/{gid}/redo"),
        Some(json!({"count": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(listed(&app, "").await[0]["moves"], 1);
}

#[tokio::test]
async fn a_mate_finishes_the_game_with_its_result_and_reason() {
    let data = data_folder("mate");
    let app = archived_app(&data);
    let game = new_game(&app, json!({"fen": MATE_IN_ONE})).await;
    let gid = id(&game);
    name_players(&app, &gid, json!({"red": "Ann", "black": "Bob"})).await;
    play(&app, &gid, "i0", "i9").await;
    let games = listed(&app, "?state=finished").await;
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["result"], "red-wins");
    assert_eq!(games[0]["end_reason"], "checkmate");
    assert_eq!(games[0]["level"], Value::Null);
    let (status, whole) = send(
        &app,
        "GET",
        &format!("/api/archive/games/{}", games[0]["id"]),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(whole["start_fen"], MATE_IN_ONE);
    let pgn = whole["pgn"].as_str().unwrap();
    assert!(
        pgn.contains("[Red \"Ann\"]") && pgn.contains("1-0"),
        "{pgn}"
    );
}

#[tokio::test]
async fn a_fallen_flag_ends_the_game_on_time() {
    let data = data_folder("flag");
    let app = archived_app(&data);
    let game = new_game(&app, json!({})).await;
    let gid = id(&game);
    play(&app, &gid, "h2", "e2").await;
    name_players(
        &app,
        &gid,
        json!({"red": "Player", "black": "Engine", "level": 4, "flagged": "red"}),
    )
    .await;
    let games = listed(&app, "").await;
    assert_eq!(games[0]["finished"], true);
    assert_eq!(games[0]["result"], "black-wins");
    assert_eq!(games[0]["end_reason"], "time");
}

#[tokio::test]
async fn after_a_restart_the_page_resumes_the_game_in_the_same_row() {
    let data = data_folder("restart");
    let key = {
        let app = archived_app(&data);
        let game = new_game(&app, json!({})).await;
        let gid = id(&game);
        name_players(&app, &gid, versus_beginner()).await;
        play(&app, &gid, "h2", "e2").await;
        play(&app, &gid, "h9", "g7").await;
        let answer = name_players(&app, &gid, versus_beginner()).await;
        assert_eq!(answer["saved"], true);
        answer["key"].as_str().unwrap().to_string()
    };
    // A new server on the same folder: the page sends its copy with the key. The first
    // server's writer thread may still be saving its last snapshot: wait for the row.
    let app = archived_app(&data);
    for _ in 0..200 {
        let rows = listed(&app, "").await;
        if rows
            .first()
            .is_some_and(|g| g["moves"] == 2 && g["red"] == "Player")
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let (status, resumed) = send(
        &app,
        "POST",
        "/api/archive/resume",
        Some(json!({"key": key, "fen": null, "moves": ["h2e2", "h9g7"]})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{resumed}");
    assert_eq!(resumed["moves"].as_array().unwrap().len(), 2);
    play(&app, &id(&resumed), "h0", "g2").await;
    let games = listed(&app, "").await;
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(games[0]["moves"], 3);
    assert_eq!(games[0]["red"], "Player", "the players stay with the row");

    // Without the page's copy the archive's record is played.
    let (status, from_archive) = send(
        &app,
        "POST",
        "/api/archive/resume",
        Some(json!({"key": key})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{from_archive}");
    assert_eq!(from_archive["moves"].as_array().unwrap().len(), 3);
    let (status, err) = send(
        &app,
        "POST",
        "/api/archive/resume",
        Some(json!({"key": "0123abcd"})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(err["error"]["code"], "archive-no-game");
    let (status, err) = send(
        &app,
        "POST",
        "/api/archive/resume",
        Some(json!({"key": "../x"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
}

#[tokio::test]
async fn lists_filter_by_result_level_and_state() {
    let data = data_folder("filters");
    let app = archived_app(&data);
    let won = new_game(&app, json!({"fen": MATE_IN_ONE})).await;
    name_players(
        &app,
        &id(&won),
        json!({"red": "P", "black": "E", "level": 8}),
    )
    .await;
    play(&app, &id(&won), "i0", "i9").await;
    let going = new_game(&app, json!({})).await;
    name_players(
        &app,
        &id(&going),
        json!({"red": "P", "black": "E", "level": 0}),
    )
    .await;
    play(&app, &id(&going), "b2", "e2").await;

    assert_eq!(listed(&app, "").await.len(), 2);
    let red_wins = listed(&app, "?result=red-wins").await;
    assert_eq!(red_wins.len(), 1);
    assert_eq!(red_wins[0]["level"], 8);
    assert!(listed(&app, "?result=black-wins").await.is_empty());
    assert_eq!(listed(&app, "?level=0").await[0]["moves"], 1);
    assert_eq!(listed(&app, "?state=unfinished").await.len(), 1);
    assert_eq!(listed(&app, "?state=finished&level=8").await.len(), 1);
    let (status, err) = send(&app, "GET", "/api/archive/games?result=maybe", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
}

#[tokio::test]
async fn an_opened_game_resumes_or_replays() {
    let data = data_folder("open");
    let app = archived_app(&data);
    let going = new_game(&app, json!({})).await;
    play(&app, &id(&going), "h2", "e2").await;
    let finished = new_game(&app, json!({"fen": MATE_IN_ONE})).await;
    play(&app, &id(&finished), "i0", "i9").await;
    let games = listed(&app, "").await;
    let row =
        |finished: bool| games.iter().find(|g| g["finished"] == finished).unwrap()["id"].clone();

    let (status, opened) = send(
        &app,
        "POST",
        &format!("/api/archive/games/{}/open", row(false)),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{opened}");
    assert_eq!(opened["game"]["moves"].as_array().unwrap().len(), 1);
    play(&app, &id(&opened["game"]), "h9", "g7").await;
    assert_eq!(
        listed(&app, "").await.len(),
        2,
        "an unfinished game goes on in its row"
    );

    let (status, replay) = send(
        &app,
        "POST",
        &format!("/api/archive/games/{}/open", row(true)),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{replay}");
    assert!(replay["game"]["outcome"].is_object());
    assert_eq!(replay["archived"]["result"], "red-wins");
    let rid = id(&replay["game"]);
    let (status, _) = send(&app, "POST", &format!("/api/games/{rid}/undo"), None).await;
    assert_eq!(status, StatusCode::OK);
    let games_now = listed(&app, "").await;
    assert_eq!(
        games_now.len(),
        3,
        "a change of a finished game starts a new one"
    );
    assert_eq!(
        games_now
            .iter()
            .filter(|g| g["result"] == "red-wins")
            .count(),
        1
    );

    let (status, err) = send(&app, "POST", "/api/archive/games/999/open", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(err["error"]["code"], "archive-no-game");
}

#[tokio::test]
async fn a_game_opened_in_another_browser_keeps_its_row_and_its_players() {
    let data = data_folder("another-browser");
    let app = archived_app(&data);
    let ann_bob = json!({"red": "Ann", "black": "Bob"});
    let finished = new_game(&app, json!({"fen": MATE_IN_ONE})).await;
    name_players(&app, &id(&finished), ann_bob.clone()).await;
    play(&app, &id(&finished), "i0", "i9").await;
    let going = new_game(&app, json!({})).await;
    name_players(&app, &id(&going), ann_bob.clone()).await;
    play(&app, &id(&going), "h2", "e2").await;
    let rows = listed(&app, "").await;
    assert_eq!(rows.len(), 2);
    for row in &rows {
        // Opened for review in a browser whose settings name a game against the Beginner, then
        // reloaded there twice (the page brings the game back under the row's key).
        let (status, opened) = send(
            &app,
            "POST",
            &format!("/api/archive/games/{}/open", row["id"]),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{opened}");
        name_players(&app, &id(&opened["game"]), versus_beginner()).await;
        let moves: Vec<Value> = opened["game"]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["iccs"].clone())
            .collect();
        for _ in 0..2 {
            let body = json!({"key": opened["archived"]["key"], "fen": opened["game"]["start_fen"], "moves": moves});
            let (status, resumed) = send(&app, "POST", "/api/archive/resume", Some(body)).await;
            assert_eq!(status, StatusCode::CREATED, "{resumed}");
            name_players(&app, &id(&resumed), versus_beginner()).await;
        }
    }
    let after = listed(&app, "").await;
    assert_eq!(after.len(), 2, "no row added: {after:?}");
    for row in &after {
        assert_eq!((&row["red"], &row["black"]), (&json!("Ann"), &json!("Bob")));
    }
    // The unfinished game goes on in its row under its own players; a finished one changed
    // on the board becomes a new game, named by the page that plays it.
    let unfinished = after.iter().find(|g| g["finished"] == false).unwrap();
    let (_, opened) = send(
        &app,
        "POST",
        &format!("/api/archive/games/{}/open", unfinished["id"]),
        None,
    )
    .await;
    let gid = id(&opened["game"]);
    name_players(&app, &gid, versus_beginner()).await;
    play(&app, &gid, "h9", "g7").await;
    let finished_row = after.iter().find(|g| g["finished"] == true).unwrap();
    let (_, replay) = send(
        &app,
        "POST",
        &format!("/api/archive/games/{}/open", finished_row["id"]),
        None,
    )
    .await;
    let rid = id(&replay["game"]);
    send(&app, "POST", &format!("/api/games/{rid}/undo"), None).await;
    name_players(&app, &rid, versus_beginner()).await;
    let last = listed(&app, "").await;
    assert_eq!(last.len(), 3, "{last:?}");
    let named = |red: &str| last.iter().filter(|g| g["red"] == red).count();
    assert_eq!((named("Ann"), named("Player")), (2, 1), "{last:?}");
}

#[tokio::test]
async fn a_deleted_game_is_gone() {
    let data = data_folder("delete");
    let app = archived_app(&data);
    let game = new_game(&app, json!({})).await;
    play(&app, &id(&game), "h2", "e2").await;
    let row = listed(&app, "").await[0]["id"].clone();
    let (status, _) = send(&app, "DELETE", &format!("/api/archive/games/{row}"), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(listed(&app, "").await.is_empty());
    let (status, err) = send(&app, "DELETE", &format!("/api/archive/games/{row}"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{err}");
}

/// The status and body text of `method` `path` with a raw `body`.
async fn send_text(
    app: &Router,
    method: &str,
    path: &str,
    body: &str,
) -> (StatusCode, String, String) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, HOST)
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let disposition = response
        .headers()
        .get(header::CONTENT_DISPOSITION)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    (
        status,
        disposition,
        String::from_utf8(bytes.to_vec()).unwrap(),
    )
}

#[tokio::test]
async fn export_holds_every_game_and_import_adds_a_files_games() {
    let data = data_folder("export");
    let app = archived_app(&data);
    let game = new_game(&app, json!({})).await;
    name_players(&app, &id(&game), json!({"red": "Ann", "black": "Bob"})).await;
    play(&app, &id(&game), "h2", "e2").await;
    let mate = new_game(&app, json!({"fen": MATE_IN_ONE})).await;
    play(&app, &id(&mate), "i0", "i9").await;
    let (status, disposition, text) =
        send_text(&app, "GET", "/api/archive/export?format=pgn-iccs", "").await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(disposition.contains(".pgn"), "{disposition}");
    assert_eq!(
        text.matches("[Game \"Chinese Chess\"]").count(),
        2,
        "{text}"
    );
    assert!(text.contains("[Red \"Ann\"]"), "{text}");
    // A game from the initial position names its opening as ECCO does; the mate from a set-up
    // position has none.
    assert_eq!(text.matches("[ECCO \"").count(), 1, "{text}");
    assert!(text.contains("[ECCO \"B00\"]"), "{text}");
    assert!(text.contains("[Opening \""), "{text}");

    // Into another archive: both games, and a broken third reported by its code.
    let other = archived_app(&data_folder("import"));
    // Text before the first game is skipped with a warning.
    let file = format!(
        "=== my games ===\n{text}\n[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. a0a5 *\n"
    );
    let (status, _, answer) =
        send_text(&other, "POST", "/api/archive/import?name=games.pgn", &file).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["games"], 3);
    assert_eq!(answer["imported"], 2);
    assert_eq!(answer["broken"].as_array().unwrap().len(), 1, "{answer}");
    assert_eq!(
        answer["broken"][0]["code"], "chariot-path-blocked",
        "{answer}"
    );
    assert_eq!(answer["broken"][0]["params"]["game"], 3);
    assert_eq!(answer["warnings"][0]["code"], "skipped-text", "{answer}");
    let games = listed(&other, "").await;
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g["source"] == "imported"));

    let (status, _, answer) =
        send_text(&other, "POST", "/api/archive/import?name=x.pgn", "  \n").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert!(answer.contains("empty-file"), "{answer}");
}

#[tokio::test]
async fn the_list_names_a_games_opening_in_the_language_asked_for() {
    let data = data_folder("opening-names");
    let app = archived_app(&data);
    // 1. P7+1 C8=5: ECCO E03, 仙人指路对中炮.
    saved_game(&app, &["c3c4", "h7e7"]).await;
    let opening = |games: &[Value]| games[0]["opening"].as_str().unwrap().to_string();
    let en = listed(&app, "?lang=en").await;
    assert_eq!(opening(&en), "E03 Pawn Opening vs Central Cannon");
    assert_eq!(en[0]["opening_code"], "E03");
    assert_eq!(
        opening(&listed(&app, "?lang=ru").await),
        "E03 Дебют солдата против центральной пушки"
    );
    assert_eq!(
        opening(&listed(&app, "?lang=zh").await),
        "E03 仙人指路对中炮"
    );
    // English when the request names no language, as elsewhere.
    assert_eq!(opening(&listed(&app, "").await), opening(&en));
    let (status, err) = send(&app, "GET", "/api/archive/games?lang=fr", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");

    // One game, and one opened, name it in the language asked for too.
    let row = &en[0]["id"];
    let (status, game) = send(
        &app,
        "GET",
        &format!("/api/archive/games/{row}?lang=ru"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(
        game["opening"],
        "E03 Дебют солдата против центральной пушки"
    );
    let (status, opened) = send(
        &app,
        "POST",
        &format!("/api/archive/games/{row}/open?lang=zh"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{opened}");
    assert_eq!(opened["archived"]["opening"], "E03 仙人指路对中炮");

    // An imported record keeps its own Opening tag: translated where it is an ECCO opening's
    // Chinese name, as it is otherwise.
    let other = archived_app(&data_folder("opening-names-imported"));
    let file = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n[Date \"2020.01.02\"]\n\
                [Opening \"中炮对屏风马\"]\n\n1. h2e2 h9g7 2. h0g2 b9c7 *\n\n\
                [Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n[Date \"2020.01.01\"]\n\
                [Opening \"My favourite\"]\n\n1. h2e2 h9g7 *\n";
    let (status, _, answer) =
        send_text(&other, "POST", "/api/archive/import?name=two.pgn", file).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let ru = listed(&other, "?lang=ru").await;
    assert_eq!(opening(&ru), "Центральная пушка против ширмы из коней");
    assert_eq!(ru[0]["opening_code"], Value::Null);
    assert_eq!(ru[1]["opening"], "My favourite");
    let en = listed(&other, "?lang=en").await;
    assert_eq!(opening(&en), "Central Cannon vs Screen Horses");
}

#[tokio::test]
async fn a_damaged_database_is_reported_and_the_app_still_plays() {
    let data = data_folder("damaged");
    std::fs::create_dir_all(&data).unwrap();
    let garbage: Vec<u8> = (0..4096u32).map(|i| (i * 31 % 253) as u8).collect();
    std::fs::write(data.join(xiangqi_web::ARCHIVE_FILE), garbage).unwrap();
    let app = archived_app(&data);
    let (_, state) = send(&app, "GET", "/api/archive", None).await;
    assert_eq!(state["available"], false, "{state}");
    assert_eq!(state["error"]["params"]["reason"], "archive-corrupt");
    let game = new_game(&app, json!({})).await;
    let after = play(&app, &id(&game), "h2", "e2").await;
    assert_eq!(after["moves"].as_array().unwrap().len(), 1);
    let answer = name_players(&app, &id(&game), versus_beginner()).await;
    assert_eq!(answer["available"], false);
}

#[tokio::test]
async fn games_finished_at_once_in_several_sessions_are_all_kept() {
    let data = data_folder("at-once");
    let app = archived_app(&data);
    let mut games = Vec::new();
    for _ in 0..5 {
        games.push(id(&new_game(&app, json!({"fen": MATE_IN_ONE})).await));
    }
    let finishing = games.iter().map(|gid| {
        let app = app.clone();
        let gid = gid.clone();
        tokio::spawn(async move {
            play(&app, &gid, "i0", "i9").await;
        })
    });
    for task in finishing.collect::<Vec<_>>() {
        task.await.unwrap();
    }
    let kept = listed(&app, "?state=finished").await;
    assert_eq!(kept.len(), 5);
}

/// The moves kept in the row saved under `key`, read from the file by a connection of the
/// test's own, as another program (or the server after a crash) would find them.
fn kept_moves(data: &Path, key: &str) -> Option<i64> {
    let conn = rusqlite::Connection::open(data.join(xiangqi_web::ARCHIVE_FILE)).unwrap();
    conn.query_row("SELECT moves_count FROM games WHERE key = ?1", [key], |r| {
        r.get(0)
    })
    .ok()
}

#[tokio::test]
async fn a_move_undo_or_redo_is_on_disk_when_it_is_answered() {
    let data = data_folder("answered-is-saved");
    let app = archived_app(&data);
    let line = [
        ("h2", "e2"),
        ("h9", "g7"),
        ("h0", "g2"),
        ("i9", "h9"),
        ("i0", "h0"),
        ("b9", "c7"),
    ];
    let mut games = Vec::new();
    for _ in 0..4 {
        let gid = id(&new_game(&app, json!({})).await);
        let key = name_players(&app, &gid, versus_beginner()).await["key"]
            .as_str()
            .unwrap()
            .to_string();
        games.push((gid, key));
    }
    // The games move together, so that their saves queue behind each other.
    for (n, (from, to)) in line.iter().enumerate() {
        for (gid, key) in &games {
            play(&app, gid, from, to).await;
            assert_eq!(kept_moves(&data, key), Some(n as i64 + 1), "after move {n}");
        }
    }
    let (gid, key) = &games[0];
    // While another program holds the file's write lock, the move cannot be saved: it is not
    // answered either until it is.
    let holder = rusqlite::Connection::open(data.join(xiangqi_web::ARCHIVE_FILE)).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let waiting = {
        let (app, gid) = (app.clone(), gid.clone());
        tokio::spawn(
            async move { send(&app, "POST", &format!("/api/games/{gid}/undo"), None).await },
        )
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(
        !waiting.is_finished(),
        "the undo was answered before it was saved"
    );
    holder.execute_batch("COMMIT").unwrap();
    let (status, _) = waiting.await.unwrap();
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        kept_moves(&data, key),
        Some(line.len() as i64 - 1),
        "after undo"
    );
    let (status, _) = send(&app, "POST", &format!("/api/games/{gid}/redo"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        kept_moves(&data, key),
        Some(line.len() as i64),
        "after redo"
    );
}

#[tokio::test]
async fn a_finished_review_is_kept_with_the_game() {
    let data = data_folder("review");
    let app = archived_app(&data);
    let game = new_game(&app, json!({})).await;
    let gid = id(&game);
    play(&app, &gid, "h2", "e2").await;
    play(&app, &gid, "h9", "g7").await;
    let events = events(&app, &format!("/api/games/{gid}/review?millis=20")).await;
    assert_eq!(events.last().unwrap().0, "review");
    let row = listed(&app, "").await[0].clone();
    assert_eq!(row["reviewed"], true);
    let (_, whole) = send(
        &app,
        "GET",
        &format!("/api/archive/games/{}", row["id"]),
        None,
    )
    .await;
    assert_eq!(
        whole["review"]["moves"].as_array().unwrap().len(),
        2,
        "{whole}"
    );
}

#[tokio::test]
async fn the_status_names_the_file_when_the_archive_is_there() {
    let data = data_folder("status");
    let app = archived_app(&data);
    let (status, state) = send(&app, "GET", "/api/archive", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["available"], true);
    assert!(
        state["path"].as_str().unwrap().ends_with("games.sqlite3"),
        "{state}"
    );
}

#[tokio::test]
async fn a_move_that_cannot_be_saved_is_refused_and_not_played() {
    let data = data_folder("write-fails");
    let app = archived_app(&data);
    let game = new_game(&app, json!({})).await;
    let gid = id(&game);
    play(&app, &gid, "h2", "e2").await;
    assert_eq!(listed(&app, "").await.len(), 1);
    // The table goes away behind the server's back: the next save fails.
    let conn = rusqlite::Connection::open(data.join(xiangqi_web::ARCHIVE_FILE)).unwrap();
    conn.execute_batch("DROP TABLE games").unwrap();
    drop(conn);
    let path = format!("/api/games/{gid}/move");
    let (status, refused) =
        send(&app, "POST", &path, Some(json!({"from": "h9", "to": "g7"}))).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{refused}");
    assert_eq!(refused["error"]["code"], "not-saved", "{refused}");
    let (_, now) = send(&app, "GET", &format!("/api/games/{gid}"), None).await;
    assert_eq!(
        now["moves"].as_array().unwrap().len(),
        1,
        "the move was not played"
    );
    // Every try is refused while the game cannot be saved; the board stays as it was kept.
    let (status, _) = send(&app, "POST", &path, Some(json!({"from": "h9", "to": "g7"}))).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    let (status, _) = send(&app, "GET", "/api/archive/games", None).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
}

/// The start position, as the page sends it with its copy.
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Plays `moves` (ICCS, `h2e2`) on game `gid`.
async fn play_all(app: &Router, gid: &str, moves: &[&str]) {
    for m in moves {
        play(app, gid, &m[..2], &m[2..]).await;
    }
}

/// A new game with `moves` played against the beginner level: its id and its archive key.
async fn saved_game(app: &Router, moves: &[&str]) -> (String, String) {
    let gid = id(&new_game(app, json!({})).await);
    play_all(app, &gid, moves).await;
    let key = name_players(app, &gid, versus_beginner()).await["key"]
        .as_str()
        .unwrap()
        .to_string();
    (gid, key)
}

#[tokio::test]
async fn a_second_tab_with_an_older_copy_never_overwrites_newer_moves() {
    let data = data_folder("two-tabs");
    let app = archived_app(&data);
    // Tab A plays four moves; tab B opens the game from My games then.
    let (a, key) = saved_game(&app, &["h2e2", "h9g7", "h0g2", "i9h9"]).await;
    let row = listed(&app, "").await[0]["id"].clone();
    let (status, opened) = send(
        &app,
        "POST",
        &format!("/api/archive/games/{row}/open"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{opened}");
    let b = id(&opened["game"]);
    // Tab A plays on to ten moves, then tab B plays its fifth move from its copy of four.
    play_all(&app, &a, &["i0h0", "b9c7", "b2d2", "c6c5", "b0c2", "a9b9"]).await;
    assert_eq!(kept_moves(&data, &key), Some(10));
    play(&app, &b, "b2", "c2").await;
    assert_eq!(
        kept_moves(&data, &key),
        Some(10),
        "the row keeps A's ten moves"
    );
    let told = name_players(&app, &b, versus_beginner()).await;
    assert_eq!(told["notice"]["code"], "archive-forked", "{told}");
    assert_eq!(told["notice"]["params"]["from"], key.as_str());
    let fork = told["key"].as_str().unwrap().to_string();
    assert_ne!(fork, key);
    assert_eq!(
        kept_moves(&data, &fork),
        Some(5),
        "B's copy is a game of its own"
    );
    // Said once; B's next moves go to its own row, and A still plays in the first one.
    let again = name_players(&app, &b, versus_beginner()).await;
    assert!(again["notice"].is_null(), "{again}");
    play(&app, &b, "b9", "c7").await;
    assert_eq!(kept_moves(&data, &fork), Some(6));
    play(&app, &a, "c3", "c4").await;
    assert_eq!(kept_moves(&data, &key), Some(11));
    assert_eq!(listed(&app, "").await.len(), 2);
}

#[tokio::test]
async fn a_page_copy_older_than_the_saved_game_goes_on_as_a_new_game() {
    let data = data_folder("stale-copy");
    let app = archived_app(&data);
    let (_, key) = saved_game(&app, &["h2e2", "h9g7", "h0g2", "i9h9"]).await;
    // A page that lost its session sends a copy that goes on from the row: it keeps the row.
    let (status, resumed) = send(
        &app,
        "POST",
        "/api/archive/resume",
        Some(json!({"key": key, "fen": START, "moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{resumed}");
    let told = name_players(&app, &id(&resumed), json!({})).await;
    assert_eq!(told["key"], key.as_str(), "{told}");
    assert!(told["notice"].is_null());
    // A page with an older copy (two moves, then a move of its own) does not.
    let (status, stale) = send(
        &app,
        "POST",
        "/api/archive/resume",
        Some(json!({"key": key, "fen": START, "moves": ["h2e2", "h9g7", "b2d2"]})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{stale}");
    let sid = id(&stale);
    play(&app, &sid, "b9", "c7").await;
    let told = name_players(&app, &sid, json!({})).await;
    assert_eq!(told["notice"]["code"], "archive-forked", "{told}");
    let fork = told["key"].as_str().unwrap().to_string();
    assert_eq!(
        kept_moves(&data, &key),
        Some(4),
        "the saved game keeps its moves"
    );
    assert_eq!(
        kept_moves(&data, &fork),
        Some(4),
        "the old copy is saved on its own"
    );
}

#[tokio::test]
async fn a_game_deleted_while_it_is_open_does_not_come_back() {
    let data = data_folder("deleted-open");
    let gid = {
        let app = archived_app(&data);
        let gid = id(&new_game(&app, json!({})).await);
        play(&app, &gid, "h2", "e2").await;
        let key = name_players(&app, &gid, json!({})).await["key"].clone();
        let row = listed(&app, "").await[0]["id"].clone();
        let (status, _) = send(&app, "DELETE", &format!("/api/archive/games/{row}"), None).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        play(&app, &gid, "h9", "g7").await;
        play(&app, &gid, "h0", "g2").await;
        assert!(
            listed(&app, "").await.is_empty(),
            "the deleted game stays deleted"
        );
        let told = name_players(&app, &gid, json!({})).await;
        assert_eq!(told["write_error"]["code"], "archive-deleted", "{told}");
        // After a restart, the page's copy under the deleted key is not saved either.
        drop(app);
        let app = archived_app(&data);
        let (status, resumed) = send(
            &app,
            "POST",
            "/api/archive/resume",
            Some(json!({"key": key, "fen": START, "moves": ["h2e2", "h9g7", "h0g2"]})),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{resumed}");
        let rid = id(&resumed);
        play(&app, &rid, "i9", "h9").await;
        assert!(listed(&app, "").await.is_empty());
        let told = name_players(&app, &rid, json!({})).await;
        assert_eq!(told["write_error"]["code"], "archive-deleted", "{told}");
        rid
    };
    assert!(!gid.is_empty());
}

#[tokio::test]
async fn the_list_pages_beyond_a_thousand_games() {
    let data = data_folder("pages");
    let app = archived_app(&data);
    let file: String = (0..1_050)
        .map(|i| {
            format!("[Game \"Chinese Chess\"]\n[Round \"{i}\"]\n[Format \"ICCS\"]\n\n1. h2e2 *\n\n")
        })
        .collect();
    let (status, _, answer) =
        send_text(&app, "POST", "/api/archive/import?name=many.pgn", &file).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let page = |query: &'static str| {
        let app = app.clone();
        async move {
            let (status, page) =
                send(&app, "GET", &format!("/api/archive/games{query}"), None).await;
            assert_eq!(status, StatusCode::OK, "{page}");
            page
        }
    };
    let first = page("").await;
    assert_eq!(first["total"], 1_050);
    assert_eq!(first["games"].as_array().unwrap().len(), 200);
    assert_eq!(first["next"], 200);
    let big = page("?limit=1000").await;
    assert_eq!(big["games"].as_array().unwrap().len(), 1_000);
    assert_eq!(big["next"], 1_000);
    let last = page("?limit=1000&offset=1000").await;
    assert_eq!(last["games"].as_array().unwrap().len(), 50);
    assert!(last["next"].is_null(), "{}", last["next"]);
    // Every game is on exactly one page.
    let mut ids: Vec<i64> = big["games"]
        .as_array()
        .unwrap()
        .iter()
        .chain(last["games"].as_array().unwrap())
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 1_050);
    for bad in ["?limit=0", "?limit=1001", "?offset=-1"] {
        let (status, err) = send(&app, "GET", &format!("/api/archive/games{bad}"), None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {err}");
    }
    // Past what the database counts in: refused at the edge, named, never a fault.
    for far in ["9223372036854775808", "18446744073709551615", "1000000001"] {
        let path = format!("/api/archive/games?offset={far}");
        let (status, err) = send(&app, "GET", &path, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{far}: {err}");
        assert_eq!(err["error"]["code"], "over-limit", "{far}: {err}");
        assert_eq!(err["error"]["params"]["field"], "offset");
    }
    let (status, far) = send(&app, "GET", "/api/archive/games?offset=1000000000", None).await;
    assert_eq!(status, StatusCode::OK, "{far}");
    assert_eq!(far["games"].as_array().unwrap().len(), 0);
}

/// Waits until the server that used `data` has closed its database (its write-ahead log is
/// folded back into the file and removed).
async fn closed(data: &Path) {
    let wal = data.join(format!("{}-wal", xiangqi_web::ARCHIVE_FILE));
    for _ in 0..200 {
        if !wal.exists() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("the archive at {} was not closed", data.display());
}

/// Plays a short game in each of `games` new sessions; their ids.
async fn several_games(app: &Router, games: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for _ in 0..games {
        let gid = id(&new_game(app, json!({})).await);
        name_players(
            app,
            &gid,
            json!({"red": "Ann".repeat(20), "black": "Bob".repeat(20)}),
        )
        .await;
        play_all(app, &gid, &["h2e2", "h9g7", "h0g2"]).await;
        ids.push(gid);
    }
    ids
}

#[tokio::test]
async fn a_file_damaged_after_its_first_page_is_found_at_start() {
    let data = data_folder("flipped");
    {
        let app = archived_app(&data);
        several_games(&app, 40).await;
        assert_eq!(listed(&app, "").await.len(), 40);
    }
    closed(&data).await;
    let file = data.join(xiangqi_web::ARCHIVE_FILE);
    let mut bytes = std::fs::read(&file).unwrap();
    assert!(bytes.len() > 3 * 4096, "{} bytes", bytes.len());
    for (i, b) in bytes[4096 + 100..2 * 4096].iter_mut().enumerate() {
        *b ^= 0x5a ^ (i as u8);
    }
    std::fs::write(&file, bytes).unwrap();
    let app = archived_app(&data);
    let (_, state) = send(&app, "GET", "/api/archive", None).await;
    assert_eq!(state["available"], false, "{state}");
    assert_eq!(state["error"]["params"]["reason"], "archive-corrupt");
    assert!(
        state["error"]["message"]
            .as_str()
            .unwrap()
            .contains("move it away"),
        "{state}"
    );
    for path in ["/api/archive/games", "/api/archive/export?format=pgn-iccs"] {
        let (status, err) = send(&app, "GET", path, None).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{path}: {err}");
        assert_eq!(err["error"]["code"], "archive-unavailable");
    }
    let game = id(&new_game(&app, json!({})).await);
    play(&app, &game, "h2", "e2").await;
}

#[tokio::test]
async fn a_file_deleted_or_emptied_while_the_server_runs_is_noticed_and_not_replaced() {
    for (case, harm) in [("deleted", true), ("emptied", false)] {
        let data = data_folder(&format!("gone-{case}"));
        let app = archived_app(&data);
        let gid = several_games(&app, 1).await.remove(0);
        let file = data.join(xiangqi_web::ARCHIVE_FILE);
        if harm {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
            }
        } else {
            std::fs::write(&file, b"").unwrap();
        }
        // The next save finds it: the move is refused, not played.
        let path = format!("/api/games/{gid}/move");
        let (status, refused) =
            send(&app, "POST", &path, Some(json!({"from": "i9", "to": "h9"}))).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{case}: {refused}");
        assert_eq!(refused["error"]["code"], "not-saved", "{case}: {refused}");
        let (_, now) = send(&app, "GET", &format!("/api/games/{gid}"), None).await;
        assert_eq!(now["moves"].as_array().unwrap().len(), 3, "{case}");
        let (_, state) = send(&app, "GET", "/api/archive", None).await;
        assert_eq!(state["available"], false, "{case}: {state}");
        let reason = if harm {
            "archive-gone"
        } else {
            "archive-corrupt"
        };
        assert_eq!(
            state["error"]["params"]["reason"], reason,
            "{case}: {state}"
        );
        let (status, _) = send(&app, "GET", "/api/archive/games", None).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{case}");
        // Refused from then on, at once.
        let (status, _) = send(&app, "POST", &path, Some(json!({"from": "i9", "to": "h9"}))).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{case}");
        // Nothing was written in its place.
        if harm {
            assert!(!file.exists(), "{case}: a new file was made");
        } else {
            assert_eq!(std::fs::metadata(&file).unwrap().len(), 0, "{case}");
        }
    }
}

/// Sends the move `body` to `path` until it is played, refused with `not-saved` meanwhile,
/// for 20 s at most; whether it was played.
async fn played_once_writes_pass(app: &Router, path: &str, body: Value) -> bool {
    for _ in 0..200 {
        let (status, answer) = send(app, "POST", path, Some(body.clone())).await;
        if status == StatusCode::OK {
            return true;
        }
        assert_eq!(answer["error"]["code"], "not-saved", "{answer}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    false
}

#[tokio::test]
async fn moves_are_saved_again_once_the_cause_of_a_failure_passes() {
    let data = data_folder("retry");
    let app = archived_app(&data);
    let (gid, key) = saved_game(&app, &["h2e2"]).await;
    // The table goes away (as a full disk refuses writes): a move is refused; the table comes
    // back (the disk has room again): the server finds it can write and the move is played
    // and saved.
    let conn = rusqlite::Connection::open(data.join(xiangqi_web::ARCHIVE_FILE)).unwrap();
    let ddl: Vec<String> = conn
        .prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'games' AND sql IS NOT NULL")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    conn.execute_batch("DROP TABLE games").unwrap();
    let path = format!("/api/games/{gid}/move");
    let (status, _) = send(&app, "POST", &path, Some(json!({"from": "h9", "to": "g7"}))).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    for sql in &ddl {
        conn.execute_batch(sql).unwrap();
    }
    drop(conn);
    assert!(
        played_once_writes_pass(&app, &path, json!({"from": "h9", "to": "g7"})).await,
        "moves were never taken again"
    );
    // The game is saved again from its next change, whole.
    assert_eq!(kept_moves(&data, &key), Some(2));
    let told = name_players(&app, &gid, json!({})).await;
    assert!(told["write_error"].is_null(), "{told}");
    assert_eq!(listed(&app, "").await.len(), 1);
}

#[tokio::test]
async fn a_row_found_damaged_on_a_read_makes_the_archive_unavailable() {
    let data = data_folder("damaged-row");
    let app = archived_app(&data);
    let gid = several_games(&app, 2).await.remove(0);
    // Bytes changed inside a row: a name that is no longer text.
    let conn = rusqlite::Connection::open(data.join(xiangqi_web::ARCHIVE_FILE)).unwrap();
    conn.execute_batch("UPDATE games SET red = x'fffe00' WHERE id = 1")
        .unwrap();
    drop(conn);
    let (status, err) = send(&app, "GET", "/api/archive/games", None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{err}");
    assert_eq!(err["error"]["params"]["reason"], "archive-corrupt", "{err}");
    let (_, state) = send(&app, "GET", "/api/archive", None).await;
    assert_eq!(state["available"], false, "{state}");
    assert!(
        state["error"]["message"]
            .as_str()
            .unwrap()
            .contains("move it away"),
        "{state}"
    );
    // From then on a move is refused, not played: the archive cannot keep it.
    let path = format!("/api/games/{gid}/move");
    let (status, refused) =
        send(&app, "POST", &path, Some(json!({"from": "i9", "to": "h9"}))).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{refused}");
    assert_eq!(refused["error"]["code"], "not-saved");
}

/// The status and body of a POST of `body` (`text/plain`, as a form or another site's page
/// may send it) to `path`, with `headers` added.
async fn post_from(
    app: &Router,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, Value) {
    let mut request = Request::builder()
        .method("POST")
        .uri(path)
        .header(header::HOST, HOST)
        .header(header::CONTENT_TYPE, "text/plain");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::from(body.to_string())).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn another_site_cannot_write_to_the_app() {
    let data = data_folder("cross-site");
    let app = archived_app(&data);
    let pgn = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 *\n";
    for path in [
        "/api/archive/import?name=a.pgn",
        "/api/games/import?name=a.pgn",
    ] {
        for headers in [
            &[("origin", "http://evil.example")][..],
            &[("origin", "null")],
            &[("origin", "http://127.0.0.1:8081")],
            &[("sec-fetch-site", "cross-site")],
            &[("sec-fetch-site", "same-site")],
        ] {
            let (status, err) = post_from(&app, path, headers, pgn).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{path} {headers:?}: {err}");
            assert_eq!(err["error"]["code"], "cross-site", "{err}");
        }
    }
    let (status, err) = post_from(
        &app,
        "/api/games",
        &[("origin", "http://evil.example")],
        "{}",
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
    assert!(listed(&app, "").await.is_empty(), "nothing was imported");
    // The app's own page, and a program that sends neither header, may.
    for headers in [
        &[
            ("origin", "http://127.0.0.1:8080"),
            ("sec-fetch-site", "same-origin"),
        ][..],
        &[("origin", "http://localhost:8080")],
        &[],
    ] {
        let (status, answer) =
            post_from(&app, "/api/archive/import?name=a.pgn", headers, pgn).await;
        assert_eq!(status, StatusCode::CREATED, "{headers:?}: {answer}");
    }
    assert_eq!(listed(&app, "").await.len(), 3);
    // Reading is not writing: another site's GET gets its answer (which its page cannot read).
    let request = Request::builder()
        .uri("/api/levels")
        .header(header::HOST, HOST)
        .header("origin", "http://evil.example")
        .body(Body::empty())
        .unwrap();
    assert_eq!(
        app.clone().oneshot(request).await.unwrap().status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_request_with_two_host_headers_is_refused() {
    let app = archived_app(&data_folder("two-hosts"));
    let request = Request::builder()
        .uri("/api/levels")
        .header(header::HOST, HOST)
        .header(header::HOST, "evil.example")
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn an_import_where_every_game_is_broken_is_refused() {
    let app = archived_app(&data_folder("all-broken"));
    let broken = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. a0a5 *\n\n\
                  [Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9h0 *\n";
    let (status, _, answer) =
        send_text(&app, "POST", "/api/archive/import?name=bad.pgn", broken).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["error"]["code"], "chariot-path-blocked", "{answer}");
    assert_eq!(answer["error"]["params"]["games"], 2);
    assert_eq!(
        answer["error"]["params"]["broken"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert!(listed(&app, "").await.is_empty());
}

#[tokio::test]
async fn tabs_on_one_game_that_lose_no_saved_move_keep_its_row() {
    let data = data_folder("tabs-same-moves");
    let app = archived_app(&data);
    let (_, key) = saved_game(&app, &["h2e2", "h9g7"]).await;
    // Three tabs bring the game back as it is saved (a reload of each).
    let mut tabs = Vec::new();
    for _ in 0..3 {
        let (status, resumed) = send(
            &app,
            "POST",
            "/api/archive/resume",
            Some(json!({"key": key, "fen": START, "moves": ["h2e2", "h9g7"]})),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{resumed}");
        tabs.push(id(&resumed));
    }
    let players = listed(&app, "").await[0]["red"].clone();
    // Each names other players: the row's moves are all in each copy, so nothing forks, and
    // the row keeps its own players (a tab's settings may be another browser's).
    for (i, tab) in tabs.iter().enumerate() {
        let told = name_players(&app, tab, json!({"red": format!("Tab {i}"), "black": "B"})).await;
        assert_eq!(told["key"], key.as_str(), "{told}");
        assert!(told["notice"].is_null(), "{told}");
    }
    assert_eq!(listed(&app, "").await.len(), 1);
    assert_eq!(listed(&app, "").await[0]["red"], players);
    // The first tab plays on from the saved moves: still the same row.
    play(&app, &tabs[0], "h0", "g2").await;
    assert_eq!(kept_moves(&data, &key), Some(3));
    let told = name_players(&app, &tabs[0], json!({})).await;
    assert!(told["notice"].is_null(), "{told}");
    // The second tab, whose copy lacks that move, plays another: it goes on as a new game.
    play(&app, &tabs[1], "b2", "d2").await;
    assert_eq!(
        kept_moves(&data, &key),
        Some(3),
        "the row keeps its third move"
    );
    let told = name_players(&app, &tabs[1], json!({})).await;
    assert_eq!(told["notice"]["code"], "archive-forked", "{told}");
    assert_eq!(listed(&app, "").await.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_are_answered_while_a_large_import_is_written() {
    let data = data_folder("import-moves");
    let app = archived_app(&data);
    let file: String = (0..6_000)
        .map(|i| {
            format!(
                "[Game \"Chinese Chess\"]\n[Round \"{i}\"]\n[Format \"ICCS\"]\n\n\
                 1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 *\n\n"
            )
        })
        .collect();
    let game = new_game(&app, json!({})).await;
    let gid = id(&game).to_string();
    let importer = {
        let app = app.clone();
        tokio::spawn(async move {
            send_text(&app, "POST", "/api/archive/import?name=many.pgn", &file).await
        })
    };
    // Moves and undos while the import runs: each is answered before it ends.
    let mut answered_during = 0;
    let mut seen_progress = false;
    for _ in 0..100_000 {
        if importer.is_finished() {
            break;
        }
        let (status, _) = send(
            &app,
            "POST",
            &format!("/api/games/{gid}/move"),
            Some(json!({"from": "h2", "to": "e2"})),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = send(&app, "POST", &format!("/api/games/{gid}/undo"), None).await;
        assert_eq!(status, StatusCode::OK);
        let (_, state) = send(&app, "GET", "/api/archive", None).await;
        if let Some(done) = state["import"]["done"].as_u64() {
            seen_progress |= done > 0 && state["import"]["total"] == 6_000;
        }
        answered_during += 1;
    }
    let (status, _, answer) = importer.await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["imported"], 6_000, "{}", answer["imported"]);
    assert!(
        answered_during > 0,
        "no move was answered before the import ended"
    );
    assert!(seen_progress, "the status showed the import's progress");
    let (_, state) = send(&app, "GET", "/api/archive", None).await;
    assert!(state["import"].is_null(), "{state}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_while_another_program_holds_the_file_is_refused_and_play_resumes_after() {
    let data = data_folder("locked");
    let app = archived_app(&data);
    let (gid, key) = saved_game(&app, &["h2e2"]).await;
    // Another program takes the file's write lock and holds it past the server's wait.
    let holder = rusqlite::Connection::open(data.join(xiangqi_web::ARCHIVE_FILE)).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let path = format!("/api/games/{gid}/move");
    let (status, refused) =
        send(&app, "POST", &path, Some(json!({"from": "h9", "to": "g7"}))).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{refused}");
    assert_eq!(refused["error"]["code"], "not-saved");
    // Refused at once from then on, and nothing but the kept move is on the board.
    let started = std::time::Instant::now();
    let (status, _) = send(&app, "POST", &path, Some(json!({"from": "h9", "to": "g7"}))).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
    let (_, now) = send(&app, "GET", &format!("/api/games/{gid}"), None).await;
    assert_eq!(now["moves"].as_array().unwrap().len(), 1);
    // The status says changes are not kept, and why.
    let (_, state) = send(&app, "GET", "/api/archive", None).await;
    assert_eq!(state["available"], true, "{state}");
    assert_eq!(state["saving"], false, "{state}");
    assert!(
        state["not_saving"].as_str().unwrap().contains("not made"),
        "{state}"
    );
    // The lock goes: the server finds it can write again by itself.
    holder.execute_batch("ROLLBACK").unwrap();
    drop(holder);
    assert!(
        played_once_writes_pass(&app, &path, json!({"from": "h9", "to": "g7"})).await,
        "play did not resume once the lock was gone"
    );
    assert_eq!(
        kept_moves(&data, &key),
        Some(2),
        "exactly the moves answered"
    );
    let (_, state) = send(&app, "GET", "/api/archive", None).await;
    assert_eq!(state["saving"], true, "{state}");
    assert!(state["not_saving"].is_null(), "{state}");
}

#[tokio::test]
async fn a_file_overwritten_in_place_while_the_server_runs_is_noticed() {
    let data = data_folder("overwritten");
    let app = archived_app(&data);
    let file = data.join(xiangqi_web::ARCHIVE_FILE);
    let (gid, _) = saved_game(&app, &["h2e2"]).await;
    // Another program writes the file's own bytes back over it: the same file (the same
    // inode), written by someone else.
    let bytes = std::fs::read(&file).unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    std::fs::write(&file, &bytes).unwrap();
    let path = format!("/api/games/{gid}/move");
    let (status, refused) =
        send(&app, "POST", &path, Some(json!({"from": "h9", "to": "g7"}))).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{refused}");
    assert_eq!(refused["error"]["code"], "not-saved", "{refused}");
    let (_, state) = send(&app, "GET", "/api/archive", None).await;
    assert_eq!(state["available"], false, "{state}");
    assert_eq!(
        state["error"]["params"]["reason"], "archive-gone",
        "{state}"
    );
    assert!(
        state["error"]["message"]
            .as_str()
            .unwrap()
            .contains("overwritten"),
        "{state}"
    );
}

#[tokio::test]
async fn a_rooms_key_is_read_whatever_characters_its_room_id_holds() {
    let data = data_folder("room-key-characters");
    let app = archived_app(&data);
    // A room's id is URL-safe base64: `-` and `_` among the letters and digits. Such a key
    // is read as a key (a room's game not kept here is not found, not refused as a key).
    for key in ["room-PL_1xWouZhc4Pe7pDDY0Qg-1", "room-a-b_c-2-red"] {
        let (status, answer) = send(
            &app,
            "POST",
            "/api/archive/resume",
            Some(json!({"key": key, "fen": null, "moves": ["h2e2"]})),
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{key}: {answer}");
        assert_eq!(answer["error"]["code"], "archive-no-game", "{answer}");
    }
    for bad in ["room-a b-1", "room-ä-1", ""] {
        let (status, refused) = send(
            &app,
            "POST",
            "/api/archive/resume",
            Some(json!({"key": bad, "fen": null, "moves": []})),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {refused}");
    }
    let _ = std::fs::remove_dir_all(&data);
}
