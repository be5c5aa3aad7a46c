//! Hand-made sample files of each format, read and checked move by move.

mod support;

use support::xqf_encrypt::{KeyChoice, encrypt};
use support::{data, data_path};
use xiangqi_records::{Game, GameResult, Line, Nag, RecordFormat, dhtmlxq, pgn, xqf};
use xiangqi_rules::Position;

fn iccs(line: &Line) -> Vec<String> {
    line.moves.iter().map(|n| n.mv.to_string()).collect()
}

fn main_iccs(game: &Game) -> Vec<String> {
    iccs(&game.moves)
}

#[test]
fn xqbase_chinese_pgn_without_a_format_tag() {
    let games = pgn::read(&data("xqbase-chinese.pgn")).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(
        main_iccs(g),
        [
            "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5", "h0h6", "h7i7", "h6g6",
            "i7i8", "b0c2", "d9e8"
        ]
    );
    assert_eq!(g.moves.comment.as_deref(), Some("手工录入的样例对局。"));
    assert_eq!(g.moves.moves[3].comment.as_deref(), Some("黑方出车"));
    let var = &g.moves.moves[5].variations;
    assert_eq!(var.len(), 1);
    assert_eq!(iccs(&var[0]), ["g6g5", "h0h6", "b9c7"]);
    assert_eq!(g.moves.moves[11].nags, [Nag(1)]);
    assert_eq!(g.moves.moves[13].nags, [Nag(14)]);
    assert_eq!(g.result, Some(GameResult::Draw));
    assert_eq!(g.tags.get("Red"), Some("吕钦"));
    assert_eq!(g.tags.get("BlackTeam"), Some("上海"));
    assert_eq!(g.tags.get("ECCO"), Some("C45"));
    assert_eq!(g.tags.get("Game"), None);
    assert_eq!(g.start, Position::startpos());
}

#[test]
fn gbk_pgn_reads_like_its_utf8_twin() {
    let gbk = data("gbk.pgn");
    assert!(std::str::from_utf8(&gbk).is_err(), "the sample is GBK");
    assert_eq!(
        pgn::read(&gbk).unwrap(),
        pgn::read(&data("xqbase-chinese.pgn")).unwrap()
    );
}

#[test]
fn windows_line_ends_and_a_byte_order_mark_change_nothing() {
    let text = String::from_utf8(data("collection.pgn")).unwrap();
    let mut bytes = vec![0xEF, 0xBB, 0xBF];
    bytes.extend_from_slice(text.replace('\n', "\r\n").as_bytes());
    assert_eq!(pgn::read(&bytes).unwrap(), pgn::read_str(&text).unwrap());
}

#[test]
fn a_collection_in_three_notations() {
    let games = pgn::read(&data("collection.pgn")).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(
        main_iccs(&games[0]),
        ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4"]
    );
    assert_eq!(
        games[0].moves.moves[5].comment.as_deref(),
        Some("Screen horse")
    );
    assert_eq!(games[0].result, Some(GameResult::RedWins));

    let wxf = &games[1];
    assert_eq!(
        wxf.start.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    );
    assert_eq!(main_iccs(wxf), ["h9g7", "h0g2", "i9h9", "i0h0", "h7h3"]);
    assert_eq!(
        wxf.moves.moves[2].comment.as_deref(),
        Some("a line comment")
    );
    assert_eq!(wxf.moves.moves[3].nags, [Nag(1)]);
    assert_eq!(wxf.result, Some(GameResult::BlackWins));

    assert_eq!(
        main_iccs(&games[2]),
        ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3"]
    );
    assert_eq!(games[2].tags.get("Event"), Some("繁體字"));
}

#[test]
fn variant_dialect_game_from_elephantchess() {
    let games = pgn::read(&data("variant.pgn")).unwrap();
    let g = &games[0];
    assert_eq!(g.mainline().count(), 63);
    assert_eq!(
        main_iccs(g)[..8],
        [
            "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "g3g4", "c6c5"
        ]
    );
    assert_eq!(g.tags.get("Red"), Some("Wang Tianyi"));
    assert_eq!(g.tags.get("White"), None);
    assert_eq!(g.result, Some(GameResult::RedWins));
}

/// The game that `hand-made-v10.xqf` holds, byte for byte as assembled by hand.
fn check_hand_made(g: &Game) {
    assert_eq!(g.start, Position::startpos());
    assert_eq!(main_iccs(g), ["h2e2", "h9g7", "h0g2"]);
    assert_eq!(g.moves.comment.as_deref(), Some("开局"));
    assert_eq!(g.moves.moves[0].comment.as_deref(), Some("中炮"));
    let var = &g.moves.moves[1].variations;
    assert_eq!(var.len(), 1);
    assert_eq!(iccs(&var[0]), ["b9c7", "b0c2"]);
    assert_eq!(var[0].moves[0].comment.as_deref(), Some("另一变\n第二行"));
    assert_eq!(g.result, Some(GameResult::Draw));
    assert_eq!(g.tags.get("Title"), Some("中炮对屏风马"));
    assert_eq!(g.tags.get("Event"), Some("手工样例"));
    assert_eq!(g.tags.get("Date"), Some("2024.05.01"));
    assert_eq!(g.tags.get("Red"), Some("红方"));
    assert_eq!(g.tags.get("Black"), Some("黑方"));
    assert_eq!(g.tags.get("Author"), Some("xiangqi"));
    assert_eq!(g.tags.len(), 6);
}

#[test]
fn hand_made_xqf_version_one() {
    check_hand_made(&xqf::read(&data("hand-made-v10.xqf")).unwrap());
}

/// The keys of the encrypted samples.
const KEYS: KeyChoice = KeyChoice {
    xy: 0x37,
    xyf: 0x5A,
    xyt: 0xC3,
    mask: 0x9B,
    or: [0x11, 0x22, 0x44, 0x08],
};

#[test]
fn encrypted_xqf_samples_decode_to_the_hand_made_game() {
    let plain = data("hand-made-v10.xqf");
    for (version, name) in [(0x0B, "hand-made-v11.xqf"), (0x12, "hand-made-v18.xqf")] {
        let made = encrypt(&plain, version, &KEYS);
        if std::env::var_os("XIANGQI_WRITE_SAMPLES").is_some() {
            std::fs::write(data_path(name), &made).unwrap();
        }
        let sample = data(name);
        assert_eq!(sample, made, "{name} is what the encryptor makes");
        assert_ne!(sample[0x400..], plain[0x400..], "{name} is scrambled");
        check_hand_made(&xqf::read(&sample).unwrap());
    }
}

#[test]
fn encrypted_xqf_of_random_games() {
    use support::random_games::{Features, Rng, game};
    for seed in 0..60 {
        let mut rng = Rng::new(4000 + seed);
        let original = game(&mut rng, 40, 2, Features::XQF);
        let plain = xqf::write(&original).unwrap().bytes;
        let keys = KeyChoice {
            xy: rng.below(256) as u8,
            xyf: rng.below(256) as u8,
            xyt: rng.below(256) as u8,
            mask: rng.below(256) as u8,
            or: [0, 0x10, rng.below(256) as u8, 0xFF],
        };
        for version in [11, 12, 15, 18] {
            let bytes = encrypt(&plain, version, &keys);
            assert_eq!(
                xqf::read(&bytes).unwrap(),
                original,
                "seed {seed} v{version}"
            );
        }
    }
}

fn check_dpxq(g: &Game) {
    assert_eq!(main_iccs(g), ["h2e2", "h9g7", "h0g2", "i9h9"]);
    assert_eq!(g.moves.comment.as_deref(), Some("这是一个手工样例\n第二行"));
    assert_eq!(g.moves.moves[0].comment.as_deref(), Some("中炮"));
    let var = &g.moves.moves[1].variations;
    assert_eq!(var.len(), 1);
    assert_eq!(iccs(&var[0]), ["b9c7", "h0g2"]);
    assert_eq!(var[0].moves[0].comment.as_deref(), Some("屏风马变例"));
    let inner = &var[0].moves[1].variations;
    assert_eq!(inner.len(), 1);
    assert_eq!(iccs(&inner[0]), ["b0c2"]);
    assert_eq!(inner[0].moves[0].comment.as_deref(), Some("另一种走法"));
    assert_eq!(g.result, Some(GameResult::RedWins));
    assert_eq!(g.tags.get("Title"), Some("手工样例 中炮对屏风马"));
    assert_eq!(g.tags.get("Site"), Some("广州"));
    assert_eq!(g.tags.get("Red"), Some("广东 吕钦"));
    assert_eq!(g.tags.get("RedTeam"), Some("广东"));
    assert_eq!(g.tags.get("Opening"), Some("中炮对屏风马"));
    assert_eq!(g.tags.get("generator"), Some("hand"));
    assert_eq!(g.tags.get("Round"), None);
}

#[test]
fn dhtmlxq_page_from_dpxq() {
    let games = dhtmlxq::read(&data("dpxq.txt")).unwrap();
    assert_eq!(games.len(), 1);
    check_dpxq(&games[0]);
}

#[test]
fn gbk_dhtmlxq_page() {
    let bytes = data("dpxq-gbk.txt");
    assert!(std::str::from_utf8(&bytes).is_err(), "the sample is GBK");
    check_dpxq(&dhtmlxq::read(&bytes).unwrap()[0]);
}

#[test]
fn formats_are_detected_from_content() {
    for (name, format) in [
        ("xqbase-chinese.pgn", RecordFormat::Pgn),
        ("gbk.pgn", RecordFormat::Pgn),
        ("hand-made-v10.xqf", RecordFormat::Xqf),
        ("hand-made-v18.xqf", RecordFormat::Xqf),
        ("dpxq.txt", RecordFormat::DhtmlXq),
    ] {
        assert_eq!(RecordFormat::detect(&data(name), None), format, "{name}");
    }
}
