//! Splitting PGN text into tokens: tags, comments, parentheses, NAGs and symbols (move
//! numbers, moves, results).

use crate::error::{Place, RecordError};
use crate::text::LineIndex;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind<'a> {
    /// `[Name "value"]`, the value unescaped.
    Tag {
        /// The tag name.
        name: &'a str,
        /// The value.
        value: String,
    },
    /// The text of a `{…}` or `;…` comment, without its delimiters.
    Comment(&'a str),
    /// `(`
    Open,
    /// `)`
    Close,
    /// `$n`
    Nag(u8),
    /// Any other run of characters: a move number, a move, a suffix, a result.
    Symbol(&'a str),
}

/// A token and the byte range it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    /// What it is.
    pub kind: TokenKind<'a>,
    /// Byte offset of its first character.
    pub start: usize,
}

/// Characters that end a symbol.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ';' | '$')
}

/// Where a line that starts with a tag (`[Name "`) begins in `text` before its first `}`, as
/// a byte offset.
fn next_tag_line(text: &str) -> Option<usize> {
    let close = text.find('}').unwrap_or(text.len());
    text[..close]
        .match_indices("\n[")
        .map(|(i, _)| i + 1)
        .find(|&at| is_tag_start(&text[at..]))
}

/// Whether `text` starts with a tag: `[`, a name, white space and a quote.
fn is_tag_start(text: &str) -> bool {
    let Some(inside) = text.strip_prefix('[') else {
        return false;
    };
    let name = inside
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inside.len());
    name > 0
        && inside[name..]
            .trim_start_matches([' ', '\t'])
            .starts_with('"')
}

/// The tokens of a PGN text, one at a time.
pub(crate) struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    index: LineIndex<'a>,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `text`.
    pub(crate) fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            pos: 0,
            index: LineIndex::new(text),
        }
    }

    /// Line and column of byte offset `offset`.
    pub(crate) fn place(&self, offset: usize) -> Place {
        self.index.place(offset)
    }

    /// Whether everything has been read.
    pub(crate) fn at_end(&mut self) -> bool {
        self.skip_space();
        self.pos >= self.text.len()
    }

    /// The length of the whole text in bytes.
    pub(crate) fn text_len(&self) -> usize {
        self.text.len()
    }

    /// Byte offset of the next character to read.
    pub(crate) fn offset(&self) -> usize {
        self.pos
    }

    /// Whether the byte at `at` starts a line.
    fn at_line_start(&self, at: usize) -> bool {
        at == 0 || self.text[..at].ends_with('\n')
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// Skips white space and `%` escape lines.
    fn skip_space(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if trimmed.starts_with('%') && self.at_line_start(self.pos) {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else {
                return;
            }
        }
    }

    /// The next token, `None` at the end, or an error for a malformed or unfinished token.
    pub(crate) fn next_token(&mut self) -> Option<Result<Token<'a>, RecordError>> {
        self.skip_space();
        let start = self.pos;
        let rest = self.rest();
        let c = rest.chars().next()?;
        let token = |kind| Some(Ok(Token { kind, start }));
        match c {
            '{' => match rest[1..].find('}') {
                // A comment never closed before the tags of the next game ends there, so
                // that the games after it still open.
                _ if let Some(next) = next_tag_line(&rest[1..]) => {
                    self.pos += 1 + next;
                    let found: String = self.rest().chars().take_while(|&c| c != '\n').collect();
                    Some(Err(RecordError::syntax(
                        self.index.place(self.pos),
                        format!(
                            "`}}` to close the comment opened at {}",
                            self.index.place(start)
                        ),
                        found.trim_end(),
                    )))
                }
                Some(end) => {
                    self.pos += end + 2;
                    token(TokenKind::Comment(&rest[1..end + 1]))
                }
                None => {
                    self.pos = self.text.len();
                    Some(Err(RecordError::truncated(
                        self.index.place(self.text.len()),
                        format!(
                            "`}}` to close the comment opened at {}",
                            self.index.place(start)
                        ),
                    )))
                }
            },
            ';' => {
                let end = rest.find('\n').unwrap_or(rest.len());
                self.pos += end;
                token(TokenKind::Comment(rest[1..end].trim_end_matches('\r')))
            }
            '(' => {
                self.pos += 1;
                token(TokenKind::Open)
            }
            ')' => {
                self.pos += 1;
                token(TokenKind::Close)
            }
            '}' => {
                self.pos += 1;
                Some(Err(RecordError::syntax(
                    self.index.place(start),
                    "a move, a comment or a result",
                    "}",
                )))
            }
            '$' => {
                let digits: &str = &rest[1..];
                let len = digits.bytes().take_while(u8::is_ascii_digit).count();
                self.pos += 1 + len;
                match digits[..len].parse::<u8>() {
                    Ok(n) => token(TokenKind::Nag(n)),
                    Err(_) if self.pos >= self.text.len() => Some(Err(RecordError::truncated(
                        self.index.place(start),
                        "a NAG number after `$`",
                    ))),
                    Err(_) => Some(Err(RecordError::syntax(
                        self.index.place(start),
                        "a NAG number from 0 to 255 after `$`",
                        &rest[..1 + len],
                    ))),
                }
            }
            '[' => Some(self.tag(start)),
            _ => {
                let end = rest.find(is_delimiter).unwrap_or(rest.len());
                self.pos += end;
                token(TokenKind::Symbol(&rest[..end]))
            }
        }
    }

    /// Reads `[Name "value"]` starting at `start`.
    fn tag(&mut self, start: usize) -> Result<Token<'a>, RecordError> {
        self.pos = start + 1;
        self.skip_inline_space();
        let rest = self.rest();
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if name_len == 0 {
            return Err(self.syntax_here("a tag name after `[`"));
        }
        let name = &rest[..name_len];
        self.pos += name_len;
        self.skip_inline_space();
        let value = if self.rest().starts_with('"') {
            let open = self.pos;
            self.pos += 1;
            let mut value = String::new();
            let mut chars = self.rest().char_indices();
            loop {
                match chars.next() {
                    None => {
                        self.pos = self.text.len();
                        return Err(RecordError::truncated(
                            self.index.place(self.text.len()),
                            format!(
                                "`\"` to close the value opened at {}",
                                self.index.place(open)
                            ),
                        ));
                    }
                    Some((i, '"')) => {
                        self.pos += i + 1;
                        break;
                    }
                    Some((_, '\\')) => match chars.next() {
                        Some((_, e)) => value.push(e),
                        None => continue,
                    },
                    Some((_, c)) => value.push(c),
                }
            }
            self.skip_inline_space();
            value
        } else {
            // A value without quotes: everything up to `]` on the line.
            let rest = self.rest();
            let end = rest.find([']', '\n']).unwrap_or(rest.len());
            self.pos += end;
            rest[..end].trim().to_string()
        };
        match self.rest().chars().next() {
            Some(']') => {
                self.pos += 1;
                Ok(Token {
                    kind: TokenKind::Tag { name, value },
                    start,
                })
            }
            None => Err(RecordError::truncated(
                self.index.place(self.pos),
                format!("`]` to close the tag opened at {}", self.index.place(start)),
            )),
            Some(_) => Err(self.syntax_here("`]` to close the tag")),
        }
    }

    fn skip_inline_space(&mut self) {
        let rest = self.rest();
        let trimmed = rest.trim_start_matches([' ', '\t']);
        self.pos += rest.len() - trimmed.len();
    }

    fn syntax_here(&self, expected: &str) -> RecordError {
        if self.pos >= self.text.len() {
            return RecordError::truncated(self.index.place(self.pos), expected);
        }
        let found: String = self
            .rest()
            .chars()
            .take_while(|c| *c != '\n')
            .take(20)
            .collect();
        RecordError::syntax(self.index.place(self.pos), expected, &found)
    }

    /// Moves on past the current line, so reading can go on after an error.
    pub(crate) fn skip_line(&mut self) {
        let rest = self.rest();
        self.pos += rest.find('\n').map_or(rest.len(), |i| i + 1);
    }

    /// Goes back (or on) to byte offset `at`, a place an earlier call to [`Lexer::offset`]
    /// gave.
    pub(crate) fn seek(&mut self, at: usize) {
        self.pos = at.min(self.text.len());
    }

    /// The text from byte offset `from` to `to`, both places [`Lexer::offset`] gave.
    pub(crate) fn text_between(&self, from: usize, to: usize) -> &'a str {
        self.text.get(from..to).unwrap_or("")
    }

    /// Whether the next character is a `[` that starts no tag: not followed by a tag name and
    /// white space or a quote (`[http://…]`, `[本文件…]`).
    pub(crate) fn at_stray_bracket(&mut self) -> bool {
        self.skip_space();
        let Some(inside) = self.rest().strip_prefix('[') else {
            return false;
        };
        let inside = inside.trim_start_matches([' ', '\t']);
        let name = inside
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inside.len());
        // At the end of the text the tag was cut off, not stray.
        match inside[name..].chars().next() {
            None => false,
            Some(' ' | '\t' | '"') => name == 0,
            Some(_) => true,
        }
    }

    /// Whether the next token would be a tag.
    pub(crate) fn at_tag(&mut self) -> bool {
        self.skip_space();
        self.rest().starts_with('[')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind<'_>> {
        let mut lexer = Lexer::new(text);
        let mut out = Vec::new();
        while let Some(t) = lexer.next_token() {
            out.push(t.unwrap().kind);
        }
        out
    }

    #[test]
    fn tokens_of_a_small_game() {
        let k =
            kinds("[Event \"A \\\"B\\\"\"]\n% escape\n1. h2e2 {c} (1. b2e2) $3 h9g7!? ; rest\n1-0");
        assert_eq!(
            k,
            vec![
                TokenKind::Tag {
                    name: "Event",
                    value: "A \"B\"".to_string()
                },
                TokenKind::Symbol("1."),
                TokenKind::Symbol("h2e2"),
                TokenKind::Comment("c"),
                TokenKind::Open,
                TokenKind::Symbol("1."),
                TokenKind::Symbol("b2e2"),
                TokenKind::Close,
                TokenKind::Nag(3),
                TokenKind::Symbol("h9g7!?"),
                TokenKind::Comment(" rest"),
                TokenKind::Symbol("1-0"),
            ]
        );
    }

    #[test]
    fn unfinished_comment_is_a_cut_off_game() {
        let text = "1. h2e2 {never closed";
        let mut lexer = Lexer::new(text);
        lexer.next_token();
        lexer.next_token();
        let err = lexer.next_token().unwrap().unwrap_err();
        assert!(err.is_truncated(), "{err}");
        assert!(err.to_string().contains("line 1, column 9"), "{err}");
    }

    #[test]
    fn unquoted_tag_values_are_read_to_the_bracket() {
        assert_eq!(
            kinds("[Red 许银川]"),
            vec![TokenKind::Tag {
                name: "Red",
                value: "许银川".to_string()
            }]
        );
    }
}
