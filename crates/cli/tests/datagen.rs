//! `xiangqi datagen` as a user runs it.

mod support;

use std::path::{Path, PathBuf};
use support::xiangqi;
use xiangqi_engine::datagen::DataReader;

/// A fresh path in the temporary folder for `name`.
fn temp_file(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-cli-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn datagen(out: &Path, games: &str) -> std::process::Output {
    datagen_with(out, games, &[])
}

fn datagen_with(out: &Path, games: &str, more: &[&str]) -> std::process::Output {
    let out = out.to_str().unwrap();
    let mut args = vec![
        "datagen",
        "--out",
        out,
        "--games",
        games,
        "--nodes",
        "500",
        "--threads",
        "1",
    ];
    args.extend_from_slice(more);
    xiangqi(&args)
}

/// A network file kept in the engine's nets folder.
fn network(name: &str) -> String {
    nets_dir().join(name).to_str().unwrap().to_string()
}

/// The folder of the shipped network files, `crates/engine/nets`.
fn nets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/nets")
}

/// The network file in `crates/engine/nets` whose bytes are the built-in network.
fn built_in_network() -> String {
    let embedded = xiangqi_engine::nnue::EMBEDDED_NET.expect("the binary has a built-in network");
    let dir = nets_dir();
    std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| std::fs::read(path).is_ok_and(|bytes| bytes == embedded))
        .map(|path| path.to_str().unwrap().to_string())
        .unwrap_or_else(|| panic!("no file in {} holds the built-in network", dir.display()))
}

/// The games in the file, each checked by the reader.
fn read_games(path: &Path) -> Vec<xiangqi_engine::datagen::GameRecord> {
    DataReader::open(path)
        .unwrap()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

#[test]
fn datagen_writes_games_the_reader_reads_and_a_rerun_appends() {
    let path = temp_file("run.xqdg");
    let out = datagen(&path, "2");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("positions/s"), "{stderr}");
    let first = read_games(&path);
    assert_eq!(first.len(), 2);
    assert!(first.iter().all(|g| !g.plies.is_empty()));
    let positions: usize = first.iter().map(|g| g.plies.len()).sum();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("2 games, {positions} positions in {}", path.display())
    );

    let out = datagen(&path, "3");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("continuing after 2 games, {positions} positions")),
        "{stderr}"
    );
    let all = read_games(&path);
    assert_eq!(all.len(), 3);
    assert_eq!(all[..2], first[..]);
}

#[test]
fn datagen_refuses_a_file_that_is_not_its_own() {
    let path = temp_file("garbage.bin");
    let garbage: Vec<u8> = (0..200u32).map(|i| (i * 37 % 251) as u8).collect();
    std::fs::write(&path, &garbage).unwrap();
    let out = datagen(&path, "1");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not a datagen file"), "{stderr}");
    assert!(stderr.contains("garbage.bin"), "{stderr}");
    assert_eq!(std::fs::read(&path).unwrap(), garbage);
}

#[test]
fn datagen_explains_bad_arguments() {
    let path = temp_file("unused.xqdg");
    let out = xiangqi(&[
        "datagen",
        "--out",
        path.to_str().unwrap(),
        "--random-plies",
        "9-3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--random-plies"), "{stderr}");
    assert!(stderr.contains("larger than the second"), "{stderr}");
    assert!(!path.exists());
}

#[test]
fn datagen_plays_with_the_network_file_it_is_given() {
    let built_in = temp_file("built-in.xqdg");
    let out = datagen(&built_in, "2");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The built-in network given as a file plays the same games; the first generation,
    // another network, plays other ones.
    let same = temp_file("same.xqdg");
    let out = datagen_with(&same, "2", &["--evalfile", &built_in_network()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(read_games(&same), read_games(&built_in));
    let first = temp_file("first.xqdg");
    let out = datagen_with(
        &first,
        "2",
        &["--evalfile", &network("xq-256-20261201b.xqnn")],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(read_games(&first), read_games(&built_in));
}

#[test]
fn datagen_names_a_network_file_it_cannot_read_and_writes_nothing() {
    let path = temp_file("no-network.xqdg");
    let missing = temp_file("missing.xqnn");
    let out = datagen_with(&path, "1", &["--evalfile", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("missing.xqnn"), "{stderr}");
    assert!(!path.exists());
    // One evaluation at a time.
    let out = datagen_with(
        &path,
        "1",
        &[
            "--handcrafted",
            "--evalfile",
            &network("xq-256-20261201b.xqnn"),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--evalfile"), "{stderr}");
    assert!(!path.exists());
}
