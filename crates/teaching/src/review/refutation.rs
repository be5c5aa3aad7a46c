//! Why a move was a mistake: the engine's best reply to it, its line, and what the line wins —
//! a mate, a piece (the most valuable one the mover loses along the line, with the net
//! material), or at least a threat. Kept as data so that each language can word it; the
//! English wording is [`Refutation::english`].

use super::threat::{Threat, threat_of};
use xiangqi_engine::SEE_VALUE;
use xiangqi_engine::score::Reported;
use xiangqi_rules::notation::{Notation, format_move};
use xiangqi_rules::{Color, Move, Piece, Position, Square};

/// How many plies of the refutation line are played out to count material: enough for a
/// threat, the move that meets it and the capture after, not so many that the line's tail
/// (the search's guess at quiet play) decides.
pub const MATERIAL_PLIES: usize = 6;

/// Net material below this (centipawns) is not a loss worth naming: a soldier or more.
pub const MATERIAL_NAMED: i32 = 100;

/// What the refutation wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consequence {
    /// The other side mates in this many of its moves.
    Mate {
        /// Moves until mate.
        moves: i32,
    },
    /// The mover loses material along the line.
    Material {
        /// The most valuable piece of the mover's that falls.
        piece: Piece,
        /// Where it is taken.
        square: Square,
        /// Net material the mover loses along the line, in centipawns.
        net: i32,
    },
    /// Nothing falls within the line, but the reply attacks this piece.
    Threat(Threat),
    /// The position is worse, with no single piece to point at.
    Positional,
}

/// The engine's answer to a mistake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refutation {
    /// The best reply to the played move.
    pub reply: Move,
    /// The line that the reply starts (the reply first).
    pub line: Vec<Move>,
    /// What the line wins.
    pub consequence: Consequence,
}

impl Refutation {
    /// The refutation of `played`, made in `before`, from the search of the position it
    /// leaves: that search's score (for the refuting side) and line. `None` when the line is
    /// empty or its first move is not legal after `played`.
    pub fn find(
        before: &Position,
        played: Move,
        score: Reported,
        line: &[Move],
    ) -> Option<Refutation> {
        let after = before.after(played);
        let reply = *line.first()?;
        after.check_move(reply.from(), reply.to()).ok()?;
        let consequence = match score {
            Reported::Mate(moves) if moves > 0 => Consequence::Mate { moves },
            _ => material_lost(before, played, line)
                .or_else(|| threat_of(&after.after(reply), reply).map(Consequence::Threat))
                .unwrap_or(Consequence::Positional),
        };
        Some(Refutation {
            reply,
            line: line.to_vec(),
            consequence,
        })
    }

    /// The refutation in English as what happened, with the reply in `notation`, for a reply
    /// that was played; `after` is the position after the mistake. E.g. `after 车二进六 the
    /// horse on c7 falls`. A reply that may not have been played is worded by
    /// [`Refutation::english_if`].
    pub fn english(&self, after: &Position, notation: Notation) -> String {
        let reply = format_move(after, self.reply, notation);
        let refuter = side_name(after.side_to_move());
        match self.consequence {
            Consequence::Mate { moves: 1 } => format!("{reply} mates"),
            Consequence::Mate { moves } => format!("after {reply} {refuter} mates in {moves}"),
            Consequence::Material { piece, square, .. } => {
                format!("after {reply} the {} on {square} falls", piece.kind.name())
            }
            Consequence::Threat(t) => format!(
                "after {reply} the {} on {} is attacked",
                t.piece.kind.name(),
                t.square
            ),
            Consequence::Positional => format!("after {reply} {refuter} stands better"),
        }
    }
}

impl Refutation {
    /// The refutation in English as what would follow, with the reply in `notation`: the
    /// reply is the engine's, not necessarily the game's; `after` is the position after the
    /// mistake. E.g. `if Black answers 车2进6, the horse on c7 falls`.
    pub fn english_if(&self, after: &Position, notation: Notation) -> String {
        let reply = format_move(after, self.reply, notation);
        let refuter = side_name(after.side_to_move());
        let then = match self.consequence {
            Consequence::Mate { moves: 1 } => "it is mate".to_string(),
            Consequence::Mate { moves } => format!("{refuter} mates in {moves}"),
            Consequence::Material { piece, square, .. } => {
                format!("the {} on {square} falls", piece.kind.name())
            }
            Consequence::Threat(t) => {
                format!("the {} on {} is attacked", t.piece.kind.name(), t.square)
            }
            Consequence::Positional => format!("{refuter} stands better"),
        };
        format!("if {refuter} answers {reply}, {then}")
    }
}

/// `Red` or `Black`.
fn side_name(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// The mover's loss from `played` (made in `before`) and the first [`MATERIAL_PLIES`] plies
/// of the refutation `line`, when the net is at least [`MATERIAL_NAMED`]: the most valuable
/// piece of the mover's taken, and where. What `played` itself took counts for the mover, so
/// that a trade is not a loss.
fn material_lost(before: &Position, played: Move, line: &[Move]) -> Option<Consequence> {
    let mover = before.side_to_move();
    let mut pos = before.clone();
    let mut net = 0;
    let mut fallen: Option<(Piece, Square)> = None;
    for &m in std::iter::once(&played).chain(line.iter().take(MATERIAL_PLIES)) {
        if pos.check_move(m.from(), m.to()).is_err() {
            break;
        }
        if let Some(taken) = pos.piece_at(m.to()) {
            let value = SEE_VALUE[taken.kind.index()];
            if taken.color == mover {
                net += value;
                if fallen.is_none_or(|(p, _)| SEE_VALUE[p.kind.index()] < value) {
                    fallen = Some((taken, m.to()));
                }
            } else {
                net -= value;
            }
        }
        pos.make_move(m);
    }
    let (piece, square) = fallen?;
    (net >= MATERIAL_NAMED).then_some(Consequence::Material { piece, square, net })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| m.parse().expect("move"))
            .collect()
    }

    // Red is about to play its horse from c3 to d5, where the black chariot on d8 takes it.
    const BEFORE_HORSE: &str = "5k3/3r5/9/9/9/9/2N6/9/9/4K4 w - - 0 1";

    fn before() -> Position {
        Position::from_fen(BEFORE_HORSE).unwrap()
    }

    fn played() -> Move {
        "c3d5".parse().unwrap()
    }

    #[test]
    fn a_taken_piece_is_named_with_its_point() {
        let r =
            Refutation::find(&before(), played(), Reported::Cp(400), &moves("d8d5 e0e1")).unwrap();
        let after = before().after(played());
        assert_eq!(
            r.consequence,
            Consequence::Material {
                piece: Piece::from_fen_char('N').unwrap(),
                square: "d5".parse().unwrap(),
                net: 400,
            }
        );
        assert_eq!(
            r.english(&after, Notation::Iccs),
            "after d8d5 the horse on d5 falls"
        );
        assert_eq!(
            r.english_if(&after, Notation::Iccs),
            "if Black answers d8d5, the horse on d5 falls"
        );
    }

    #[test]
    fn an_even_trade_is_no_loss() {
        // The chariot takes the horse and a red chariot on d0 takes it back.
        let fen = "5k3/3r5/9/9/9/9/2N6/9/9/3RK4 w - - 0 1";
        let before = Position::from_fen(fen).unwrap();
        let r =
            Refutation::find(&before, played(), Reported::Cp(-300), &moves("d8d5 d0d5")).unwrap();
        assert!(!matches!(r.consequence, Consequence::Material { .. }));
        // A horse that takes a cannon and is taken is a trade, not a loss.
        let fen = "5k3/3r5/9/9/3c5/9/2N6/9/9/4K4 w - - 0 1";
        let before = Position::from_fen(fen).unwrap();
        let r = Refutation::find(&before, played(), Reported::Cp(0), &moves("d8d5")).unwrap();
        assert!(!matches!(r.consequence, Consequence::Material { .. }));
    }

    #[test]
    fn a_mate_outranks_material() {
        let r = Refutation::find(&before(), played(), Reported::Mate(3), &moves("d8d5")).unwrap();
        let after = before().after(played());
        assert_eq!(r.consequence, Consequence::Mate { moves: 3 });
        assert_eq!(
            r.english(&after, Notation::Iccs),
            "after d8d5 Black mates in 3"
        );
        assert_eq!(
            r.english_if(&after, Notation::Iccs),
            "if Black answers d8d5, Black mates in 3"
        );
    }

    #[test]
    fn an_illegal_or_empty_line_gives_nothing() {
        assert_eq!(
            Refutation::find(&before(), played(), Reported::Cp(0), &[]),
            None
        );
        assert_eq!(
            Refutation::find(&before(), played(), Reported::Cp(0), &moves("d5d6")),
            None
        );
    }
}
