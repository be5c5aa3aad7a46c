//! Small tables generated in the test run: their own checks against the rules, the known
//! results every learner is taught (data/known_results.tsv), probes, errors and
//! resuming.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use xiangqi_egtb::{
    Asian, Claim, EgtbError, Ending, Fact, Options, Progress, Tablebases, Value, check_fact,
    check_position, generate, known_facts, known_positions,
};
use xiangqi_rules::Position;

/// The endings the tests generate (with everything their captures lead to); each takes
/// seconds at most.
const ENDINGS: [&str; 10] = [
    "KRKAA", "KNKAA", "KNKA", "KCAK", "KCK", "KCBK", "KPK", "KPKA", "KRKN", "KRKA",
];

fn scratch(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("egtb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The tables of [`ENDINGS`], generated once for the whole run.
fn tables() -> &'static Tablebases {
    static TABLES: OnceLock<Tablebases> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = scratch("shared");
        let endings: Vec<Ending> = ENDINGS.iter().map(|n| Ending::parse(n).unwrap()).collect();
        generate(&endings, &dir, &Options::default(), &mut |_| {}).unwrap();
        Tablebases::open(&dir).unwrap()
    })
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

#[test]
fn every_generated_table_passes_its_check_against_the_rules() {
    let t = tables();
    let all = t.available();
    // The endings asked for and every ending a capture leads to, down to the bare generals.
    for name in ENDINGS
        .iter()
        .chain(&["KK", "KAK", "KAAK", "KBK", "KNK", "KRK", "KCK"])
    {
        assert!(
            all.contains(&Ending::parse(name).unwrap()),
            "{name} missing"
        );
    }
    for ending in all {
        let report = t.verify(ending).unwrap_or_else(|e| panic!("{e}"));
        assert!(report.positions > 0, "{ending}");
        // Checked on several threads, the same entries are counted.
        assert_eq!(t.verify_with(ending, 3).unwrap(), report, "{ending}");
    }
}

#[test]
fn known_results_hold() {
    let t = tables();
    let have = t.available();
    let mut checked = Vec::new();
    for fact in known_facts() {
        // The larger endings are checked by `xiangqi egtb facts` on the full set.
        if !have.contains(&fact.ending) {
            continue;
        }
        let check = check_fact(t, &fact).unwrap();
        assert!(
            check.holds,
            "{} {}: {} ({})",
            fact.ending,
            fact.claim.word(),
            check.found,
            fact.text
        );
        checked.push(fact.ending.name());
    }
    assert_eq!(
        checked,
        [
            "KRK", "KRKA", "KRKAA", "KNK", "KNKA", "KNKAA", "KCK", "KCAK", "KCBK", "KPK", "KPKA"
        ]
    );
}

#[test]
fn a_fact_the_table_does_not_bear_out_is_reported() {
    let t = tables();
    // Horse against two advisors is mostly drawn, not won.
    let fact = Fact {
        ending: Ending::parse("KNKAA").unwrap(),
        claim: Claim::MostlyWon,
        text: "a wrong claim".into(),
    };
    let check = check_fact(t, &fact).unwrap();
    assert!(!check.holds);
    assert!(check.found.contains("% drawn"), "{}", check.found);
    // The soldier's claims read its rank: against the bare general it wins from high up.
    let fact = Fact {
        ending: Ending::parse("KPK").unwrap(),
        claim: Claim::HighMostlyWon,
        text: "soldier vs bare general".into(),
    };
    assert!(check_fact(t, &fact).unwrap().holds);
}

#[test]
fn named_positions_have_their_known_verdicts() {
    let t = tables();
    let known = known_positions();
    for p in &known {
        assert_eq!(check_position(t, p).unwrap(), None, "{} {}", p.fen, p.text);
    }
    assert_eq!(known.len(), 7);
}

#[test]
fn perpetual_check_is_the_horses_only_defence() {
    // Chariot against horse: the horse side to move holds the draw only by checking from b1,
    // again and again; every other move loses.
    let t = tables();
    let probe = t
        .probe(&pos("9/9/4k4/9/9/9/9/3n5/9/R2K5 b - - 0 1"))
        .unwrap();
    assert_eq!((probe.value, probe.asian), (Value::Draw, Asian::Loss));
    let drawing: Vec<String> = probe
        .moves
        .iter()
        .filter(|m| m.value == Value::Draw)
        .map(|m| m.mv.to_string())
        .collect();
    assert_eq!(drawing, ["d2b1"]);
    let after = pos("9/9/4k4/9/9/9/9/3n5/9/R2K5 b - - 0 1").after(probe.moves[0].mv);
    assert!(after.in_check());
    // The other side to move there: drawn, won under the Asian rules.
    assert_eq!(t.lookup(&after).unwrap(), (Value::Draw, Asian::Win));
    let stats = t
        .table(Ending::parse("KRKN").unwrap())
        .unwrap()
        .stats()
        .clone();
    assert!(stats.sides[1].asian_losses > 0 && stats.sides[0].asian_wins > 0);
    // A side with only advisors and elephants never checks, so never loses that way.
    let guard = t.table(Ending::parse("KRKAA").unwrap()).unwrap();
    assert_eq!(guard.stats().sides[1].asian_losses, 0);
}

#[test]
fn moves_come_best_first_and_agree_with_the_result() {
    let t = tables();
    let p = pos("9/9/3k5/9/9/9/9/9/3CA4/3K5 w - - 0 1");
    let probe = t.probe(&p).unwrap();
    assert_eq!(probe.moves.len(), p.legal_moves().len());
    assert_eq!(probe.moves[0].value, probe.value);
    let keys: Vec<_> = probe.moves.iter().map(|m| m.value.preference()).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    // Playing the best move leads to a loss one ply shorter for the other side.
    let next = t.value(&p.after(probe.moves[0].mv)).unwrap();
    assert_eq!(next.before(), probe.value);
    // A lost position's moves are ordered by the longest resistance.
    let lost = t.probe(&p.after(probe.moves[0].mv)).unwrap();
    let Value::Loss(d) = lost.value else {
        panic!("{:?}", lost.value)
    };
    assert_eq!(lost.moves[0].value, Value::Loss(d));
}

#[test]
fn either_colour_and_the_mirror_share_a_table() {
    let t = tables();
    // Red chariot against Black advisor, and the same turned over with colours swapped.
    let red = pos("3k5/4a4/9/9/9/9/9/9/9/4K2R1 w - - 0 1");
    let black = pos("4k2r1/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1");
    let mirrored = pos("5k3/4a4/9/9/9/9/9/9/9/1R2K4 w - - 0 1");
    let v = t.value(&red).unwrap();
    assert!(matches!(v, Value::Win(_)));
    assert_eq!(t.value(&black).unwrap(), v);
    assert_eq!(t.value(&mirrored).unwrap(), v);
}

#[test]
fn probe_errors_name_what_is_missing() {
    let t = tables();
    let e = t
        .probe(&pos("2bak4/4a4/4b4/9/9/9/9/9/9/R2K5 w - - 0 1"))
        .unwrap_err();
    assert!(matches!(e, EgtbError::NoTable { .. }));
    let text = e.to_string();
    assert!(
        text.contains("no table for this material (KRKAABB)") && text.contains("KRKAABB.xqtb"),
        "{text}"
    );
    let e = t.probe(&Position::startpos()).unwrap_err();
    assert!(e.to_string().contains("no table for this material"), "{e}");
    let missing = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-such-folder");
    let e = Tablebases::open(&missing).err().unwrap();
    assert!(e.to_string().contains("no tablebase folder"), "{e}");
}

fn copy_table(from: &Tablebases, name: &str, to: &Path) -> PathBuf {
    let file = format!("{name}.xqtb");
    std::fs::copy(from.dir().join(&file), to.join(&file)).unwrap();
    to.join(file)
}

#[test]
fn damaged_tables_are_named_and_never_guessed() {
    let t = tables();
    let dir = scratch("damaged");
    let p = pos("4k4/4a4/9/9/9/9/9/9/9/3RK4 w - - 0 1");
    // A flipped byte in the data.
    let path = copy_table(t, "KRKA", &dir);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let e = Tablebases::open(&dir).unwrap().probe(&p).unwrap_err();
    assert!(matches!(e, EgtbError::Damaged { .. }), "{e}");
    assert!(
        e.to_string().contains("KRKA.xqtb") && e.to_string().contains("checksum"),
        "{e}"
    );
    // A file cut short.
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let e = Tablebases::open(&dir).unwrap().probe(&p).unwrap_err();
    assert!(e.to_string().contains("cut short"), "{e}");
    // Another file under the name.
    std::fs::write(&path, b"not a table").unwrap();
    let e = Tablebases::open(&dir).unwrap().probe(&p).unwrap_err();
    assert!(e.to_string().contains("not a table file"), "{e}");
    // Another ending's table under the name.
    std::fs::copy(t.dir().join("KRKAA.xqtb"), &path).unwrap();
    let e = Tablebases::open(&dir).unwrap().probe(&p).unwrap_err();
    assert!(e.to_string().contains("holds the ending KRKAA"), "{e}");
}

#[test]
fn generation_resumes_per_ending() {
    let dir = scratch("resume");
    let krka = Ending::parse("KRKA").unwrap();
    let run = |dir: &Path| {
        let mut seen = Vec::new();
        generate(&[krka], dir, &Options { threads: 2 }, &mut |p| match p {
            Progress::Present { ending } => seen.push(format!("present {ending}")),
            Progress::Redo { ending, .. } => seen.push(format!("redo {ending}")),
            Progress::Done { ending, .. } => seen.push(format!("done {ending}")),
            Progress::Step { .. } => {}
        })
        .unwrap();
        seen
    };
    // A killed run leaves at most a temporary file, never a table under its own name.
    std::fs::write(dir.join("KRKA.xqtb.tmp"), b"half a table").unwrap();
    assert_eq!(run(&dir), ["done KK", "done KAK", "done KRK", "done KRKA"]);
    assert!(!dir.join("KRKA.xqtb.tmp").exists());
    assert_eq!(
        run(&dir),
        ["present KK", "present KAK", "present KRK", "present KRKA"]
    );
    // A damaged table is made again; the others are kept.
    let path = dir.join("KRK.xqtb");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    assert_eq!(
        run(&dir),
        [
            "present KK",
            "present KAK",
            "redo KRK",
            "done KRK",
            "present KRKA"
        ]
    );
    let t = Tablebases::open(&dir).unwrap();
    t.verify(Ending::parse("KRK").unwrap()).unwrap();
}

#[test]
fn bad_ending_names_are_refused_before_work() {
    let dir = scratch("names");
    let e = Ending::parse("KRQK").unwrap_err();
    assert!(e.to_string().contains("unknown letter 'Q'"), "{e}");
    let e = Ending::parse("KRRRK").unwrap_err();
    assert!(e.to_string().contains("3 chariots"), "{e}");
    // Too many pieces for this generator.
    let big = Ending::parse("KRRNNCCKRRNNCC").unwrap();
    let e = generate(&[big], &dir, &Options::default(), &mut |_| {}).unwrap_err();
    assert!(matches!(e, EgtbError::TooLarge { .. }), "{e}");
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
}
