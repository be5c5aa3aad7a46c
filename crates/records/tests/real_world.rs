//! Files shaped as sites and programs serve them (`tests/real-world`, see its README): each
//! opens, what is outside games is skipped with a warning, a broken game is named and the
//! others open, and writing warns of everything a format cannot hold.

mod support;

use support::real_world as file;
use xiangqi_records::{
    ErrorKind, Game, GameResult, MoveError, OutputFormat, Place, RecordFormat, TextEncoding,
    WarningKind, dhtmlxq, pgn, xqf,
};
use xiangqi_rules::notation::Notation;

fn iccs(game: &Game) -> Vec<String> {
    game.mainline().map(|m| m.to_string()).collect()
}

fn skipped_texts(warnings: &[xiangqi_records::Warning]) -> Vec<String> {
    warnings
        .iter()
        .map(|w| match &w.kind {
            WarningKind::SkippedText { text } => text.clone(),
            other => panic!("not skipped text: {other:?}"),
        })
        .collect()
}

#[test]
fn an_xqbase_download_in_gbk_with_crlf_and_a_trailer_opens() {
    let bytes = file("xqbase-gbk-crlf.pgn");
    assert!(std::str::from_utf8(&bytes).is_err(), "the file is GBK");
    assert!(bytes.windows(2).any(|w| w == b"\r\n"), "the file has CRLF");
    let read = RecordFormat::detect(&bytes, Some("pgn"))
        .read(&bytes)
        .unwrap();
    assert_eq!(read.len(), 1);
    let game = read.games[0].as_ref().expect("the game opens");
    assert_eq!(
        iccs(game),
        [
            "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5", "h0h6", "h7i7", "h6g6",
            "i7i8", "b0c2", "d9e8"
        ]
    );
    assert_eq!(game.result, Some(GameResult::Draw));
    assert_eq!(game.tags.get("Red"), Some("吕钦"));
    // Blank values are as good as absent: no empty Site, no bad FEN.
    assert_eq!(game.tags.get("Site"), None);
    assert_eq!(game.tags.get("Round"), None);
    assert_eq!(game.start, xiangqi_rules::Position::startpos());
    // The paragraphs keep their full-width indent; CRLF becomes a plain line break.
    assert_eq!(
        game.moves.comment.as_deref(),
        Some("\u{3000}\u{3000}本局选自全国个人赛。\n\u{3000}\u{3000}双方以中炮对屏风马开局。")
    );
    // The trailer is one skipped stretch, named with its line.
    assert_eq!(read.warnings.len(), 1, "{:?}", read.warnings);
    let warning = &read.warnings[0];
    assert_eq!(
        warning.place,
        Some(Place::Text {
            line: 26,
            column: 1
        })
    );
    assert!(skipped_texts(&read.warnings)[0].starts_with("======"));
    assert!(warning.to_string().contains("line 26"), "{warning}");
    // The strict reader opens it too.
    assert_eq!(pgn::read(&bytes).unwrap()[0], *game);
}

#[test]
fn a_broken_game_is_named_and_the_others_open() {
    let bytes = file("collection-one-broken.pgn");
    let read = pgn::read_all(&bytes).unwrap();
    assert_eq!(read.len(), 3);
    let good: Vec<&str> = read.good().map(|g| g.tags.get("Event").unwrap()).collect();
    assert_eq!(good, ["第一局", "第三局"]);
    assert_eq!(
        iccs(read.games[2].as_ref().unwrap()),
        ["c3c4", "c6c5", "b2c2"]
    );
    let errors: Vec<_> = read.errors().collect();
    assert_eq!(errors.len(), 1);
    let e = errors[0];
    assert_eq!(e.game, Some(2));
    assert_eq!(
        e.place,
        Place::Text {
            line: 18,
            column: 4
        }
    );
    match &e.kind {
        ErrorKind::IllegalMove {
            number,
            text,
            reason,
        } => {
            assert_eq!(number.to_string(), "2.");
            assert_eq!(text, "A0-A9");
            match reason.as_ref() {
                MoveError::Illegal(rule) => assert_eq!(rule.code(), "chariot-path-blocked"),
                other => panic!("{other:?}"),
            }
        }
        other => panic!("{other:?}"),
    }
    let message = e.to_string();
    assert!(
        message.starts_with("game 2, line 18, column 4"),
        "{message}"
    );
    assert!(message.contains("A0-A9"), "{message}");
    // The strict reader stops at it.
    assert_eq!(pgn::read(&bytes).unwrap_err().game, Some(2));
}

#[test]
fn text_before_between_and_after_games_is_skipped_with_warnings() {
    let bytes = file("text-around-games.pgn");
    let read = pgn::read_all(&bytes).unwrap();
    assert_eq!(read.len(), 2, "{:?}", read.games);
    let games = read.clone().into_games().unwrap();
    assert_eq!(iccs(&games[0]), ["h2e2", "h9g7", "h0g2", "i9h9"]);
    assert_eq!(games[0].tags.get("Date"), None);
    assert_eq!(iccs(&games[1]), ["b2e2", "b9c7"]);
    let texts = skipped_texts(&read.warnings);
    assert_eq!(texts.len(), 4, "{texts:?}");
    assert!(texts[0].starts_with("象棋对局集锦"), "{texts:?}");
    assert!(texts[1].starts_with("-----"), "{texts:?}");
    assert!(texts[2].starts_with("[本谱由"), "{texts:?}");
    assert!(texts[3].starts_with("共 2 局"), "{texts:?}");
    let lines: Vec<_> = read.warnings.iter().map(|w| w.place).collect();
    assert_eq!(
        lines,
        [1, 12, 13, 21].map(|line| Some(Place::Text { line, column: 1 }))
    );
}

#[test]
fn a_file_of_nothing_but_other_text_is_an_error_that_says_so() {
    let e = pgn::read_all_str("欢迎访问\nhttp://www.example.com/\n").unwrap_err();
    assert_eq!(e.place, Place::Text { line: 1, column: 1 });
    assert!(e.to_string().contains("expected a PGN game"), "{e}");
}

#[test]
fn writing_xqf_cuts_long_fields_with_warnings_and_keeps_the_indent() {
    let game = pgn::read(&file("long-names.pgn")).unwrap().remove(0);
    let written = xqf::write(&game).unwrap();
    let back = xqf::read(&written.bytes).unwrap();
    let red = back.tags.get("Red").unwrap();
    assert!(game.tags.get("Red").unwrap().starts_with(red) && red.len() < 30);
    assert_eq!(red, "广东碧桂园象棋"); // 7 characters, 14 of 15 GBK bytes
    assert_eq!(back.tags.get("ECCO"), None);
    assert_eq!(
        back.moves.moves[0].comment.as_deref(),
        Some("\u{3000}\u{3000}中炮开局。")
    );
    let kinds: Vec<&WarningKind> = written.warnings.iter().map(|w| &w.kind).collect();
    assert!(kinds.iter().any(|k| matches!(k,
        WarningKind::TagCut { tag, limit: 15, kept, cut }
            if tag == "Red" && kept == "广东碧桂园象棋" && cut == "队特级大师许银川")));
    assert!(kinds.iter().any(|k| matches!(k,
        WarningKind::TagCut { tag, limit: 63, .. } if tag == "Event")));
    assert!(kinds.iter().any(|k| matches!(k,
        WarningKind::TagDropped { tag } if tag == "ECCO")));
    assert!(
        kinds
            .iter()
            .any(|k| matches!(k, WarningKind::NagsDropped { count: 1 }))
    );
    assert_eq!(kinds.len(), 4, "{kinds:?}");
    assert!(written.warnings.iter().all(|w| w.game == Some(1)));
    let shown = written.warnings[0].to_string();
    assert!(shown.starts_with("game 1, "), "{shown}");
}

#[test]
fn a_comment_longer_than_xqf_holds_is_cut_with_a_warning() {
    let mut game = pgn::read(&file("long-names.pgn")).unwrap().remove(0);
    let limit = xqf::MAX_COMMENT_BYTES;
    // Each 中 is two GBK bytes: one character too many.
    game.moves.moves[1].comment = Some("中".repeat(limit / 2 + 1));
    let written = xqf::write(&game).unwrap();
    let back = xqf::read(&written.bytes).unwrap();
    assert_eq!(
        back.moves.moves[1]
            .comment
            .as_deref()
            .map(|c| c.chars().count()),
        Some(limit / 2)
    );
    let cut: Vec<_> = written
        .warnings
        .iter()
        .filter_map(|w| match &w.kind {
            WarningKind::CommentCut {
                number,
                limit,
                cut_chars,
            } => Some((number.map(|n| n.to_string()), *limit, *cut_chars)),
            _ => None,
        })
        .collect();
    assert_eq!(cut, [(Some("1...".to_string()), limit, 1)]);
}

#[test]
fn dhtmlxq_warns_of_what_it_leaves_out_and_pgn_of_nothing() {
    let game = pgn::read(&file("long-names.pgn")).unwrap().remove(0);
    let written = OutputFormat::DhtmlXq
        .write(std::slice::from_ref(&game))
        .unwrap();
    let kinds: Vec<_> = written.warnings.iter().map(|w| w.kind.clone()).collect();
    assert_eq!(kinds, [WarningKind::NagsDropped { count: 1 }]);
    let back = dhtmlxq::read(&written.bytes).unwrap().remove(0);
    assert_eq!(back.tags.get("Red"), game.tags.get("Red"));
    assert_eq!(back.moves.moves[0].comment, game.moves.moves[0].comment);
    let pgn = OutputFormat::Pgn(Notation::Chinese)
        .write(std::slice::from_ref(&game))
        .unwrap();
    assert!(pgn.warnings.is_empty());
    assert_eq!(pgn::read(&pgn.bytes).unwrap()[0], game);
}

#[test]
fn a_comment_left_open_ends_at_the_next_game() {
    let text = "[Event \"1\"]\n\n1. h2e2 {never closed h9g7 *\n\n\
                [Event \"2\"]\n\n1. b2e2 b9c7 *\n";
    let read = pgn::read_all_str(text).unwrap();
    assert_eq!(read.len(), 2);
    let e = read.games[0].as_ref().unwrap_err();
    assert_eq!(e.place, Place::Text { line: 5, column: 1 });
    assert!(
        e.to_string()
            .contains("`}` to close the comment opened at line 3, column 9"),
        "{e}"
    );
    assert_eq!(iccs(read.games[1].as_ref().unwrap()), ["b2e2", "b9c7"]);
    // A comment holding such a line is written so that it reads back whole.
    let mut game = read.games[1].clone().unwrap();
    game.moves.moves[0].comment = Some("见下局\n[Event \"x\"] 之注".to_string());
    let text = pgn::write_game(&game, Notation::Wxf).unwrap();
    assert_eq!(pgn::read_str(&text).unwrap(), [game]);
}

/// The moves of `game` in WXF, the notation whose digits are easy to check by hand.
fn wxf(game: &Game) -> Vec<String> {
    let mut position = game.start.clone();
    game.mainline()
        .map(|m| {
            let said = xiangqi_rules::notation::format_move(&position, m, Notation::Wxf);
            position = position.after(m);
            said
        })
        .collect()
}

#[test]
fn a_taiwan_site_game_in_big5_with_traditional_characters_opens() {
    let bytes = file("ccpd-big5-game.pgn");
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the file is not UTF-8"
    );
    let read = pgn::read_all(&bytes).unwrap();
    assert_eq!(read.encoding, Some(TextEncoding::Big5));
    assert_eq!(read.len(), 1);
    let game = read.games[0].as_ref().expect("the game opens");
    assert_eq!(game.tags.get("Red"), Some("東北韓福德"));
    assert_eq!(game.tags.get("Black"), Some("上海胡榮華"));
    assert_eq!(game.tags.get("Site"), Some("哈爾濱"));
    assert_eq!(game.tags.get("ECCO"), Some("D03"));
    assert_eq!(game.result, Some(GameResult::RedWins));
    assert_eq!(game.start, xiangqi_rules::Position::startpos());
    // 炮八平五 炮２平５ 車九進一 馬２進３ 馬八進七 馬８進９: traditional characters, Black's
    // files in full-width digits.
    assert_eq!(
        wxf(game)[..6],
        ["C8=5", "C2=5", "R9+1", "H2+3", "H8+7", "H8+9"]
    );
    assert_eq!(iccs(game)[..4], ["b2e2", "b7e7", "a0a1", "b9c7"]);
    assert!(game.mainline().count() > 60, "the whole game");
    // The same file, as UTF-8, reads as the same game.
    let (text, _, _) = encoding_rs::BIG5.decode(&bytes);
    let again = pgn::read_all(text.as_bytes()).unwrap();
    assert_eq!(again.encoding, Some(TextEncoding::Utf8));
    assert_eq!(again.games[0].as_ref().unwrap(), game);
}

#[test]
fn a_big5_position_with_black_to_move_opens() {
    let bytes = file("ccpd-big5-position.pgn");
    let read = RecordFormat::detect(&bytes, Some("pgn"))
        .read(&bytes)
        .unwrap();
    assert_eq!(read.encoding, Some(TextEncoding::Big5));
    let game = read.games[0].as_ref().expect("the position opens");
    assert_eq!(game.start.side_to_move(), xiangqi_rules::Color::Black);
    assert_eq!(game.tags.get("Black"), Some("河北劉殿中"));
    // 車１進３ 帥六進一 車１平７ 車三退三 馬７進６ 帥六進一 馬６進７.
    assert_eq!(
        wxf(game),
        ["R1+3", "K6+1", "R1=7", "R3-3", "H7+6", "K6+1", "H6+7"]
    );
    assert_eq!(game.result, Some(GameResult::BlackWins));
}

#[test]
fn a_big5_file_with_an_illegal_move_names_it_in_its_own_characters() {
    let bytes = file("ccpd-big5-illegal-move.pgn");
    let read = pgn::read_all(&bytes).unwrap();
    assert_eq!(read.encoding, Some(TextEncoding::Big5));
    let e = read.games[0].as_ref().unwrap_err();
    let message = e.to_string();
    assert!(message.contains("10... 馬６退７"), "{message}");
    assert!(message.contains("in check"), "{message}");
    assert_eq!(
        e.place,
        Place::Text {
            line: 23,
            column: 10
        }
    );
    assert_eq!(e.partial.as_ref().map(|p| p.mainline().count()), Some(18));
}
