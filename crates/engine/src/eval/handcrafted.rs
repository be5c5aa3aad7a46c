//! The handcrafted evaluation: material, piece-square tables, mobility, general safety,
//! tempo.

use super::{EvalParams, Evaluator};
use crate::score::Score;
use xiangqi_rules::{Bitboard, Color, Piece, PieceKind, Position, Square};

/// Evaluation from [`EvalParams`].
#[derive(Clone, Debug, Default)]
pub struct HandcraftedEval {
    /// The numbers it uses.
    pub params: EvalParams,
}

/// Index into a Red-view table for a piece of `color` on `sq`.
#[inline]
fn table_index(color: Color, sq: Square) -> usize {
    match color {
        Color::Red => sq.index(),
        Color::Black => (9 - sq.rank() as usize) * 9 + sq.file() as usize,
    }
}

impl HandcraftedEval {
    /// The evaluation with the built-in parameters.
    pub fn new() -> HandcraftedEval {
        HandcraftedEval::default()
    }

    /// Material, tables, mobility and attack potential of one side, from its own view.
    fn side_terms(&self, pos: &Position, color: Color) -> (Score, Score) {
        let p = &self.params;
        let own = pos.pieces_of(color);
        let mut score = 0;
        let mut attack = 0;
        for kind in PieceKind::ALL {
            let pieces = pos.pieces(Piece::new(color, kind));
            for sq in pieces {
                score += p.piece_value[kind.index()] + p.pst[kind.index()][table_index(color, sq)];
                match kind {
                    PieceKind::Chariot => {
                        score +=
                            p.chariot_mobility * (pos.attacks_from(sq) & !own).count() as Score;
                        attack += p.attack_units[0];
                    }
                    PieceKind::Horse => {
                        score += p.horse_mobility * (pos.attacks_from(sq) & !own).count() as Score;
                        attack += p.attack_units[1];
                    }
                    PieceKind::Cannon => {
                        let quiet = pos.attacks_from(sq) & !pos.occupied();
                        score += p.cannon_mobility * quiet.count() as Score;
                        attack += p.attack_units[2];
                    }
                    PieceKind::Soldier if !color.is_own_half(sq.rank()) => {
                        attack += p.attack_units[3];
                    }
                    _ => {}
                }
            }
        }
        (score, attack)
    }

    /// Danger to `color`'s general from the opponent, whose attack units are `enemy_attack`.
    fn general_danger(&self, pos: &Position, color: Color, enemy_attack: Score) -> Score {
        let p = &self.params;
        let them = color.opponent();
        let general = pos.general(color);
        let defenders = pos.pieces(Piece::new(color, PieceKind::Advisor)).count()
            + pos.pieces(Piece::new(color, PieceKind::Elephant)).count();
        let mut danger = (4 - defenders as Score) * p.missing_defender * enemy_attack;

        for cannon in pos.pieces(Piece::new(them, PieceKind::Cannon)) {
            if cannon.file() == general.file() {
                let screens = between_on_file(pos, cannon, general);
                if screens == 0 {
                    danger += p.empty_cannon;
                } else if screens == 1 {
                    danger += p.central_cannon;
                }
            }
        }
        for horse in pos.pieces(Piece::new(them, PieceKind::Horse)) {
            let df = (horse.file() as i32 - general.file() as i32).abs();
            let dr = (horse.rank() as i32 - general.rank() as i32).abs();
            if df <= 2 && dr <= 2 {
                danger += p.horse_near_general;
            }
        }
        for chariot in pos.pieces(Piece::new(them, PieceKind::Chariot)) {
            if (3..=5).contains(&chariot.file()) && color.is_own_half(chariot.rank()) {
                danger += p.chariot_on_palace_file;
            }
        }
        danger
    }
}

/// Number of pieces strictly between two points of one file.
fn between_on_file(pos: &Position, a: Square, b: Square) -> u32 {
    let (lo, hi) = if a.rank() < b.rank() {
        (a.rank(), b.rank())
    } else {
        (b.rank(), a.rank())
    };
    let file = a.file();
    let mut mask = 0u128;
    for r in lo + 1..hi {
        if let Some(sq) = Square::new(file, r) {
            mask |= 1u128 << sq.index();
        }
    }
    (pos.occupied() & Bitboard(mask)).count()
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
        let us = pos.side_to_move();
        let them = us.opponent();
        let (our_score, our_attack) = self.side_terms(pos, us);
        let (their_score, their_attack) = self.side_terms(pos, them);
        let mut score = our_score - their_score;
        score += self.general_danger(pos, them, our_attack);
        score -= self.general_danger(pos, us, their_attack);
        score += self.params.tempo;
        // A side with nothing that can attack cannot win: pull its lead towards a draw.
        if (score > 0 && !has_attackers(pos, us)) || (score < 0 && !has_attackers(pos, them)) {
            score /= self.params.no_attacker_divisor;
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        let eval = HandcraftedEval::new();
        let pos = Position::startpos();
        assert_eq!(eval.evaluate(&pos), eval.params.tempo);
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
    fn extra_chariot_is_winning() {
        let eval = HandcraftedEval::new();
        let pos =
            Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
                .unwrap();
        assert!(eval.evaluate(&pos) > 700);
    }
}
