//! Writing XQF version 1.0 (not encrypted).

use super::layout::*;
use crate::error::WriteError;
use crate::game::{Game, Line, MoveNode, check_for_writing, fold_variation_comments};
use crate::piece_slots::slots_of;
use crate::text::{string_to_gbk, string_to_gbk_within};
use xiangqi_rules::{Color, Move, Position};

/// Writes `game` as an XQF 1.0 file. The header keeps the tags Title, Event, Date, Site, Red,
/// Black, Opening, RedTime, BlackTime, Annotator and Author (each cut to its field: 63 or 15
/// GBK bytes); NAGs are not kept, and a comment before a variation goes in front of the
/// comment on its first move.
pub fn write(game: &Game) -> Result<Vec<u8>, WriteError> {
    check_for_writing(std::slice::from_ref(game))?;
    let mut game = game.normalized();
    fold_variation_comments(&mut game.moves);
    let mut out = header(&game);
    write_record(
        &mut out,
        [FROM_BIAS, TO_BIAS],
        !game.moves.moves.is_empty(),
        false,
        game.moves.comment.as_deref(),
        0xFF,
    );
    write_tree(&mut out, &game.moves);
    Ok(out)
}

/// The 1024-byte header.
fn header(game: &Game) -> Vec<u8> {
    let mut h = vec![0u8; HEADER_LEN];
    h[..2].copy_from_slice(MAGIC);
    h[VERSION] = PLAIN_VERSION;
    for (i, slot) in slots_of(&game.start).iter().enumerate() {
        h[PIECES + i] = slot.map_or(NO_PIECE, |sq| xy(sq.file(), sq.rank()));
    }
    h[SIDE_TO_MOVE] = u8::from(game.start.side_to_move() == Color::Black);
    h[RESULT] = game.result.xqf_code();
    let records = u32::try_from(game.move_count() + 1).unwrap_or(u32::MAX);
    h[RECORD_COUNT..RECORD_COUNT + 4].copy_from_slice(&records.to_le_bytes());
    h[GAME_TYPE] = if game.start == Position::startpos() {
        0
    } else {
        3
    };
    for field in &TEXT_FIELDS {
        if let Some(value) = game.tags.get(field.tag) {
            let one_line = value.replace(['\r', '\n'], " ");
            let bytes = string_to_gbk_within(&one_line, field.size - 1);
            h[field.offset] = bytes.len() as u8;
            h[field.offset + 1..field.offset + 1 + bytes.len()].copy_from_slice(&bytes);
        }
    }
    h
}

/// The record bytes of a move's points.
fn points(m: Move) -> [u8; 2] {
    let (f, t) = (m.from(), m.to());
    [
        xy(f.file(), f.rank()) + FROM_BIAS,
        xy(t.file(), t.rank()) + TO_BIAS,
    ]
}

/// Appends one record: points, flags, a reserved byte, the comment length and comment.
fn write_record(
    out: &mut Vec<u8>,
    points: [u8; 2],
    next: bool,
    sibling: bool,
    comment: Option<&str>,
    reserved: u8,
) {
    let mut flags = 0;
    if next {
        flags |= PLAIN_NEXT;
    }
    if sibling {
        flags |= PLAIN_SIBLING;
    }
    out.extend_from_slice(&[points[0], points[1], flags, reserved]);
    let text = comment.map_or_else(Vec::new, |c| string_to_gbk(&c.replace('\n', "\r\n")));
    let len = u32::try_from(text.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&text[..len as usize]);
}

/// Appends the records of the moves in tree order: a move, the moves after it, then the
/// alternatives to it.
fn write_tree(out: &mut Vec<u8>, main: &Line) {
    // Each task: a line's moves, the index of the move to write, and the alternatives that
    // follow it in the file (its variations, or for a variation's first move the variations
    // after this one).
    let mut tasks: Vec<(&[MoveNode], usize, &[Line])> = Vec::new();
    if let Some(first) = main.moves.first() {
        tasks.push((&main.moves, 0, &first.variations));
    }
    while let Some((moves, i, alternatives)) = tasks.pop() {
        let node = &moves[i];
        let next = i + 1 < moves.len();
        let sibling = !alternatives.is_empty();
        write_record(
            out,
            points(node.mv),
            next,
            sibling,
            node.comment.as_deref(),
            0,
        );
        if sibling {
            tasks.push((&alternatives[0].moves, 0, &alternatives[1..]));
        }
        if next {
            tasks.push((moves, i + 1, &moves[i + 1].variations));
        }
    }
}
