//! The perft test positions, read from `tests/data/perft.txt`.

use xiangqi_rules::START_FEN;

/// The standard start position and the positions of the perft file, without repeats.
pub fn perft_start_fens() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let mut fens = vec![START_FEN.to_string()];
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fen = line.split_once('|').map_or(line, |(fen, _)| fen).trim();
        if !fens.iter().any(|f| f == fen) {
            fens.push(fen.to_string());
        }
    }
    fens
}
