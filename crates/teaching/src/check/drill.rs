//! The checks of a perpetual-check drill (`kind = "perpetual"`): every way the learner can
//! escape is played out with the rules core. At each of the learner's turns the learner is in
//! check and has a way out; each app reply is a legal check by the checking piece; the game
//! goes on until the app's check number [`Drill::limit`] and ends exactly there, with the CXQ
//! verdict that the app's side loses for perpetual check. The same moves are judged under the
//! Asian rules too ([`asian_judgement`]): those rules wait for a position to come back a third
//! time, and then find the same perpetual check; a line that never repeats a position three
//! times is not judged at all.

use super::{Place, Report};
use crate::lesson::{Drill, Exercise, Rules};
use xiangqi_rules::{EndReason, Game, GameRules, Move, Outcome, RuleSet, Verdict, VerdictKind};

/// The most lines a drill may have (every sequence of the learner's escapes).
const MAX_LINES: usize = 4096;

/// The learner's escapes of one line played to its end, and the game it made.
pub struct DrillLine {
    /// The learner's moves, in order.
    pub escapes: Vec<Move>,
    /// The drill at the end of the line.
    pub drill: Drill,
}

/// Every line of the drill: each sequence of the learner's legal moves, with the app's
/// replies, played until the game ends (or until one more check than the limit, for a drill
/// that does not end). `Err` when a line is not what a drill must be.
pub fn drill_lines(start: &Drill) -> Result<Vec<DrillLine>, String> {
    let mut done = Vec::new();
    let mut open = vec![(Vec::new(), start.clone())];
    while let Some((escapes, drill)) = open.pop() {
        if drill.outcome().is_some() || drill.checks() > drill.limit() {
            done.push(DrillLine { escapes, drill });
            continue;
        }
        let pos = drill.position();
        let at = || {
            let line: Vec<String> = escapes.iter().map(Move::to_string).collect();
            format!("after the escapes [{}]", line.join(" "))
        };
        if !pos.in_check() {
            return Err(format!("{}, the learner is not in check", at()));
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Err(format!("{}, the learner has no way out", at()));
        }
        for &m in moves.iter() {
            let mut next = drill.clone();
            let checker = next.checker();
            let step = next
                .play(m)
                .map_err(|e| format!("{}, {m} is not played: {e:?}", at()))?;
            if next.outcome().is_none() {
                let Some(reply) = step.reply else {
                    return Err(format!(
                        "{}, {m}: the checking piece has no check left before the verdict",
                        at()
                    ));
                };
                if reply.from() != checker {
                    return Err(format!(
                        "{}, {m}: the reply {reply} is not the checker's",
                        at()
                    ));
                }
            }
            let mut line = escapes.clone();
            line.push(m);
            open.push((line, next));
            if open.len() + done.len() > MAX_LINES {
                return Err(format!("the drill has more than {MAX_LINES} lines"));
            }
        }
    }
    Ok(done)
}

/// The outcome of the drill's moves (its start, the first check, every escape and reply)
/// replayed under `rules`.
pub fn replayed(drill: &Drill, rules: RuleSet) -> Option<Outcome> {
    let game = drill.game();
    let mut again = Game::with_rules(game.start().clone(), GameRules::new(rules));
    for &m in game.moves() {
        again.play(m).ok()?;
    }
    again.outcome().cloned()
}

/// What the Asian rules make of a drill line: `None` while no position has come back a third
/// time; else the verdict, and the ply (from the first check, 1) where it came.
pub fn asian_judgement(drill: &Drill) -> Option<(Verdict, usize)> {
    let outcome = replayed(drill, RuleSet::Asian)?;
    match outcome.reason {
        EndReason::Verdict(v) => Some((v, outcome.ply)),
        _ => None,
    }
}

/// The checks of a `perpetual` exercise.
pub(super) fn check_drill(report: &mut Report, place: Place, exercise: &Exercise) {
    if exercise.rules != Rules::Cxq {
        report.add(
            place,
            "a perpetual drill counts checks, which the CXQ rules do: it needs rules = \"cxq\""
                .to_string(),
        );
        return;
    }
    let start = match exercise.drill() {
        Ok(drill) => drill,
        Err(e) => {
            report.add(place, e);
            return;
        }
    };
    let lines = match drill_lines(&start) {
        Ok(lines) => lines,
        Err(e) => {
            report.add(place, e);
            return;
        }
    };
    let checker = start.position().side_to_move().opponent();
    for line in &lines {
        let escapes: Vec<String> = line.escapes.iter().map(Move::to_string).collect();
        let what = format!("the escapes [{}]", escapes.join(" "));
        let drill = &line.drill;
        if drill.checks() != drill.limit() {
            report.add(
                place,
                format!(
                    "{what}: the game ends after check {} (or not at all), not at check {}",
                    drill.checks(),
                    drill.limit()
                ),
            );
            continue;
        }
        match drill.verdict() {
            Some(v)
                if v.kind == VerdictKind::PerpetualCheck
                    && v.side == Some(checker)
                    && v.rules == RuleSet::Cxq
                    && v.count == drill.limit() => {}
            other => report.add(
                place,
                format!(
                    "{what}: the last check is not ruled a perpetual check by {checker}: {other:?}"
                ),
            ),
        }
        if let Some((v, _)) = asian_judgement(drill)
            && (v.kind != VerdictKind::PerpetualCheck || v.side != Some(checker))
        {
            report.add(
                place,
                format!("{what}: the Asian rules find something else: {v}"),
            );
        }
    }
}
