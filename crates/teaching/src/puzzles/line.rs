//! Reading puzzles from the export format, one per line, with errors that name the line and
//! the field. Blank lines and lines starting with `#` are skipped.

use super::puzzle::Puzzle;
use super::theme::Theme;
use std::collections::HashSet;
use std::fmt;
use xiangqi_rules::{Move, Position};

/// The fields of a puzzle line, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The puzzle id.
    Id,
    /// The position.
    Fen,
    /// The solution.
    Moves,
    /// The themes.
    Themes,
    /// The rating.
    Rating,
}

impl Field {
    /// The fields in line order.
    pub const ALL: [Field; 5] = [
        Field::Id,
        Field::Fen,
        Field::Moves,
        Field::Themes,
        Field::Rating,
    ];

    /// The field's name as the format's header gives it.
    pub fn name(self) -> &'static str {
        match self {
            Field::Id => "id",
            Field::Fen => "fen",
            Field::Moves => "moves",
            Field::Themes => "themes",
            Field::Rating => "rating",
        }
    }
}

/// A puzzle line that cannot be read: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// The line number, from 1.
    pub line: usize,
    /// The field at fault, when one is.
    pub field: Option<Field>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.field {
            Some(field) => write!(f, "line {}, {}: {}", self.line, field.name(), self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for LineError {}

/// Reads one puzzle line (without its line break); `line` is its number for errors.
pub fn parse_line(text: &str, line: usize) -> Result<Puzzle, LineError> {
    let error = |field: Option<Field>, message: String| LineError {
        line,
        field,
        message,
    };
    let fields: Vec<&str> = text.trim_end_matches('\r').split('\t').collect();
    if fields.len() != Field::ALL.len() {
        return Err(error(
            None,
            format!(
                "expected 5 tab-separated fields (id, fen, moves, themes, rating), found {}",
                fields.len()
            ),
        ));
    }
    let id = fields[0].trim();
    if id.is_empty() || id.chars().any(char::is_whitespace) {
        return Err(error(
            Some(Field::Id),
            format!("`{id}` is not an id (one word, not empty)"),
        ));
    }
    let position =
        Position::from_fen(fields[1].trim()).map_err(|e| error(Some(Field::Fen), e.to_string()))?;
    let moves =
        parse_moves(&position, fields[2]).map_err(|message| error(Some(Field::Moves), message))?;
    let mut themes = Vec::new();
    for name in fields[3].split(',').map(str::trim) {
        let theme: Theme = name
            .parse()
            .map_err(|e: super::theme::UnknownTheme| error(Some(Field::Themes), e.to_string()))?;
        if !themes.contains(&theme) {
            themes.push(theme);
        }
    }
    let rating = fields[4].trim().parse::<u32>().map_err(|_| {
        error(
            Some(Field::Rating),
            format!("`{}` is not a whole number", fields[4].trim()),
        )
    })?;
    Ok(Puzzle {
        id: id.to_string(),
        position,
        moves,
        themes,
        rating,
    })
}

/// Reads the solution and checks that every move is legal where it is played.
fn parse_moves(position: &Position, text: &str) -> Result<Vec<Move>, String> {
    let mut position = position.clone();
    let mut moves = Vec::new();
    for (index, word) in text.split_whitespace().enumerate() {
        let m: Move = word
            .parse()
            .map_err(|e| format!("move {} `{word}`: {e}", index + 1))?;
        if !position.is_legal(m) {
            return Err(format!(
                "move {} `{word}` is not legal in {}",
                index + 1,
                position.to_fen()
            ));
        }
        position.make_move(m);
        moves.push(m);
    }
    if moves.is_empty() {
        return Err("the solution is empty".to_string());
    }
    Ok(moves)
}

/// Reads a whole puzzle file; ids must be unique. Stops at the first bad line.
pub fn parse_puzzles(text: &str) -> Result<Vec<Puzzle>, LineError> {
    let mut puzzles = Vec::new();
    let mut ids = HashSet::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let puzzle = parse_line(line, index + 1)?;
        if !ids.insert(puzzle.id.clone()) {
            return Err(LineError {
                line: index + 1,
                field: Some(Field::Id),
                message: format!("id `{}` appears twice", puzzle.id),
            });
        }
        puzzles.push(puzzle);
    }
    Ok(puzzles)
}

/// Reads a puzzle file line by line, keeping going after bad lines: every puzzle read and
/// every line that could not be.
pub fn parse_puzzles_lenient(text: &str) -> (Vec<Puzzle>, Vec<LineError>) {
    let mut puzzles = Vec::new();
    let mut errors = Vec::new();
    let mut ids = HashSet::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line, index + 1) {
            Ok(puzzle) if !ids.insert(puzzle.id.clone()) => errors.push(LineError {
                line: index + 1,
                field: Some(Field::Id),
                message: format!("id `{}` appears twice", puzzle.id),
            }),
            Ok(puzzle) => puzzles.push(puzzle),
            Err(e) => errors.push(e),
        }
    }
    (puzzles, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "m1-test\t3k5/9/9/9/9/9/9/9/4R4/4K4 w\te1e9\tmateIn1\t700";

    #[test]
    fn a_line_reads_back_to_itself() {
        let puzzle = parse_line(GOOD, 1).unwrap();
        assert_eq!(puzzle.moves.len(), 1);
        assert_eq!(puzzle.themes, vec![Theme::MateIn(1)]);
        let again = parse_line(&puzzle.to_line(), 1).unwrap();
        assert_eq!(again, puzzle);
    }

    #[test]
    fn errors_name_the_line_and_field() {
        let cases = [
            ("a\tb", None),
            ("x\tnot a fen\te1e9\tmateIn1\t700", Some(Field::Fen)),
            (
                "x\t3k5/9/9/9/9/9/9/9/4R4/4K4 w\te1e8 e8e7\tmateIn1\t700",
                Some(Field::Moves),
            ),
            (
                "x\t3k5/9/9/9/9/9/9/9/4R4/4K4 w\tz9z9\tmateIn1\t700",
                Some(Field::Moves),
            ),
            (
                "x\t3k5/9/9/9/9/9/9/9/4R4/4K4 w\te1e9\tmate\t700",
                Some(Field::Themes),
            ),
            (
                "x\t3k5/9/9/9/9/9/9/9/4R4/4K4 w\te1e9\tmateIn1\tten",
                Some(Field::Rating),
            ),
        ];
        for (text, field) in cases {
            let error = parse_line(text, 7).unwrap_err();
            assert_eq!((error.line, error.field), (7, field), "{text}: {error}");
        }
    }

    #[test]
    fn a_repeated_id_is_refused_with_its_line() {
        let text = format!("# header\n{GOOD}\n\n{GOOD}\n");
        let error = parse_puzzles(&text).unwrap_err();
        assert_eq!((error.line, error.field), (4, Some(Field::Id)));
    }
}
