//! A game: a start position and the moves played from it, the position history with its
//! hashes, playing and taking back moves, and how the game stands under a rule set — mate,
//! stalemate, perpetual check and chase verdicts, and draws.

use crate::draw::{CxqDrawCounters, NO_CAPTURE_PLIES, insufficient_material};
use crate::explain::IllegalMove;
use crate::fen::FenError;
use crate::movegen::GenKind;
use crate::moves::Move;
use crate::moves::MoveList;
use crate::outcome::{EndReason, GameResult, Outcome};
use crate::piece::Color;
use crate::position::Position;
use crate::repetition::{
    Conduct, CxqTracker, MoveClass, MoveRange, PieceIds, PlacedPiece, RuleSet, Verdict,
    VerdictKind, classify_played, judge_classes,
};

/// The rules a [`Game`] is judged by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameRules {
    /// The rule set for perpetual checks, chases and automatic draws.
    pub rule_set: RuleSet,
    /// How many times a position must have occurred (with the same side to move, since the
    /// last capture) before the Asian rules judge the repetition: 3.
    pub repetition_fold: u32,
    /// Plies without a capture after which the Asian rules declare a draw (120, that is 60
    /// moves each); 0 turns the rule off.
    pub no_capture_plies: u32,
}

impl GameRules {
    /// The default settings of `rule_set`.
    pub const fn new(rule_set: RuleSet) -> GameRules {
        GameRules {
            rule_set,
            repetition_fold: 3,
            no_capture_plies: NO_CAPTURE_PLIES,
        }
    }
}

impl Default for GameRules {
    fn default() -> Self {
        GameRules::new(RuleSet::Asian)
    }
}

/// A game record with its positions, judged move by move.
///
/// [`Game::play`] accepts any legal move, also after the game has ended (for analysis);
/// [`Game::outcome`] is the first ending the record reached.
#[derive(Clone, Debug)]
pub struct Game {
    rules: GameRules,
    positions: Vec<Position>,
    moves: Vec<Move>,
    classes: Vec<Option<MoveClass>>,
    outcome: Option<Outcome>,
    cxq: Option<(CxqTracker, CxqDrawCounters)>,
}

/// Whether the side to move has a legal move, stopping at the first one found (the general's
/// own steps are tried first, as they are few and usually free).
fn has_legal_move(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let general = pos.general(us);
    let steps = pos.attacks_from(general) & !pos.pieces_of(us);
    if steps
        .into_iter()
        .any(|to| pos.is_safe_move(Move::new(general, to)))
    {
        return true;
    }
    let mut list = MoveList::new();
    pos.generate_pseudo_legal(GenKind::All, &mut list);
    list.iter().any(|&m| pos.is_safe_move(m))
}

/// Whether two positions have the same pieces on the same points and the same side to move.
fn same_position(a: &Position, b: &Position) -> bool {
    a.hash() == b.hash() && a.side == b.side && a.board == b.board
}

impl Game {
    /// A game from `start` under the Asian rules.
    pub fn new(start: Position) -> Game {
        Game::with_rules(start, GameRules::default())
    }

    /// A game from `start` under `rules`.
    pub fn with_rules(start: Position, rules: GameRules) -> Game {
        let cxq = (rules.rule_set == RuleSet::Cxq)
            .then(|| (CxqTracker::new(&start), CxqDrawCounters::default()));
        let mut game = Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
            classes: Vec::new(),
            outcome: None,
            cxq,
        };
        game.outcome = game.ending_at_start();
        game
    }

    /// A game from the position `fen` under `rules`.
    pub fn from_fen(fen: &str, rules: GameRules) -> Result<Game, FenError> {
        Ok(Game::with_rules(Position::from_fen(fen)?, rules))
    }

    /// The rules the game is judged by.
    pub fn rules(&self) -> &GameRules {
        &self.rules
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a start position")
    }

    /// The position after `ply` moves (0 is the start), if the record is that long.
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.positions.get(ply)
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether this game is the game that starts at `start` with `moves`, or goes on from
    /// it: the same start, and those moves played first, in the same order.
    pub fn goes_on_from(&self, start: &Position, moves: &[Move]) -> bool {
        self.start() == start && self.moves.starts_with(moves)
    }

    /// How many moves have been played.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The hash of every position of the record, the start first.
    pub fn hashes(&self) -> impl Iterator<Item = u64> + '_ {
        self.positions.iter().map(Position::hash)
    }

    /// How many moves back the last capture lies within the record (the positions since
    /// then are the ones that can repeat).
    pub fn plies_since_capture(&self) -> usize {
        (self.position().halfmove_clock() as usize).min(self.len())
    }

    /// The hashes of the positions since the last capture, oldest first, the current one
    /// last: what [`crate::repetition::repetition_distance`] reads.
    pub fn hashes_since_capture(&self) -> Vec<u64> {
        let from = self.len() - self.plies_since_capture();
        self.positions[from..].iter().map(Position::hash).collect()
    }

    /// The moves played since the last capture.
    pub fn moves_since_capture(&self) -> &[Move] {
        &self.moves[self.len() - self.plies_since_capture()..]
    }

    /// How many times the current position has occurred since the last capture, this time
    /// included.
    pub fn occurrences(&self) -> usize {
        self.earlier_occurrence(usize::MAX).1 + 1
    }

    /// How the game ended, if it has: the first ending the record reached.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Plays `m` if it is legal in the current position; otherwise says which rule it breaks.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        let m = self.position().check_move(m.from(), m.to())?;
        let mut next = self.position().clone();
        next.make_move(m);
        self.positions.push(next);
        self.moves.push(m);
        self.classes.push(None);
        if self.outcome.is_none() {
            self.outcome = self.ending_after_move();
        }
        Ok(())
    }

    /// Takes back the last move; `None` when no move has been played.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.classes.pop();
        if self.outcome.as_ref().is_some_and(|o| o.ply > self.len()) {
            self.outcome = None;
        }
        if self.cxq.is_some() {
            self.rebuild_cxq();
        }
        Some(m)
    }

    /// What the `ply`-th move (from 1) did, classified under the game's rule set.
    pub fn move_class(&self, ply: usize) -> Option<MoveClass> {
        if ply == 0 || ply > self.len() {
            return None;
        }
        Some(self.classes[ply - 1].unwrap_or_else(|| self.compute_class(ply)))
    }

    fn compute_class(&self, ply: usize) -> MoveClass {
        classify_played(
            &self.positions[ply - 1],
            &self.positions[ply],
            self.moves[ply - 1],
            self.rules.rule_set,
        )
    }

    /// The class of the `ply`-th move, computed once.
    fn class(&mut self, ply: usize) -> MoveClass {
        if let Some(c) = self.classes[ply - 1] {
            return c;
        }
        let c = self.compute_class(ply);
        self.classes[ply - 1] = Some(c);
        c
    }

    /// The ply of the `nth` most recent earlier occurrence (from 1) of the current position
    /// since the last capture, if there is one, and how many earlier occurrences were seen
    /// (all of them when there is no `nth`).
    fn earlier_occurrence(&self, nth: usize) -> (Option<usize>, usize) {
        let n = self.len();
        let current = self.position();
        let oldest = n - self.plies_since_capture();
        let mut seen = 0;
        let mut back = 4;
        while back <= n - oldest {
            if same_position(&self.positions[n - back], current) {
                seen += 1;
                if seen == nth {
                    return (Some(n - back), seen);
                }
            }
            back += 2;
        }
        (None, seen)
    }

    /// The ending of a game that has not started: mate, stalemate or no mating material.
    fn ending_at_start(&self) -> Option<Outcome> {
        self.ending_by_status(0)
            .or_else(|| self.ending_by_draw_rules(0))
    }

    /// The ending the last move brought, if any.
    fn ending_after_move(&mut self) -> Option<Outcome> {
        let ply = self.len();
        if let Some(o) = self.ending_by_status(ply) {
            if self.cxq.is_some() {
                self.record_cxq(ply);
            }
            return Some(o);
        }
        let verdict = match self.rules.rule_set {
            RuleSet::Asian => self.asian_verdict(),
            RuleSet::Cxq => self.record_cxq(ply),
        };
        if let Some(outcome) = verdict {
            return Some(outcome);
        }
        self.ending_by_draw_rules(ply)
    }

    fn ending_by_status(&self, ply: usize) -> Option<Outcome> {
        let pos = self.position();
        if has_legal_move(pos) {
            return None;
        }
        let loser = pos.side_to_move();
        let reason = if pos.in_check() {
            EndReason::Checkmate { loser }
        } else {
            EndReason::Stalemate { loser }
        };
        Some(Outcome {
            result: GameResult::win_for(loser.opponent()),
            reason,
            ply,
        })
    }

    fn ending_by_draw_rules(&self, ply: usize) -> Option<Outcome> {
        if self.rules.rule_set != RuleSet::Asian {
            return None;
        }
        let draw = |reason| {
            Some(Outcome {
                result: GameResult::Draw,
                reason,
                ply,
            })
        };
        let limit = self.rules.no_capture_plies;
        if limit > 0 && self.position().halfmove_clock() >= limit {
            return draw(EndReason::NoCapture { plies: limit });
        }
        if insufficient_material(self.position()) {
            return draw(EndReason::InsufficientMaterial);
        }
        None
    }

    /// Classifies the last move under CXQ and feeds the counters; the ending they reach.
    fn record_cxq(&mut self, ply: usize) -> Option<Outcome> {
        let class = self.class(ply);
        let (before, after, m) = (
            &self.positions[ply - 1],
            &self.positions[ply],
            self.moves[ply - 1],
        );
        let (tracker, counters) = self.cxq.as_mut().expect("CXQ counters");
        let verdict = tracker.record(before.side_to_move(), m, &class, after);
        let draw = counters.record(before, m, &class);
        if let Some(v) = verdict {
            return Some(Outcome {
                result: v.result(),
                reason: EndReason::Verdict(v),
                ply,
            });
        }
        draw.map(|reason| Outcome {
            result: GameResult::Draw,
            reason,
            ply,
        })
    }

    /// Replays the CXQ counters over the record, up to its first ending.
    fn rebuild_cxq(&mut self) {
        let mut tracker = CxqTracker::new(self.start());
        let mut counters = CxqDrawCounters::default();
        let end = self
            .outcome
            .as_ref()
            .map_or(self.len(), |o| o.ply.min(self.len()));
        for ply in 1..=end {
            let class = self.class(ply);
            let before = &self.positions[ply - 1];
            let m = self.moves[ply - 1];
            tracker.record(before.side_to_move(), m, &class, &self.positions[ply]);
            counters.record(before, m, &class);
        }
        self.cxq = Some((tracker, counters));
    }

    /// The Asian ruling when the current position has occurred often enough.
    fn asian_verdict(&mut self) -> Option<Outcome> {
        let fold = self.rules.repetition_fold.max(2) as usize;
        let (start, _) = self.earlier_occurrence(fold - 1);
        let start = start?;
        let n = self.len();
        for ply in start + 1..=n {
            self.class(ply);
        }
        let classes: Vec<MoveClass> = self.classes[start..n]
            .iter()
            .map(|c| c.expect("classified"))
            .collect();
        let judgement = judge_classes(
            &self.positions[start],
            &self.moves[start..n],
            &classes,
            RuleSet::Asian,
        );
        let verdict = self.verdict(start, judgement.kind, judgement.loser, &judgement.conduct);
        Some(Outcome {
            result: verdict.result(),
            reason: EndReason::Verdict(verdict),
            ply: n,
        })
    }

    /// The verdict on the stretch after ply `start` to now, with the loser's run traced back
    /// as far as it goes.
    fn verdict(
        &mut self,
        start: usize,
        kind: VerdictKind,
        loser: Option<Color>,
        conduct: &[Conduct; 2],
    ) -> Verdict {
        let n = self.len();
        let now = self.position().clone();
        let placed = |points: crate::bitboard::Bitboard| -> Vec<PlacedPiece> {
            points
                .filter_map(|point| {
                    now.piece_at(point)
                        .map(|piece| PlacedPiece { piece, point })
                })
                .collect()
        };
        let Some(loser) = loser else {
            return Verdict {
                kind,
                rules: RuleSet::Asian,
                side: None,
                pieces: Vec::new(),
                unprotected: false,
                moves: MoveRange {
                    first: start + 1,
                    last: n,
                },
                count: (n - start) as u32,
                participants: 0,
            };
        };
        let own = &conduct[loser.index()];
        let (pieces, unprotected, participants) = match kind {
            VerdictKind::PerpetualCheck => (placed(own.checkers), false, own.checkers.count()),
            VerdictKind::PerpetualChase => (
                placed(own.chased),
                own.chased == own.unprotected,
                own.chasers.count(),
            ),
            _ => {
                let other = &conduct[loser.opponent().index()];
                (
                    placed(other.chased),
                    other.chased == other.unprotected,
                    other.chasers.count(),
                )
            }
        };
        let first = self.trace_back(start, loser, kind, own);
        let count = ((n - first) / 2 + 1) as u32;
        Verdict {
            kind,
            rules: RuleSet::Asian,
            side: Some(loser),
            pieces,
            unprotected,
            moves: MoveRange { first, last: n },
            count,
            participants,
        }
    }

    /// The first ply of `side`'s unbroken run of checks (or chases of the same pieces) that
    /// ends in the stretch after ply `start`, looking back no further than the last capture.
    fn trace_back(&mut self, start: usize, side: Color, kind: VerdictKind, own: &Conduct) -> usize {
        let n = self.len();
        let oldest = n - self.plies_since_capture();
        let mut first = if self.positions[start].side_to_move() == side {
            start + 1
        } else {
            start + 2
        };
        let checking = kind != VerdictKind::PerpetualChase;
        // Name the pieces from the oldest position on, so "the same piece" is followed.
        let mut ids = PieceIds::new(&self.positions[oldest]);
        let mut names_after = Vec::with_capacity(n - oldest);
        for m in &self.moves[oldest..n] {
            ids.apply(*m);
            names_after.push(ids.clone());
        }
        let mut wanted = ids.masks(own.chased);
        while first >= oldest + 3 {
            let ply = first - 2;
            let class = self.class(ply);
            if checking {
                if !class.is_check() {
                    break;
                }
            } else {
                let names = &names_after[ply - oldest - 1];
                let chased = names.masks(class.chased());
                if chased & wanted == 0 {
                    break;
                }
                wanted &= chased;
            }
            first = ply;
        }
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse::<Move>().unwrap()
    }

    fn play(fen: &str, moves: &str, rules: GameRules) -> Game {
        let mut g = Game::from_fen(fen, rules).unwrap();
        for m in moves.split_whitespace() {
            g.play(mv(m)).unwrap();
        }
        g
    }

    #[test]
    fn play_and_undo_keep_the_history() {
        let mut g = Game::new(Position::startpos());
        g.play(mv("h2e2")).unwrap();
        g.play(mv("h9g7")).unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!(g.hashes().count(), 3);
        assert_eq!(g.undo(), Some(mv("h9g7")));
        assert_eq!(g.position(), &Position::startpos().after(mv("h2e2")));
        assert_eq!(g.undo(), Some(mv("h2e2")));
        assert_eq!(g.undo(), None);
        assert_eq!(g.position(), &Position::startpos());
    }

    #[test]
    fn illegal_moves_are_refused_with_the_reason() {
        let mut g = Game::new(Position::startpos());
        let err = g.play(mv("a0a5")).unwrap_err();
        assert_eq!(err.code(), "chariot-path-blocked");
        assert!(g.is_empty());
    }

    #[test]
    fn a_shuffle_draws_at_the_third_occurrence() {
        let moves = "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9";
        let g = play(crate::fen::START_FEN, moves, GameRules::default());
        let o = g.outcome().expect("a draw by repetition");
        assert_eq!(o.result, GameResult::Draw);
        assert_eq!(o.ply, 8);
        assert_eq!(o.reason.code(), "repetition");
        assert_eq!(g.occurrences(), 3);
        let g = play(
            crate::fen::START_FEN,
            &moves[..moves.len() - 5],
            GameRules::default(),
        );
        assert!(g.outcome().is_none());
    }

    #[test]
    fn undoing_the_deciding_move_reopens_the_game() {
        let moves = "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9";
        let mut g = play(crate::fen::START_FEN, moves, GameRules::default());
        assert!(g.is_over());
        g.undo();
        assert!(!g.is_over());
    }

    #[test]
    fn the_no_capture_limit_is_configurable() {
        let rules = GameRules {
            no_capture_plies: 4,
            ..GameRules::default()
        };
        let g = play(crate::fen::START_FEN, "b0c2 b9c7 h0g2 h9g7", rules);
        let o = g.outcome().expect("a draw");
        assert_eq!(o.reason, EndReason::NoCapture { plies: 4 });
        assert_eq!(o.ply, 4);
    }

    #[test]
    fn a_bare_board_is_drawn_from_the_start() {
        let g = Game::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w", GameRules::default()).unwrap();
        assert_eq!(g.outcome().map(|o| o.result), Some(GameResult::Draw));
        assert_eq!(g.outcome().map(|o| o.ply), Some(0));
    }

    #[test]
    fn mate_ends_the_game() {
        let g = play(
            "3k5/4R4/2R6/9/9/9/9/9/9/5K3 w",
            "c7d7",
            GameRules::default(),
        );
        let o = g.outcome().expect("mate");
        assert_eq!(o.result, GameResult::RedWins);
        assert_eq!(
            o.reason,
            EndReason::Checkmate {
                loser: Color::Black
            }
        );
    }

    #[test]
    fn the_cxq_rules_do_not_draw_a_repetition() {
        let moves = "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9";
        let g = play(crate::fen::START_FEN, moves, GameRules::new(RuleSet::Cxq));
        assert!(g.outcome().is_none());
    }
}
