//! The pieces' characters for the characters drill (`GET /api/characters?lang=`): every
//! character of the simplified and the traditional sets, with the piece it names, where it is
//! used (set and side), its pinyin and its memory aid in the language asked for.

use crate::kit::extract::Params;
use crate::kit::view::side_code;
use crate::kit::wire::Language;
use axum::Json;
use serde::{Deserialize, Serialize};
use xiangqi_rules::{Color, Piece};
use xiangqi_teaching::characters::{CHARACTERS, LEARNING_ORDER};

/// The query of `GET /api/characters`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct CharactersQuery {
    /// `en` (when absent), `ru` or `zh`.
    #[serde(default)]
    pub lang: Language,
}

/// Where a character is used: a set and a side.
#[derive(Serialize)]
pub struct FormView {
    /// `simplified` or `traditional`.
    pub set: &'static str,
    /// `red` or `black`.
    pub side: &'static str,
}

/// One character of the pieces.
#[derive(Serialize)]
pub struct CharacterView {
    /// The character.
    pub character: String,
    /// Its reading, in pinyin with tone marks.
    pub pinyin: &'static str,
    /// The piece it names, as a lower-case FEN letter (`k`, `r` …).
    pub piece: char,
    /// Every set and side that writes the piece with it.
    pub forms: Vec<FormView>,
    /// How to remember it, in the language asked for.
    pub aid: &'static str,
}

/// Every character, and the order in which the learner meets the pieces.
#[derive(Serialize)]
pub struct CharactersView {
    /// The pieces in learning order, as lower-case FEN letters.
    pub order: Vec<char>,
    /// The characters, the simplified ones first.
    pub characters: Vec<CharacterView>,
}

/// `GET /api/characters?lang=`: the characters drill's material.
pub async fn characters(Params(query): Params<CharactersQuery>) -> Json<CharactersView> {
    let letter = |kind| Piece::new(Color::Black, kind).fen_char();
    Json(CharactersView {
        order: LEARNING_ORDER.iter().map(|&k| letter(k)).collect(),
        characters: CHARACTERS
            .iter()
            .map(|c| CharacterView {
                character: c.character.to_string(),
                pinyin: c.pinyin,
                piece: letter(c.kind),
                forms: c
                    .forms
                    .iter()
                    .map(|&(set, side)| FormView {
                        set: set.name(),
                        side: side_code(side),
                    })
                    .collect(),
                aid: c.aid.get(query.lang.0),
            })
            .collect(),
    })
}
