//! `xiangqi puzzles`: mine puzzles (`generate`), re-run their proofs (`verify`) and print the
//! shipped set (`export`).

use clap::{Args, Subcommand};
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use xiangqi_egtb::{Ending, Tablebases};
use xiangqi_engine::datagen::DataReader;
use xiangqi_records::RecordFormat;
use xiangqi_rules::Position;
use xiangqi_rules::random::SplitMix64;
use xiangqi_teaching::puzzles::dedupe::dedupe;
use xiangqi_teaching::puzzles::endgame::mine_ending;
use xiangqi_teaching::puzzles::mine::Miner;
use xiangqi_teaching::puzzles::rating::{RatingFit, difficulty_score};
use xiangqi_teaching::puzzles::{
    Puzzle, SHIPPED_DEFLATED, Theme, Verifier, parse_puzzles, parse_puzzles_lenient, read_shipped,
    shipped_tsv,
};

/// The arguments of `xiangqi puzzles`.
#[derive(Args)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(Subcommand)]
enum PuzzlesCommand {
    /// Mine puzzles from engine self-play and from game files, proving each; appends to
    /// --out and skips positions already there, so a stopped run can be started again.
    Generate(GenerateArgs),
    /// Re-run the proof of every puzzle of FILE (the shipped set when absent): print each
    /// failure with its id and why, counts per theme and the time taken; exit code 1 on any
    /// failure.
    Verify {
        /// A puzzle file in the export format.
        file: Option<PathBuf>,
        /// The endgame tables' folder, for the endgame puzzles (the course's tables are made
        /// there when missing; `egtb` in the data folder unless given).
        #[arg(long, value_name = "DIR")]
        tables: Option<PathBuf>,
    },
    /// Print every shipped puzzle, one a line: `id<TAB>fen<TAB>moves<TAB>themes<TAB>rating`.
    Export,
    /// Read the motif themes of every puzzle of FILE again by today's rules and write FILE
    /// back (comments and order kept); print how many puzzles each theme gained or lost.
    Retheme {
        /// A puzzle file in the export format.
        file: PathBuf,
    },
    /// Measure the search score of every puzzle of a mined FILE again (the rating column of
    /// a mined file, see `puzzles::rating`) and write FILE back (comments and order kept);
    /// not while a miner appends to it.
    Rescore {
        /// A mined puzzle file.
        file: PathBuf,
    },
    /// Make a puzzle set from mined files: read each (its rating column the search score),
    /// theme each puzzle by today's rules, keep one puzzle of each position and idea (the
    /// first, in the order given), fit the ratings so that the set spreads over 600–2400,
    /// and write the set and its fit; print what was kept and left out, the themes and the
    /// rating histogram.
    Assemble(AssembleArgs),
    /// Print the shipped set's size (as text and as carried in the binary, deflated), how long
    /// reading it takes (inflating and parsing, the median of 7 reads), its themes and its
    /// ratings in 200-point bands.
    Stats,
}

/// The arguments of `xiangqi puzzles assemble`.
#[derive(Args)]
struct AssembleArgs {
    /// The mined puzzle files, the first kept first.
    #[arg(required = true, value_name = "FILE")]
    sources: Vec<PathBuf>,
    /// The set to write.
    #[arg(
        long,
        value_name = "FILE",
        default_value = "crates/teaching/puzzles/puzzles.tsv"
    )]
    out: PathBuf,
    /// The rating fit to write beside it.
    #[arg(
        long,
        value_name = "FILE",
        default_value = "crates/teaching/puzzles/rating-fit.tsv"
    )]
    fit: PathBuf,
}

/// The arguments of `xiangqi puzzles generate`.
#[derive(Args)]
struct GenerateArgs {
    /// Game files to mine (PGN, XQF or DhtmlXQ, told from their content).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    games: Vec<PathBuf>,
    /// Self-play data files to mine (`xiangqi datagen`'s format; `-` reads standard input,
    /// e.g. `xz -dc FILE.xqdg.xz | xiangqi puzzles generate --datagen - --name FILE …`).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    datagen: Vec<PathBuf>,
    /// The name a data file read from standard input is marked done under.
    #[arg(long, value_name = "NAME", default_value = "stdin")]
    name: String,
    /// Self-play games to play and mine.
    #[arg(long, value_name = "N", default_value_t = 0)]
    selfplay: u64,
    /// Seed of the self-play games' random choices.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// The puzzle file to append to (created when missing).
    #[arg(long, value_name = "FILE", default_value = "puzzles.tsv")]
    out: PathBuf,
    /// Nodes of the engine's quick look at each position (and of each self-play move).
    #[arg(long, value_name = "K", default_value_t = 20_000)]
    nodes: u64,
    /// Endgame technique puzzles: this many random positions of each ending of the endgame
    /// course looked at by the exact tables (theme `endgame`).
    #[arg(long, value_name = "N", default_value_t = 0)]
    endgames: usize,
    /// The endgame tables' folder (the course's tables are made there when missing; `egtb`
    /// in the data folder unless given).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Add the exercises of the mating-patterns course, each proven, with the theme
    /// `pattern:<id>`.
    #[arg(long)]
    patterns: bool,
}

/// Runs `xiangqi puzzles`.
pub fn run(args: &PuzzlesArgs) -> Result<(), String> {
    match &args.command {
        PuzzlesCommand::Generate(generate_args) => generate(generate_args),
        PuzzlesCommand::Verify { file, tables } => verify(file.as_deref(), tables.as_deref()),
        PuzzlesCommand::Export => export(),
        PuzzlesCommand::Retheme { file } => retheme(file),
        PuzzlesCommand::Assemble(assemble_args) => assemble(assemble_args),
        PuzzlesCommand::Stats => stats(),
        PuzzlesCommand::Rescore { file } => rescore(file),
    }
}

/// The plies without a capture from which a mined position is too near the draw rule's
/// limit (120) to be a puzzle.
const NEAR_DRAW_LIMIT: u32 = 100;

fn assemble(args: &AssembleArgs) -> Result<(), String> {
    let mut all = Vec::new();
    for path in &args.sources {
        let name = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        let puzzles = parse_puzzles(&text).map_err(|e| format!("{name}: {e}"))?;
        println!("{name}: {} puzzles", puzzles.len());
        all.extend(puzzles.iter().map(Puzzle::rethemed));
    }
    let read = all.len();
    // A position near the draw rule's limit may owe its solution to the limit (the search
    // scores a game about to be drawn as one): it is left out; the others start with no
    // history.
    let (all, near_limit): (Vec<Puzzle>, Vec<Puzzle>) = all
        .into_iter()
        .partition(|p| p.position.halfmove_clock() < NEAR_DRAW_LIMIT);
    let all: Vec<Puzzle> = all.iter().map(Puzzle::without_history).collect();
    // A position with one legal move is no puzzle.
    let (all, forced): (Vec<Puzzle>, Vec<Puzzle>) = all.into_iter().partition(Puzzle::has_choice);
    let deduped = dedupe(all);
    let mut kept = deduped.kept;
    // The rating column of a mined file holds the search score.
    let scores: Vec<u32> = kept
        .iter()
        .map(|p| difficulty_score(p.rating, &p.position, &p.moves))
        .collect();
    let fit = RatingFit::fit(scores.iter().copied())
        .ok_or_else(|| "no puzzles to make a set of".to_string())?;
    let mut ids = std::collections::HashSet::new();
    for (puzzle, &score) in kept.iter_mut().zip(&scores) {
        puzzle.rating = fit.rate(score);
        if !ids.insert(puzzle.id.clone()) {
            return Err(format!(
                "the id {} names two different positions; rename one in its file",
                puzzle.id
            ));
        }
    }
    let sources: Vec<String> = args
        .sources
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let mut out = format!(
        "# Xiangqi puzzles, made by `xiangqi puzzles assemble {}`\n\
         # id\tfen\tmoves (ICCS, ranks 0-9)\tthemes\trating\n",
        sources.join(" ")
    );
    for puzzle in &kept {
        out.push_str(&puzzle.to_line());
        out.push('\n');
    }
    crate::files::write_whole(&args.out, out.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    crate::files::write_whole(&args.fit, fit.to_text().as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", args.fit.display()))?;
    println!(
        "{read} read; {} left out near the draw rule's limit, {} for one legal move, {} for a \
         position already kept (or its mirror), {} for an idea already kept; {} kept in {}",
        near_limit.len(),
        forced.len(),
        deduped.same_position.len(),
        deduped.same_idea.len(),
        kept.len(),
        args.out.display()
    );
    print_summary(&kept);
    Ok(())
}

fn stats() -> Result<(), String> {
    let text = shipped_tsv().map_err(|e| format!("shipped puzzles: {e}"))?;
    let mut times = Vec::new();
    let mut puzzles = Vec::new();
    for _ in 0..7 {
        let started = Instant::now();
        puzzles = read_shipped().map_err(|e| format!("shipped puzzles: {e}"))?;
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{} puzzles; {} bytes as text, {} bytes deflated in the binary",
        puzzles.len(),
        text.len(),
        SHIPPED_DEFLATED.len()
    );
    println!(
        "read (inflate and parse) in {:.1} ms (median of 7; {:.1}–{:.1} ms)",
        times[3], times[0], times[6]
    );
    print_summary(&puzzles);
    Ok(())
}

/// Prints the themes of `puzzles` and their ratings in 200-point bands, with shares.
fn print_summary(puzzles: &[Puzzle]) {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for puzzle in puzzles {
        for theme in &puzzle.themes {
            let name = match theme {
                Theme::Pattern(_) => "pattern:*".to_string(),
                other => other.to_string(),
            };
            *counts.entry(name).or_default() += 1;
        }
    }
    println!("themes:");
    for (theme, n) in &counts {
        println!("  {theme}: {n}");
    }
    println!("ratings:");
    let mut bands: BTreeMap<u32, usize> = BTreeMap::new();
    for puzzle in puzzles {
        // 2400, the top of the scale, is counted in the top band.
        *bands
            .entry(puzzle.rating.min(2399) / 200 * 200)
            .or_default() += 1;
    }
    for (band, n) in &bands {
        println!(
            "  {band}-{}: {n} ({:.1}%)",
            band + 199,
            100.0 * *n as f64 / puzzles.len() as f64
        );
    }
}

fn retheme(path: &Path) -> Result<(), String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let mut out = String::with_capacity(text.len());
    let mut gained: BTreeMap<String, usize> = BTreeMap::new();
    let mut lost: BTreeMap<String, usize> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            out.push_str(line);
        } else {
            let puzzle = xiangqi_teaching::puzzles::parse_line(line, i + 1)
                .map_err(|e| format!("{name}: {e}"))?;
            let again = puzzle.rethemed();
            for t in again.themes.iter().filter(|t| !puzzle.themes.contains(t)) {
                *gained.entry(t.to_string()).or_default() += 1;
            }
            for t in puzzle.themes.iter().filter(|t| !again.themes.contains(t)) {
                *lost.entry(t.to_string()).or_default() += 1;
            }
            out.push_str(&again.to_line());
        }
        out.push('\n');
    }
    crate::files::write_whole(path, out.as_bytes())
        .map_err(|e| format!("cannot write {name}: {e}"))?;
    for (theme, n) in &gained {
        println!("{theme}: +{n}");
    }
    for (theme, n) in &lost {
        println!("{theme}: -{n}");
    }
    Ok(())
}

fn rescore(path: &Path) -> Result<(), String> {
    let started = Instant::now();
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let engine = xiangqi_teaching::puzzles::tactic::ProofEngine::new();
    let mut out = String::with_capacity(text.len());
    let (mut changed, mut total) = (0, 0);
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            out.push_str(line);
        } else {
            let mut puzzle = xiangqi_teaching::puzzles::parse_line(line, i + 1)
                .map_err(|e| format!("{name}: {e}"))?;
            let score = xiangqi_teaching::puzzles::rating::measure(
                &engine,
                &puzzle.position,
                &puzzle.moves,
            )
            .score();
            total += 1;
            if score != puzzle.rating {
                changed += 1;
                puzzle.rating = score;
            }
            out.push_str(&puzzle.to_line());
        }
        out.push('\n');
    }
    crate::files::write_whole(path, out.as_bytes())
        .map_err(|e| format!("cannot write {name}: {e}"))?;
    println!(
        "{total} puzzles measured again, {changed} scores changed, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn export() -> Result<(), String> {
    let text = shipped_tsv().map_err(|e| format!("shipped puzzles: {e}"))?;
    let puzzles = parse_puzzles(&text).map_err(|e| format!("shipped puzzles: {e}"))?;
    let mut out = std::io::stdout().lock();
    for puzzle in &puzzles {
        writeln!(out, "{puzzle}").map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The materials of the endgame course, each once.
fn course_endings() -> Result<Vec<Ending>, String> {
    let mut endings: Vec<Ending> = Vec::new();
    for e in
        xiangqi_teaching::endgames::endgames().map_err(|e| format!("the endgame course: {e}"))?
    {
        let m = e
            .material()
            .map_err(|e| format!("the endgame course: {e}"))?;
        if !endings.contains(&m) {
            endings.push(m);
        }
    }
    Ok(endings)
}

/// The tables of the endgame course's endings in `dir` (the data folder's `egtb` unless
/// given), made there when missing.
fn course_tables(dir: Option<&Path>) -> Result<Arc<Tablebases>, String> {
    let dir = match dir {
        Some(d) => d.to_path_buf(),
        None => xiangqi_egtb::default_dir()
            .ok_or("no folder for the endgame tables: give --tables DIR")?,
    };
    let endings = course_endings()?;
    xiangqi_egtb::generate(
        &endings,
        &dir,
        &xiangqi_egtb::Options::default(),
        &mut |_| {},
    )
    .map_err(|e| format!("the endgame tables in {}: {e}", dir.display()))?;
    Tablebases::open(&dir)
        .map(Arc::new)
        .map_err(|e| format!("the endgame tables in {}: {e}", dir.display()))
}

fn verify(file: Option<&Path>, tables: Option<&Path>) -> Result<(), String> {
    let started = Instant::now();
    let (name, text) = match file {
        Some(path) => (
            path.display().to_string(),
            std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        ),
        None => (
            "the shipped set".to_string(),
            shipped_tsv().map_err(|e| format!("shipped puzzles: {e}"))?,
        ),
    };
    let (puzzles, line_errors) = parse_puzzles_lenient(&text);
    let mut failures = line_errors.len();
    for error in &line_errors {
        println!("FAIL {name}: {error}");
    }
    let mut verifier = if puzzles.iter().any(|p| p.has_theme(&Theme::Endgame)) {
        Verifier::with_tables(course_tables(tables)?)
    } else {
        Verifier::new()
    };
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for puzzle in &puzzles {
        match verifier.verify(puzzle) {
            Ok(()) => {
                for theme in &puzzle.themes {
                    *counts.entry(theme.to_string()).or_default() += 1;
                }
            }
            Err(why) => {
                failures += 1;
                println!("FAIL {}: {why}", puzzle.id);
            }
        }
    }
    let passed = puzzles.len() + line_errors.len() - failures;
    println!(
        "{passed} of {} puzzles verified in {:.1} s",
        puzzles.len() + line_errors.len(),
        started.elapsed().as_secs_f64()
    );
    let mut listed: Vec<String> = Theme::basic().iter().map(Theme::to_string).collect();
    listed.extend(counts.keys().filter(|k| k.starts_with("pattern:")).cloned());
    for theme in listed {
        println!("  {theme}: {}", counts.get(&theme).copied().unwrap_or(0));
    }
    if failures > 0 {
        Err(format!("{failures} puzzles failed their proof in {name}"))
    } else {
        Ok(())
    }
}

/// The progress file beside `out`: which games are done.
fn progress_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

/// Appends `puzzle` to the output and names it on stderr.
fn write_puzzle(puzzle: &Puzzle, out: &mut std::fs::File) -> Result<(), String> {
    let themes: Vec<String> = puzzle.themes.iter().map(Theme::to_string).collect();
    eprintln!("  + {} {} ({})", puzzle.id, themes.join(","), puzzle.rating);
    writeln!(out, "{puzzle}").map_err(|e| e.to_string())
}

fn generate(args: &GenerateArgs) -> Result<(), String> {
    let started = Instant::now();
    let existing = match std::fs::read_to_string(&args.out) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {}: {e}", args.out.display())),
    };
    let (known, _) = parse_puzzles_lenient(&existing);
    let progress_file = progress_path(&args.out);
    let done: Vec<String> = std::fs::read_to_string(&progress_file)
        .map(|t| t.lines().map(str::to_string).collect())
        .unwrap_or_default();
    let mut miner = Miner::new(args.nodes);
    for puzzle in &known {
        miner.mark_seen(&puzzle.position);
    }
    let mut out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("cannot open {}: {e}", args.out.display()))?;
    if existing.is_empty() {
        writeln!(out, "# id\tfen\tmoves\tthemes\trating").map_err(|e| e.to_string())?;
    }
    let mut progress = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&progress_file)
        .map_err(|e| format!("cannot open {}: {e}", progress_file.display()))?;
    let mut total = known.len();
    eprintln!("{} puzzles already in {}", total, args.out.display());

    if args.endgames > 0 {
        let tables = course_tables(args.tables.as_deref())?;
        let mut seen: std::collections::HashSet<String> = known
            .iter()
            .map(|p| xiangqi_teaching::puzzles::mine::position_key(&p.position))
            .collect();
        let mut random = SplitMix64::new(args.seed);
        for ending in course_endings()? {
            let mark = format!(
                "endgames {} seed {} tries {}",
                ending.name(),
                args.seed,
                args.endgames
            );
            if done.contains(&mark) {
                continue;
            }
            let found = mine_ending(&tables, &ending, args.endgames, &mut random, &mut seen)
                .map_err(|e| format!("{}: {e}", ending.name()))?;
            for puzzle in &found {
                write_puzzle(puzzle, &mut out)?;
                total += 1;
            }
            writeln!(progress, "{mark}").map_err(|e| e.to_string())?;
            eprintln!("{mark}: {} puzzles, {} in all", found.len(), total);
        }
    }

    if args.patterns {
        let exercises = xiangqi_teaching::pattern_exercises()
            .map_err(|e| format!("the mating-patterns course: {e}"))?;
        let mut numbers: BTreeMap<&str, usize> = BTreeMap::new();
        for exercise in &exercises {
            let number = numbers.entry(exercise.pattern).or_default();
            *number += 1;
            let name = format!("pattern {} exercise {number}", exercise.pattern);
            let position =
                Position::from_fen(&exercise.fen).map_err(|e| format!("{name}: bad FEN: {e}"))?;
            let mate_in = u32::try_from(exercise.mate_in).unwrap_or(u32::MAX);
            match miner.pattern_puzzle(exercise.pattern, *number, &position, mate_in) {
                Ok(Some(puzzle)) => {
                    write_puzzle(&puzzle, &mut out)?;
                    total += 1;
                }
                Ok(None) => eprintln!("{name}: already in the file"),
                Err(why) => eprintln!("{name}: skipped, {why}"),
            }
        }
    }

    for path in &args.games {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let extension = path.extension().and_then(|e| e.to_str());
        let format = RecordFormat::detect(&bytes, extension);
        let collection = format
            .read(&bytes)
            .map_err(|e| format!("{} ({format}): {e}", path.display()))?;
        for (index, game) in collection.good().enumerate() {
            let mark = format!("file {} game {}", path.display(), index + 1);
            if done.contains(&mark) {
                continue;
            }
            let moves: Vec<_> = game.mainline().collect();
            let mut found = Vec::new();
            miner.mine_line(&game.start, &moves, &mut |p| found.push(p));
            for puzzle in found {
                write_puzzle(&puzzle, &mut out)?;
                total += 1;
            }
            writeln!(progress, "{mark}").map_err(|e| e.to_string())?;
            eprintln!(
                "{mark}: {} plies, {} puzzles in all, {:.0} s",
                moves.len(),
                miner.stats.puzzles,
                started.elapsed().as_secs_f64()
            );
        }
    }

    for path in &args.datagen {
        let label = if path.as_os_str() == "-" {
            args.name.clone()
        } else {
            path.display().to_string()
        };
        let reader: Box<dyn std::io::Read> = if path.as_os_str() == "-" {
            Box::new(std::io::stdin().lock())
        } else {
            Box::new(
                std::fs::File::open(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
            )
        };
        let games = DataReader::new(std::io::BufReader::new(reader))
            .map_err(|e| format!("{label}: {e}"))?;
        for (index, game) in games.enumerate() {
            let game = game.map_err(|e| format!("{label}: {e}"))?;
            let mark = format!("datagen {label} game {}", index + 1);
            if done.contains(&mark) {
                continue;
            }
            let moves: Vec<_> = game.plies.iter().map(|&(m, _)| m).collect();
            let mut found = Vec::new();
            miner.mine_line(&game.start, &moves, &mut |p| found.push(p));
            for puzzle in found {
                write_puzzle(&puzzle, &mut out)?;
                total += 1;
            }
            writeln!(progress, "{mark}").map_err(|e| e.to_string())?;
            eprintln!(
                "{mark}: {} plies, {} puzzles in all, {:.0} s",
                moves.len(),
                miner.stats.puzzles,
                started.elapsed().as_secs_f64()
            );
        }
    }

    let openings = xiangqi_match::shipped_openings();
    for game in 1..=args.selfplay {
        let mark = format!("selfplay seed {} game {game}", args.seed);
        if done.contains(&mark) {
            continue;
        }
        let mut random = SplitMix64::new(args.seed.wrapping_mul(1_000_003).wrapping_add(game));
        let start = if game % 2 == 0 || openings.is_empty() {
            Position::startpos()
        } else {
            openings[random.below_by_remainder(openings.len())]
                .position
                .clone()
        };
        let mut found = Vec::new();
        let plies = miner.play_game(&start, &mut random, &mut |p| found.push(p));
        for puzzle in found {
            write_puzzle(&puzzle, &mut out)?;
            total += 1;
        }
        writeln!(progress, "{mark}").map_err(|e| e.to_string())?;
        eprintln!(
            "game {game}/{}: {plies} plies; {} positions, {} candidates, {} new puzzles, \
             {total} in the file; {:.0} s",
            args.selfplay,
            miner.stats.positions,
            miner.stats.candidates,
            miner.stats.puzzles,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
