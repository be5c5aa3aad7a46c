//! A game being played, with its lines: the moves played up to the position shown, the moves
//! taken back that redo replays, and every line played from an earlier position, kept as a
//! record's move tree ([`Line`], its lines numbered as [`Line::branches`] numbers them).
//!
//! Play goes on from the position shown or from any earlier position of the line being
//! played, replacing the moves after it or starting a variation; undo and redo step along the
//! line; a line can be switched to, promoted to the main line or deleted. The record of the
//! game holds every line.

use crate::game::{Game as Record, Line};
use std::fmt;
use xiangqi_rules::explain::IllegalMove;
use xiangqi_rules::{Game, Move, Position};

/// What a move played from an earlier position does to the moves after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Branch {
    /// The moves after that position are dropped, with the variations that leave them.
    Replace,
    /// The line played so far stays; the move starts a variation, which play then follows.
    Variation,
}

/// What is done to a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum LineAction {
    /// Play follows the line, from its last position.
    Switch,
    /// The line becomes the main line; the main line becomes a variation.
    Promote,
    /// The line is dropped, with the variations that leave it.
    Delete,
}

/// Why a change to a [`PlayedGame`] was refused; the game is as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The line being played has no position after `ply` moves: it has `moves`.
    BadPly {
        /// The ply asked for.
        ply: usize,
        /// The moves played.
        moves: usize,
    },
    /// A move other than the line's next one, from the position after `ply` moves, needs a
    /// [`Branch`].
    ChoiceNeeded {
        /// Where the move is played from.
        ply: usize,
    },
    /// The game has no line `line`: it has `lines`.
    NoLine {
        /// The line asked for.
        line: usize,
        /// The lines the game has (0 is the main line).
        lines: usize,
    },
    /// The main line cannot be deleted.
    MainLine,
    /// The move is illegal where it is played, for the rules' reason.
    Illegal(IllegalMove),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::BadPly { ply, moves } => write!(
                f,
                "there is no position after move {ply}: the game has {moves} move{}",
                if *moves == 1 { "" } else { "s" }
            ),
            PlayError::ChoiceNeeded { ply } => write!(
                f,
                "the move is played from the position after move {ply}: say whether it \
                 replaces the moves after it (`replace`) or starts a variation (`variation`)"
            ),
            PlayError::NoLine { line, lines } => write!(
                f,
                "the game has no line {line}: it has {lines} (0 is the main line)"
            ),
            PlayError::MainLine => write!(
                f,
                "the main line cannot be deleted; promote another line first"
            ),
            PlayError::Illegal(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<IllegalMove> for PlayError {
    fn from(e: IllegalMove) -> PlayError {
        PlayError::Illegal(e)
    }
}

/// A game being played, with the moves taken back and every line (see the module's
/// documentation). Every change keeps the lines in step with the game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The line being played, up to the position shown.
    game: Game,
    /// Moves taken back, the next one to redo last.
    redo: Vec<Move>,
    /// The main line and the variations.
    tree: Line,
    /// The line being played, as its moves from the start: always a whole line of the tree.
    line: Vec<Move>,
}

/// The number of moves `a` and `b` begin with in common.
fn common_prefix(a: &[Move], b: &[Move]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

impl PlayedGame {
    /// The game `game` with one line: its moves.
    pub fn new(game: Game) -> PlayedGame {
        PlayedGame::with_redo(game, Vec::new())
    }

    /// The game `game` with `ahead` (legal in turn after its moves, next first) to redo; one
    /// line, its moves and then those. Moves of `ahead` from the first one that is not legal
    /// on are left out.
    pub fn with_redo(game: Game, ahead: Vec<Move>) -> PlayedGame {
        let mut pos = game.position().clone();
        let mut kept = Vec::new();
        for m in ahead {
            let Ok(m) = pos.check_move(m.from(), m.to()) else {
                break;
            };
            pos = pos.after(m);
            kept.push(m);
        }
        kept.reverse();
        let mut played = PlayedGame {
            game,
            redo: kept,
            tree: Line::default(),
            line: Vec::new(),
        };
        played.follow();
        played
    }

    /// The line being played, up to the position shown.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The moves redo replays, next first.
    pub fn ahead(&self) -> Vec<Move> {
        self.redo.iter().rev().copied().collect()
    }

    /// The number of the line being played (see [`Line::branches`]).
    pub fn current_line(&self) -> usize {
        self.tree
            .branches()
            .iter()
            .position(|b| *b == self.line)
            .unwrap_or(0)
    }

    /// The main line and the variations, as a move tree.
    pub fn tree(&self) -> &Line {
        &self.tree
    }

    /// Plays `m` in the position shown. A move that is the one redo would replay keeps the
    /// rest of the line; another drops the moves taken back, with the variations that leave
    /// them.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        self.game.play(m)?;
        if self.redo.last() == Some(&m) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.follow();
        Ok(())
    }

    /// Plays `m` from the position after `ply` moves of the line being played, as `choice`
    /// says: the position shown needs no choice, nor does the move the line goes on with
    /// there (play just goes there); another move needs one. The game is unchanged when it
    /// is refused.
    pub fn play_at(
        &mut self,
        ply: usize,
        m: Move,
        choice: Option<Branch>,
    ) -> Result<(), PlayError> {
        let played = self.game.moves().len();
        if ply > played {
            return Err(PlayError::BadPly { ply, moves: played });
        }
        if ply == played {
            return self.play(m);
        }
        let line = self.line.clone();
        let mut path = line[..ply].to_vec();
        path.push(m);
        if line.starts_with(&path) {
            return self.set_line(&path, &line[ply + 1..]);
        }
        let Some(choice) = choice else {
            return Err(PlayError::ChoiceNeeded { ply });
        };
        if let Some(before) = self.game.position_at(ply) {
            before.check_move(m.from(), m.to())?;
        }
        let rest = match choice {
            Branch::Replace => self.follow_path(&path),
            Branch::Variation => {
                let rest = self.tree.continuation(&path);
                if rest.is_none() {
                    self.tree.insert(&path);
                }
                let rest = rest.unwrap_or_default();
                self.line = path.clone();
                self.line.extend(&rest);
                rest
            }
        };
        self.set_line(&path, &rest)
    }

    /// Takes back up to `count` moves; the number taken back.
    pub fn undo(&mut self, count: usize) -> usize {
        let mut stepped = 0;
        while stepped < count {
            let Some(m) = self.game.undo() else { break };
            self.redo.push(m);
            stepped += 1;
        }
        stepped
    }

    /// Replays up to `count` moves taken back; the number of steps taken, which counts a
    /// move that no longer replays (the moves ahead are then dropped).
    pub fn redo(&mut self, count: usize) -> usize {
        let mut stepped = 0;
        while stepped < count {
            let Some(m) = self.redo.pop() else { break };
            stepped += 1;
            if self.game.play(m).is_err() {
                self.redo.clear();
                break;
            }
        }
        if stepped > 0 {
            self.follow();
        }
        stepped
    }

    /// Switches to, promotes or deletes line `line`. Switching plays the line to its end;
    /// deleting the line being played goes back to the end of the main line.
    pub fn change_line(&mut self, line: usize, action: LineAction) -> Result<(), PlayError> {
        let branches = self.tree.branches();
        let Some(chosen) = branches.get(line) else {
            return Err(PlayError::NoLine {
                line,
                lines: branches.len(),
            });
        };
        match action {
            LineAction::Switch => {
                self.line = chosen.clone();
                self.set_line(chosen, &[])
            }
            LineAction::Promote => {
                self.tree.promote(chosen);
                Ok(())
            }
            LineAction::Delete => {
                let Some(start) = self.tree.variation_start(chosen) else {
                    return Err(PlayError::MainLine);
                };
                let own = &chosen[..=start];
                if self.line.starts_with(own) {
                    self.line = self.tree.continuation(&[]).unwrap_or_default();
                }
                self.tree.cut(own);
                let path = self.line.clone();
                let played = self.game.moves();
                if path.starts_with(played) {
                    self.redo = path[played.len()..].iter().rev().copied().collect();
                    Ok(())
                } else {
                    self.set_line(&path, &[])
                }
            }
        }
    }

    /// The game's record: the main line with every variation where it leaves it (moves
    /// taken back that no other line passes through are not part of it), the main line's
    /// result, and for a finished main line the reason it ended as the comment on its last
    /// move. No tags.
    pub fn record(&self) -> Record {
        let mut tree = self.tree.clone();
        let mut line = self.line.clone();
        while line.len() > self.game.moves().len()
            && tree.continuation(&line).is_some_and(|rest| rest.is_empty())
        {
            tree.cut(&line);
            line.pop();
        }
        let mut main = Game::with_rules(self.game.start().clone(), *self.game.rules());
        for m in tree.continuation(&[]).unwrap_or_default() {
            if main.play(m).is_err() {
                break;
            }
        }
        let mut record = Record::from_played(&main);
        let comment = record.moves.moves.last().and_then(|n| n.comment.clone());
        record.moves = tree;
        if let (Some(comment), Some(last)) = (comment, record.moves.moves.last_mut()) {
            last.comment = Some(comment);
        }
        record
    }

    /// The lines as a page shows them: the main line, each move with the variations that
    /// leave it, each marked for the line being played.
    pub fn tree_moves(&self) -> Vec<TreeMove> {
        let mut next = 1;
        let walk = Walk {
            before: self.game.start().clone(),
            ply: 0,
            number: 0,
            on_current: true,
        };
        walk_line(
            &self.tree,
            &walk,
            &self.line,
            self.game.moves().len(),
            &mut next,
        )
    }

    /// The moves played then those ahead: the line being played as the game has it now.
    fn path(&self) -> Vec<Move> {
        let mut path = self.game.moves().to_vec();
        path.extend(self.redo.iter().rev());
        path
    }

    /// Brings the lines in step with the game after a move, an undo or a redo: a line
    /// changed by a move played over the moves taken back loses them and the variations that
    /// leave them. When the line being played is now the start of a longer line, play
    /// follows that line.
    fn follow(&mut self) {
        let rest = self.follow_path(&self.path());
        if !rest.is_empty() {
            self.redo = rest.into_iter().rev().collect();
        }
    }

    /// Makes the line being played `path`: when it changed, the moves it no longer has are
    /// cut off with every variation that leaves them, and a line that was the main line stays
    /// the main line. When `path` is now the start of a longer line, play follows that line:
    /// the answer is its moves beyond `path`.
    fn follow_path(&mut self, path: &[Move]) -> Vec<Move> {
        if self.line == path {
            return Vec::new();
        }
        let kept = common_prefix(&self.line, path);
        if self.line.len() > kept {
            let gone = &self.line[..=kept];
            let main = self.tree.continuation(&[]).unwrap_or_default();
            self.tree.cut(gone);
            self.tree.insert(path);
            if main.starts_with(gone) {
                self.tree.promote(path);
            }
        } else {
            self.tree.insert(path);
        }
        let rest = self.tree.continuation(path).unwrap_or_default();
        self.line = path.to_vec();
        self.line.extend(&rest);
        rest
    }

    /// Puts the game at the position after `path` (legal from the start), with `rest` ahead.
    fn set_line(&mut self, path: &[Move], rest: &[Move]) -> Result<(), PlayError> {
        let keep = common_prefix(self.game.moves(), path);
        while self.game.moves().len() > keep {
            self.game.undo();
        }
        for &m in &path[keep..] {
            self.game.play(m)?;
        }
        self.redo = rest.iter().rev().copied().collect();
        Ok(())
    }
}

/// One move of the lines as a page shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeMove {
    /// The move.
    pub mv: Move,
    /// The position it is played in.
    pub before: Position,
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

/// Where a walk over the tree stands at the start of a line.
struct Walk {
    /// The position before the line's first move.
    before: Position,
    /// The moves before it.
    ply: usize,
    /// The number of the lowest-numbered line through it.
    number: usize,
    /// Whether the line being played passes through the moves before it.
    on_current: bool,
}

/// The moves of `line` from where `at` says; `current` is the line being played, `played`
/// how much of it is, and `next` the number the next variation's line gets.
fn walk_line(
    line: &Line,
    at: &Walk,
    current: &[Move],
    played: usize,
    next: &mut usize,
) -> Vec<TreeMove> {
    let mut pos = at.before.clone();
    let mut on_current = at.on_current;
    let mut out = Vec::with_capacity(line.moves.len());
    for (i, node) in line.moves.iter().enumerate() {
        let ply = at.ply + i + 1;
        let variations = node
            .variations
            .iter()
            .map(|v| {
                let number = *next;
                *next += 1;
                let walk = Walk {
                    before: pos.clone(),
                    ply: ply - 1,
                    number,
                    on_current,
                };
                walk_line(v, &walk, current, played, next)
            })
            .collect();
        on_current = on_current && current.get(ply - 1) == Some(&node.mv);
        let after = pos.after(node.mv);
        out.push(TreeMove {
            mv: node.mv,
            before: std::mem::replace(&mut pos, after),
            ply,
            line: at.number,
            played: on_current && ply <= played,
            on_current_line: on_current,
            variations,
        });
    }
    out
}
