//! The lines of a game: the main line and the variations played from earlier positions, kept
//! as the record's own move tree ([`xiangqi_records::Line`], numbered as its `branches`
//! are), the line being played among them, and the game's record with all of them. The
//! session's game is the line being played up to the position shown, the session's redo
//! moves its rest.

use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::session::GameSession;
use crate::kit::view::MoveView;
use serde::{Deserialize, Serialize};
use serde_json::json;
use xiangqi_records::Line;
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

/// Every line of a game, as the record's move tree, and the one being played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variations {
    /// The main line and the variations. Empty until the game's first change is followed.
    tree: Line,
    /// The line being played, as its moves from the start, when the lines last followed
    /// the game: always a whole line of the tree.
    line: Vec<Move>,
}

/// The number of moves `a` and `b` begin with in common.
fn common_prefix(a: &[Move], b: &[Move]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

impl Variations {
    /// The number of the line being played (see [`Line::branches`]).
    pub fn current(&self) -> usize {
        self.tree
            .branches()
            .iter()
            .position(|b| *b == self.line)
            .unwrap_or(0)
    }

    /// Makes the line being played `path` (the moves played and those redo would replay):
    /// when it changed, the moves it no longer has are cut off with every variation that
    /// leaves them, and a line that was the main line stays the main line. When `path` is
    /// now the start of a longer line, play follows that line: the answer is its moves
    /// beyond `path`.
    fn follow(&mut self, path: &[Move]) -> Vec<Move> {
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
        let rest = match choice {
            Branch::Replace => self.variations.follow(&path),
            Branch::Variation => {
                let v = &mut self.variations;
                let rest = v.tree.continuation(&path);
                if rest.is_none() {
                    v.tree.insert(&path);
                }
                let rest = rest.unwrap_or_default();
                v.line = path.clone();
                v.line.extend(&rest);
                rest
            }
        };
        self.set_line(&path, &rest)
    }

    /// Switches to, promotes or deletes line `line`. Switching plays the line to its end;
    /// deleting the line being played goes back to the end of the main line. 422 `no-line`
    /// for a line the game does not have, `main-line` for deleting the main line.
    pub fn change_line(&mut self, line: usize, action: LineAction) -> Result<(), ApiError> {
        self.follow_game();
        let branches = self.variations.tree.branches();
        let Some(chosen) = branches.get(line) else {
            return Err(no_line(line, branches.len()));
        };
        let v = &mut self.variations;
        match action {
            LineAction::Switch => {
                v.line = chosen.clone();
                self.set_line(chosen, &[])
            }
            LineAction::Promote => {
                v.tree.promote(chosen);
                Ok(())
            }
            LineAction::Delete => {
                let Some(start) = v.tree.variation_start(chosen) else {
                    let mut err = ApiError::new(
                        ErrorCode::MainLine,
                        "the main line cannot be deleted; promote another line first",
                    );
                    err.params = json!({ "line": line });
                    return Err(err);
                };
                let own = &chosen[..=start];
                if v.line.starts_with(own) {
                    v.line = v.tree.continuation(&[]).unwrap_or_default();
                }
                v.tree.cut(own);
                let path = v.line.clone();
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

    /// The lines as the page shows them: the main line, each move with the variations that
    /// leave it.
    pub fn tree_view(&self) -> Vec<TreeMove> {
        let lines = self.lines_now();
        let mut next = 1;
        tree_moves(
            &lines.tree,
            &Walk {
                before: self.game.start().clone(),
                ply: 0,
                number: 0,
                on_current: true,
            },
            &lines.line,
            self.game.moves().len(),
            &mut next,
        )
    }

    /// The lines as they stand, the current one as the game has it even before the lines
    /// have followed its last change.
    fn lines_now(&self) -> Variations {
        let mut v = self.variations.clone();
        v.follow(&self.line_moves());
        v
    }

    /// The game's record: the main line with every variation where it leaves it (the line
    /// being played up to the position shown: moves taken back are not part of the game),
    /// the event and today's date, the main line's result, and for a finished main line the
    /// reason it ended as the comment on its last move, and for a game from the initial
    /// position its opening's ECCO, Opening and Variation tags.
    pub fn record(&self) -> xiangqi_records::Game {
        let Variations { mut tree, mut line } = self.lines_now();
        // Moves taken back go, as far as no other line passes through them.
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
        let mut record = xiangqi_records::Game::from_played(&main);
        let comment = record.moves.moves.last().and_then(|n| n.comment.clone());
        record.moves = tree;
        if let (Some(comment), Some(last)) = (comment, record.moves.moves.last_mut()) {
            last.comment = Some(comment);
        }
        let (year, month, day) = xiangqi_records::date::today();
        record.tags.set("Event", EVENT);
        record
            .tags
            .set("Date", &format!("{year:04}.{month:02}.{day:02}"));
        // A game from the initial position names its opening as ECCO does.
        let _ = xiangqi_teaching::openings::fill_tags(&mut record);
        record
    }
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

/// The moves of `line` as the page gets them, from where `at` says; `current` is the line
/// being played, `played` how much of it is, and `next` the number the next variation's line
/// gets.
fn tree_moves(
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
                tree_moves(v, &walk, current, played, next)
            })
            .collect();
        on_current = on_current && current.get(ply - 1) == Some(&node.mv);
        out.push(TreeMove {
            view: MoveView::new(&pos, node.mv),
            ply,
            line: at.number,
            played: on_current && ply <= played,
            on_current_line: on_current,
            variations,
        });
        pos = pos.after(node.mv);
    }
    out
}
