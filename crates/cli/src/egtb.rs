//! `xiangqi egtb`: generate endgame tables (`generate`), ask them about a position
//! (`probe`), check them against the rules (`verify`) and print their figures (`stats`).

use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use xiangqi_egtb::{
    Asian, EgtbError, Ending, Options, Progress, Tablebases, Value, full_set, generate,
    one_attacker_endings,
};
use xiangqi_rules::{Color, Position};

/// The arguments of `xiangqi egtb`.
#[derive(Args)]
pub struct EgtbArgs {
    #[command(subcommand)]
    command: EgtbCommand,
}

#[derive(Subcommand)]
enum EgtbCommand {
    /// Generate the tables of ENDINGs (e.g. KRKAABB) and of every ending their captures lead
    /// to; tables already complete in the folder are kept. Without ENDINGs: every ending of
    /// a lone chariot, horse, cannon or soldier against any set of advisors and elephants
    /// (36 endings, seconds); with --full, the full set.
    Generate {
        /// Endings named the usual way: KRKAABB, KNKAA, KCAKA (H for horse and E for
        /// elephant accepted).
        endings: Vec<String>,
        /// The full set: one attacking piece with any advisors and elephants on either side
        /// (324 endings) and the named endings of two or three attackers (KRNKR, KRPKR,
        /// KNCKAABB, KPPPKAABB …): 440 tables, 330 MB, about 5 GB of memory at most and an
        /// hour and a half on two cores.
        #[arg(long, conflicts_with = "endings")]
        full: bool,
        /// The tables' folder (`egtb` in the data folder unless given).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Threads to generate with (the number of cores unless given).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: Option<u16>,
    },
    /// Print the result of a position for the side to move, the distance to mate in plies,
    /// the Asian-rules verdict and every legal move's own result, best first.
    Probe {
        /// The position.
        #[arg(long)]
        fen: String,
        /// The tables' folder (`egtb` in the data folder unless given).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Check tables against the rules' own move generator: every win, loss and draw agrees
    /// with the moves. Without ENDINGs: every table in the folder. Exit code 1 on a failure.
    Verify {
        /// Endings to check.
        endings: Vec<String>,
        /// The tables' folder (`egtb` in the data folder unless given).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Threads to check with (the number of cores unless given).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: Option<u16>,
    },
    /// Check the endgame results every learner is taught (the known results kept with the
    /// tables' code) against the tables in the folder: each fact whose table is there, and
    /// each named position. Exit code 1 when the tables contradict one.
    Facts {
        /// The tables' folder (`egtb` in the data folder unless given).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Print each table's figures as a Markdown table: positions, file size, generation
    /// time, the share won, drawn and lost with either side to move, the longest win.
    Stats {
        /// Endings to show (every table in the folder unless given).
        endings: Vec<String>,
        /// The tables' folder (`egtb` in the data folder unless given).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// Runs `xiangqi egtb`.
pub fn run(args: &EgtbArgs) -> Result<(), String> {
    match &args.command {
        EgtbCommand::Generate {
            endings,
            full,
            out,
            threads,
        } => run_generate(endings, *full, out.as_deref(), *threads),
        EgtbCommand::Probe { fen, dir } => probe(fen, dir.as_deref()),
        EgtbCommand::Verify {
            endings,
            dir,
            threads,
        } => verify(endings, dir.as_deref(), *threads),
        EgtbCommand::Stats { endings, dir } => stats(endings, dir.as_deref()),
        EgtbCommand::Facts { dir } => facts(dir.as_deref()),
    }
}

fn folder(dir: Option<&Path>) -> Result<PathBuf, String> {
    match dir {
        Some(d) => Ok(d.to_path_buf()),
        None => xiangqi_egtb::default_dir().ok_or_else(|| {
            "no data folder: give --dir (or --out), or set XDG_DATA_HOME or HOME".into()
        }),
    }
}

fn parse_endings(names: &[String]) -> Result<Vec<Ending>, String> {
    names
        .iter()
        .map(|n| Ending::parse(n).map_err(|e| e.to_string()))
        .collect()
}

fn open(dir: Option<&Path>) -> Result<Tablebases, String> {
    Tablebases::open(folder(dir)?).map_err(|e| e.to_string())
}

fn rate(per_second: f64) -> String {
    if per_second >= 1e6 {
        format!("{:.1}M", per_second / 1e6)
    } else if per_second >= 1e3 {
        format!("{:.1}k", per_second / 1e3)
    } else {
        format!("{per_second:.0}")
    }
}

fn run_generate(
    names: &[String],
    full: bool,
    out: Option<&Path>,
    threads: Option<u16>,
) -> Result<(), String> {
    let endings = if full {
        full_set()
    } else if names.is_empty() {
        one_attacker_endings(4)
    } else {
        parse_endings(names)?
    };
    let dir = folder(out)?;
    let mut options = Options::default();
    if let Some(t) = threads {
        options.threads = t as usize;
    }
    println!(
        "generating {} ending{} and their sub-endings into {} with {} thread{}",
        endings.len(),
        if endings.len() == 1 { "" } else { "s" },
        dir.display(),
        options.threads,
        if options.threads == 1 { "" } else { "s" }
    );
    let started = std::time::Instant::now();
    let order = generate(&endings, &dir, &options, &mut |p| match p {
        Progress::Present { ending } => println!("{ending}: already complete"),
        Progress::Redo { ending, reason } => {
            println!("{ending}: the file on disk is damaged ({reason}); generating it again")
        }
        Progress::Step {
            ending,
            phase,
            iteration,
            decided,
            per_second,
        } => {
            let step = match phase {
                "init" => "init".to_string(),
                "level" => format!("level {iteration}"),
                other => format!("{other} pass"),
            };
            println!(
                "{ending}: {step}, {decided} decided, {} positions/s",
                rate(per_second)
            );
        }
        Progress::Done {
            ending,
            path,
            bytes,
            seconds,
        } => println!(
            "{ending}: done in {seconds:.1} s, {bytes} bytes in {}",
            path.display()
        ),
    })
    .map_err(|e| e.to_string())?;
    println!(
        "{} tables complete in {:.1} s",
        order.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn value_words(v: Value) -> String {
    match v {
        Value::Win(d) => format!("win {d}"),
        Value::Loss(d) => format!("loss {d}"),
        Value::Draw => "draw".into(),
    }
}

fn asian_words(a: Asian) -> &'static str {
    match a {
        Asian::Same => "same",
        Asian::Loss => "loss (holds only by perpetual check)",
        Asian::Win => "win (the other side holds only by perpetual check)",
    }
}

fn probe(fen: &str, dir: Option<&Path>) -> Result<(), String> {
    let pos = Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
    let tables = open(dir)?;
    let probe = tables.probe(&pos).map_err(|e| e.to_string())?;
    let side = match pos.side_to_move() {
        Color::Red => "red",
        Color::Black => "black",
    };
    println!("ending: {}", probe.ending);
    println!("side to move: {side}");
    println!("result: {}", probe.value.word());
    match probe.value.distance() {
        Some(d) => println!("distance: {d} plies"),
        None => println!("distance: none"),
    }
    println!("asian rules: {}", asian_words(probe.asian));
    println!("moves:");
    for m in &probe.moves {
        let asian = if m.asian == Asian::Same {
            String::new()
        } else {
            format!(" (asian rules: {})", asian_words(m.asian))
        };
        println!("  {} {}{asian}", m.mv, value_words(m.value));
    }
    Ok(())
}

fn chosen(tables: &Tablebases, names: &[String]) -> Result<Vec<Ending>, String> {
    if names.is_empty() {
        let all = tables.available();
        if all.is_empty() {
            return Err(format!("no tables in {}", tables.dir().display()));
        }
        Ok(all)
    } else {
        parse_endings(names)
    }
}

fn verify(names: &[String], dir: Option<&Path>, threads: Option<u16>) -> Result<(), String> {
    let tables = open(dir)?;
    let threads = threads.map_or(Options::default().threads, |t| t as usize);
    let mut failed = 0;
    for ending in chosen(&tables, names)? {
        let started = std::time::Instant::now();
        match tables.verify_with(ending, threads) {
            Ok(r) => println!(
                "{ending}: ok, {} positions, {} moves, {} illegal entries, {:.1} s",
                r.positions,
                r.moves,
                r.illegal,
                started.elapsed().as_secs_f64()
            ),
            Err(e @ EgtbError::Check { .. }) => {
                println!("{ending}: FAILED: {e}");
                failed += 1;
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    if failed > 0 {
        eprintln!("{failed} table(s) failed their check");
        std::process::exit(1);
    }
    Ok(())
}

fn facts(dir: Option<&Path>) -> Result<(), String> {
    let tables = open(dir)?;
    let (mut held, mut failed, mut missing) = (0, 0, 0);
    for fact in xiangqi_egtb::known_facts() {
        let head = format!("{} {}", fact.ending, fact.claim.word());
        match xiangqi_egtb::check_fact(&tables, &fact) {
            Ok(c) if c.holds => {
                println!("{head}: holds: {} ({})", c.found, fact.text);
                held += 1;
            }
            Ok(c) => {
                println!("{head}: CONTRADICTED: {} ({})", c.found, fact.text);
                failed += 1;
            }
            Err(EgtbError::NoTable { .. }) => {
                println!("{head}: no table ({})", fact.text);
                missing += 1;
            }
            Err(e) => {
                println!("{head}: CANNOT CHECK: {e}");
                failed += 1;
            }
        }
    }
    for known in xiangqi_egtb::known_positions() {
        let head = format!("{} {}", known.fen, known.value);
        match xiangqi_egtb::check_position(&tables, &known) {
            Ok(None) => {
                println!("{head}: holds ({})", known.text);
                held += 1;
            }
            Ok(Some(found)) => {
                println!("{head}: CONTRADICTED: {found} ({})", known.text);
                failed += 1;
            }
            Err(EgtbError::NoTable { .. }) => {
                println!("{head}: no table ({})", known.text);
                missing += 1;
            }
            Err(e) => {
                println!("{head}: CANNOT CHECK: {e}");
                failed += 1;
            }
        }
    }
    println!("{held} hold, {failed} contradicted or unreadable, {missing} without a table");
    if failed > 0 {
        return Err(format!("{failed} known results do not hold"));
    }
    Ok(())
}

fn share(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.1}", 100.0 * part as f64 / whole as f64)
    }
}

fn stats(names: &[String], dir: Option<&Path>) -> Result<(), String> {
    let tables = open(dir)?;
    println!(
        "| ending | positions | file bytes | time s | stronger to move: won / drawn / lost % | weaker to move: won / drawn / lost % | Asian-rules draws decided | longest win (plies) | its position |"
    );
    println!("|---|---:|---:|---:|---|---|---:|---:|---|");
    for ending in chosen(&tables, names)? {
        let t = tables.table(ending).map_err(|e| e.to_string())?;
        let s = t.stats();
        let bytes = std::fs::metadata(tables.dir().join(ending.file_name()))
            .map(|m| m.len())
            .unwrap_or(0);
        let side = |i: usize| {
            let c = &s.sides[i];
            let p = c.positions();
            format!(
                "{} / {} / {}",
                share(c.wins, p),
                share(c.draws, p),
                share(c.losses, p)
            )
        };
        let asian: u64 = s.sides.iter().map(|c| c.asian_losses + c.asian_wins).sum();
        println!(
            "| {ending} | {} | {bytes} | {:.1} | {} | {} | {asian} | {} | {} |",
            s.sides[0].positions() + s.sides[1].positions(),
            s.generation_ms as f64 / 1000.0,
            side(0),
            side(1),
            s.longest_win,
            t.longest_win_fen()
                .map_or("-".to_string(), |f| format!("`{f}`"))
        );
    }
    Ok(())
}
