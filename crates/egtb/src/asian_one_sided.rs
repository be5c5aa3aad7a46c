//! The Asian-rules pass for a holder whose opponent cannot give check, without the draws'
//! graph in memory.
//!
//! When the other side O has only advisors and elephants it never gives check (a move that
//! lets the generals face each other is illegal for the mover), so the game of
//! [`crate::asian`] becomes simpler: the holder H keeps the draw exactly when it can make a
//! quiet move (one that is not a check) infinitely often. H is in danger only where it has no
//! quiet move: the set F of drawn positions with H to move whose every move that stays in
//! the draws gives check. Almost always F is empty and nothing is marked; otherwise O's
//! winning region is built outward from F alone: the positions where O can keep H checking
//! forever (H on F, O answering into F again), then every position from which O can force
//! play there (O chooses a move into it; H when all its moves lead into it), repeated until
//! nothing is added. The memory this takes grows with that region, not with the table.

use crate::generate::{Child, Subs, children, parallel};
use crate::layout::{Layout, Mv};
use crate::value::{DRAW, DRAW_ASIAN_LOSS, DRAW_ASIAN_WIN, is_draw};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

/// A move's way out of the draws of this table: a capture into another ending's draw that
/// the holder keeps (GOOD) or loses (BAD) under the Asian rules there.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Next {
    /// A drawn entry of this table (the side to move there is the other one).
    Here(usize),
    Good,
    Bad,
}

/// The moves of the drawn entry `e` that stay in the draws, each with whether it gives
/// check; moves into decided positions are never chosen and left out.
fn draw_moves(
    layout: &Layout,
    subs: &Subs,
    codes: &[u16],
    h: u8,
    e: usize,
    moves: &mut Vec<Mv>,
    kids: &mut Vec<(Mv, Child, bool)>,
) -> Vec<(Next, bool)> {
    let n = layout.size;
    let stm = (e / n) as u8;
    let mut b = layout.decode(e % n).expect("a draw is legal");
    children(layout, subs, &mut b, stm, moves, kids);
    // The side to move after a capture.
    let child_stm = 1 - stm;
    kids.iter()
        .filter_map(|&(_, child, check)| {
            let next = match child {
                Child::Here(c) if codes[c] == DRAW => Next::Here(c),
                Child::Here(_) => return None,
                Child::Sub(code) if is_draw(code) => {
                    let child_loses = match code {
                        DRAW_ASIAN_LOSS => true,
                        DRAW_ASIAN_WIN => false,
                        _ => return Some((Next::Good, check)),
                    };
                    // The holder loses when the side that loses there is the holder.
                    if child_loses == (child_stm == h) {
                        Next::Bad
                    } else {
                        Next::Good
                    }
                }
                Child::Sub(_) => return None,
            };
            Some((next, check))
        })
        .collect()
}

/// The drawn entries the holder `h` loses under the Asian rules, when its opponent has no
/// piece that gives check.
pub(crate) fn holder_losses(
    layout: &Layout,
    subs: &Subs,
    codes: &[u16],
    h: u8,
    threads: usize,
) -> HashSet<usize> {
    let n = layout.size;
    // F: the holder to move with no quiet move in the draws; B: the opponent to move with a
    // capture into a draw the holder loses.
    let found: Mutex<(Vec<usize>, Vec<usize>)> = Mutex::new((Vec::new(), Vec::new()));
    parallel(
        codes.len(),
        threads,
        || (Vec::new(), Vec::new()),
        |range, (moves, kids)| {
            let (mut f, mut b) = (Vec::new(), Vec::new());
            for e in range {
                if codes[e] != DRAW {
                    continue;
                }
                let next = draw_moves(layout, subs, codes, h, e, moves, kids);
                match start((e / n) as u8 == h, &next) {
                    Some(Start::OnlyChecks) => f.push(e),
                    Some(Start::LostCapture) => b.push(e),
                    None => {}
                }
            }
            let mut all = found.lock().unwrap_or_else(|e| e.into_inner());
            all.0.extend(f);
            all.1.extend(b);
        },
    );
    let (f, b) = found.into_inner().unwrap_or_else(|e| e.into_inner());
    if f.is_empty() && b.is_empty() {
        return HashSet::new();
    }
    let mut table = TableMoves {
        layout,
        subs,
        codes,
        h,
        scratch: (Vec::new(), Vec::new()),
    };
    Region::new(&mut table).solve(&f, &b)
}

/// Why an entry starts the opponent's winning region.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Start {
    /// The holder is to move and every move it may choose gives check.
    OnlyChecks,
    /// The opponent is to move and can capture into a draw the holder loses.
    LostCapture,
}

/// Whether a drawn entry with the moves `next` starts the opponent's winning region.
fn start(holder_to_move: bool, next: &[(Next, bool)]) -> Option<Start> {
    if holder_to_move {
        (!next.iter().any(|&(t, check)| !check && t != Next::Bad)).then_some(Start::OnlyChecks)
    } else {
        next.iter()
            .any(|&(t, _)| t == Next::Bad)
            .then_some(Start::LostCapture)
    }
}

/// The game as the region needs it: drawn entries, their moves and their predecessors.
trait Moves {
    /// Whether the holder is to move at `e`.
    fn holder_to_move(&self, e: usize) -> bool;
    /// Whether `e` is a drawn entry (a node of the game).
    fn is_draw(&self, e: usize) -> bool;
    /// The moves of the drawn entry `e` that stay in the draws, with whether each checks.
    fn next(&mut self, e: usize) -> Vec<(Next, bool)>;
    /// The entries with a move to `e`.
    fn preds(&mut self, e: usize) -> Vec<usize>;
}

/// The moves of a table's entries.
struct TableMoves<'a> {
    layout: &'a Layout,
    subs: &'a Subs,
    codes: &'a [u16],
    h: u8,
    scratch: (Vec<Mv>, Vec<(Mv, Child, bool)>),
}

impl Moves for TableMoves<'_> {
    fn holder_to_move(&self, e: usize) -> bool {
        (e / self.layout.size) as u8 == self.h
    }

    fn is_draw(&self, e: usize) -> bool {
        self.codes[e] == DRAW
    }

    fn next(&mut self, e: usize) -> Vec<(Next, bool)> {
        let (moves, kids) = &mut self.scratch;
        draw_moves(self.layout, self.subs, self.codes, self.h, e, moves, kids)
    }

    fn preds(&mut self, e: usize) -> Vec<usize> {
        let n = self.layout.size;
        let stm = (e / n) as u8;
        let mut board = self.layout.decode(e % n).expect("a draw is legal");
        let mut preds = Vec::new();
        self.layout.unmoves(&mut board, stm, &mut preds);
        let base = (1 - stm) as usize * n;
        preds.into_iter().map(|p| base + p).collect()
    }
}

/// The opponent's winning region, built outward from the positions that start it.
struct Region<'a, M: Moves> {
    game: &'a mut M,
    /// The moves of the entries looked at so far.
    moves: HashMap<usize, Vec<(Next, bool)>>,
}

impl<'a, M: Moves> Region<'a, M> {
    fn new(game: &'a mut M) -> Region<'a, M> {
        Region {
            game,
            moves: HashMap::new(),
        }
    }

    fn next(&mut self, e: usize) -> &[(Next, bool)] {
        if !self.moves.contains_key(&e) {
            let next = self.game.next(e);
            self.moves.insert(e, next);
        }
        &self.moves[&e]
    }

    /// Whether the opponent wins at `e` once play reaching `won` (or a lost capture) counts
    /// as its win: the opponent needs one such move, the holder has only such moves.
    fn forced(&mut self, e: usize, won: &HashSet<usize>) -> bool {
        self.held(e, &HashSet::new(), won)
    }

    /// Whether the holder at `e` has no quiet move but into `won` (or a lost capture).
    fn no_quiet_escape(&mut self, e: usize, won: &HashSet<usize>) -> bool {
        self.next(e).iter().all(|t| match t.0 {
            _ if t.1 => true,
            Next::Here(c) => won.contains(&c),
            Next::Bad => true,
            Next::Good => false,
        })
    }

    /// Whether the opponent keeps `e` inside `trap` or reaches `won`: the opponent needs one
    /// move there; the holder's checks all lead there and its quiet moves all into `won`.
    fn held(&mut self, e: usize, trap: &HashSet<usize>, won: &HashSet<usize>) -> bool {
        let holder = self.game.holder_to_move(e);
        let next = self.next(e).to_vec();
        let into = |t: &(Next, bool), quiet_counts: bool| match t.0 {
            Next::Here(c) => won.contains(&c) || (quiet_counts && trap.contains(&c)),
            Next::Bad => true,
            Next::Good => false,
        };
        if holder {
            next.iter().all(|t| into(t, t.1))
        } else {
            next.iter().any(|t| into(t, true))
        }
    }

    /// The entries the opponent wins, given `f` (the holder only checks there) and `b` (the
    /// opponent captures into a draw the holder loses).
    fn solve(mut self, f: &[usize], b: &[usize]) -> HashSet<usize> {
        let mut only_checks: HashSet<usize> = f.iter().copied().collect();
        let mut won: HashSet<usize> = b.iter().copied().collect();
        self.attract(&mut won, b.to_vec(), &mut only_checks);
        loop {
            let trap = self.trap(&only_checks, &won);
            let new: Vec<usize> = trap.into_iter().filter(|e| !won.contains(e)).collect();
            if new.is_empty() {
                return won;
            }
            won.extend(new.iter().copied());
            self.attract(&mut won, new, &mut only_checks);
        }
    }

    /// The greatest set of the holder's positions in `only_checks` and the answers to their
    /// checks where the opponent keeps the holder checking forever or reaches `won`.
    fn trap(&mut self, only_checks: &HashSet<usize>, won: &HashSet<usize>) -> HashSet<usize> {
        let mut set: HashSet<usize> = only_checks
            .iter()
            .copied()
            .filter(|e| !won.contains(e))
            .collect();
        let mut answers = Vec::new();
        for &e in &set {
            for t in self.next(e).to_vec() {
                if let Next::Here(c) = t.0
                    && t.1
                    && !won.contains(&c)
                {
                    answers.push(c);
                }
            }
        }
        set.extend(answers);
        loop {
            let out: Vec<usize> = set
                .clone()
                .into_iter()
                .filter(|&e| !self.held(e, &set, won))
                .collect();
            if out.is_empty() {
                return set;
            }
            for e in out {
                set.remove(&e);
            }
        }
    }

    /// Adds to `won` every drawn entry from which the opponent forces play into it, starting
    /// from the entries `fresh` just added; a holder's position left with no quiet move but
    /// into `won` joins `only_checks`.
    fn attract(
        &mut self,
        won: &mut HashSet<usize>,
        mut fresh: Vec<usize>,
        only_checks: &mut HashSet<usize>,
    ) {
        while let Some(e) = fresh.pop() {
            for p in self.game.preds(e) {
                if !self.game.is_draw(p) || won.contains(&p) {
                    continue;
                }
                if self.forced(p, won) {
                    won.insert(p);
                    fresh.push(p);
                } else if self.game.holder_to_move(p) && self.no_quiet_escape(p, won) {
                    only_checks.insert(p);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asian::Graph;

    /// A hand-made game: node `v` has `stm[v]` to move and the moves `succ[v]`, each a node
    /// or a way out, with whether it gives check.
    struct Hand {
        stm: Vec<u8>,
        succ: Vec<Vec<(Next, bool)>>,
        h: u8,
    }

    impl Moves for Hand {
        fn holder_to_move(&self, e: usize) -> bool {
            self.stm[e] == self.h
        }
        fn is_draw(&self, _: usize) -> bool {
            true
        }
        fn next(&mut self, e: usize) -> Vec<(Next, bool)> {
            self.succ[e].clone()
        }
        fn preds(&mut self, e: usize) -> Vec<usize> {
            (0..self.succ.len())
                .filter(|&v| self.succ[v].iter().any(|t| t.0 == Next::Here(e)))
                .collect()
        }
    }

    /// The nodes the holder loses, by the one-sided pass.
    fn one_sided(hand: &mut Hand) -> Vec<bool> {
        let (mut f, mut b) = (Vec::new(), Vec::new());
        for v in 0..hand.stm.len() {
            match start(hand.stm[v] == hand.h, &hand.succ[v]) {
                Some(Start::OnlyChecks) => f.push(v),
                Some(Start::LostCapture) => b.push(v),
                None => {}
            }
        }
        let lost = Region::new(hand).solve(&f, &b);
        (0..hand.stm.len()).map(|v| lost.contains(&v)).collect()
    }

    /// The nodes the holder loses, by the full game on the graph (Zielonka's algorithm).
    fn full(hand: &Hand) -> Vec<bool> {
        // In the graph a node records whether its side to move is in check: the move into it
        // gave check. Ways out become the graph's markers for the holder's result there.
        let m = hand.stm.len();
        let mut stm = hand.stm.clone();
        let mut check = vec![false; m];
        let mut start = Vec::new();
        let mut succ = Vec::new();
        let mut extra = Vec::new();
        for (v, moves) in hand.succ.iter().enumerate() {
            start.push(succ.len());
            for &(t, gives) in moves {
                match t {
                    Next::Here(c) => {
                        check[c] |= gives;
                        succ.push(c as u32);
                    }
                    // A way out: a node of its own whose only move returns to itself:
                    // quiet moves of the holder forever (good), or of the opponent (bad).
                    way => {
                        let id = m + extra.len();
                        extra.push((way, v));
                        succ.push(id as u32);
                    }
                }
            }
        }
        for (i, (way, _)) in extra.iter().enumerate() {
            start.push(succ.len());
            stm.push(if *way == Next::Good {
                1 - hand.h
            } else {
                hand.h
            });
            check.push(false);
            succ.push((m + i) as u32);
        }
        start.push(succ.len());
        let g = Graph {
            entries: (0..stm.len()).collect(),
            stm,
            check,
            start,
            succ,
        };
        g.holder_wins(hand.h)[..m].iter().map(|&w| !w).collect()
    }

    /// A small random number generator for the tests.
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    #[test]
    fn a_holder_that_can_only_check_loses_and_a_quiet_move_saves_it() {
        // Node 0: the holder (1) checks to node 1; the opponent (0) answers back.
        let mut hand = Hand {
            stm: vec![1, 0],
            succ: vec![vec![(Next::Here(1), true)], vec![(Next::Here(0), false)]],
            h: 1,
        };
        assert_eq!(one_sided(&mut hand), [true, true]);
        assert_eq!(full(&hand), [true, true]);
        // With a quiet move too, the holder keeps the draw.
        hand.succ[0].push((Next::Here(1), false));
        assert_eq!(one_sided(&mut hand), [false, false]);
        // A capture into a draw the holder keeps is a way out as well.
        hand.succ[0] = vec![(Next::Here(1), true), (Next::Good, true)];
        assert_eq!(one_sided(&mut hand), [false, false]);
        assert_eq!(full(&hand), [false, false]);
        // A capture into a draw it loses is none.
        hand.succ[0] = vec![(Next::Here(1), true), (Next::Bad, false)];
        assert_eq!(one_sided(&mut hand), [true, true]);
        assert_eq!(full(&hand), [true, true]);
    }

    #[test]
    fn the_opponent_steers_into_the_checks_or_into_a_lost_capture() {
        // Node 0 (opponent to move) may go to node 1 (holder, only checks, to node 2 where
        // the opponent answers back to 1) or to node 3 (holder, quiet move back to 0).
        let mut hand = Hand {
            stm: vec![0, 1, 0, 1],
            succ: vec![
                vec![(Next::Here(1), false), (Next::Here(3), false)],
                vec![(Next::Here(2), true)],
                vec![(Next::Here(1), false)],
                vec![(Next::Here(0), false)],
            ],
            h: 1,
        };
        assert_eq!(one_sided(&mut hand), [true; 4]);
        assert_eq!(full(&hand), [true; 4]);
        // When the holder at 1 gets a quiet move to 3, it holds everywhere.
        hand.succ[1].push((Next::Here(3), false));
        assert_eq!(one_sided(&mut hand), [false; 4]);
        // A capture the opponent can make into a draw the holder loses decides node 0; the
        // quiet move to 3 then leads only there (3's one move goes to 0), so the holder at 1
        // is back to checking forever.
        hand.succ[0].push((Next::Bad, false));
        assert_eq!(one_sided(&mut hand), [true; 4]);
        assert_eq!(full(&hand), [true; 4]);
    }

    #[test]
    fn the_one_sided_pass_agrees_with_the_full_game_on_random_games() {
        let mut rng = Lcg(7);
        let mut lost = 0;
        for round in 0..5000 {
            let m = 2 + rng.below(10) as usize;
            let h = rng.below(2) as u8;
            let stm: Vec<u8> = (0..m).map(|_| rng.below(2) as u8).collect();
            // Whether the side to move at a node is in check: only the holder checks.
            let in_check: Vec<bool> = stm.iter().map(|&s| s != h && rng.below(2) == 0).collect();
            let succ: Vec<Vec<(Next, bool)>> = (0..m)
                .map(|v| {
                    let others: Vec<usize> = (0..m).filter(|&c| stm[c] != stm[v]).collect();
                    let k = 1 + rng.below(3);
                    (0..k)
                        .map(|_| match rng.below(10) {
                            0 => (Next::Good, stm[v] == h && rng.below(2) == 0),
                            1 => (Next::Bad, stm[v] == h && rng.below(2) == 0),
                            _ if others.is_empty() => (Next::Good, false),
                            _ => {
                                let c = others[rng.below(others.len() as u64) as usize];
                                (Next::Here(c), in_check[c])
                            }
                        })
                        .collect()
                })
                .collect();
            let mut hand = Hand { stm, succ, h };
            let expect = full(&hand);
            lost += expect.iter().filter(|&&x| x).count();
            assert_eq!(
                one_sided(&mut hand),
                expect,
                "round {round}: {:?} {:?}",
                hand.stm,
                hand.succ
            );
        }
        // The games were not all trivial.
        assert!(lost > 1000, "{lost}");
    }
}
