//! Refuses requests whose `Host` header names another site than the one served, so that a
//! page elsewhere cannot reach the app through DNS rebinding.

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

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

    /// Whether `host` (a `Host` header value) names the served address.
    pub fn allows(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        self.0.contains(&host)
    }

    /// The allowed values.
    pub fn names(&self) -> &[String] {
        &self.0
    }
}

/// Middleware: passes the request on only when its `Host` header is allowed (421 otherwise).
pub async fn check_host(
    State(allowed): State<AllowedHosts>,
    request: Request,
    next: Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if allowed.allows(host) {
        next.run(request).await
    } else {
        crate::error::ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            "bad-host",
            format!("this server does not answer to host `{host}`"),
        )
        .into_response()
    }
}
