//! What the integration tests share: random games, the XQF encryptor, the sample files.
// Each test file uses a part of this module.
#![allow(dead_code)]

pub mod random_games;
pub mod xqf_encrypt;

use std::path::PathBuf;

/// The path of a sample file under `tests/data`.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

/// The bytes of a sample file under `tests/data`.
pub fn data(name: &str) -> Vec<u8> {
    std::fs::read(data_path(name)).unwrap_or_else(|e| panic!("read {name}: {e}"))
}

/// The bytes of a real-world-shaped file under `tests/real-world`.
pub fn real_world(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("real-world")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}
