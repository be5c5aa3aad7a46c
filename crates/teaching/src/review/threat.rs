//! What a move threatens: the most valuable enemy piece the moved piece attacks. The app's
//! hints and the review's explanation of a mistake both say it. What a move does, most
//! important first ([`MoveEffect`]): it ends the game, it takes a piece, it checks, it attacks.

use xiangqi_engine::SEE_VALUE;
use xiangqi_rules::{GameStatus, Move, Piece, PieceKind, Position, Square};

/// A piece under attack and the point it stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threat {
    /// Where the piece stands.
    pub square: Square,
    /// The piece.
    pub piece: Piece,
}

/// The exchange value of a piece, for choosing among threats: a check ranks below every
/// piece, since the reply to it is forced but nothing is won by it alone.
fn threat_rank(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::General => 0,
        _ => SEE_VALUE[kind.index()],
    }
}

/// The most valuable piece of the side to move in `after` that the piece which just moved
/// to `moved.to()` attacks, if any; `after` is the position after `moved`.
pub fn threat_of(after: &Position, moved: Move) -> Option<Threat> {
    let victim = after.side_to_move();
    after
        .attacks_from(moved.to())
        .filter_map(|square| after.piece_at(square).map(|piece| Threat { square, piece }))
        .filter(|t| t.piece.color == victim)
        .max_by_key(|t| threat_rank(t.piece.kind))
}

/// What a move does at once, for saying it most important first: whether it mates or
/// stalemates (both win), what it takes, whether it checks (the moved piece or one it
/// uncovers), and what the moved piece attacks besides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEffect {
    /// The game ends with it: the other side is mated or stalemated.
    pub ends: Option<GameStatus>,
    /// The piece it takes, and where.
    pub captures: Option<Threat>,
    /// Whether it gives check.
    pub check: bool,
    /// The most valuable piece (not the general) the moved piece attacks after it.
    pub threat: Option<Threat>,
}

/// What `m`, played in `pos`, does at once.
pub fn effect_of(pos: &Position, m: Move) -> MoveEffect {
    let after = pos.after(m);
    let status = after.status();
    MoveEffect {
        ends: (status != GameStatus::Ongoing).then_some(status),
        captures: pos.piece_at(m.to()).map(|piece| Threat {
            square: m.to(),
            piece,
        }),
        check: after.in_check(),
        threat: threat_of(&after, m).filter(|t| t.piece.kind != PieceKind::General),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effect(fen: &str, mv: &str) -> MoveEffect {
        let pos = Position::from_fen(fen).expect("FEN");
        effect_of(&pos, mv.parse().expect("move"))
    }

    #[test]
    fn a_mate_a_capture_with_check_and_a_check_are_each_told() {
        // The chariot mates on the ninth rank (the soldier takes the general's last point).
        let mate = effect("3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a9");
        assert!(matches!(mate.ends, Some(GameStatus::Checkmate { .. })));
        assert!(mate.check);
        // The chariot takes the soldier on e6 with check up the open file.
        let capture = effect("4k4/9/9/4p4/9/9/9/9/9/3KR4 w - - 0 1", "e0e6");
        assert_eq!(capture.ends, None);
        assert!(capture.check);
        let taken = capture.captures.expect("a capture");
        assert_eq!(
            (taken.square.to_string(), taken.piece.fen_char()),
            ("e6".to_string(), 'p')
        );
        // A quiet move: nothing but what it attacks.
        let quiet = effect(xiangqi_rules::START_FEN, "h2e2");
        assert_eq!(
            (quiet.ends, quiet.captures, quiet.check),
            (None, None, false)
        );
    }

    fn threat(fen: &str, mv: &str) -> Option<(String, char)> {
        let pos = Position::from_fen(fen).expect("FEN");
        let m: Move = mv.parse().expect("move");
        threat_of(&pos.after(m), m).map(|t| (t.square.to_string(), t.piece.fen_char()))
    }

    #[test]
    fn the_most_valuable_attacked_piece_is_named() {
        // The red horse jumps from e3 to d5 and forks the chariot on c7 and the cannon on f6.
        let fen = "5k3/9/2r6/5c3/9/9/4N4/9/9/3K5 w - - 0 1";
        assert_eq!(threat(fen, "e3d5"), Some(("c7".to_string(), 'r')));
        // Without the chariot, the cannon.
        let fen = "5k3/9/9/5c3/9/9/4N4/9/9/3K5 w - - 0 1";
        assert_eq!(threat(fen, "e3d5"), Some(("f6".to_string(), 'c')));
    }

    #[test]
    fn a_quiet_move_threatens_nothing() {
        let start = xiangqi_rules::START_FEN;
        assert_eq!(threat(start, "a3a4"), None);
    }
}
