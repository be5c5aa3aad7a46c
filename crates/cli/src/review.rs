//! `xiangqi review`: every move of a game judged by the engine, written back as PGN with
//! NAGs and comments, the per-side summary on stdout and a progress bar on stderr.

use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;
use xiangqi_egtb::Tablebases;
use xiangqi_records::{Game, OutputFormat, RecordFormat};
use xiangqi_rules::Color;
use xiangqi_rules::notation::{Notation, format_move};
use xiangqi_teaching::review::{self, Class, EndgameTables, ReviewLimits};

/// The arguments of `xiangqi review`.
#[derive(Args)]
#[command(
    after_help = "NAGs written: $1 (!) only move (the engine's choice where the best other \
move loses at least 0.20 of expected score; never a recapture or a forced move); $6 (?!) \
inaccuracy; $2 (?) mistake; $4 (??) blunder; best, excellent and good moves carry none. Each move's comment names its class, the evaluation after it \
and before it (from Red's side, pawns; #N a mate in N), the engine's better move with its \
line, and for a mistake or blunder what the best reply wins. A move that loses less than 0.02 \
of expected score (W(cp) = 1/(1+10^(-cp/400))) is excellent, 0.05 good, 0.10 an inaccuracy, \
0.20 a mistake, more a blunder; the engine's own move is best."
)]
pub struct ReviewArgs {
    /// The game to review: PGN (any notation), XQF or DhtmlXQ, told from its content.
    input: PathBuf,
    /// Where to write the reviewed games, as PGN.
    output: PathBuf,
    /// Milliseconds per position (default 400 when --depth is absent).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Depth per position (with --movetime, whichever comes first).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(i32).range(1..=64))]
    depth: Option<i32>,
    /// The notation of the written moves and comments: wxf, iccs or chinese.
    #[arg(long, default_value = "chinese", value_parser = parse_notation)]
    notation: Notation,
    /// Review only the N-th game of the file (from 1); all games when absent.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    game: Option<u32>,
    /// The endgame tables' folder: a position they cover is judged exactly, by its result and
    /// distance to mate (default: the data folder's `egtb`, when it is there).
    #[arg(long, value_name = "DIR")]
    egtb: Option<PathBuf>,
}

/// The tables `--egtb` names (an error when they cannot be opened), else those of the data
/// folder when it has them.
fn tables(args: &ReviewArgs) -> Result<Option<Tablebases>, String> {
    match &args.egtb {
        Some(dir) => Tablebases::open(dir)
            .map(Some)
            .map_err(|e| format!("--egtb {}: {e}", dir.display())),
        None => Ok(xiangqi_egtb::default_dir()
            .filter(|dir| dir.is_dir())
            .and_then(|dir| Tablebases::open(dir).ok())),
    }
}

fn parse_notation(name: &str) -> Result<Notation, String> {
    match name.to_ascii_lowercase().as_str() {
        "wxf" => Ok(Notation::Wxf),
        "iccs" => Ok(Notation::Iccs),
        "chinese" => Ok(Notation::Chinese),
        _ => Err("expected one of wxf, iccs, chinese".to_string()),
    }
}

/// Runs `xiangqi review`.
pub fn run(args: &ReviewArgs) -> Result<(), String> {
    let input = args.input.display();
    let bytes = std::fs::read(&args.input).map_err(|e| format!("cannot read {input}: {e}"))?;
    let extension = args.input.extension().and_then(|e| e.to_str());
    let from = RecordFormat::detect(&bytes, extension);
    let read = from
        .read(&bytes)
        .map_err(|e| format!("{input} ({from}): {e}"))?;
    for warning in &read.warnings {
        eprintln!("warning: {input}: {warning}");
    }
    let count = read.len();
    let chosen: Vec<(usize, Game)> = match args.game {
        Some(n) => {
            let index = n as usize - 1;
            let game = read
                .games
                .into_iter()
                .nth(index)
                .ok_or_else(|| format!("{input} ({from}) holds {count} game(s), not {n}"))?;
            vec![(index, game.map_err(|e| format!("{input} ({from}): {e}"))?)]
        }
        None => {
            let mut good = Vec::new();
            for (index, game) in read.games.into_iter().enumerate() {
                match game {
                    Ok(game) => good.push((index, game)),
                    Err(e) => eprintln!("error: {input} ({from}): {e}"),
                }
            }
            if good.is_empty() {
                return Err(match count {
                    0 => format!("{input} ({from}) holds no game"),
                    _ => format!("{input} ({from}): no game could be read"),
                });
            }
            good
        }
    };
    let limits = ReviewLimits {
        movetime: args.movetime.map(Duration::from_millis),
        depth: args.depth,
    };
    let engine = review::review_engine();
    let tables = tables(args)?;
    let mut annotated = Vec::with_capacity(chosen.len());
    let mut report = String::new();
    for (index, game) in &chosen {
        let moves: Vec<_> = game.mainline().collect();
        let label = format!("game {}", index + 1);
        let mut bar = ProgressBar::new(&label);
        let result = review::review(
            &engine,
            &game.start,
            &moves,
            limits,
            tables.as_ref().map(|t| t as &dyn EndgameTables),
            &mut |done, total| bar.show(done, total),
        );
        bar.finish();
        let reviewed = result.map_err(|e| format!("{input} ({from}), {label}: {e}"))?;
        report.push_str(&summary(&label, game, &reviewed, args.notation));
        annotated.push(review::annotate(game, &reviewed, args.notation));
    }
    let written = OutputFormat::Pgn(args.notation)
        .write(&annotated)
        .map_err(|e| format!("{input}: {e}"))?;
    std::fs::write(&args.output, written.bytes)
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;
    print!("{report}");
    Ok(())
}

/// The summary of one game: a line per side, then each mistake and blunder with its reason.
fn summary(label: &str, game: &Game, reviewed: &review::Review, notation: Notation) -> String {
    let name = |tag: &str, side: &str| game.tags.get(tag).unwrap_or(side).to_string();
    let mut text = format!(
        "{label}: {} (Red) vs {} (Black), {} moves\n",
        name("Red", "Red"),
        name("Black", "Black"),
        reviewed.moves.len()
    );
    for side in Color::ALL {
        let label = if side == Color::Red { "Red  " } else { "Black" };
        text.push_str(&format!("  {label} {}\n", reviewed.summary(side)));
    }
    let mut pos = reviewed.start.clone();
    for judged in &reviewed.moves {
        if judged.class >= Class::Mistake {
            let played = format_move(&pos, judged.played, notation);
            let after = pos.after(judged.played);
            let why = judged
                .refutation
                .as_ref()
                .map(|r| format!(": {}", r.english_if(&after, notation)))
                .unwrap_or_default();
            text.push_str(&format!(
                "  {} {played} {}{why}\n",
                judged.number, judged.class
            ));
        }
        pos.make_move(judged.played);
    }
    text
}

/// Progress on stderr: a bar redrawn in place on a terminal, a line per tenth otherwise.
struct ProgressBar {
    label: String,
    terminal: bool,
    last_tenth: Option<usize>,
}

impl ProgressBar {
    const WIDTH: usize = 30;

    fn new(label: &str) -> ProgressBar {
        ProgressBar {
            label: label.to_string(),
            terminal: std::io::stderr().is_terminal(),
            last_tenth: None,
        }
    }

    fn show(&mut self, done: usize, total: usize) {
        let total = total.max(1);
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let filled = done * Self::WIDTH / total;
            let _ = write!(
                err,
                "\r{}: [{}{}] {:3}% {done}/{total} moves",
                self.label,
                "#".repeat(filled),
                " ".repeat(Self::WIDTH - filled),
                done * 100 / total
            );
            let _ = err.flush();
        } else {
            let tenth = done * 10 / total;
            if self.last_tenth != Some(tenth) && (tenth > 0 || done == total) {
                self.last_tenth = Some(tenth);
                let _ = writeln!(
                    err,
                    "{}: {}% ({done}/{total} moves)",
                    self.label,
                    tenth * 10
                );
            }
        }
    }

    fn finish(&self) {
        if self.terminal {
            eprintln!();
        }
    }
}
