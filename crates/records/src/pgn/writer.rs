//! Writing games as PGN in the xqbase convention, in ICCS, WXF or Chinese notation.

use crate::error::WriteError;
use crate::game::{Game, Line, MoveNumber, check_for_writing};
use crate::result::ResultForms;
use crate::tags::ROSTER;
use xiangqi_rules::notation::{Notation, format_move};
use xiangqi_rules::{Move, Position};

/// Lines of movetext are broken before they grow longer than this many characters.
const LINE_WIDTH: usize = 80;

/// A move in ICCS as xqbase PGN writes it: `H2-E2`.
fn iccs_xqbase(m: Move) -> String {
    let t = m.to_string().to_ascii_uppercase();
    format!("{}-{}", &t[..2], &t[2..])
}

/// Escapes a tag value: `\` and `"` get a backslash; line breaks become spaces.
fn escape_tag(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            '\r' | '\n' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// Lays out movetext tokens in lines of at most [`LINE_WIDTH`] characters.
struct Layout {
    out: String,
    column: usize,
    glue: bool,
    break_next: bool,
}

impl Layout {
    fn new() -> Layout {
        Layout {
            out: String::new(),
            column: 0,
            glue: false,
            break_next: false,
        }
    }

    /// Adds a token, with a space or a line break before it as the layout needs.
    fn token(&mut self, token: &str) {
        let width = token.chars().take_while(|&c| c != '\n').count();
        if self.break_next {
            self.out.push('\n');
            self.column = 0;
        } else if self.column > 0 && !self.glue {
            if self.column + 1 + width > LINE_WIDTH {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
        self.out.push_str(token);
        self.column = match token.rfind('\n') {
            Some(i) => token[i + 1..].chars().count(),
            None => self.column + width,
        };
        self.glue = false;
        self.break_next = false;
    }

    /// Adds a comment: in braces, or as `;` lines when it holds a `}` or a line that starts
    /// with `[`.
    fn comment(&mut self, text: &str) {
        let text = crate::text::trim_layout(text);
        if text.is_empty() {
            return;
        }
        // A `}` would end a brace comment, and a line starting with `[` could read as the
        // tags of the next game after a comment left open: such comments go on `;` lines.
        if !text.contains('}') && !text.contains("\n[") {
            self.token(&format!("{{{text}}}"));
            return;
        }
        for line in text.lines() {
            self.token(&format!(";{line}"));
            self.break_next = true;
        }
    }
}

/// Writes one line of moves (and, recursively, its variations) from `pos`, `ply` half-moves
/// after the start.
fn write_line(
    layout: &mut Layout,
    line: &Line,
    mut pos: Position,
    ply: usize,
    start: &Position,
    notation: Notation,
) {
    if let Some(c) = &line.comment {
        layout.comment(c);
    }
    let mut need_number = true;
    for (i, node) in line.moves.iter().enumerate() {
        let number = MoveNumber::of_ply(start, ply + i);
        let text = match notation {
            Notation::Iccs => iccs_xqbase(node.mv),
            _ => format_move(&pos, node.mv, notation),
        };
        // The number stays on the line of its move.
        if number.side == xiangqi_rules::Color::Red || need_number {
            layout.token(&format!("{number} {text}"));
        } else {
            layout.token(&text);
        }
        for nag in &node.nags {
            layout.token(&nag.to_string());
        }
        need_number = false;
        if let Some(c) = &node.comment
            && !crate::text::trim_layout(c).is_empty()
        {
            layout.comment(c);
            need_number = true;
        }
        for v in &node.variations {
            if v.moves.is_empty() {
                continue;
            }
            layout.token("(");
            layout.glue = true;
            write_line(layout, v, pos.clone(), ply + i, start, notation);
            layout.glue = !layout.break_next;
            layout.token(")");
            need_number = true;
        }
        pos.make_move(node.mv);
    }
}

/// Writes `game` as PGN with moves in `notation`: `[Game "Chinese Chess"]`, the tags, the
/// result, `[FEN]` when the game does not start from the standard position, `[Format]`, and
/// the movetext ending in the result.
pub fn write_game(game: &Game, notation: Notation) -> Result<String, WriteError> {
    check_for_writing(std::slice::from_ref(game))?;
    Ok(render(game, notation))
}

/// Writes `games` as PGN, a blank line between them (see [`write_game`]).
pub fn write_games(games: &[Game], notation: Notation) -> Result<String, WriteError> {
    check_for_writing(games)?;
    let texts: Vec<String> = games.iter().map(|g| render(g, notation)).collect();
    Ok(texts.join("\n"))
}

/// The PGN text of a game whose tree is known to be legal.
fn render(game: &Game, notation: Notation) -> String {
    let mut out = String::from("[Game \"Chinese Chess\"]\n");
    let tag = |out: &mut String, name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
    };
    for (name, value) in game.tags.iter().filter(|(n, _)| ROSTER.contains(n)) {
        tag(&mut out, name, value);
    }
    tag(&mut out, "Result", game.result.pgn());
    for (name, value) in game.tags.iter().filter(|(n, _)| !ROSTER.contains(n)) {
        tag(&mut out, name, value);
    }
    if game.start != Position::startpos() {
        tag(&mut out, "FEN", &game.start.to_fen());
    }
    tag(&mut out, "Format", notation.name());
    out.push('\n');
    let mut layout = Layout::new();
    write_line(
        &mut layout,
        &game.moves,
        game.start.clone(),
        0,
        &game.start,
        notation,
    );
    layout.token(game.result.pgn());
    out.push_str(&layout.out);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{MoveNode, Nag, mv};
    use xiangqi_rules::GameResult;

    fn sample() -> Game {
        let mut game = Game::new(Position::startpos());
        game.tags.set("Event", "测试");
        game.tags.set("Red", "A \"B\"");
        game.result = Some(GameResult::RedWins);
        game.moves = Line::from_moves([mv("h2e2"), mv("h9g7"), mv("h0g2")]);
        game.moves.comment = Some("开局".to_string());
        game.moves.moves[0].comment = Some("中炮".to_string());
        game.moves.moves[1].nags.push(Nag(1));
        let mut alt = Line::from_moves([mv("b9c7")]);
        alt.moves[0].comment = Some("a } b".to_string());
        game.moves.moves[1].variations.push(alt);
        game.moves.moves.push(MoveNode::new(mv("i9h9")));
        game
    }

    #[test]
    fn chinese_pgn_layout() {
        let text = write_game(&sample(), Notation::Chinese).unwrap();
        assert_eq!(
            text,
            "[Game \"Chinese Chess\"]\n[Event \"测试\"]\n[Red \"A \\\"B\\\"\"]\n\
             [Result \"1-0\"]\n[Format \"Chinese\"]\n\n\
             {开局} 1. 炮二平五 {中炮} 1... 马8进7 $1 (1... 马2进3 ;a } b\n) \
             2. 马二进三 车9平8 1-0\n"
        );
    }

    #[test]
    fn iccs_is_written_as_xqbase_does() {
        let text = write_game(&sample(), Notation::Iccs).unwrap();
        assert!(text.contains("1. H2-E2 {中炮} 1... H9-G7 $1"), "{text}");
    }

    #[test]
    fn illegal_trees_are_refused() {
        let mut game = sample();
        game.moves.moves.push(MoveNode::new(mv("a0a9")));
        assert!(matches!(
            write_game(&game, Notation::Wxf),
            Err(WriteError::Tree { game: 1, .. })
        ));
    }
}
