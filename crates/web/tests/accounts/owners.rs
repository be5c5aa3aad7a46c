//! Accounts on a server hosted for many people (in this test binary, beside My games, to
//! keep the test binaries few): sign-up, sign-in, sign-out, passwords,
//! cookies, rate limits, the data download and the deletion; and whose data is whose: every
//! route that reads or changes something kept refuses another account (404) and a visitor
//! with no cookie (401), while the learner's own app has no accounts at all.

use crate::common::{self, data_folder, read};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use tower::ServiceExt;
use xiangqi_web::{AllowedHosts, PoolOptions, ServerOptions, Site, router_with};

const HOST: &str = common::HOST;

/// A hosted app at `url` keeping its data in a fresh folder for `test`, with sign-up
/// `policy`.
fn hosted(test: &str, url: &str, policy: &str) -> Router {
    hosted_in(test, url, policy).0
}

/// [`hosted`], with its data folder.
fn hosted_in(test: &str, url: &str, policy: &str) -> (Router, std::path::PathBuf) {
    let folder = data_folder("accounts", test);
    let options = ServerOptions {
        pool: PoolOptions {
            searchers: 1,
            queue: 8,
            hash_mb: 1,
        },
        data: Some(folder.clone()),
        site: Some(Site::new(url, Vec::new()).unwrap()),
        sign_up: policy.parse().unwrap(),
        ..ServerOptions::default()
    };
    (
        router_with(AllowedHosts::for_address("127.0.0.1", 8080), &options),
        folder,
    )
}

/// A browser: the cookies the server set, sent back with each request.
#[derive(Default, Clone)]
struct Browser {
    cookies: Vec<(String, String)>,
    /// Every `Set-Cookie` it was sent, whole.
    set: Vec<String>,
}

impl Browser {
    async fn send(
        &mut self,
        app: &Router,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, HOST);
        if !self.cookies.is_empty() {
            let cookie = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("; ");
            request = request.header(header::COOKIE, cookie);
        }
        if body.is_some() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        let request = request
            .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        let (status, headers, value) = read(response).await;
        for set in headers.get_all(header::SET_COOKIE) {
            let text = set.to_str().unwrap().to_string();
            let (pair, _) = text.split_once(';').unwrap_or((&text, ""));
            let (name, value) = pair.split_once('=').unwrap();
            self.cookies.retain(|(k, _)| k != name);
            if !value.is_empty() && !text.contains("Max-Age=0") {
                self.cookies.push((name.to_string(), value.to_string()));
            }
            self.set.push(text);
        }
        (status, value)
    }

    /// Opens the app's page (which gives a new browser its guest cookie).
    async fn open_page(&mut self, app: &Router) {
        let (status, _) = self.send(app, "GET", "/", None).await;
        assert_eq!(status, StatusCode::OK);
    }

    async fn sign_up(&mut self, app: &Router, name: &str, password: &str) -> (StatusCode, Value) {
        self.send(
            app,
            "POST",
            "/api/account/sign-up",
            Some(json!({ "name": name, "password": password })),
        )
        .await
    }

    async fn sign_in(&mut self, app: &Router, name: &str, password: &str) -> (StatusCode, Value) {
        self.send(
            app,
            "POST",
            "/api/account/sign-in",
            Some(json!({ "name": name, "password": password })),
        )
        .await
    }

    fn cookie(&self, name: &str) -> Option<&str> {
        self.cookies
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Plays `moves` (ICCS) in a new game of `browser`'s: its id.
async fn played(app: &Router, browser: &mut Browser, moves: &[&str]) -> String {
    let (status, game) = browser
        .send(app, "POST", "/api/games", Some(json!({})))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    for m in moves {
        let (status, answer) = browser
            .send(
                app,
                "POST",
                &format!("/api/games/{id}/move"),
                Some(json!({ "from": &m[..2], "to": &m[2..] })),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    id
}

/// The keys of the games in `browser`'s My games.
async fn my_games(app: &Router, browser: &mut Browser) -> Vec<i64> {
    let (status, list) = browser.send(app, "GET", "/api/archive/games", None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn sign_up_in_and_out_with_cookies_that_a_browser_keeps_safe() {
    let (app, folder) = hosted_in("cookies", "https://club.test", "open");
    let mut ann = Browser::default();
    let (status, me) = ann.send(&app, "GET", "/api/me", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["mode"], "site");
    assert_eq!(me["sign_up"], "open");
    let guest = me["guest"].as_u64().unwrap();
    assert!((1000..=9999).contains(&guest), "{me}");
    assert!(ann.cookie("xq_guest").is_some(), "a guest cookie was given");
    let (status, answer) = ann.sign_up(&app, "Ann", "correct horse").await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    assert_eq!(answer["account"]["name"], "Ann");
    let session = ann
        .set
        .iter()
        .find(|c| c.starts_with("xq_session="))
        .unwrap()
        .clone();
    for flag in ["HttpOnly", "SameSite=Lax", "Secure", "Path=/"] {
        assert!(session.contains(flag), "{session} lacks {flag}");
    }
    let (_, me) = ann.send(&app, "GET", "/api/me", None).await;
    assert_eq!(me["account"]["name"], "Ann");
    assert_eq!(me["guest"], Value::Null);
    // The token is kept only as its hash: the cookie's value is nowhere in the database.
    let token = ann.cookie("xq_session").unwrap().to_string();
    let file = folder.join("games.sqlite3");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.extend(std::fs::read(file.with_extension("sqlite3-wal")).unwrap_or_default());
    assert!(!String::from_utf8_lossy(&bytes).contains(&token));
    // Signed out, the same token is refused.
    let stolen = ann.clone();
    let (status, _) = ann.send(&app, "POST", "/api/account/sign-out", None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(ann.cookie("xq_session").is_none(), "the browser forgot it");
    let mut thief = stolen;
    let (_, me) = thief.send(&app, "GET", "/api/me", None).await;
    assert_eq!(me["account"], Value::Null, "a closed session opens nothing");
    // Signing in again: the name in any case; a wrong password and an unknown name alike.
    let (status, answer) = ann.sign_in(&app, "ANN", "correct horse").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (status, wrong) = ann.sign_in(&app, "Ann", "wrong horse").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong["error"]["code"], "wrong-password");
    let (status, nobody) = ann.sign_in(&app, "Nobody", "wrong horse").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(nobody["error"]["message"], wrong["error"]["message"]);
}

#[tokio::test]
async fn a_server_over_plain_http_sets_no_secure_cookie_and_the_own_app_has_no_accounts() {
    let app = hosted("plain", "http://club.test", "open");
    let mut ann = Browser::default();
    ann.open_page(&app).await;
    assert!(
        ann.set.iter().all(|c| !c.contains("Secure")),
        "{:?}",
        ann.set
    );
    assert!(ann.cookie("xq_guest").is_some());
    // The learner's own app.
    let own = common::app_with_data(Some(&data_folder("accounts", "own")));
    let mut me = Browser::default();
    let (status, view) = me.send(&own, "GET", "/api/me", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["mode"], "own");
    assert!(me.set.is_empty(), "no cookie on one's own app");
    let (status, refused) = me.sign_up(&own, "Ann", "correct horse").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(refused["error"]["code"], "no-accounts");
    // Its owner keeps games with no cookie at all.
    played(&own, &mut me, &["h2e2"]).await;
    assert_eq!(my_games(&own, &mut me).await.len(), 1);
}

#[tokio::test]
async fn bad_names_and_passwords_taken_names_and_the_sign_up_policies() {
    let app = hosted("policies", "https://club.test", "open");
    let mut b = Browser::default();
    for (name, password, code) in [
        ("A", "correct horse", "bad-name"),
        ("Guest7", "correct horse", "bad-name"),
        ("Ann Smith", "correct horse", "bad-name"),
        ("Ann", "short", "bad-password"),
    ] {
        let (status, answer) = b.sign_up(&app, name, password).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {answer}");
        assert_eq!(answer["error"]["code"], code, "{name}");
    }
    assert_eq!(
        b.sign_up(&app, "Ann", "correct horse").await.0,
        StatusCode::CREATED
    );
    let mut other = Browser::default();
    let (status, taken) = other.sign_up(&app, "aNN", "other horse").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(taken["error"]["code"], "name-taken");

    let closed = hosted("closed", "https://club.test", "closed");
    let (status, refused) = Browser::default()
        .sign_up(&closed, "Ann", "correct horse")
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(refused["error"]["code"], "sign-up-closed");

    let invite = hosted("invite", "https://club.test", "invite");
    let (status, refused) = Browser::default()
        .sign_up(&invite, "Ann", "correct horse")
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(refused["error"]["code"], "bad-invite");
    let (status, refused) = Browser::default()
        .send(
            &invite,
            "POST",
            "/api/account/sign-up",
            Some(json!({ "name": "Ann", "password": "correct horse", "invite": "made-up" })),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(refused["error"]["code"], "bad-invite");
}

#[tokio::test]
async fn sign_in_is_rate_limited_per_address_and_per_account() {
    let app = hosted("limits", "https://club.test", "open");
    let mut b = Browser::default();
    assert_eq!(
        b.sign_up(&app, "Ann", "correct horse").await.0,
        StatusCode::CREATED
    );
    // One account: five tries at once, then 429 with when to try again.
    let mut statuses = Vec::new();
    for _ in 0..6 {
        statuses.push(b.sign_in(&app, "Ann", "guessing wrong").await.0);
    }
    assert_eq!(statuses[..4], [StatusCode::UNAUTHORIZED; 4]);
    let (status, limited) = b.sign_in(&app, "Ann", "correct horse").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{limited}");
    assert_eq!(limited["error"]["code"], "too-many-tries");
    assert!(limited["error"]["params"]["retry_after"].as_u64().unwrap() >= 1);
    // One address: ten tries in all, whatever the names.
    let (status, _) = b.sign_in(&app, "Bob", "guessing wrong").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = b.sign_in(&app, "Cy", "guessing wrong").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = b.sign_in(&app, "Dee", "guessing wrong").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn each_account_sees_and_changes_only_its_own_and_a_visitor_none() {
    let app = hosted("owners", "https://club.test", "open");
    let mut ann = Browser::default();
    ann.open_page(&app).await;
    assert_eq!(
        ann.sign_up(&app, "Ann", "correct horse").await.0,
        StatusCode::CREATED
    );
    let mut bob = Browser::default();
    bob.open_page(&app).await;
    assert_eq!(
        bob.sign_up(&app, "Bob", "battery staple").await.0,
        StatusCode::CREATED
    );
    let ann_game = played(&app, &mut ann, &["h2e2", "h9g7"]).await;
    played(&app, &mut bob, &["b2e2"]).await;
    let ann_rows = my_games(&app, &mut ann).await;
    let bob_rows = my_games(&app, &mut bob).await;
    assert_eq!((ann_rows.len(), bob_rows.len()), (1, 1));
    let row = ann_rows[0];
    // Bob cannot reach Ann's game, kept or being played.
    for (method, path, body) in [
        ("GET", format!("/api/archive/games/{row}"), None),
        ("DELETE", format!("/api/archive/games/{row}"), None),
        ("POST", format!("/api/archive/games/{row}/open"), None),
        ("GET", format!("/api/games/{ann_game}"), None),
        (
            "POST",
            format!("/api/games/{ann_game}/move"),
            Some(json!({ "from": "b0", "to": "c2" })),
        ),
        ("POST", format!("/api/games/{ann_game}/undo"), None),
        ("DELETE", format!("/api/games/{ann_game}"), None),
        (
            "POST",
            format!("/api/archive/sessions/{ann_game}"),
            Some(json!({ "red": "Bob" })),
        ),
    ] {
        let (status, answer) = bob.send(&app, method, &path, body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}: {answer}");
    }
    // The export holds one's own games only.
    let (status, _) = bob.send(&app, "GET", "/api/archive/export", None).await;
    assert_eq!(status, StatusCode::OK);
    // A visitor with no cookie is refused everything kept.
    let mut visitor = Browser::default();
    for (method, path) in [
        ("GET", "/api/archive/games".to_string()),
        ("GET", format!("/api/archive/games/{row}")),
        ("DELETE", format!("/api/archive/games/{row}")),
        ("GET", "/api/archive/export".to_string()),
        ("POST", format!("/api/archive/games/{row}/open")),
        ("GET", "/api/trainer".to_string()),
        ("GET", "/api/account/data".to_string()),
        ("POST", "/api/account/password".to_string()),
    ] {
        let body = (method == "POST").then(|| json!({ "current": "x", "new": "yyyyyyyy" }));
        let (status, answer) = visitor.send(&app, method, &path, body).await;
        assert_eq!(
            status,
            StatusCode::UNAUTHORIZED,
            "{method} {path}: {answer}"
        );
        assert_eq!(answer["error"]["code"], "signed-out", "{path}");
    }
    let (status, _) = visitor
        .send(
            &app,
            "POST",
            "/api/archive/resume",
            Some(json!({ "key": "abc" })),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // Ann's game is still there, whole.
    let (status, game) = ann
        .send(&app, "GET", &format!("/api/archive/games/{row}"), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(game["moves"], 2);
}

#[tokio::test]
async fn what_a_guest_did_goes_with_the_account_they_make() {
    let app = hosted("guest", "https://club.test", "open");
    let mut ann = Browser::default();
    ann.open_page(&app).await;
    played(&app, &mut ann, &["h2e2"]).await;
    assert_eq!(
        my_games(&app, &mut ann).await.len(),
        1,
        "a guest's own games"
    );
    // Another guest sees none of them.
    let mut other = Browser::default();
    other.open_page(&app).await;
    assert!(my_games(&app, &mut other).await.is_empty());
    assert_eq!(
        ann.sign_up(&app, "Ann", "correct horse").await.0,
        StatusCode::CREATED
    );
    assert_eq!(
        my_games(&app, &mut ann).await.len(),
        1,
        "kept by the account"
    );
    // Signed in from another browser, the account has them.
    let mut elsewhere = Browser::default();
    assert_eq!(
        elsewhere.sign_in(&app, "Ann", "correct horse").await.0,
        StatusCode::OK
    );
    assert_eq!(my_games(&app, &mut elsewhere).await.len(), 1);
}

#[tokio::test]
async fn a_password_change_ends_the_other_sessions_and_the_data_comes_whole() {
    let app = hosted("password", "https://club.test", "open");
    let mut here = Browser::default();
    assert_eq!(
        here.sign_up(&app, "Ann", "correct horse").await.0,
        StatusCode::CREATED
    );
    let mut there = Browser::default();
    assert_eq!(
        there.sign_in(&app, "Ann", "correct horse").await.0,
        StatusCode::OK
    );
    played(&app, &mut here, &["h2e2", "h9g7"]).await;
    let (status, wrong) = here
        .send(
            &app,
            "POST",
            "/api/account/password",
            Some(json!({ "current": "wrong horse", "new": "new battery" })),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{wrong}");
    let (status, answer) = here
        .send(
            &app,
            "POST",
            "/api/account/password",
            Some(json!({ "current": "correct horse", "new": "new battery" })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, me) = here.send(&app, "GET", "/api/me", None).await;
    assert_eq!(me["account"]["name"], "Ann", "this browser stays signed in");
    // The other browser's session ended (looked up again within seconds).
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let (_, me) = there.send(&app, "GET", "/api/me", None).await;
    assert_eq!(me["account"], Value::Null, "{me}");
    assert_eq!(
        there.sign_in(&app, "Ann", "correct horse").await.0,
        StatusCode::UNAUTHORIZED
    );
    // The download holds the account and its games.
    let (status, data) = here.send(&app, "GET", "/api/account/data", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(data["account"]["name"], "Ann");
    assert_eq!(data["games"].as_array().unwrap().len(), 1);
    assert!(
        data["games"][0]["pgn"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("h2")
    );
    assert!(!data.to_string().contains("argon2"), "no password hash");
}

#[tokio::test]
async fn deleting_an_account_removes_its_rows_and_asks_for_its_password() {
    let (app, folder) = hosted_in("delete", "https://club.test", "open");
    let mut ann = Browser::default();
    assert_eq!(
        ann.sign_up(&app, "Ann", "correct horse").await.0,
        StatusCode::CREATED
    );
    played(&app, &mut ann, &["h2e2"]).await;
    let mut bob = Browser::default();
    assert_eq!(
        bob.sign_up(&app, "Bob", "battery staple").await.0,
        StatusCode::CREATED
    );
    played(&app, &mut bob, &["h2e2"]).await;
    let (status, _) = ann
        .send(
            &app,
            "DELETE",
            "/api/account",
            Some(json!({ "password": "nope nope" })),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = ann
        .send(
            &app,
            "DELETE",
            "/api/account",
            Some(json!({ "password": "correct horse" })),
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(ann.cookie("xq_session").is_none());
    assert_eq!(
        ann.sign_in(&app, "Ann", "correct horse").await.0,
        StatusCode::UNAUTHORIZED
    );
    // Its rows are gone from the file; Bob's stay.
    let file = folder.join("games.sqlite3");
    let db = rusqlite::Connection::open(&file).unwrap();
    let count = |sql: &str| -> i64 { db.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(count("SELECT count(*) FROM accounts"), 1);
    assert_eq!(count("SELECT count(*) FROM games"), 1);
    assert_eq!(count("SELECT count(*) FROM sessions"), 1);
    assert_eq!(my_games(&app, &mut bob).await.len(), 1);
    // The name is free again.
    assert_eq!(
        Browser::default()
            .sign_up(&app, "Ann", "another horse")
            .await
            .0,
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn an_administrator_disables_an_account_and_a_player_may_not() {
    let (app, folder) = hosted_in("admin", "https://club.test", "open");
    let mut ann = Browser::default();
    assert_eq!(
        ann.sign_up(&app, "Ann", "correct horse").await.0,
        StatusCode::CREATED
    );
    let (status, refused) = ann
        .send(
            &app,
            "POST",
            "/api/admin/accounts/ann",
            Some(json!({ "disabled": true })),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(refused["error"]["code"], "admin-only");
    let (status, _) = Browser::default()
        .send(
            &app,
            "POST",
            "/api/admin/accounts/ann",
            Some(json!({ "disabled": true })),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // An administrator is made on the command line; here, straight in the store's file.
    let mut boss = Browser::default();
    assert_eq!(
        boss.sign_up(&app, "Boss", "boss password").await.0,
        StatusCode::CREATED
    );
    let file = folder.join("games.sqlite3");
    rusqlite::Connection::open(&file)
        .unwrap()
        .execute("UPDATE accounts SET role = 'admin' WHERE name = 'Boss'", [])
        .unwrap();
    assert_eq!(
        boss.sign_in(&app, "Boss", "boss password").await.0,
        StatusCode::OK
    );
    let (_, me) = boss.send(&app, "GET", "/api/me", None).await;
    assert_eq!(me["account"]["role"], "admin");
    let (status, _) = boss
        .send(
            &app,
            "POST",
            "/api/admin/accounts/ANN",
            Some(json!({ "disabled": true })),
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, me) = ann.send(&app, "GET", "/api/me", None).await;
    assert_eq!(
        me["account"],
        Value::Null,
        "a disabled account's session ends"
    );
    let (status, refused) = ann.sign_in(&app, "Ann", "correct horse").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(refused["error"]["code"], "account-disabled");
    let (status, _) = boss
        .send(
            &app,
            "POST",
            "/api/admin/accounts/nobody",
            Some(json!({ "disabled": true })),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn progress_and_the_puzzle_rating_are_kept_for_their_owner() {
    let app = hosted("progress", "https://club.test", "open");
    let mut ann = Browser::default();
    assert_eq!(
        ann.sign_up(&app, "Ann", "correct horse").await.0,
        StatusCode::CREATED
    );
    let mut bob = Browser::default();
    bob.open_page(&app).await;
    let course = json!({ "done": ["horse"], "current": null, "solved": [] });
    let (status, kept) = ann
        .send(
            &app,
            "PUT",
            "/api/progress/course",
            Some(json!({ "value": course })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{kept}");
    assert_eq!(kept["value"], course);
    let (_, mine) = ann.send(&app, "GET", "/api/progress", None).await;
    assert_eq!(mine["course"]["value"], course);
    let (_, theirs) = bob.send(&app, "GET", "/api/progress", None).await;
    assert_eq!(theirs, json!({}), "a guest has none of Ann's progress");
    // Signed in elsewhere, the account has it.
    let mut elsewhere = Browser::default();
    assert_eq!(
        elsewhere.sign_in(&app, "Ann", "correct horse").await.0,
        StatusCode::OK
    );
    let (_, there) = elsewhere.send(&app, "GET", "/api/progress", None).await;
    assert_eq!(there["course"]["value"], course);
    // Bad requests.
    let (status, _) = ann
        .send(
            &app,
            "PUT",
            "/api/progress/puzzle-rating",
            Some(json!({ "value": 1 })),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "the rating is the server's");
    let big = "x".repeat(70 * 1024);
    let (status, _) = ann
        .send(
            &app,
            "PUT",
            "/api/progress/course",
            Some(json!({ "value": big })),
        )
        .await;
    assert!(status.is_client_error(), "{status}");
    let (status, _) = Browser::default()
        .send(&app, "GET", "/api/progress", None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The puzzle rating: rated from the server's state once it keeps one.
    let (_, puzzle) = ann.send(&app, "GET", "/api/puzzles/next", None).await;
    let id = puzzle["id"].as_str().unwrap().to_string();
    let (status, first) = ann
        .send(
            &app,
            "POST",
            "/api/puzzles/result",
            Some(json!({ "id": id, "solved": true })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let after_first = first["state"]["rating"].as_f64().unwrap();
    // A state the page makes up is not believed: the server rates from its own (on another
    // puzzle: each counts once).
    let (_, other) = ann
        .send(&app, "GET", &format!("/api/puzzles/next?recent={id}"), None)
        .await;
    let other = other["id"].as_str().unwrap().to_string();
    assert_ne!(other, id);
    let made_up = json!({ "rating": 2900.0, "deviation": 50.0, "volatility": 0.06 });
    let (_, second) = elsewhere
        .send(
            &app,
            "POST",
            "/api/puzzles/result",
            Some(json!({ "id": other, "solved": false, "state": made_up })),
        )
        .await;
    let after_second = second["state"]["rating"].as_f64().unwrap();
    assert!(after_second < after_first, "{after_first} → {second}");
    assert!(after_second < 2000.0, "{second}");
    let (_, data) = ann.send(&app, "GET", "/api/account/data", None).await;
    assert_eq!(data["progress"]["course"]["state"], course);
    assert!(data["progress"]["puzzle-rating"]["state"]["rating"].is_number());
    // Today's training is each one's own: Ann's day counts for her streak, not Bob's.
    let day = json!({ "day": "2026-12-07", "kind": "lesson" });
    let (status, mine) = elsewhere
        .send(&app, "POST", "/api/today/trained", Some(day.clone()))
        .await;
    assert_eq!(status, StatusCode::OK, "{mine}");
    assert_eq!(mine["streak"], 1);
    assert_eq!(
        mine["rating"], second["state"]["rating"],
        "the rating is hers"
    );
    let (_, mine) = ann
        .send(&app, "GET", "/api/today?day=2026-12-07", None)
        .await;
    assert_eq!(mine["trained"], json!(["lesson"]));
    let (_, theirs) = bob
        .send(&app, "GET", "/api/today?day=2026-12-07", None)
        .await;
    assert_eq!(theirs["streak"], 0, "{theirs}");
    assert_eq!(theirs["trained"], json!([]));
    let (status, _) = Browser::default()
        .send(&app, "POST", "/api/today/trained", Some(day))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (_, data) = ann.send(&app, "GET", "/api/account/data", None).await;
    assert_eq!(
        data["progress"]["today"]["2026-12-07"]["trained"],
        json!(["lesson"])
    );
}

#[tokio::test]
async fn puzzles_are_found_in_an_accounts_own_games_and_served_to_it_alone() {
    let app = hosted("own-puzzles", "https://club.test", "open");
    let mut ann = Browser::default();
    assert_eq!(
        ann.sign_up(&app, "Ann", "correct horse").await.0,
        StatusCode::CREATED
    );
    // A finished game with a mate in three on the board at its start (the general steps
    // aside, the chariot sweeps the back rank), played out, and a game going on.
    let start = "3ak4/4a4/9/9/9/9/9/9/9/3K2R2 w - - 0 1";
    let (status, game) = ann
        .send(&app, "POST", "/api/games", Some(json!({ "fen": start })))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let gid = game["id"].as_str().unwrap().to_string();
    for m in ["d0e0", "e9f9", "g0f0", "e8f7", "f0f7"] {
        let (status, answer) = ann
            .send(
                &app,
                "POST",
                &format!("/api/games/{gid}/move"),
                Some(json!({ "from": &m[..2], "to": &m[2..] })),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    played(&app, &mut ann, &["h2e2"]).await;
    let (status, own) = ann.send(&app, "GET", "/api/puzzles/own", None).await;
    assert_eq!(status, StatusCode::OK, "{own}");
    assert_eq!(
        own,
        json!({ "puzzles": 0, "games": 0, "games_left": 1, "found": 0 })
    );

    let (status, own) = ann.send(&app, "POST", "/api/puzzles/own/mine", None).await;
    assert_eq!(status, StatusCode::OK, "{own}");
    assert_eq!(own["games"], 1);
    assert_eq!(own["games_left"], 0);
    assert!(own["found"].as_u64().unwrap() >= 1, "{own}");
    let (status, count) = ann
        .send(
            &app,
            "GET",
            "/api/puzzles/count?source=own&theme=mateIn3",
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{count}");
    assert_eq!(count["count"], 1);
    let (status, puzzle) = ann
        .send(
            &app,
            "GET",
            "/api/puzzles/next?source=own&theme=mateIn3",
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{puzzle}");
    let id = puzzle["id"].as_str().unwrap().to_string();
    assert!(id.starts_with("own-"), "{id}");
    assert_eq!(puzzle["fen"], start, "{puzzle}");
    let rating = puzzle["rating"].as_u64().unwrap();
    assert!((600..=2400).contains(&rating), "{rating}");
    // Solved and rated like a shipped puzzle.
    for (ply, m) in [(0, "d0e0"), (2, "g0f0"), (4, "f0f7")] {
        let (status, answer) = ann
            .send(
                &app,
                "POST",
                &format!("/api/puzzles/{id}/move"),
                Some(json!({ "ply": ply, "move": m })),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["correct"], true, "{answer}");
        assert_eq!(answer["solved"], ply == 4, "{answer}");
    }
    let (status, rated) = ann
        .send(
            &app,
            "POST",
            "/api/puzzles/result",
            Some(json!({ "id": id, "solved": true })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{rated}");
    assert_eq!(rated["puzzle_rating"], rating);
    // A second look finds nothing new: the game was looked at.
    let (_, again) = ann.send(&app, "POST", "/api/puzzles/own/mine", None).await;
    assert_eq!(again["found"], 0, "{again}");
    assert_eq!(again["puzzles"], own["puzzles"], "{again}");

    // Another account has none of them, and cannot open Ann's.
    let mut bob = Browser::default();
    assert_eq!(
        bob.sign_up(&app, "Bob", "battery staple").await.0,
        StatusCode::CREATED
    );
    let (status, theirs) = bob
        .send(&app, "GET", &format!("/api/puzzles/{id}"), None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{theirs}");
    assert_eq!(theirs["error"]["code"], "no-puzzle");
    let (_, count) = bob
        .send(&app, "GET", "/api/puzzles/count?source=own", None)
        .await;
    assert_eq!(count["count"], 0);
    // A visitor has no games to look at; a source that is none is refused, saying why.
    let mut visitor = Browser::default();
    let (status, refused) = visitor
        .send(&app, "POST", "/api/puzzles/own/mine", None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{refused}");
    let (status, refused) = ann
        .send(&app, "GET", "/api/puzzles/next?source=friends", None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("friends"),
        "{refused}"
    );
}
