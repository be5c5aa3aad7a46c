//! Refuses requests whose `Host` header names another site than the one served, so that a
//! page elsewhere cannot reach the app through DNS rebinding, and requests that would change
//! something when a browser says they come from another site (its `Origin`, or failing that
//! its `Sec-Fetch-Site`), so that a page elsewhere cannot write to the app (cross-site request
//! forgery). A request with neither header comes from a program, not from a page, and passes;
//! a WebSocket must name the app's own page as its `Origin` (a browser always names one).

use crate::kit::error::{ApiError, ErrorCode};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// `host` (a `Host` header's value, or a URL's host and port) as the server compares it: in
/// lower case, with `default_port` when it names none.
pub fn authority(host: &str, default_port: u16) -> String {
    let host = host.trim().to_ascii_lowercase();
    let has_port = host
        .rsplit_once(':')
        .is_some_and(|(name, port)| !name.is_empty() && !port.contains(']'));
    if has_port {
        host
    } else {
        format!("{host}:{default_port}")
    }
}

/// The `Host` values the server answers to, e.g. `127.0.0.1:8080` and `localhost:8080`.
#[derive(Clone, Debug)]
pub struct AllowedHosts(Arc<Vec<String>>);

impl AllowedHosts {
    /// The names a server bound to `host`:`port` is reached by: the host itself, and the
    /// loopback names when it is a loopback or unspecified address.
    pub fn for_address(host: &str, port: u16) -> AllowedHosts {
        let mut names = vec![host.to_string()];
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]", "0.0.0.0", "::"];
        if loopback.contains(&host) {
            names.extend(["127.0.0.1", "localhost", "[::1]"].map(String::from));
        }
        let mut hosts: Vec<String> = names
            .into_iter()
            .map(|n| {
                let n = if n.contains(':') && !n.starts_with('[') {
                    format!("[{n}]")
                } else {
                    n
                };
                format!("{n}:{port}").to_ascii_lowercase()
            })
            .collect();
        hosts.sort();
        hosts.dedup();
        AllowedHosts(Arc::new(hosts))
    }

    /// These names and `authority` (a `host:port`, e.g. a hosted site's public one).
    pub fn with(self, authority: &str) -> AllowedHosts {
        let mut hosts = (*self.0).clone();
        hosts.push(authority.to_ascii_lowercase());
        hosts.sort();
        hosts.dedup();
        AllowedHosts(Arc::new(hosts))
    }

    /// Whether `host` (a `Host` header value) names the served address; a host without a
    /// port names port 80.
    pub fn allows(&self, host: &str) -> bool {
        self.allows_with_default(host, 80)
    }

    fn allows_with_default(&self, host: &str, default_port: u16) -> bool {
        self.0.contains(&authority(host, default_port))
    }

    /// Whether `origin` (an `Origin` header value, `http://host:port`) is the app's own.
    pub fn allows_origin(&self, origin: &str) -> bool {
        let origin = origin.trim();
        let (default_port, authority) = if let Some(rest) = origin.strip_prefix("http://") {
            (80, rest)
        } else if let Some(rest) = origin.strip_prefix("https://") {
            (443, rest)
        } else {
            return false;
        };
        !authority.contains('/') && self.allows_with_default(authority, default_port)
    }

    /// The allowed values.
    pub fn names(&self) -> &[String] {
        &self.0
    }
}

/// Middleware: passes the request on only when it has one `Host` header and that host is
/// allowed (421 otherwise, 400 for two), and, for a request that may change something (any
/// method but `GET`, `HEAD` and `OPTIONS`), when no browser header says it comes from another
/// site (403 `cross-site`).
pub async fn check_host(
    State(allowed): State<AllowedHosts>,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    if headers.get_all(header::HOST).iter().count() > 1 {
        return ApiError::new(
            ErrorCode::BadHost,
            "the request has more than one Host header",
        )
        .with_status(StatusCode::BAD_REQUEST)
        .into_response();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !allowed.allows(host) {
        return ApiError::new(
            ErrorCode::BadHost,
            format!("this server does not answer to host `{host}`"),
        )
        .into_response();
    }
    let refused = if is_socket(headers) {
        socket_from_elsewhere(headers, &allowed).map(|from| {
            (
                format!("a socket opens only from the app's own page ({from})"),
                from,
            )
        })
    } else if may_change(request.method()) {
        other_site(headers, &allowed).map(|from| {
            let message =
                format!("a request from another site ({from}) may not change anything here");
            (message, from)
        })
    } else {
        None
    };
    if let Some((message, from)) = refused {
        return ApiError::new(ErrorCode::CrossSite, message)
            .with_params(serde_json::json!({ "from": from }))
            .into_response();
    }
    next.run(request).await
}

/// Whether a request with `method` may change something: any method but `GET`, `HEAD` and
/// `OPTIONS`.
pub(crate) fn may_change(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Whether the request asks to become a WebSocket.
fn is_socket(headers: &HeaderMap) -> bool {
    headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

/// Where a socket request comes from when that is not the app's own page: a browser always
/// names the page's origin, so a socket that names none, or another, is refused.
fn socket_from_elsewhere(headers: &HeaderMap, allowed: &AllowedHosts) -> Option<String> {
    let origin = headers
        .get(header::ORIGIN)
        .map(|o| o.to_str().unwrap_or(""))
        .unwrap_or("");
    let shown = if origin.is_empty() { "none" } else { origin };
    (!allowed.allows_origin(origin)).then(|| format!("Origin {shown}"))
}

/// The other site a browser says the request comes from, if it does.
fn other_site(headers: &HeaderMap, allowed: &AllowedHosts) -> Option<String> {
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        return (!allowed.allows_origin(origin)).then(|| format!("Origin {origin}"));
    }
    let site = headers.get("sec-fetch-site")?.to_str().unwrap_or("");
    (!matches!(site, "same-origin" | "none")).then(|| format!("Sec-Fetch-Site {site}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_apps_own_origin_is_allowed_and_others_are_not() {
        let allowed = AllowedHosts::for_address("127.0.0.1", 8080);
        assert!(allowed.allows_origin("http://127.0.0.1:8080"));
        assert!(allowed.allows_origin("http://localhost:8080"));
        assert!(allowed.allows_origin("http://[::1]:8080"));
        for other in [
            "http://evil.example",
            "http://127.0.0.1:8081",
            "http://127.0.0.1",
            "null",
            "",
            "file://",
            "http://127.0.0.1:8080/x",
            "ftp://127.0.0.1:8080",
        ] {
            assert!(!allowed.allows_origin(other), "{other}");
        }
        let web = AllowedHosts::for_address("xq.example", 80);
        assert!(web.allows_origin("http://xq.example"));
        assert!(web.allows("xq.example"));
        assert!(!web.allows_origin("https://xq.example"));
    }
}
