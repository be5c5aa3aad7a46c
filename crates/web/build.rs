//! Lists the app's static files (`static/`) for the binary to embed, so that a file added to
//! the folder is served without a list kept by hand. A file of a kind the server has no
//! content type for stops the build, naming it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The content type for a file's extension.
fn content_type(path: &Path) -> Option<&'static str> {
    Some(match path.extension()?.to_str()? {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" => "application/json",
        "png" => "image/png",
        "woff2" => "font/woff2",
        _ => return None,
    })
}

/// Every file under `dir`, in path order.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let folder = root.join("static");
    println!("cargo:rerun-if-changed={}", folder.display());
    let mut found = Vec::new();
    files(&folder, &mut found);
    let mut list = String::from("&[\n");
    for path in &found {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with('.') {
            continue;
        }
        let url = path
            .strip_prefix(&folder)
            .expect("under the folder")
            .to_str()
            .unwrap_or_else(|| panic!("{} is not a UTF-8 name", path.display()))
            .replace('\\', "/");
        let kind = content_type(path).unwrap_or_else(|| {
            panic!(
                "{}: no content type for this kind of file; add one in build.rs",
                path.display()
            )
        });
        let _ = writeln!(
            list,
            "    Asset {{ path: {:?}, content_type: {kind:?}, body: include_bytes!({:?}) }},",
            format!("/{url}"),
            path.display().to_string()
        );
    }
    list.push_str("]\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("assets.rs");
    std::fs::write(&out, list).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}
