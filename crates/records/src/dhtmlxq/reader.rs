//! Reading DhtmlXQ text: the elements of each `[DhtmlXQ]…[/DhtmlXQ]` record, then the game
//! they describe.

use super::board::{board_of, digits_point};
use super::names::tag_of;
use crate::collection::Collection;
use crate::error::{ErrorKind, MoveError, PositionError, RecordError};
use crate::game::{Game, Line, MAX_VARIATION_DEPTH, MoveNode, MoveNumber, clean_comment};
use crate::piece_slots::position;
use crate::result::read_words;
use crate::text::LineIndex;
use std::collections::{BTreeMap, HashMap};
use xiangqi_rules::{Color, Position, Square};

/// An element `[DhtmlXQ_name]value[/DhtmlXQ_name]`.
#[derive(Clone, Copy, Debug)]
struct Element<'a> {
    /// The name after `DhtmlXQ_`.
    name: &'a str,
    /// The text between the tags.
    value: &'a str,
    /// Byte offset of the opening `[`.
    start: usize,
    /// Byte offset of the value.
    value_start: usize,
}

/// What the scanner finds.
enum Item<'a> {
    /// `[DhtmlXQ]` (or `[DhtmlXQiFrame]` …), opening a record.
    Open(usize),
    /// `[/DhtmlXQ]`, closing a record.
    Close,
    /// A whole element.
    Element(Element<'a>),
    /// An element whose closing tag never comes.
    Unclosed(Element<'a>),
}

/// The elements of one record.
struct Block<'a> {
    opened_at: Option<usize>,
    closed: bool,
    elements: Vec<Element<'a>>,
    unclosed: Option<Element<'a>>,
}

/// The length of the element name that `text` starts with, if a `]` ends it: letters,
/// digits and `_`, at most 64 of them.
fn name_end(text: &str) -> Option<usize> {
    let len = text
        .bytes()
        .take(65)
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    (len <= 64 && text.as_bytes().get(len) == Some(&b']')).then_some(len)
}

/// Finds the records and elements of a text.
fn scan(text: &str) -> Vec<Item<'_>> {
    const OPEN: &str = "[DhtmlXQ";
    const CLOSE: &str = "[/DhtmlXQ";
    let mut items = Vec::new();
    let mut pos = 0;
    while let Some(i) = text[pos..].find('[') {
        let at = pos + i;
        let rest = &text[at..];
        pos = at + 1;
        if let Some(after) = rest.strip_prefix(CLOSE) {
            if let Some(j) = name_end(after) {
                if !after.starts_with('_') {
                    items.push(Item::Close);
                }
                pos = at + CLOSE.len() + j + 1;
            }
            continue;
        }
        let Some(after) = rest.strip_prefix(OPEN) else {
            continue;
        };
        let Some(j) = name_end(after) else {
            continue;
        };
        let name = &after[..j];
        let value_start = at + OPEN.len() + j + 1;
        pos = value_start;
        let Some(name) = name.strip_prefix('_') else {
            items.push(Item::Open(at));
            continue;
        };
        let element = |end: usize| Element {
            name,
            value: &text[value_start..end],
            start: at,
            value_start,
        };
        match text[value_start..].find(CLOSE) {
            None => {
                items.push(Item::Unclosed(element(text.len())));
                break;
            }
            Some(k) => {
                let close = value_start + k;
                items.push(Item::Element(element(close)));
                let after_close = &text[close + CLOSE.len()..];
                // An element's own closing tag is skipped; a record's is left to be found.
                pos = if after_close.starts_with('_') {
                    after_close
                        .find(']')
                        .map_or(text.len(), |m| close + CLOSE.len() + m + 1)
                } else {
                    close
                };
            }
        }
    }
    items
}

/// Groups the items into records.
fn blocks<'a>(items: Vec<Item<'a>>) -> Vec<Block<'a>> {
    let mut done = Vec::new();
    let mut current: Option<Block<'a>> = None;
    let new = |opened_at| Block {
        opened_at,
        closed: false,
        elements: Vec::new(),
        unclosed: None,
    };
    for item in items {
        match item {
            Item::Open(at) => {
                done.extend(current.take());
                current = Some(new(Some(at)));
            }
            Item::Close => {
                if let Some(mut block) = current.take() {
                    block.closed = true;
                    done.push(block);
                }
            }
            Item::Element(e) => current.get_or_insert_with(|| new(None)).elements.push(e),
            Item::Unclosed(e) => current.get_or_insert_with(|| new(None)).unclosed = Some(e),
        }
    }
    done.extend(current);
    done
}

/// Reads every record of a DhtmlXQ text: each game or the error that stopped it (the
/// error is for a text that holds no record at all).
pub fn read_all_str(text: &str) -> Result<Collection, RecordError> {
    let index = LineIndex::new(text);
    let records = blocks(scan(text));
    if records.is_empty() {
        return Err(RecordError::syntax(
            index.place(0),
            "a DhtmlXQ record ([DhtmlXQ] … [DhtmlXQ_movelist] … [/DhtmlXQ])",
            text.trim_start(),
        ));
    }
    let count = records.len();
    let mut games = Vec::with_capacity(count);
    for (i, block) in records.iter().enumerate() {
        let numbered = |e: RecordError| if count > 1 { e.in_game(i + 1) } else { e };
        let cut = match (&block.unclosed, block.opened_at) {
            (Some(e), _) => Some(format!(
                "`[/DhtmlXQ_{}]` to close the element opened at {}",
                e.name,
                index.place(e.start)
            )),
            (None, Some(open)) if i + 1 == count && !block.closed => Some(format!(
                "`[/DhtmlXQ]` to close the record opened at {}",
                index.place(open)
            )),
            _ => None,
        };
        games.push(match cut {
            None => build(block, &index, false).map_err(numbered),
            Some(expected) => {
                let error = RecordError::truncated(index.place(text.len()), expected);
                Err(numbered(match build(block, &index, true) {
                    Ok(partial) => error.with_partial(partial),
                    Err(_) => error,
                }))
            }
        });
    }
    Ok(Collection {
        games,
        warnings: Vec::new(),
        encoding: None,
    })
}

/// Reads every record of a DhtmlXQ text. The first record that cannot be read is the error.
pub fn read_str(text: &str) -> Result<Vec<Game>, RecordError> {
    read_all_str(text)?.into_games()
}

/// Decodes a comment: `||` is a line break, `\uXXXX` a character.
fn decode_comment(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("||") {
            out.push('\n');
            rest = &rest[2..];
        } else if let Some(hex) = rest.strip_prefix("\\u").and_then(|r| r.get(..4))
            && let Some(ch) = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
        {
            out.push(ch);
            rest = &rest[6..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// A move as read: its points and where its digits start.
type Step = (Square, Square, usize);

/// A variation as read: the branch it hangs on, the ply of the move it replaces, its moves.
struct Branch {
    parent: usize,
    ply: usize,
    steps: Vec<Step>,
    element_start: usize,
    name: String,
}

/// Builds a game from a record's elements; `lenient` (for a cut-off record) keeps what can
/// be kept instead of failing.
fn build(block: &Block<'_>, index: &LineIndex<'_>, lenient: bool) -> Result<Game, RecordError> {
    let mut elements: Vec<Element<'_>> = block.elements.clone();
    elements.extend(block.unclosed);
    let mut game = Game::default();
    let mut binit = None;
    let mut fen = None;
    let mut main: Vec<Step> = Vec::new();
    let mut branches: BTreeMap<usize, Branch> = BTreeMap::new();
    let mut comments: HashMap<(usize, usize), String> = HashMap::new();
    for e in &elements {
        // Worked out only for errors: finding a column costs a scan of its line.
        let place = || index.place(e.start);
        match e.name {
            "binit" => binit = Some(*e),
            "fen" => fen = Some(*e),
            "movelist" => main = steps(e, index, lenient)?,
            "result" => game.result = read_words(e.value).unwrap_or_default(),
            name if name.starts_with("move_") => {
                let numbers: Vec<Option<usize>> =
                    name[5..].split('_').map(|n| n.parse().ok()).collect();
                let (parent, ply, id) = match numbers[..] {
                    [Some(p), Some(s), Some(b)] if b > 0 && s > 0 => (p, s, b),
                    _ if lenient => continue,
                    _ => {
                        return Err(RecordError::syntax(
                            place(),
                            "a variation element move_<branch>_<ply>_<number>, number above 0",
                            name,
                        ));
                    }
                };
                if branches.contains_key(&id) {
                    if lenient {
                        continue;
                    }
                    return Err(RecordError::syntax(
                        place(),
                        format!("one element for variation {id}"),
                        name,
                    ));
                }
                let branch = Branch {
                    parent,
                    ply,
                    steps: steps(e, index, lenient)?,
                    element_start: e.start,
                    name: name.to_string(),
                };
                branches.insert(id, branch);
            }
            name if name.starts_with("comment") => {
                let key = &name["comment".len()..];
                let parsed = match key.split_once('_') {
                    Some((b, n)) => b.parse().ok().zip(n.parse().ok()),
                    None => key.parse().ok().map(|n| (0, n)),
                };
                match parsed {
                    Some(k) => {
                        if let Some(c) = clean_comment(&decode_comment(e.value)) {
                            comments.insert(k, c);
                        }
                    }
                    None if lenient => {}
                    None => {
                        return Err(RecordError::syntax(
                            place(),
                            "a comment element comment<ply> or comment<branch>_<ply>",
                            name,
                        ));
                    }
                }
            }
            name => {
                if let Some(tag) = tag_of(name) {
                    let value = e.value.trim();
                    if !value.is_empty() {
                        game.tags.set(tag, value);
                    }
                }
            }
        }
    }
    game.start = start_position(binit, fen, main.first(), index)?;
    let mut tree = Tree {
        branches,
        children: BTreeMap::new(),
        comments,
        start: game.start.clone(),
        index,
        lenient,
    };
    for (&id, b) in &tree.branches {
        tree.children.entry((b.parent, b.ply)).or_default().push(id);
    }
    let mut moves = tree.line(0, 1, &main, game.start.clone(), 0)?;
    moves.comment = tree.comments.remove(&(0, 0));
    if let Some((_, stray)) = tree.branches.iter().next()
        && !lenient
    {
        return Err(RecordError::syntax(
            index.place(stray.element_start),
            format!(
                "a variation that replaces a move of branch {} at ply {}",
                stray.parent, stray.ply
            ),
            &stray.name,
        ));
    }
    game.moves = moves;
    game.normalize();
    Ok(game)
}

/// The moves of a `movelist` or `move_…` element: four digits each.
fn steps(e: &Element<'_>, index: &LineIndex<'_>, lenient: bool) -> Result<Vec<Step>, RecordError> {
    let mut digits: Vec<(u8, usize)> = Vec::with_capacity(e.value.len());
    for (i, c) in e.value.char_indices() {
        if c.is_ascii_digit() {
            digits.push((c as u8, e.value_start + i));
        } else if !c.is_whitespace() {
            if lenient {
                break;
            }
            return Err(RecordError::syntax(
                index.place(e.value_start + i),
                "a digit of a move (four digits a move)",
                &e.value[i..],
            ));
        }
    }
    let mut out = Vec::with_capacity(digits.len() / 4);
    for chunk in digits.chunks(4) {
        let at = chunk[0].1;
        let shown: String = chunk.iter().map(|&(d, _)| d as char).collect();
        let step = match chunk {
            [a, b, c, d] => digits_point(a.0, b.0).zip(digits_point(c.0, d.0)),
            _ if lenient => break,
            _ => {
                return Err(RecordError::syntax(
                    index.place(at),
                    "four digits a move",
                    &shown,
                ));
            }
        };
        match step {
            Some((from, to)) => out.push((from, to, at)),
            None if lenient => break,
            None => {
                return Err(RecordError::syntax(
                    index.place(at),
                    "a move of two points, each a column 0-8 and a row 0-9",
                    &shown,
                ));
            }
        }
    }
    Ok(out)
}

/// The start position: from `fen` if given, else from `binit` (the standard position when
/// absent), the side to move being the owner of the first move's piece.
fn start_position(
    binit: Option<Element<'_>>,
    fen: Option<Element<'_>>,
    first: Option<&Step>,
    index: &LineIndex<'_>,
) -> Result<Position, RecordError> {
    let bad = |at: usize, reason: PositionError| {
        RecordError::new(index.place(at), ErrorKind::BadPosition(reason))
    };
    if let Some(e) = fen {
        let text = e.value.trim();
        return Position::from_fen(text).map_err(|error| {
            bad(
                e.value_start,
                PositionError::Fen {
                    fen: text.to_string(),
                    error,
                },
            )
        });
    }
    let Some(e) = binit else {
        return Ok(Position::startpos());
    };
    let value = e.value.trim();
    let board = board_of(value).map_err(|problem| match problem {
        None => RecordError::syntax(index.place(e.value_start), "64 digits in binit", value),
        Some(sq) => bad(e.value_start, PositionError::SharedPoint(sq)),
    })?;
    let side = first
        .and_then(|(from, _, _)| board[from.index()])
        .map(|p| p.color);
    // Without a first move to tell, Red is to move unless that puts Black in check.
    let sides = match side {
        Some(color) => vec![color],
        None => vec![Color::Red, Color::Black],
    };
    let mut first_error = None;
    for s in sides {
        match position(&board, s) {
            Ok(pos) => return Ok(pos),
            Err(why) => {
                first_error.get_or_insert(why);
            }
        }
    }
    let error = first_error.expect("at least one side was tried");
    Err(bad(e.value_start, error))
}

/// The variations of a record, being hung on the moves they replace.
struct Tree<'i> {
    branches: BTreeMap<usize, Branch>,
    children: BTreeMap<(usize, usize), Vec<usize>>,
    comments: HashMap<(usize, usize), String>,
    start: Position,
    index: &'i LineIndex<'i>,
    lenient: bool,
}

impl Tree<'_> {
    /// The line of branch `b`, whose first move is ply `first_ply` (from 1), from `pos`.
    fn line(
        &mut self,
        b: usize,
        first_ply: usize,
        steps: &[Step],
        mut pos: Position,
        depth: usize,
    ) -> Result<Line, RecordError> {
        let mut line = Line::default();
        for (k, &(from, to, at)) in steps.iter().enumerate() {
            let ply = first_ply + k;
            let m = match pos.check_move(from, to) {
                Ok(m) => m,
                Err(_) if self.lenient => return Ok(line),
                Err(why) => {
                    return Err(RecordError::new(
                        self.index.place(at),
                        ErrorKind::IllegalMove {
                            number: MoveNumber::of_ply(&self.start, ply - 1),
                            text: format!("{from}{to}"),
                            reason: Box::new(MoveError::Illegal(why)),
                        },
                    ));
                }
            };
            let mut node = MoveNode::new(m);
            node.comment = self.comments.remove(&(b, ply));
            for v in self.hanging(b, ply, &pos, depth)? {
                node.variations.push(v);
            }
            pos.make_move(m);
            line.moves.push(node);
        }
        // Variations that hang after the last move continue the line.
        let end = first_ply + steps.len();
        let played = line.moves.len();
        for v in self.hanging(b, end, &pos, depth)? {
            if line.moves.len() == played {
                line.moves.extend(v.moves);
            } else {
                line.moves[played].variations.push(v);
            }
        }
        Ok(line)
    }

    /// The lines of the variations that hang on branch `b` before ply `ply`.
    fn hanging(
        &mut self,
        b: usize,
        ply: usize,
        pos: &Position,
        depth: usize,
    ) -> Result<Vec<Line>, RecordError> {
        let mut lines = Vec::new();
        for id in self.children.remove(&(b, ply)).unwrap_or_default() {
            let Some(branch) = self.branches.remove(&id) else {
                continue;
            };
            if depth >= MAX_VARIATION_DEPTH {
                if self.lenient {
                    continue;
                }
                return Err(RecordError::new(
                    self.index.place(branch.element_start),
                    ErrorKind::TooDeep,
                ));
            }
            let v = self.line(id, ply, &branch.steps, pos.clone(), depth + 1)?;
            if !v.moves.is_empty() {
                lines.push(v);
            }
        }
        Ok(lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_decode_line_breaks_and_escapes() {
        assert_eq!(decode_comment("a||b\\u007cc\\u4e2d"), "a\nb|c中");
        assert_eq!(decode_comment("\\uZZZZ|"), "\\uZZZZ|");
    }

    #[test]
    fn scanning_finds_records_and_elements() {
        let text = "x [DhtmlXQ]\n[DhtmlXQ_title]t[/DhtmlXQ_title]<br>\
                    [DhtmlXQ_blacktime][/DhtmlXQ_time]\n[/DhtmlXQ] [DhtmlXQ_red]r";
        let b = blocks(scan(text));
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].elements.len(), 2);
        assert_eq!(b[0].elements[0].name, "title");
        assert_eq!(b[0].elements[0].value, "t");
        assert_eq!(b[0].elements[1].value, "");
        assert!(b[1].opened_at.is_none());
        assert_eq!(b[1].unclosed.map(|e| e.value), Some("r"));
    }
}
