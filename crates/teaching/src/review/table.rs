//! The exact endgame tables in the review: where a table covers the position before a move
//! (and so, through its probe, every position a move leads to), the move is judged by the
//! exact results instead of the engine's score.
//!
//! The class follows the result: a move that turns a win into a draw or a loss, or a draw
//! into a loss, is a blunder; a move that keeps the result is best when it keeps the
//! distance too (an only move when every other move changes the result), and otherwise
//! excellent, good or an inaccuracy by the moves it gives away ([`SLOWER_LIMITS`]). The
//! plain tables are used: a draw the Asian rules decide counts as a draw.

use super::model::{Class, Eval};
use xiangqi_egtb::{Probe, Tablebases, Value};
use xiangqi_engine::score::Reported;
use xiangqi_rules::{Move, Position};

/// Exact tables the review may ask about a position.
pub trait EndgameTables: Sync {
    /// The tables' answer for `pos`; `None` when no table covers it, or a table it needs
    /// (one its captures lead to) is missing or damaged.
    fn probe(&self, pos: &Position) -> Option<Probe>;
}

impl EndgameTables for Tablebases {
    fn probe(&self, pos: &Position) -> Option<Probe> {
        if !self.covers(pos) {
            return None;
        }
        Tablebases::probe(self, pos).ok()
    }
}

/// Moves (of the mover's own) a kept win may take longer, or a kept loss end sooner, and
/// still be excellent, good, or an inaccuracy; beyond the last it is still an inaccuracy.
pub const SLOWER_LIMITS: [u16; 2] = [2, 5];

/// How a move changed the exact result, for the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableChange {
    /// The result and the distance of best play.
    Kept,
    /// Still a win, but a slower one.
    Slower,
    /// Still a loss, but a quicker one.
    Sooner,
    /// A win turned into a draw or a loss.
    WinThrown,
    /// A draw turned into a loss.
    DrawSlipped,
}

impl TableChange {
    /// The code of the change: `kept`, `slower`, `sooner`, `win-thrown`, `draw-slipped`.
    pub const fn code(self) -> &'static str {
        match self {
            TableChange::Kept => "kept",
            TableChange::Slower => "slower",
            TableChange::Sooner => "sooner",
            TableChange::WinThrown => "win-thrown",
            TableChange::DrawSlipped => "draw-slipped",
        }
    }
}

/// A move judged by the tables: the result of best play before it and the result it leaves,
/// both for the mover, with the distance to mate in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableJudgement {
    /// The result of best play before the move.
    pub best: Value,
    /// The result after the move played.
    pub played: Value,
}

/// Moves to mate of a table value: the mating side's moves, rounded up, for a win; the
/// mated side's moves for a loss.
pub fn mate_moves(value: Value) -> Option<u16> {
    match value {
        Value::Win(d) => Some(d.div_ceil(2)),
        Value::Loss(d) => Some(d / 2),
        Value::Draw => None,
    }
}

/// The table's value as the engine reports a score: a mate in moves, a draw as 0.
pub fn reported(value: Value) -> Reported {
    match value {
        Value::Win(d) => Reported::Mate(i32::from(d.div_ceil(2))),
        Value::Loss(d) => Reported::Mate(-i32::from(d / 2)),
        Value::Draw => Reported::Cp(0),
    }
}

/// The expected score of a table value: 1 won, ½ drawn, 0 lost.
fn expected(value: Value) -> f64 {
    match value {
        Value::Win(_) => 1.0,
        Value::Draw => 0.5,
        Value::Loss(_) => 0.0,
    }
}

impl TableJudgement {
    /// How the move changed the result.
    pub fn change(self) -> TableChange {
        match (self.best, self.played) {
            (Value::Win(_), Value::Draw | Value::Loss(_)) => TableChange::WinThrown,
            (Value::Draw, Value::Loss(_)) => TableChange::DrawSlipped,
            (Value::Win(b), Value::Win(p)) if p > b => TableChange::Slower,
            (Value::Loss(b), Value::Loss(p)) if p < b => TableChange::Sooner,
            _ => TableChange::Kept,
        }
    }

    /// The moves given away by a slower win or a sooner loss; 0 otherwise.
    pub fn moves_given(self) -> u16 {
        match (self.best, self.played) {
            (Value::Win(b), Value::Win(p)) => p.saturating_sub(b) / 2,
            (Value::Loss(b), Value::Loss(p)) => b.saturating_sub(p) / 2,
            _ => 0,
        }
    }

    /// The expected score lost and the class: a result given away loses its expected score
    /// and is a blunder; a kept result with its distance is best (or `only` when `only`);
    /// a kept result given moves away is excellent, good or an inaccuracy
    /// ([`SLOWER_LIMITS`]), its loss the lower limit of that class.
    pub fn judge(self, only: bool) -> (f64, Class) {
        let drop = expected(self.best) - expected(self.played);
        if drop > 0.0 {
            return (drop.max(Class::LIMITS[3]), Class::Blunder);
        }
        let given = self.moves_given();
        let [excellent, good] = SLOWER_LIMITS;
        if self.change() == TableChange::Kept {
            (0.0, if only { Class::Only } else { Class::Best })
        } else if given <= excellent {
            (0.0, Class::Excellent)
        } else if given <= good {
            (Class::LIMITS[0], Class::Good)
        } else {
            (Class::LIMITS[1], Class::Inaccuracy)
        }
    }

    /// The judgement in English, for a move that changed the result or its distance, e.g.
    /// `this throws away the win: mate in 9 became a draw`; `None` for a kept result.
    pub fn english(self) -> Option<String> {
        let said = |v: Value| match (v, mate_moves(v)) {
            (Value::Win(_), Some(n)) => format!("mate in {n}"),
            (Value::Loss(_), Some(n)) => format!("mated in {n}"),
            _ => "a draw".to_string(),
        };
        let (best, played) = (said(self.best), said(self.played));
        Some(match self.change() {
            TableChange::Kept => return None,
            TableChange::WinThrown => {
                format!("this throws away the win: {best} became {played}")
            }
            TableChange::DrawSlipped => format!("this lets the draw slip: now {played}"),
            TableChange::Slower => format!("slower: {played} instead of {best}"),
            TableChange::Sooner => format!("gives in sooner: {played} instead of {best}"),
        })
    }
}

/// The judgement of `played` from the probe of the position before it, and whether it is
/// the only move that keeps the result; `None` when `played` is not among the probe's moves.
pub fn judge_move(probe: &Probe, played: Move) -> Option<(TableJudgement, bool)> {
    let best = probe.moves.first()?.value;
    let mine = probe.moves.iter().find(|m| m.mv == played)?.value;
    let keeping = probe
        .moves
        .iter()
        .filter(|m| m.value.word() == best.word())
        .count();
    let only = keeping == 1 && probe.moves.len() > 1 && mine.word() == best.word();
    Some((TableJudgement { best, played: mine }, only))
}

/// The table's best line from `pos`: its best move, then the best reply, and so on, at most
/// `plies` moves, stopping where the game ends or the tables no longer cover the position.
pub fn best_line(tables: &dyn EndgameTables, pos: &Position, plies: usize) -> Vec<Move> {
    let mut line = Vec::new();
    let mut p = pos.clone();
    while line.len() < plies {
        let Some(mv) = tables
            .probe(&p)
            .and_then(|pr| pr.moves.first().map(|m| m.mv))
        else {
            break;
        };
        line.push(mv);
        p = p.after(mv);
    }
    line
}

/// The line starting with `first` from `pos`, continued by the table's best play, at most
/// `plies` moves in all.
pub fn line_from(
    tables: &dyn EndgameTables,
    pos: &Position,
    first: Move,
    plies: usize,
) -> Vec<Move> {
    let mut line = vec![first];
    line.extend(best_line(
        tables,
        &pos.after(first),
        plies.saturating_sub(1),
    ));
    line
}

/// The review's evaluation of a table value for the side to move.
pub fn eval_of(value: Value) -> Eval {
    Eval::Score(reported(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(best: Value, played: Value) -> (f64, Class) {
        TableJudgement { best, played }.judge(false)
    }

    #[test]
    fn a_result_given_away_is_a_blunder() {
        assert_eq!(judged(Value::Win(17), Value::Draw), (0.5, Class::Blunder));
        assert_eq!(
            judged(Value::Win(17), Value::Loss(12)),
            (1.0, Class::Blunder)
        );
        assert_eq!(judged(Value::Draw, Value::Loss(24)), (0.5, Class::Blunder));
        let thrown = TableJudgement {
            best: Value::Win(17),
            played: Value::Draw,
        };
        assert_eq!(thrown.change(), TableChange::WinThrown);
        assert_eq!(
            thrown.english().unwrap(),
            "this throws away the win: mate in 9 became a draw"
        );
        let slipped = TableJudgement {
            best: Value::Draw,
            played: Value::Loss(24),
        };
        assert_eq!(
            slipped.english().unwrap(),
            "this lets the draw slip: now mated in 12"
        );
    }

    #[test]
    fn a_slower_win_is_not_a_mistake() {
        assert_eq!(judged(Value::Win(13), Value::Win(13)), (0.0, Class::Best));
        assert_eq!(
            TableJudgement {
                best: Value::Win(13),
                played: Value::Win(13)
            }
            .judge(true)
            .1,
            Class::Only
        );
        assert_eq!(judged(Value::Win(13), Value::Win(17)).1, Class::Excellent);
        assert_eq!(judged(Value::Win(13), Value::Win(21)).1, Class::Good);
        assert_eq!(judged(Value::Win(13), Value::Win(41)).1, Class::Inaccuracy);
        assert_eq!(judged(Value::Loss(20), Value::Loss(2)).1, Class::Inaccuracy);
        let slower = TableJudgement {
            best: Value::Win(13),
            played: Value::Win(21),
        };
        assert_eq!(slower.moves_given(), 4);
        assert_eq!(
            slower.english().unwrap(),
            "slower: mate in 11 instead of mate in 7"
        );
        assert_eq!(
            TableJudgement {
                best: Value::Draw,
                played: Value::Draw
            }
            .english(),
            None
        );
    }

    #[test]
    fn table_values_read_as_mates_in_moves() {
        assert_eq!(reported(Value::Win(1)), Reported::Mate(1));
        assert_eq!(reported(Value::Win(27)), Reported::Mate(14));
        assert_eq!(reported(Value::Loss(12)), Reported::Mate(-6));
        assert_eq!(reported(Value::Draw), Reported::Cp(0));
        assert_eq!(mate_moves(Value::Loss(0)), Some(0));
    }
}
