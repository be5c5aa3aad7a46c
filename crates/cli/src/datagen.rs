//! `xiangqi datagen`: self-play training data for the learned evaluation, with progress on
//! standard error.

use clap::Args;
use std::path::PathBuf;
use std::time::Duration;
use xiangqi_engine::datagen::{Event, RunSettings, SelfPlaySettings, Tally, Target, run};

/// The arguments of `xiangqi datagen`.
#[derive(Args)]
pub struct DatagenArgs {
    /// The data file. An existing one is checked and continued (a partial last game, left
    /// by a killed run, is cut first); a file that is not a datagen file is refused.
    #[arg(long)]
    out: PathBuf,
    /// Stop once the file holds this many positions (default 1000000 when neither
    /// --positions nor --games is given).
    #[arg(long, conflicts_with = "games", value_parser = clap::value_parser!(u64).range(1..))]
    positions: Option<u64>,
    /// Stop once the file holds this many games.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Node limit of each search.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Seed: each game depends only on the seed, the settings and its index, and games are
    /// written in index order, so a seed gives the same file with any thread count.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once, one thread each (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..1025))]
    threads: Option<u64>,
    /// Random legal plies played from the start position before a game, as MIN-MAX.
    #[arg(long, default_value = "4-8", value_parser = parse_ply_range)]
    random_plies: (u32, u32),
    /// Keep a start only when its search score is within this many centipawns of level.
    #[arg(long, default_value_t = 150, value_parser = clap::value_parser!(u32).range(0..30000))]
    start_window: u32,
    /// Play with the handcrafted evaluation instead of the built-in network (the first
    /// network's data, scripts/make-nnue-data, was made this way).
    #[arg(long, conflicts_with = "evalfile")]
    handcrafted: bool,
    /// Play with this network file instead of the built-in network (the second generation's
    /// data, gen2, was made with the first network, crates/engine/nets/xq-256-20261201b.xqnn).
    #[arg(long)]
    evalfile: Option<PathBuf>,
    /// Seconds between progress lines.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
    progress_seconds: u64,
}

/// Reads `MIN-MAX` (or a single number) as a range of plies.
fn parse_ply_range(text: &str) -> Result<(u32, u32), String> {
    let number = |part: &str| {
        part.trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= 200)
            .ok_or_else(|| format!("{part:?} is not a ply count from 0 to 200"))
    };
    let (min, max) = match text.split_once('-') {
        Some((min, max)) => (number(min)?, number(max)?),
        None => {
            let n = number(text)?;
            (n, n)
        }
    };
    if min > max {
        return Err(format!(
            "{min}-{max}: the first number is larger than the second"
        ));
    }
    Ok((min, max))
}

/// One progress line.
fn progress_line(tally: &Tally, new_positions: u64, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64().max(1e-3);
    format!(
        "games {}  positions {}  {:.0} positions/s  red wins {} draws {} black wins {}",
        tally.games,
        tally.positions,
        new_positions as f64 / seconds,
        tally.red_wins,
        tally.draws,
        tally.black_wins
    )
}

/// Runs `xiangqi datagen`.
pub fn run_datagen(args: &DatagenArgs) -> Result<(), String> {
    let target = match (args.positions, args.games) {
        (_, Some(games)) => Target::Games(games),
        (Some(positions), None) => Target::Positions(positions),
        (None, None) => Target::Positions(1_000_000),
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        |t| t as usize,
    );
    let evaluation = crate::commands::evaluation_of(args.evalfile.as_deref(), args.handcrafted)?;
    let settings = RunSettings {
        selfplay: SelfPlaySettings {
            seed: args.seed,
            nodes: args.nodes,
            random_plies_min: args.random_plies.0,
            random_plies_max: args.random_plies.1,
            start_window: args.start_window as i32,
            evaluation,
            ..SelfPlaySettings::default()
        },
        target,
        threads,
        progress_every: Duration::from_secs(args.progress_seconds),
    };
    eprintln!(
        "datagen: {} with {threads} thread{}, {} nodes a move, seed {}",
        args.out.display(),
        if threads == 1 { "" } else { "s" },
        args.nodes,
        args.seed
    );
    let tally = run(&args.out, &settings, &mut |event| match event {
        Event::Resumed { tally, cut_bytes } => {
            let cut = if cut_bytes > 0 {
                format!(" (cut {cut_bytes} bytes of an unfinished game)")
            } else {
                String::new()
            };
            eprintln!(
                "continuing after {} games, {} positions already in the file{cut}",
                tally.games, tally.positions
            );
        }
        Event::Progress {
            tally,
            new_positions,
            elapsed,
        } => eprintln!("{}", progress_line(&tally, new_positions, elapsed)),
    })
    .map_err(|e| e.to_string())?;
    println!(
        "{} games, {} positions in {}",
        tally.games,
        tally.positions,
        args.out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ply_ranges_are_read_and_bad_ones_explained() {
        assert_eq!(parse_ply_range("4-8"), Ok((4, 8)));
        assert_eq!(parse_ply_range("6"), Ok((6, 6)));
        assert!(parse_ply_range("8-4").unwrap_err().contains("larger"));
        assert!(parse_ply_range("a-4").unwrap_err().contains("\"a\""));
        assert!(parse_ply_range("0-999").is_err());
    }
}
