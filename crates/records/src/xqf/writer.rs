//! Writing XQF version 1.0 (not encrypted).

use super::layout::*;
use crate::collection::Written;
use crate::error::WriteError;
use crate::game::{Game, Line, MoveNode, MoveNumber, check_for_writing, fold_variation_comments};
use crate::piece_slots::slots_of;
use crate::result::ResultForms;
use crate::text::{gbk_to_string, string_to_gbk_within};
use crate::warning::{Warning, WarningKind};
use xiangqi_rules::{Color, Move, Position};

/// The most GBK bytes we write in one comment. The length field has 32 bits, but XQStudio
/// shows a comment in a Windows edit box, which held at most 64 KiB on the systems it was
/// made for; a longer comment is cut here, with a warning.
pub const MAX_COMMENT_BYTES: usize = 0xFFFF;

/// Writes `game` as an XQF 1.0 file. The header keeps the tags Title, Event, Date, Site, Red,
/// Black, Opening, RedTime, BlackTime, Annotator and Author, each cut to its field (63 or 15
/// GBK bytes); comments are cut to [`MAX_COMMENT_BYTES`]; NAGs and other tags are not kept;
/// a comment before a variation goes in front of the comment on its first move. Whatever is
/// cut or left out is named in a warning (game 1).
pub fn write(game: &Game) -> Result<Written, WriteError> {
    check_for_writing(std::slice::from_ref(game))?;
    let mut game = game.normalized();
    fold_variation_comments(&mut game.moves);
    let mut warnings = Vec::new();
    let mut out = header(&game, &mut warnings);
    let nags = game.nag_count();
    if nags > 0 {
        warnings.push(Warning::in_game(
            1,
            WarningKind::NagsDropped { count: nags },
        ));
    }
    let comment = game
        .moves
        .comment
        .as_deref()
        .map(|c| comment_bytes(c, None, &mut warnings));
    write_record(
        &mut out,
        [FROM_BIAS, TO_BIAS],
        !game.moves.moves.is_empty(),
        false,
        comment.as_deref(),
        0xFF,
    );
    write_tree(&mut out, &game, &mut warnings);
    Ok(Written {
        bytes: out,
        warnings,
    })
}

/// A comment's GBK bytes (line breaks as CR LF), cut to [`MAX_COMMENT_BYTES`] with a warning.
fn comment_bytes(text: &str, number: Option<MoveNumber>, warnings: &mut Vec<Warning>) -> Vec<u8> {
    let text = text.replace('\n', "\r\n");
    let (bytes, cut) = string_to_gbk_within(&text, MAX_COMMENT_BYTES);
    if !cut.is_empty() {
        warnings.push(Warning::in_game(
            1,
            WarningKind::CommentCut {
                number,
                limit: MAX_COMMENT_BYTES,
                cut_chars: cut.replace("\r\n", "\n").chars().count(),
            },
        ));
    }
    bytes
}

/// The 1024-byte header; tags that do not fit their field, or have none, are named in
/// `warnings`.
fn header(game: &Game, warnings: &mut Vec<Warning>) -> Vec<u8> {
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
            let limit = field.size - 1;
            let (bytes, cut) = string_to_gbk_within(&one_line, limit);
            if !cut.is_empty() {
                warnings.push(Warning::in_game(
                    1,
                    WarningKind::TagCut {
                        tag: field.tag.to_string(),
                        limit,
                        kept: gbk_to_string(&bytes),
                        cut: cut.to_string(),
                    },
                ));
            }
            h[field.offset] = bytes.len() as u8;
            h[field.offset + 1..field.offset + 1 + bytes.len()].copy_from_slice(&bytes);
        }
    }
    for (tag, _) in game.tags.iter() {
        if !TEXT_FIELDS.iter().any(|f| f.tag == tag) {
            warnings.push(Warning::in_game(
                1,
                WarningKind::TagDropped {
                    tag: tag.to_string(),
                },
            ));
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
    comment: Option<&[u8]>,
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
    let text = comment.unwrap_or_default();
    let len = u32::try_from(text.len()).expect("comments are cut to MAX_COMMENT_BYTES");
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(text);
}

/// Appends the records of the moves in tree order: a move, the moves after it, then the
/// alternatives to it.
fn write_tree(out: &mut Vec<u8>, game: &Game, warnings: &mut Vec<Warning>) {
    // Each task: a line's moves, the index of the move to write, the alternatives that
    // follow it in the file (its variations, or for a variation's first move the variations
    // after this one), and the ply of the line's first move.
    let main = &game.moves;
    let mut tasks: Vec<(&[MoveNode], usize, &[Line], usize)> = Vec::new();
    if let Some(first) = main.moves.first() {
        tasks.push((&main.moves, 0, &first.variations, 0));
    }
    while let Some((moves, i, alternatives, first_ply)) = tasks.pop() {
        let node = &moves[i];
        let next = i + 1 < moves.len();
        let sibling = !alternatives.is_empty();
        let number = MoveNumber::of_ply(&game.start, first_ply + i);
        let comment = node
            .comment
            .as_deref()
            .map(|c| comment_bytes(c, Some(number), warnings));
        write_record(out, points(node.mv), next, sibling, comment.as_deref(), 0);
        if sibling {
            tasks.push((&alternatives[0].moves, 0, &alternatives[1..], first_ply + i));
        }
        if next {
            tasks.push((moves, i + 1, &moves[i + 1].variations, first_ply));
        }
    }
}
