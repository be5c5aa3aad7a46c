//! `xiangqi match`: plays engines against each other, or generates an openings file.

use clap::{ArgAction, ArgMatches, Args, FromArgMatches, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;
use xiangqi_match::{
    DrawRules, EngineLog, EngineSpec, GameSettings, GenerateSettings, Limits, MatchConfig, RuleSet,
    ScoreRule, SplitMix64, Sprt, TimeControl, format_openings, generate_openings, load_openings,
    progress_line, run_match, shipped_openings, summary,
};
use xiangqi_records::ResultForms;
use xiangqi_rules::draw::NO_CAPTURE_PLIES;

/// The order openings are used in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OpeningsOrder {
    /// File order.
    Sequential,
    /// Shuffled with --seed.
    Random,
}

/// Arguments of `xiangqi match`: the options, with each `--engine`'s words kept together.
#[derive(Debug)]
pub struct MatchArgs {
    options: MatchOptions,
    /// The words of each `--engine`, one list per occurrence.
    engines: Vec<Vec<String>>,
}

impl FromArgMatches for MatchArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<MatchArgs, clap::Error> {
        let engines = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(MatchArgs {
            options: MatchOptions::from_arg_matches(matches)?,
            engines,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = MatchArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for MatchArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        MatchOptions::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        MatchOptions::augment_args_for_update(cmd)
    }
}

/// The options of `xiangqi match`.
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  xiangqi match --engine name=dev cmd=\"target/release/xiangqi uci\" \\\n    \
    --engine name=fsf cmd=fairy-stockfish proto=uci ranks=1 --each option.Hash=16 \\\n    \
    --tc 5+0.05 --games 100 --pgn dev-fsf.pgn\n\n\
Opening generation:\n  xiangqi match --generate-openings 240 --engine cmd=\"target/release/xiangqi uci\" \\\n    \
    --depth 10 --seed 1 --out crates/match/data/openings.fens"
)]
struct MatchOptions {
    /// An engine, as KEY=VALUE words: name=NAME cmd="PROGRAM ARGS" proto=uci|ucci ranks=0|1
    /// (1 for Fairy-Stockfish in plain UCI) dir=DIR option.NAME=VALUE. Give it twice; results
    /// are counted for the first.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = ArgAction::Append, required = true)]
    engine: Vec<String>,
    /// KEY=VALUE words added to both engines (before their own), e.g. option.Hash=16.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// Time control in seconds: BASE+INCREMENT, e.g. 5+0.05.
    #[arg(long, value_name = "SECONDS+INC", conflicts_with_all = ["nodes", "depth"])]
    tc: Option<TimeControl>,
    /// Nodes per move instead of a clock.
    #[arg(long, conflicts_with = "depth")]
    nodes: Option<u64>,
    /// Depth per move instead of a clock (with --generate-openings: the evaluation depth).
    #[arg(long)]
    depth: Option<u32>,
    /// How far an engine may overrun its clock before it loses on time, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 50)]
    time_margin: u64,
    /// How long one move may take under --nodes or --depth before the engine counts as hung,
    /// in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    hang_timeout: f64,
    /// Games to play [default: 100].
    #[arg(long, conflicts_with = "rounds")]
    games: Option<usize>,
    /// Openings to play, each twice with colours swapped.
    #[arg(long)]
    rounds: Option<usize>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Openings file: one FEN a line, `;` starts a comment [default: the shipped openings].
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// The order openings are used in.
    #[arg(long, value_enum, default_value_t = OpeningsOrder::Sequential)]
    openings_order: OpeningsOrder,
    /// Seed for --openings-order random and --generate-openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rule set for repetitions: asian or cxq.
    #[arg(long, default_value = "asian")]
    rules: RuleSet,
    /// Plies without a capture after which a game is drawn.
    #[arg(long, value_name = "PLIES", default_value_t = NO_CAPTURE_PLIES)]
    no_capture_plies: u32,
    /// Plies after which a game is drawn (0: no limit).
    #[arg(long, value_name = "PLIES", default_value_t = 500)]
    max_plies: u32,
    /// Score adjudication: score=CENTIPAWNS moves=N (both engines, N moves each).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    adjudicate: Vec<String>,
    /// Pentanomial SPRT: elo0=X elo1=Y alpha=A beta=B; the match stops at a decision.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    sprt: Vec<String>,
    /// Where to write the PGN of all games.
    #[arg(long, value_name = "FILE", default_value = "match.pgn")]
    pgn: PathBuf,
    /// The PGN Event tag [default: "FIRST vs SECOND"].
    #[arg(long)]
    event: Option<String>,
    /// Log every line exchanged with the engines to this file.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Generate this many balanced openings with the (first) engine instead of playing.
    #[arg(long, value_name = "COUNT")]
    generate_openings: Option<usize>,
    /// With --generate-openings: the output file [default: standard output].
    #[arg(long, value_name = "FILE", requires = "generate_openings")]
    out: Option<PathBuf>,
    /// With --generate-openings: opening length in plies, MIN-MAX.
    #[arg(long, value_name = "MIN-MAX", default_value = "4-8")]
    plies: String,
    /// With --generate-openings: the largest evaluation kept, in centipawns.
    #[arg(long, value_name = "CP", default_value_t = 60)]
    max_eval: i32,
}

/// A failed `xiangqi match`: one of the match crate's errors, or a message about the
/// arguments.
type Failure = Box<dyn std::error::Error>;

/// Runs `xiangqi match`; the error is the message to print.
pub fn run(args: MatchArgs) -> Result<(), String> {
    play_or_generate(args).map_err(|e| e.to_string())
}

/// Plays the match, or generates openings with `--generate-openings`.
fn play_or_generate(args: MatchArgs) -> Result<(), Failure> {
    let specs = engine_specs(&args.engines, &args.options.each)?;
    let args = args.options;
    if let Some(count) = args.generate_openings {
        return generate(&args, &specs[0], count);
    }
    let [first, second]: [EngineSpec; 2] = specs.try_into().map_err(|specs: Vec<EngineSpec>| {
        format!(
            "a match needs two --engine descriptions, got {}",
            specs.len()
        )
    })?;
    let mut engines = [first, second];
    if engines[0].name == engines[1].name {
        engines[1].name.push_str("-2");
    }
    let limits = match (args.tc, args.nodes, args.depth) {
        (Some(tc), None, None) => Limits::Clock(tc),
        (None, Some(n), None) => Limits::Nodes(n.max(1)),
        (None, None, Some(d)) => Limits::Depth(d.max(1)),
        _ => return Err("give one of --tc, --nodes or --depth".into()),
    };
    if !(args.hang_timeout.is_finite() && args.hang_timeout > 0.0) {
        return Err(format!(
            "--hang-timeout {} must be a positive number of seconds",
            args.hang_timeout
        )
        .into());
    }
    let settings = GameSettings {
        limits,
        time_margin: Duration::from_millis(args.time_margin),
        hang_timeout: Duration::from_secs_f64(args.hang_timeout),
        rules: args.rules,
        draw_rules: DrawRules {
            no_capture_plies: args.no_capture_plies.max(1),
            max_plies: args.max_plies,
        },
        adjudication: if args.adjudicate.is_empty() {
            None
        } else {
            Some(ScoreRule::parse(&args.adjudicate)?)
        },
    };
    let sprt = if args.sprt.is_empty() {
        None
    } else {
        Some(Sprt::parse(&args.sprt)?)
    };
    let mut openings = match &args.openings {
        Some(path) => load_openings(path)?,
        None => shipped_openings(),
    };
    if args.openings_order == OpeningsOrder::Random {
        SplitMix64::new(args.seed).shuffle(&mut openings);
    }
    let games = match (args.games, args.rounds) {
        (Some(g), _) => g,
        (None, Some(r)) => 2 * r,
        (None, None) => 100,
    };
    if games == 0 {
        return Err("nothing to play: --games 0".into());
    }
    let log = match &args.log {
        Some(path) => Some(
            EngineLog::create(path)
                .map_err(|e| format!("cannot create the log {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let conditions = format!(
        "{limits}, {} rules, {} openings, concurrency {}",
        args.rules,
        openings.len(),
        args.concurrency.max(1)
    );
    let config = MatchConfig {
        event: args
            .event
            .clone()
            .unwrap_or_else(|| format!("{} vs {}", engines[0].name, engines[1].name)),
        engines,
        settings,
        openings,
        games,
        concurrency: args.concurrency.max(1),
        sprt,
        pgn: Some(args.pgn.clone()),
        log,
    };
    let live = std::io::stderr().is_terminal();
    let standing = run_match(&config, &mut |game, standing| {
        let mut err = std::io::stderr().lock();
        let record = &game.record;
        let clear = if live { "\r\x1b[K" } else { "" };
        let _ = writeln!(
            err,
            "{clear}Game {} ({} vs {}, opening {}): {} {{{}}}",
            game.number,
            record.red,
            record.black,
            game.pair % config.openings.len() + 1,
            Some(record.outcome.result).pgn(),
            record.outcome.termination
        );
        if live {
            let _ = write!(err, "{}", progress_line(standing));
        } else {
            let _ = writeln!(err, "{}", progress_line(standing));
        }
        let _ = err.flush();
    })?;
    if live {
        eprintln!();
    }
    print!("{}", summary(&standing, &conditions));
    println!("PGN: {}", args.pgn.display());
    Ok(())
}

/// The engine descriptions with the --each words in front of each.
fn engine_specs(engines: &[Vec<String>], each: &[String]) -> Result<Vec<EngineSpec>, String> {
    engines
        .iter()
        .enumerate()
        .map(|(i, words)| {
            let all: Vec<&String> = each.iter().chain(words).collect();
            EngineSpec::parse(&all).map_err(|e| format!("--engine number {}: {e}", i + 1))
        })
        .collect()
}

/// `--generate-openings`: writes the openings file with its generating command in the header.
fn generate(args: &MatchOptions, spec: &EngineSpec, count: usize) -> Result<(), Failure> {
    let (min_plies, max_plies) = args
        .plies
        .split_once('-')
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
        .or_else(|| args.plies.trim().parse().ok().map(|n| (n, n)))
        .ok_or_else(|| format!("--plies {}: expected MIN-MAX, e.g. 4-8", args.plies))?;
    let defaults = GenerateSettings::default();
    let settings = GenerateSettings {
        count,
        min_plies,
        max_plies,
        eval_depth: args.depth.unwrap_or(defaults.eval_depth),
        max_eval: args.max_eval,
        seed: args.seed,
        ..defaults
    };
    let live = std::io::stderr().is_terminal();
    let openings = generate_openings(spec, &settings, &mut |kept, tried| {
        if live {
            eprint!("\r\x1b[Kopenings: {kept}/{count} kept of {tried} tried");
        } else if tried % 50 == 0 {
            eprintln!("openings: {kept}/{count} kept of {tried} tried");
        }
    })?;
    if live {
        eprintln!();
    }
    let command: Vec<String> = std::env::args().map(|a| shell_quote(&a)).collect();
    let header = [
        format!(
            "{count} Xiangqi opening positions for engine matches: random walks of {min_plies}-{max_plies} plies"
        ),
        format!(
            "from the start position, each ply chosen among moves scored within {} cp of the best by",
            settings.choice_margin
        ),
        format!(
            "{} (MultiPV {}, depth {}); kept when its depth-{} score is within ±{} cp;",
            spec.command.join(" "),
            settings.choice_lines,
            settings.choice_depth,
            settings.eval_depth,
            settings.max_eval
        ),
        "duplicates and mirror images removed.".into(),
        "Line format: FEN ; moves from the start position ; score for the side to move.".into(),
        "Generated with:".into(),
        format!("  {}", command.join(" ")),
    ];
    let text = format_openings(&openings, &header);
    match &args.out {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(())
}

/// `word` quoted for a POSIX shell when it needs it.
fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=+:,@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}
