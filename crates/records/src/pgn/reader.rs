//! Reading PGN games: tags, then movetext with move numbers, comments, variations, NAGs and
//! a result, one game after another.

use super::lexer::{Lexer, Token, TokenKind};
use super::san;
use crate::error::{ErrorKind, MoveError, PositionError, RecordError};
use crate::game::{Game, Line, MAX_VARIATION_DEPTH, MoveNode, MoveNumber, Nag};
use crate::result::read_pgn;
use crate::tags::Tags;
use crate::warning::{Warning, WarningKind};
use xiangqi_rules::GameResult;
use xiangqi_rules::coordinates::RankBase;
use xiangqi_rules::notation::{Notation, NotationError, parse_any, parse_move};
use xiangqi_rules::{Move, Position};

/// How the moves of a game are written.
#[derive(Clone, Copy, Debug)]
enum Dialect {
    /// The xqbase convention: the notation the `[Format]` tag names, if any.
    Xqbase { declared: Option<Notation> },
    /// `[Variant "xiangqi"]`: algebraic moves with ranks counted from `base`.
    Variant { base: RankBase },
}

/// The games of a PGN text, read one at a time. After a game that cannot be read, reading
/// goes on at the next line that starts a tag.
pub struct Games<'a> {
    lexer: Lexer<'a>,
    pushed_back: Option<Token<'a>>,
    count: usize,
    finished: bool,
    warnings: Vec<Warning>,
}

/// How the movetext of a game ended.
enum End<'a> {
    /// With a result token at its top level.
    Result(Option<GameResult>),
    /// With the tags of the next game, at this byte offset.
    NextGame(usize),
    /// At the end of the text.
    Eof,
    /// With a token that could not be read.
    Broken(RecordError),
    /// With a token that cannot stand here (a `}`), still inside this game.
    Stray(Token<'a>),
}

impl<'a> Games<'a> {
    /// The games of `text`.
    pub fn new(text: &'a str) -> Games<'a> {
        Games {
            lexer: Lexer::new(text),
            pushed_back: None,
            count: 0,
            finished: false,
            warnings: Vec::new(),
        }
    }

    /// What was skipped so far: text outside any game.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Skips text that stands outside any game (a site's trailer, a line of `=`, a web
    /// address, a bracketed note that is no tag) up to the next line that starts a tag, with
    /// a warning for each stretch. Text that starts like movetext (a move number, a move, a
    /// result, a comment, a parenthesis) is a game, even without tags.
    fn skip_outside_text(&mut self) {
        while self.pushed_back.is_none() && !self.lexer.at_end() {
            let at = self.lexer.offset();
            let outside = self.lexer.at_stray_bracket()
                || matches!(
                    self.lexer.next_token(),
                    Some(Ok(Token { kind: TokenKind::Symbol(s), .. })) if !starts_movetext(s)
                );
            self.lexer.seek(at);
            if !outside {
                return;
            }
            self.lexer.skip_line();
            self.recover();
            let skipped =
                crate::text::trim_layout(self.lexer.text_between(at, self.lexer.offset()));
            let text: String = skipped
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .take(40)
                .collect();
            self.warnings.push(Warning {
                game: None,
                place: Some(self.lexer.place(at)),
                kind: WarningKind::SkippedText { text },
            });
        }
    }

    fn next_token(&mut self) -> Option<Result<Token<'a>, RecordError>> {
        match self.pushed_back.take() {
            Some(t) => Some(Ok(t)),
            None => self.lexer.next_token(),
        }
    }

    /// Reads the next game; `Ok(None)` when only white space and comments are left.
    fn read_game(&mut self) -> Result<Option<Game>, RecordError> {
        self.skip_outside_text();
        let mut tags: Vec<(&'a str, String, usize)> = Vec::new();
        let mut comments: Vec<&'a str> = Vec::new();
        let mut first: Option<Token<'a>> = None;
        while let Some(token) = self.next_token() {
            let token = match token {
                Ok(t) => t,
                Err(e) => {
                    // The tags read so far make the partial game of a file cut in its tags.
                    let partial = Builder::new(&self.lexer, &tags, &comments, &[])
                        .ok()
                        .map(Builder::finish);
                    self.recover();
                    return Err(match partial {
                        Some(game) if e.is_truncated() => e.with_partial(game),
                        _ => e,
                    });
                }
            };
            match token.kind {
                TokenKind::Tag { name, value } => tags.push((name, value, token.start)),
                TokenKind::Comment(text) => comments.push(text),
                _ => {
                    first = Some(token);
                    break;
                }
            }
        }
        if tags.is_empty() && first.is_none() {
            return Ok(None);
        }
        let mut tokens: Vec<Token<'a>> = Vec::new();
        let mut depth = 0usize;
        let mut pending = first.map(Ok);
        let end = loop {
            let token = match pending.take().or_else(|| self.next_token()) {
                None => break End::Eof,
                Some(Err(e)) => break End::Broken(e),
                Some(Ok(t)) => t,
            };
            match &token.kind {
                TokenKind::Tag { .. } => {
                    let at = token.start;
                    self.pushed_back = Some(token);
                    break End::NextGame(at);
                }
                TokenKind::Symbol(s) if depth == 0 => {
                    if let Some(r) = read_pgn(s) {
                        break End::Result(r);
                    }
                }
                TokenKind::Open => depth += 1,
                TokenKind::Close if depth > 0 => depth -= 1,
                TokenKind::Close => break End::Stray(token),
                _ => {}
            }
            tokens.push(token);
        };

        let needs_recovery = matches!(end, End::Broken(_) | End::Stray(_));
        let outcome = self.build(&tags, &comments, &tokens, end);
        if needs_recovery {
            self.recover();
        }
        outcome
    }

    /// Builds a game from its tags and movetext, and judges how the movetext ended.
    fn build(
        &self,
        tags: &[(&'a str, String, usize)],
        comments: &[&'a str],
        tokens: &[Token<'a>],
        end: End<'a>,
    ) -> Result<Option<Game>, RecordError> {
        let mut builder = Builder::new(&self.lexer, tags, comments, tokens)?;
        for token in tokens {
            if let Err(e) = builder.token(token) {
                return Err(e.with_partial(builder.finish()));
            }
        }
        let open_variation = (builder.frames.len() > 1)
            .then(|| builder.frames.last().map(|f| f.opened_at))
            .flatten()
            .map(|open| {
                format!(
                    "`)` to close the variation opened at {}",
                    self.lexer.place(open)
                )
            });
        let game = builder.finish();
        match end {
            End::Result(result) => {
                let mut game = game;
                if result.is_some() {
                    game.result = result;
                }
                Ok(Some(game))
            }
            End::NextGame(at) => match open_variation {
                None => Ok(Some(game)),
                Some(expected) => {
                    Err(RecordError::syntax(self.lexer.place(at), expected, "[").with_partial(game))
                }
            },
            End::Eof => {
                let expected = open_variation.unwrap_or_else(|| {
                    "a result (1-0, 0-1, 1/2-1/2 or *) to end the game".to_string()
                });
                let place = self.lexer.place(self.lexer.offset());
                Err(RecordError::truncated(place, expected).with_partial(game))
            }
            End::Broken(e) => Err(e.with_partial(game)),
            End::Stray(token) => Err(RecordError::syntax(
                self.lexer.place(token.start),
                "a move, a comment or a result",
                ")",
            )
            .with_partial(game)),
        }
    }

    /// After an error, moves on to the next line that starts a tag.
    fn recover(&mut self) {
        loop {
            if self.lexer.at_tag() || self.lexer.at_end() {
                return;
            }
            self.lexer.skip_line();
        }
    }
}

impl Iterator for Games<'_> {
    type Item = Result<Game, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        self.count += 1;
        match self.read_game() {
            Ok(Some(game)) => Some(Ok(game)),
            Ok(None) => {
                self.finished = true;
                None
            }
            Err(e) => Some(Err(e.in_game(self.count))),
        }
    }
}

/// A line being read: its moves so far, the position after them and before the last one.
struct Frame {
    line: Line,
    pos: Position,
    before_last: Option<Position>,
    ply: usize,
    opened_at: usize,
}

/// Builds one game from its tags and movetext tokens.
struct Builder<'l, 'a> {
    lexer: &'l Lexer<'a>,
    start: Position,
    tags: Tags,
    result: Option<GameResult>,
    dialect: Dialect,
    frames: Vec<Frame>,
}

/// Appends a comment to what a slot holds, a line apart.
fn append_comment(slot: &mut Option<String>, text: &str) {
    let text = crate::text::trim_layout(text);
    match slot {
        Some(s) => {
            s.push('\n');
            s.push_str(text);
        }
        None => *slot = Some(text.to_string()),
    }
}

/// Where ranks of algebraic moves start counting, judging by the points the movetext names:
/// a rank 10 means from one, a rank 0 means from zero, and from one when neither is seen.
fn rank_base(tokens: &[Token<'_>]) -> RankBase {
    let mut zero = false;
    for token in tokens {
        if let TokenKind::Symbol(s) = token.kind {
            let b = s.as_bytes();
            for i in 0..b.len().saturating_sub(1) {
                if (b'a'..=b'i').contains(&b[i]) && b[i + 1] == b'1' && b.get(i + 2) == Some(&b'0')
                {
                    return RankBase::One;
                }
                if (b'a'..=b'i').contains(&b[i])
                    && b[i + 1] == b'0'
                    && !b.get(i + 2).is_some_and(u8::is_ascii_digit)
                    && (i == 0 || !b[i - 1].is_ascii_digit())
                {
                    zero = true;
                }
            }
        }
    }
    if zero { RankBase::Zero } else { RankBase::One }
}

/// The part of a symbol that is a move, without a leading move number (`12.`, `12...`),
/// or `None` when the symbol is only a move number or dots.
fn strip_move_number(s: &str) -> Option<&str> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &s[digits..];
    let dotted = rest.trim_start_matches(['.', '…', '．']);
    let dots = rest.len() - dotted.len();
    if dotted.is_empty() && (digits > 0 || dots > 0) {
        return None;
    }
    if digits == 0 || dots == 0 {
        return Some(s);
    }
    // `15.1` is a tandem-soldier move in old WXF, not move 15.
    if rest.starts_with('.') && rest[1..].starts_with(|c: char| c.is_ascii_digit()) {
        return Some(s);
    }
    Some(dotted)
}

/// Whether a symbol that stands where a game would start begins movetext: a result, a move
/// number, an annotation, or a move of the start position in any notation.
fn starts_movetext(s: &str) -> bool {
    if read_pgn(s).is_some() {
        return true;
    }
    let Some(text) = strip_move_number(s) else {
        return true;
    };
    if text.len() != s.len() {
        return true;
    }
    let (body, _) = split_suffix(text);
    body.is_empty()
        || parse_move_text(
            &Position::startpos(),
            body,
            &mut Dialect::Xqbase { declared: None },
        )
        .is_ok()
}

/// Splits `!`/`?` suffixes off a move: the move text and the suffix.
fn split_suffix(s: &str) -> (&str, &str) {
    let body = s.trim_end_matches(['!', '?']);
    (body, &s[body.len()..])
}

impl<'l, 'a> Builder<'l, 'a> {
    fn new(
        lexer: &'l Lexer<'a>,
        tag_list: &[(&'a str, String, usize)],
        comments: &[&str],
        tokens: &[Token<'a>],
    ) -> Result<Builder<'l, 'a>, RecordError> {
        let mut start = Position::startpos();
        let mut tags = Tags::new();
        let mut result = None;
        let mut declared = None;
        let mut variant = false;
        for (name, value, at) in tag_list {
            // A blank value says nothing: the tag is as good as absent.
            if value.trim().is_empty() {
                continue;
            }
            match *name {
                "FEN" => {
                    start = Position::from_fen(value).map_err(|error| {
                        RecordError::new(
                            lexer.place(*at),
                            ErrorKind::BadPosition(PositionError::Fen {
                                fen: value.clone(),
                                error,
                            }),
                        )
                    })?;
                }
                "Format" => {
                    declared = Notation::ALL
                        .into_iter()
                        .find(|n| n.name().eq_ignore_ascii_case(value.trim()));
                }
                "Variant" => {
                    if !value.trim().eq_ignore_ascii_case("xiangqi") {
                        return Err(RecordError::syntax(
                            lexer.place(*at),
                            "[Variant \"xiangqi\"]",
                            value,
                        ));
                    }
                    variant = true;
                }
                "Result" => result = read_pgn(value).unwrap_or_default(),
                "Game" | "SetUp" => {}
                _ => {
                    tags.set(name, value);
                }
            }
        }
        if variant {
            let whites: Vec<(String, String)> = tags
                .iter()
                .filter(|(n, _)| n.starts_with("White"))
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect();
            for (name, value) in whites {
                let red = format!("Red{}", &name["White".len()..]);
                if tags.get(&red).is_none() {
                    tags.remove(&name);
                    tags.set(&red, &value);
                }
            }
        }
        let dialect = if variant {
            Dialect::Variant {
                base: rank_base(tokens),
            }
        } else {
            Dialect::Xqbase { declared }
        };
        let mut main = Line::default();
        for c in comments {
            append_comment(&mut main.comment, c);
        }
        Ok(Builder {
            lexer,
            start: start.clone(),
            tags,
            result,
            dialect,
            frames: vec![Frame {
                line: main,
                pos: start,
                before_last: None,
                ply: 0,
                opened_at: 0,
            }],
        })
    }

    fn frame(&mut self) -> &mut Frame {
        self.frames
            .last_mut()
            .expect("the main line is always open")
    }

    fn token(&mut self, token: &Token<'a>) -> Result<(), RecordError> {
        // Places are worked out only for errors: finding a column costs a scan of its line.
        let lexer = self.lexer;
        let place = || lexer.place(token.start);
        match &token.kind {
            TokenKind::Comment(text) => {
                let frame = self.frame();
                match frame.line.moves.last_mut() {
                    Some(node) => append_comment(&mut node.comment, text),
                    None => append_comment(&mut frame.line.comment, text),
                }
            }
            TokenKind::Nag(n) => self.annotate(Nag(*n), token, "$")?,
            TokenKind::Open => {
                if self.frames.len() > MAX_VARIATION_DEPTH {
                    return Err(RecordError::new(place(), ErrorKind::TooDeep));
                }
                let frame = self.frame();
                let Some(before) = frame.before_last.clone() else {
                    return Err(RecordError::syntax(place(), "a move before `(`", "("));
                };
                let ply = frame.ply - 1;
                self.frames.push(Frame {
                    line: Line::default(),
                    pos: before,
                    before_last: None,
                    ply,
                    opened_at: token.start,
                });
            }
            TokenKind::Close => self.close(),
            TokenKind::Tag { .. } => {}
            TokenKind::Symbol(s) => self.symbol(s, token)?,
        }
        Ok(())
    }

    /// Ends the innermost variation and hangs it on the move it replaces.
    fn close(&mut self) {
        if self.frames.len() < 2 {
            return;
        }
        let done = self.frames.pop().expect("checked above");
        if let Some(node) = self.frame().line.moves.last_mut()
            && !done.line.moves.is_empty()
        {
            node.variations.push(done.line);
        }
    }

    fn annotate(&mut self, nag: Nag, token: &Token<'a>, shown: &str) -> Result<(), RecordError> {
        let lexer = self.lexer;
        match self.frame().line.moves.last_mut() {
            Some(node) => {
                node.nags.push(nag);
                Ok(())
            }
            None => Err(RecordError::syntax(
                lexer.place(token.start),
                "a move before the annotation",
                shown,
            )),
        }
    }

    fn symbol(&mut self, s: &str, token: &Token<'a>) -> Result<(), RecordError> {
        let lexer = self.lexer;
        let place = || lexer.place(token.start);
        if read_pgn(s).is_some() {
            return Err(RecordError::syntax(
                place(),
                "a move or `)` (a result cannot end a variation)",
                s,
            ));
        }
        let Some(text) = strip_move_number(s) else {
            return Ok(());
        };
        let (body, suffix) = split_suffix(text);
        if body.is_empty() {
            let nag = Nag::from_symbol(suffix)
                .ok_or_else(|| RecordError::syntax(place(), "a move or an annotation", s))?;
            return self.annotate(nag, token, s);
        }
        let nag = if suffix.is_empty() {
            None
        } else {
            Some(Nag::from_symbol(suffix).ok_or_else(|| {
                RecordError::syntax(place(), "an annotation such as ! ? !! ?? !? ?!", suffix)
            })?)
        };
        let frame = self.frames.last().expect("the main line is always open");
        let number = MoveNumber::of_ply(&self.start, frame.ply);
        // A move that runs into the end of the text was cut off, not mistyped.
        let at_end = token.start + s.len() >= self.lexer.text_len();
        let m = parse_move_text(&frame.pos, body, &mut self.dialect).map_err(|error| {
            if at_end {
                RecordError::truncated(
                    place(),
                    format!("the whole of move {number} (the text ends in {body:?})"),
                )
            } else {
                RecordError::new(
                    place(),
                    ErrorKind::IllegalMove {
                        number,
                        text: body.to_string(),
                        reason: Box::new(MoveError::from_notation(&frame.pos, error)),
                    },
                )
            }
        })?;
        let frame = self.frame();
        let before = frame.pos.clone();
        frame.pos.make_move(m);
        frame.before_last = Some(before);
        frame.ply += 1;
        let mut node = MoveNode::new(m);
        node.nags.extend(nag);
        frame.line.moves.push(node);
        Ok(())
    }

    /// The game as read so far: open variations closed, the tree normalized.
    fn finish(mut self) -> Game {
        while self.frames.len() > 1 {
            self.close();
        }
        let main = self.frames.pop().expect("the main line is always open");
        let mut game = Game::new(self.start);
        game.tags = self.tags;
        game.result = self.result;
        game.moves = main.line;
        game.normalize();
        game
    }
}

/// The legal move of `pos` that `text` names, in the dialect of the game.
fn parse_move_text(
    pos: &Position,
    text: &str,
    dialect: &mut Dialect,
) -> Result<Move, NotationError> {
    match dialect {
        Dialect::Xqbase { declared } => {
            let mut first_error = None;
            if let Some(n) = declared {
                match parse_move(pos, text, *n) {
                    Ok(m) => return Ok(m),
                    Err(e) => first_error = Some(e),
                }
            }
            let any = match parse_any(pos, text) {
                Ok(m) => return Ok(m),
                Err(e) => e,
            };
            for base in [RankBase::Zero, RankBase::One] {
                if let Ok(m) = san::parse(pos, text, base) {
                    return Ok(m);
                }
            }
            Err(first_error.unwrap_or(any))
        }
        Dialect::Variant { base } => {
            let algebraic = match san::parse(pos, text, *base) {
                Ok(m) => return Ok(m),
                Err(e) => e,
            };
            if let Ok(m) = san::parse(pos, text, san::other(*base)) {
                *base = san::other(*base);
                return Ok(m);
            }
            match parse_any(pos, text) {
                Ok(m) => Ok(m),
                Err(NotationError::Malformed { .. }) if text.is_ascii() => Err(algebraic),
                Err(e) => Err(e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_taken_off() {
        assert_eq!(strip_move_number("12."), None);
        assert_eq!(strip_move_number("12..."), None);
        assert_eq!(strip_move_number("..."), None);
        assert_eq!(strip_move_number("12"), None);
        assert_eq!(strip_move_number("1.炮二平五"), Some("炮二平五"));
        assert_eq!(strip_move_number("3...h9g7"), Some("h9g7"));
        assert_eq!(strip_move_number("15.1"), Some("15.1"));
        assert_eq!(strip_move_number("15+1"), Some("15+1"));
        assert_eq!(strip_move_number("C2.5"), Some("C2.5"));
    }

    #[test]
    fn suffixes_split_off() {
        assert_eq!(split_suffix("C2=5!?"), ("C2=5", "!?"));
        assert_eq!(split_suffix("h2e2"), ("h2e2", ""));
        assert_eq!(split_suffix("??"), ("", "??"));
    }

    #[test]
    fn rank_base_follows_the_points_named() {
        let lexed = |text: &'static str| {
            let mut lexer = Lexer::new(text);
            let mut v = Vec::new();
            while let Some(t) = lexer.next_token() {
                v.push(t.unwrap());
            }
            v
        };
        assert_eq!(rank_base(&lexed("1. Che3 Rih10")), RankBase::One);
        assert_eq!(rank_base(&lexed("1. h2e2 h9g7 2. h0g2")), RankBase::Zero);
        assert_eq!(rank_base(&lexed("1. Che3 Nhg8")), RankBase::One);
        assert_eq!(rank_base(&lexed("10. a3a4")), RankBase::One);
    }
}
