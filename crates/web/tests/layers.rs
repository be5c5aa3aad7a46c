//! The web crate's layers, read from its sources: a feature module (each folder of `src/` but
//! `kit/`) never names another feature or the server, and the kit names no feature, the
//! server nor the state that holds the features' parts. Features share only the kit and the
//! state (`src/state.rs`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The feature folders of `src/`.
fn features() -> BTreeSet<String> {
    std::fs::read_dir(src())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "kit")
        .collect()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The first path segment of every `crate::…` the code names, with the line it is on;
/// `crate::{a, b::c}` names `a` and `b`. Comments are skipped.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let head = item.trim().split("::").next().unwrap_or("").trim();
                    if !head.is_empty() {
                        out.push((n + 1, head.to_string()));
                    }
                }
            } else {
                let head: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push((n + 1, head));
            }
        }
    }
    out
}

/// The kit's macros, which the crate's root holds as every exported macro.
const KIT_MACROS: [&str; 2] = ["say", "say_err"];

/// What each file under `folder` names of the crate that `allowed` refuses, as
/// `file:line names X`.
fn refused(folder: &Path, allowed: impl Fn(&str) -> bool) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(folder, &mut files);
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, head) in crate_paths(&text) {
            if !allowed(&head) && !KIT_MACROS.contains(&head.as_str()) {
                let shown = file.strip_prefix(src()).unwrap_or(&file).display();
                out.push(format!("{shown}:{line} names crate::{head}"));
            }
        }
    }
    out
}

#[test]
fn the_reader_finds_plain_and_grouped_paths_outside_comments() {
    let text = "use crate::kit::error::ApiError;\n\
                use crate::{play::games, rooms};\n\
                // crate::server is only mentioned here\n\
                let x = crate::server::MAX; // crate::review\n";
    let found: Vec<String> = crate_paths(text).into_iter().map(|(_, h)| h).collect();
    assert_eq!(found, ["kit", "play", "rooms", "server"]);
}

#[test]
fn no_feature_names_another_feature_or_the_server() {
    let features = features();
    assert!(
        features.len() >= 10,
        "the features were not found: {features:?}"
    );
    let mut faults = Vec::new();
    for feature in &features {
        let own = feature.clone();
        faults.extend(refused(&src().join(feature), |head| {
            head == own || head == "kit" || head == "state"
        }));
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn the_kit_names_no_feature_nor_the_server() {
    let faults = refused(&src().join("kit"), |head| head == "kit");
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}
