//! The endgame results every learner is taught, as data (`data/known_results.tsv`), and their
//! check against the tables: the tables are exact under our rules, the books are the
//! independent source.

use crate::ending::Ending;
use crate::error::EgtbError;
use crate::probe::Tablebases;
use crate::table::SideCounts;
use crate::value::{Asian, Value};
use xiangqi_rules::{Color, PieceKind, Position, Square};

/// The file of known results, one fact or position per line (its header says how to read it).
pub const KNOWN_RESULTS: &str = include_str!("../data/known_results.tsv");

/// What a fact claims about an ending's table, with the stronger side to move unless said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// Every position is won; with the weaker side to move every draw has a capture that
    /// draws.
    Won,
    /// At least 99% of the positions are won.
    MostlyWon,
    /// Every position is drawn, whichever side is to move.
    Drawn,
    /// Most positions are drawn, and some are won.
    MostlyDrawn,
    /// A position is won exactly when the soldier has not reached the bottom rank.
    BottomRank,
    /// With every soldier high (not yet on the ranks of the other side's palace), at least
    /// 95% of the positions are won.
    HighMostlyWon,
    /// With every soldier high, more than half of the positions are won.
    HighMajorityWon,
    /// With every soldier high, most positions are drawn and some are won.
    HighMostlyDrawn,
    /// Some positions (at least 1%) are drawn: the defence has a fortress to reach. The
    /// result as taught (a draw) assumes the defender's pieces stand in it; spread at random,
    /// most of them lose.
    Fortress,
    /// With the soldier high more positions are won than with it on the bottom rank, where
    /// most are drawn.
    BottomRankDraws,
}

impl Claim {
    /// The claim as the file writes it.
    pub fn word(self) -> &'static str {
        match self {
            Claim::Won => "won",
            Claim::MostlyWon => "mostly-won",
            Claim::Drawn => "drawn",
            Claim::MostlyDrawn => "mostly-drawn",
            Claim::BottomRank => "bottom-rank",
            Claim::HighMostlyWon => "high-mostly-won",
            Claim::HighMajorityWon => "high-majority-won",
            Claim::HighMostlyDrawn => "high-mostly-drawn",
            Claim::Fortress => "fortress",
            Claim::BottomRankDraws => "bottom-rank-draws",
        }
    }

    fn parse(word: &str) -> Option<Claim> {
        [
            Claim::Won,
            Claim::MostlyWon,
            Claim::Drawn,
            Claim::MostlyDrawn,
            Claim::BottomRank,
            Claim::HighMostlyWon,
            Claim::HighMajorityWon,
            Claim::HighMostlyDrawn,
            Claim::Fortress,
            Claim::BottomRankDraws,
        ]
        .into_iter()
        .find(|c| c.word() == word)
    }
}

/// A known result about a whole ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// The ending.
    pub ending: Ending,
    /// What is claimed.
    pub claim: Claim,
    /// The result as taught.
    pub text: String,
}

/// A named position with its known result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownPosition {
    /// The position.
    pub fen: String,
    /// The result for the side to move, with the distance to mate.
    pub value: Value,
    /// The Asian-rules verdict.
    pub asian: Asian,
    /// What it shows.
    pub text: String,
}

/// The facts of [`KNOWN_RESULTS`].
pub fn known_facts() -> Vec<Fact> {
    rows("fact")
        .map(|f| Fact {
            ending: Ending::parse(f[1]).expect("the file names endings correctly"),
            claim: Claim::parse(f[2]).expect("the file uses known claims"),
            text: f[3].to_string(),
        })
        .collect()
}

/// The named positions of [`KNOWN_RESULTS`].
pub fn known_positions() -> Vec<KnownPosition> {
    rows("position")
        .map(|f| KnownPosition {
            fen: f[1].to_string(),
            value: parse_value(f[2]).expect("the file writes results correctly"),
            asian: match f[3] {
                "loss" => Asian::Loss,
                "win" => Asian::Win,
                _ => Asian::Same,
            },
            text: f[4].to_string(),
        })
        .collect()
}

fn rows(kind: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    KNOWN_RESULTS
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(move |f| f[0] == kind)
}

fn parse_value(text: &str) -> Option<Value> {
    let mut w = text.split(' ');
    match (w.next(), w.next()) {
        (Some("win"), Some(n)) => Some(Value::Win(n.parse().ok()?)),
        (Some("loss"), Some(n)) => Some(Value::Loss(n.parse().ok()?)),
        (Some("draw"), None) => Some(Value::Draw),
        _ => None,
    }
}

/// How a fact fared against its table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FactCheck {
    /// Whether the table bears the fact out.
    pub holds: bool,
    /// The positions the claim is about, with the stronger side to move.
    pub counts: SideCounts,
    /// What was found, in words.
    pub found: String,
}

/// Whether a soldier of the stronger side (Red in a table) is high: across the river, not
/// yet on the ranks of the other side's palace.
fn high(rank: u8) -> bool {
    (5..=6).contains(&rank)
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

fn shares(c: &SideCounts) -> String {
    let all = c.positions();
    format!(
        "{} positions: {:.2}% won, {:.2}% drawn, {:.2}% lost",
        all,
        percent(c.wins, all),
        percent(c.draws, all),
        percent(c.losses, all)
    )
}

/// Checks `fact` against its table in `tables`; an error names a table it needs that is
/// missing or damaged (the claim `won` needs the tables its captures lead to as well).
pub fn check_fact(tables: &Tablebases, fact: &Fact) -> Result<FactCheck, EgtbError> {
    let table = tables.table(fact.ending)?;
    let all = table.stats().sides[0];
    let soldiers = |pieces: &[(xiangqi_rules::Piece, Square)], pick: fn(u8) -> bool| {
        pieces
            .iter()
            .filter(|(p, _)| p.color == Color::Red && p.kind == PieceKind::Soldier)
            .all(|(_, s)| pick(s.rank()))
    };
    let (holds, counts, found) = match fact.claim {
        Claim::Won => {
            let mut rescued = true;
            let mut found = shares(&all);
            for (fen, v, _) in table.positions(1) {
                if v != Value::Draw {
                    continue;
                }
                let p = Position::from_fen(&fen).expect("the table's positions are legal");
                let mut saved = false;
                for &m in p.legal_moves().iter() {
                    if p.piece_at(m.to()).is_some() && tables.value(&p.after(m))? == Value::Draw {
                        saved = true;
                        break;
                    }
                }
                if !saved {
                    rescued = false;
                    found = format!("{found}; {fen} is drawn without a capture");
                    break;
                }
            }
            (all.draws == 0 && all.losses == 0 && rescued, all, found)
        }
        Claim::MostlyWon => (all.wins * 100 >= 99 * all.positions(), all, shares(&all)),
        Claim::Drawn => {
            let weak = table.stats().sides[1];
            let holds = all.wins + all.losses + weak.wins + weak.losses == 0;
            (
                holds,
                all,
                format!(
                    "{}; the weaker side to move: {}",
                    shares(&all),
                    shares(&weak)
                ),
            )
        }
        Claim::MostlyDrawn => (
            all.draws > all.wins + all.losses && all.wins > 0,
            all,
            shares(&all),
        ),
        Claim::BottomRank => {
            let bottom = table.tally(0, |p| soldiers(p, |r| r == 9));
            let above = table.tally(0, |p| soldiers(p, |r| r < 9));
            (
                bottom.wins == 0 && above.draws + above.losses == 0,
                all,
                format!(
                    "soldier on the bottom rank: {}; above it: {}",
                    shares(&bottom),
                    shares(&above)
                ),
            )
        }
        Claim::HighMostlyWon => {
            let c = table.tally(0, |p| soldiers(p, high));
            (
                c.wins * 100 >= 95 * c.positions(),
                c,
                format!("every soldier high: {}", shares(&c)),
            )
        }
        Claim::HighMajorityWon => {
            let c = table.tally(0, |p| soldiers(p, high));
            (
                c.wins * 2 > c.positions(),
                c,
                format!("every soldier high: {}", shares(&c)),
            )
        }
        Claim::HighMostlyDrawn => {
            let c = table.tally(0, |p| soldiers(p, high));
            (
                c.draws > c.wins + c.losses && c.wins > 0,
                c,
                format!("every soldier high: {}", shares(&c)),
            )
        }
        Claim::Fortress => (all.draws * 100 >= all.positions(), all, shares(&all)),
        Claim::BottomRankDraws => {
            let bottom = table.tally(0, |p| soldiers(p, |r| r == 9));
            let up = table.tally(0, |p| soldiers(p, high));
            (
                percent(up.wins, up.positions()) > percent(bottom.wins, bottom.positions())
                    && bottom.draws > bottom.wins + bottom.losses,
                up,
                format!(
                    "every soldier high: {}; on the bottom rank: {}",
                    shares(&up),
                    shares(&bottom)
                ),
            )
        }
    };
    Ok(FactCheck {
        holds,
        counts,
        found,
    })
}

/// Checks a named position's result and Asian verdict; `Ok(None)` when they agree, else what
/// the tables say.
pub fn check_position(
    tables: &Tablebases,
    known: &KnownPosition,
) -> Result<Option<String>, EgtbError> {
    let pos = Position::from_fen(&known.fen).expect("the file's positions are legal");
    let (value, asian) = tables.lookup(&pos)?;
    Ok(if (value, asian) == (known.value, known.asian) {
        None
    } else {
        Some(format!("the tables say {value} ({asian:?})"))
    })
}
