//! The trainer's lines, read from `crates/teaching/openings/trainer.tsv`: each line with its
//! ECCO code range, its names in three languages (the family's where the file says `-`) and
//! its branches, the main line first.

use super::super::table::{self, Family};
use crate::lang::Lang;
use std::fmt;
use std::sync::OnceLock;
use xiangqi_rules::Move;

const TRAINER: &str = include_str!("../../../openings/trainer.tsv");

/// A line of play the trainer walks: one opening's moves from the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Branch {
    /// A stable key within its line, e.g. `crossing-chariot`.
    pub id: String,
    /// The moves from the initial position, Red first.
    pub moves: Vec<Move>,
}

/// A trainable opening: its codes, names and branches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainerLine {
    /// A stable key, e.g. `screen-horses`.
    pub id: String,
    /// The first ECCO code the line's branches may stand at, e.g. `C00`.
    pub first_code: String,
    /// The last, e.g. `C99`.
    pub last_code: String,
    /// The name in English, Russian and Chinese (in [`Lang::ALL`]'s order).
    names: [String; 3],
    /// The branches, the main line first; never empty.
    pub branches: Vec<Branch>,
}

impl TrainerLine {
    /// The line's name in `lang`, e.g. `中炮对屏风马`.
    pub fn name(&self, lang: Lang) -> &str {
        let at = Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0);
        &self.names[at]
    }

    /// Whether `code` lies in the line's range.
    pub fn covers(&self, code: &str) -> bool {
        self.first_code.as_str() <= code && code <= self.last_code.as_str()
    }

    /// The branch `id`.
    pub fn branch(&self, id: &str) -> Option<&Branch> {
        self.branches.iter().find(|b| b.id == id)
    }

    /// The main line: the first branch.
    pub fn main(&self) -> &Branch {
        &self.branches[0]
    }
}

/// A fault in `trainer.tsv`: its line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainerDataError {
    /// The 1-based line of the file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TrainerDataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "trainer.tsv line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TrainerDataError {}

/// The shortest and longest branch, in plies.
pub const BRANCH_PLIES: std::ops::RangeInclusive<usize> = 8..=12;

fn family_names(key: &str, families: &[Family]) -> Option<[String; 3]> {
    let f = families.iter().find(|f| f.key == key)?;
    Some([f.en.clone(), f.ru.clone(), f.zh.clone()])
}

/// Reads `text` in the format of `trainer.tsv`, taking family names from `families`.
pub fn parse(text: &str, families: &[Family]) -> Result<Vec<TrainerLine>, TrainerDataError> {
    let mut lines: Vec<TrainerLine> = Vec::new();
    for (at, raw) in text.lines().enumerate() {
        let line = at + 1;
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let err = |message: String| TrainerDataError { line, message };
        let cols: Vec<&str> = raw.split('\t').collect();
        match cols[..] {
            ["line", id, first, last, family, zh, en, ru] => {
                if lines.iter().any(|l| l.id == id) {
                    return Err(err(format!("the line {id:?} is named twice")));
                }
                let known =
                    table::all_codes().any(|c| c == first) && table::all_codes().any(|c| c == last);
                if !known || first > last {
                    return Err(err(format!("bad code range {first}-{last}")));
                }
                let of_family = family_names(family, families)
                    .ok_or_else(|| err(format!("unknown family {family:?}")))?;
                let pick = |own: &str, i: usize| {
                    if own == "-" {
                        of_family[i].clone()
                    } else {
                        own.to_string()
                    }
                };
                lines.push(TrainerLine {
                    id: id.into(),
                    first_code: first.into(),
                    last_code: last.into(),
                    names: [pick(en, 0), pick(ru, 1), pick(zh, 2)],
                    branches: Vec::new(),
                });
            }
            ["branch", line_id, id, moves] => {
                let owner = lines
                    .iter_mut()
                    .find(|l| l.id == line_id)
                    .ok_or_else(|| err(format!("branch of an unknown line {line_id:?}")))?;
                if owner.branch(id).is_some() {
                    return Err(err(format!("the branch {id:?} is named twice")));
                }
                let moves = table::read_moves(moves).map_err(err)?;
                if !BRANCH_PLIES.contains(&moves.len()) {
                    return Err(err(format!(
                        "the branch has {} plies, not {}-{}",
                        moves.len(),
                        BRANCH_PLIES.start(),
                        BRANCH_PLIES.end()
                    )));
                }
                owner.branches.push(Branch {
                    id: id.into(),
                    moves,
                });
            }
            _ => {
                return Err(err(format!(
                    "expected `line` with 8 columns or `branch` with 4, found {:?}",
                    cols
                )));
            }
        }
    }
    if let Some(empty) = lines.iter().find(|l| l.branches.is_empty()) {
        return Err(TrainerDataError {
            line: text.lines().count(),
            message: format!("the line {:?} has no branch", empty.id),
        });
    }
    Ok(lines)
}

/// The shipped lines, read once. The data is checked by this crate's tests, so a fault here
/// is a build defect, reported with its line.
pub fn lines() -> &'static [TrainerLine] {
    static LINES: OnceLock<Vec<TrainerLine>> = OnceLock::new();
    LINES.get_or_init(|| match parse(TRAINER, &table::table().families) {
        Ok(lines) => lines,
        Err(e) => panic!("the shipped trainer lines are broken: {e}"),
    })
}

/// The shipped line `id`.
pub fn line(id: &str) -> Option<&'static TrainerLine> {
    lines().iter().find(|l| l.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn families() -> &'static [Family] {
        &table::table().families
    }

    #[test]
    fn the_shipped_lines_read_and_take_their_family_names() {
        let lines = parse(TRAINER, families()).unwrap_or_else(|e| panic!("{e}"));
        let screen = lines.iter().find(|l| l.id == "screen-horses").unwrap();
        assert_eq!(
            screen.name(Lang::Ru),
            "Центральная пушка против ширмы из коней"
        );
        assert!(screen.covers("C41") && !screen.covers("D00"));
    }

    #[test]
    fn faults_name_their_line() {
        let line = "line\tx\tC00\tC99\tscreen-horses\t-\t-\t-\n";
        let short = format!("{line}branch\tx\tmain\th2e2 h9g7\n");
        let err = parse(&short, families()).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("2 plies"), "{err}");
        let bad_move = format!("{line}branch\tx\tmain\th2e2 h9z7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5\n");
        assert_eq!(parse(&bad_move, families()).unwrap_err().line, 2);
        let unknown = "line\tx\tC00\tC99\tno-family\t-\t-\t-\n";
        assert!(
            parse(unknown, families())
                .unwrap_err()
                .message
                .contains("no-family")
        );
        let range = "line\tx\tC99\tC00\tscreen-horses\t-\t-\t-\n";
        assert!(parse(range, families()).is_err());
        assert!(
            parse(line, families())
                .unwrap_err()
                .message
                .contains("no branch")
        );
    }
}
