//! The endgame course: classic endings in order of difficulty (`endgames/`, format in
//! `endgames/README.md`), each with its Chinese name, a page or two on the plan and positions
//! to win or to hold against perfect play, played out against the exact endgame tables of
//! `xiangqi-egtb` ([`play`]).

use crate::catalog::LoadError;
use crate::lesson::{Page, Text};
use serde::Deserialize;
use std::sync::OnceLock;
use xiangqi_egtb::Ending;

mod play;

pub use play::{
    Attempt, PlayError, Status, Step, Verdict, app_move, mate_in, natural_key, play, tries_left,
};

/// What the learner does in an ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Goal {
    /// Mate the app's general within the move limit; the app defends by the table.
    Win,
    /// Hold the draw for the move limit; the app attacks by the table.
    Draw,
}

impl Goal {
    /// `win` or `draw`, as the files and the API write it.
    pub const fn name(self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::Draw => "draw",
        }
    }
}

/// One position of an ending: the learner is the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndgamePosition {
    /// The position, as FEN; the side to move is the learner.
    pub fen: String,
    /// For a win: the learner's moves to mate against the longest defence, as the table says
    /// (checked by the tests).
    #[serde(default)]
    pub mate_in: Option<u16>,
    /// The learner's moves allowed: to mate within (win), or to hold for (draw).
    pub limit: u16,
}

/// One ending of the course.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Endgame {
    /// The lesson's id, e.g. `chariot-one-advisor`.
    pub id: String,
    /// The ending's Chinese name as the books give it, e.g. `单车胜单士`.
    pub chinese: String,
    /// The material, named the usual way (`KRKA`).
    pub ending: String,
    /// Win or hold the draw.
    pub goal: Goal,
    /// The ending's name in each language.
    pub title: Text,
    /// The plan: the fortress to break or to keep, the key points.
    #[serde(rename = "page")]
    pub pages: Vec<Page>,
    /// The positions to play, easiest first.
    #[serde(rename = "position")]
    pub positions: Vec<EndgamePosition>,
}

impl Endgame {
    /// The key the learner's progress keeps position `index` of this ending under, once
    /// won or held: `<id>#<index>`.
    pub fn position_key(&self, index: usize) -> String {
        format!("{}#{index}", self.id)
    }

    /// How many of this ending's positions `finished` (position keys) holds.
    pub fn finished_positions(&self, finished: &[String]) -> usize {
        (0..self.positions.len())
            .filter(|&i| finished.contains(&self.position_key(i)))
            .count()
    }

    /// The ending's material, read from [`Endgame::ending`].
    pub fn material(&self) -> Result<Ending, xiangqi_egtb::EndingError> {
        Ending::parse(&self.ending)
    }
}

/// An endgame lesson file as shipped: its name and its text.
#[derive(Clone, Copy, Debug)]
pub struct EndgameFile {
    /// The file name under `crates/teaching/endgames/`.
    pub name: &'static str,
    /// The file's text.
    pub text: &'static str,
}

macro_rules! endgame_files {
    ($($name:literal),* $(,)?) => {
        &[$(EndgameFile { name: $name, text: include_str!(concat!("../endgames/", $name)) }),*]
    };
}

/// The shipped endings, in course order (easiest first).
pub const ENDGAME_FILES: &[EndgameFile] = endgame_files![
    "01-chariot-general.toml",
    "02-soldier-general.toml",
    "03-bottom-soldier.toml",
    "04-chariot-advisor.toml",
    "05-chariot-elephant.toml",
    "06-cannon-advisor-general.toml",
    "07-cannon-two-advisors-general.toml",
    "08-chariot-two-advisors.toml",
    "09-chariot-two-elephants.toml",
    "10-chariot-advisor-elephant.toml",
    "11-horse-general.toml",
    "12-soldier-advisor.toml",
    "13-soldier-elephant.toml",
    "14-soldier-two-advisors.toml",
    "15-cannon-advisor-advisor.toml",
    "16-cannon-advisor-elephant.toml",
    "17-chariot-guard-less-elephant.toml",
    "18-chariot-guard-less-advisor.toml",
    "19-horse-advisor.toml",
    "20-cannon-advisor-two-advisors.toml",
    "21-horse-two-advisors-draw.toml",
    "22-horse-two-advisors-win.toml",
    "23-chariot-full-guard-draw.toml",
    "24-chariot-full-guard-win.toml",
];

/// Reads one endgame file; `name` names it in the error.
pub fn parse_endgame(name: &str, text: &str) -> Result<Endgame, LoadError> {
    toml::from_str(text).map_err(|e: toml::de::Error| LoadError {
        file: name.to_string(),
        problem: e.to_string(),
    })
}

/// Reads every shipped endgame file, in course order, stopping at the first that does not
/// read.
pub fn load_endgames() -> Result<Vec<Endgame>, LoadError> {
    ENDGAME_FILES
        .iter()
        .map(|f| parse_endgame(f.name, f.text))
        .collect()
}

/// The shipped endings, read once.
pub fn endgames() -> Result<&'static [Endgame], &'static LoadError> {
    static ENDGAMES: OnceLock<Result<Vec<Endgame>, LoadError>> = OnceLock::new();
    ENDGAMES.get_or_init(load_endgames).as_deref()
}

/// The shipped ending with id `id`.
pub fn endgame(id: &str) -> Option<&'static Endgame> {
    endgames().ok()?.iter().find(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_goal_is_an_error() {
        let text = "id = \"x\"\nchinese = \"单车胜单将\"\nending = \"KRK\"\ngoal = \"lose\"\n\
                    page = []\nposition = []\n[title]\nen = \"a\"\nru = \"b\"\nzh = \"c\"\n";
        let err = parse_endgame("x.toml", text).unwrap_err();
        assert!(err.problem.contains("lose"), "{err}");
    }
}
