//! `xiangqi puzzles export`, `verify` and `retheme` as a user runs them.

mod support;

use std::process::Output;
use support::xiangqi;

/// A proven mate in 3 (the general steps aside, the chariot sweeps the back rank).
const GOOD: &str =
    "good-m3\t3ak4/4a4/9/9/9/9/9/9/9/3K2R2 w - - 0 1\td0e0 e9f9 g0f0 e8f7 f0f7\tmateIn3\t1100";

fn verify_file(name: &str, text: &str) -> Output {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-puzzles-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("puzzles.tsv");
    std::fs::write(&path, text).unwrap();
    let out = xiangqi(&["puzzles", "verify", path.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    out
}

#[test]
fn export_prints_every_shipped_puzzle_as_five_fields() {
    let out = xiangqi(&["puzzles", "export"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 1000, "only {} puzzles", lines.len());
    for line in lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 5, "{line}");
        assert!(!fields[0].is_empty() && !fields[0].contains(' '), "{line}");
        assert!(fields[1].split(' ').count() >= 2, "{line}");
        for m in fields[2].split(' ') {
            let bytes = m.as_bytes();
            let iccs = bytes.len() == 4
                && (b'a'..=b'i').contains(&bytes[0])
                && bytes[1].is_ascii_digit()
                && (b'a'..=b'i').contains(&bytes[2])
                && bytes[3].is_ascii_digit();
            assert!(iccs, "{m} in {line}");
        }
        assert!(!fields[3].is_empty() && !fields[3].contains(' '), "{line}");
        assert!(fields[4].parse::<u32>().is_ok(), "{line}");
    }
}

#[test]
fn verify_passes_a_proven_puzzle_and_counts_its_theme() {
    let out = verify_file("good", &format!("{GOOD}\n"));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("1 of 1 puzzles verified"), "{text}");
    assert!(text.contains("mateIn3: 1"), "{text}");
}

#[test]
fn verify_names_each_broken_puzzle_and_fails() {
    let broken = [
        // A wrong first move (legal, but no mate).
        "wrong-move\t3ak4/4a4/9/9/9/9/9/9/9/3K2R2 w - - 0 1\tg0g1 e9f9\tmateIn3\t1100",
        // Several first moves mate in 1.
        "not-unique\t3k5/9/4R4/9/9/9/9/9/9/4K1R2 w - - 0 1\te7e8\tmateIn1\t700",
    ];
    let bad_fen = "bad-fen\t3ak4/4a4/9/9/9/9/9/9/3K2R2 w - - 0 1\td0e0\tmateIn1\t700";
    let text = format!("{GOOD}\n{}\n{}\n{bad_fen}\n", broken[0], broken[1]);
    let out = verify_file("broken", &text);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!out.status.success(), "{stdout}");
    assert!(stdout.contains("FAIL wrong-move:"), "{stdout}");
    assert!(
        stdout.contains("FAIL not-unique: mate proof: 3 first moves mate in 1 or fewer"),
        "{stdout}"
    );
    assert!(stdout.contains("line 4, fen:"), "{stdout}");
    assert!(stdout.contains("1 of 4 puzzles verified"), "{stdout}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("3 puzzles failed"), "{stderr}");
}

#[test]
fn generate_writes_proven_puzzles_and_a_second_run_resumes() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-generate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mined.tsv");
    let out_path = path.to_str().unwrap();
    let args = [
        "puzzles",
        "generate",
        "--selfplay",
        "2",
        "--seed",
        "5",
        "--nodes",
        "4000",
        "--out",
        out_path,
    ];
    let first = xiangqi(&args);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let mined = std::fs::read_to_string(&path).unwrap();
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(stderr.contains("game 2/2"), "{stderr}");
    let verified = xiangqi(&["puzzles", "verify", out_path]);
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stdout)
    );
    // Started again, the run finds both games done and adds nothing.
    let second = xiangqi(&args);
    assert!(second.status.success());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), mined);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn retheme_rewrites_the_motifs_by_todays_rules_and_keeps_the_rest() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-puzzles-{}-retheme", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("puzzles.tsv");
    // The general's first step to e0 neither takes nor checks (a quiet move), the advisor
    // taken on f7 was pinned, and the mate needs the general on e0 (facing generals); a fork
    // claimed wrongly is dropped.
    let quiet_fork = GOOD.replace("mateIn3", "mateIn3,fork");
    std::fs::write(&path, format!("# a comment\n{quiet_fork}\n")).unwrap();
    let out = xiangqi(&["puzzles", "retheme", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("fork: -1"), "{said}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("# a comment\n"), "{text}");
    let themes = text.lines().nth(1).unwrap().split('\t').nth(3).unwrap();
    assert_eq!(themes, "mateIn3,pin,quietMove,facingGenerals");
    for gained in ["pin: +1", "quietMove: +1", "facingGenerals: +1"] {
        assert!(said.contains(gained), "{said}");
    }
    // A file that is not there is an error that names it.
    let out = xiangqi(&["puzzles", "retheme", "/nowhere/puzzles.tsv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nowhere/puzzles.tsv"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn assemble_keeps_one_of_a_position_and_its_mirror_and_fits_the_ratings() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-assemble-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let first = dir.join("first.tsv");
    let second = dir.join("second.tsv");
    // The mirror of GOOD (files a–i read as i–a) in the second file, and another mate.
    let mirror = "mirror-m3\t4ka3/4a4/9/9/9/9/9/9/9/2R2K3 w - - 0 1\tf0e0 e9d9 c0d0 e8d7 d0d7\tmateIn3\t1100";
    let other = "other-m1\t3k5/9/9/9/9/9/9/9/9/4K2R1 w - - 0 1\th0h9\tmateIn1\t600";
    std::fs::write(&first, format!("{GOOD}\n")).unwrap();
    std::fs::write(&second, format!("{mirror}\n{other}\n")).unwrap();
    let (out, fit) = (dir.join("set.tsv"), dir.join("fit.tsv"));
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let run = xiangqi(&[
        "puzzles",
        "assemble",
        &path(&first),
        &path(&second),
        "--out",
        &path(&out),
        "--fit",
        &path(&fit),
    ]);
    let text = String::from_utf8_lossy(&run.stdout).to_string();
    assert!(
        run.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        text.contains(
            "3 read; 0 left out near the draw rule's limit, 0 for one legal move, 1 for a \
             position already kept"
        ),
        "{text}"
    );
    let set = std::fs::read_to_string(&out).unwrap();
    let ids: Vec<&str> = set
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(ids, ["good-m3", "other-m1"]);
    // Two puzzles spread over the scale: the easier low, the harder high.
    let rating = |id: &str| -> u32 {
        let line = set.lines().find(|l| l.starts_with(id)).unwrap();
        line.rsplit('\t').next().unwrap().parse().unwrap()
    };
    assert!(
        rating("other-m1") < 1200 && rating("good-m3") > 1800,
        "{set}"
    );
    // The fit: a knot for each score, the quiet first move (d0e0) adding to GOOD's.
    let fit_text = std::fs::read_to_string(&fit).unwrap();
    let knots: Vec<&str> = fit_text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(knots.len(), 2, "{fit_text}");
    assert!(
        knots[0].starts_with("600\t") && knots[1].starts_with("1200\t"),
        "{fit_text}"
    );
    // A source with a broken line is refused, naming the file and the line.
    std::fs::write(&second, "x\tnot a fen\td0e0\tmateIn1\t600\n").unwrap();
    let run = xiangqi(&[
        "puzzles",
        "assemble",
        &path(&first),
        &path(&second),
        "--out",
        &path(&out),
        "--fit",
        &path(&fit),
    ]);
    let err = String::from_utf8_lossy(&run.stderr).to_string();
    assert!(!run.status.success());
    assert!(
        err.contains("second.tsv") && err.contains("line 1"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn stats_print_the_size_the_read_time_the_themes_and_the_bands() {
    let out = xiangqi(&["puzzles", "stats"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}");
    let first = text.lines().next().unwrap();
    let count: usize = first.split(' ').next().unwrap().parse().unwrap();
    assert!(count >= 1000, "{first}");
    // Carried deflated: smaller than the text.
    let sizes: Vec<usize> = first.split(' ').filter_map(|w| w.parse().ok()).collect();
    assert!(sizes[2] < sizes[1], "{first}");
    assert!(text.contains("read (inflate and parse) in "), "{text}");
    assert!(text.contains("  mateIn1: "), "{text}");
    assert!(text.contains("  600-799: "), "{text}");
}

#[test]
fn generate_mines_self_play_data_and_names_a_broken_file() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-mine-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("games.xqdg");
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let made = xiangqi(&[
        "datagen",
        "--out",
        &path(&data),
        "--games",
        "1",
        "--nodes",
        "300",
        "--threads",
        "1",
    ]);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let out = dir.join("mined.tsv");
    let args = |data: &std::path::Path| {
        vec![
            "puzzles".to_string(),
            "generate".to_string(),
            "--datagen".to_string(),
            path(data),
            "--nodes".to_string(),
            "2000".to_string(),
            "--out".to_string(),
            path(&out),
        ]
    };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        xiangqi(&args)
    };
    let mined = run(args(&data));
    let err = String::from_utf8_lossy(&mined.stderr).to_string();
    assert!(mined.status.success(), "{err}");
    assert!(
        err.contains(&format!("datagen {} game 1:", path(&data))),
        "{err}"
    );
    let progress = std::fs::read_to_string(dir.join("mined.tsv.progress")).unwrap();
    assert!(progress.contains("game 1"), "{progress}");
    // A file that is no data file is refused, named.
    let broken = dir.join("broken.xqdg");
    std::fs::write(&broken, "not a data file").unwrap();
    let refused = run(args(&broken));
    let err = String::from_utf8_lossy(&refused.stderr).to_string();
    assert!(!refused.status.success());
    assert!(err.contains("broken.xqdg"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
