//! The characters drill's material over HTTP, and the page's drawing of the pieces in the same
//! characters as the teaching crate lists them.

mod common;

use axum::http::StatusCode;
use common::send;
use std::collections::BTreeMap;
use xiangqi_rules::{Color, PieceKind};
use xiangqi_teaching::characters::{CharacterSet, LEARNING_ORDER, character_of};

#[tokio::test]
async fn every_character_comes_with_its_piece_pinyin_and_aid_in_the_language_asked_for() {
    let app = common::app(1, 1, 1);
    let (status, en) = send(&app, "GET", "/api/characters", None).await;
    assert_eq!(status, StatusCode::OK, "{en}");
    let (_, zh) = send(&app, "GET", "/api/characters?lang=zh", None).await;
    assert_eq!(
        en["order"],
        serde_json::json!(["k", "r", "n", "c", "p", "a", "b"])
    );
    let chars = en["characters"].as_array().unwrap();
    assert_eq!(chars.len(), 18);
    let che = chars.iter().find(|c| c["character"] == "俥").unwrap();
    assert_eq!(che["piece"], "r");
    assert_eq!(che["pinyin"], "jū");
    assert_eq!(
        che["forms"],
        serde_json::json!([{"set": "traditional", "side": "red"}])
    );
    assert!(che["aid"].as_str().unwrap().contains("driver"), "{che}");
    let zh_che = zh["characters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["character"] == "俥")
        .unwrap();
    assert!(
        zh_che["aid"].as_str().unwrap().contains("单人旁"),
        "{zh_che}"
    );
    let (status, err) = send(&app, "GET", "/api/characters?lang=fr", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
}

/// The table `name` of `pieces.js` (`{ K: '帅', … }`), by FEN letter.
fn page_table(source: &str, name: &str) -> BTreeMap<char, char> {
    let start = source
        .find(&format!("const {name} = {{"))
        .expect("the table is there");
    let body = &source[start..start + source[start..].find("};").unwrap()];
    body.split(',')
        .filter_map(|entry| {
            let (letter, ch) = entry.split_once(':')?;
            let letter = letter.trim().chars().last()?;
            let ch = ch.trim().trim_matches('\'').chars().next()?;
            Some((letter, ch))
        })
        .collect()
}

#[test]
fn the_page_draws_each_piece_with_the_character_the_teaching_crate_lists() {
    let source = include_str!("../static/js/pieces.js");
    for (name, set) in [
        ("SIMPLIFIED", CharacterSet::Simplified),
        ("TRADITIONAL", CharacterSet::Traditional),
    ] {
        let table = page_table(source, name);
        assert_eq!(table.len(), 14, "{name}: {table:?}");
        for kind in LEARNING_ORDER {
            for side in [Color::Red, Color::Black] {
                let letter = xiangqi_rules::Piece::new(side, kind).fen_char();
                assert_eq!(
                    table[&letter],
                    character_of(kind, side, set).character,
                    "{name} {letter}"
                );
            }
        }
    }
    // The page's learning order is the crate's.
    let order: String = LEARNING_ORDER
        .iter()
        .map(|&k| {
            format!(
                "'{}'",
                xiangqi_rules::Piece::new(Color::Black, k).fen_char()
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    assert!(
        source.contains(&format!("LEARNING_ORDER = [{order}]")),
        "{order}"
    );
    assert_eq!(LEARNING_ORDER[0], PieceKind::General);
}
