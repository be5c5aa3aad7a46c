//! Puzzles through the router: the next puzzle near a rating and within the filters, the
//! learner's moves answered (right with the reply, solved, wrong with the engine's
//! refutation), hints and the solution, the learner's rating after a solve and a failure, and
//! bad input refused with codes the page words.

mod common;

use axum::Router;
use axum::http::StatusCode;
use common::send;
use serde_json::{Value, json};
use xiangqi_rules::{GameStatus, Move, Position};
use xiangqi_teaching::puzzles::{Puzzle, shipped};

fn app() -> Router {
    common::app(1, 2, 4)
}

fn puzzles() -> &'static [Puzzle] {
    shipped().expect("the shipped puzzles read")
}

/// A puzzle of at least two solver moves, mate puzzles first.
fn long_puzzle() -> &'static Puzzle {
    let all = puzzles();
    all.iter()
        .filter(|p| p.moves.len() >= 3)
        .min_by_key(|p| (p.mate_length().is_none(), p.moves.len()))
        .expect("a puzzle of two solver moves or more")
}

async fn play(app: &Router, id: &str, ply: usize, mv: &str) -> (StatusCode, Value) {
    send(
        app,
        "POST",
        &format!("/api/puzzles/{id}/move"),
        Some(json!({ "ply": ply, "move": mv })),
    )
    .await
}

fn error_code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or("")
}

#[tokio::test]
async fn the_next_puzzle_is_among_the_nearest_to_the_rating() {
    let app = app();
    let all = puzzles();
    for rating in [600.0_f64, 1500.0, 2400.0] {
        // The distance of the twelfth nearest puzzle bounds every choice.
        let mut distances: Vec<f64> = all
            .iter()
            .map(|p| (f64::from(p.rating) - rating).abs())
            .collect();
        distances.sort_by(f64::total_cmp);
        let bound = distances[distances.len().min(12) - 1];
        for seed in 0..6 {
            let (status, body) = send(
                &app,
                "GET",
                &format!("/api/puzzles/next?rating={rating}&seed={seed}"),
                None,
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{body}");
            let got = body["rating"].as_f64().unwrap();
            assert!(
                (got - rating).abs() <= bound,
                "rating {rating}: chose {got}, nearest twelve within {bound}"
            );
            let id = body["id"].as_str().unwrap();
            let shipped = all.iter().find(|p| p.id == id).expect("a shipped puzzle");
            assert_eq!(body["fen"], shipped.position.to_fen());
            assert_eq!(body["plies"], shipped.moves.len());
            assert!(
                body.get("moves").is_none(),
                "the solution stays on the server"
            );
        }
    }
}

#[tokio::test]
async fn a_puzzle_just_seen_is_not_chosen_again() {
    let app = app();
    if puzzles().len() < 2 {
        return;
    }
    for seed in 0..5 {
        let (_, first) = send(&app, "GET", &format!("/api/puzzles/next?seed={seed}"), None).await;
        let id = first["id"].as_str().unwrap();
        let (status, again) = send(
            &app,
            "GET",
            &format!("/api/puzzles/next?seed={seed}&recent={id}"),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{again}");
        assert_ne!(again["id"], id);
    }
}

#[tokio::test]
async fn filters_choose_by_theme_and_difficulty() {
    let app = app();
    let all = puzzles();
    let theme = all[0].themes[0].to_string();
    let (status, body) = send(
        &app,
        "GET",
        &format!("/api/puzzles/next?theme={theme}&seed=3"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        body["themes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == theme.as_str()),
        "{body}"
    );
    let low = all.iter().map(|p| p.rating).min().unwrap();
    let (status, body) = send(
        &app,
        "GET",
        &format!("/api/puzzles/next?rating=3000&max={low}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["rating"], low, "the range caps the rating asked for");

    let (status, body) = send(&app, "GET", "/api/puzzles/next?min=99999", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error_code(&body), "no-puzzles");
    let (status, body) = send(&app, "GET", "/api/puzzles/next?theme=mateIn9", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error_code(&body), "bad-theme");
    assert_eq!(body["error"]["params"]["theme"], "mateIn9");

    let (status, list) = send(&app, "GET", "/api/puzzles/themes", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["total"], all.len());
    // How a newcomer starts: near the easy end, provisional.
    assert_eq!(list["newcomer"]["rating"], 900.0);
    assert!(
        list["newcomer"]["deviation"].as_f64().unwrap()
            > list["provisional_deviation"].as_f64().unwrap(),
        "{list}"
    );
    let counted = list["themes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == theme.as_str())
        .expect("the theme is listed");
    let expected = all
        .iter()
        .filter(|p| p.themes.iter().any(|t| t.to_string() == theme))
        .count();
    assert_eq!(counted["count"], expected);
    // Patterns carry their names from the pattern lessons.
    for pattern in list["patterns"].as_array().unwrap() {
        let name = &pattern["name"];
        assert!(
            !name["chinese"].as_str().unwrap_or("").is_empty(),
            "{pattern}"
        );
        assert!(!name["ru"].as_str().unwrap_or("").is_empty(), "{pattern}");
    }
}

#[tokio::test]
async fn the_solution_played_move_by_move_solves_the_puzzle() {
    let app = app();
    let puzzle = long_puzzle();
    let line: Vec<String> = puzzle.moves.iter().map(Move::to_string).collect();
    let mut ply = 0;
    loop {
        let (status, answer) = play(&app, &puzzle.id, ply, &line[ply]).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["correct"], true, "{answer}");
        assert_eq!(answer["played"]["iccs"], line[ply]);
        if answer["solved"] == true {
            assert!(ply + 2 >= line.len(), "solved only at the end");
            break;
        }
        assert_eq!(
            answer["reply"]["iccs"],
            line[ply + 1],
            "the reply is the line's"
        );
        assert_eq!(answer["ply"], ply + 2);
        // The solver's next move is among the legal moves the page draws as dots.
        let next = &line[ply + 2];
        let targets = answer["legal"][&next[..2]].as_array().expect("legal moves");
        assert!(targets.iter().any(|t| t == &next[2..]), "{answer}");
        ply += 2;
    }
    // The puzzle's own view lists the first move's dots too.
    let (status, view) = send(&app, "GET", &format!("/api/puzzles/{}", puzzle.id), None).await;
    assert_eq!(status, StatusCode::OK);
    let first = &line[0];
    assert!(
        view["legal"][&first[..2]]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == &first[2..]),
        "{view}"
    );
}

/// The general's point of the side to move after `puzzle`'s whole line.
fn loser_general(puzzle: &Puzzle) -> String {
    let end = puzzle.position_at(puzzle.moves.len());
    end.general(end.side_to_move()).to_string()
}

#[tokio::test]
async fn a_mate_and_a_stalemate_are_told_apart() {
    let app = app();
    // d3d8 leaves Black without a move and not in check: a stalemate, which wins.
    let stalemate = xiangqi_teaching::puzzles::shipped_puzzle("m1-2b74b4462c63")
        .unwrap()
        .unwrap();
    let (_, view) = send(&app, "GET", "/api/puzzles/m1-2b74b4462c63", None).await;
    assert_eq!(view["stalemate"], 1, "{view}");
    assert_eq!(view["mate"], Value::Null, "{view}");
    assert_eq!(view["themes"][0], "stalemateIn1");
    let (status, answer) = play(&app, &stalemate.id, 0, "d3d8").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["solved"], true, "{answer}");
    assert_eq!(answer["ending"]["code"], "stalemate", "{answer}");
    assert_eq!(answer["ending"]["general"], loser_general(stalemate));
    assert_eq!(answer["check"], Value::Null);

    let mate = puzzles()
        .iter()
        .find(|p| p.mate_length() == Some(1))
        .expect("a mate in 1");
    let (_, view) = send(&app, "GET", &format!("/api/puzzles/{}", mate.id), None).await;
    assert_eq!(
        (view["mate"].clone(), view["stalemate"].clone()),
        (json!(1), Value::Null)
    );
    let (_, answer) = play(&app, &mate.id, 0, &mate.moves[0].to_string()).await;
    assert_eq!(answer["ending"]["code"], "checkmate", "{answer}");
    assert_eq!(answer["ending"]["general"], loser_general(mate));
    assert_eq!(answer["check"], answer["ending"]["general"]);
}

/// A legal first move of `puzzle` that is not the solution's and does not win at once.
fn wrong_first_move(puzzle: &Puzzle) -> Move {
    let pos: &Position = &puzzle.position;
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&m| m != puzzle.moves[0])
        .find(|&m| pos.after(m).status() == GameStatus::Ongoing)
        .expect("a wrong move")
}

#[tokio::test]
async fn a_wrong_move_comes_with_the_engines_refutation() {
    let app = app();
    let puzzle = long_puzzle();
    let wrong = wrong_first_move(puzzle);
    let (status, answer) = play(&app, &puzzle.id, 0, &wrong.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["correct"], false);
    assert_eq!(answer["solved"], false);
    assert_eq!(
        answer["ply"], 0,
        "the learner tries again from the same step"
    );
    let why = &answer["refutation"];
    let reply: Move = why["reply"]["iccs"]
        .as_str()
        .expect("a refuting move")
        .parse()
        .unwrap();
    let after = puzzle.position.after(wrong);
    assert!(after.is_legal(reply), "the refutation is legal: {why}");
    assert_eq!(why["reply"]["from"], reply.from().to_string());
    let kind = why["kind"].as_str().unwrap();
    assert!(
        ["mate", "material", "no-mate", "no-win", "positional"].contains(&kind),
        "{why}"
    );
    if puzzle.mate_length().is_some() {
        assert_ne!(kind, "no-win", "a mate puzzle says the mate is gone");
    }
    assert!(!why["text"].as_str().unwrap().is_empty());
    // What the answer attacks, where it attacks anything: a piece of the solver's that the
    // answering piece can take next.
    let threat = &why["threat"];
    assert!(why.get("threat").is_some(), "{why}");
    if !threat.is_null() {
        let answered = after.after(reply);
        let square: xiangqi_rules::Square = threat["square"].as_str().unwrap().parse().unwrap();
        let piece = answered.piece_at(square).expect("a piece stands there");
        assert_eq!(piece.color, puzzle.position.side_to_move(), "{why}");
        assert_eq!(
            threat["piece"].as_str().unwrap(),
            piece.fen_char().to_string()
        );
    }
}

#[tokio::test]
async fn hints_and_the_solution_follow_the_line() {
    let app = app();
    let puzzle = long_puzzle();
    let (status, hint) = send(
        &app,
        "GET",
        &format!("/api/puzzles/{}/hint?ply=2", puzzle.id),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert_eq!(hint["from"], puzzle.moves[2].from().to_string());
    assert_eq!(hint["move"]["iccs"], puzzle.moves[2].to_string());
    let (status, solution) = send(
        &app,
        "GET",
        &format!("/api/puzzles/{}/solution", puzzle.id),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let line: Vec<&str> = solution["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = puzzle.moves.iter().map(Move::to_string).collect();
    assert_eq!(line, expected);
}

#[tokio::test]
async fn the_rating_goes_up_after_a_solve_and_down_after_a_failure() {
    let app = app();
    let puzzle = long_puzzle();
    let state = json!({ "rating": 1500.0, "deviation": 120.0, "volatility": 0.06, "streak": 2, "best_streak": 2 });
    let (status, solved) = send(
        &app,
        "POST",
        "/api/puzzles/result",
        Some(json!({ "id": puzzle.id, "solved": true, "state": state })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{solved}");
    assert!(solved["change"].as_i64().unwrap() > 0, "{solved}");
    assert!(solved["state"]["rating"].as_f64().unwrap() > 1500.0);
    assert_eq!(solved["state"]["streak"], 3);
    assert_eq!(solved["state"]["best_streak"], 3);
    assert_eq!(solved["puzzle_rating"], puzzle.rating);

    let (status, failed) = send(
        &app,
        "POST",
        "/api/puzzles/result",
        Some(json!({ "id": puzzle.id, "solved": false, "state": solved["state"] })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{failed}");
    assert!(failed["change"].as_i64().unwrap() < 0, "{failed}");
    assert_eq!(failed["state"]["streak"], 0);
    assert_eq!(failed["state"]["best_streak"], 3);

    // A newcomer sends no state.
    let (status, first) = send(
        &app,
        "POST",
        "/api/puzzles/result",
        Some(json!({ "id": puzzle.id, "solved": true })),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(first["state"]["deviation"].as_f64().unwrap() < 350.0);
    // A newcomer's rating is provisional: one puzzle moves it by at most 60 points.
    for solved in [true, false] {
        let (_, newcomer) = send(
            &app,
            "POST",
            "/api/puzzles/result",
            Some(json!({ "id": puzzle.id, "solved": solved })),
        )
        .await;
        let change = newcomer["change"].as_i64().unwrap();
        assert!(change != 0 && change.abs() <= 60, "{newcomer}");
    }
}

#[tokio::test]
async fn bad_input_is_refused_with_codes() {
    let app = app();
    let puzzle = long_puzzle();
    let id = puzzle.id.as_str();
    let first = puzzle.moves[0].to_string();

    for (method, path) in [
        ("GET", "/api/puzzles/nope"),
        ("GET", "/api/puzzles/nope/hint"),
        ("GET", "/api/puzzles/nope/solution"),
    ] {
        let (status, body) = send(&app, method, path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(error_code(&body), "no-puzzle");
        assert_eq!(body["error"]["params"]["id"], "nope");
    }
    let (status, body) = play(&app, "nope", 0, &first).await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::NOT_FOUND, "no-puzzle")
    );

    for ply in [1, puzzle.moves.len() + 1] {
        let (status, body) = play(&app, id, ply, &first).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "ply {ply}");
        assert_eq!(error_code(&body), "puzzle-out-of-step");
        assert_eq!(body["error"]["params"]["plies"], puzzle.moves.len());
    }
    let (status, body) = play(&app, id, 0, "z9z9").await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::BAD_REQUEST, "bad-move-text")
    );
    assert_eq!(body["error"]["params"]["text"], "z9z9");

    // An empty point: the rules core's reason, as in play.
    let empty = (0..90)
        .map(|i| format!("{}{}", (b'a' + (i % 9) as u8) as char, i / 9))
        .find(|sq| puzzle.position.piece_at(sq.parse().unwrap()).is_none())
        .unwrap();
    let (status, body) = play(&app, id, 0, &format!("{empty}{empty}")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(!error_code(&body).is_empty());

    let (status, body) = send(
        &app,
        "POST",
        &format!("/api/puzzles/{id}/move"),
        Some(json!({ "move": first })),
    )
    .await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::BAD_REQUEST, "bad-request")
    );

    let broken = json!({ "rating": 1500.0, "deviation": -5.0, "volatility": 0.06 });
    let (status, body) = send(
        &app,
        "POST",
        "/api/puzzles/result",
        Some(json!({ "id": id, "solved": true, "state": broken })),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(error_code(&body), "bad-rating-state");
    assert_eq!(body["error"]["params"]["field"], "deviation");
    let (status, body) = send(
        &app,
        "POST",
        "/api/puzzles/result",
        Some(json!({ "id": "nope", "solved": true })),
    )
    .await;
    assert_eq!(
        (status, error_code(&body)),
        (StatusCode::NOT_FOUND, "no-puzzle")
    );
}

#[tokio::test]
async fn a_puzzle_counts_once_for_a_learner_whose_rating_the_server_keeps() {
    let data = common::data_folder("puzzles", "counts-once");
    let app = common::app_with_data(Some(&data));
    let puzzle = long_puzzle();
    let rate = |solved: bool| {
        let app = app.clone();
        let id = puzzle.id.clone();
        async move {
            let (status, answer) = send(
                &app,
                "POST",
                "/api/puzzles/result",
                Some(json!({ "id": id, "solved": solved })),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            answer
        }
    };
    let first = rate(true).await;
    assert_eq!(first["rated"], true, "{first}");
    assert!(first["change"].as_i64().unwrap() > 0, "{first}");
    // Solved again through its address: the rating stays, and so does a failure then.
    for solved in [true, false] {
        let again = rate(solved).await;
        assert_eq!(again["rated"], false, "{again}");
        assert_eq!(again["change"], 0, "{again}");
        assert_eq!(again["state"], first["state"], "{again}");
    }
    // Another puzzle still counts.
    let other = puzzles().iter().find(|p| p.id != puzzle.id).unwrap();
    let (_, answer) = send(
        &app,
        "POST",
        "/api/puzzles/result",
        Some(json!({ "id": other.id, "solved": true })),
    )
    .await;
    assert_eq!(answer["rated"], true, "{answer}");
    let _ = std::fs::remove_dir_all(data);
}

#[tokio::test]
async fn the_count_says_how_many_puzzles_match_the_filters() {
    let app = app();
    let (status, all) = send(&app, "GET", "/api/puzzles/count", None).await;
    assert_eq!(status, StatusCode::OK, "{all}");
    assert_eq!(all["count"], puzzles().len());
    let stalemates = puzzles()
        .iter()
        .filter(|p| p.themes.iter().any(|t| t.to_string() == "stalemateIn2"))
        .count();
    let (_, some) = send(&app, "GET", "/api/puzzles/count?theme=stalemateIn2", None).await;
    assert_eq!(some["count"], stalemates);
    let (status, err) = send(&app, "GET", "/api/puzzles/count?theme=mateIn9", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
}

#[tokio::test]
async fn a_settled_learners_results_move_the_puzzles_own_rating_and_a_newcomers_do_not() {
    let data = common::data_folder("puzzles", "puzzle-rating-moves");
    let app = common::app_with_data(Some(&data));
    let [first, second] = [&puzzles()[10], &puzzles()[20]];
    let shown = |id: String| {
        let app = app.clone();
        async move {
            let (status, view) = send(&app, "GET", &format!("/api/puzzles/{id}"), None).await;
            assert_eq!(status, StatusCode::OK, "{view}");
            view["rating"].as_u64().unwrap() as u32
        }
    };
    // A newcomer (provisional) failing the first puzzle leaves its rating alone.
    let (status, answer) = send(
        &app,
        "POST",
        "/api/puzzles/result",
        Some(json!({ "id": first.id, "solved": false })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["new_puzzle_rating"], first.rating);
    assert_eq!(shown(first.id.clone()).await, first.rating);
    // Once settled (the server keeps the state it rated), a failure raises the puzzle's
    // rating, and the next learner is rated against the moved one.
    let settled = json!({ "rating": 1500.0, "deviation": 60.0, "volatility": 0.06 });
    let other = common::data_folder("puzzles", "puzzle-rating-moves-settled");
    let app = common::app_with_data(Some(&other));
    let (_, answer) = send(
        &app,
        "POST",
        "/api/puzzles/result",
        Some(json!({ "id": second.id, "solved": false, "state": settled })),
    )
    .await;
    let moved = answer["new_puzzle_rating"].as_u64().unwrap() as u32;
    assert!(moved > second.rating, "{answer}");
    let (status, view) = send(&app, "GET", &format!("/api/puzzles/{}", second.id), None).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["rating"], moved);
    // The band filter sees the moved rating too.
    let (_, count) = send(
        &app,
        "GET",
        &format!("/api/puzzles/count?min={moved}&max={moved}"),
        None,
    )
    .await;
    assert!(count["count"].as_u64().unwrap() >= 1, "{count}");
    for dir in [data, other] {
        let _ = std::fs::remove_dir_all(dir);
    }
}
