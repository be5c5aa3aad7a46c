//! The staged move picker: the table move first, then winning captures, killers and the
//! counter-move, quiet moves by history, and losing captures last. Every move it yields is
//! legal, and each at most once. For the quiescence search it yields only the captures that do
//! not lose material.

use crate::history::{Continuation, History};
use crate::search::params::{GOOD_CAPTURE_SEE_THRESHOLD, LVA_DIVISOR, MVV_WEIGHT};
use crate::see::{see_ge, value_at};
use xiangqi_rules::{GenKind, Move, MoveList, Position};

/// Where the picker stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Yield the transposition-table move.
    TableMove,
    /// Generate and score captures.
    GenerateCaptures,
    /// Captures that do not lose material.
    GoodCaptures,
    /// The two killer moves.
    Killers,
    /// The counter-move to the opponent's last move.
    CounterMove,
    /// Generate and score quiet moves.
    GenerateQuiets,
    /// Quiet moves by history.
    Quiets,
    /// Captures that lose material.
    BadCaptures,
    /// Nothing left.
    Done,
}

/// Picks moves one at a time in a good order.
pub struct MovePicker {
    stage: Stage,
    table_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    /// The earlier moves whose continuation history orders the quiet moves.
    context: Continuation,
    captures_only: bool,
    /// In the quiescence search, captures whose victim is worth less are passed over.
    min_gain: i32,
    /// Captures, then (after the losing captures kept at its front) quiet moves.
    list: MoveList,
    scores: [i32; xiangqi_rules::moves::MAX_MOVES],
    index: usize,
    /// Losing captures are moved to `list[..bad_count]` as they are found.
    bad_count: usize,
    bad_index: usize,
    killer_index: usize,
}

/// Most valuable victim first, then least valuable attacker.
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = value_at(pos, m.to());
    let attacker = value_at(pos, m.from());
    victim * MVV_WEIGHT - attacker / LVA_DIVISOR
}

impl MovePicker {
    /// A picker for the main search.
    pub fn new(
        pos: &Position,
        table_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
    ) -> MovePicker {
        MovePicker {
            stage: Stage::TableMove,
            table_move: table_move.filter(|&m| pos.is_legal(m)),
            killers,
            counter,
            context: [None; 2],
            captures_only: false,
            min_gain: i32::MIN,
            list: MoveList::new(),
            scores: [0; xiangqi_rules::moves::MAX_MOVES],
            index: 0,
            bad_count: 0,
            bad_index: 0,
            killer_index: 0,
        }
    }

    /// Orders quiet moves also by how they did after the moves in `context`.
    pub fn with_context(mut self, context: Continuation) -> MovePicker {
        self.context = context;
        self
    }

    /// A picker for quiescence search: only the captures that do not lose material by the
    /// exchange, the table move included (all moves when in check, by the caller's choice of
    /// [`MovePicker::new`]).
    pub fn captures(pos: &Position, table_move: Option<Move>) -> MovePicker {
        let table_move = table_move.filter(|&m| !pos.is_empty(m.to()));
        let mut picker = MovePicker::new(pos, table_move, [None; 2], None);
        picker.captures_only = true;
        picker
    }

    /// Whether the move last yielded was a capture that loses material by the exchange.
    pub fn yielded_losing_capture(&self) -> bool {
        self.stage == Stage::BadCaptures
    }

    fn is_special(&self, m: Move) -> bool {
        Some(m) == self.table_move
            || (!self.captures_only && (self.killers.contains(&Some(m)) || Some(m) == self.counter))
    }

    fn take_best(&mut self) -> Option<(Move, i32)> {
        if self.index >= self.list.len() {
            return None;
        }
        let mut best = self.index;
        for i in self.index + 1..self.list.len() {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.list.as_mut_slice().swap(self.index, best);
        self.scores.swap(self.index, best);
        let picked = (self.list[self.index], self.scores[self.index]);
        self.index += 1;
        Some(picked)
    }

    /// The quiescence search's next capture that takes a piece worth at least `min_gain` and
    /// holds its exchange: the others are passed over before their exchange is weighed (delta
    /// pruning).
    pub fn next_gaining(
        &mut self,
        pos: &Position,
        history: &History,
        min_gain: i32,
    ) -> Option<Move> {
        self.min_gain = min_gain;
        self.next(pos, history)
    }

    /// Whether the quiescence search passes over capture `m` for its victim's worth.
    fn gains_too_little(&self, pos: &Position, m: Move) -> bool {
        self.captures_only && value_at(pos, m.to()) < self.min_gain
    }

    /// The next move, or `None` when all are done.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::GenerateCaptures;
                    if let Some(m) = self.table_move
                        && !self.gains_too_little(pos, m)
                        && (!self.captures_only || see_ge(pos, m, GOOD_CAPTURE_SEE_THRESHOLD))
                    {
                        return Some(m);
                    }
                }
                Stage::GenerateCaptures => {
                    pos.generate_legal(GenKind::Captures, &mut self.list);
                    for i in 0..self.list.len() {
                        self.scores[i] = mvv_lva(pos, self.list[i]);
                    }
                    self.index = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.take_best() {
                    Some((m, _)) if Some(m) == self.table_move => {}
                    Some((m, _)) if self.gains_too_little(pos, m) => {}
                    Some((m, _)) => {
                        if see_ge(pos, m, GOOD_CAPTURE_SEE_THRESHOLD) {
                            return Some(m);
                        }
                        // Slots before `index` are spent, so the front can hold it.
                        self.list.as_mut_slice()[self.bad_count] = m;
                        self.bad_count += 1;
                    }
                    None => {
                        self.stage = if self.captures_only {
                            Stage::Done
                        } else {
                            Stage::Killers
                        };
                    }
                },
                Stage::Killers => {
                    while self.killer_index < 2 {
                        let k = self.killers[self.killer_index];
                        self.killer_index += 1;
                        if let Some(m) = k
                            && Some(m) != self.table_move
                            && pos.is_empty(m.to())
                            && pos.is_legal(m)
                        {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::CounterMove;
                }
                Stage::CounterMove => {
                    self.stage = Stage::GenerateQuiets;
                    if let Some(m) = self.counter
                        && Some(m) != self.table_move
                        && !self.killers.contains(&Some(m))
                        && pos.is_empty(m.to())
                        && pos.is_legal(m)
                    {
                        return Some(m);
                    }
                }
                Stage::GenerateQuiets => {
                    let first = self.bad_count;
                    self.list.truncate(first);
                    pos.generate_legal(GenKind::Quiets, &mut self.list);
                    let n = self.list.len();
                    for i in first..n {
                        let m = self.list[i];
                        self.scores[i] = pos
                            .piece_at(m.from())
                            .map_or(0, |piece| history.quiet_score(piece, m, &self.context));
                    }
                    // Insertion sort, best first: lists are short and often nearly sorted.
                    let moves = self.list.as_mut_slice();
                    for i in first + 1..n {
                        let (m, s) = (moves[i], self.scores[i]);
                        let mut j = i;
                        while j > first && self.scores[j - 1] < s {
                            moves[j] = moves[j - 1];
                            self.scores[j] = self.scores[j - 1];
                            j -= 1;
                        }
                        moves[j] = m;
                        self.scores[j] = s;
                    }
                    self.index = first;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.index >= self.list.len() {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    let m = self.list[self.index];
                    self.index += 1;
                    if !self.is_special(m) {
                        return Some(m);
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_index < self.bad_count {
                        let m = self.list[self.bad_index];
                        self.bad_index += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;

    /// A random game of `steps` moves from the start, begun again where `restart` holds or
    /// no move is left; `visit` sees each other position with its legal moves before the
    /// walk plays one of them at random.
    fn random_walk(
        seed: u64,
        steps: usize,
        restart: fn(&Position) -> bool,
        mut visit: impl FnMut(&Position, &MoveList, &mut SplitMix64),
    ) {
        let mut pos = Position::startpos();
        let mut rng = SplitMix64::new(seed);
        for _ in 0..steps {
            let legal = pos.legal_moves();
            if legal.is_empty() || restart(&pos) {
                pos = Position::startpos();
                continue;
            }
            visit(&pos, &legal, &mut rng);
            pos.make_move(legal[rng.below(legal.len())]);
        }
    }

    /// The picker yields exactly the legal moves, each once, whatever hints it gets.
    #[test]
    fn picker_yields_every_legal_move_once() {
        let history = History::new();
        random_walk(
            0x2545_F491_4F6C_DD1D,
            400,
            |_| false,
            |pos, legal, rng| {
                let mut pick = || legal[rng.below(legal.len())];
                let hints = [pick(), pick(), pick()];
                // A hint from another position may be illegal here: the picker must drop it.
                let stale = Move::new(hints[0].to(), hints[0].from());
                let mut picker = MovePicker::new(
                    pos,
                    Some(hints[0]),
                    [Some(hints[1]), Some(stale)],
                    Some(hints[2]),
                );
                let mut seen = Vec::new();
                while let Some(m) = picker.next(pos, &history) {
                    seen.push(m);
                }
                let mut expected: Vec<Move> = legal.iter().copied().collect();
                expected.sort();
                seen.sort();
                assert_eq!(seen, expected, "{pos:?}");
            },
        );
    }

    /// The main-search picker says a move is a losing capture exactly when it is a capture
    /// that fails its exchange, the table move aside (yielded first, whatever it is).
    #[test]
    fn picker_names_the_losing_captures() {
        let history = History::new();
        let mut losing_seen = 0;
        random_walk(
            0x5851_F42D_4C95_7F2D,
            600,
            |_| false,
            |pos, legal, rng| {
                let table_move = (rng.below(2) == 0).then(|| legal[rng.below(legal.len())]);
                let mut picker = MovePicker::new(pos, table_move, [None; 2], None);
                while let Some(m) = picker.next(pos, &history) {
                    let losing = Some(m) != table_move
                        && !pos.is_empty(m.to())
                        && !see_ge(pos, m, GOOD_CAPTURE_SEE_THRESHOLD);
                    assert_eq!(picker.yielded_losing_capture(), losing, "{pos:?} {m:?}");
                    losing_seen += losing as usize;
                }
            },
        );
        assert!(losing_seen > 10, "{losing_seen}");
    }

    /// The quiescence picker yields exactly the legal captures that do not lose material,
    /// each once, whether or not its table move is one of them.
    #[test]
    fn capture_picker_yields_the_captures_that_hold_their_exchange() {
        let history = History::new();
        let mut captures_seen = 0;
        let mut losing_seen = 0;
        random_walk(
            0x9E37_79B9_7F4A_7C15,
            600,
            Position::in_check,
            |pos, legal, rng| {
                let captures: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| !pos.is_empty(m.to()))
                    .collect();
                let hint = if captures.is_empty() || rng.below(3) == 0 {
                    None
                } else {
                    Some(captures[rng.below(captures.len())])
                };
                let mut expected: Vec<Move> = captures
                    .iter()
                    .copied()
                    .filter(|&m| see_ge(pos, m, GOOD_CAPTURE_SEE_THRESHOLD))
                    .collect();
                captures_seen += captures.len();
                losing_seen += captures.len() - expected.len();
                let mut picker = MovePicker::captures(pos, hint);
                let mut seen = Vec::new();
                while let Some(m) = picker.next(pos, &history) {
                    seen.push(m);
                }
                expected.sort();
                seen.sort();
                assert_eq!(seen, expected, "{pos:?} table move {hint:?}");
                // Asked for a least gain, it passes over the captures of cheaper pieces.
                let min_gain = [i32::MIN, 100, 201, 450, 901][rng.below(5)];
                expected.retain(|m| value_at(pos, m.to()) >= min_gain);
                let mut picker = MovePicker::captures(pos, hint);
                let mut seen = Vec::new();
                while let Some(m) = picker.next_gaining(pos, &history, min_gain) {
                    seen.push(m);
                }
                seen.sort();
                assert_eq!(
                    seen, expected,
                    "{pos:?} table move {hint:?} gain {min_gain}"
                );
            },
        );
        // The walk met both kinds of capture.
        assert!(
            captures_seen > 100 && losing_seen > 10,
            "{captures_seen} {losing_seen}"
        );
    }
}
