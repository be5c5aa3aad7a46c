//! The values a request names, read through the domain crates' parsers as the body or query
//! is read: a point (`e2`), a move (ICCS, `h2e2`), a side (`red`, `black`), a position
//! (FEN), an interface language (`en`, `ru`, `zh`) and a course (`rules`, `patterns`). A
//! handler gets the domain's own types, never the text; a value that does not parse refuses
//! the request with its own code (`bad-request` for a point, a language or a course,
//! `bad-move-text` for a move, `bad-side` for a side, the FEN's own code for a position),
//! which [`super::extract`] answers in place of the reader's generic message.

use crate::kit::error::{ApiError, ErrorCode};
use serde::{Deserialize, Deserializer};
use std::cell::RefCell;
use std::fmt::Display;
use std::str::FromStr;
use xiangqi_rules::{Color, Move, Position, Square};
use xiangqi_teaching::{CourseId, Lang};

thread_local! {
    /// The refusal of the last value that did not parse on this thread, for the reader that
    /// is deserializing the request (deserializing runs on one thread, without a pause).
    static FAULT: RefCell<Option<ApiError>> = const { RefCell::new(None) };
}

/// Notes `error` as the reason the request is refused and fails the deserializer with its
/// message.
fn refuse<E: serde::de::Error>(error: ApiError) -> E {
    let message = error.message.clone();
    FAULT.with(|fault| *fault.borrow_mut() = Some(error));
    E::custom(message)
}

/// Forgets any refusal noted before: called as a request starts being read.
pub(crate) fn clear_fault() {
    FAULT.with(|fault| fault.borrow_mut().take());
}

/// The refusal a value noted while the request was read, if one did.
pub(crate) fn take_fault() -> Option<ApiError> {
    FAULT.with(|fault| fault.borrow_mut().take())
}

/// A point of the board, by its ICCS name (`a0` … `i9`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point(pub Square);

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Point, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.trim()
            .parse()
            .map(Point)
            .map_err(|e: xiangqi_rules::ParseSquareError| {
                refuse(ApiError::bad_request(e.to_string()))
            })
    }
}

/// A move by its ICCS text (`h2e2`, spaces around it ignored); whether it is legal is the
/// handler's to check, in its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iccs(pub Move);

impl<'de> Deserialize<'de> for Iccs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Iccs, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.trim()
            .parse()
            .map(Iccs)
            .map_err(|e: xiangqi_rules::ParseMoveError| refuse(bad_move_text(&text, &e)))
    }
}

/// 400 `bad-move-text` for `text`, which names no move.
pub(crate) fn bad_move_text(text: &str, error: &impl std::fmt::Display) -> ApiError {
    ApiError::new(ErrorCode::BadMoveText, error.to_string())
        .with_params(serde_json::json!({ "text": text }))
}

/// The moves of a list, as the rules' moves.
pub(crate) fn moves(list: &[Iccs]) -> Vec<Move> {
    list.iter().map(|m| m.0).collect()
}

/// A side, `red` or `black`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side(pub Color);

impl<'de> Deserialize<'de> for Side {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Side, D::Error> {
        let text = String::deserialize(deserializer)?;
        match text.as_str() {
            "red" => Ok(Side(Color::Red)),
            "black" => Ok(Side(Color::Black)),
            _ => Err(refuse(
                ApiError::new(
                    ErrorCode::BadSide,
                    format!("the side must be red or black, not {text:?}"),
                )
                .with_params(serde_json::json!({ "side": text })),
            )),
        }
    }
}

/// A side that may be left blank (`side=` in a query): none when absent or empty.
pub(crate) fn side_or_blank<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Side>, D::Error> {
    let text = Option::<String>::deserialize(deserializer)?;
    match text.as_deref() {
        None | Some("") => Ok(None),
        Some(text) => Side::deserialize(serde::de::value::StrDeserializer::new(text)).map(Some),
    }
}

/// A position by its FEN (spaces around it ignored).
#[derive(Clone, Debug)]
pub struct Fen(pub Position);

impl<'de> Deserialize<'de> for Fen {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Fen, D::Error> {
        let text = String::deserialize(deserializer)?;
        Position::from_fen(text.trim())
            .map(Fen)
            .map_err(|e| refuse(ApiError::bad_fen(&e)))
    }
}

/// A position that may be left out (`fen` absent, null or blank): none then.
pub(crate) fn fen_or_blank<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Fen>, D::Error> {
    let text = Option::<String>::deserialize(deserializer)?;
    match text.as_deref().map(str::trim) {
        None | Some("") => Ok(None),
        Some(text) => Fen::deserialize(serde::de::value::StrDeserializer::new(text)).map(Some),
    }
}

/// A value read through its type's `FromStr`, refused with `bad-request` in the parser's own
/// words.
fn parsed<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: Display,
{
    let text = String::deserialize(deserializer)?;
    text.trim()
        .parse()
        .map_err(|e: T::Err| refuse(ApiError::bad_request(e.to_string())))
}

/// An interface language by its code (`en`, `ru`, `zh`); English when the request names none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Language(pub Lang);

impl Default for Language {
    fn default() -> Language {
        Language(Lang::En)
    }
}

impl<'de> Deserialize<'de> for Language {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Language, D::Error> {
        parsed(deserializer).map(Language)
    }
}

/// A course by its code (`rules`, `patterns`); the rules course when the request names none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Course(pub CourseId);

impl Default for Course {
    fn default() -> Course {
        Course(CourseId::Rules)
    }
}

impl<'de> Deserialize<'de> for Course {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Course, D::Error> {
        parsed(deserializer).map(Course)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Debug)]
    struct Request {
        side: Side,
        moves: Vec<Iccs>,
        at: Point,
        #[serde(default, deserialize_with = "fen_or_blank")]
        fen: Option<Fen>,
    }

    fn read(json: &str) -> Result<Request, ApiError> {
        clear_fault();
        serde_json::from_str(json)
            .map_err(|e| take_fault().unwrap_or_else(|| ApiError::bad_request(e.to_string())))
    }

    #[test]
    fn each_value_is_read_by_the_rules_or_refused_with_its_code() {
        let ok = read(r#"{"side": "black", "moves": [" h2e2", "h9g7"], "at": "e2"}"#).unwrap();
        assert_eq!(ok.side, Side(Color::Black));
        assert_eq!(
            moves(&ok.moves),
            vec!["h2e2".parse().unwrap(), "h9g7".parse().unwrap()]
        );
        assert_eq!(ok.at, Point("e2".parse().unwrap()));
        let bad = read(r#"{"side": "blue", "moves": [], "at": "e2"}"#).unwrap_err();
        assert_eq!(
            (bad.kind, bad.params["side"].as_str()),
            (ErrorCode::BadSide, Some("blue"))
        );
        let bad = read(r#"{"side": "red", "moves": ["h2e2", "zz"], "at": "e2"}"#).unwrap_err();
        assert_eq!(
            (bad.kind, bad.params["text"].as_str()),
            (ErrorCode::BadMoveText, Some("zz"))
        );
        let bad = read(r#"{"side": "red", "moves": [], "at": "j9"}"#).unwrap_err();
        assert_eq!(bad.kind, ErrorCode::BadRequest);
        let fen = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
        let ok = read(&format!(
            r#"{{"side": "red", "moves": [], "at": "e2", "fen": " {fen} "}}"#
        ));
        assert_eq!(ok.unwrap().fen.unwrap().0.to_fen(), fen);
        for blank in ["\"\"", "null", "\"  \""] {
            let ok = read(&format!(
                r#"{{"side": "red", "moves": [], "at": "e2", "fen": {blank}}}"#
            ));
            assert!(ok.unwrap().fen.is_none(), "{blank}");
        }
        let bad = read(r#"{"side": "red", "moves": [], "at": "e2", "fen": "9/9 w"}"#).unwrap_err();
        assert_eq!(bad.kind, ErrorCode::BadFen);
        // A fault of another kind (a missing field) is the reader's own.
        let bad = read(r#"{"side": "red", "moves": []}"#).unwrap_err();
        assert!(bad.message.contains("at"), "{}", bad.message);
    }
}
