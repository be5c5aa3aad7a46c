//! Every reader fed random bytes, PGN-like and DhtmlXQ-like token soup, and mutated valid
//! files: it must return a game or an error, never panic or hang, and a game it returns
//! must write and read back to a fixed point.
//!
//! The quick properties run with the other tests. `fuzz_every_reader_for_a_while` is ignored
//! by default and runs for `XIANGQI_FUZZ_SECONDS` seconds (default 30); `scripts/fuzz-records`
//! runs it in a release build for as long as asked.

mod support;

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::sync::LazyLock;
use std::time::{Duration, Instant};
use support::random_games::{Features, Rng, game};
use support::xqf_encrypt::{KeyChoice, encrypt};
use xiangqi_records::{Game, RecordFormat, dhtmlxq, pgn, xqf};
use xiangqi_rules::notation::Notation;

/// Valid files to mutate: the samples and the writers' output for a few random games.
static SAMPLES: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    let mut out: Vec<Vec<u8>> = [
        "xqbase-chinese.pgn",
        "gbk.pgn",
        "collection.pgn",
        "variant.pgn",
        "hand-made-v10.xqf",
        "hand-made-v11.xqf",
        "hand-made-v18.xqf",
        "dpxq.txt",
        "dpxq-gbk.txt",
    ]
    .iter()
    .map(|name| support::data(name))
    .chain(
        [
            "xqbase-gbk-crlf.pgn",
            "collection-one-broken.pgn",
            "text-around-games.pgn",
            "long-names.pgn",
        ]
        .iter()
        .map(|name| support::real_world(name)),
    )
    .collect();
    let mut rng = Rng::new(99);
    for _ in 0..3 {
        let g = game(&mut rng, 25, 2, Features::PGN);
        out.push(pgn::write_game(&g, Notation::Wxf).unwrap().into_bytes());
        let g = game(&mut rng, 25, 2, Features::XQF);
        out.push(xqf::write(&g).unwrap().bytes);
        out.push(dhtmlxq::write_game(&g).unwrap().into_bytes());
    }
    out
});

/// Pieces of PGN text to string together.
const PGN_PIECES: &[&str] = &[
    "[Game \"Chinese Chess\"]",
    "[Event \"e\"]",
    "[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w\"]",
    "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1\"]",
    "[Format \"WXF\"]",
    "[Format \"ICCS\"]",
    "[Variant \"xiangqi\"]",
    "[Result \"1-0\"]",
    "1.",
    "2...",
    "h2e2",
    "H2-E2",
    "h9g7",
    "b0c2",
    "C2=5",
    "C2.5",
    "H8+7",
    "炮二平五",
    "马8进7",
    "马二进三",
    "前炮平四",
    "Che3",
    "Nhg8",
    "Rih10",
    "{comment}",
    "{",
    "}",
    "(",
    ")",
    ";line\n",
    "$1",
    "$",
    "!?",
    "??",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "%escape\n",
    "[",
    "]",
    "\"",
    "\\",
    "\n",
];

/// Pieces of DhtmlXQ text to string together.
const DHTML_PIECES: &[&str] = &[
    "[DhtmlXQ]",
    "[/DhtmlXQ]",
    "[DhtmlXQ_movelist]",
    "[/DhtmlXQ_movelist]",
    "[DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]",
    "[DhtmlXQ_binit]99999999999999999949999999999999999999999999999999999999999999[/DhtmlXQ_binit]",
    "[DhtmlXQ_move_0_1_1]",
    "[DhtmlXQ_move_0_2_1]",
    "[DhtmlXQ_move_1_2_2]",
    "[DhtmlXQ_move_1_3_2]",
    "[/DhtmlXQ_move_0_1_1]",
    "[DhtmlXQ_comment0]",
    "[DhtmlXQ_comment1_2]",
    "[/DhtmlXQ_comment1]",
    "[DhtmlXQ_fen]4k4/9/9/9/9/9/9/9/9/4K4 w[/DhtmlXQ_fen]",
    "[DhtmlXQ_result]红胜[/DhtmlXQ_result]",
    "[DhtmlXQ_title]t[/DhtmlXQ_title]",
    "7747",
    "7062",
    "7967",
    "8070",
    "1022",
    "1927",
    "99",
    "||",
    "\\u4e2d",
    "<br>",
    "\n",
];

/// Reads `bytes` with every reader; whatever is read must write and read back to a fixed
/// point (same tree after one more round).
fn check(bytes: &[u8]) {
    if let Ok(games) = pgn::read(bytes) {
        for g in &games {
            let once = pgn_round(g);
            assert_eq!(
                once.mainline().collect::<Vec<_>>(),
                g.mainline().collect::<Vec<_>>()
            );
            assert_eq!(once.move_count(), g.move_count());
            assert_eq!(pgn_round(&once), once);
        }
    }
    match xqf::read(bytes) {
        Ok(g) => {
            let once = xqf_round(&g);
            assert_eq!(
                once.mainline().collect::<Vec<_>>(),
                g.mainline().collect::<Vec<_>>()
            );
            assert_eq!(xqf_round(&once), once);
        }
        Err(e) => drop(e.to_string()),
    }
    match dhtmlxq::read(bytes) {
        Ok(games) => {
            for g in &games {
                let once = dhtml_round(g);
                assert_eq!(
                    once.mainline().collect::<Vec<_>>(),
                    g.mainline().collect::<Vec<_>>()
                );
                assert_eq!(dhtml_round(&once), once);
            }
        }
        Err(e) => drop(e.to_string()),
    }
    let _ = RecordFormat::detect(bytes, None).read(bytes);
}

fn pgn_round(g: &Game) -> Game {
    let text = pgn::write_game(g, Notation::Chinese).expect("a read game is writable");
    pgn::read_str(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .remove(0)
}

fn xqf_round(g: &Game) -> Game {
    xqf::read(&xqf::write(g).expect("a read game is writable").bytes).expect("reads back")
}

fn dhtml_round(g: &Game) -> Game {
    let text = dhtmlxq::write_game(g).expect("a read game is writable");
    dhtmlxq::read_str(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .remove(0)
}

/// One edit of a file: kind, where, and a byte.
type Edit = (u8, usize, u8);

/// Applies `edits` to a copy of sample `which`.
fn mutate(which: usize, edits: &[Edit]) -> Vec<u8> {
    let mut bytes = SAMPLES[which % SAMPLES.len()].clone();
    apply(&mut bytes, edits);
    bytes
}

/// Applies `edits` to `bytes`: overwrite, insert, delete, cut, flip a bit, repeat a chunk.
fn apply(bytes: &mut Vec<u8>, edits: &[Edit]) {
    for &(kind, at, byte) in edits {
        let len = bytes.len();
        let i = if len == 0 { 0 } else { at % len };
        match kind % 6 {
            0 if len > 0 => bytes[i] = byte,
            1 => bytes.insert(i, byte),
            2 if len > 0 => {
                bytes.remove(i);
            }
            3 => bytes.truncate(i),
            4 if len > 0 => bytes[i] ^= 1 << (byte % 8),
            5 if len > 8 => {
                let end = (i + usize::from(byte) % 16).min(len);
                let chunk = bytes[i..end].to_vec();
                bytes.splice(i..i, chunk);
            }
            _ => {}
        }
    }
}

fn random_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..1500)
}

fn mutated_samples() -> impl Strategy<Value = Vec<u8>> {
    (
        any::<usize>(),
        prop::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 1..10),
    )
        .prop_map(|(which, edits)| mutate(which, &edits))
}

fn soup(pieces: &'static [&'static str]) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec((prop::sample::select(pieces), 0..3usize), 0..120).prop_map(|parts| {
        let mut out = String::new();
        for (piece, gap) in parts {
            out.push_str(piece);
            out.push_str(["", " ", "\n"][gap]);
        }
        out.into_bytes()
    })
}

/// A random game written in one of the formats (XQF possibly encrypted with random keys),
/// then edited a little.
fn mutated_games() -> impl Strategy<Value = Vec<u8>> {
    (
        any::<u64>(),
        0..6u8,
        prop::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 0..4),
    )
        .prop_map(|(seed, kind, edits)| {
            let mut rng = Rng::new(seed);
            let features = if kind < 3 {
                Features::PGN
            } else {
                Features::XQF
            };
            let g = game(&mut rng, 40, 2, features);
            let mut bytes = match kind {
                0..3 => pgn::write_game(&g, Notation::ALL[usize::from(kind)])
                    .unwrap()
                    .into_bytes(),
                3 => xqf::write(&g).unwrap().bytes,
                4 => {
                    let keys = KeyChoice {
                        xy: rng.below(256) as u8,
                        xyf: rng.below(256) as u8,
                        xyt: rng.below(256) as u8,
                        mask: rng.below(256) as u8,
                        or: [rng.below(256) as u8, 0, 0xFF, rng.below(256) as u8],
                    };
                    encrypt(
                        &xqf::write(&g).unwrap().bytes,
                        11 + rng.below(8) as u8,
                        &keys,
                    )
                }
                _ => dhtmlxq::write_game(&g).unwrap().into_bytes(),
            };
            apply(&mut bytes, &edits);
            bytes
        })
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn readers_survive_random_bytes(bytes in random_bytes()) {
        check(&bytes);
    }

    #[test]
    fn readers_survive_mutated_files(bytes in mutated_samples()) {
        check(&bytes);
    }

    #[test]
    fn readers_survive_pgn_soup(bytes in soup(PGN_PIECES)) {
        check(&bytes);
    }

    #[test]
    fn readers_survive_dhtmlxq_soup(bytes in soup(DHTML_PIECES)) {
        check(&bytes);
    }

    #[test]
    fn readers_survive_edited_random_games(bytes in mutated_games()) {
        check(&bytes);
    }
}

#[test]
#[ignore = "long-running fuzz: XIANGQI_FUZZ_SECONDS sets how long (default 30)"]
fn fuzz_every_reader_for_a_while() {
    let seconds: u64 = std::env::var("XIANGQI_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let started = Instant::now();
    let deadline = started + Duration::from_secs(seconds);
    let mut inputs = 0u64;
    let mut round = 0u64;
    const CASES: u32 = 100;
    while Instant::now() < deadline {
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&round.to_le_bytes());
        let strategies: [(&str, BoxedStrategy<Vec<u8>>); 5] = [
            ("random bytes", random_bytes().boxed()),
            ("mutated files", mutated_samples().boxed()),
            ("PGN soup", soup(PGN_PIECES).boxed()),
            ("DhtmlXQ soup", soup(DHTML_PIECES).boxed()),
            ("edited random games", mutated_games().boxed()),
        ];
        for (name, strategy) in strategies {
            let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
            let mut runner = TestRunner::new_with_rng(config(CASES), rng);
            let result = runner.run(&strategy, |b| {
                check(&b);
                Ok(())
            });
            if let Err(e) = result {
                panic!("{name}, round {round}: {e}");
            }
        }
        inputs += 5 * u64::from(CASES);
        round += 1;
    }
    eprintln!(
        "fuzz: {inputs} inputs in {:.1} s ({round} rounds), no crash",
        started.elapsed().as_secs_f64()
    );
}
