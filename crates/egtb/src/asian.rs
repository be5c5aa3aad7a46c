//! The Asian-rules pass: which draws hold only by perpetual check.
//!
//! A plain table calls every position a draw from which neither side can force mate. Under
//! the Asian rules perpetual check is forbidden, so a side that keeps the draw only by
//! checking forever loses. For each side H that has a piece able to give check (the holder)
//! the drawn positions form a game graph: a move that leaves the draws is never chosen (it
//! loses for the mover), a capture into another ending's draw ends the game with that
//! table's Asian verdict. An endless play inside the draws is judged by the moves made
//! infinitely often: H keeps the draw if it makes a move that is not a check infinitely often,
//! or if the other side, from some point on, only checks (mutual perpetual check stays a
//! draw); otherwise H loses. This is a parity game with three priorities (a move that gives
//! check 0, the other side's quiet move 1, H's quiet move 2; H wins when the highest
//! priority seen infinitely often is even), solved exactly with Zielonka's algorithm. The
//! draws H does not win are marked lost under the Asian rules for H: lost for the side to
//! move when H is to move, won for the side to move otherwise. Chases are not judged.

use crate::generate::{Child, Progress, Subs, children};
use crate::layout::{Layout, Mv};
use crate::value::{DRAW, DRAW_ASIAN_LOSS, DRAW_ASIAN_WIN, is_draw};
use std::time::Instant;

/// Successor markers for captures into another ending's draw, by that table's verdict for
/// its side to move.
const SUB_DRAW: u32 = u32::MAX;
const SUB_CHILD_LOSES: u32 = u32::MAX - 1;
const SUB_CHILD_WINS: u32 = u32::MAX - 2;

/// The drawn positions as a graph.
pub(crate) struct Graph {
    /// The entry of each node.
    pub entries: Vec<usize>,
    /// Side to move at each node.
    pub stm: Vec<u8>,
    /// Whether the side to move at each node is in check.
    pub check: Vec<bool>,
    /// Successors of node `v`: `succ[start[v]..start[v + 1]]`, node ids or `SUB_*` markers.
    pub start: Vec<usize>,
    pub succ: Vec<u32>,
}

impl Graph {
    /// The graph of the draws among `codes` (only `DRAW` codes count as drawn).
    pub fn new(layout: &Layout, subs: &Subs, codes: &[u16]) -> Graph {
        let n = layout.size;
        let mut node = vec![u32::MAX; codes.len()];
        let mut entries = Vec::new();
        for (e, &c) in codes.iter().enumerate() {
            if c == DRAW {
                node[e] = entries.len() as u32;
                entries.push(e);
            }
        }
        let mut stm = Vec::with_capacity(entries.len());
        let mut check = Vec::with_capacity(entries.len());
        let mut start = Vec::with_capacity(entries.len() + 1);
        let mut succ = Vec::new();
        let mut moves: Vec<Mv> = Vec::new();
        let mut kids = Vec::new();
        for &e in &entries {
            let (s, idx) = ((e / n) as u8, e % n);
            let mut b = layout.decode(idx).expect("a draw is legal");
            stm.push(s);
            check.push(layout.in_check(&b, s));
            start.push(succ.len());
            children(layout, subs, &mut b, s, &mut moves, &mut kids);
            for &(_, child, _) in &kids {
                match child {
                    Child::Here(c) if node[c] != u32::MAX => succ.push(node[c]),
                    Child::Here(_) => {}
                    Child::Sub(code) if is_draw(code) => succ.push(match code {
                        DRAW_ASIAN_LOSS => SUB_CHILD_LOSES,
                        DRAW_ASIAN_WIN => SUB_CHILD_WINS,
                        _ => SUB_DRAW,
                    }),
                    Child::Sub(_) => {}
                }
            }
        }
        start.push(succ.len());
        Graph {
            entries,
            stm,
            check,
            start,
            succ,
        }
    }

    /// Nodes won by the holder `h` (at least a draw under the Asian rules), as flags.
    pub fn holder_wins(&self, h: u8) -> Vec<bool> {
        Game::new(self, h).solve()
    }
}

/// The parity game of one holder: the graph's nodes plus two sinks, GOOD (the holder keeps
/// at least a draw) and BAD (the holder loses).
struct Game {
    owner: Vec<u8>,
    priority: Vec<u8>,
    start: Vec<usize>,
    succ: Vec<u32>,
    pstart: Vec<usize>,
    pred: Vec<u32>,
    holder: u8,
}

impl Game {
    fn new(g: &Graph, h: u8) -> Game {
        let m = g.entries.len();
        let (good, bad) = (m as u32, m as u32 + 1);
        let mut owner: Vec<u8> = g.stm.clone();
        let mut priority: Vec<u8> = (0..m)
            .map(|v| {
                if g.check[v] {
                    0
                } else if g.stm[v] != h {
                    2
                } else {
                    1
                }
            })
            .collect();
        owner.extend([h, 1 - h]);
        priority.extend([2, 1]);
        let mut start = Vec::with_capacity(m + 3);
        let mut succ = Vec::with_capacity(g.succ.len() + 2);
        for v in 0..m {
            start.push(succ.len());
            // The side to move at the child of a capture from v.
            let child_stm = 1 - g.stm[v];
            for &s in &g.succ[g.start[v]..g.start[v + 1]] {
                succ.push(match s {
                    SUB_DRAW => good,
                    SUB_CHILD_LOSES => {
                        if child_stm == h {
                            bad
                        } else {
                            good
                        }
                    }
                    SUB_CHILD_WINS => {
                        if child_stm == h {
                            good
                        } else {
                            bad
                        }
                    }
                    s => s,
                });
            }
        }
        start.push(succ.len());
        succ.push(good);
        start.push(succ.len());
        succ.push(bad);
        start.push(succ.len());
        let total = m + 2;
        let mut count = vec![0usize; total + 1];
        for &t in &succ {
            count[t as usize + 1] += 1;
        }
        for i in 0..total {
            count[i + 1] += count[i];
        }
        let pstart = count.clone();
        let mut fill = count;
        let mut pred = vec![0u32; succ.len()];
        for v in 0..total {
            for &t in &succ[start[v]..start[v + 1]] {
                pred[fill[t as usize]] = v as u32;
                fill[t as usize] += 1;
            }
        }
        Game {
            owner,
            priority,
            start,
            succ,
            pstart,
            pred,
            holder: h,
        }
    }

    fn len(&self) -> usize {
        self.owner.len()
    }

    /// The nodes of `alive` from which `player` can force reaching `target` inside `alive`.
    fn attractor(&self, alive: &[bool], target: &[bool], player: u8) -> Vec<bool> {
        let mut attr = vec![false; self.len()];
        let mut left = vec![0u32; self.len()];
        let mut queue = Vec::new();
        for v in 0..self.len() {
            if !alive[v] {
                continue;
            }
            if target[v] {
                attr[v] = true;
                queue.push(v as u32);
            } else if self.owner[v] != player {
                left[v] = self.succ[self.start[v]..self.start[v + 1]]
                    .iter()
                    .filter(|&&t| alive[t as usize])
                    .count() as u32;
            }
        }
        while let Some(t) = queue.pop() {
            let t = t as usize;
            for &p in &self.pred[self.pstart[t]..self.pstart[t + 1]] {
                let p = p as usize;
                if !alive[p] || attr[p] {
                    continue;
                }
                if self.owner[p] == player {
                    attr[p] = true;
                    queue.push(p as u32);
                } else {
                    left[p] -= 1;
                    if left[p] == 0 {
                        attr[p] = true;
                        queue.push(p as u32);
                    }
                }
            }
        }
        attr
    }

    /// Zielonka's algorithm on the sub-game `alive` (a trap for neither player to leave):
    /// the nodes the holder wins.
    fn zielonka(&self, mut alive: Vec<bool>) -> Vec<bool> {
        let h = self.holder;
        let mut won = vec![false; self.len()];
        loop {
            let Some(p) = (0..self.len())
                .filter(|&v| alive[v])
                .map(|v| self.priority[v])
                .max()
            else {
                return won;
            };
            let alpha = if p % 2 == 0 { h } else { 1 - h };
            let top: Vec<bool> = (0..self.len())
                .map(|v| alive[v] && self.priority[v] == p)
                .collect();
            let a = self.attractor(&alive, &top, alpha);
            let sub: Vec<bool> = (0..self.len()).map(|v| alive[v] && !a[v]).collect();
            let sub_won = if sub.iter().any(|&x| x) {
                self.zielonka(sub.clone())
            } else {
                vec![false; self.len()]
            };
            // The part of the sub-game the opponent of alpha wins.
            let other: Vec<bool> = (0..self.len())
                .map(|v| sub[v] && (sub_won[v] != (alpha == h)))
                .collect();
            if !other.iter().any(|&x| x) {
                if alpha == h {
                    for v in 0..self.len() {
                        won[v] |= alive[v];
                    }
                }
                return won;
            }
            let b = self.attractor(&alive, &other, 1 - alpha);
            for v in 0..self.len() {
                if b[v] {
                    if 1 - alpha == h {
                        won[v] = true;
                    }
                    alive[v] = false;
                }
            }
        }
    }

    fn solve(&self) -> Vec<bool> {
        let mut won = self.zielonka(vec![true; self.len()]);
        won.truncate(self.len() - 2);
        won
    }
}

/// Marks the draws among `codes` that a side holds only by perpetual check. A holder whose
/// opponent cannot give check is judged without the graph (see
/// [`crate::asian_one_sided`]); the graph is built only when both sides can check.
pub(crate) fn mark(
    layout: &Layout,
    subs: &Subs,
    codes: &mut [u16],
    threads: usize,
    report: &mut dyn FnMut(Progress),
) {
    let side = |h: u8| layout.ending.side(crate::layout::color_of_code(h));
    let holders: Vec<u8> = [0u8, 1]
        .into_iter()
        .filter(|&h| side(h).has_attacker())
        .collect();
    if holders.is_empty() || !codes.contains(&DRAW) {
        return;
    }
    let started = Instant::now();
    let draws = codes.iter().filter(|&&c| c == DRAW).count();
    let mut lost: Vec<(usize, u8)> = Vec::new();
    let mut graph: Option<Graph> = None;
    for &h in &holders {
        if !side(1 - h).has_attacker() {
            let losses = crate::asian_one_sided::holder_losses(layout, subs, codes, h, threads);
            lost.extend(losses.into_iter().map(|e| (e, h)));
            continue;
        }
        let graph = graph.get_or_insert_with(|| Graph::new(layout, subs, codes));
        let won = graph.holder_wins(h);
        for (v, &w) in won.iter().enumerate() {
            if !w {
                lost.push((graph.entries[v], h));
            }
        }
    }
    let n = layout.size;
    for &(e, h) in &lost {
        codes[e] = if (e / n) as u8 == h {
            DRAW_ASIAN_LOSS
        } else {
            DRAW_ASIAN_WIN
        };
    }
    report(Progress::Step {
        ending: layout.ending.name(),
        phase: "asian",
        iteration: 1,
        decided: lost.len() as u64,
        per_second: draws as f64 / started.elapsed().as_secs_f64().max(1e-9),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-made graph: `succ[v]` lists v's successors, `stm[v]` its side to move and
    /// `check[v]` whether that side is in check.
    fn graph(stm: &[u8], check: &[bool], succ: &[&[u32]]) -> Graph {
        let mut start = Vec::new();
        let mut all = Vec::new();
        for s in succ {
            start.push(all.len());
            all.extend_from_slice(s);
        }
        start.push(all.len());
        Graph {
            entries: (0..stm.len()).collect(),
            stm: stm.to_vec(),
            check: check.to_vec(),
            start,
            succ: all,
        }
    }

    #[test]
    fn a_holder_that_only_checks_loses() {
        // Side 1 (the holder) at node 0 can only check (to node 1, where side 0 is in
        // check); side 0 answers quietly back to node 0.
        let g = graph(&[1, 0], &[false, true], &[&[1], &[0]]);
        assert_eq!(g.holder_wins(1), [false, false]);
        // Side 0 never has to check: it holds.
        assert_eq!(g.holder_wins(0), [true, true]);
    }

    #[test]
    fn a_quiet_way_out_keeps_the_draw() {
        // Node 0: the holder (1) may check (to 1) or play quietly (to 2); both lead back.
        let g = graph(&[1, 0, 0], &[false, true, false], &[&[1, 2], &[0], &[0]]);
        assert_eq!(g.holder_wins(1), [true, true, true]);
    }

    #[test]
    fn mutual_perpetual_check_is_a_draw() {
        // Both sides only check, back and forth.
        let g = graph(&[1, 0], &[true, true], &[&[1], &[0]]);
        assert_eq!(g.holder_wins(1), [true, true]);
        assert_eq!(g.holder_wins(0), [true, true]);
    }

    #[test]
    fn the_other_side_steers_into_the_checking_cycle() {
        // Node 0 (side 0 to move, quiet) may go to 1 (the checking cycle of holder 1) or to
        // 3 (holder 1 to move with a quiet move back to 0). Side 0 picks the cycle.
        let g = graph(
            &[0, 1, 0, 1],
            &[false, false, true, false],
            &[&[1, 3], &[2], &[1], &[0]],
        );
        // From node 3 the holder's only move leads back to node 0, and so into the cycle.
        assert_eq!(g.holder_wins(1), [false; 4]);
        // Side 0 never checks from outside it: it holds everywhere.
        assert_eq!(g.holder_wins(0), [true; 4]);
    }

    #[test]
    fn a_capture_into_a_drawn_ending_is_a_way_out() {
        // The holder's only move besides checking is a capture into a plain draw.
        let g = graph(&[1, 0], &[false, true], &[&[1, SUB_DRAW], &[0]]);
        assert_eq!(g.holder_wins(1), [true, true]);
        // Into a draw its side to move (here side 0, the other side) wins under the Asian
        // rules: no way out.
        let g = graph(&[1, 0], &[false, true], &[&[1, SUB_CHILD_WINS], &[0]]);
        assert_eq!(g.holder_wins(1), [false, false]);
    }
}
