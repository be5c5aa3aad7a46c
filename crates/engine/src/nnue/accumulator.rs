//! Accumulators kept up to date along the search's line: one entry per ply, pushed on make
//! and popped on unmake. An entry records only what its move changed; its values are
//! computed when a position on the line is first evaluated, from the nearest computed entry
//! below it (a quiet move adds one row and takes one away per perspective, a capture takes
//! one more away, a null move copies). A general's move that changes its side's view (its
//! palace bucket, in a network that has them) refreshes that side's accumulator from the
//! board at once, since every input of that side changes.

use super::features::{View, feature_index};
use super::net::Network;
use super::simd::Chunk;
use crate::score::Score;
use xiangqi_rules::{Color, Piece, PieceKind, Position, Square};

/// What the move into an entry changed on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    /// The root, or a position refreshed from scratch.
    Root,
    /// A null move: the pieces stand as they did.
    Null,
    /// `piece` went from `from` to `to`, taking `captured` if any.
    Move {
        piece: Piece,
        from: Square,
        to: Square,
        captured: Option<Piece>,
    },
}

/// The accumulators of the positions along the current line, both perspectives each.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    /// Chunks in one accumulator (`hidden / 16`).
    chunks: usize,
    /// Entry `i`, perspective `p` (Red 0, Black 1) at `(2i + p) · chunks`.
    values: Vec<Chunk>,
    changes: Vec<Change>,
    /// Entry `i`, perspective `p`: its values are up to date.
    computed: Vec<[bool; 2]>,
    /// Entry `i`, perspective `p`: how `p` sees that position.
    views: Vec<[View; 2]>,
    /// Index of the current entry.
    top: usize,
}

impl AccumulatorStack {
    /// A stack for `network` with room for `depth` moves past the root; it grows if a line
    /// goes deeper.
    pub fn new(network: &Network, depth: usize) -> AccumulatorStack {
        let entries = depth + 1;
        let chunks = network.chunks();
        AccumulatorStack {
            chunks,
            values: vec![Chunk::default(); entries * 2 * chunks],
            changes: vec![Change::Root; entries],
            computed: vec![[false; 2]; entries],
            views: vec![[View::default(); 2]; entries],
            top: 0,
        }
    }

    /// Starts a new line at `pos`, whose accumulators are computed from scratch.
    pub fn reset(&mut self, network: &Network, pos: &Position) {
        self.top = 0;
        self.changes[0] = Change::Root;
        for color in Color::ALL {
            let range = self.range(0, color);
            network.refresh(pos, color, &mut self.values[range]);
            self.views[0][color.index()] = View::of(pos, color, network.palace_buckets());
        }
        self.computed[0] = [true; 2];
    }

    fn range(&self, entry: usize, perspective: Color) -> std::ops::Range<usize> {
        let start = (2 * entry + perspective.index()) * self.chunks;
        start..start + self.chunks
    }

    fn push(&mut self, change: Change) {
        self.top += 1;
        if self.top == self.changes.len() {
            // Deeper than planned for: make room once, not per node.
            let entries = self.changes.len() * 2;
            self.values
                .resize(entries * 2 * self.chunks, Chunk::default());
            self.changes.resize(entries, Change::Root);
            self.computed.resize(entries, [false; 2]);
            self.views.resize(entries, [View::default(); 2]);
        }
        self.changes[self.top] = change;
        self.computed[self.top] = [false; 2];
        self.views[self.top] = self.views[self.top - 1];
    }

    /// Records the move of `piece` from `from` to `to`, capturing `captured`; `after` is the
    /// position the move led to (read only when a general's move changes its side's view).
    #[inline]
    pub fn push_move(
        &mut self,
        network: &Network,
        after: &Position,
        piece: Piece,
        from: Square,
        to: Square,
        captured: Option<Piece>,
    ) {
        self.push(Change::Move {
            piece,
            from,
            to,
            captured,
        });
        if piece.kind == PieceKind::General {
            let side = piece.color;
            let view = View::new(side, to, network.palace_buckets());
            if view != self.views[self.top][side.index()] {
                self.views[self.top][side.index()] = view;
                let range = self.range(self.top, side);
                network.refresh(after, side, &mut self.values[range]);
                self.computed[self.top][side.index()] = true;
            }
        }
    }

    /// Records a null move.
    #[inline]
    pub fn push_null(&mut self) {
        self.push(Change::Null);
    }

    /// Takes back the last move or null move.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the root");
        self.top = self.top.saturating_sub(1);
    }

    /// Computes `perspective`'s side of entry `entry` from entry `entry - 1`, which is
    /// computed and seen the same way (a change of view was refreshed when it was pushed).
    fn compute(&mut self, network: &Network, entry: usize, perspective: Color) {
        let backend = network.backend();
        let view = self.views[entry][perspective.index()];
        let src = self.range(entry - 1, perspective);
        let dst_start = self.range(entry, perspective).start;
        let (below, above) = self.values.split_at_mut(dst_start);
        let src = &below[src];
        let dst = &mut above[..self.chunks];
        match self.changes[entry] {
            Change::Root | Change::Null => dst.copy_from_slice(src),
            Change::Move {
                piece,
                from,
                to,
                captured,
            } => {
                let add = network.row(feature_index(perspective, view, piece, to));
                let sub = network.row(feature_index(perspective, view, piece, from));
                match captured {
                    None => backend.add_sub(dst, src, add, sub),
                    Some(victim) => {
                        let sub2 = network.row(feature_index(perspective, view, victim, to));
                        backend.add_sub_sub(dst, src, add, sub, sub2);
                    }
                }
            }
        }
        self.computed[entry][perspective.index()] = true;
    }

    /// Brings the current entry up to date from the nearest computed one below it, each
    /// perspective on its own.
    #[inline]
    fn update(&mut self, network: &Network) {
        for perspective in Color::ALL {
            let p = perspective.index();
            if self.computed[self.top][p] {
                continue;
            }
            let mut base = self.top;
            while !self.computed[base][p] {
                base -= 1;
            }
            for entry in base + 1..=self.top {
                self.compute(network, entry, perspective);
            }
        }
    }

    /// The evaluation of the current position, whose side to move is `side_to_move` and
    /// which has `pieces` pieces on the board.
    #[inline]
    pub fn evaluate(&mut self, network: &Network, side_to_move: Color, pieces: usize) -> Score {
        self.update(network);
        let us = &self.values[self.range(self.top, side_to_move)];
        let them = &self.values[self.range(self.top, side_to_move.opponent())];
        network.evaluate_accumulators(us, them, pieces)
    }

    /// The current position's accumulator from `perspective`'s side, as plain values.
    pub fn values(&mut self, network: &Network, perspective: Color) -> Vec<i16> {
        self.update(network);
        self.values[self.range(self.top, perspective)]
            .iter()
            .flat_map(|c| c.0)
            .collect()
    }

    /// Moves since the root on the current line.
    pub fn depth(&self) -> usize {
        self.top
    }
}
