//! Games written as PGN in the xqbase convention: `[Game "Chinese Chess"]` first, Red and
//! Black, `[FEN …]` when the game does not start from the start position, `[Format "ICCS"]`,
//! moves in ICCS with ranks 0–9, each with a `{score/depth time}` comment, and the reason the
//! game ended as a `Termination` tag and a final comment.

use crate::game::GameRecord;
use crate::outcome::pgn_result;
use std::fmt::Write as _;
use xiangqi_engine::protocol::ProtocolScore;
use xiangqi_rules::{Color, Position};

/// The tags that are the same for every game of a match, plus the round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnHeader {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Date`, `YYYY.MM.DD`.
    pub date: String,
    /// `Round`, e.g. `12.2` (opening 12, second game).
    pub round: String,
    /// `TimeControl`.
    pub time_control: String,
}

/// The game as PGN text, ending with a blank line.
pub fn format_game(header: &PgnHeader, game: &GameRecord) -> String {
    let mut out = String::new();
    let result = pgn_result(game.outcome.result);
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    };
    tag("Game", "Chinese Chess");
    tag("Event", &header.event);
    tag("Site", &header.site);
    tag("Date", &header.date);
    tag("Round", &header.round);
    tag("Red", &game.red);
    tag("Black", &game.black);
    tag("Result", result);
    let start = Position::from_fen(&game.start_fen).ok();
    let is_start = start.as_ref().is_some_and(|p| *p == Position::startpos());
    if !is_start {
        tag("FEN", &game.start_fen);
    }
    tag("Format", "ICCS");
    tag("TimeControl", &header.time_control);
    tag("PlyCount", &game.moves.len().to_string());
    tag("Termination", game.outcome.termination.pgn_tag());
    out.push('\n');

    let (mut number, mut side) = start.as_ref().map_or((1, Color::Red), |p| {
        (p.fullmove_number().max(1), p.side_to_move())
    });
    let mut text = String::new();
    for (i, played) in game.moves.iter().enumerate() {
        if side == Color::Red {
            let _ = write!(text, "{number}. ");
        } else if i == 0 {
            let _ = write!(text, "{number}... ");
        }
        let _ = write!(text, "{}", played.mv);
        let evaluation = match (played.score, played.depth) {
            (Some(score), Some(depth)) => format!("{}/{depth} ", score_text(score)),
            (Some(score), None) => format!("{} ", score_text(score)),
            (None, _) => String::new(),
        };
        let _ = write!(
            text,
            " {{{evaluation}{:.3}s}} ",
            played.elapsed.as_secs_f64()
        );
        if side == Color::Black {
            number += 1;
        }
        side = side.opponent();
    }
    let _ = write!(
        text,
        "{{{}}} {result}",
        game.outcome.termination.to_string().replace('}', ")")
    );
    out.push_str(&wrap(&text, 80));
    out.push_str("\n\n");
    out
}

/// A score as written in a move comment: `+0.35`, `-1.20`, `+M5`, `-M3`.
fn score_text(score: ProtocolScore) -> String {
    match score {
        ProtocolScore::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        ProtocolScore::Mate(n) if n > 0 => format!("+M{n}"),
        ProtocolScore::Mate(n) => format!("-M{}", -n),
    }
}

/// Escapes a tag value.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Breaks `text` at spaces outside comments where lines would pass `width` characters.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    let mut in_comment = false;
    let mut token = String::new();
    let flush = |out: &mut String, token: &mut String, line_len: &mut usize| {
        if token.is_empty() {
            return;
        }
        let len = token.chars().count();
        if *line_len > 0 && *line_len + 1 + len > width {
            out.push('\n');
            *line_len = 0;
        } else if *line_len > 0 {
            out.push(' ');
            *line_len += 1;
        }
        out.push_str(token);
        *line_len += len;
        token.clear();
    };
    for c in text.chars() {
        match c {
            '{' => {
                in_comment = true;
                token.push(c);
            }
            '}' => {
                in_comment = false;
                token.push(c);
            }
            ' ' if !in_comment => flush(&mut out, &mut token, &mut line_len),
            c => token.push(c),
        }
    }
    flush(&mut out, &mut token, &mut line_len);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::PlayedMove;
    use crate::outcome::{Outcome, Termination};

    use std::time::Duration;
    use xiangqi_rules::{Move, Square};

    fn mv(text: &str) -> Move {
        let sq = |t: &str| Square::parse(t).unwrap();
        Move::new(sq(&text[..2]), sq(&text[2..]))
    }

    fn header() -> PgnHeader {
        PgnHeader {
            event: "Test \"match\"".into(),
            site: "here".into(),
            date: "2025.01.02".into(),
            round: "3.2".into(),
            time_control: "5+0.05".into(),
        }
    }

    #[test]
    fn game_from_a_black_to_move_fen_has_tags_numbers_and_reason() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        let played = |m: &str, score| PlayedMove {
            mv: mv(m),
            score,
            depth: Some(7),
            elapsed: Duration::from_millis(120),
        };
        let game = GameRecord {
            start_fen: fen.into(),
            moves: vec![
                played("h9g7", Some(ProtocolScore::Cp(-12))),
                played("h0g2", None),
                played("i9h9", Some(ProtocolScore::Mate(3))),
            ],
            outcome: Outcome::loss(
                Color::Black,
                Termination::Fault {
                    side: Color::Black,
                    fault: crate::player::Fault::Crash(crate::process::ProcessEnd::Exited(1)),
                },
            ),
            red: "dev".into(),
            black: "fake".into(),
        };
        let text = format_game(&header(), &game);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "[Game \"Chinese Chess\"]");
        assert!(lines.contains(&"[Event \"Test \\\"match\\\"\"]"), "{text}");
        assert!(lines.contains(&"[Red \"dev\"]"));
        assert!(lines.contains(&"[Black \"fake\"]"));
        assert!(lines.contains(&"[Result \"1-0\"]"));
        assert!(lines.contains(&format!("[FEN \"{fen}\"]").as_str()));
        assert!(lines.contains(&"[Format \"ICCS\"]"));
        assert!(lines.contains(&"[Termination \"abandoned\"]"));
        assert!(lines.contains(&"[PlyCount \"3\"]"));
        let moves = text
            .split("\n\n")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(
            moves,
            "1... h9g7 {-0.12/7 0.120s} 2. h0g2 {0.120s} i9h9 {+M3/7 0.120s} \
             {Black engine crashed: it exited with status 1} 1-0"
        );
        assert!(text.ends_with("1-0\n\n"));
    }

    #[test]
    fn start_position_has_no_fen_tag() {
        let game = GameRecord {
            start_fen: xiangqi_rules::START_FEN.into(),
            moves: vec![],
            outcome: Outcome::draw(Termination::MaxPlies { plies: 0 }),
            red: "a".into(),
            black: "b".into(),
        };
        let text = format_game(&header(), &game);
        assert!(!text.contains("[FEN"), "{text}");
        assert!(text.contains("{draw: the game reached 0 plies} 1/2-1/2"));
    }

    #[test]
    fn wrapping_keeps_comments_whole() {
        let text = "1. h2e2 {+0.10/5 0.1s} h9g7 {a long comment with spaces}";
        let wrapped = wrap(text, 20);
        assert!(wrapped.lines().all(|l| l.len() <= 30), "{wrapped}");
        assert!(wrapped.contains("{a long comment with spaces}"));
        assert_eq!(
            wrapped.split_whitespace().collect::<Vec<_>>(),
            text.split_whitespace().collect::<Vec<_>>()
        );
    }
}
