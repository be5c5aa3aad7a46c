//! The blanks of the rules core's reasons (why a move is illegal, why a game ended) as JSON,
//! so the page can say them in its own language from the reason's code.

use crate::kit::view::side_code;
use serde_json::{Value, json};
use xiangqi_rules::explain::IllegalMove;
use xiangqi_rules::fen::FenError;
use xiangqi_rules::{EndReason, Piece, PieceKind, RuleSet, Square};

fn piece(p: Piece) -> String {
    p.fen_char().to_string()
}

fn kind(k: PieceKind) -> String {
    k.fen_letter().to_ascii_lowercase().to_string()
}

fn squares(points: &[Square]) -> Vec<String> {
    points.iter().map(Square::to_string).collect()
}

/// The fields of an illegal-move reason: points as ICCS names, pieces as FEN letters.
pub fn illegal_move_params(reason: &IllegalMove) -> Value {
    match reason {
        IllegalMove::NoPieceThere { from } => json!({ "from": from.to_string() }),
        IllegalMove::OpponentsPiece { from, piece: p } => {
            json!({ "from": from.to_string(), "piece": piece(*p) })
        }
        IllegalMove::OwnPieceOnTarget { to, piece: p } => {
            json!({ "to": to.to_string(), "piece": piece(*p) })
        }
        IllegalMove::ElephantEyeBlocked { eye: point }
        | IllegalMove::HorseLegBlocked { leg: point }
        | IllegalMove::ChariotPathBlocked { blocker: point }
        | IllegalMove::CannonPathBlocked { blocker: point } => {
            json!({ "point": point.to_string() })
        }
        IllegalMove::CannonTooManyScreens { screens } => {
            json!({ "points": squares(screens), "count": screens.len() })
        }
        IllegalMove::LeavesGeneralInCheck {
            attackers,
            attacker_kinds,
        } => {
            let list: Vec<Value> = attackers
                .iter()
                .zip(attacker_kinds)
                .map(|(sq, k)| json!({ "square": sq.to_string(), "piece": kind(*k) }))
                .collect();
            json!({ "attackers": list })
        }
        IllegalMove::GeneralsFace { file } => json!({ "file": file.to_string() }),
        _ => json!({}),
    }
}

/// The blanks of a FEN's fault: sides as `red`/`black`, pieces as FEN letters, points as ICCS
/// names, ranks 0–9 and the text found.
pub fn fen_error_params(error: &FenError) -> Value {
    match error {
        FenError::Empty => json!({}),
        FenError::RankCount { found } => json!({ "found": found }),
        FenError::PointCount { rank, found } => json!({ "rank": rank, "found": found }),
        FenError::UnknownLetter {
            letter,
            rank,
            column,
        } => json!({ "letter": letter.to_string(), "rank": rank, "column": column }),
        FenError::MissingGeneral(c) | FenError::ExtraGeneral(c) | FenError::OpponentInCheck(c) => {
            json!({ "side": side_code(*c) })
        }
        FenError::TooManyPieces { piece: p, found } => json!({
            "side": side_code(p.color),
            "piece": piece(*p),
            "found": found,
            "max": p.kind.max_count(),
        }),
        FenError::UnreachablePoint { piece: p, square } => json!({
            "side": side_code(p.color),
            "piece": piece(*p),
            "square": square.to_string(),
        }),
        FenError::GeneralsFacing { file } => json!({ "file": file.to_string() }),
        FenError::BadSide(found) | FenError::TrailingText(found) => json!({ "found": found }),
        FenError::BadCounter { found, .. } => json!({ "found": found }),
    }
}

/// The fields of a game's end reason: the losing side, the verdict's pieces and moves, the
/// counts of the draw rules.
pub fn end_reason_params(reason: &EndReason) -> Value {
    match reason {
        EndReason::Checkmate { loser } | EndReason::Stalemate { loser } => {
            json!({ "loser": side_code(*loser) })
        }
        EndReason::Verdict(v) => {
            let pieces: Vec<Value> = v
                .pieces
                .iter()
                .map(|p| json!({ "square": p.point.to_string(), "piece": piece(p.piece) }))
                .collect();
            json!({
                "loser": v.side.map(side_code),
                "pieces": pieces,
                "unprotected": v.unprotected,
                "first": v.moves.first,
                "last": v.moves.last,
                "count": v.count,
                "rules": match v.rules {
                    RuleSet::Asian => "asian",
                    RuleSet::Cxq => "cxq",
                },
            })
        }
        EndReason::NoCapture { plies } => json!({ "moves": plies / 2, "plies": plies }),
        EndReason::InsufficientMaterial => json!({}),
        EndReason::CxqEfficiency { moves }
        | EndReason::CxqProgress { moves }
        | EndReason::CxqMoveLimit { moves } => json!({ "moves": moves }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_rules::{Game, GameRules, Position};

    #[test]
    fn illegal_move_blanks_name_points_and_pieces() {
        let pos = Position::startpos();
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let leg = pos.check_move(sq("b0"), sq("d1")).unwrap_err();
        assert_eq!(illegal_move_params(&leg), json!({ "point": "c0" }));
        let theirs = pos.check_move(sq("b9"), sq("c7")).unwrap_err();
        assert_eq!(
            illegal_move_params(&theirs),
            json!({ "from": "b9", "piece": "n" })
        );
        let blocked = pos.check_move(sq("a0"), sq("a5")).unwrap_err();
        assert_eq!(illegal_move_params(&blocked), json!({ "point": "a3" }));
    }

    #[test]
    fn fen_blanks_name_sides_pieces_and_points() {
        let err = |fen: &str| Position::from_fen(fen).unwrap_err();
        let outside = err("4k4/9/9/9/9/9/9/9/9/3K4A w");
        assert_eq!(outside.code(), "fen-unreachable-point");
        assert_eq!(
            fen_error_params(&outside),
            json!({ "side": "red", "piece": "A", "square": "i0" })
        );
        let short = err("4k4/9/9/9/9/9/9/9/9/3K4 w");
        assert_eq!(fen_error_params(&short), json!({ "rank": 0, "found": 8 }));
        let side = err("4k4/9/9/9/9/9/9/9/9/3K5 x");
        assert_eq!(fen_error_params(&side), json!({ "found": "x" }));
    }

    #[test]
    fn mate_names_the_loser() {
        let game = Game::from_fen(
            "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1",
            GameRules::default(),
        )
        .unwrap();
        let o = game.outcome().expect("black is mated");
        assert_eq!(o.reason.code(), "checkmate");
        assert_eq!(end_reason_params(&o.reason), json!({ "loser": "black" }));
    }
}
