//! `info` lines: what an engine reports while it searches — depth, selective depth, the
//! line's number under MultiPV, the score (exact or a bound), nodes, speed, table use, time
//! and the principal variation — or a free `string`.
//!
//! Reading is lenient, since engines add words of their own (`currmove`, `tbhits`, `wdl`):
//! unknown words are skipped, a number that does not read leaves its field out, and the
//! principal variation ends at the first word that is not a move.

use super::{Dialect, Reported};
use std::fmt;
use std::time::Duration;
use xiangqi_rules::{Move, RankBase};

/// A score that is only a bound, after an aspiration window failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreBound {
    /// `lowerbound`: the score is at least this.
    Lower,
    /// `upperbound`: the score is at most this.
    Upper,
}

impl ScoreBound {
    /// The protocol word.
    pub const fn word(self) -> &'static str {
        match self {
            ScoreBound::Lower => "lowerbound",
            ScoreBound::Upper => "upperbound",
        }
    }
}

/// What one `info` line tells. Unset fields were not given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`: the iteration.
    pub depth: Option<u32>,
    /// `seldepth`: the deepest ply reached.
    pub seldepth: Option<u32>,
    /// `multipv`: the line's number (1 is the best).
    pub multipv: Option<u32>,
    /// `score`.
    pub score: Option<Reported>,
    /// `lowerbound` or `upperbound` after the score.
    pub bound: Option<ScoreBound>,
    /// `nodes`: nodes searched.
    pub nodes: Option<u64>,
    /// `nps`: nodes per second.
    pub nps: Option<u64>,
    /// `hashfull`: permille of the table in use.
    pub hashfull: Option<u32>,
    /// `time`: time searched, whole milliseconds.
    pub time: Option<Duration>,
    /// `pv`: the principal variation.
    pub pv: Vec<Move>,
    /// `string`: free text, the rest of the line.
    pub string: Option<String>,
}

impl Info {
    /// Free text: `info string <text>`.
    pub fn text(text: impl Into<String>) -> Info {
        Info {
            string: Some(text.into()),
            ..Info::default()
        }
    }

    /// The score when it is exact (not a bound).
    pub fn exact_score(&self) -> Option<Reported> {
        self.score.filter(|_| self.bound.is_none())
    }

    /// Reads the words after `info`, moves with ranks numbered from `ranks`.
    pub fn parse(rest: &str, ranks: RankBase) -> Info {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let mut info = Info::default();
        let mut i = 0;
        while i < words.len() {
            let next = words.get(i + 1).copied().unwrap_or("");
            let mut consumed = 2;
            match words[i] {
                "depth" => info.depth = next.parse().ok(),
                "seldepth" => info.seldepth = next.parse().ok(),
                "multipv" => info.multipv = next.parse().ok(),
                "nodes" => info.nodes = next.parse().ok(),
                "nps" => info.nps = next.parse().ok(),
                "hashfull" => info.hashfull = next.parse().ok(),
                "time" => info.time = next.parse().ok().map(Duration::from_millis),
                "score" => match Reported::read_words(&words[i + 1..]) {
                    Some((score, used)) => {
                        info.score = Some(score);
                        consumed = 1 + used;
                    }
                    None => consumed = 1,
                },
                "lowerbound" => {
                    info.bound = Some(ScoreBound::Lower);
                    consumed = 1;
                }
                "upperbound" => {
                    info.bound = Some(ScoreBound::Upper);
                    consumed = 1;
                }
                "pv" => {
                    info.pv = words[i + 1..]
                        .iter()
                        .map_while(|text| Move::parse_coordinates(text, ranks).ok())
                        .collect();
                    consumed = 1 + info.pv.len();
                }
                "string" => {
                    info.string = Some(text_after(rest, words[i]).to_string());
                    break;
                }
                _ => consumed = 1,
            }
            i += consumed;
        }
        info
    }

    /// The line: `info` and every field given, the score in `dialect`'s form, moves with
    /// ranks numbered from `ranks`, the string last.
    pub fn format(&self, dialect: Dialect, ranks: RankBase) -> String {
        let mut line = String::from("info");
        push_field(&mut line, "depth", self.depth);
        push_field(&mut line, "seldepth", self.seldepth);
        push_field(&mut line, "multipv", self.multipv);
        push_field(&mut line, "score", self.score.map(|s| s.words(dialect)));
        if let Some(bound) = self.bound {
            line.push(' ');
            line.push_str(bound.word());
        }
        push_field(&mut line, "nodes", self.nodes);
        push_field(&mut line, "nps", self.nps);
        push_field(&mut line, "hashfull", self.hashfull);
        push_field(&mut line, "time", self.time.map(|t| t.as_millis()));
        if !self.pv.is_empty() {
            line.push_str(" pv");
            for m in &self.pv {
                line.push(' ');
                line.push_str(&m.coordinates(ranks));
            }
        }
        if let Some(text) = &self.string {
            line.push_str(" string ");
            line.push_str(text);
        }
        line
    }
}

/// Appends ` word value` when there is a value.
fn push_field(line: &mut String, word: &str, value: Option<impl fmt::Display>) {
    if let Some(value) = value {
        line.push_str(&format!(" {word} {value}"));
    }
}

/// The text of `line` after `word`, a slice of it, with the spaces around it trimmed.
fn text_after<'a>(line: &'a str, word: &'a str) -> &'a str {
    let start = word.as_ptr() as usize - line.as_ptr() as usize + word.len();
    line[start..].trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn uci_lines_are_read_with_every_field() {
        let info = Info::parse(
            "depth 10 seldepth 15 multipv 2 score cp 48 nodes 64970 nps 1000 hashfull 3 \
             time 65 pv h0g2 h7h5",
            RankBase::Zero,
        );
        assert_eq!(info.depth, Some(10));
        assert_eq!(info.seldepth, Some(15));
        assert_eq!(info.multipv, Some(2));
        assert_eq!(info.exact_score(), Some(Reported::Cp(48)));
        assert_eq!(info.nodes, Some(64970));
        assert_eq!(info.time, Some(Duration::from_millis(65)));
        assert_eq!(info.pv, [mv("h0g2"), mv("h7h5")]);
    }

    #[test]
    fn bounds_mates_and_ucci_scores_are_read() {
        let bound = Info::parse(
            "depth 7 score cp 242 upperbound nodes 3035 pv g0e2",
            RankBase::Zero,
        );
        assert_eq!(bound.bound, Some(ScoreBound::Upper));
        assert_eq!(bound.exact_score(), None);
        assert_eq!(bound.nodes, Some(3035));
        let mate = Info::parse("depth 7 score mate -3 nodes 5 pv a0a1", RankBase::Zero);
        assert_eq!(mate.score, Some(Reported::Mate(-3)));
        let ucci = Info::parse("depth 9 score -35 time 10 nodes 99 pv h2e2", RankBase::Zero);
        assert_eq!(ucci.score, Some(Reported::Cp(-35)));
    }

    #[test]
    fn unknown_words_are_skipped_and_the_pv_ends_at_a_non_move() {
        let info = Info::parse(
            "depth x currmove h3e3 currmovenumber 2 wdl 1 2 3 pv h3e3 a10a9 bogus",
            RankBase::One,
        );
        assert_eq!(info.depth, None);
        assert_eq!(info.pv, [mv("h2e2"), mv("a9a8")]);
        let text = Info::parse("string hello  world ", RankBase::Zero);
        assert_eq!(text, Info::text("hello  world"));
    }

    #[test]
    fn lines_are_written_in_the_dialects_form() {
        let info = Info {
            depth: Some(5),
            score: Some(Reported::Mate(2)),
            nodes: Some(100),
            time: Some(Duration::from_millis(7)),
            pv: vec![mv("a9a8")],
            ..Info::default()
        };
        assert_eq!(
            info.format(Dialect::Uci, RankBase::One),
            "info depth 5 score mate 2 nodes 100 time 7 pv a10a9"
        );
        assert_eq!(
            info.format(Dialect::Ucci, RankBase::Zero),
            "info depth 5 score 29998 nodes 100 time 7 pv a9a8"
        );
        assert_eq!(
            Info::text("error: x").format(Dialect::Uci, RankBase::Zero),
            "info string error: x"
        );
    }
}
