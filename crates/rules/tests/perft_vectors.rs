//! Perft counts of the test positions in `tests/data/perft.txt`.

use xiangqi_rules::{Position, perft};

fn vectors() -> Vec<(String, Vec<u64>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let (fen, counts) = line.split_once('|').expect("FEN|counts");
            let counts = counts
                .split(',')
                .map(|n| n.trim().parse().expect("count"))
                .collect();
            (fen.to_string(), counts)
        })
        .collect()
}

fn check_to_depth(max_depth: usize) {
    let vectors = vectors();
    assert!(vectors.len() >= 10, "expected the perft positions");
    for (fen, counts) in vectors {
        let mut pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (i, &expected) in counts.iter().enumerate().take(max_depth) {
            let depth = i as u32 + 1;
            assert_eq!(perft(&mut pos, depth), expected, "{fen} depth {depth}");
        }
    }
}

#[test]
fn perft_vectors_to_depth_3() {
    check_to_depth(3);
}

/// Depths 4 and 5 take seconds in release mode; CI runs them with `--ignored --release`.
#[test]
#[ignore]
fn perft_vectors_to_depth_5() {
    check_to_depth(5);
}
