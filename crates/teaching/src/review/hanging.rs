//! The learner's safety net: whether a move leaves one of the mover's pieces to be won. A
//! short search of captures (and of the replies to check) after the move measures what the
//! other side can win; the move is flagged when it loses a piece's worth more than the best
//! other move would, so that an even trade, a capture that wins more than it gives, a move
//! that mates, or a loss no move can avoid is never flagged.

use xiangqi_engine::SEE_VALUE;
use xiangqi_rules::{GenKind, Move, MoveList, Piece, Position, Square};

/// The least material a move must lose, beyond what the best other move loses, to be
/// flagged: an advisor's or an elephant's worth, so that a soldier given up is not.
pub const MIN_LOSS: i32 = 200;

/// How many captures deep the search goes.
const MAX_PLIES: usize = 10;
/// How many positions one search may visit before it stops and keeps what it has.
const MAX_NODES: u32 = 20_000;
/// The score of a side that is mated (or stalemated, which loses too).
const MATED: i32 = 100_000;

/// A piece a move leaves to be won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hanging {
    /// Where the piece stands after the move.
    pub square: Square,
    /// The piece.
    pub piece: Piece,
    /// The material the move loses, in centipawns ([`SEE_VALUE`] units).
    pub loss: i32,
    /// Whether a piece of its own side protects it (it is lost to an exchange) or not.
    pub defended: bool,
    /// Where the other side's piece that takes it first stands.
    pub attacker_square: Square,
    /// That piece.
    pub attacker: Piece,
}

/// The piece that `m`, a legal move in `pos`, leaves to be won, when it loses at least
/// [`MIN_LOSS`] more than the best other move.
pub fn hanging_after(pos: &Position, m: Move) -> Option<Hanging> {
    let (loss, first_capture) = material_lost(pos, m);
    if loss < MIN_LOSS {
        return None;
    }
    // A loss that another move avoids is the move's fault; one that every move suffers is not.
    let avoidable = pos
        .legal_moves()
        .iter()
        .any(|&other| other != m && material_lost(pos, other).0 <= loss - MIN_LOSS);
    if !avoidable {
        return None;
    }
    let capture = first_capture?;
    let square = capture.to();
    let attacker_square = capture.from();
    let after = pos.after(m);
    let piece = after.piece_at(square)?;
    let attacker = after.piece_at(attacker_square)?;
    let defended = !after
        .attackers_to(square, piece.color, after.occupied())
        .is_empty();
    Some(Hanging {
        square,
        piece,
        loss,
        defended,
        attacker_square,
        attacker,
    })
}

/// The exchange value of the piece on `sq` in `pos`, 0 when empty.
fn value_at(pos: &Position, sq: Square) -> i32 {
    pos.piece_at(sq).map_or(0, |p| SEE_VALUE[p.kind.index()])
}

/// What `m` loses in material once the other side has made its best captures (negative when
/// it wins), and the other side's first capture in that line.
fn material_lost(pos: &Position, m: Move) -> (i32, Option<Move>) {
    let gained = value_at(pos, m.to());
    let mut search = Exchange { nodes: 0 };
    let mut line = Vec::new();
    let reply = search.best(&pos.after(m), -MATED - 1, MATED + 1, 0, &mut line);
    let mut first_capture = None;
    let mut after = pos.after(m);
    for (i, &r) in line.iter().enumerate() {
        if i % 2 == 0 && after.piece_at(r.to()).is_some() {
            first_capture = Some(r);
            break;
        }
        after.make_move(r);
    }
    // A mate in the capture line costs the game, not a piece: count the first piece taken.
    let reply = if reply.abs() > MATED / 2 {
        first_capture.map_or(reply.signum() * MATED, |c| {
            value_at(&pos.after(m), c.to()) * reply.signum()
        })
    } else {
        reply
    };
    (reply - gained, first_capture)
}

/// A captures-only search with material as its only measure.
struct Exchange {
    nodes: u32,
}

impl Exchange {
    /// The most material the side to move in `pos` wins from here (0 when it captures
    /// nothing), within `alpha`–`beta`; `line` gets the captures that win it.
    fn best(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        line: &mut Vec<Move>,
    ) -> i32 {
        self.nodes += 1;
        let in_check = pos.in_check();
        let mut moves = MoveList::new();
        pos.generate_legal(
            if in_check {
                GenKind::All
            } else {
                GenKind::Captures
            },
            &mut moves,
        );
        if moves.is_empty() && (in_check || !pos.has_legal_move()) {
            return -MATED;
        }
        let mut best = if in_check { -MATED } else { 0 };
        if ply >= MAX_PLIES || self.nodes >= MAX_NODES {
            return best.max(0);
        }
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        let mut ordered: Vec<Move> = moves.iter().copied().collect();
        // Most valuable victim first, least valuable attacker first among equals.
        ordered.sort_by_key(|m| (-value_at(pos, m.to()), value_at(pos, m.from())));
        for m in ordered {
            let won = value_at(pos, m.to());
            let mut rest = Vec::new();
            let score = won - self.best(&pos.after(m), won - beta, won - alpha, ply + 1, &mut rest);
            if score > best {
                best = score;
                line.clear();
                line.push(m);
                line.extend(rest);
            }
            if best > alpha {
                alpha = best;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fen: &str, mv: &str) -> Option<(String, char, i32, bool)> {
        let pos = Position::from_fen(fen).expect("FEN");
        let m: Move = mv.parse().expect("move");
        assert!(pos.is_legal(m), "{mv} is legal in {fen}");
        hanging_after(&pos, m)
            .map(|h| (h.square.to_string(), h.piece.fen_char(), h.loss, h.defended))
    }

    // Red's horse on c2, Black's chariot on a4 sweeping the fourth rank.
    const HORSE: &str = "5k3/9/9/9/9/r8/9/2N6/9/4K4 w - - 0 1";

    #[test]
    fn a_horse_moved_onto_an_attacked_point_hangs() {
        assert_eq!(
            check(HORSE, "c2d4"),
            Some(("d4".to_string(), 'N', 400, false))
        );
    }

    #[test]
    fn a_safe_move_is_not_flagged() {
        assert_eq!(check(HORSE, "c2e1"), None);
    }

    #[test]
    fn a_defended_piece_does_not_hang() {
        // The chariot on d0 guards d4: taking the horse costs Black its chariot.
        let fen = "5k3/9/9/9/9/r8/9/2N6/9/3RK4 w - - 0 1";
        assert_eq!(check(fen, "c2d4"), None);
    }

    #[test]
    fn an_even_trade_is_not_flagged() {
        // Chariot takes chariot, the horse on b6 takes back.
        let fen = "5k3/9/9/1n7/9/r8/9/9/9/R3K4 w - - 0 1";
        assert_eq!(check(fen, "a0a4"), None);
    }

    #[test]
    fn a_capture_that_wins_more_than_it_gives_is_not_flagged() {
        // Horse takes the chariot on a4; the horse on b6 takes back: 900 for 400.
        let fen = "5k3/9/9/1n7/9/r8/9/1N7/9/4K4 w - - 0 1";
        assert_eq!(check(fen, "b2a4"), None);
    }

    #[test]
    fn a_chariot_that_takes_a_defended_horse_is_lost() {
        // Chariot takes the horse on a4, which the horse on b6 guards: 400 for 900.
        let fen = "5k3/9/9/1n7/9/n8/9/9/9/R3K4 w - - 0 1";
        assert_eq!(
            check(fen, "a0a4"),
            Some(("a4".to_string(), 'R', 500, false))
        );
    }

    // Red's chariot on c4 guards the horse on e4 against Black's horse on g5; the other
    // chariot holds the eighth rank.
    const GUARD: &str = "4k4/7R1/9/9/6n2/2R1N4/9/9/9/3K5 w - - 0 1";

    #[test]
    fn a_guard_that_walks_away_leaves_the_piece_it_guarded() {
        assert_eq!(
            check(GUARD, "c4c3"),
            Some(("e4".to_string(), 'N', 400, false))
        );
    }

    #[test]
    fn a_move_that_mates_is_not_flagged() {
        let pos = Position::from_fen(GUARD).unwrap();
        let mate: Move = "c4c9".parse().unwrap();
        assert!(!pos.after(mate).has_legal_move(), "c4c9 mates");
        assert_eq!(check(GUARD, "c4c9"), None);
    }

    #[test]
    fn a_loss_no_move_avoids_is_not_flagged() {
        // Black's chariots on b9 and h9 each attack an unguarded horse: one of them falls
        // whatever Red does.
        let fen = "1r1k3r1/9/9/9/9/9/9/1N5N1/9/4K4 w - - 0 1";
        assert_eq!(check(fen, "e0e1"), None);
    }
}
