//! Accounts on a server hosted for many people (`xiangqi serve`): who one is (`GET /api/me`,
//! which also hands a new browser its guest cookie), signing up (open, by invitation or not at
//! all, as the host chose), in and out, changing one's password, downloading all one's data
//! and deleting the account with it. An administrator disables an account. Passwords are
//! hashed with Argon2id off the request threads; sign-in and sign-up are rate-limited per
//! client address, and sign-in per account name as well. On the learner's own app
//! (`xiangqi play`) there are no accounts: `GET /api/me` says so and the rest answer 404
//! `no-accounts`.

use crate::kit::archive_store::archive_failed;
use crate::kit::client_addr::ClientAddr;
use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::Body;
use crate::kit::viewer::{Accounts, Hosting, SignedIn, Viewer, now_ms, set_cookie, signed_in};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;
use xiangqi_accounts::{
    AccountName, MAX_PASSWORD, MIN_PASSWORD, PasswordError, Role, Secret, SignUp, hash_password,
    secret_hash, verify_password,
};
use xiangqi_store::{Account, AccountChange, Created, Filter, NewAccount};

/// Who one is, as the page shows it.
#[derive(Serialize)]
pub struct MeView {
    /// `own` for the learner's own app, `site` for a server hosted for many people.
    pub mode: &'static str,
    /// Who may make an account (`open`, `invite`, `closed`); absent on one's own app.
    pub sign_up: Option<&'static str>,
    /// The signed-in account.
    pub account: Option<AccountView>,
    /// A guest's number ("Guest 4821"), when not signed in.
    pub guest: Option<u32>,
}

/// An account as its owner sees it.
#[derive(Serialize)]
pub struct AccountView {
    /// Its name.
    pub name: String,
    /// `player` or `admin`.
    pub role: &'static str,
}

impl AccountView {
    fn of(account: &SignedIn) -> AccountView {
        AccountView {
            name: account.name.clone(),
            role: account.role.as_str(),
        }
    }
}

/// `GET /api/me`: how the server is run and who asks. A browser on a hosted server with no
/// cookie yet gets its guest cookie here.
pub async fn me(State(accounts): State<Accounts>, viewer: Viewer) -> Response {
    let Hosting::Site { sign_up, .. } = accounts.hosting() else {
        return Json(MeView {
            mode: "own",
            sign_up: None,
            account: None,
            guest: None,
        })
        .into_response();
    };
    let mut headers = HeaderMap::new();
    let guest = match &viewer {
        Viewer::Visitor => accounts.new_guest().map(|(cookie, hash)| {
            set_cookie(&mut headers, cookie);
            xiangqi_accounts::guest_number(&hash)
        }),
        other => other.guest_number(),
    };
    let account = match &viewer {
        Viewer::Account(account) => Some(AccountView::of(account)),
        _ => None,
    };
    headers.insert(header::CACHE_CONTROL, "no-store".parse().expect("a header"));
    (
        headers,
        Json(MeView {
            mode: "site",
            sign_up: Some(sign_up.as_str()),
            account,
            guest,
        }),
    )
        .into_response()
}

/// The hosting of a server with accounts: 404 `no-accounts` on one's own app.
fn hosted(accounts: &Accounts) -> Result<SignUp, ApiError> {
    match accounts.hosting() {
        Hosting::Site { sign_up, .. } => Ok(sign_up),
        Hosting::Own => Err(ApiError::new(
            ErrorCode::NoAccounts,
            "this app is one learner's own: it has no accounts (a club's server, `xiangqi \
             serve`, has)",
        )),
    }
}

/// A name and a password, to sign up or in with.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// The account's name.
    pub name: String,
    /// Its password.
    pub password: String,
    /// To sign up on a server that asks for one: the invitation code.
    #[serde(default)]
    pub invite: Option<String>,
}

/// 400 `bad-password` for a password that cannot be used.
fn bad_password(e: &PasswordError) -> ApiError {
    match e {
        PasswordError::Hashing(_) => ApiError::new(ErrorCode::Internal, e.to_string()),
        _ => ApiError::new(ErrorCode::BadPassword, e.to_string())
            .with_params(json!({ "min": MIN_PASSWORD, "max": MAX_PASSWORD })),
    }
}

/// Hashes `password` off the request threads.
async fn hashed(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || hash_password(&password))
        .await
        .map_err(|_| ApiError::new(ErrorCode::Internal, "the password could not be hashed"))?
        .map_err(|e| bad_password(&e))
}

/// Checks `password` against `hash` off the request threads.
async fn verified(password: String, hash: String) -> bool {
    tokio::task::spawn_blocking(move || verify_password(&password, &hash))
        .await
        .unwrap_or(false)
}

/// Opens a session for `account`: the answer with its cookie and the account.
async fn open_session(
    accounts: &Accounts,
    account: &Account,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let token = Secret::new()
        .ok_or_else(|| ApiError::new(ErrorCode::Internal, "no random number for a session"))?;
    let hash = token.hash();
    let (id, at) = (account.id, now_ms());
    let kept = hash.clone();
    accounts
        .archive()
        .run(move |s| s.open_session(&kept, id, at))
        .await?;
    let mut headers = HeaderMap::new();
    set_cookie(&mut headers, accounts.session_cookie(&token));
    headers.insert(header::CACHE_CONTROL, "no-store".parse().expect("a header"));
    let view = AccountView::of(&signed_in(account, &hash));
    Ok((status, headers, Json(json!({ "account": view }))).into_response())
}

/// `POST /api/account/sign-up` `{name, password, invite}`: makes an account (as the host's
/// policy allows) and signs it in; what the guest did in this browser becomes the account's.
pub async fn sign_up(
    State(accounts): State<Accounts>,
    viewer: Viewer,
    ClientAddr(client): ClientAddr,
    Body(req): Body<Credentials>,
) -> Result<Response, ApiError> {
    let policy = hosted(&accounts)?;
    accounts.spend_try(client, None).await?;
    let invite = match policy {
        SignUp::Closed => {
            return Err(ApiError::new(
                ErrorCode::SignUpClosed,
                "sign-up is closed on this server: its host adds accounts",
            ));
        }
        SignUp::Invite => match req.invite.as_deref().map(str::trim) {
            Some(code) if !code.is_empty() => Some(secret_hash(code)),
            _ => {
                return Err(ApiError::new(
                    ErrorCode::BadInvite,
                    "sign-up on this server needs an invitation code",
                ));
            }
        },
        SignUp::Open => None,
    };
    let name = AccountName::parse(&req.name).map_err(|e| {
        ApiError::new(ErrorCode::BadName, e.to_string())
            .with_params(json!({ "reason": e.to_string() }))
    })?;
    let password = hashed(req.password).await?;
    let new = NewAccount {
        name: name.as_str().to_string(),
        name_key: name.key(),
        password,
        role: Role::Player.as_str().to_string(),
        invite,
        created_ms: now_ms(),
    };
    let account = match accounts
        .archive()
        .run(move |s| s.create_account(&new))
        .await?
    {
        Created::Made(account) => account,
        Created::NameTaken => {
            return Err(ApiError::new(
                ErrorCode::NameTaken,
                format!("the name {name} is taken"),
            ));
        }
        Created::InviteUnknown => {
            return Err(ApiError::new(
                ErrorCode::BadInvite,
                "the invitation code is not one this server made, or it was used",
            ));
        }
    };
    if let Viewer::Guest(_) = &viewer
        && let Some(from) = viewer.owner()
    {
        let to = account.owner();
        accounts.archive().run(move |s| s.reown(&from, &to)).await?;
    }
    open_session(&accounts, &account, StatusCode::CREATED).await
}

/// `POST /api/account/sign-in` `{name, password}`: signs in. A wrong name and a wrong
/// password are answered alike (401 `wrong-password`).
pub async fn sign_in(
    State(accounts): State<Accounts>,
    ClientAddr(client): ClientAddr,
    Body(req): Body<Credentials>,
) -> Result<Response, ApiError> {
    hosted(&accounts)?;
    let key = xiangqi_accounts::key_of(&req.name);
    accounts.spend_try(client, Some(&key)).await?;
    let found = accounts
        .archive()
        .run(move |s| s.account_named(&key))
        .await?;
    // A name with no account costs as much time as a wrong password.
    let hash = found.as_ref().map_or_else(
        || {
            "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNo"
                .into()
        },
        |a| a.password.clone(),
    );
    let right = verified(req.password, hash).await;
    let account = match found {
        Some(account) if right => account,
        _ => {
            return Err(ApiError::new(
                ErrorCode::WrongPassword,
                "the name or the password is wrong",
            ));
        }
    };
    if account.disabled {
        return Err(disabled());
    }
    open_session(&accounts, &account, StatusCode::OK).await
}

fn disabled() -> ApiError {
    ApiError::new(
        ErrorCode::AccountDisabled,
        "this account has been disabled by the server's host",
    )
}

/// `POST /api/account/sign-out`: ends this browser's session.
pub async fn sign_out(
    State(accounts): State<Accounts>,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    hosted(&accounts)?;
    if let Viewer::Account(account) = &viewer {
        let hash = account.session.clone();
        accounts
            .archive()
            .run(move |s| s.close_session(&hash))
            .await?;
        accounts.forget(account.id);
    }
    let mut headers = HeaderMap::new();
    set_cookie(&mut headers, accounts.ended_session_cookie());
    Ok((StatusCode::NO_CONTENT, headers).into_response())
}

/// A password change.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The password now.
    pub current: String,
    /// The new one.
    pub new: String,
}

/// The signed-in account, read again from the store, when `password` is its password.
async fn confirmed(
    accounts: &Accounts,
    viewer: &Viewer,
    password: String,
) -> Result<Account, ApiError> {
    let id = viewer.require_account()?.id;
    let account = accounts
        .archive()
        .run(move |s| s.account(id))
        .await?
        .ok_or_else(crate::kit::viewer::signed_out)?;
    if !verified(password, account.password.clone()).await {
        return Err(ApiError::new(
            ErrorCode::WrongPassword,
            "the password is wrong",
        ));
    }
    Ok(account)
}

/// `POST /api/account/password` `{current, new}`: changes the password; every session of the
/// account ends, and this browser gets a new one.
pub async fn change_password(
    State(accounts): State<Accounts>,
    viewer: Viewer,
    ClientAddr(client): ClientAddr,
    Body(req): Body<PasswordChange>,
) -> Result<Response, ApiError> {
    hosted(&accounts)?;
    accounts.spend_try(client, None).await?;
    let account = confirmed(&accounts, &viewer, req.current).await?;
    let hash = hashed(req.new).await?;
    let id = account.id;
    accounts
        .archive()
        .run(move |s| {
            s.change_account(id, &AccountChange::Password(hash))?;
            s.close_sessions(id)
        })
        .await?;
    accounts.forget(id);
    open_session(&accounts, &account, StatusCode::OK).await
}

/// The password that confirms deleting an account.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Confirmation {
    /// The account's password.
    pub password: String,
}

/// `DELETE /api/account` `{password}`: deletes the account with everything it keeps.
pub async fn delete_account(
    State(accounts): State<Accounts>,
    viewer: Viewer,
    ClientAddr(client): ClientAddr,
    Body(req): Body<Confirmation>,
) -> Result<Response, ApiError> {
    hosted(&accounts)?;
    accounts.spend_try(client, None).await?;
    let account = confirmed(&accounts, &viewer, req.password).await?;
    let id = account.id;
    accounts
        .archive()
        .run(move |s| s.delete_account(id))
        .await?;
    accounts.forget(id);
    let mut headers = HeaderMap::new();
    set_cookie(&mut headers, accounts.ended_session_cookie());
    Ok((StatusCode::NO_CONTENT, headers).into_response())
}

/// `GET /api/account/data`: everything the account keeps, as one JSON file to download:
/// the account, its games (each with its record as PGN and its review), its trainer cards
/// and its progress.
pub async fn download(
    State(accounts): State<Accounts>,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    hosted(&accounts)?;
    let signed = viewer.require_account()?.clone();
    let file = data_file_name(&signed);
    let owner = signed.owner();
    let data = accounts
        .archive()
        .run(move |s| {
            let account = s.account(signed.id)?;
            let mine = Filter {
                owner: owner.clone(),
                ..Filter::default()
            };
            let mut games = Vec::new();
            for summary in s.list(&mine)? {
                if let Some(game) = s.get(&owner, summary.id)? {
                    games.push(json!({
                        "id": summary.id,
                        "date": summary.date,
                        "red": summary.red,
                        "black": summary.black,
                        "result": summary.result.map(|r| r.as_str()),
                        "pgn": game.pgn,
                        "review": game.review.and_then(|r| serde_json::from_str::<serde_json::Value>(&r).ok()),
                    }));
                }
            }
            let cards: Vec<_> = s
                .trainer_cards(&owner)?
                .into_iter()
                .map(|c| {
                    json!({ "line": c.line, "side": c.side, "branch": c.branch, "box": c.level,
                            "reps": c.reps, "lapses": c.lapses, "due_ms": c.due_ms,
                            "last_ms": c.last_ms })
                })
                .collect();
            let mut progress = serde_json::Map::new();
            for p in s.all_progress(&owner)? {
                let value = serde_json::from_str(&p.value)
                    .unwrap_or(serde_json::Value::String(p.value));
                let topic = progress
                    .entry(p.topic)
                    .or_insert_with(|| serde_json::Value::Object(Default::default()));
                if let Some(by_key) = topic.as_object_mut() {
                    by_key.insert(p.key, value);
                }
            }
            Ok(json!({
                "account": account.map(|a| json!({
                    "name": a.name, "role": a.role, "created_ms": a.created_ms,
                })),
                "games": games,
                "trainer_cards": cards,
                "progress": progress,
            }))
        })
        .await?;
    let body = serde_json::to_string_pretty(&data)
        .map_err(|e| archive_failed(&xiangqi_store::StoreError::Record(e.to_string())))?;
    let disposition = format!("attachment; filename=\"{file}\"");
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        body,
    )
        .into_response())
}

/// The download's file name: `xiangqi-<name>-data.json`, the name's ASCII letters and
/// digits only.
fn data_file_name(account: &SignedIn) -> String {
    let name: String = account
        .name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(20)
        .collect();
    format!("xiangqi-{name}-data.json")
}

/// Whether an account is to be disabled.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Disabling {
    /// `true` to disable it (its sessions end), `false` to enable it again.
    pub disabled: bool,
}

/// `POST /api/admin/accounts/{name}` `{disabled}`: an administrator disables an account (its
/// sessions end at once) or enables it again.
pub async fn admin_disable(
    State(accounts): State<Accounts>,
    viewer: Viewer,
    Path(name): Path<String>,
    Body(req): Body<Disabling>,
) -> Result<StatusCode, ApiError> {
    hosted(&accounts)?;
    viewer.require_admin()?;
    let key = xiangqi_accounts::key_of(&name);
    let disabled = req.disabled;
    let found = accounts
        .archive()
        .run(move |s| {
            let Some(account) = s.account_named(&key)? else {
                return Ok(None);
            };
            s.change_account(account.id, &AccountChange::Disabled(disabled))?;
            if disabled {
                s.close_sessions(account.id)?;
            }
            Ok(Some(account.id))
        })
        .await?;
    match found {
        Some(id) => {
            accounts.forget(id);
            Ok(StatusCode::NO_CONTENT)
        }
        None => Err(ApiError::new(
            ErrorCode::NotFound,
            format!("there is no account named {name}"),
        )),
    }
}

/// The accounts' routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/me", get(me))
        .route("/api/account/sign-up", post(sign_up))
        .route("/api/account/sign-in", post(sign_in))
        .route("/api/account/sign-out", post(sign_out))
        .route("/api/account/password", post(change_password))
        .route("/api/account", delete(delete_account))
        .route("/api/account/data", get(download))
        .route("/api/admin/accounts/{name}", post(admin_disable))
}
