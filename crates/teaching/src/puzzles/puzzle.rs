//! One puzzle and its line in the export format:
//! `id<TAB>fen<TAB>moves<TAB>themes<TAB>rating`, where `moves` is the whole solution in ICCS
//! (ranks 0–9), the solver's moves and the replies alternating, the solver's first, separated
//! by spaces, and `themes` is a comma-separated list.

use super::theme::Theme;
use std::fmt;
use xiangqi_rules::{GameStatus, Move, Position};

/// A puzzle: a position, the line that solves it and what it teaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// A short id, unique within a set (`m2-3f9a01c2`, `pattern-iron-bolt-1` …).
    pub id: String,
    /// The position; the side to move is the solver.
    pub position: Position,
    /// The solution: the solver's move first, then the replies and the solver's answers
    /// alternating. Every move is legal where it is played.
    pub moves: Vec<Move>,
    /// What the puzzle teaches, at least one theme.
    pub themes: Vec<Theme>,
    /// Difficulty on the learner rating scale (about 600–2400).
    pub rating: u32,
}

impl Puzzle {
    /// The mate length when the puzzle is a `mateInN` puzzle.
    pub fn mate_length(&self) -> Option<u8> {
        self.themes.iter().find_map(Theme::mate_length)
    }

    /// The forced win's length when the puzzle is a `mateInN` or `stalemateInN` puzzle.
    pub fn forced_win_length(&self) -> Option<u8> {
        self.themes.iter().find_map(Theme::forced_win_length)
    }

    /// How the solution ends: checkmate or stalemate when its last move leaves the other
    /// side without a move, else `Ongoing`.
    pub fn ending(&self) -> GameStatus {
        self.position_at(self.moves.len()).status()
    }

    /// Whether the solver has a choice at the start: two legal moves or more (a position with
    /// one legal move is no puzzle).
    pub fn has_choice(&self) -> bool {
        self.position.legal_moves().len() >= 2
    }

    /// The puzzle with its position's counters as a new game has them (no move without a
    /// capture yet, move 1): the game the position came from is not the puzzle's, and a
    /// counter near the draw rule's limit would end the puzzle as a draw where it is played.
    pub fn without_history(&self) -> Puzzle {
        let fen = self.position.to_fen();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let fresh = match fields.as_slice() {
            [board, side, ..] => format!("{board} {side} - - 0 1"),
            _ => return self.clone(),
        };
        match Position::from_fen(&fresh) {
            Ok(position) => Puzzle {
                position,
                ..self.clone()
            },
            Err(_) => self.clone(),
        }
    }

    /// Whether the puzzle carries `theme`.
    pub fn has_theme(&self, theme: &Theme) -> bool {
        self.themes.contains(theme)
    }

    /// The solver's moves of the solution (every other move, starting with the first).
    pub fn solver_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves.iter().step_by(2).copied()
    }

    /// The position before each move of the solution, paired with that move.
    pub fn steps(&self) -> Vec<(Position, Move)> {
        let mut position = self.position.clone();
        let mut steps = Vec::with_capacity(self.moves.len());
        for &m in &self.moves {
            steps.push((position.clone(), m));
            position.make_move(m);
        }
        steps
    }

    /// The puzzle with its motif themes read again from its line by today's rules
    /// ([`super::motifs::detect_motifs`]): the other themes kept in their order, then the
    /// motifs the line shows (none for a `defence` puzzle, whose line is one move), then the
    /// named patterns its mate shows ([`super::patterns::detect_patterns`]).
    pub fn rethemed(&self) -> Puzzle {
        let patterns = super::patterns::detect_patterns(&self.position, &self.moves);
        // The themes kept: not the motifs, nor the patterns the rules find (both come after).
        let mut themes: Vec<Theme> = self
            .themes
            .iter()
            .filter(|t| !t.is_motif() && !patterns.contains(t))
            .cloned()
            .collect();
        if !themes.contains(&Theme::Defence) {
            themes.extend(super::motifs::detect_motifs(&self.position, &self.moves));
        }
        themes.extend(patterns);
        Puzzle {
            themes,
            ..self.clone()
        }
    }

    /// The puzzle as one line of the export format (no line break).
    pub fn to_line(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        let themes: Vec<String> = self.themes.iter().map(Theme::to_string).collect();
        write!(
            f,
            "{}\t{}\t{}\t{}\t{}",
            self.id,
            self.position.to_fen(),
            moves.join(" "),
            themes.join(","),
            self.rating
        )
    }
}
