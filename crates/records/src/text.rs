//! Text records as bytes: telling UTF-8 from GBK (mainland sites) and Big5 (Taiwan and Hong
//! Kong sites), GBK for XQF strings, and turning byte offsets into lines and columns.

use crate::error::{ErrorKind, Place, RecordError};
use encoding_rs::{BIG5, DecoderResult, GBK, UTF_8, UTF_16BE, UTF_16LE};
use std::borrow::Cow;
use std::fmt;

/// The character encoding a text record was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    /// UTF-8 (with or without a byte order mark).
    Utf8,
    /// UTF-16, little-endian, after its byte order mark.
    Utf16Le,
    /// UTF-16, big-endian, after its byte order mark.
    Utf16Be,
    /// GBK, read as GB18030 (its superset): simplified Chinese, as mainland sites write.
    Gbk,
    /// Big5 (with the HKSCS extensions): traditional Chinese, as Taiwan and Hong Kong sites
    /// write.
    Big5,
}

impl TextEncoding {
    /// The encoding's usual name: `UTF-8`, `UTF-16LE`, `UTF-16BE`, `GBK` or `Big5`.
    pub const fn name(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::Utf16Le => "UTF-16LE",
            TextEncoding::Utf16Be => "UTF-16BE",
            TextEncoding::Gbk => "GBK",
            TextEncoding::Big5 => "Big5",
        }
    }
}

impl fmt::Display for TextEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Decodes a text file: UTF-8 or UTF-16 after a byte order mark, else UTF-8 when the bytes
/// are valid UTF-8, else GBK or Big5. Most Big5 bytes also read as GBK (and the other way
/// round), as different characters: where both read, the one whose text looks more like a
/// record wins ([`record_likeness`]), GBK on a tie. Answers the text and the encoding it was
/// read in.
pub(crate) fn decode(bytes: &[u8]) -> Result<(Cow<'_, str>, TextEncoding), RecordError> {
    if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let body = &bytes[bom..];
        if encoding == UTF_8 {
            return std::str::from_utf8(body)
                .map(|text| (Cow::Borrowed(text), TextEncoding::Utf8))
                .map_err(|e| {
                    RecordError::new(Place::Byte(bom + e.valid_up_to()), ErrorKind::Encoding)
                });
        }
        let named = if encoding == UTF_16BE {
            TextEncoding::Utf16Be
        } else {
            debug_assert_eq!(encoding, UTF_16LE);
            TextEncoding::Utf16Le
        };
        return strict(encoding, body)
            .map(|text| (text, named))
            .map_err(|at| RecordError::new(Place::Byte(bom + at), ErrorKind::Encoding));
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok((Cow::Borrowed(text), TextEncoding::Utf8));
    }
    match (strict(GBK, bytes), strict(BIG5, bytes)) {
        (Ok(gbk), Ok(big5)) => Ok(if record_likeness(&big5) > record_likeness(&gbk) {
            (big5, TextEncoding::Big5)
        } else {
            (gbk, TextEncoding::Gbk)
        }),
        (Ok(gbk), Err(_)) => Ok((gbk, TextEncoding::Gbk)),
        (Err(_), Ok(big5)) => Ok((big5, TextEncoding::Big5)),
        // The place is where the encoding that read further stopped.
        (Err(a), Err(b)) => Err(RecordError::new(Place::Byte(a.max(b)), ErrorKind::Encoding)),
    }
}

/// The characters of a record in Chinese notation, in either script: the pieces, the moves'
/// words, the numbers (Chinese and full-width) and the words of results and tags.
const RECORD_CHARACTERS: &str = "帅帥将將仕士相象马馬傌车車俥炮砲包兵卒\
                                 进進退平前后後中一二三四五六七八九１２３４５６７８９\
                                 红紅黑胜勝负負和局先对對开開";

/// How much `text` looks like a game record: two points for each character of Chinese
/// notation ([`RECORD_CHARACTERS`]), less three for each character a record never holds
/// (private-use code points, kana, half-width katakana, symbols of the compatibility blocks),
/// which a Big5 file read as GBK, or a GBK file read as Big5, is full of.
fn record_likeness(text: &str) -> i64 {
    text.chars()
        .map(|c| match c {
            _ if RECORD_CHARACTERS.contains(c) => 2,
            '\u{e000}'..='\u{f8ff}'
            | '\u{3040}'..='\u{30ff}'
            | '\u{ff61}'..='\u{ff9f}'
            | '\u{f900}'..='\u{faff}'
            | '\u{fe30}'..='\u{fe4f}'
            | '\u{2460}'..='\u{24ff}'
            | '\u{2500}'..='\u{257f}' => -3,
            _ => 0,
        })
        .sum()
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
    fn utf8_gbk_big5_and_boms_are_told_apart() {
        let read = |bytes: &[u8]| {
            let (text, encoding) = decode(bytes).unwrap();
            (text.into_owned(), encoding)
        };
        assert_eq!(
            read("炮二平五".as_bytes()),
            ("炮二平五".into(), TextEncoding::Utf8)
        );
        assert_eq!(
            read(&string_to_gbk("炮二平五 马8进7")),
            ("炮二平五 马8进7".into(), TextEncoding::Gbk)
        );
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice("马8进7".as_bytes());
        assert_eq!(read(&bom), ("马8进7".into(), TextEncoding::Utf8));
        let utf16: Vec<u8> = [0xFF, 0xFE, b'a', 0, b'b', 0].to_vec();
        assert_eq!(read(&utf16), ("ab".into(), TextEncoding::Utf16Le));
        let utf16: Vec<u8> = [0xFE, 0xFF, 0, b'a', 0, b'b'].to_vec();
        assert_eq!(read(&utf16), ("ab".into(), TextEncoding::Utf16Be));
        // Traditional characters and full-width digits in Big5, which also read as GBK (as
        // other characters): the record's own words tell them apart.
        for text in [
            "1. 炮二平五 馬８進７",
            "[Red \"胡榮華\"]\n1. 炮八平五 炮２平５ 2. 車九進一 馬２進３",
            "兵七進一 卒７進１",
            "1-0 紅勝",
        ] {
            let big5 = BIG5.encode(text).0.into_owned();
            assert!(
                strict(GBK, &big5).is_ok(),
                "{text}: the bytes read as GBK too"
            );
            assert_eq!(
                read(&big5),
                (text.to_string(), TextEncoding::Big5),
                "{text}"
            );
        }
        // And simplified GBK that also reads as Big5 stays GBK.
        for text in ["1. 炮二平五 马8进7", "车九进一 马２进３ 红胜", "兵七进一"]
        {
            let gbk = string_to_gbk(text);
            assert_eq!(read(&gbk), (text.to_string(), TextEncoding::Gbk), "{text}");
        }
    }

    #[test]
    fn bytes_that_are_no_text_name_their_offset() {
        let err = decode(b"abc\xFF\xFFdef").unwrap_err();
        assert!(err.to_string().contains("Big5"), "{err}");
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
