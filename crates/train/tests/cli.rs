//! The `xiangqi-train` command end to end: it trains on a data file, writes a network the
//! engine loads and a checkpoint it resumes from, and names a file that is not data.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use xiangqi_engine::datagen::{GameRecord, write_game, write_header};
use xiangqi_engine::nnue::Network as EngineNetwork;
use xiangqi_rules::{GameResult, Position};
use xiangqi_train::checkpoint::Checkpoint;
use xiangqi_train::rng::{Rng, symmetric};

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("xqtrain-cli-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Games of random legal moves from the start position, with made-up scores and results.
fn random_games(count: usize, seed: u64) -> Vec<GameRecord> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let start = Position::startpos();
            let mut pos = start.clone();
            let mut plies = Vec::new();
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.below(moves.len())];
                plies.push((m, symmetric(&mut rng, 300.0) as i16));
                pos.make_move(m);
            }
            let result =
                [GameResult::RedWins, GameResult::Draw, GameResult::BlackWins][rng.below(3)];
            GameRecord {
                start,
                result,
                plies,
            }
        })
        .collect()
}

fn write_data(path: &Path, games: &[GameRecord]) {
    let mut bytes = Vec::new();
    write_header(&mut bytes).unwrap();
    for g in games {
        write_game(&mut bytes, g).unwrap();
    }
    std::fs::write(path, bytes).unwrap();
}

fn train(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-train"))
        .args(args)
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn trains_writes_a_loadable_network_and_resumes_from_its_checkpoint() {
    let dir = TempDir::new("train");
    let data = dir.0.join("games.xqdg");
    write_data(&data, &random_games(30, 4));
    let net = dir.0.join("net.xqnn");
    let data_arg = data.to_str().unwrap();
    let net_arg = net.to_str().unwrap();
    let common = [
        "--data",
        data_arg,
        "--out",
        net_arg,
        "--hidden",
        "16",
        "--buckets",
        "4",
        "--batch",
        "64",
    ];

    let best = dir.0.join("best.xqnn");
    let first = [
        "--epochs",
        "2",
        "--threads",
        "2",
        "--mirror",
        "--val-fraction",
        "0.2",
        "--best",
        best.to_str().unwrap(),
    ];
    let out = train(&[&common[..], &first[..]].concat());
    assert!(out.status.success(), "{}", text(&out));
    let log = text(&out);
    assert!(log.contains("kept") && log.contains("epoch   2"), "{log}");
    assert_eq!(EngineNetwork::load(&net).unwrap().buckets(), 4);
    assert!(EngineNetwork::load(&best).is_ok(), "{log}");
    let checkpoint = PathBuf::from(format!("{net_arg}.ckpt"));
    assert_eq!(Checkpoint::load(&checkpoint).unwrap().epochs_done, 2);

    let resume = checkpoint.to_str().unwrap();
    let out = train(&[&common[..], &["--epochs", "3", "--resume", resume]].concat());
    assert!(out.status.success(), "{}", text(&out));
    let log = text(&out);
    assert!(
        log.contains("epoch   3") && !log.contains("epoch   1 "),
        "{log}"
    );
    assert_eq!(Checkpoint::load(&checkpoint).unwrap().epochs_done, 3);

    // A checkpoint resumes only the shape it was made with: `common`'s data, output and
    // width with another bucket count is refused.
    let other = [
        &common[..6],
        &["--buckets", "2", "--epochs", "4", "--resume", resume],
    ]
    .concat();
    let out = train(&other);
    assert!(!out.status.success());
    assert!(
        text(&out).contains(
            "4 buckets, 1 palace buckets and 0 second-layer units, but --hidden is 16, \
             --buckets 2, --palace 1 and --second 0"
        ),
        "{}",
        text(&out)
    );
    let out = train(&[&common[..6], &["--second", "33"]].concat());
    assert!(!out.status.success());
    assert!(
        text(&out).contains("--second 33 is more than 32 units"),
        "{}",
        text(&out)
    );
    let out = train(&[&common[..6], &["--buckets", "17"]].concat());
    assert!(!out.status.success());
    assert!(
        text(&out).contains("--buckets 17 is not between 1 and 16"),
        "{}",
        text(&out)
    );
    let out = train(&[&common[..6], &["--palace", "5"]].concat());
    assert!(!out.status.success());
    assert!(
        text(&out).contains("--palace 5 is neither 1 nor 6"),
        "{}",
        text(&out)
    );

    // Palace buckets: the written network has them, and loads.
    let out = train(&[&common[..6], &["--palace", "6", "--epochs", "1"]].concat());
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("palace 6"), "{}", text(&out));
    assert_eq!(EngineNetwork::load(&net).unwrap().palace_buckets(), 6);
}

#[test]
fn a_garbage_data_file_is_an_error_naming_it() {
    let dir = TempDir::new("garbage");
    let data = dir.0.join("noise.xqdg");
    std::fs::write(&data, b"\x00\x01garbage bytes, not games").unwrap();
    let out = train(&[
        "--data",
        data.to_str().unwrap(),
        "--out",
        dir.0.join("net.xqnn").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let log = text(&out);
    assert!(
        log.contains("noise.xqdg") && log.contains("not a datagen file"),
        "{log}"
    );
}

#[test]
fn a_missing_data_file_is_an_error_naming_it() {
    let dir = TempDir::new("missing");
    let out = train(&[
        "--data",
        dir.0.join("absent.xqdg").to_str().unwrap(),
        "--out",
        dir.0.join("net.xqnn").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(text(&out).contains("absent.xqdg"), "{}", text(&out));
}
