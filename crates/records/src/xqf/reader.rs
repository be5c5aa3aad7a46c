//! Reading XQF files of every version: the header, then the move records as a tree.

use super::cipher::Keys;
use super::layout::*;
use crate::error::{ErrorKind, MoveError, Place, PositionError, RecordError};
use crate::game::{Game, Line, MAX_VARIATION_DEPTH, MoveNode, MoveNumber, clean_comment};
use crate::piece_slots;
use crate::result::read_xqf_code;
use crate::text::gbk_to_string;
use xiangqi_rules::{Color, Move, Piece, Position, Square};

/// One move record: the points, the comment, and the records that follow it in the tree.
struct Record {
    from: u8,
    to: u8,
    comment: Option<String>,
    next: Option<usize>,
    sibling: Option<usize>,
    offset: usize,
}

/// The move records as read, in file order; record 0 is the empty record before the first
/// move.
struct Records {
    list: Vec<Record>,
}

/// The point of X*10+Y, if it is on the board.
fn point(xy: u8) -> Option<Square> {
    Square::new(xy / 10, xy % 10)
}

/// Reads an XQF file.
pub fn read(bytes: &[u8]) -> Result<Game, RecordError> {
    if bytes.get(..2) != Some(&MAGIC[..]) {
        let found: String = bytes.iter().take(2).map(|b| format!("{b:02X} ")).collect();
        return Err(RecordError::syntax(
            Place::Byte(0),
            "the XQF signature `XQ` (58 51)",
            found.trim_end(),
        ));
    }
    if bytes.len() < HEADER_LEN {
        return Err(RecordError::truncated(
            Place::Byte(bytes.len()),
            format!("the {HEADER_LEN}-byte XQF header"),
        ));
    }
    let header = &bytes[..HEADER_LEN];
    let keys = Keys::from_header(header);
    let mut game = Game::new(Position::startpos());
    for field in &TEXT_FIELDS {
        let len = usize::from(header[field.offset]).min(field.size - 1);
        let text = gbk_to_string(&header[field.offset + 1..field.offset + 1 + len]);
        let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if !text.is_empty() {
            game.tags.set(field.tag, text);
        }
    }
    game.result = read_xqf_code(header[RESULT]);

    let (records, problem) = read_records(bytes, &keys);
    let side = first_mover(&records, &keys, header)?;
    game.start = start_position(header, &keys, side)?;
    match problem {
        None => {
            game.moves = to_line(&records, &game.start, false)?;
            Ok(game)
        }
        Some(error) => {
            game.moves = to_line(&records, &game.start, true)?;
            Err(error.with_partial(game))
        }
    }
}

/// The side to move: the owner of the piece the first move moves, else what the header says.
fn first_mover(records: &Records, keys: &Keys, header: &[u8]) -> Result<Color, RecordError> {
    let said = if header[SIDE_TO_MOVE] == 1 {
        Color::Black
    } else {
        Color::Red
    };
    let Some(first) = records.list.first().and_then(|root| root.next) else {
        return Ok(said);
    };
    let board = board(header, keys)?;
    Ok(point(records.list[first].from)
        .and_then(|sq| board[sq.index()])
        .map_or(said, |p| p.color))
}

/// What stands on each point, from the header's piece slots.
fn board(header: &[u8], keys: &Keys) -> Result<[Option<Piece>; 90], RecordError> {
    let xy = keys.pieces(&header[PIECES..PIECES + 32]);
    let mut points = [None; 32];
    for (p, &v) in points.iter_mut().zip(xy.iter()) {
        *p = point(v);
    }
    piece_slots::board_of(&points).map_err(|sq| {
        RecordError::new(
            Place::Byte(PIECES),
            ErrorKind::BadPosition(PositionError::SharedPoint(sq)),
        )
    })
}

/// The start position from the header's pieces, with `side` to move.
fn start_position(header: &[u8], keys: &Keys, side: Color) -> Result<Position, RecordError> {
    piece_slots::position(&board(header, keys)?, side)
        .map_err(|reason| RecordError::new(Place::Byte(PIECES), ErrorKind::BadPosition(reason)))
}

/// Reads the move records from offset 0x400 in tree order (a record, the records after it,
/// then its alternatives). On a problem, the records read so far and the error.
fn read_records(bytes: &[u8], keys: &Keys) -> (Records, Option<RecordError>) {
    let mut records = Records { list: Vec::new() };
    let mut at = HEADER_LEN;
    let mut pending_siblings: Vec<usize> = Vec::new();
    // Where the next record hangs: after `Some((index, true))` as its next move, after
    // `Some((index, false))` as its alternative.
    let mut link: Option<(usize, bool)> = None;
    loop {
        let index = records.list.len();
        let (record, next, sibling, end) = match read_record(bytes, keys, at, index == 0) {
            Ok(r) => r,
            Err(e) => return (records, Some(e)),
        };
        at = end;
        match link {
            Some((parent, true)) => records.list[parent].next = Some(index),
            Some((parent, false)) => records.list[parent].sibling = Some(index),
            None => {}
        }
        records.list.push(record);
        // The empty first record has no alternatives.
        if sibling && index > 0 {
            pending_siblings.push(index);
        }
        link = if next {
            Some((index, true))
        } else {
            match pending_siblings.pop() {
                Some(i) => Some((i, false)),
                None => return (records, None),
            }
        };
    }
}

/// Reads the record at `at`: the record, whether a next move and an alternative follow, and
/// where the record ends.
fn read_record(
    bytes: &[u8],
    keys: &Keys,
    at: usize,
    first: bool,
) -> Result<(Record, bool, bool, usize), RecordError> {
    let take = |from: usize, len: usize, what: &str| -> Result<Vec<u8>, RecordError> {
        match bytes.get(from..from.saturating_add(len)) {
            Some(stored) => Ok(stored
                .iter()
                .enumerate()
                .map(|(i, &b)| keys.byte(b, from + i))
                .collect()),
            None => Err(RecordError::truncated(Place::Byte(bytes.len()), what)),
        }
    };
    let head = take(at, 4, "a 4-byte move record")?;
    let (from, to, flags) = (keys.origin(head[0]), keys.target(head[1]), head[2]);
    if !first && (point(from).is_none() || point(to).is_none()) {
        return Err(RecordError::syntax(
            Place::Byte(at),
            "a move record whose points are on the board",
            &format!("{:02X} {:02X}", bytes[at], bytes[at + 1]),
        ));
    }
    let (next, sibling, has_comment) = if keys.encrypted() {
        (
            flags & NEXT != 0,
            flags & SIBLING != 0,
            flags & COMMENT != 0,
        )
    } else {
        (flags & PLAIN_NEXT != 0, flags & PLAIN_SIBLING != 0, true)
    };
    let mut end = at + 4;
    let mut comment = None;
    if has_comment {
        let len = take(end, 4, "the 4-byte length of a comment")?;
        let stored = u32::from_le_bytes([len[0], len[1], len[2], len[3]]);
        end += 4;
        if let Some(n) = keys.comment_length(stored) {
            let text = take(end, n, &format!("a comment of {n} bytes"))?;
            end += n;
            comment = clean_comment(&gbk_to_string(&text));
        }
    }
    let record = Record {
        from,
        to,
        comment,
        next: None,
        sibling: None,
        offset: at,
    };
    Ok((record, next, sibling, end))
}

/// Turns records into lines, checking each move where it stands.
struct Walk<'r> {
    records: &'r Records,
    start: &'r Position,
    /// For a cut-off file: a line ends at a move that cannot be played, instead of failing.
    lenient: bool,
}

/// The main line from the records (see [`Walk`] for `lenient`).
fn to_line(records: &Records, start: &Position, lenient: bool) -> Result<Line, RecordError> {
    let Some(root) = records.list.first() else {
        return Ok(Line::default());
    };
    let walk = Walk {
        records,
        start,
        lenient,
    };
    let mut line = match root.next {
        Some(first) => walk.line_from(first, start.clone(), 0, 0, true)?,
        None => Line::default(),
    };
    line.comment = root.comment.clone();
    Ok(line)
}

impl Walk<'_> {
    /// The line that starts at record `first`, played from `pos`, `ply` half-moves after
    /// the start, `depth` variations deep; the alternatives to its first record are the
    /// caller's unless `own_first`.
    fn line_from(
        &self,
        first: usize,
        mut pos: Position,
        mut ply: usize,
        depth: usize,
        own_first: bool,
    ) -> Result<Line, RecordError> {
        let mut line = Line::default();
        let mut current = Some(first);
        let mut is_first = true;
        while let Some(i) = current {
            let record = &self.records.list[i];
            let Some(m) = self.playable(&pos, record, ply)? else {
                break;
            };
            let mut node = MoveNode::new(m);
            node.comment = record.comment.clone();
            if !is_first || own_first {
                let mut alt = record.sibling;
                while let Some(s) = alt {
                    if depth >= MAX_VARIATION_DEPTH {
                        if self.lenient {
                            break;
                        }
                        return Err(RecordError::new(
                            Place::Byte(self.records.list[s].offset),
                            ErrorKind::TooDeep,
                        ));
                    }
                    let v = self.line_from(s, pos.clone(), ply, depth + 1, false)?;
                    if !v.moves.is_empty() {
                        node.variations.push(v);
                    }
                    alt = self.records.list[s].sibling;
                }
            }
            pos.make_move(m);
            line.moves.push(node);
            ply += 1;
            current = record.next;
            is_first = false;
        }
        Ok(line)
    }

    /// The move of `record` if it can be played in `pos`; if not, `None` when lenient, else
    /// the error naming it.
    fn playable(
        &self,
        pos: &Position,
        record: &Record,
        ply: usize,
    ) -> Result<Option<Move>, RecordError> {
        let (Some(from), Some(to)) = (point(record.from), point(record.to)) else {
            return Ok(None);
        };
        match pos.check_move(from, to) {
            Ok(m) => Ok(Some(m)),
            Err(_) if self.lenient => Ok(None),
            Err(why) => Err(RecordError::new(
                Place::Byte(record.offset),
                ErrorKind::IllegalMove {
                    number: MoveNumber::of_ply(self.start, ply),
                    text: format!("{from}{to}"),
                    reason: Box::new(MoveError::Illegal(why)),
                },
            )),
        }
    }
}
