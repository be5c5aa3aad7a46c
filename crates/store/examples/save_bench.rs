//! How long the app's save of a move takes, and how much room a game takes: plays games of
//! 60 plies from the bench positions' line, saving each game after every move as the app
//! does, and prints the median and 99th-percentile save time and the file size per game.
//!
//! `cargo run --release -p xiangqi-store --example save_bench [GAMES] [FOLDER]`

use std::time::Instant;
use xiangqi_rules::{Game, Position};
use xiangqi_store::Store;
use xiangqi_store::{GameEntry, Level, Source, SqliteStore};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let dir = args.next().map_or_else(
        || std::env::temp_dir().join(format!("xiangqi-save-bench-{}", std::process::id())),
        std::path::PathBuf::from,
    );
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("games.sqlite3");
    let mut archive = SqliteStore::open(&path).expect("the archive opens");
    let mut times = Vec::new();
    for g in 0..games {
        let mut game = Game::new(Position::startpos());
        // A game of legal moves chosen without an engine: the n-th legal move in turn.
        for ply in 0..60 {
            let moves = game.position().legal_moves();
            let Some(&m) = moves.get((ply * 7 + g) % moves.len().max(1)) else {
                break;
            };
            if game.play(m).is_err() || game.is_over() {
                break;
            }
            let entry = GameEntry {
                key: Some(format!("bench-{g}")),
                finished: game.is_over(),
                red: "You".to_string(),
                black: "Xiangqi (Beginner (~800))".to_string(),
                level: Some(Level {
                    number: 0,
                    name: "Beginner (~800)".to_string(),
                }),
                end_reason: None,
                date: xiangqi_records::date::pgn_today(),
                opening: None,
                time_control: None,
                record: xiangqi_records::Game::from_played(&game),
                source: Source::Played,
                owner: String::new(),
            };
            let start = Instant::now();
            archive.save(&entry).expect("the save succeeds");
            times.push(start.elapsed());
        }
    }
    drop(archive);
    times.sort();
    let median = times[times.len() / 2];
    let p99 = times[times.len() * 99 / 100];
    let size: u64 = std::fs::read_dir(&dir)
        .expect("the folder")
        .filter_map(|e| e.ok()?.metadata().ok())
        .map(|m| m.len())
        .sum();
    println!(
        "{} saves of {games} games: median {:.3} ms, p99 {:.3} ms; {} bytes on disk, {} bytes a game",
        times.len(),
        median.as_secs_f64() * 1000.0,
        p99.as_secs_f64() * 1000.0,
        size,
        size / games as u64
    );
    let _ = std::fs::remove_dir_all(&dir);
}
