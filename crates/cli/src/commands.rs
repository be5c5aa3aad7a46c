//! The subcommands that work on a single position.

use std::io::{self, Write};
use xiangqi_rules::notation::{Notation, format_move};
use xiangqi_rules::{Position, perft_divide};

/// Reads `--fen`, or the start position when absent.
fn position_from(fen: Option<&str>) -> Result<Position, String> {
    match fen {
        None => Ok(Position::startpos()),
        Some(text) => Position::from_fen(text).map_err(|e| format!("bad FEN: {e}")),
    }
}

fn write_lines(lines: impl IntoIterator<Item = String>) -> Result<(), String> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in lines {
        if writeln!(out, "{line}").is_err() {
            return Ok(()); // the reader went away (e.g. `| head`)
        }
    }
    let _ = out.flush();
    Ok(())
}

/// `xiangqi moves`: one line per legal move, `<iccs>\t<wxf>\t<chinese>`, sorted by ICCS.
pub fn moves(fen: Option<&str>) -> Result<(), String> {
    let pos = position_from(fen)?;
    let mut moves: Vec<_> = pos.legal_moves().iter().copied().collect();
    moves.sort_by_key(|m| m.to_string());
    write_lines(moves.into_iter().map(|m| {
        format!(
            "{}\t{}\t{}",
            m,
            format_move(&pos, m, Notation::Wxf),
            format_move(&pos, m, Notation::Chinese)
        )
    }))
}

/// `xiangqi perft`: the leaf count, optionally per root move, and a last line `total <N>`.
pub fn perft(depth: u32, fen: Option<&str>, divide: bool) -> Result<(), String> {
    let mut pos = position_from(fen)?;
    if divide {
        let rows = perft_divide(&mut pos, depth);
        let total: u64 = if depth == 0 {
            1
        } else {
            rows.iter().map(|(_, n)| n).sum()
        };
        let lines = rows
            .into_iter()
            .filter(|_| depth > 0)
            .map(|(m, n)| format!("{m} {n}"));
        write_lines(lines.chain(std::iter::once(format!("total {total}"))))
    } else {
        let total = xiangqi_rules::perft(&mut pos, depth);
        write_lines([format!("total {total}")])
    }
}
