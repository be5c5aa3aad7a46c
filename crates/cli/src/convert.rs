//! `xiangqi convert`: reads a game record in any format and writes it in another.

use clap::Args;
use std::path::{Path, PathBuf};
use xiangqi_records::{OutputFormat, RecordFormat};
use xiangqi_teaching::openings;

/// The arguments of `xiangqi convert`.
#[derive(Args)]
pub struct ConvertArgs {
    /// The record to read: PGN (UTF-8 or GBK), XQF or DhtmlXQ, told from its content and
    /// extension.
    input: PathBuf,
    /// Where to write the converted record.
    output: PathBuf,
    /// The format to write: pgn-iccs, pgn-wxf, pgn-chinese, xqf or dhtmlxq. When absent,
    /// OUT's extension decides: .pgn (Chinese notation), .xqf, .txt/.ubb/.dhtml (DhtmlXQ).
    #[arg(long, value_parser = parse_format)]
    to: Option<OutputFormat>,
}

fn parse_format(name: &str) -> Result<OutputFormat, String> {
    OutputFormat::from_name(name)
        .ok_or_else(|| format!("expected one of {}", OutputFormat::NAMES.join(", ")))
}

/// Whether `a` and `b` name one file (through links or another spelling of the path too).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn extension(path: &Path) -> Option<&str> {
    path.extension().and_then(|e| e.to_str())
}

/// Runs `xiangqi convert`; on success prints one line saying what was written. Games of the
/// file that cannot be read are named on stderr and the others converted; text skipped in
/// the input and anything the output format cannot hold are warnings on stderr. A game from
/// the initial position without an `[ECCO]` tag gets `[ECCO]`, `[Opening]` and `[Variation]`.
pub fn run(args: &ConvertArgs) -> Result<(), String> {
    let (input, output) = (args.input.display(), args.output.display());
    let to = match args.to {
        Some(format) => format,
        None => extension(&args.output)
            .and_then(OutputFormat::from_extension)
            .ok_or_else(|| {
                format!(
                    "cannot tell the format to write from {output}: give --to with one of {}",
                    OutputFormat::NAMES.join(", ")
                )
            })?,
    };
    if same_file(&args.input, &args.output) {
        return Err(format!(
            "{input} and {output} are the same file: converting a file onto itself would drop \
             what the new format cannot hold (text between games, games that cannot be read); \
             write to another file"
        ));
    }
    let bytes = std::fs::read(&args.input).map_err(|e| format!("cannot read {input}: {e}"))?;
    let from = RecordFormat::detect(&bytes, extension(&args.input));
    let read = from
        .read(&bytes)
        .map_err(|e| format!("{input} ({from}): {e}"))?;
    for warning in &read.warnings {
        eprintln!("warning: {input}: {warning}");
    }
    let read_encoding = read.encoding;
    // Every game that reads is converted; each one that does not is named on stderr.
    let mut games = Vec::with_capacity(read.len());
    let mut bad = 0;
    for game in read.games {
        match game {
            Ok(mut game) => {
                // A record without an ECCO code gets one, with its opening and variation.
                if let Err(e) = openings::fill_tags(&mut game) {
                    eprintln!("warning: {input}: no opening tags: {e}");
                }
                games.push(game);
            }
            Err(e) => {
                eprintln!("error: {input} ({from}): {e}");
                bad += 1;
            }
        }
    }
    if games.is_empty() {
        return Err(match bad {
            0 => format!("{input} ({from}) holds no game"),
            _ => format!("{input} ({from}): no game could be read"),
        });
    }
    let written = to.write(&games).map_err(|e| format!("{input}: {e}"))?;
    for warning in &written.warnings {
        eprintln!("warning: {output}: {warning}");
    }
    crate::files::write_whole(&args.output, &written.bytes)
        .map_err(|e| format!("cannot write {output}: {e}"))?;
    let s = if games.len() == 1 { "" } else { "s" };
    let skipped = match bad {
        0 => String::new(),
        1 => " (1 game could not be read)".to_string(),
        n => format!(" ({n} games could not be read)"),
    };
    // A text file says the encoding it was read in.
    let from = match read_encoding {
        Some(encoding) => format!("{from} ({encoding})"),
        None => from.to_string(),
    };
    println!(
        "{} game{s} from {from} written to {output} as {to}{skipped}",
        games.len()
    );
    Ok(())
}
