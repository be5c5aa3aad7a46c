//! The words exchanged with engines: the commands we write (`position`, `go`, `setoption`) in
//! UCI or UCCI, the lines we read (`uciok`, `info … score …`, `bestmove`), and moves in the
//! engine's rank numbering.

use crate::engine_spec::{Protocol, RankBase};
use std::time::Duration;
use xiangqi_rules::{Color, Move, Square};

/// A score an engine reports, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns.
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// Centipawns standing in for a mate score.
const MATE_CENTIPAWNS: i32 = 30_000;

impl EngineScore {
    /// The score in centipawns, mates mapped to ±30000 less their distance.
    pub fn centipawns(self) -> i32 {
        match self {
            EngineScore::Centipawns(cp) => cp,
            EngineScore::Mate(n) if n >= 0 => MATE_CENTIPAWNS - n.min(1000),
            EngineScore::Mate(n) => -MATE_CENTIPAWNS - n.max(-1000),
        }
    }

    /// The score as written in a PGN comment: `+0.35`, `-1.20`, `+M5`, `-M3`.
    pub fn pgn(self) -> String {
        match self {
            EngineScore::Centipawns(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            EngineScore::Mate(n) if n >= 0 => format!("+M{n}"),
            EngineScore::Mate(n) => format!("-M{}", -n),
        }
    }
}

/// What one `info` line tells.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Info {
    /// The depth reached.
    pub depth: Option<u32>,
    /// The score of the line, if the line has an exact one (bounds are left out).
    pub score: Option<EngineScore>,
    /// The line's number under MultiPV (1 is the best).
    pub multipv: Option<u32>,
    /// The first move of the principal variation, as the engine wrote it.
    pub first_move: Option<String>,
}

/// One line read from an engine, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name …`.
    IdName(String),
    /// `option name X …` (UCI) or `option X …` (UCCI): the option's name.
    Option(String),
    /// `uciok` or `ucciok`.
    HandshakeDone,
    /// `readyok`.
    ReadyOk,
    /// `info …`.
    Info(Info),
    /// `bestmove X …` with the move text, or `None` for `bestmove (none)`, `bestmove 0000`
    /// and UCCI's `nobestmove`.
    BestMove(Option<String>),
    /// `bye` (UCCI's answer to `quit`).
    Bye,
    /// Anything else.
    Other,
}

/// Classifies one line of engine output.
pub fn parse_line(line: &str) -> EngineLine {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("uciok" | "ucciok") => EngineLine::HandshakeDone,
        Some("readyok") => EngineLine::ReadyOk,
        Some("bye") => EngineLine::Bye,
        Some("nobestmove") => EngineLine::BestMove(None),
        Some("bestmove") => match words.next() {
            None | Some("(none)" | "0000" | "none" | "null") => EngineLine::BestMove(None),
            Some(m) => EngineLine::BestMove(Some(m.to_string())),
        },
        Some("id") if words.next() == Some("name") => {
            EngineLine::IdName(words.collect::<Vec<_>>().join(" "))
        }
        Some("option") => {
            let rest: Vec<&str> = words.collect();
            let rest = if rest.first() == Some(&"name") {
                &rest[1..]
            } else {
                &rest[..]
            };
            let name: Vec<&str> = rest.iter().take_while(|w| **w != "type").copied().collect();
            EngineLine::Option(name.join(" "))
        }
        Some("info") => EngineLine::Info(parse_info(words)),
        _ => EngineLine::Other,
    }
}

fn parse_info<'a>(words: impl Iterator<Item = &'a str>) -> Info {
    let words: Vec<&str> = words.collect();
    let mut info = Info::default();
    let mut bound = false;
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "depth" => {
                info.depth = words.get(i + 1).and_then(|w| w.parse().ok());
                i += 1;
            }
            "score" => {
                // UCI: `score cp N` / `score mate N`; UCCI: `score N` (centipawns).
                let (score, used) = match words.get(i + 1).copied() {
                    Some("cp") => (
                        words
                            .get(i + 2)
                            .and_then(|w| w.parse().ok())
                            .map(EngineScore::Centipawns),
                        2,
                    ),
                    Some("mate") => (
                        words
                            .get(i + 2)
                            .and_then(|w| w.parse().ok())
                            .map(EngineScore::Mate),
                        2,
                    ),
                    Some(w) => (w.parse().ok().map(EngineScore::Centipawns), 1),
                    None => (None, 0),
                };
                info.score = score;
                i += used;
            }
            "multipv" => {
                info.multipv = words.get(i + 1).and_then(|w| w.parse().ok());
                i += 1;
            }
            "lowerbound" | "upperbound" => bound = true,
            // The principal variation ends the line.
            "pv" => {
                info.first_move = words.get(i + 1).map(|w| w.to_string());
                break;
            }
            "string" => break,
            _ => {}
        }
        i += 1;
    }
    if bound {
        info.score = None;
    }
    info
}

/// Writes `m` with the engine's rank numbering: `h2e2`, or `h3e3` for ranks 1–10.
pub fn move_to_engine(m: Move, ranks: RankBase) -> String {
    match ranks {
        RankBase::Zero => m.to_string(),
        RankBase::One => {
            let point = |sq: Square| format!("{}{}", sq.file_char(), sq.rank() + 1);
            format!("{}{}", point(m.from()), point(m.to()))
        }
    }
}

/// Reads a move written with the engine's rank numbering (no legality check): `h2e2`, or
/// `h3e3` and `a10a9` for ranks 1–10.
pub fn move_from_engine(text: &str, ranks: RankBase) -> Option<Move> {
    let bytes = text.as_bytes();
    let base = match ranks {
        RankBase::Zero => 0u8,
        RankBase::One => 1,
    };
    let mut at = 0;
    let mut point = || -> Option<Square> {
        let file = bytes.get(at)?.to_ascii_lowercase().checked_sub(b'a')?;
        at += 1;
        let digits_start = at;
        while at < bytes.len() && bytes[at].is_ascii_digit() && at - digits_start < 2 {
            at += 1;
        }
        let rank: u8 = text.get(digits_start..at)?.parse().ok()?;
        Square::new(file, rank.checked_sub(base)?)
    };
    let from = point()?;
    let to = point()?;
    (at == bytes.len()).then(|| Move::new(from, to))
}

/// The `position` command: the start FEN and the moves played since, in the engine's
/// numbering.
pub fn position_command(start_fen: &str, moves: &[Move], ranks: RankBase) -> String {
    let mut line = format!("position fen {start_fen}");
    if !moves.is_empty() {
        line.push_str(" moves");
        for &m in moves {
            line.push(' ');
            line.push_str(&move_to_engine(m, ranks));
        }
    }
    line
}

/// The `setoption` command in the protocol's form.
pub fn setoption_command(protocol: Protocol, name: &str, value: &str) -> String {
    match protocol {
        Protocol::Uci => format!("setoption name {name} value {value}"),
        Protocol::Ucci => format!("setoption {name} {value}").trim_end().to_string(),
    }
}

/// What a `go` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoRequest {
    /// Search with the clocks running.
    Clock {
        /// Time left on each side's clock, indexed by [`Color::index`].
        remaining: [Duration; 2],
        /// The increment per move.
        increment: Duration,
        /// The side to move.
        side: Color,
    },
    /// Search this many nodes.
    Nodes(u64),
    /// Search to this depth.
    Depth(u32),
}

/// The `go` command in the protocol's form. UCCI gets the mover's `time` and `increment` in
/// milliseconds.
pub fn go_command(protocol: Protocol, request: GoRequest) -> String {
    match request {
        GoRequest::Nodes(n) => format!("go nodes {n}"),
        GoRequest::Depth(d) => format!("go depth {d}"),
        GoRequest::Clock {
            remaining,
            increment,
            side,
        } => {
            let ms = |d: Duration| d.as_millis();
            let inc = ms(increment);
            match protocol {
                Protocol::Uci => format!(
                    "go wtime {} btime {} winc {inc} binc {inc}",
                    ms(remaining[Color::Red.index()]),
                    ms(remaining[Color::Black.index()]),
                ),
                Protocol::Ucci => {
                    format!("go time {} increment {inc}", ms(remaining[side.index()]))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        move_from_engine(text, RankBase::Zero).unwrap()
    }

    #[test]
    fn moves_convert_between_rank_numberings() {
        let m = mv("h2e2");
        assert_eq!(move_to_engine(m, RankBase::One), "h3e3");
        assert_eq!(move_from_engine("h3e3", RankBase::One), Some(m));
        let m = mv("a9a8");
        assert_eq!(move_to_engine(m, RankBase::One), "a10a9");
        assert_eq!(move_from_engine("a10a9", RankBase::One), Some(m));
        assert_eq!(move_to_engine(m, RankBase::Zero), "a9a8");
    }

    #[test]
    fn malformed_moves_are_refused() {
        for bad in ["", "h2", "h2e", "j2e2", "h2e2x", "a10a9", "h2e22"] {
            assert_eq!(move_from_engine(bad, RankBase::Zero), None, "{bad}");
        }
        for bad in ["a0a1", "a11a9", "h3e3e"] {
            assert_eq!(move_from_engine(bad, RankBase::One), None, "{bad}");
        }
    }

    #[test]
    fn lines_are_classified() {
        assert_eq!(parse_line("uciok"), EngineLine::HandshakeDone);
        assert_eq!(parse_line("ucciok"), EngineLine::HandshakeDone);
        assert_eq!(parse_line("readyok"), EngineLine::ReadyOk);
        assert_eq!(
            parse_line("bestmove h2e2 ponder h9g7"),
            EngineLine::BestMove(Some("h2e2".into()))
        );
        assert_eq!(parse_line("bestmove (none)"), EngineLine::BestMove(None));
        assert_eq!(parse_line("nobestmove"), EngineLine::BestMove(None));
        assert_eq!(
            parse_line("id name Fairy-Stockfish 11.1 LB 64"),
            EngineLine::IdName("Fairy-Stockfish 11.1 LB 64".into())
        );
        assert_eq!(
            parse_line("option name Skill Level type spin default 20 min 0 max 20"),
            EngineLine::Option("Skill Level".into())
        );
        assert_eq!(
            parse_line("option usemillisec type check default false"),
            EngineLine::Option("usemillisec".into())
        );
        assert_eq!(
            parse_line("info string hello"),
            EngineLine::Info(Info::default())
        );
    }

    #[test]
    fn scores_are_read_in_both_dialects() {
        let info = |line: &str| match parse_line(line) {
            EngineLine::Info(info) => info,
            other => panic!("{other:?}"),
        };
        let uci = info("info depth 10 seldepth 15 multipv 2 score cp 48 nodes 64970 pv h0g2 h7h5");
        assert_eq!(uci.depth, Some(10));
        assert_eq!(uci.multipv, Some(2));
        assert_eq!(uci.first_move.as_deref(), Some("h0g2"));
        assert_eq!(uci.score, Some(EngineScore::Centipawns(48)));
        let mate = info("info depth 7 score mate -3 nodes 5 pv a0a1");
        assert_eq!(mate.score, Some(EngineScore::Mate(-3)));
        let ucci = info("info depth 9 score -35 time 10 nodes 99 pv h2e2");
        assert_eq!(ucci.score, Some(EngineScore::Centipawns(-35)));
        let bound = info("info depth 7 score cp 242 upperbound nodes 3035 pv g0e2");
        assert_eq!(bound.score, None);
    }

    #[test]
    fn scores_convert_to_centipawns_and_pgn() {
        assert_eq!(EngineScore::Centipawns(-120).pgn(), "-1.20");
        assert_eq!(EngineScore::Centipawns(35).pgn(), "+0.35");
        assert_eq!(EngineScore::Mate(5).pgn(), "+M5");
        assert_eq!(EngineScore::Mate(-3).pgn(), "-M3");
        assert_eq!(EngineScore::Mate(5).centipawns(), 29_995);
        assert_eq!(EngineScore::Mate(-3).centipawns(), -29_997);
    }

    #[test]
    fn commands_follow_the_protocol() {
        let request = GoRequest::Clock {
            remaining: [Duration::from_millis(4000), Duration::from_millis(3500)],
            increment: Duration::from_millis(50),
            side: Color::Black,
        };
        assert_eq!(
            go_command(Protocol::Uci, request),
            "go wtime 4000 btime 3500 winc 50 binc 50"
        );
        assert_eq!(
            go_command(Protocol::Ucci, request),
            "go time 3500 increment 50"
        );
        assert_eq!(
            go_command(Protocol::Ucci, GoRequest::Depth(3)),
            "go depth 3"
        );
        assert_eq!(
            setoption_command(Protocol::Uci, "Hash", "16"),
            "setoption name Hash value 16"
        );
        assert_eq!(
            setoption_command(Protocol::Ucci, "hashsize", "16"),
            "setoption hashsize 16"
        );
        let fen = xiangqi_rules::START_FEN;
        assert_eq!(
            position_command(fen, &[mv("h2e2"), mv("h9g7")], RankBase::One),
            format!("position fen {fen} moves h3e3 h10g8")
        );
        assert_eq!(
            position_command(fen, &[], RankBase::Zero),
            format!("position fen {fen}")
        );
    }
}
