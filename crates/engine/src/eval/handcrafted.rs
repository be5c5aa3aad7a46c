//! The handcrafted evaluation: material, piece-square tables, mobility, general safety
//! (defenders against attackers, cannons on the general's file, pieces reaching the enemy
//! palace), pieces en prise, tempo — each with a middlegame and an endgame weight, blended by
//! how many chariots, horses and cannons are left.

use super::features::{WeightedSum, phase, visit_features};
use super::{EvalParams, Evaluator};
use crate::score::Score;
use xiangqi_rules::{Color, Piece, PieceKind, Position};

/// Evaluation from [`EvalParams`].
#[derive(Clone, Debug, Default)]
pub struct HandcraftedEval {
    /// The numbers it uses.
    pub params: EvalParams,
}

impl HandcraftedEval {
    /// The evaluation with the built-in parameters.
    pub fn new() -> HandcraftedEval {
        HandcraftedEval::default()
    }
}

/// Whether `color` still has a piece that can attack across the board.
fn has_attackers(pos: &Position, color: Color) -> bool {
    [
        PieceKind::Chariot,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ]
    .iter()
    .any(|&k| !pos.pieces(Piece::new(color, k)).is_empty())
}

impl Evaluator for HandcraftedEval {
    fn evaluate(&self, pos: &Position) -> Score {
        let mut sum = WeightedSum::new(&self.params.weights);
        visit_features(pos, &mut sum);
        let mut score = sum.blend(phase(pos));
        let us = pos.side_to_move();
        // A side with nothing that can attack cannot win: pull its lead towards a draw.
        if (score > 0 && !has_attackers(pos, us))
            || (score < 0 && !has_attackers(pos, us.opponent()))
        {
            score /= self.params.no_attacker_divisor;
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::features::FeatureList;

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        let eval = HandcraftedEval::new();
        let pos = Position::startpos();
        assert_eq!(
            eval.evaluate(&pos),
            eval.params.weights[super::super::features::TEMPO]
        );
    }

    /// The position seen from the other side: ranks reversed, colours and side swapped.
    fn mirrored(fen: &str) -> String {
        let mut fields = fen.split(' ');
        let board: Vec<String> = fields
            .next()
            .unwrap()
            .split('/')
            .rev()
            .map(|rank| {
                rank.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if fields.next() == Some("w") { "b" } else { "w" };
        format!("{} {side}", board.join("/"))
    }

    #[test]
    fn evaluation_is_symmetric() {
        let eval = HandcraftedEval::new();
        for fen in [
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b",
            "2bakab2/9/4c4/p3p1R1p/2n6/6P2/P3P3P/2N1C4/4A4/2BAK1B2 w",
            "3k5/9/3P5/9/9/9/9/9/9/4RK3 b",
        ] {
            let a = Position::from_fen(fen).unwrap();
            let b = Position::from_fen(&mirrored(fen)).unwrap();
            assert_eq!(eval.evaluate(&a), eval.evaluate(&b), "{fen}");
        }
    }

    #[test]
    fn feature_list_dot_weights_equals_the_evaluation() {
        let eval = HandcraftedEval::new();
        let mut pos = Position::startpos();
        let mut state = 0x1234_5678u64;
        for _ in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                pos = Position::startpos();
                continue;
            }
            let features = FeatureList::of(&pos);
            let dot: i32 = features
                .entries
                .iter()
                .map(|&(i, c)| eval.params.weights[i as usize] * c as i32)
                .sum::<i32>()
                / super::super::features::PHASE_FULL;
            let us = pos.side_to_move();
            if has_attackers(&pos, us) && has_attackers(&pos, us.opponent()) {
                assert_eq!(dot, eval.evaluate(&pos), "{pos:?}");
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            pos.make_move(moves[(state % moves.len() as u64) as usize]);
        }
    }

    #[test]
    fn extra_chariot_is_winning() {
        let eval = HandcraftedEval::new();
        let pos =
            Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
                .unwrap();
        assert!(eval.evaluate(&pos) > 700);
    }
}
