//! `xiangqi opening`: the ECCO code and names of a game's opening.

use clap::Args;
use std::path::PathBuf;
use xiangqi_records::RecordFormat;
use xiangqi_rules::{Move, Position};
use xiangqi_teaching::Lang;
use xiangqi_teaching::openings::{self, Opening};

/// The arguments of `xiangqi opening`.
#[derive(Args)]
pub struct OpeningArgs {
    /// The moves from the initial position, ICCS with ranks 0-9, e.g. "h2e2 h9g7 h0g2".
    #[arg(long, conflicts_with = "file", required_unless_present = "file")]
    moves: Option<String>,
    /// A game record (PGN, XQF or DhtmlXQ) whose main line to name instead.
    #[arg(long)]
    file: Option<PathBuf>,
    /// Which game of the record, from 1.
    #[arg(long, default_value_t = 1, requires = "file")]
    game: usize,
    /// The language of the names: zh prints the Chinese ECCO names, en and ru the code's own
    /// English or Russian opening and variation.
    #[arg(long, default_value = "zh")]
    lang: Lang,
}

/// Reads the ICCS moves of `--moves`, naming the first word that is not a move.
fn parse_moves(text: &str) -> Result<Vec<Move>, String> {
    text.split_whitespace()
        .enumerate()
        .map(|(i, word)| {
            word.parse::<Move>()
                .map_err(|e| format!("move {} '{word}' is not an ICCS move: {e}", i + 1))
        })
        .collect()
}

/// The start position and main line of game `n` (from 1) of the record at `path`.
fn read_game(path: &PathBuf, n: usize) -> Result<(Position, Vec<Move>), String> {
    let shown = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let format = RecordFormat::detect(&bytes, path.extension().and_then(|e| e.to_str()));
    let read = format
        .read(&bytes)
        .map_err(|e| format!("{shown} ({format}): {e}"))?;
    let count = read.len();
    let game = read
        .games
        .into_iter()
        .nth(n.saturating_sub(1))
        .filter(|_| n >= 1)
        .ok_or_else(|| format!("{shown} holds {count} game(s); there is no game {n}"))?
        .map_err(|e| format!("{shown} ({format}), game {n}: {e}"))?;
    let moves = game.mainline().collect();
    Ok((game.start, moves))
}

/// One line: `<code>\t<opening>\t<variation>`, the names in `lang` (the variation empty
/// when the code has none).
fn line(opening: &Opening, lang: Lang) -> String {
    format!(
        "{}\t{}\t{}",
        opening.code,
        opening.opening_name(lang),
        opening.variation_name(lang)
    )
}

/// Runs `xiangqi opening`: prints the opening's code and names, or says why it cannot.
pub fn run(args: &OpeningArgs) -> Result<(), String> {
    let (start, moves) = match (&args.moves, &args.file) {
        (Some(text), _) => (Position::startpos(), parse_moves(text)?),
        (None, Some(path)) => read_game(path, args.game)?,
        (None, None) => return Err("give --moves or --file".into()),
    };
    let opening = openings::classify_from(&start, &moves)
        .map_err(|e| e.to_string())?
        .ok_or("the game has no move yet, so no opening")?;
    println!("{}", line(&opening, args.lang));
    Ok(())
}
