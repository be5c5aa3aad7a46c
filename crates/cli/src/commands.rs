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

/// `xiangqi tune`: fits the evaluation weights to labelled positions.
pub fn tune(
    data: &std::path::Path,
    out: Option<&std::path::Path>,
    epochs: usize,
    check: Option<&std::path::Path>,
) -> Result<(), String> {
    use xiangqi_engine::tune::{TuneConfig, parse_samples, tune, weights_source};
    let config = TuneConfig {
        epochs,
        ..Default::default()
    };
    let load = |path: &std::path::Path| {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("reading {}: {e}", path.display()))?;
        parse_samples(&text, config.max_target).map_err(|e| format!("{}: {e}", path.display()))
    };
    let samples = load(data)?;
    let held_out = match check {
        Some(path) => load(path)?,
        None => Vec::new(),
    };
    if samples.is_empty() {
        return Err(format!("{}: no usable positions", data.display()));
    }
    let start = xiangqi_engine::eval::weights::WEIGHTS;
    let before = xiangqi_engine::tune::loss(&start.map(f64::from), &samples, config.scale);
    eprintln!(
        "{} quiet positions; loss before tuning {before:.6}",
        samples.len()
    );
    let weights = tune(&start, &samples, config, &mut |epoch, loss| {
        eprintln!("epoch {epoch}: loss {loss:.6}");
    });
    if !held_out.is_empty() {
        let loss = |w: &[i32; xiangqi_engine::eval::features::WEIGHT_COUNT]| {
            xiangqi_engine::tune::loss(&w.map(f64::from), &held_out, config.scale)
        };
        eprintln!(
            "held-out loss on {} positions: {:.6} before, {:.6} after",
            held_out.len(),
            loss(&start),
            loss(&weights)
        );
    }
    let comment = format!(
        "Tuned by `xiangqi tune` on {} quiet positions ({epochs} epochs).",
        samples.len()
    );
    let source = weights_source(&weights, &comment);
    match out {
        Some(path) => {
            std::fs::write(path, source).map_err(|e| format!("writing {}: {e}", path.display()))
        }
        None => write_lines([source]),
    }
}

/// The evaluation a command plays with: the network in `evalfile`, the handcrafted one, or
/// the engine's default (the built-in network); an unreadable network file is an error that
/// names it.
pub fn evaluation_of(
    evalfile: Option<&std::path::Path>,
    handcrafted: bool,
) -> Result<xiangqi_engine::Evaluation, String> {
    use xiangqi_engine::Evaluation;
    Ok(match evalfile {
        Some(path) => Evaluation::Network(std::sync::Arc::new(
            xiangqi_engine::nnue::Network::load(path)
                .map_err(|e| format!("network {}: {e}", path.display()))?,
        )),
        None if handcrafted => Evaluation::Handcrafted,
        None => Evaluation::Default,
    })
}

/// `xiangqi bench`: searches the bench positions to `depth` with the built-in network, the
/// network in `evalfile`, or the handcrafted evaluation; progress on standard error, the
/// closing `<nodes> nodes <nps> nps` line on standard output.
pub fn bench(
    depth: i32,
    evalfile: Option<&std::path::Path>,
    handcrafted: bool,
) -> Result<(), String> {
    let evaluation = evaluation_of(evalfile, handcrafted)?;
    let report =
        xiangqi_engine::bench::run_with(depth, &evaluation, &mut |line| eprintln!("{line}"));
    write_lines([report.summary()])
}
