//! The ECCO classifier against the published classification: the shipped table, games whose
//! codes ECCO gives, transpositions, mirrored games, refusals, the explorer's continuations,
//! record tags, and real game records that carry xqbase's ECCO tags.

use std::path::Path;
use xiangqi_records::{Game, RecordFormat};
use xiangqi_rules::{Move, Position};
use xiangqi_teaching::Lang;
use xiangqi_teaching::openings::{
    self, Opening, OpeningError, Translated, all, all_codes, by_code, classify, classify_from,
    continuations, fill_tags, heads_toward, lines_below,
};

fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| m.parse().unwrap_or_else(|e| panic!("{m}: {e}")))
        .collect()
}

fn code_of(text: &str) -> &'static str {
    classify(&moves(text))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .unwrap_or_else(|| panic!("{text}: no opening"))
        .code
}

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ecco")
        .join(name)
}

#[test]
fn the_shipped_table_reads() {
    openings::load().unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn every_code_from_a00_to_e99_has_a_name_and_a_family() {
    let codes: Vec<Opening> = all().collect();
    let expected: Vec<String> = all_codes().collect();
    assert_eq!(expected.len(), 500);
    assert_eq!(
        codes.iter().map(|o| o.code).collect::<Vec<_>>(),
        expected.iter().map(String::as_str).collect::<Vec<_>>()
    );
    for o in &codes {
        assert!(!o.name.trim().is_empty(), "{} has no name", o.code);
        for lang in Lang::ALL {
            assert!(!o.family_name(lang).trim().is_empty(), "{} {lang}", o.code);
        }
    }
    // ECCO names 260 of the 500 codes; the others are its reserved codes.
    assert_eq!(codes.iter().filter(|o| o.named).count(), 260);
    assert_eq!(
        by_code("C48").map(|o| o.name),
        Some("中炮过河车互进七兵对屏风马平炮兑车")
    );
    assert_eq!(
        by_code("C48").map(|o| o.variation),
        Some("红仕角炮对黑退边炮")
    );
    assert_eq!(
        by_code("A09").map(|o| (o.name, o.named)),
        Some(("非常见开局", false))
    );
    assert!(by_code("F00").is_none());
}

#[test]
fn games_reach_the_codes_the_published_classification_gives() {
    let text = std::fs::read_to_string(data("known-lines.tsv")).expect("known-lines.tsv");
    let mut letters = std::collections::BTreeSet::new();
    let mut count = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (code, line_moves) = line.split_once('\t').expect("code<TAB>moves");
        assert_eq!(code_of(line_moves), code, "{line_moves}");
        letters.insert(&code[..1]);
        count += 1;
    }
    assert!(count >= 20, "only {count} games");
    assert_eq!(letters.into_iter().collect::<String>(), "ABCDE");
}

#[test]
fn real_tournament_games_reach_the_codes_the_published_classification_gives() {
    let text = std::fs::read_to_string(data("tournament-games.tsv")).expect("tournament-games.tsv");
    let mut count = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let [code, event, red, black, line_moves] = cols[..] else {
            panic!("bad line {line}");
        };
        assert_eq!(code_of(line_moves), code, "{event}: {red} - {black}");
        count += 1;
    }
    assert!(count >= 20, "only {count} games");
}

#[test]
fn the_name_follows_the_game_move_by_move() {
    let line = "h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 c3c4 h7i7 h6g6 i7i8 b2d2";
    let all_moves = moves(line);
    let codes: Vec<&str> = (1..=all_moves.len())
        .map(|n| classify(&all_moves[..n]).unwrap().unwrap().code)
        .collect();
    assert_eq!(codes[0], "B00", "炮二平五");
    assert_eq!(codes[1], "B05", "马８进７");
    assert_eq!(codes[8], "C30");
    assert_eq!(codes[9], "C40");
    assert_eq!(codes[11], "C41");
    assert_eq!(codes[12], "C48");
}

#[test]
fn a_transposed_move_order_reaches_the_same_code() {
    let main = "h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 c3c4 h7i7 h6g6 i7i8 b2d2";
    let transposed = "h2e2 h9g7 h0g2 b9c7 i0h0 i9h9 c3c4 g6g5 h0h6 h7i7 h6g6 i7i8 b2d2";
    assert_eq!(code_of(main), "C48");
    assert_eq!(code_of(transposed), "C48");
    // Screen horses, the right horse first or the left one first.
    assert_eq!(code_of("h2e2 h9g7 h0g2 b9c7 b0c2"), "C01");
    assert_eq!(code_of("h2e2 b9c7 h0g2 h9g7 b0c2"), "C01");
}

#[test]
fn a_game_opened_on_the_left_is_read_in_the_mirror() {
    // 炮八平五 … is 炮二平五 … seen in a mirror.
    assert_eq!(
        code_of("b2e2 b9c7 b0c2 a9b9"),
        code_of("h2e2 h9g7 h0g2 i9h9")
    );
    assert_eq!(code_of("c3c4 b7c7"), "E10");
    assert_eq!(code_of("c0e2 h9g7"), code_of("g0e2 b9c7"));
}

#[test]
fn no_move_is_no_opening_and_illegal_moves_are_refused() {
    assert_eq!(classify(&[]), Ok(None));
    let err = classify(&moves("h2e2 h2e3")).unwrap_err();
    assert_eq!(
        err,
        OpeningError::IllegalMove {
            ply: 1,
            mv: "h2e3".parse().unwrap()
        }
    );
    assert_eq!(
        err.to_string(),
        "move 1 (Black) h2e3 is not legal in the position before it"
    );
    // Black cannot move first.
    assert!(matches!(
        classify(&moves("h7e7")),
        Err(OpeningError::IllegalMove { ply: 0, .. })
    ));
}

#[test]
fn a_game_from_another_position_is_refused() {
    let start: Position = "3k5/9/9/9/9/9/9/9/9/4K4 w".parse().expect("fen");
    let err = classify_from(&start, &moves("e0e1")).unwrap_err();
    assert!(matches!(err, OpeningError::NotFromStart(_)));
    assert!(err.to_string().contains("initial position"), "{err}");
    assert_eq!(
        classify_from(&Position::startpos(), &moves("h2e2")).map(|o| o.map(|o| o.code)),
        Ok(Some("B00"))
    );
}

#[test]
fn every_code_is_named_in_english_and_russian() {
    let c48 = by_code("C48").unwrap();
    assert_eq!(
        c48.title(Lang::En),
        "Central Cannon with Cross-river Chariot and Both 7th Pawns Advanced vs Screen Horses \
         with Cannon Shift to Exchange Chariots — Red: palcorner cannon; Black: edge cannon back"
    );
    assert_eq!(
        c48.title(Lang::Ru),
        "Центральная пушка с колесницей за рекой и продвижением обоих 7-х солдат против ширмы \
         из коней со сдвигом пушки для размена колесниц — красные: пушка в углу дворца; \
         чёрные: отход пушки с края"
    );
    assert_eq!(
        c48.title(Lang::Zh),
        "中炮过河车互进七兵对屏风马平炮兑车 红仕角炮对黑退边炮"
    );
    // The family stays available beside the code's own name.
    assert_eq!(c48.family_name(Lang::En), "Central Cannon vs Screen Horses");
    assert_eq!(
        c48.family_name(Lang::Ru),
        "Центральная пушка против ширмы из коней"
    );
    // Names as English-language Xiangqi writing spells them (sources in families.tsv).
    let title = |code: &str, lang| by_code(code).unwrap().title(lang);
    assert_eq!(title("C00", Lang::En), "Central Cannon vs Screen Horses");
    assert_eq!(title("A60", Lang::En), "Cross Palace Cannon Opening");
    assert_eq!(title("A04", Lang::En), "Riverbank Cannon Opening");
    assert_eq!(title("A10", Lang::Ru), "Дебют слона");
    assert_eq!(
        title("E10", Lang::En),
        "Pawn Opening vs Cannon under the Pawn"
    );
    // The three codes that all read "Central Cannon" when only families were named.
    assert_eq!(title("B00", Lang::En), "Central Cannon Opening");
    assert_eq!(title("B01", Lang::En), "Central Cannon vs Right Horse");
    assert_eq!(title("B05", Lang::En), "Central Cannon vs Left Horse");
    assert_eq!(
        title("B05", Lang::Ru),
        "Центральная пушка против левого коня"
    );
    assert_eq!(title("E03", Lang::En), "Pawn Opening vs Central Cannon");
    assert_eq!(
        title("E03", Lang::Ru),
        "Дебют солдата против центральной пушки"
    );
    // An unused code, which no game reaches, is named by its family.
    let a09 = by_code("A09").unwrap();
    assert_eq!(a09.title(Lang::En), a09.family_name(Lang::En));
    assert_eq!(a09.title(Lang::Ru), a09.family_name(Lang::Ru));
    assert_eq!(a09.title(Lang::Zh), "非常见开局");
}

/// The named codes, with their English and Russian names.
fn named() -> Vec<(Opening, &'static Translated, &'static Translated)> {
    all()
        .filter(|o| o.named)
        .map(|o| {
            let en = o
                .translated(Lang::En)
                .unwrap_or_else(|| panic!("{}: no English name", o.code));
            let ru = o
                .translated(Lang::Ru)
                .unwrap_or_else(|| panic!("{}: no Russian name", o.code));
            (o, en, ru)
        })
        .collect()
}

#[test]
fn every_named_code_has_its_own_english_and_russian_title() {
    let named = named();
    assert_eq!(named.len(), 260);
    for (o, en, ru) in &named {
        for (lang, t) in [(Lang::En, en), (Lang::Ru, ru)] {
            assert!(!t.opening.trim().is_empty(), "{} {lang}", o.code);
            assert_eq!(
                t.variation.is_empty(),
                o.variation.is_empty(),
                "{} {lang}: a variation exactly where ECCO has one",
                o.code
            );
            assert!(o.title(lang).starts_with(t.opening.as_str()));
        }
    }
    // Titles are distinct exactly where the Chinese ones are.
    for (i, (a, _, _)) in named.iter().enumerate() {
        for (b, _, _) in &named[i + 1..] {
            let same_zh = a.title(Lang::Zh) == b.title(Lang::Zh);
            for lang in [Lang::En, Lang::Ru] {
                assert_eq!(
                    a.title(lang) == b.title(lang),
                    same_zh,
                    "{} and {} in {lang}: {:?} / {:?}",
                    a.code,
                    b.code,
                    a.title(lang),
                    b.title(lang)
                );
            }
        }
    }
    // Unused codes have no names of their own.
    assert!(all().filter(|o| !o.named).all(|o| o.names.is_none()));
}

#[test]
fn one_chinese_name_has_one_translation_and_no_two_share_one() {
    use std::collections::BTreeMap;
    let named = named();
    // Chinese opening (and variation) -> its translations, and back.
    let mut openings: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    let mut variations: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    let mut back: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    let mut back_variations: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    for (o, en, ru) in &named {
        for (lang, t) in [(Lang::En, en), (Lang::Ru, ru)] {
            let first = *openings.entry((o.name, lang.code())).or_insert(&t.opening);
            assert_eq!(first, t.opening, "{} {lang}: {}", o.code, o.name);
            let zh = *back.entry((&t.opening, lang.code())).or_insert(o.name);
            assert_eq!(
                zh, o.name,
                "{} {lang}: {} names two openings",
                o.code, t.opening
            );
            if !o.variation.is_empty() {
                let first = *variations
                    .entry((o.variation, lang.code()))
                    .or_insert(&t.variation);
                assert_eq!(first, t.variation, "{} {lang}: {}", o.code, o.variation);
                let zh = *back_variations
                    .entry((&t.variation, lang.code()))
                    .or_insert(o.variation);
                assert_eq!(zh, o.variation, "{} {lang}: {}", o.code, t.variation);
            }
        }
    }
}

/// Chinese terms and the words that translate them, in English and in Russian (a Russian
/// word as a stem, so that any case of it counts).
const TERMS: &[(&str, &str, &str)] = &[
    ("屏风马", "Screen Horses", "ширм"),
    ("反宫马", "Sandwiched Horses", "пушкой между конями"),
    ("单提马", "Single Horse Defence", "защит"),
    ("三步虎", "Three Step Tiger", "«тигр"),
    ("顺炮", "Same Direction Cannons", "пушк"),
    ("列炮", "Opposite Direction Cannons", "встречн"),
    ("过宫炮", "Cross Palace Cannon", "пушк"),
    ("角炮", "Palcorner Cannon", "в углу дворца"),
    ("卒底炮", "Cannon under the Pawn", "пушк"),
    ("仙人指路", "Pawn Opening", "Дебют солдата"),
    ("起马", "Horse Opening", "Дебют коня"),
    ("飞相局", "Elephant Opening", "Дебют слона"),
    ("中炮", "Central Cannon", "центральн"),
    ("五六炮", "Five-Six Cannons", "Пушки 5–6"),
    ("五七炮", "Five-Seven Cannons", "Пушки 5–7"),
    ("五八炮", "Five-Eight Cannons", "Пушки 5–8"),
    ("两头蛇", "Two-headed Snake", "«двуглав"),
    ("过河车", "Cross-river Chariot", "колесниц"),
    ("巡河车", "Riverbank Chariot", "колесниц"),
    ("直车", "Straight Chariot", "по вертикали"),
    ("横车", "Horizontal Chariot", "по горизонтали"),
    ("缓开车", "Delayed Chariot", "поздн"),
    ("七路马", "7th-file Horse", "на 7-й вертикали"),
    ("盘河", "to the River", "у реки"),
    ("互进七兵", "Both 7th Pawns Advanced", "обоих 7-х солдат"),
    ("互进三兵", "Both 3rd Pawns Advanced", "обоих 3-х солдат"),
    ("金钩炮", "Golden Hooked Cannon", "«золотой крюк»"),
    ("兵底炮", "Thundering Cannon", "за своим солдатом"),
];

#[test]
fn a_chinese_term_is_translated_the_same_way_in_every_name() {
    for &(zh, en, ru) in TERMS {
        let mut found = 0;
        for (o, en_names, ru_names) in named() {
            if !o.name.contains(zh) {
                continue;
            }
            found += 1;
            let en_name = en_names.opening.to_lowercase();
            assert!(
                en_name.contains(&en.to_lowercase()),
                "{} {}: {:?} lacks {en:?}",
                o.code,
                o.name,
                en_names.opening
            );
            assert!(
                ru_names.opening.to_lowercase().contains(&ru.to_lowercase()),
                "{} {}: {:?} lacks {ru:?}",
                o.code,
                o.name,
                ru_names.opening
            );
        }
        assert!(found > 0, "no opening name holds {zh}");
    }
}

fn is_cjk(c: char) -> bool {
    matches!(c, '\u{2E80}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' | '\u{FF00}'..='\u{FFEF}')
}

#[test]
fn russian_names_have_no_latin_letters_and_english_no_cyrillic_or_chinese() {
    for (o, en, ru) in named() {
        for text in [&en.opening, &en.variation] {
            assert!(
                !text
                    .chars()
                    .any(|c| is_cjk(c) || ('\u{0400}'..='\u{04FF}').contains(&c)),
                "{}: {text:?}",
                o.code
            );
        }
        for text in [&ru.opening, &ru.variation] {
            assert!(
                !text.chars().any(|c| is_cjk(c) || c.is_ascii_alphabetic()),
                "{}: {text:?}",
                o.code
            );
        }
    }
}

#[test]
fn every_code_name_says_where_it_comes_from() {
    for o in all() {
        for lang in [Lang::En, Lang::Ru] {
            let source = o.name_source(lang).unwrap_or_default();
            assert!(!source.trim().is_empty(), "{} {lang}", o.code);
        }
        assert_eq!(o.name_source(Lang::Zh), None);
    }
    // A name that English writing gives cites it; one we translated says so.
    let source = |code: &str, lang| by_code(code).unwrap().name_source(lang).unwrap();
    assert!(source("C00", Lang::En).contains("shakki.info"));
    assert!(source("A01", Lang::En).contains("Rare Openings"));
    assert!(source("C48", Lang::En).starts_with("our translation"));
    assert!(source("C48", Lang::Ru).starts_with("our Russian translation"));
}

#[test]
fn every_family_name_says_where_it_comes_from() {
    let mut seen = std::collections::BTreeSet::new();
    for o in all() {
        let f = o.family;
        if !seen.insert(f.key.as_str()) {
            continue;
        }
        assert!(!f.en_source.trim().is_empty(), "{}: English source", f.key);
        assert!(!f.ru_source.trim().is_empty(), "{}: Russian source", f.key);
    }
    assert!(seen.len() >= 20, "only {} families", seen.len());
    let central = &by_code("C48").unwrap().family;
    assert!(
        central.en_source.contains("shakki.info"),
        "{}",
        central.en_source
    );
    assert!(
        by_code("A60")
            .unwrap()
            .family
            .en_source
            .contains("xqinenglish.com")
    );
}

#[test]
fn continuations_name_the_line_each_move_enters() {
    let after = continuations(&moves("h2e2")).unwrap();
    let replies = Position::startpos()
        .after(moves("h2e2")[0])
        .legal_moves()
        .len();
    assert_eq!(after.len(), replies, "every legal reply");
    let code = |m: &str| {
        after
            .iter()
            .find(|c| c.mv.to_string() == m)
            .map(|c| c.opening.code)
    };
    assert_eq!(code("h9g7"), Some("B05"));
    assert_eq!(code("b9c7"), Some("B01"));
    assert_eq!(code("h7e7"), Some("D00"));
    assert_eq!(code("b7e7"), Some("D50"));
    assert_eq!(code("g6g5"), Some("B00"));
    // The moves that change the code come first.
    let first_same = after.iter().position(|c| c.opening.code == "B00").unwrap();
    assert!(after[first_same..].iter().all(|c| c.opening.code == "B00"));
    assert!(continuations(&moves("h2e2 h2e3")).is_err());
}

/// The codes `mv`, played after `line`, heads for at the game's code.
fn toward(line: &str, mv: &str) -> Vec<&'static str> {
    heads_toward(code_of(line), &moves(line), moves(mv)[0])
        .iter()
        .map(|o| o.code)
        .collect()
}

#[test]
fn a_move_heads_for_the_codes_later_lines_need_at_every_ply() {
    // 中炮对进左马 (B05) goes on to 中炮对屏风马 (C00) by Black's 马2进3 alone; Red's 马二进三
    // is on the lines below C00, so it heads for C00 and for them, most general first.
    let horse = toward("h2e2 h9g7", "h0g2");
    assert_eq!(horse.first(), Some(&"C00"), "{horse:?}");
    assert!(
        horse.contains(&"C20") && horse.contains(&"C30"),
        "{horse:?}"
    );
    // A move later: after 马二进三 车9平8, Red's 车一平二 still heads for C00.
    assert!(toward("h2e2 h9g7 h0g2 i9h9", "i0h0").contains(&"C00"));
    // Black's moves too: at B01 after 马二进三, 卒7进1 heads for C00 and B02.
    let pawn = toward("h2e2 b9c7 h0g2", "g6g5");
    assert!(pawn.contains(&"C00") && pawn.contains(&"B02"), "{pawn:?}");
    // The same game opened on the left, in the mirror.
    assert!(toward("b2e2 b9c7", "b0c2").contains(&"C00"));
    // A move no line needs any more heads nowhere: B01 goes on to C00 by 马8进7 as Black's
    // second move, or as the third after 卒3进1 or 卒7进1; after 车1进1 neither can be.
    assert_eq!(code_of("h2e2 b9c7 h0g2 a9a8"), "B01");
    let late = toward("h2e2 b9c7 h0g2 a9a8 i0h0", "h9g7");
    assert!(!late.contains(&"C00"), "{late:?}");
}

#[test]
fn the_lines_below_an_opening_are_its_variations() {
    let codes = |code: &str| lines_below(code).iter().map(|o| o.code).collect::<Vec<_>>();
    assert_eq!(
        codes("C40"),
        [
            "C41", "C42", "C43", "C44", "C45", "C46", "C47", "C48", "C49"
        ]
    );
    assert!(codes("C48").is_empty());
    let screen = codes("C00");
    assert!(
        screen.contains(&"C48") && screen.contains(&"C99"),
        "{screen:?}"
    );
    assert!(screen.iter().all(|c| c.starts_with('C')), "{screen:?}");
    assert!(codes("Z99").is_empty());
}

fn game_of(text: &str) -> Game {
    let mut game = Game::new(Position::startpos());
    game.moves = xiangqi_records::Line::from_moves(moves(text));
    game
}

#[test]
fn records_without_a_code_get_ecco_opening_and_variation_tags() {
    let mut game = game_of("h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 c3c4 h7i7 h6g6 i7i8 b2d2");
    let filled = fill_tags(&mut game).unwrap().map(|o| o.code);
    assert_eq!(filled, Some("C48"));
    assert_eq!(game.tags.get("ECCO"), Some("C48"));
    assert_eq!(
        game.tags.get("Opening"),
        Some("中炮过河车互进七兵对屏风马平炮兑车")
    );
    assert_eq!(game.tags.get("Variation"), Some("红仕角炮对黑退边炮"));

    // A record that has a code keeps its tags.
    let mut tagged = game_of("h2e2 h9g7");
    tagged.tags.set("ECCO", "B05");
    tagged.tags.set("Opening", "自定");
    assert_eq!(fill_tags(&mut tagged), Ok(None));
    assert_eq!(tagged.tags.get("Opening"), Some("自定"));

    // A blank code counts as none; an opening without a variation writes no variation.
    let mut blank = game_of("h2e2 h9g7");
    blank.tags.set("ECCO", "");
    fill_tags(&mut blank).unwrap();
    assert_eq!(blank.tags.get("ECCO"), Some("B05"));
    assert_eq!(blank.tags.get("Variation"), None);

    // An endgame study has no opening.
    let mut study = Game::new("3k5/9/9/9/9/9/9/9/9/4K4 w".parse().unwrap());
    study.moves = xiangqi_records::Line::from_moves(moves("e0e1"));
    assert_eq!(fill_tags(&mut study), Ok(None));
    assert_eq!(study.tags.get("ECCO"), None);
}

/// Real tournament records that carry xqbase's ECCO tags (`tests/data/ecco/real/`, sources
/// in its README): our code for each game against its tag, at least 19 games in 20. Every
/// record there must carry a tag, so that a file that stops being read shows up here.
#[test]
fn real_records_agree_with_their_xqbase_tags() {
    let dir = data("real");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("real records")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")))
        .collect();
    files.sort();
    let (mut games, mut agree) = (0, 0);
    let mut disagreements = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy();
        let bytes = std::fs::read(path).expect("read");
        let read = RecordFormat::detect(&bytes, Some("pgn"))
            .read(&bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for game in read.games {
            let game = game.unwrap_or_else(|e| panic!("{name}: {e}"));
            let tag = game
                .tags
                .get("ECCO")
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| panic!("{name}: a game without an ECCO tag"))
                .to_string();
            let moves: Vec<Move> = game.mainline().collect();
            let ours = classify_from(&game.start, &moves)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
                .map_or("none", |o| o.code);
            games += 1;
            if ours == tag {
                agree += 1;
            } else {
                let line = format!("{name}: tag {tag}, ours {ours}");
                println!("disagreement: {line}");
                disagreements.push(line);
            }
        }
    }
    println!("ECCO agreement with real records: {agree} of {games}");
    assert!(games >= 27, "the real records hold {games} tagged games");
    assert!(
        agree * 20 >= games * 19,
        "{agree} of {games} agree: {disagreements:#?}"
    );
}
