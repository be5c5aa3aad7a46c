//! Editing a move tree by its lines: each line of a tree is a path of moves from its start, and
//! a tree is changed by naming such paths — add one, cut one off, make one the main line. The
//! tree stays normalized (the first move of a variation has no variations of its own) and its
//! comments and annotations stay on their moves.
//!
//! The lines are numbered as [`Line::branches`] lists them: 0 is the main line (the first
//! choice at every move), then each move's variations in order, a move's before a later
//! move's, each variation's own lines before the next variation.

use crate::game::{Line, MoveNode};
use xiangqi_rules::Move;

/// Whether `line` is a variation that begins with `mv`.
fn begins_with(line: &Line, mv: Move) -> bool {
    line.moves.first().is_some_and(|n| n.mv == mv)
}

impl Line {
    /// Every line of the tree from its start, as its moves, in the order they are numbered
    /// (see the module's documentation). A tree without moves has one empty line.
    pub fn branches(&self) -> Vec<Vec<Move>> {
        let mut out = Vec::new();
        self.collect_branches(&mut Vec::new(), &mut out);
        out
    }

    /// Adds this line's lines to `out`, each after `before`.
    fn collect_branches(&self, before: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) {
        let mut main = before.clone();
        main.extend(self.moves.iter().map(|n| n.mv));
        out.push(main);
        let depth = before.len();
        for node in &self.moves {
            for variation in &node.variations {
                variation.collect_branches(before, out);
            }
            before.push(node.mv);
        }
        before.truncate(depth);
    }

    /// Walks `path` through the tree: the line its last move stands on, the number of that
    /// line's moves it has gone through, and where it last took a variation (the number of
    /// moves before that variation's first move). `None` when `path` is not in the tree.
    fn locate(&self, path: &[Move]) -> Option<(&Line, usize, Option<usize>)> {
        let mut line = self;
        let mut at = 0;
        let mut start = None;
        for (ply, &mv) in path.iter().enumerate() {
            let node = line.moves.get(at)?;
            if node.mv == mv {
                at += 1;
            } else {
                line = node.variations.iter().find(|v| begins_with(v, mv))?;
                at = 1;
                start = Some(ply);
            }
        }
        Some((line, at, start))
    }

    /// The moves the tree goes on with after `path` by the first choice at each move (empty
    /// where a line ends there), or `None` when `path` is not in the tree.
    pub fn continuation(&self, path: &[Move]) -> Option<Vec<Move>> {
        let (line, at, _) = self.locate(path)?;
        Some(line.moves[at..].iter().map(|n| n.mv).collect())
    }

    /// Where `path` (a path in the tree) last takes a move other than the first choice: the
    /// number of moves before that variation's first move. `None` for a path along the main
    /// line, or one not in the tree.
    pub fn variation_start(&self, path: &[Move]) -> Option<usize> {
        self.locate(path)?.2
    }

    /// Adds `path` to the tree: the moves it shares with a line stay that line's, and where it
    /// leaves the tree its other moves go on a line that ends there or start a variation.
    pub fn insert(&mut self, path: &[Move]) {
        self.insert_at(0, path);
    }

    /// [`Line::insert`] for the path's moves from this line's move `at` on.
    fn insert_at(&mut self, at: usize, path: &[Move]) {
        let Some((&mv, rest)) = path.split_first() else {
            return;
        };
        let Some(node) = self.moves.get_mut(at) else {
            self.moves.extend(path.iter().copied().map(MoveNode::new));
            return;
        };
        if node.mv == mv {
            return self.insert_at(at + 1, rest);
        }
        match node.variations.iter_mut().find(|v| begins_with(v, mv)) {
            Some(variation) => variation.insert_at(1, rest),
            None => node.variations.push(Line::from_moves(path.iter().copied())),
        }
    }

    /// Cuts off the last move of `path` with everything after it, the variations that leave
    /// those moves included; the first alternative to that move, if any, takes its place.
    /// False when `path` is empty or not in the tree.
    pub fn cut(&mut self, path: &[Move]) -> bool {
        self.cut_at(0, path)
    }

    /// [`Line::cut`] for the path's moves from this line's move `at` on.
    fn cut_at(&mut self, at: usize, path: &[Move]) -> bool {
        let Some((&mv, rest)) = path.split_first() else {
            return false;
        };
        let Some(node) = self.moves.get_mut(at) else {
            return false;
        };
        if node.mv == mv {
            if !rest.is_empty() {
                return self.cut_at(at + 1, rest);
            }
            let mut alternatives = std::mem::take(&mut node.variations);
            self.moves.truncate(at);
            if !alternatives.is_empty() {
                let first = alternatives.remove(0);
                let mut moves = first.moves.into_iter();
                if let Some(mut head) = moves.next() {
                    head.variations = alternatives;
                    self.moves.push(head);
                    self.moves.extend(moves);
                }
            }
            return true;
        }
        let Some(index) = node.variations.iter().position(|v| begins_with(v, mv)) else {
            return false;
        };
        if rest.is_empty() {
            node.variations.remove(index);
            true
        } else {
            node.variations[index].cut_at(1, rest)
        }
    }

    /// Makes the line through `path` the main line: wherever it took a variation, the
    /// variation becomes the first choice and the line it left goes on as a variation in its
    /// place. The path's moves beyond the tree are ignored.
    pub fn promote(&mut self, path: &[Move]) {
        self.promote_at(0, path);
    }

    /// [`Line::promote`] for the path's moves from this line's move `at` on.
    fn promote_at(&mut self, at: usize, path: &[Move]) {
        let Some((&mv, rest)) = path.split_first() else {
            return;
        };
        let Some(node) = self.moves.get_mut(at) else {
            return;
        };
        if node.mv != mv {
            let Some(index) = node.variations.iter().position(|v| begins_with(v, mv)) else {
                return;
            };
            let chosen = node.variations.remove(index);
            let mut alternatives = std::mem::take(&mut node.variations);
            let left = Line {
                comment: chosen.comment,
                moves: self.moves.split_off(at),
            };
            alternatives.insert(index, left);
            let mut moves = chosen.moves.into_iter();
            if let Some(mut head) = moves.next() {
                head.variations = alternatives;
                self.moves.push(head);
            }
            self.moves.extend(moves);
        }
        self.promote_at(at + 1, rest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(text: &str) -> Move {
        text.parse().expect("a move")
    }

    fn moves(texts: &[&str]) -> Vec<Move> {
        texts.iter().map(|t| m(t)).collect()
    }

    const MAIN: [&str; 4] = ["h2e2", "h9g7", "h0g2", "i9h9"];

    fn main_line() -> Line {
        Line::from_moves(moves(&MAIN))
    }

    #[test]
    fn a_path_leaving_the_tree_starts_a_variation_where_it_leaves() {
        let mut tree = main_line();
        tree.insert(&moves(&["h2e2", "h9g7", "b0c2", "b9c7"]));
        assert_eq!(tree.moves.len(), 4, "the main line is as it was");
        assert_eq!(
            tree.moves[2].variations,
            [Line::from_moves(moves(&["b0c2", "b9c7"]))]
        );
        assert_eq!(
            tree.branches(),
            [moves(&MAIN), moves(&["h2e2", "h9g7", "b0c2", "b9c7"])]
        );
        // A path along a line that ends there lengthens it.
        tree.insert(&moves(&["h2e2", "h9g7", "b0c2", "b9c7", "i0h0"]));
        assert_eq!(tree.branches()[1].len(), 5);
        assert_eq!(tree.branches().len(), 2);
    }

    #[test]
    fn continuation_follows_the_first_choices() {
        let mut tree = main_line();
        tree.insert(&moves(&["h2e2", "b9c7", "b0c2"]));
        assert_eq!(tree.continuation(&[]), Some(moves(&MAIN)));
        assert_eq!(
            tree.continuation(&moves(&["h2e2", "b9c7"])),
            Some(moves(&["b0c2"]))
        );
        assert_eq!(tree.continuation(&moves(&MAIN)), Some(Vec::new()));
        assert_eq!(tree.continuation(&moves(&["b0c2"])), None);
    }

    #[test]
    fn variation_start_names_the_last_departure() {
        let mut tree = main_line();
        tree.insert(&moves(&["h2e2", "b9c7", "b0c2"]));
        tree.insert(&moves(&["h2e2", "b9c7", "b0c2", "a9a8"]));
        tree.insert(&moves(&["h2e2", "b9c7", "h0g2"]));
        assert_eq!(tree.variation_start(&moves(&MAIN)), None);
        assert_eq!(
            tree.variation_start(&moves(&["h2e2", "b9c7", "b0c2"])),
            Some(1)
        );
        assert_eq!(
            tree.variation_start(&moves(&["h2e2", "b9c7", "h0g2"])),
            Some(2)
        );
    }

    #[test]
    fn cutting_a_move_drops_what_follows_and_its_first_alternative_takes_its_place() {
        let mut tree = main_line();
        tree.insert(&moves(&["h2e2", "h9g7", "b0c2"]));
        tree.insert(&moves(&["h2e2", "h9g7", "h0g2", "b9c7"]));
        assert!(tree.cut(&moves(&["h2e2", "h9g7", "h0g2"])));
        assert_eq!(tree.branches(), [moves(&["h2e2", "h9g7", "b0c2"])]);
        assert!(!tree.cut(&moves(&["b0c2"])), "not in the tree");
        assert!(!tree.cut(&[]));
        // Cutting a variation's first move drops the variation.
        let mut tree = main_line();
        tree.insert(&moves(&["h2e2", "b9c7"]));
        assert!(tree.cut(&moves(&["h2e2", "b9c7"])));
        assert_eq!(tree, main_line());
    }

    #[test]
    fn a_promoted_line_is_the_main_line_and_the_old_main_line_its_variation() {
        let mut tree = main_line();
        tree.moves[3].comment = Some("kept".into());
        let line = moves(&["h2e2", "h9g7", "b0c2", "b9c7"]);
        tree.insert(&line);
        tree.insert(&moves(&["h2e2", "h9g7", "b0c2", "a9a8"]));
        tree.promote(&moves(&["h2e2", "h9g7", "b0c2", "a9a8"]));
        let branches = tree.branches();
        assert_eq!(branches[0], moves(&["h2e2", "h9g7", "b0c2", "a9a8"]));
        assert!(branches.contains(&moves(&MAIN)));
        assert!(branches.contains(&line));
        assert_eq!(branches.len(), 3);
        assert_eq!(
            tree.moves[2].variations[0].moves[1].comment.as_deref(),
            Some("kept")
        );
        assert!(
            tree.moves[2]
                .variations
                .iter()
                .all(|v| v.moves[0].variations.is_empty())
        );
    }
}
