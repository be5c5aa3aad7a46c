//! The app's static files, embedded in the binary so that it runs without anything beside it.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::sync::OnceLock;

/// One embedded file: its URL path, content type and bytes.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static [u8],
}

/// Every file of `static/`, listed by the build script (`build.rs`).
static ASSETS: &[Asset] = include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// Where versioned copies of the files live: `/v/<version>/js/main.js` is `/js/main.js` of
/// this build, cached by the browser for good since a new build has a new version.
const VERSIONED: &str = "/v/";

/// A short fingerprint of every embedded file (FNV-1a), naming this build's assets.
pub fn version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for asset in ASSETS {
            for &byte in asset.path.as_bytes().iter().chain(asset.body) {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        format!("{hash:016x}")
    })
}

/// Where the page wants the preloads of its modules.
const MODULES_MARK: &str = "<!-- modules: the server preloads each of js/ here -->";

/// The page, with a preload for every module of `js/` (so that a new module needs no line
/// in the page), its style sheet and modules named under this build's versioned path.
fn page() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| {
        let prefix = format!("{VERSIONED}{}", version());
        let index = ASSETS
            .iter()
            .find(|a| a.path == "/index.html")
            .and_then(|a| std::str::from_utf8(a.body).ok())
            .unwrap_or("");
        let preloads: Vec<String> = ASSETS
            .iter()
            .filter(|a| a.path.starts_with("/js/") && a.path.ends_with(".js"))
            .filter(|a| a.path != "/js/main.js")
            .map(|a| format!("<link rel=\"modulepreload\" href=\"{}\">", a.path))
            .collect();
        index
            .replace(MODULES_MARK, &preloads.join("\n"))
            .replace("\"/style.css\"", &format!("\"{prefix}/style.css\""))
            .replace("\"/js/", &format!("\"{prefix}/js/"))
    })
}

/// The embedded file at `path` (`/` is the page), or 404. Files under this build's versioned
/// path may be cached for good; everything else is checked again on every load.
pub fn serve(path: &str) -> Response {
    let path = if path == "/" { "/index.html" } else { path };
    let (path, cache) = match path
        .strip_prefix(VERSIONED)
        .and_then(|rest| rest.split_once('/'))
    {
        Some((v, rest)) => (
            &path[path.len() - rest.len() - 1..],
            // A page of an older build gets today's file, not to be kept.
            if v == version() {
                "public, max-age=31536000, immutable"
            } else {
                "no-cache"
            },
        ),
        None => (path, "no-cache"),
    };
    match ASSETS.iter().find(|a| a.path == path) {
        Some(asset) => {
            let body = if asset.path == "/index.html" {
                page().as_bytes()
            } else {
                asset.body
            };
            (
                [
                    (header::CONTENT_TYPE, asset.content_type),
                    (header::CACHE_CONTROL, cache),
                ],
                body,
            )
                .into_response()
        }
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_preloads_every_module_under_this_builds_path() {
        let page = page();
        assert!(!page.contains(MODULES_MARK));
        let modules: Vec<&str> = ASSETS
            .iter()
            .map(|a| a.path)
            .filter(|p| p.starts_with("/js/") && p.ends_with(".js") && *p != "/js/main.js")
            .collect();
        assert!(modules.contains(&"/js/board.js"), "{modules:?}");
        for module in modules {
            let link = format!(
                "<link rel=\"modulepreload\" href=\"/v/{}{module}\">",
                version()
            );
            assert!(page.contains(&link), "{module} is not preloaded");
        }
        assert!(page.contains(&format!("src=\"/v/{}/js/main.js\"", version())));
    }
}
