//! The engine with endgame tables: small tables generated in the test run, the table's move
//! at a covered root, mates in exactly the table's distance against a table-perfect
//! defender, table results in the tree, the search unchanged where no table applies, and
//! the `EgtbPath` option with its errors.

mod captured;

use captured::Captured;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use xiangqi_egtb::{Ending, Options, Tablebases, Value, generate};
use xiangqi_engine::protocol::{Dialect, Session};
use xiangqi_engine::score::{Reported, mate_in, mated_in};
use xiangqi_engine::{Engine, EngineOptions, SearchLimits, SearchRequest, SearchResult};
use xiangqi_rules::Position;

/// The endings generated (with every ending their captures lead to); a second at most.
const ENDINGS: [&str; 5] = ["KRKA", "KRKAA", "KCKAA", "KCAK", "KNKAA"];

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("engine-egtb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The folder of the tables of [`ENDINGS`], generated once for the whole run.
fn table_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("tables");
        let endings: Vec<Ending> = ENDINGS.iter().map(|n| Ending::parse(n).unwrap()).collect();
        generate(&endings, &dir, &Options::default(), &mut |_| {}).unwrap();
        dir
    })
}

fn tables() -> Arc<Tablebases> {
    Arc::new(Tablebases::open(table_dir()).unwrap())
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

/// A full-strength engine on one thread with the handcrafted evaluation, with the tables
/// when `with_tables`.
fn engine(with_tables: bool) -> Engine {
    let mut engine = Engine::new(EngineOptions {
        use_nnue: false,
        ..EngineOptions::default()
    });
    if with_tables {
        let errors = engine.set_tablebases(Some(tables()));
        assert!(errors.is_empty(), "{errors:?}");
    }
    engine
}

fn think(engine: &Engine, position: &Position, limits: SearchLimits) -> SearchResult {
    engine.think(&SearchRequest::new(position.clone(), limits), &mut |_| {})
}

fn nodes(n: u64) -> SearchLimits {
    SearchLimits {
        nodes: Some(n),
        ..Default::default()
    }
}

fn depth(d: i32) -> SearchLimits {
    SearchLimits {
        depth: Some(d),
        ..Default::default()
    }
}

/// The longest win of `ending`'s table, with the stronger side to move.
fn longest_win(t: &Tablebases, ending: &str) -> (Position, u16) {
    let table = t.table(Ending::parse(ending).unwrap()).unwrap();
    let p = pos(&table.longest_win_fen().unwrap());
    match t.value(&p).unwrap() {
        Value::Win(d) => (p, d),
        other => panic!("{ending}: the longest win is {other}"),
    }
}

#[test]
fn the_engine_mates_in_the_tables_distance_against_a_table_perfect_defender() {
    let t = tables();
    let engine = engine(true);
    for ending in ["KRKA", "KCAK"] {
        let (start, d) = longest_win(&t, ending);
        assert!(d >= 9, "{ending}: a win in {d} is too short to tell");
        let mut p = start.clone();
        let mut plies = 0u16;
        while !p.legal_moves().is_empty() {
            let probe = t.probe(&p).unwrap();
            let mv = if plies.is_multiple_of(2) {
                // The engine, for the side that wins: the table's shortest win, reported as
                // a mate at the table's distance.
                let result = think(&engine, &p, nodes(2_000));
                let mv = result.best_move.unwrap();
                let played = probe.moves.iter().find(|m| m.mv == mv).unwrap();
                assert_eq!(played.value, probe.value, "{ending}: {} {mv}", p.to_fen());
                let Value::Win(left) = probe.value else {
                    panic!("{ending}: {} is {}", p.to_fen(), probe.value)
                };
                assert_eq!(left, d - plies);
                assert_eq!(result.score, Reported::from_search(mate_in(left as usize)));
                assert_eq!(result.pv.len(), left as usize, "the table's line to mate");
                mv
            } else {
                // The defender: the table's longest resistance.
                probe.moves[0].mv
            };
            p = p.after(mv);
            plies += 1;
        }
        assert_eq!(plies, d, "{ending} from {}", start.to_fen());
    }
}

#[test]
fn a_lost_root_is_defended_with_the_longest_resistance() {
    let t = tables();
    let engine = engine(true);
    let (start, _) = longest_win(&t, "KRKA");
    // The strongest attacking move from the longest win leaves the defender to move, lost.
    let lost = start.after(t.probe(&start).unwrap().moves[0].mv);
    let probe = t.probe(&lost).unwrap();
    let Value::Loss(d) = probe.value else {
        panic!("{} is {}", lost.to_fen(), probe.value)
    };
    let result = think(&engine, &lost, nodes(2_000));
    let played = probe
        .moves
        .iter()
        .find(|m| Some(m.mv) == result.best_move)
        .unwrap();
    assert_eq!(played.value, probe.moves[0].value);
    assert_eq!(result.score, Reported::from_search(mated_in(d as usize)));
}

#[test]
fn a_drawn_table_root_scores_zero_and_keeps_the_draw() {
    let t = tables();
    // Horse against two advisors: the advisors hold.
    let p = pos("3ak4/4a4/9/9/9/9/9/9/9/N2K5 w - - 0 1");
    assert_eq!(t.value(&p).unwrap(), Value::Draw);
    let with = think(&engine(true), &p, depth(6));
    assert_eq!(with.score, Reported::Cp(0));
    let probe = t.probe(&p).unwrap();
    let played = probe.moves.iter().find(|m| Some(m.mv) == with.best_move);
    assert_eq!(played.unwrap().value, Value::Draw);
    // Without the tables the search sees a horse more.
    let without = think(&engine(false), &p, depth(6));
    assert_ne!(without.score, Reported::Cp(0));
}

#[test]
fn nodes_the_tables_cover_take_the_tables_result_in_the_tree() {
    let t = tables();
    // Black is in check from the chariot on e8 and must take it: with the king or an
    // advisor. The material at the root has no table; after each capture it does.
    for (fen, expected) in [
        // Cannon against two advisors: one capture holds the draw.
        ("3aka3/4R4/9/9/9/C8/9/9/9/3K5 b - - 0 1", Reported::Cp(0)),
        // Chariot against two advisors: every capture loses, the longest in 8 plies.
        (
            "3aka3/4R4/9/9/9/R8/9/9/9/3K5 b - - 0 1",
            Reported::from_search(mated_in(8)),
        ),
    ] {
        let p = pos(fen);
        assert!(!engine(true).tablebases().unwrap().covers(&p));
        // What the tables say of each capture, for the side that plays it.
        let best = p
            .legal_moves()
            .iter()
            .map(|&m| t.value(&p.after(m)).unwrap().before())
            .min_by_key(|v| v.preference())
            .unwrap();
        let table_score = match best {
            Value::Win(d) => Reported::from_search(mate_in(d as usize)),
            Value::Loss(d) => Reported::from_search(mated_in(d as usize)),
            Value::Draw => Reported::Cp(0),
        };
        assert_eq!(table_score, expected, "{fen}");
        let with = think(&engine(true), &p, depth(3));
        assert_eq!(with.score, expected, "{fen}");
        let without = think(&engine(false), &p, depth(3));
        assert_ne!(
            without.score, expected,
            "{fen}: the search alone already knew"
        );
    }
}

#[test]
fn where_no_table_applies_the_search_is_unchanged() {
    for fen in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        // A few pieces more than any table.
        "3ak4/4a4/4b4/9/2p6/9/9/4B4/4A4/2RK1A3 w - - 0 1",
    ] {
        let p = pos(fen);
        let with = think(&engine(true), &p, depth(7));
        let without = think(&engine(false), &p, depth(7));
        assert_eq!(with.nodes, without.nodes, "{fen}");
        assert_eq!(with.best_move, without.best_move, "{fen}");
        assert_eq!(with.score, without.score, "{fen}");
    }
}

#[test]
fn tables_serve_full_strength_play_only() {
    let (start, d) = longest_win(&tables(), "KRKA");
    let mut learner = engine(true);
    learner.set_options(EngineOptions {
        level: xiangqi_engine::levels::Level::new(2),
        ..learner.options().clone()
    });
    let result = think(&learner, &start, nodes(2_000));
    assert_ne!(result.score, Reported::from_search(mate_in(d as usize)));
}

/// A session that has handled `lines`, and what it wrote.
fn session(dialect: Dialect, lines: &[String]) -> (Session, Captured) {
    let captured = Captured::default();
    let mut session = Session::new(dialect, captured.output());
    for line in lines {
        session.handle(line);
    }
    (session, captured)
}

#[test]
fn the_egtb_path_option_loads_the_tables_and_the_engine_plays_from_them() {
    let t = tables();
    let (start, d) = longest_win(&t, "KRKA");
    let best = t.probe(&start).unwrap().moves[0];
    let dir = table_dir().display().to_string();
    for (dialect, set) in [
        (Dialect::Uci, format!("setoption name EgtbPath value {dir}")),
        (Dialect::Ucci, format!("setoption egtbpath {dir}")),
    ] {
        let (mut s, out) = session(
            dialect,
            &[
                dialect.to_string(),
                set,
                format!("position fen {}", start.to_fen()),
                "go depth 20".to_string(),
            ],
        );
        out.wait_for("bestmove", 1);
        let text = out.text();
        let option = match dialect {
            Dialect::Uci => "option name EgtbPath type string default <empty>",
            Dialect::Ucci => "option egtbpath type string default <empty>",
        };
        assert!(text.contains(option), "{text}");
        let loaded = t.available().len();
        assert!(
            text.contains(&format!("info string EgtbPath: {loaded} endgame tables")),
            "{text}"
        );
        // UCI counts a mate in moves; UCCI writes it as 30000 less the moves.
        let score = match dialect {
            Dialect::Uci => format!("score mate {}", d.div_ceil(2)),
            Dialect::Ucci => format!("score {}", 30_000 - d.div_ceil(2)),
        };
        assert!(text.contains(&score), "{text}");
        let best_word = best.mv.to_string();
        assert!(
            text.lines()
                .any(|l| l.starts_with("bestmove") && l.contains(&best_word)),
            "{text}"
        );
        s.handle("quit");
    }
}

#[test]
fn a_bad_egtb_path_is_reported_and_the_engine_plays_on() {
    let (start, _) = longest_win(&tables(), "KRKA");
    // A folder that is not there.
    let (mut s, out) = session(
        Dialect::Uci,
        &[
            "uci".to_string(),
            "setoption name EgtbPath value /no/such/folder".to_string(),
            format!("position fen {}", start.to_fen()),
            "go depth 3".to_string(),
        ],
    );
    out.wait_for("bestmove", 1);
    assert!(
        out.text()
            .contains("info string error: EgtbPath '/no/such/folder': no tablebase folder"),
        "{}",
        out.text()
    );
    s.handle("quit");

    // A damaged table among good ones: it is named and left out, the others are used.
    let dir = scratch("damaged");
    for entry in std::fs::read_dir(table_dir()).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    let krka = dir.join("KRKA.xqtb");
    let bytes = std::fs::read(&krka).unwrap();
    std::fs::write(&krka, &bytes[..bytes.len() / 2]).unwrap();
    let (mut s, out) = session(
        Dialect::Uci,
        &[
            "uci".to_string(),
            format!("setoption name EgtbPath value {}", dir.display()),
            format!("position fen {}", start.to_fen()),
            "go depth 3".to_string(),
        ],
    );
    out.wait_for("bestmove", 1);
    let text = out.text();
    assert!(
        text.lines()
            .any(|l| l.starts_with("info string error: EgtbPath")
                && l.contains("KRKA")
                && l.contains("left out")),
        "{text}"
    );
    let others = tables().available().len() - 1;
    assert!(
        text.contains(&format!("info string EgtbPath: {others} endgame tables")),
        "{text}"
    );
    // An empty path: no tables, and still a move.
    s.handle("setoption name EgtbPath value <empty>");
    s.handle("go depth 3");
    out.wait_for("bestmove", 2);
    assert!(
        out.text()
            .contains("info string EgtbPath: no endgame tables")
    );
    s.handle("quit");
}
