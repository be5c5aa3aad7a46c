//! Writing games as DhtmlXQ records.

use super::board::{binit, move_digits};
use super::names::element_of;
use crate::error::WriteError;
use crate::game::{Game, Line, check_for_writing, fold_variation_comments};
use crate::result::ResultForms;
use crate::warning::{Warning, WarningKind};
use xiangqi_rules::Color;

/// Escapes a comment: a line break becomes `||`; `|`, a `\` before `u`, and a `[` before
/// `/DhtmlXQ` become `\uXXXX`, so that reading gives the text back.
fn escape_comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let rest = &text[i + c.len_utf8()..];
        match c {
            '\n' => out.push_str("||"),
            '\r' => {}
            '|' => out.push_str("\\u007c"),
            '\\' if rest.starts_with('u') => out.push_str("\\u005c"),
            '[' if rest.starts_with("/DhtmlXQ") => out.push_str("\\u005b"),
            _ => out.push(c),
        }
    }
    out
}

/// A tag value on one line, with nothing that would end its element early.
fn clean_value(value: &str) -> String {
    value
        .replace(['\r', '\n'], " ")
        .replace("[/DhtmlXQ", "［/DhtmlXQ")
}

/// What the walk over the tree collects.
struct Collected {
    /// `(parent branch, ply replaced, number, digits)` of each variation.
    branches: Vec<(usize, usize, usize, String)>,
    /// `(branch, ply, text)` of each comment.
    comments: Vec<(usize, usize, String)>,
}

/// Walks a line of branch `b` whose first move is ply `first_ply`, numbering its variations
/// in the order met; returns the line's digits.
fn walk(line: &Line, b: usize, first_ply: usize, out: &mut Collected) -> String {
    let mut digits = String::with_capacity(line.moves.len() * 4);
    for (k, node) in line.moves.iter().enumerate() {
        let ply = first_ply + k;
        digits.push_str(&move_digits(node.mv));
        if let Some(c) = &node.comment {
            out.comments.push((b, ply, c.clone()));
        }
        for v in &node.variations {
            let id = out.branches.len() + 1;
            out.branches.push((b, ply, id, String::new()));
            let d = walk(v, id, ply, out);
            out.branches[id - 1].3 = d;
        }
    }
    digits
}

fn element(out: &mut String, name: &str, value: &str) {
    out.push_str(&format!("[DhtmlXQ_{name}]{value}[/DhtmlXQ_{name}]\n"));
}

/// Writes `game` as a DhtmlXQ record. Tags go to their elements (Site to `place`, Opening to
/// `open`, Annotator to `remark`, RedElo to `redrating` …, others under their own names);
/// the result in Chinese (红胜, 黑胜, 和棋, 未知); the start as `binit`, with a `fen` element
/// too when Black is to move and there is no move to tell it; variations as
/// `move_<branch>_<ply>_<number>`; comments as `comment<ply>` or `comment<branch>_<ply>`.
/// NAGs are not kept (see [`left_out`] for the warnings), and a comment before a variation
/// goes in front of the comment on its first move.
pub fn write_game(game: &Game) -> Result<String, WriteError> {
    check_for_writing(std::slice::from_ref(game))?;
    Ok(render(game))
}

/// Writes `games` as DhtmlXQ records, a blank line between them.
pub fn write_games(games: &[Game]) -> Result<String, WriteError> {
    check_for_writing(games)?;
    let texts: Vec<String> = games.iter().map(render).collect();
    Ok(texts.join("\n"))
}

/// What [`write_games`] leaves out of `games`, a warning each (games counted from 1): their
/// NAGs, and tags that no element holds.
pub fn left_out(games: &[Game]) -> Vec<Warning> {
    let mut warnings = Vec::new();
    for (i, game) in games.iter().enumerate() {
        for (tag, _) in game.tags.iter() {
            if element_of(tag).is_none() {
                let tag = tag.to_string();
                warnings.push(Warning::in_game(i + 1, WarningKind::TagDropped { tag }));
            }
        }
        let count = game.nag_count();
        if count > 0 {
            warnings.push(Warning::in_game(i + 1, WarningKind::NagsDropped { count }));
        }
    }
    warnings
}

/// The record of a game whose tree is known to be legal.
fn render(game: &Game) -> String {
    let mut game = game.normalized();
    fold_variation_comments(&mut game.moves);
    let mut out = String::from("[DhtmlXQ]\n");
    element(&mut out, "ver", "www_dpxq_com");
    element(&mut out, "init", "500,350");
    for (name, value) in game.tags.iter() {
        if let Some(e) = element_of(name) {
            element(&mut out, e, &clean_value(value));
        }
    }
    element(&mut out, "result", game.result.chinese());
    element(&mut out, "binit", &binit(&game.start));
    if game.start.side_to_move() == Color::Black && game.moves.moves.is_empty() {
        element(&mut out, "fen", &game.start.to_fen());
    }
    let mut collected = Collected {
        branches: Vec::new(),
        comments: Vec::new(),
    };
    let main = walk(&game.moves, 0, 1, &mut collected);
    element(&mut out, "movelist", &main);
    for (parent, ply, id, digits) in &collected.branches {
        element(&mut out, &format!("move_{parent}_{ply}_{id}"), digits);
    }
    if let Some(c) = &game.moves.comment {
        element(&mut out, "comment0", &escape_comment(c));
    }
    for (b, ply, text) in &collected.comments {
        let name = if *b == 0 {
            format!("comment{ply}")
        } else {
            format!("comment{b}_{ply}")
        };
        element(&mut out, &name, &escape_comment(text));
    }
    out.push_str("[/DhtmlXQ]\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_read_back() {
        let text = "a\nb | c \\u1234 [/DhtmlXQ_x]";
        let escaped = escape_comment(text);
        assert!(!escaped.contains('\n') && !escaped.contains("[/DhtmlXQ"));
        assert_eq!(escaped, "a||b \\u007c c \\u005cu1234 \\u005b/DhtmlXQ_x]");
    }
}
