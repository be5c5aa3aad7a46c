//! The app's static files, embedded in the binary so that it runs without anything beside it.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// One embedded file: its URL path, content type and bytes.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static str,
}

macro_rules! asset {
    ($path:literal, $type:expr) => {
        Asset {
            path: $path,
            content_type: $type,
            body: include_str!(concat!("../static", $path)),
        }
    };
}

const JS: &str = "text/javascript; charset=utf-8";

static ASSETS: &[Asset] = &[
    asset!("/index.html", "text/html; charset=utf-8"),
    asset!("/style.css", "text/css; charset=utf-8"),
    asset!("/favicon.svg", "image/svg+xml"),
    asset!("/js/main.js", JS),
    asset!("/js/board.js", JS),
    asset!("/js/api.js", JS),
    asset!("/js/settings.js", JS),
    asset!("/js/i18n.js", JS),
    asset!("/js/pieces.js", JS),
    asset!("/js/editor.js", JS),
    asset!("/js/reasons.js", JS),
    asset!("/js/clock.js", JS),
    asset!("/js/records.js", JS),
];

/// The embedded file at `path` (`/` is the page), or 404.
pub fn serve(path: &str) -> Response {
    let path = if path == "/" { "/index.html" } else { path };
    match ASSETS.iter().find(|a| a.path == path) {
        Some(asset) => (
            [
                (header::CONTENT_TYPE, asset.content_type),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            asset.body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
