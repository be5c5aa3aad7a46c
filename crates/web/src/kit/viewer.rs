//! Who asks: on the learner's own app (`xiangqi play`) the one owner of everything; on a
//! server hosted for many people (`xiangqi serve`) an account signed in by its session
//! cookie, a guest known by the guest cookie the page got when it was first opened, or a
//! visitor with neither. Every handler that reads or changes something kept asks the
//! [`Viewer`] whose it is.
//!
//! Sessions are random tokens in `HttpOnly`, `SameSite=Lax` cookies (`Secure` when the
//! public address is https), kept in the store only as their hash; a session lasts
//! [`SESSION_DAYS`] days and ends at sign-out, a password change, the account's deletion
//! or its disabling. A session found in the store is remembered for [`SESSION_RECHECK`]
//! before it is looked up again.

use crate::kit::archive_store::ArchiveService;
use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::rate_limit::RateLimit;
use axum::http::HeaderMap;
use axum::http::header::{COOKIE, HeaderValue, SET_COOKIE};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use xiangqi_accounts::{Role, Secret, SignUp, guest_number, secret_hash};
use xiangqi_store::{Account, AccountId};

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "xq_session";
/// The guest cookie's name.
pub const GUEST_COOKIE: &str = "xq_guest";
/// How long a session lasts after sign-in.
pub const SESSION_DAYS: u64 = 30;
/// How long a guest cookie lasts.
const GUEST_DAYS: u64 = 365;
/// How long a session found in the store is believed before it is looked up again (a
/// sign-out on this server forgets it at once).
pub const SESSION_RECHECK: Duration = Duration::from_secs(10);
/// Most sessions remembered.
const MAX_REMEMBERED: usize = 10_000;
/// Tries to sign in or up (or to give one's password) one client address may make at once,
/// then one every [`TRY_EVERY`].
pub const TRIES_BURST: u32 = 10;
/// Tries at signing in to one account name at once, from any address.
pub const NAME_TRIES_BURST: u32 = 5;
/// How often a client address, or an account name, gets one more try.
pub const TRY_EVERY: Duration = Duration::from_secs(12);

/// An account that is signed in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedIn {
    /// Its row.
    pub id: AccountId,
    /// Its name.
    pub name: String,
    /// Its role.
    pub role: Role,
    /// The hash of the session's token.
    pub session: String,
}

impl SignedIn {
    /// The owner of what it keeps.
    pub fn owner(&self) -> String {
        xiangqi_store::account_owner(self.id)
    }
}

/// Who sends a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The one learner of the app on their own machine, who owns everything kept.
    Owner,
    /// A signed-in account.
    Account(SignedIn),
    /// A guest of a hosted server, by the hash of their guest cookie.
    Guest(String),
    /// Someone with neither a session nor a guest cookie.
    Visitor,
}

impl Viewer {
    /// Whose things this viewer's are (the store's owner): `None` for a visitor.
    pub fn owner(&self) -> Option<String> {
        match self {
            Viewer::Owner => Some(String::new()),
            Viewer::Account(account) => Some(account.owner()),
            Viewer::Guest(hash) => Some(format!("guest:{hash}")),
            Viewer::Visitor => None,
        }
    }

    /// The owner, or 401 `signed-out` for a visitor.
    pub fn require_owner(&self) -> Result<String, ApiError> {
        self.owner().ok_or_else(signed_out)
    }

    /// The signed-in account, or 401 `signed-out`.
    pub fn require_account(&self) -> Result<&SignedIn, ApiError> {
        match self {
            Viewer::Account(account) => Ok(account),
            _ => Err(signed_out()),
        }
    }

    /// The signed-in administrator, or 401 / 403 `admin-only`.
    pub fn require_admin(&self) -> Result<&SignedIn, ApiError> {
        let account = self.require_account()?;
        if account.role == Role::Admin {
            Ok(account)
        } else {
            Err(ApiError::new(
                ErrorCode::AdminOnly,
                "only an administrator of the server may do this",
            ))
        }
    }

    /// A guest's number ("Guest 4821").
    pub fn guest_number(&self) -> Option<u32> {
        match self {
            Viewer::Guest(hash) => Some(guest_number(hash)),
            _ => None,
        }
    }
}

/// 401 `signed-out`.
pub fn signed_out() -> ApiError {
    ApiError::new(
        ErrorCode::SignedOut,
        "this is kept for signed-in players and guests: sign in, or open the app's page first",
    )
}

/// How the server is run, as the accounts see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hosting {
    /// The learner's own app: no accounts.
    Own,
    /// Hosted for many people.
    Site {
        /// Whether people reach it over https (its cookies are then `Secure`).
        https: bool,
        /// Who may make an account.
        sign_up: SignUp,
    },
}

/// The server's accounts: how it is hosted, and the sessions it has looked up lately.
/// Cheap to clone.
#[derive(Clone)]
pub struct Accounts {
    hosting: Hosting,
    archive: ArchiveService,
    remembered: Arc<Mutex<HashMap<String, (SignedIn, Instant)>>>,
    /// The tries of each client address.
    address_tries: RateLimit,
    /// The tries at each account name.
    name_tries: RateLimit<String>,
}

impl Accounts {
    /// The accounts of a server hosted as `hosting`, kept in `archive`.
    pub fn new(hosting: Hosting, archive: ArchiveService) -> Accounts {
        Accounts {
            hosting,
            remembered: Arc::default(),
            address_tries: RateLimit::new(TRIES_BURST, TRY_EVERY)
                .shared_through("sign-in-address", &archive),
            name_tries: RateLimit::new(NAME_TRIES_BURST, TRY_EVERY)
                .shared_through("sign-in-name", &archive),
            archive,
        }
    }

    /// Spends one try of `client` at signing in or up (and one of the account name
    /// `name_key`, for a sign-in): 429 `too-many-tries` when none is left.
    pub async fn spend_try(&self, client: IpAddr, name_key: Option<&str>) -> Result<(), ApiError> {
        let mut spent = self.address_tries.spend(client).await;
        if let (Ok(()), Some(key)) = (&spent, name_key) {
            spent = self.name_tries.spend(key.to_string()).await;
        }
        spent.map_err(|wait| {
            ApiError::new(
                ErrorCode::TooManyTries,
                format!("too many tries; try again in {wait} s"),
            )
            .with_retry_after(wait)
        })
    }

    /// How the server is hosted.
    pub fn hosting(&self) -> Hosting {
        self.hosting
    }

    /// The store the accounts are kept in.
    pub fn archive(&self) -> &ArchiveService {
        &self.archive
    }

    /// Who sent a request with `headers`.
    pub async fn viewer(&self, headers: &HeaderMap) -> Viewer {
        if self.hosting == Hosting::Own {
            return Viewer::Owner;
        }
        if let Some(token) = cookie(headers, SESSION_COOKIE)
            && let Some(account) = self.session(&secret_hash(&token)).await
        {
            return Viewer::Account(account);
        }
        match cookie(headers, GUEST_COOKIE) {
            Some(token) if is_secret(&token) => Viewer::Guest(secret_hash(&token)),
            _ => Viewer::Visitor,
        }
    }

    /// The account of the session whose token has `hash`, while it lasts.
    async fn session(&self, hash: &str) -> Option<SignedIn> {
        if let Some((account, at)) = self.lock().get(hash)
            && at.elapsed() < SESSION_RECHECK
        {
            return Some(account.clone());
        }
        let key = hash.to_string();
        let found = self.archive.run(move |s| s.session(&key)).await.ok()??;
        let (account, opened_ms) = found;
        let lasts_ms = i64::try_from(SESSION_DAYS * 86_400_000).unwrap_or(i64::MAX);
        if account.disabled || now_ms() - opened_ms > lasts_ms {
            self.lock().remove(hash);
            return None;
        }
        let signed_in = signed_in(&account, hash);
        let mut remembered = self.lock();
        if remembered.len() >= MAX_REMEMBERED {
            remembered.retain(|_, (_, at)| at.elapsed() < SESSION_RECHECK);
        }
        remembered.insert(hash.to_string(), (signed_in.clone(), Instant::now()));
        Some(signed_in)
    }

    /// Forgets the sessions remembered for account `id` (signed out, its password changed,
    /// deleted or disabled), so that the store is asked again.
    pub fn forget(&self, id: AccountId) {
        self.lock().retain(|_, (account, _)| account.id != id);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (SignedIn, Instant)>> {
        self.remembered.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The `Set-Cookie` value that opens a session with `token`.
    pub fn session_cookie(&self, token: &Secret) -> HeaderValue {
        self.cookie(SESSION_COOKIE, token.as_str(), SESSION_DAYS * 86_400)
    }

    /// The `Set-Cookie` value that ends the session on the browser.
    pub fn ended_session_cookie(&self) -> HeaderValue {
        self.cookie(SESSION_COOKIE, "", 0)
    }

    /// The `Set-Cookie` value of a new guest cookie, with its token's hash; `None` on the
    /// learner's own app, or when the system's random source failed.
    pub fn new_guest(&self) -> Option<(HeaderValue, String)> {
        if self.hosting == Hosting::Own {
            return None;
        }
        let token = Secret::new()?;
        let value = self.cookie(GUEST_COOKIE, token.as_str(), GUEST_DAYS * 86_400);
        Some((value, token.hash()))
    }

    fn cookie(&self, name: &str, value: &str, max_age: u64) -> HeaderValue {
        let secure = match self.hosting {
            Hosting::Site { https: true, .. } => "; Secure",
            _ => "",
        };
        let text =
            format!("{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}");
        HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
    }
}

/// The signed-in account of `account`'s session `hash`.
pub fn signed_in(account: &Account, hash: &str) -> SignedIn {
    SignedIn {
        id: account.id,
        name: account.name.clone(),
        role: account.role.parse().unwrap_or_default(),
        session: hash.to_string(),
    }
}

/// Whether `token` looks like a secret the server made (64 hexadecimal digits).
fn is_secret(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The value of cookie `name` in `headers`, when it looks like a secret the server made.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| is_secret(v))
}

/// Adds `cookie` to an answer's headers.
pub fn set_cookie(headers: &mut HeaderMap, cookie: HeaderValue) {
    headers.append(SET_COOKIE, cookie);
}

/// Now, in milliseconds since 1970 (UTC).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Gives a browser that opens the app's page on a hosted server, with no guest cookie yet,
/// its guest cookie, so that what it does before signing up is kept as its own.
pub async fn guest_cookie(
    axum::extract::State(accounts): axum::extract::State<Accounts>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let page = request.method() == axum::http::Method::GET
        && matches!(request.uri().path(), "/" | "/index.html");
    let has_one = cookie(request.headers(), GUEST_COOKIE).is_some();
    let mut response = next.run(request).await;
    if page
        && !has_one
        && response.status().is_success()
        && let Some((value, _)) = accounts.new_guest()
    {
        set_cookie(response.headers_mut(), value);
    }
    response
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Viewer
where
    Accounts: axum::extract::FromRef<S>,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Viewer, Self::Rejection> {
        if let Some(viewer) = parts.extensions.get::<Viewer>() {
            return Ok(viewer.clone());
        }
        let accounts = <Accounts as axum::extract::FromRef<S>>::from_ref(state);
        let viewer = accounts.viewer(&parts.headers).await;
        parts.extensions.insert(viewer.clone());
        Ok(viewer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_read_by_name_and_only_when_they_look_like_the_server_s() {
        let token = "a".repeat(64);
        let mut headers = HeaderMap::new();
        headers.insert(
            COOKIE,
            HeaderValue::from_str(&format!("x=1; {SESSION_COOKIE}={token}; {GUEST_COOKIE}=zz"))
                .unwrap(),
        );
        assert_eq!(cookie(&headers, SESSION_COOKIE), Some(token));
        assert_eq!(cookie(&headers, GUEST_COOKIE), None, "not a secret");
        assert_eq!(cookie(&headers, "x"), None);
        assert_eq!(cookie(&HeaderMap::new(), SESSION_COOKIE), None);
    }

    #[test]
    fn cookies_are_secure_under_https_only() {
        let https = Accounts::new(
            Hosting::Site {
                https: true,
                sign_up: SignUp::Open,
            },
            ArchiveService::off(),
        );
        let token = Secret::new().unwrap();
        let value = https.session_cookie(&token);
        let text = value.to_str().unwrap();
        assert!(text.starts_with(&format!("{SESSION_COOKIE}={}", token.as_str())));
        for flag in [
            "HttpOnly",
            "SameSite=Lax",
            "Secure",
            "Path=/",
            "Max-Age=2592000",
        ] {
            assert!(text.contains(flag), "{text} lacks {flag}");
        }
        let http = Accounts::new(
            Hosting::Site {
                https: false,
                sign_up: SignUp::Open,
            },
            ArchiveService::off(),
        );
        assert!(
            !http
                .session_cookie(&token)
                .to_str()
                .unwrap()
                .contains("Secure")
        );
        assert!(
            http.ended_session_cookie()
                .to_str()
                .unwrap()
                .contains("Max-Age=0")
        );
        let own = Accounts::new(Hosting::Own, ArchiveService::off());
        assert!(
            own.new_guest().is_none(),
            "the learner's own app has no guests"
        );
    }

    #[test]
    fn owners_are_told_apart() {
        assert_eq!(Viewer::Owner.owner(), Some(String::new()));
        assert_eq!(
            Viewer::Guest("h".into()).owner().as_deref(),
            Some("guest:h")
        );
        assert_eq!(Viewer::Visitor.owner(), None);
        assert_eq!(
            Viewer::Visitor.require_owner().unwrap_err().kind,
            ErrorCode::SignedOut
        );
        let account = SignedIn {
            id: 7,
            name: "Ann".into(),
            role: Role::Player,
            session: "s".into(),
        };
        assert_eq!(
            Viewer::Account(account.clone()).owner().as_deref(),
            Some("account:7")
        );
        assert_eq!(
            Viewer::Account(account).require_admin().unwrap_err().kind,
            ErrorCode::AdminOnly
        );
    }
}
