//! The game tree: a start position, a main line of moves, and at any move the alternatives
//! to it (variations), each a line of its own; comments and NAGs on moves; tags; the result.

use crate::error::{UnplayableMove, WriteError};
use crate::tags::Tags;
use std::fmt;
use xiangqi_rules::GameResult;
use xiangqi_rules::{Color, Move, Position};

/// How deeply variations may nest (a variation inside a variation … of the main line).
/// Readers report deeper nesting as an error and writers refuse it, so that no tree is too
/// deep to walk.
pub const MAX_VARIATION_DEPTH: usize = 100;

/// A numeric annotation glyph: `$1` good move (`!`), `$2` poor move (`?`), `$3` very good
/// (`!!`), `$4` very poor (`??`), `$5` speculative (`!?`), `$6` questionable (`?!`), and so on
/// up to 255.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl Nag {
    /// The move-suffix symbols and the NAGs they stand for.
    const SYMBOLS: [(&'static str, u8); 6] = [
        ("!", 1),
        ("?", 2),
        ("!!", 3),
        ("??", 4),
        ("!?", 5),
        ("?!", 6),
    ];

    /// The NAG for a suffix symbol such as `!?`.
    pub fn from_symbol(symbol: &str) -> Option<Nag> {
        Nag::SYMBOLS
            .iter()
            .find(|(s, _)| *s == symbol)
            .map(|&(_, n)| Nag(n))
    }

    /// The suffix symbol of NAGs 1–6.
    pub fn symbol(self) -> Option<&'static str> {
        Nag::SYMBOLS
            .iter()
            .find(|(_, n)| *n == self.0)
            .map(|&(s, _)| s)
    }
}

impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// A move of the tree, what is said about it, and the alternatives to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNode {
    /// The move, legal in the position where it stands.
    pub mv: Move,
    /// Annotation glyphs, in the order given.
    pub nags: Vec<Nag>,
    /// The comment after the move; readers never give an empty one.
    pub comment: Option<String>,
    /// Lines that could have been played instead of this move, from the same position. In a
    /// normalized tree (what readers give) the first move of a variation has no variations
    /// of its own: alternatives to it are further variations here.
    pub variations: Vec<Line>,
}

impl MoveNode {
    /// A bare move: no annotation, no comment, no variation.
    pub fn new(mv: Move) -> MoveNode {
        MoveNode {
            mv,
            nags: Vec::new(),
            comment: None,
            variations: Vec::new(),
        }
    }
}

/// A sequence of moves, with the comment before its first move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The comment before the first move (for the main line: the comment on the game).
    pub comment: Option<String>,
    /// The moves, each played in the position the one before it leaves.
    pub moves: Vec<MoveNode>,
}

impl Line {
    /// A line of bare moves.
    pub fn from_moves(moves: impl IntoIterator<Item = Move>) -> Line {
        Line {
            comment: None,
            moves: moves.into_iter().map(MoveNode::new).collect(),
        }
    }
}

/// The number of a move as records print it: `12.` for Red's twelfth, `12...` for Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumber {
    /// The full-move number (both sides' moves share it).
    pub number: u32,
    /// The side that makes the move.
    pub side: Color,
}

impl MoveNumber {
    /// The number of the move `ply` half-moves after `start` (ply 0 is the first move).
    pub fn of_ply(start: &Position, ply: usize) -> MoveNumber {
        let black_first = usize::from(start.side_to_move() == Color::Black);
        let half = ply + black_first;
        let number = u32::try_from(half / 2)
            .unwrap_or(u32::MAX)
            .saturating_add(start.fullmove_number());
        let side = if half.is_multiple_of(2) {
            Color::Red
        } else {
            Color::Black
        };
        MoveNumber { number, side }
    }
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.side {
            Color::Red => write!(f, "{}.", self.number),
            Color::Black => write!(f, "{}...", self.number),
        }
    }
}

/// Why a tree cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TreeError {
    /// A move is not legal where it stands.
    IllegalMove(UnplayableMove),
    /// Variations nest deeper than [`MAX_VARIATION_DEPTH`].
    TooDeep,
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TreeError::IllegalMove(unplayable) => write!(f, "{unplayable}"),
            TreeError::TooDeep => write!(
                f,
                "variations nest deeper than {MAX_VARIATION_DEPTH} levels"
            ),
        }
    }
}

impl std::error::Error for TreeError {}

/// A game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Event, players, date and the like. The start position and the result are not tags.
    pub tags: Tags,
    /// The position before the first move.
    pub start: Position,
    /// The main line, with the comment on the game before its first move.
    pub moves: Line,
    /// How the game ended.
    pub result: Option<GameResult>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::startpos())
    }
}

impl Game {
    /// A game from `start` with no moves, tags or result yet.
    pub fn new(start: Position) -> Game {
        Game {
            tags: Tags::new(),
            start,
            moves: Line::default(),
            result: None,
        }
    }

    /// The moves of the main line.
    pub fn mainline(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves.moves.iter().map(|n| n.mv)
    }

    /// How many moves the tree holds, variations included.
    pub fn move_count(&self) -> usize {
        let mut count = 0;
        let mut stack = vec![&self.moves];
        while let Some(line) = stack.pop() {
            count += line.moves.len();
            stack.extend(line.moves.iter().flat_map(|n| n.variations.iter()));
        }
        count
    }

    /// How many annotation glyphs (NAGs) the tree holds, variations included.
    pub fn nag_count(&self) -> usize {
        let mut count = 0;
        let mut stack = vec![&self.moves];
        while let Some(line) = stack.pop() {
            for node in &line.moves {
                count += node.nags.len();
                stack.extend(node.variations.iter());
            }
        }
        count
    }

    /// Checks that every move is legal where it stands and that variations nest at most
    /// [`MAX_VARIATION_DEPTH`] deep.
    pub fn validate(&self) -> Result<(), TreeError> {
        let mut stack = vec![(&self.moves, self.start.clone(), 0usize, 0usize)];
        while let Some((line, mut pos, mut ply, depth)) = stack.pop() {
            if depth > MAX_VARIATION_DEPTH {
                return Err(TreeError::TooDeep);
            }
            for node in &line.moves {
                for v in &node.variations {
                    stack.push((v, pos.clone(), ply, depth + 1));
                }
                if let Err(reason) = pos.check_move(node.mv.from(), node.mv.to()) {
                    return Err(TreeError::IllegalMove(UnplayableMove {
                        number: MoveNumber::of_ply(&self.start, ply),
                        mv: node.mv,
                        reason,
                    }));
                }
                pos.make_move(node.mv);
                ply += 1;
            }
        }
        Ok(())
    }

    /// Puts the tree in the form readers give: comments trimmed and never empty, no empty
    /// variations, and alternatives to the first move of a variation moved up to stand
    /// beside it. Walks the tree recursively: call [`Game::validate`] first on a tree of
    /// unknown depth.
    pub fn normalize(&mut self) {
        normalize_line(&mut self.moves);
    }

    /// A normalized copy (see [`Game::normalize`]).
    pub fn normalized(&self) -> Game {
        let mut g = self.clone();
        g.normalize();
        g
    }
}

/// Checks games before they are written: the first whose tree is not legal, or too deep, is
/// the error.
pub(crate) fn check_for_writing(games: &[Game]) -> Result<(), WriteError> {
    for (i, game) in games.iter().enumerate() {
        game.validate()
            .map_err(|error| WriteError::Tree { game: i + 1, error })?;
    }
    Ok(())
}

/// The move between two ICCS points written together, e.g. `h2e2`.
#[cfg(test)]
pub(crate) fn mv(text: &str) -> Move {
    text.parse::<Move>().expect("two points")
}

/// Trims a comment; `None` when nothing is left.
pub(crate) fn clean_comment(text: &str) -> Option<String> {
    let t = text.replace("\r\n", "\n").replace('\r', "\n");
    let t = crate::text::trim_layout(&t);
    (!t.is_empty()).then(|| t.to_string())
}

fn normalize_comment(comment: &mut Option<String>) {
    *comment = comment.as_deref().and_then(clean_comment);
}

fn normalize_line(line: &mut Line) {
    normalize_comment(&mut line.comment);
    for node in &mut line.moves {
        normalize_comment(&mut node.comment);
        let mut flat = Vec::with_capacity(node.variations.len());
        for mut v in std::mem::take(&mut node.variations) {
            normalize_line(&mut v);
            if let Some(first) = v.moves.first_mut() {
                let hoisted = std::mem::take(&mut first.variations);
                flat.push(v);
                flat.extend(hoisted);
            }
        }
        node.variations = flat;
    }
}

/// For formats with one comment a move and none before a variation: the comment before each
/// variation is put in front of the comment on its first move. The main line's comment
/// stays, as the comment on the game.
pub(crate) fn fold_variation_comments(line: &mut Line) {
    for node in &mut line.moves {
        for v in &mut node.variations {
            if let Some(before) = v.comment.take()
                && let Some(first) = v.moves.first_mut()
            {
                first.comment = Some(match first.comment.take() {
                    Some(after) => format!("{before}\n{after}"),
                    None => before,
                });
            }
            fold_variation_comments(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_count_from_the_start_position() {
        let start = Position::startpos();
        assert_eq!(MoveNumber::of_ply(&start, 0).to_string(), "1.");
        assert_eq!(MoveNumber::of_ply(&start, 1).to_string(), "1...");
        assert_eq!(MoveNumber::of_ply(&start, 2).to_string(), "2.");
        let black = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 7",
        )
        .unwrap();
        assert_eq!(MoveNumber::of_ply(&black, 0).to_string(), "7...");
        assert_eq!(MoveNumber::of_ply(&black, 1).to_string(), "8.");
    }

    #[test]
    fn validate_names_the_illegal_move() {
        let mut game = Game::new(Position::startpos());
        game.moves = Line::from_moves([mv("h2e2"), mv("h9g7"), mv("h0g2")]);
        assert_eq!(game.validate(), Ok(()));
        game.moves.moves[1]
            .variations
            .push(Line::from_moves([mv("b9c7"), mv("a0a5")]));
        match game.validate() {
            Err(TreeError::IllegalMove(unplayable)) => {
                assert_eq!(unplayable.number.to_string(), "2.");
                assert_eq!(unplayable.mv, mv("a0a5"));
                assert_eq!(unplayable.reason.code(), "chariot-path-blocked");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn normalize_hoists_alternatives_to_a_variation_start() {
        let mut game = Game::new(Position::startpos());
        let mut inner = Line::from_moves([mv("b9c7")]);
        inner.moves[0]
            .variations
            .push(Line::from_moves([mv("b7e7")]));
        inner.moves[0].comment = Some("  x \r\n y ".to_string());
        game.moves = Line::from_moves([mv("h2e2"), mv("h9g7")]);
        game.moves.moves[1].variations.push(inner);
        game.moves.moves[1].variations.push(Line::default());
        game.moves.comment = Some("   ".to_string());
        game.normalize();
        let vars = &game.moves.moves[1].variations;
        assert_eq!(vars.len(), 2);
        assert_eq!(vars[0].moves[0].mv, mv("b9c7"));
        assert!(vars[0].moves[0].variations.is_empty());
        assert_eq!(vars[0].moves[0].comment.as_deref(), Some("x \n y"));
        assert_eq!(vars[1].moves[0].mv, mv("b7e7"));
        assert_eq!(game.moves.comment, None);
        assert_eq!(game.move_count(), 4);
    }

    #[test]
    fn nag_symbols() {
        assert_eq!(Nag::from_symbol("!?"), Some(Nag(5)));
        assert_eq!(Nag(4).symbol(), Some("??"));
        assert_eq!(Nag(13).symbol(), None);
        assert_eq!(Nag(13).to_string(), "$13");
    }
}
