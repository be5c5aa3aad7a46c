//! Text records as bytes: telling UTF-8 from GBK, GBK for XQF strings, and turning byte
//! offsets into lines and columns.

use crate::error::{ErrorKind, Place, RecordError};
use encoding_rs::{DecoderResult, GBK, UTF_8};
use std::borrow::Cow;

/// Decodes a text file: UTF-8 or UTF-16 after a byte order mark, else UTF-8 when the bytes
/// are valid UTF-8, else GBK (read as GB18030, its superset).
pub(crate) fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, RecordError> {
    if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let body = &bytes[bom..];
        if encoding == UTF_8 {
            return std::str::from_utf8(body).map(Cow::Borrowed).map_err(|e| {
                RecordError::new(Place::Byte(bom + e.valid_up_to()), ErrorKind::Encoding)
            });
        }
        return strict(encoding, body)
            .map_err(|at| RecordError::new(Place::Byte(bom + at), ErrorKind::Encoding));
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(Cow::Borrowed(text));
    }
    strict(GBK, bytes).map_err(|at| RecordError::new(Place::Byte(at), ErrorKind::Encoding))
}

/// Decodes `bytes` without replacement; on a malformed sequence, its offset.
fn strict(
    encoding: &'static encoding_rs::Encoding,
    bytes: &[u8],
) -> Result<Cow<'static, str>, usize> {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let capacity = decoder
        .max_utf8_buffer_length_without_replacement(bytes.len())
        .unwrap_or(bytes.len().saturating_mul(3));
    let mut out = String::with_capacity(capacity);
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, &mut out, true);
    match result {
        DecoderResult::InputEmpty => Ok(Cow::Owned(out)),
        DecoderResult::Malformed(bad, after) => {
            Err(read.saturating_sub(usize::from(bad) + usize::from(after)))
        }
        DecoderResult::OutputFull => Err(read),
    }
}

/// `text` without the ASCII white space (spaces, tabs, line breaks) around it. Full-width
/// spaces (U+3000), which indent paragraphs of Chinese comments, are kept.
pub(crate) fn trim_layout(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_ascii_whitespace())
}

/// Decodes GBK bytes (an XQF string or comment), replacing what cannot be read.
pub(crate) fn gbk_to_string(bytes: &[u8]) -> String {
    GBK.decode_without_bom_handling(bytes).0.into_owned()
}

/// Encodes `text` in GBK; characters GBK lacks become `&#NNNN;` references.
pub(crate) fn string_to_gbk(text: &str) -> Vec<u8> {
    GBK.encode(text).0.into_owned()
}

/// `text` in GBK, cut to at most `max` bytes between characters: the bytes, and the part of
/// `text` that was cut off (empty when all of it fits).
pub(crate) fn string_to_gbk_within(text: &str, max: usize) -> (Vec<u8>, &str) {
    let mut out = Vec::with_capacity(max.min(text.len().saturating_mul(2)));
    let mut buf = [0u8; 4];
    for (i, c) in text.char_indices() {
        let bytes = string_to_gbk(c.encode_utf8(&mut buf));
        if out.len() + bytes.len() > max {
            return (out, &text[i..]);
        }
        out.extend_from_slice(&bytes);
    }
    (out, "")
}

/// The start of each line of a text, for turning byte offsets into places.
pub(crate) struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes the lines of `text` (a line ends at `\n`).
    pub(crate) fn new(text: &'a str) -> LineIndex<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    /// Line and column (from 1, columns in characters) of byte offset `offset`.
    pub(crate) fn place(&self, offset: usize) -> Place {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let column = self
            .text
            .get(start..offset)
            .map_or(1, |s| s.chars().filter(|&c| c != '\r').count() + 1);
        Place::Text { line, column }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_gbk_and_boms_are_told_apart() {
        assert_eq!(decode("炮二平五".as_bytes()).unwrap(), "炮二平五");
        assert_eq!(decode(&string_to_gbk("炮二平五")).unwrap(), "炮二平五");
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice("马8进7".as_bytes());
        assert_eq!(decode(&bom).unwrap(), "马8进7");
        let utf16: Vec<u8> = [0xFF, 0xFE, b'a', 0, b'b', 0].to_vec();
        assert_eq!(decode(&utf16).unwrap(), "ab");
    }

    #[test]
    fn bytes_that_are_no_text_name_their_offset() {
        let err = decode(b"abc\xFF\xFFdef").unwrap_err();
        assert_eq!(err.kind, ErrorKind::Encoding);
        assert_eq!(err.place, Place::Byte(3));
    }

    #[test]
    fn gbk_strings_are_cut_between_characters() {
        let (bytes, cut) = string_to_gbk_within("许银川", 5);
        assert_eq!(bytes.len(), 4);
        assert_eq!(cut, "川");
        assert_eq!(string_to_gbk_within("许银川", 6).1, "");
        assert_eq!(gbk_to_string(&bytes), "许银");
    }

    #[test]
    fn full_width_spaces_are_not_layout() {
        assert_eq!(
            trim_layout(" \r\n\u{3000}\u{3000}第一段\t\n"),
            "\u{3000}\u{3000}第一段"
        );
    }

    #[test]
    fn offsets_become_lines_and_columns() {
        let text = "ab\r\n炮二\nx";
        let index = LineIndex::new(text);
        assert_eq!(index.place(0), Place::Text { line: 1, column: 1 });
        assert_eq!(index.place(4), Place::Text { line: 2, column: 1 });
        assert_eq!(index.place(7), Place::Text { line: 2, column: 2 });
        assert_eq!(index.place(text.len()), Place::Text { line: 3, column: 2 });
    }
}
