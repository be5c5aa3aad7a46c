//! Endgame technique (残局技巧): puzzles from the exact tables of the endgame course's
//! endings, proven by the tables.
//!
//! A position makes a puzzle when its side to move has two legal moves or more, it is **quiet** — no piece of either side hangs (attacked and
//! not defended, or attacked by a cheaper piece), so that the answer is technique, not a
//! capture — and its side to move
//! - **wins**, mate being further than [`SHORTEST_WIN`] plies away (a nearer mate is a mate
//!   puzzle), and exactly one move keeps the win; or
//! - **holds the draw** by exactly one move, every other losing, under the Asian rules too (no
//!   draw that only perpetual check would hold).
//!
//! The line ([`endgame_line`]) is that move, which takes nothing; for a win, then the defender's reply that the
//! tables rate best for it (the longest resistance, the most natural move among equals, as
//! the endgame course plays it) and the solver's next move while it is again the only one
//! that keeps the win, up to [`LONGEST_LINE`] solver moves. The line is a function of the
//! position and the tables, so the proof is to derive it again ([`prove_endgame`]).

use super::mine::{position_key, puzzle_id};
use super::motifs::detect_motifs;
use super::puzzle::Puzzle;
use super::rating::measure;
use super::tactic::ProofEngine;
use super::theme::Theme;
use crate::endgames::app_move;
use std::collections::HashSet;
use std::fmt;
use xiangqi_egtb::{Asian, EgtbError, Ending, Tablebases, Value};
use xiangqi_engine::SEE_VALUE;
use xiangqi_rules::fen::{board_field, is_reachable};
use xiangqi_rules::random::SplitMix64;
use xiangqi_rules::{Color, GameStatus, Move, Piece, PieceKind, Position, Square};

/// The shortest win, in plies, that makes an endgame puzzle (longer than a mate in 5).
pub const SHORTEST_WIN: u16 = 11;
/// The most solver moves in an endgame puzzle's line.
pub const LONGEST_LINE: usize = 3;
/// The most puzzles one ending gives, so that the set is not one fortress over and over.
pub const MOST_PER_ENDING: usize = 60;

/// Why an endgame puzzle does not stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndgameError {
    /// The tables cannot answer (the material is not covered, or a table is damaged).
    Tables(String),
    /// The position is no endgame puzzle: no single move keeps its result.
    NoPuzzle,
    /// The line is not the one the tables give.
    NotTheLine {
        /// The tables' line.
        expected: Vec<Move>,
    },
}

impl fmt::Display for EndgameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndgameError::Tables(why) => write!(f, "the tables cannot answer: {why}"),
            EndgameError::NoPuzzle => write!(
                f,
                "the tables give no single move that keeps the result from here"
            ),
            EndgameError::NotTheLine { expected } => {
                let moves: Vec<String> = expected.iter().map(Move::to_string).collect();
                write!(f, "the tables' line is {}", moves.join(" "))
            }
        }
    }
}

impl std::error::Error for EndgameError {}

fn tables_error(e: EgtbError) -> EndgameError {
    EndgameError::Tables(e.to_string())
}

/// Whether no piece of either side hangs in `position`: attacked and not defended, or
/// attacked by a cheaper piece (the generals aside).
pub fn is_quiet(position: &Position) -> bool {
    let occupied = position.occupied();
    Square::all().all(|sq| {
        let Some(piece) = position.piece_at(sq) else {
            return true;
        };
        if piece.kind == PieceKind::General {
            return true;
        }
        let enemy = piece.color.opponent();
        let attackers = position.attackers_to(sq, enemy, occupied);
        if attackers.is_empty() {
            return true;
        }
        let worth = SEE_VALUE[piece.kind.index()];
        let cheaper = attackers.into_iter().any(|a| {
            position
                .piece_at(a)
                .is_some_and(|p| SEE_VALUE[p.kind.index()] < worth)
        });
        let defended = !position.attackers_to(sq, piece.color, occupied).is_empty();
        defended && !cheaper
    })
}

/// The one move of the side to move at `position` that keeps `goal` (a win, or a draw held
/// under the Asian rules too), when exactly one does.
fn only_move(
    tables: &Tablebases,
    position: &Position,
    win: bool,
) -> Result<Option<Move>, EndgameError> {
    let probe = tables.probe(position).map_err(tables_error)?;
    let keeps: Vec<Move> = probe
        .moves
        .iter()
        .filter(|m| match m.value {
            Value::Win(_) => win,
            Value::Draw => !win && m.asian == Asian::Same,
            Value::Loss(_) => false,
        })
        .map(|m| m.mv)
        .collect();
    Ok(match keeps.as_slice() {
        [only] => Some(*only),
        _ => None,
    })
}

/// The endgame puzzle's line at `position` (see the module docs); `None` when the position
/// makes none.
pub fn endgame_line(
    tables: &Tablebases,
    position: &Position,
) -> Result<Option<Vec<Move>>, EndgameError> {
    if !tables.covers(position) || !is_quiet(position) {
        return Ok(None);
    }
    let probe = tables.probe(position).map_err(tables_error)?;
    if probe.moves.len() < 2 {
        return Ok(None);
    }
    let win = match probe.value {
        Value::Win(d) if d >= SHORTEST_WIN => true,
        Value::Draw if probe.asian == Asian::Same => false,
        _ => return Ok(None),
    };
    let Some(first) = only_move(tables, position, win)? else {
        return Ok(None);
    };
    if position.piece_at(first.to()).is_some() {
        return Ok(None);
    }
    let mut line = vec![first];
    let mut at = position.after(first);
    while win && line.len().div_ceil(2) < LONGEST_LINE {
        let Some(reply) = app_move(tables, &at).map_err(tables_error)? else {
            break;
        };
        let after = at.after(reply.mv);
        match tables.probe(&after).map_err(tables_error)?.value {
            Value::Win(d) if d >= SHORTEST_WIN => {}
            _ => break,
        }
        let Some(next) = only_move(tables, &after, true)? else {
            break;
        };
        line.extend([reply.mv, next]);
        at = after.after(next);
    }
    Ok(Some(line))
}

/// Proves `puzzle` as an endgame puzzle: its line is the one the tables give.
pub fn prove_endgame(tables: &Tablebases, puzzle: &Puzzle) -> Result<(), EndgameError> {
    match endgame_line(tables, &puzzle.position)? {
        None => Err(EndgameError::NoPuzzle),
        Some(line) if line == puzzle.moves => Ok(()),
        Some(expected) => Err(EndgameError::NotTheLine { expected }),
    }
}

/// A random legal position of `ending`: either colour the stronger, either to move, every
/// piece on a point it can reach; `None` when the draw gives an illegal one (two pieces on a
/// point, the generals facing, the side not to move in check).
pub fn random_position(ending: &Ending, random: &mut SplitMix64) -> Option<Position> {
    let strong = if random.below(2) == 0 {
        Color::Red
    } else {
        Color::Black
    };
    let to_move = if random.below(2) == 0 {
        Color::Red
    } else {
        Color::Black
    };
    let mut board: Vec<Option<Piece>> = vec![None; 90];
    for (color, side) in [
        (strong, ending.strong()),
        (strong.opponent(), ending.weak()),
    ] {
        let mut kinds = vec![PieceKind::General];
        kinds.extend(side.pieces());
        for kind in kinds {
            let piece = Piece::new(color, kind);
            let points: Vec<Square> = Square::all()
                .filter(|&sq| is_reachable(piece, sq) && board[sq.index()].is_none())
                .collect();
            let at = *random.pick(&points)?;
            board[at.index()] = Some(piece);
        }
    }
    let side = if to_move == Color::Red { "w" } else { "b" };
    let fen = format!("{} {side} - - 0 1", board_field(|sq| board[sq.index()]));
    Position::from_fen(&fen)
        .ok()
        .filter(|p| p.status() == GameStatus::Ongoing)
}

/// Endgame puzzles of `ending` (at most [`MOST_PER_ENDING`]) from `tries` random positions
/// drawn with `random`, each with
/// its line, themes (`endgame` and the motifs the line shows) and the search score of
/// [`super::rating::measure`] as its rating (as the miner writes it). A position already in
/// `seen` (see [`super::mine::position_key`]) is skipped, and a kept one added.
pub fn mine_ending(
    tables: &Tablebases,
    ending: &Ending,
    tries: usize,
    random: &mut SplitMix64,
    seen: &mut HashSet<String>,
) -> Result<Vec<Puzzle>, EndgameError> {
    let engine = ProofEngine::new();
    let mut found = Vec::new();
    for _ in 0..tries {
        if found.len() >= MOST_PER_ENDING {
            break;
        }
        let Some(position) = random_position(ending, random) else {
            continue;
        };
        let key = position_key(&position);
        if seen.contains(&key) {
            continue;
        }
        let Some(line) = endgame_line(tables, &position)? else {
            continue;
        };
        seen.insert(key);
        let mut themes = vec![Theme::Endgame];
        themes.extend(detect_motifs(&position, &line));
        let rating = measure(&engine, &position, &line).score();
        found.push(Puzzle {
            id: puzzle_id("eg", &position),
            position,
            moves: line,
            themes,
            rating,
        });
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_egtb::{Options, generate};

    fn tables(endings: &[&str]) -> Tablebases {
        let dir = std::env::temp_dir().join(format!(
            "xiangqi-endgame-puzzles-{}-{}",
            std::process::id(),
            endings.join("-")
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let endings: Vec<Ending> = endings.iter().map(|e| Ending::parse(e).unwrap()).collect();
        generate(&endings, &dir, &Options::default(), &mut |_| {}).unwrap();
        Tablebases::open(&dir).unwrap()
    }

    #[test]
    fn a_position_with_a_hanging_piece_is_not_quiet() {
        // The chariot on e5 is attacked by the horse on d7 and defended by nothing.
        let hanging = Position::from_fen("5k3/9/3n5/9/4R4/9/9/9/9/3K5 w - - 0 1").unwrap();
        assert!(!is_quiet(&hanging));
        let quiet = Position::from_fen("5k3/9/3n5/9/9/9/9/9/4R4/3K5 w - - 0 1").unwrap();
        assert!(is_quiet(&quiet));
    }

    #[test]
    fn only_the_move_that_keeps_the_win_makes_a_line_and_the_tables_prove_it() {
        let tables = tables(&["KPKA"]);
        let ending = Ending::parse("KPKA").unwrap();
        let mut random = SplitMix64::new(7);
        let mut seen = HashSet::new();
        let found = mine_ending(&tables, &ending, 3000, &mut random, &mut seen).unwrap();
        assert!(
            !found.is_empty(),
            "no chariot-against-advisor puzzle in 3000 positions"
        );
        for puzzle in &found {
            assert_eq!(prove_endgame(&tables, puzzle), Ok(()), "{}", puzzle.id);
            let probe = tables.probe(&puzzle.position).unwrap();
            // The first move is the one move that keeps the position's result.
            let keeping: Vec<_> = probe
                .moves
                .iter()
                .filter(|m| match probe.value {
                    Value::Win(_) => matches!(m.value, Value::Win(_)),
                    _ => m.value == Value::Draw && m.asian == Asian::Same,
                })
                .collect();
            assert_eq!(keeping.len(), 1, "{}", puzzle.id);
            assert_eq!(keeping[0].mv, puzzle.moves[0]);
            // Quiet, and the answer takes nothing.
            assert!(is_quiet(&puzzle.position), "{}", puzzle.id);
            assert!(puzzle.position.piece_at(puzzle.moves[0].to()).is_none());
            assert!(puzzle.moves.len() % 2 == 1 && puzzle.moves.len() < 2 * LONGEST_LINE);
        }
        // Another line is refused, saying the tables' own.
        let mut wrong = found[0].clone();
        let other = wrong
            .position
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| m != wrong.moves[0])
            .unwrap();
        wrong.moves = vec![other];
        assert!(matches!(
            prove_endgame(&tables, &wrong),
            Err(EndgameError::NotTheLine { .. })
        ));
    }
}
