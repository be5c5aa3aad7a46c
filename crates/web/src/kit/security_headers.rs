//! The headers every answer carries so that a hosted page is hard to misuse: a content
//! security policy that lets the page load only its own scripts and open connections only to
//! its own server, and no other site frame it; no guessing of content types; no address of
//! the app sent to other sites.

use axum::http::{HeaderValue, header};
use axum::response::Response;

/// The page's content security policy. Its scripts are its own files (no inline script);
/// styles set by its scripts on elements are allowed; no site may frame it.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to `response`.
pub async fn add(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    response
}
