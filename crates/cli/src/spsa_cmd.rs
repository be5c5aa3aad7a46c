//! `xiangqi spsa`: tunes an engine's spin options (our search's numbers under `uci --tune`)
//! by game pairs, resumable from its state file.

use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use xiangqi_engine::protocol::OptionKind;
use xiangqi_match::{
    EngineSpec, GameSettings, Limits, Player, Spsa, SpsaParam, TimeControl, load_openings,
    play_step, shipped_openings,
};

/// The options of `xiangqi spsa`.
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  xiangqi spsa --state rfp.spsa --param RfpMargin --param FutilityBase \\\n    \
    --iterations 2000 --tc 10+0.1 --concurrency 2\n\n\
The state file holds the run: rerun the same command to continue it after a stop."
)]
pub struct SpsaArgs {
    /// The run's state: created on the first run, continued (and rewritten after every step)
    /// on later ones. A `.history` file beside it gets one line per step.
    #[arg(long, value_name = "FILE")]
    state: PathBuf,
    /// The engine, as `xiangqi match` takes it [default: cmd="THIS-PROGRAM uci --tune"].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    engine: Vec<String>,
    /// A spin option to tune, as NAME or NAME=C_END (its final perturbation; default a
    /// twentieth of its range, at least 1). Its start and range are what the engine offers.
    /// Only for a new run.
    #[arg(long, value_name = "NAME[=C_END]")]
    param: Vec<String>,
    /// Game pairs the run plays in all. Only for a new run.
    #[arg(long, default_value_t = 1000)]
    iterations: u64,
    /// The final learning rate of every parameter. Only for a new run.
    #[arg(long, default_value_t = 0.002)]
    r_end: f64,
    /// Seed of the perturbations and of the openings' draw. Only for a new run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time control of every game: BASE+INCREMENT in seconds.
    #[arg(long, value_name = "SECONDS+INC", conflicts_with = "nodes")]
    tc: Option<TimeControl>,
    /// Nodes per move instead of a clock.
    #[arg(long)]
    nodes: Option<u64>,
    /// Game pairs per step, all with one perturbation [default: half of --concurrency, at
    /// least 1].
    #[arg(long)]
    pairs: Option<usize>,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// Openings file: one FEN a line [default: the shipped openings].
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Stop after this many steps of this run, leaving the state to continue from.
    #[arg(long)]
    steps: Option<u64>,
}

/// Runs `xiangqi spsa`; the error is the message to print.
pub fn run(args: &SpsaArgs) -> Result<(), String> {
    let base = engine_spec(&args.engine)?;
    let limits = match (args.tc, args.nodes) {
        (Some(tc), None) => Limits::Clock(tc),
        (None, Some(n)) => Limits::Nodes(n.max(1)),
        _ => return Err("give one of --tc or --nodes".into()),
    };
    let mut spsa = if args.state.exists() {
        if !args.param.is_empty() {
            return Err(format!(
                "{} already holds a run, which continues with its own parameters: \
                 leave out --param, or give another --state",
                args.state.display()
            ));
        }
        let text = std::fs::read_to_string(&args.state)
            .map_err(|e| format!("cannot read {}: {e}", args.state.display()))?;
        let spsa = Spsa::parse(&text).map_err(|e| format!("{}: {e}", args.state.display()))?;
        println!(
            "continuing {}: {} of {} iterations done",
            args.state.display(),
            spsa.done,
            spsa.iterations
        );
        spsa
    } else {
        if args.param.is_empty() {
            return Err("a new run needs at least one --param NAME".into());
        }
        if !(args.r_end.is_finite() && args.r_end > 0.0) {
            return Err(format!("--r-end {} must be above 0", args.r_end));
        }
        let mut params = offered_params(&base, &args.param)?;
        for p in &mut params {
            p.r_end = args.r_end;
        }
        let spsa = Spsa::new(params, args.iterations, args.seed);
        save(&args.state, &spsa)?;
        spsa
    };
    let openings = match &args.openings {
        Some(path) => load_openings(path).map_err(|e| e.to_string())?,
        None => shipped_openings(),
    };
    let concurrency = args.concurrency.max(1);
    let pairs = args.pairs.unwrap_or(concurrency / 2).max(1);
    let settings = GameSettings::new(limits);
    let history = history_path(&args.state);
    let mut steps = 0;
    while !spsa.finished() && args.steps.is_none_or(|s| steps < s) {
        let perturbation = spsa.perturbation();
        let step_openings = spsa.openings_for_step(&openings, pairs);
        let tally = play_step(
            &spsa,
            &perturbation,
            &base,
            &settings,
            &step_openings,
            concurrency,
        )
        .map_err(|e| e.to_string())?;
        // θ⁺'s wins less its losses.
        let result = f64::from(tally.wins) - f64::from(tally.losses);
        spsa.update(&perturbation, result, pairs as u64);
        save(&args.state, &spsa)?;
        let values: Vec<String> = spsa
            .params
            .iter()
            .map(|p| format!("{}={:.2}", p.name, p.value))
            .collect();
        let line = format!(
            "{} {:+} {} {}",
            spsa.done,
            result,
            format_args!("+{} ={} -{}", tally.wins, tally.draws, tally.losses),
            values.join(" ")
        );
        append_line(&history, &line)?;
        println!("iteration {}/{}: {line}", spsa.done, spsa.iterations);
        steps += 1;
    }
    println!("values now (rounded):");
    for (name, value) in spsa.rounded() {
        println!("  {name} {value}");
    }
    Ok(())
}

/// The engine to tune: the given description, or this program's `uci --tune`.
fn engine_spec(words: &[String]) -> Result<EngineSpec, String> {
    if words.is_empty() {
        let exe = std::env::current_exe()
            .map_err(|e| format!("cannot find this program to run as the engine: {e}"))?;
        let mut spec = EngineSpec::new(vec![
            exe.to_string_lossy().into_owned(),
            "uci".into(),
            "--tune".into(),
        ]);
        spec.name = "xiangqi".into();
        return Ok(spec);
    }
    EngineSpec::parse(words).map_err(|e| format!("--engine: {e}"))
}

/// The parameters `wanted` (NAME or NAME=C_END) with the start and range the engine offers.
fn offered_params(base: &EngineSpec, wanted: &[String]) -> Result<Vec<SpsaParam>, String> {
    let mut player = Player::new(base.clone(), None);
    player
        .start()
        .map_err(|e| format!("the engine did not start: {e}"))?;
    let offered = player.options().to_vec();
    player.quit();
    let mut params: Vec<SpsaParam> = Vec::new();
    for word in wanted {
        let (name, c_end) = match word.split_once('=') {
            Some((name, c)) => {
                let c = c.parse::<f64>().ok().filter(|c| c.is_finite() && *c > 0.0);
                let c =
                    c.ok_or_else(|| format!("--param {word}: C_END must be a number above 0"))?;
                (name, Some(c))
            }
            None => (word.as_str(), None),
        };
        let option = offered
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "--param {name}: the engine offers no such option \
                     (start ours with `uci --tune` to offer the search's numbers)"
                )
            })?;
        let OptionKind::Spin { default, min, max } = option.kind else {
            return Err(format!(
                "--param {name}: only whole-number (spin) options can be tuned"
            ));
        };
        if params.iter().any(|p| p.name == option.name) {
            return Err(format!("--param {name} is given twice"));
        }
        let mut param = SpsaParam::new(&option.name, default as f64, min as f64, max as f64);
        if let Some(c) = c_end {
            param.c_end = c;
        }
        params.push(param);
    }
    Ok(params)
}

/// Writes the state whole or not at all, so that a stop at any moment leaves a whole state.
fn save(path: &Path, spsa: &Spsa) -> Result<(), String> {
    crate::files::write_whole(path, spsa.to_text().as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn history_path(state: &Path) -> PathBuf {
    let mut path = state.as_os_str().to_owned();
    path.push(".history");
    PathBuf::from(path)
}

fn append_line(path: &Path, line: &str) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| writeln!(f, "{line}"))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
