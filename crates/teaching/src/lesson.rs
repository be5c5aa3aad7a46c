//! The lesson model: what one lesson file holds, read with serde. Points, moves and positions
//! stay text here (as the file and the API write them); [`crate::check`] reads them with the
//! rules core and says what is wrong.

use crate::lang::Lang;
use serde::Deserialize;
use std::collections::BTreeMap;

mod drill;

pub use drill::{Drill, DrillRefusal, DrillStep, verdict_words};

/// One text in every language of the course. A file that lacks a language does not load.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    /// English.
    pub en: String,
    /// Russian.
    pub ru: String,
    /// Chinese.
    pub zh: String,
}

impl Text {
    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Ru => &self.ru,
            Lang::Zh => &self.zh,
        }
    }
}

/// One lesson: a few pages of explanation, then exercises on the board.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// The lesson's id, one of [`crate::COURSE_IDS`] or [`crate::PATTERN_IDS`].
    pub id: String,
    /// The lesson's title.
    pub title: Text,
    /// For a named mating pattern: its Chinese name (e.g. `马后炮`), shown in every language.
    #[serde(default)]
    pub chinese: Option<String>,
    /// For a named mating pattern: its Chinese name in pinyin with tone marks (`mǎ hòu pào`).
    #[serde(default)]
    pub pinyin: Option<String>,
    /// The explanation, a short paragraph with a board picture each.
    #[serde(rename = "page", default)]
    pub pages: Vec<Page>,
    /// The exercises, in order.
    #[serde(rename = "exercise", default)]
    pub exercises: Vec<Exercise>,
}

/// A paragraph with its picture.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Page {
    /// The picture, as FEN.
    pub fen: String,
    /// The paragraph.
    pub text: Text,
    /// Points to highlight (ICCS).
    #[serde(default)]
    pub highlights: Vec<String>,
    /// Arrows to draw, each `[from, to]` (ICCS points).
    #[serde(default)]
    pub arrows: Vec<[String; 2]>,
}

/// What the learner has to do in an exercise, and so what the checker verifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Play any one of the solution lines.
    Line,
    /// Find every solution move, one at a time.
    All,
    /// Give mate.
    Mate,
    /// Get the own general out of check.
    Escape,
    /// Capture a piece (on the target point, if one is given).
    Capture,
    /// Leave the opponent without a legal move while not in check.
    Stalemate,
    /// Write the move shown on the board in a notation.
    Notation,
    /// Get out of check move after move while the app's piece keeps checking, until the
    /// rules core's verdict on the perpetual check ends the game ([`Drill`]).
    Perpetual,
}

impl Kind {
    /// The kind as the lesson files and the API write it.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Line => "line",
            Kind::All => "all",
            Kind::Mate => "mate",
            Kind::Escape => "escape",
            Kind::Capture => "capture",
            Kind::Stalemate => "stalemate",
            Kind::Notation => "notation",
            Kind::Perpetual => "perpetual",
        }
    }
}

/// A notation a `notation` exercise asks for, as the lesson files name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NotationName {
    /// WXF, e.g. `C2=5`.
    Wxf,
    /// ICCS coordinates, e.g. `h2e2`.
    Iccs,
    /// Chinese, e.g. `炮二平五`.
    Chinese,
}

impl NotationName {
    /// The name as the lesson files and the API write it.
    pub const fn name(self) -> &'static str {
        match self {
            NotationName::Wxf => "wxf",
            NotationName::Iccs => "iccs",
            NotationName::Chinese => "chinese",
        }
    }

    /// The rules core's notation.
    pub const fn notation(self) -> xiangqi_rules::notation::Notation {
        use xiangqi_rules::notation::Notation;
        match self {
            NotationName::Wxf => Notation::Wxf,
            NotationName::Iccs => Notation::Iccs,
            NotationName::Chinese => Notation::Chinese,
        }
    }
}

/// The repetition rules an exercise is played under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rules {
    /// The Asian (AXF) rules, the default.
    #[default]
    Asian,
    /// The CXQ (Club Xiangqi) rules: runs of checks and attacks are counted.
    Cxq,
}

impl Rules {
    /// The name as the lesson files and the API write it.
    pub const fn name(self) -> &'static str {
        match self {
            Rules::Asian => "asian",
            Rules::Cxq => "cxq",
        }
    }
}

/// One exercise on the board.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exercise {
    /// The position, as FEN; the side to move is the learner.
    pub fen: String,
    /// What the learner has to do.
    pub kind: Kind,
    /// The task, told to the learner.
    pub goal: Text,
    /// Every accepted line (ICCS moves): the learner's moves and the scripted replies,
    /// alternating, ending with the learner's move.
    pub solutions: Vec<Vec<String>>,
    /// Moves the learner might try that are refused (for `notation`: answer texts that are
    /// not accepted).
    pub wrong: Vec<String>,
    /// The point of the piece that moves first in the first solution.
    pub hint: String,
    /// Points to highlight on the exercise board (ICCS).
    #[serde(default)]
    pub highlights: Vec<String>,
    /// Arrows to draw on the exercise board, each `[from, to]`.
    #[serde(default)]
    pub arrows: Vec<[String; 2]>,
    /// For `capture`: the point where the capture must happen.
    #[serde(default)]
    pub target: Option<String>,
    /// For `mate`: exactly one first move mates.
    #[serde(default)]
    pub unique: Option<bool>,
    /// For `notation`: the notation the learner writes in.
    #[serde(default)]
    pub notation: Option<NotationName>,
    /// For `notation`: the accepted texts, per notation (the first of the asked notation's
    /// is the one a hint spells out).
    #[serde(default)]
    pub answers: Option<BTreeMap<NotationName, Vec<String>>>,
    /// For `notation`: the exercise is not about the notation's own signs (the characters,
    /// the coordinates), so the move written in any notation is right.
    #[serde(default)]
    pub any_notation: bool,
    /// Shown when the app plays a scripted reply.
    #[serde(default)]
    pub reply_note: Option<Text>,
    /// The repetition rules the exercise is played under.
    #[serde(default)]
    pub rules: Rules,
    /// For `perpetual`: the move that gave the first check and led to `fen` (a quiet move of
    /// the checking piece); the rules count it as the first check in a row.
    #[serde(default)]
    pub check: Option<String>,
}

/// A written answer as it is read: full-width letters, digits and signs as their ASCII forms
/// (`８` as `8`, `＋` as `+`), and no spaces.
pub fn fold_answer(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            other => other,
        })
        .collect()
}

impl Exercise {
    /// For a `notation` exercise: whether `text` names the move it shows, written in the
    /// notation it asks for (in any notation where [`Exercise::any_notation`]). The rules
    /// core reads the text, so traditional characters (後, 俥, 進) and WXF's `.` for `=` are
    /// right too; full-width forms and spaces are folded first ([`fold_answer`]). False for
    /// any other exercise, and for an exercise whose position or move does not read.
    pub fn accepts_answer(&self, text: &str) -> bool {
        use xiangqi_rules::notation::{Notation, parse_move};
        let (Some(asked), Some(shown)) = (
            self.notation,
            self.solutions.first().and_then(|s| s.first()),
        ) else {
            return false;
        };
        let (Ok(pos), Ok(shown)) = (
            xiangqi_rules::Position::from_fen(&self.fen),
            shown.parse::<xiangqi_rules::Move>(),
        ) else {
            return false;
        };
        let text = fold_answer(text);
        let names = |n: Notation| parse_move(&pos, &text, n) == Ok(shown);
        if self.any_notation {
            Notation::ALL.into_iter().any(names)
        } else {
            names(asked.notation())
        }
    }
}

/// A way out of check for the side to move in `pos` (the general's own step first, else a
/// block or a capture), to show a learner why a check is not mate; none when the side to move
/// is not in check or is mated.
pub fn way_out_of_check(pos: &xiangqi_rules::Position) -> Option<xiangqi_rules::Move> {
    if !pos.in_check() {
        return None;
    }
    let general = pos.general(pos.side_to_move());
    let moves = pos.legal_moves();
    moves
        .iter()
        .find(|m| m.from() == general)
        .or_else(|| moves.iter().next())
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_rules::Position;

    #[test]
    fn a_way_out_of_check_is_the_generals_step_first() {
        // The chariot checks along the fifth file; the general steps aside (d9 would face the
        // red general).
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3KR4 b").unwrap();
        let out = way_out_of_check(&pos).unwrap();
        assert_eq!(out.to_string(), "e9f9");
        assert!(pos.is_legal(out));
        // Not in check: nothing to get out of.
        assert_eq!(way_out_of_check(&Position::startpos()), None);
        // Mated: the chariot checks on the fourth file, e9 faces the red general.
        let mated = Position::from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b").unwrap();
        assert_eq!(way_out_of_check(&mated), None);
    }
}
