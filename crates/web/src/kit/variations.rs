//! The lines of a game: the main line and the variations played from earlier positions, the
//! line being played among them, and the game's record with all of them.
//!
//! Each line is kept whole, as its moves from the start position; line 0 is the main line.
//! No line is the start of another, so that the lines are exactly the branches of the game's
//! move tree: a move shared by several lines is one move of the tree, and where lines part,
//! the lowest-numbered one goes on and the others are its variations. The session's game is
//! the line being played up to the position shown, the session's redo moves its rest.

use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::session::GameSession;
use crate::kit::view::MoveView;
use serde::{Deserialize, Serialize};
use serde_json::json;
use xiangqi_records::{Line, MoveNode};
use xiangqi_rules::{Game, Move, Position};

/// The event tag of a game's record.
const EVENT: &str = "Casual game";

/// What a move played from an earlier position does to the moves after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Branch {
    /// The moves after that position are dropped, with the variations that leave them.
    Replace,
    /// The line played so far stays; the move starts a variation, which play then follows.
    Variation,
}

/// What is done to a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LineAction {
    /// Play follows the line, from its last position.
    Switch,
    /// The line becomes the main line; the main line becomes a variation.
    Promote,
    /// The line is dropped, with the variations that leave it.
    Delete,
}

/// Every line of a game and the one being played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variations {
    /// Each line's moves from the start; line 0 is the main line. Empty until the game's
    /// first change is followed.
    lines: Vec<Vec<Move>>,
    /// The line being played.
    current: usize,
}

/// The number of moves `a` and `b` begin with in common.
fn common_prefix(a: &[Move], b: &[Move]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

impl Variations {
    /// The index of the line being played.
    pub fn current(&self) -> usize {
        self.current
    }

    /// Keeps the lines for which `keep(index, line)` holds, the current one always; a main
    /// line that goes leaves the current line in its place.
    fn retain(&mut self, keep: impl Fn(usize, &[Move]) -> bool) {
        let mut kept = Vec::with_capacity(self.lines.len());
        let mut current = 0;
        let mut main_dropped = false;
        for (i, line) in std::mem::take(&mut self.lines).into_iter().enumerate() {
            if i == self.current {
                current = kept.len();
                kept.push(line);
            } else if keep(i, &line) {
                kept.push(line);
            } else if i == 0 {
                main_dropped = true;
            }
        }
        if main_dropped && current != 0 {
            let line = kept.remove(current);
            kept.insert(0, line);
            current = 0;
        }
        self.lines = kept;
        self.current = current;
    }

    /// Makes the line being played `path` (the moves played and those redo would replay):
    /// when it changed, the moves it no longer has are dropped with every variation that
    /// leaves them. When `path` is now the start of another line, play follows that line:
    /// the answer is its moves beyond `path`.
    fn follow(&mut self, path: &[Move]) -> Vec<Move> {
        if self.lines.is_empty() {
            self.lines.push(path.to_vec());
            self.current = 0;
            return Vec::new();
        }
        let old = &self.lines[self.current];
        if old.as_slice() == path {
            return Vec::new();
        }
        let kept = common_prefix(old, path);
        if old.len() > kept {
            let gone = old[..=kept].to_vec();
            self.retain(|_, line| !line.starts_with(&gone));
        }
        self.lines[self.current] = path.to_vec();
        self.merge_current()
    }

    /// When the current line is the start of another line, play follows the other: the
    /// current one goes and the answer is the other's moves beyond it.
    fn merge_current(&mut self) -> Vec<Move> {
        let path = &self.lines[self.current];
        let Some(other) =
            (0..self.lines.len()).find(|&i| i != self.current && self.lines[i].starts_with(path))
        else {
            return Vec::new();
        };
        let rest = self.lines[other][path.len()..].to_vec();
        if self.current == 0 {
            // The main line was the start of the other: the other takes its place.
            let line = self.lines.remove(other);
            self.lines[0] = line;
        } else {
            self.lines.remove(self.current);
            self.current = if other > self.current {
                other - 1
            } else {
                other
            };
        }
        rest
    }

    /// The line that begins with `path`, if any.
    fn line_starting(&self, path: &[Move]) -> Option<usize> {
        self.lines.iter().position(|l| l.starts_with(path))
    }

    /// The first move of line `index` that no earlier line has: where it leaves them.
    fn own_start(&self, index: usize) -> usize {
        let line = &self.lines[index];
        (0..line.len())
            .find(|&k| {
                !self.lines[..index]
                    .iter()
                    .any(|l| l.starts_with(&line[..=k]))
            })
            .unwrap_or(line.len().saturating_sub(1))
    }
}

/// One move of the move tree as the page gets it.
#[derive(Serialize, Debug, Clone)]
pub struct TreeMove {
    /// The move in every notation, with the position after it.
    #[serde(flatten)]
    pub view: MoveView,
    /// How many moves lead to the position after it, this one included.
    pub ply: usize,
    /// The lowest-numbered line through it (0: the main line), to switch to.
    pub line: usize,
    /// Whether the line being played passes through it up to the position shown.
    pub played: bool,
    /// Whether the line being played passes through it (played, or ahead for redo).
    pub on_current_line: bool,
    /// The lines that could have been played instead of it, each from its first move.
    pub variations: Vec<Vec<TreeMove>>,
}

/// A move of the tree before it is written for the page or a record.
struct Node {
    mv: Move,
    ply: usize,
    /// The lines through it, lowest first.
    lines: Vec<usize>,
    /// The position before it.
    before: Position,
    variations: Vec<Vec<Node>>,
}

/// The tree of `lines` from `start`: the line through the lowest-numbered line, with the
/// other lines as variations where they part from it.
fn tree(start: &Position, lines: &[Vec<Move>]) -> Vec<Node> {
    let all: Vec<usize> = (0..lines.len()).collect();
    branch(lines, &all, 0, start.clone())
}

/// The moves from ply `depth` on of the lines `group` (which share their first `depth`
/// moves), from `pos`.
fn branch(lines: &[Vec<Move>], group: &[usize], depth: usize, pos: Position) -> Vec<Node> {
    let mut out = Vec::new();
    let mut group = group.to_vec();
    let mut pos = pos;
    let mut ply = depth;
    loop {
        // The lines of the group by their move here, in the order of their lowest line.
        let mut parts: Vec<(Move, Vec<usize>)> = Vec::new();
        for &i in &group {
            let Some(&mv) = lines[i].get(ply) else {
                continue;
            };
            match parts.iter_mut().find(|(m, _)| *m == mv) {
                Some((_, members)) => members.push(i),
                None => parts.push((mv, vec![i])),
            }
        }
        if parts.is_empty() {
            return out;
        }
        let (mv, members) = parts.remove(0);
        let variations = parts
            .into_iter()
            .map(|(alt, alt_members)| {
                let mut line = vec![Node {
                    mv: alt,
                    ply: ply + 1,
                    lines: alt_members.clone(),
                    before: pos.clone(),
                    variations: Vec::new(),
                }];
                line.extend(branch(lines, &alt_members, ply + 1, pos.after(alt)));
                line
            })
            .collect();
        out.push(Node {
            mv,
            ply: ply + 1,
            lines: members.clone(),
            before: pos.clone(),
            variations,
        });
        pos = pos.after(mv);
        group = members;
        ply += 1;
    }
}

/// The record's line of `nodes`.
fn record_line(nodes: &[Node]) -> Line {
    Line {
        comment: None,
        moves: nodes
            .iter()
            .map(|n| MoveNode {
                variations: n.variations.iter().map(|v| record_line(v)).collect(),
                ..MoveNode::new(n.mv)
            })
            .collect(),
    }
}

/// 400 `bad-ply` for a ply the line being played does not reach.
pub(crate) fn bad_ply(ply: usize, moves: usize) -> ApiError {
    let mut err = ApiError::new(
        ErrorCode::BadPly,
        format!(
            "there is no position after move {ply}: the game has {moves} move{}",
            if moves == 1 { "" } else { "s" }
        ),
    );
    err.params = json!({ "ply": ply, "moves": moves });
    err
}

/// 422 `no-line` for a line the game does not have.
fn no_line(line: usize, lines: usize) -> ApiError {
    let mut err = ApiError::new(
        ErrorCode::NoLine,
        format!("the game has no line {line}: it has {lines} (0 is the main line)"),
    );
    err.params = json!({ "line": line, "lines": lines });
    err
}

impl GameSession {
    /// The line being played: the moves played, then those redo would replay.
    fn line_moves(&self) -> Vec<Move> {
        let mut path = self.game.moves().to_vec();
        path.extend(self.redo.iter().rev());
        path
    }

    /// Brings the lines in step with the game after a move, an undo or a redo: a line
    /// changed by a move played over the moves taken back loses them and the variations
    /// that leave them, as redo does.
    pub fn follow_game(&mut self) {
        let path = self.line_moves();
        let rest = self.variations.follow(&path);
        if !rest.is_empty() {
            self.redo = rest.into_iter().rev().collect();
        }
    }

    /// Puts the game at the position after `path` (legal from the start), with `rest` for
    /// redo.
    fn set_line(&mut self, path: &[Move], rest: &[Move]) -> Result<(), ApiError> {
        let keep = common_prefix(self.game.moves(), path);
        while self.game.moves().len() > keep {
            self.game.undo();
        }
        for &m in &path[keep..] {
            self.game
                .play(m)
                .map_err(|e| crate::kit::error::internal_play(&e))?;
        }
        self.redo = rest.iter().rev().copied().collect();
        Ok(())
    }

    /// Plays `m` (legal there) from the position after `ply` moves of the line being
    /// played, as `choice` says. A move that is the one the line already goes on with just
    /// goes there. 400 `bad-ply` beyond the moves played.
    pub fn play_from(&mut self, ply: usize, m: Move, choice: Branch) -> Result<(), ApiError> {
        let played = self.game.moves().len();
        if ply > played {
            return Err(bad_ply(ply, played));
        }
        self.follow_game();
        let line = self.line_moves();
        let mut path = line[..ply].to_vec();
        path.push(m);
        if line.starts_with(&path) {
            return self.set_line(&path, &line[ply + 1..]);
        }
        match choice {
            Branch::Replace => {
                let rest = self.variations.follow(&path);
                self.set_line(&path, &rest)
            }
            Branch::Variation => {
                let rest = match self.variations.line_starting(&path) {
                    Some(other) => {
                        self.variations.current = other;
                        self.variations.lines[other][path.len()..].to_vec()
                    }
                    None => {
                        self.variations.lines.push(path.clone());
                        self.variations.current = self.variations.lines.len() - 1;
                        Vec::new()
                    }
                };
                self.set_line(&path, &rest)
            }
        }
    }

    /// Switches to, promotes or deletes line `line`. Switching plays the line to its end;
    /// deleting the line being played goes back to the end of the main line. 422 `no-line`
    /// for a line the game does not have, `main-line` for deleting the main line.
    pub fn change_line(&mut self, line: usize, action: LineAction) -> Result<(), ApiError> {
        self.follow_game();
        let count = self.variations.lines.len();
        if line >= count {
            return Err(no_line(line, count));
        }
        match action {
            LineAction::Switch => {
                self.variations.current = line;
                let path = self.variations.lines[line].clone();
                self.set_line(&path, &[])
            }
            LineAction::Promote => {
                let v = &mut self.variations;
                v.lines.swap(0, line);
                if v.current == line {
                    v.current = 0;
                } else if v.current == 0 {
                    v.current = line;
                }
                Ok(())
            }
            LineAction::Delete => {
                if line == 0 {
                    let mut err = ApiError::new(
                        ErrorCode::MainLine,
                        "the main line cannot be deleted; promote another line first",
                    );
                    err.params = json!({ "line": line });
                    return Err(err);
                }
                let v = &mut self.variations;
                let own = v.lines[line][..=v.own_start(line)].to_vec();
                if v.lines[v.current].starts_with(&own) {
                    v.current = 0;
                }
                v.retain(|_, l| !l.starts_with(&own));
                let path = self.variations.lines[self.variations.current].clone();
                let played = self.game.moves().to_vec();
                if path.starts_with(&played) {
                    let rest = path[played.len()..].to_vec();
                    self.redo = rest.into_iter().rev().collect();
                    Ok(())
                } else {
                    self.set_line(&path, &[])
                }
            }
        }
    }

    /// The lines as the page shows them: the main line, each move with the variations that
    /// leave it.
    pub fn tree_view(&self) -> Vec<TreeMove> {
        let lines = self.lines_now();
        let current = self.variations.current.min(lines.len().saturating_sub(1));
        let played = self.game.moves().len();
        fn view(nodes: &[Node], current: usize, played: usize) -> Vec<TreeMove> {
            nodes
                .iter()
                .map(|n| {
                    let on_current_line = n.lines.contains(&current);
                    TreeMove {
                        view: MoveView::new(&n.before, n.mv),
                        ply: n.ply,
                        line: n.lines[0],
                        played: on_current_line && n.ply <= played,
                        on_current_line,
                        variations: n
                            .variations
                            .iter()
                            .map(|v| view(v, current, played))
                            .collect(),
                    }
                })
                .collect()
        }
        view(&tree(self.game.start(), &lines), current, played)
    }

    /// The lines as they stand, the current one as the game has it even before the lines
    /// have followed its last change.
    fn lines_now(&self) -> Vec<Vec<Move>> {
        let mut v = self.variations.clone();
        v.follow(&self.line_moves());
        v.lines
    }

    /// The game's record: the main line with every variation where it leaves it (the line
    /// being played up to the position shown: moves taken back are not part of the game),
    /// the event and today's date, the main line's result, and for a finished main line the
    /// reason it ended as the comment on its last move.
    pub fn record(&self) -> xiangqi_records::Game {
        let mut lines = self.lines_now();
        let current = self.variations.current.min(lines.len().saturating_sub(1));
        lines[current].truncate(self.game.moves().len());
        let mut main = Game::with_rules(self.game.start().clone(), *self.game.rules());
        for &m in &lines[0] {
            if main.play(m).is_err() {
                break;
            }
        }
        let mut record = xiangqi_records::Game::from_played(&main);
        let comment = record.moves.moves.last().and_then(|n| n.comment.clone());
        record.moves = record_line(&tree(self.game.start(), &lines));
        if let (Some(comment), Some(last)) = (comment, record.moves.moves.last_mut()) {
            last.comment = Some(comment);
        }
        let (year, month, day) = xiangqi_records::date::today();
        record.tags.set("Event", EVENT);
        record
            .tags
            .set("Date", &format!("{year:04}.{month:02}.{day:02}"));
        record
    }
}
