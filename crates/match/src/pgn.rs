//! Games written as PGN through the records crate's writer, in the xqbase convention:
//! `[Game "Chinese Chess"]` first, the event, site, date, round and engines, `[FEN …]` when
//! the game does not start from the start position, `[Format "ICCS"]`, the time control, the
//! ply count and a `Termination` tag; moves in ICCS (`H2-E2`), each with a
//! `{score/depth time}` comment, and the reason the game ended in words after the last move.

use crate::game::GameRecord;
use xiangqi_engine::protocol::Reported;
use xiangqi_records::{Game, Line, MoveNode};
use xiangqi_rules::Position;
use xiangqi_rules::notation::Notation;

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

/// The record of a match game: the tags, each move with what its engine said and how long
/// it took, the result, and the reason the game ended after the last move.
pub fn record_of(header: &PgnHeader, game: &GameRecord) -> Game {
    // The opening's FEN was checked when the openings were read.
    let start = Position::from_fen(&game.start_fen).unwrap_or_else(|_| Position::startpos());
    let mut record = Game::new(start);
    for (name, value) in [
        ("Event", header.event.as_str()),
        ("Site", &header.site),
        ("Date", &header.date),
        ("Round", &header.round),
        ("Red", &game.red),
        ("Black", &game.black),
        ("TimeControl", &header.time_control),
        ("PlyCount", &game.moves.len().to_string()),
        ("Termination", game.outcome.termination.pgn_tag()),
    ] {
        record.tags.set(name, value);
    }
    record.moves = Line {
        comment: None,
        moves: game
            .moves
            .iter()
            .map(|played| {
                let mut node = MoveNode::new(played.mv);
                let evaluation = match (played.score, played.depth) {
                    (Some(score), Some(depth)) => format!("{}/{depth} ", score_text(score)),
                    (Some(score), None) => format!("{} ", score_text(score)),
                    (None, _) => String::new(),
                };
                node.comment = Some(format!("{evaluation}{:.3}s", played.elapsed.as_secs_f64()));
                node
            })
            .collect(),
    };
    record.result = Some(game.outcome.result);
    record.add_final_comment(&game.outcome.termination.to_string());
    record
}

/// The game as PGN text, ending with a blank line.
pub fn format_game(header: &PgnHeader, game: &GameRecord) -> String {
    let mut record = record_of(header, game);
    let text = xiangqi_records::pgn::write_game(&record, Notation::Iccs).unwrap_or_else(|e| {
        // The arbiter lets only legal moves into a game; should one not be, the game is
        // still written, with what is wrong in place of its moves.
        record.moves = Line::default();
        record.add_final_comment(&format!("the moves cannot be written: {e}"));
        xiangqi_records::pgn::write_game(&record, Notation::Iccs).unwrap_or_default()
    });
    text + "\n"
}

/// A score as written in a move comment: `+0.35`, `-1.20`, `+M5`, `-M3`.
fn score_text(score: Reported) -> String {
    match score {
        Reported::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Reported::Mate(n) if n > 0 => format!("+M{n}"),
        Reported::Mate(n) => format!("-M{}", -n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::PlayedMove;
    use crate::outcome::{GameEnd, Termination};
    use xiangqi_rules::Color;

    use std::time::Duration;
    use xiangqi_rules::{Move, Square};

    fn mv(text: &str) -> Move {
        let sq = |t: &str| t.parse::<Square>().unwrap();
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
                played("h9g7", Some(Reported::Cp(-12))),
                played("h0g2", None),
                played("i9h9", Some(Reported::Mate(3))),
            ],
            outcome: GameEnd::loss(
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
            "1... H9-G7 {-0.12/7 0.120s} 2. H0-G2 {0.120s} 2... I9-H9 {+M3/7 0.120s \
             Black engine crashed: it exited with status 1} 1-0"
        );
        assert!(text.ends_with("1-0\n\n"));
        // The records reader gives back the moves, the comments and the tags.
        let back = xiangqi_records::pgn::read_str(&text).unwrap().remove(0);
        assert_eq!(back, record_of(&header(), &game));
        assert_eq!(
            back.moves.moves[2].comment.as_deref(),
            Some("+M3/7 0.120s\nBlack engine crashed: it exited with status 1")
        );
        assert_eq!(back.tags.get("TimeControl"), Some("5+0.05"));
    }

    #[test]
    fn start_position_has_no_fen_tag() {
        let game = GameRecord {
            start_fen: xiangqi_rules::START_FEN.into(),
            moves: vec![],
            outcome: GameEnd::draw(Termination::MaxPlies { plies: 0 }),
            red: "a".into(),
            black: "b".into(),
        };
        let text = format_game(&header(), &game);
        assert!(!text.contains("[FEN"), "{text}");
        assert!(text.contains("{draw: the game reached 0 plies} 1/2-1/2"));
        assert!(text.contains("[Result \"1/2-1/2\"]"));
    }
}
