//! Every number the handcrafted evaluation uses, in one place so they can be tuned.
//!
//! The evaluation is a weighted sum of the features in [`super::features`]; the weights live
//! in [`super::weights`], written by `xiangqi tune` (see [`crate::tune`]). Piece-square
//! tables are folded left to right and counted from each side's own back rank.

use super::features::{
    CANNON_CROWD, CANNON_MOBILITY, CENTRAL_CANNON, CHARIOT_MOBILITY, CHARIOT_ON_PALACE_FILE,
    DEFENCE_GAP, EMPTY_CANNON, FEATURE_COUNT, FOLDED_POINTS, HORSE_CROWD, HORSE_MOBILITY,
    HORSE_NEAR_GENERAL, PST, SOLDIER_VS_BARE_PALACE, TEMPO, WEIGHT_COUNT,
};
use crate::score::Score;

/// The parameters of [`super::HandcraftedEval`].
#[derive(Clone, Debug)]
pub struct EvalParams {
    /// Two weights per feature: middlegame, then endgame.
    pub weights: [i32; WEIGHT_COUNT],
    /// Divides the score when the leading side has nothing left that can attack.
    pub no_attacker_divisor: Score,
}

impl EvalParams {
    /// The built-in values.
    pub const DEFAULT: EvalParams = EvalParams {
        weights: super::weights::WEIGHTS,
        no_attacker_divisor: 8,
    };
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams::DEFAULT
    }
}

/// Hand-set starting weights, before tuning: material plus simple positional shapes, the
/// same in the middlegame and the endgame.
pub const fn starting_weights() -> [i32; WEIGHT_COUNT] {
    let plain = plain_starting_weights();
    let mut w = [0; WEIGHT_COUNT];
    let mut i = 0;
    while i < FEATURE_COUNT {
        w[i] = plain[i];
        w[FEATURE_COUNT + i] = plain[i];
        i += 1;
    }
    w
}

const fn plain_starting_weights() -> [i32; FEATURE_COUNT] {
    let values: [i32; 7] = [0, 120, 120, 400, 900, 450, 100];
    let mut w = [0; FEATURE_COUNT];
    let mut kind = 0;
    while kind < 7 {
        let table = build_pst(kind);
        let mut rank = 0;
        while rank < 10 {
            let mut file = 0;
            while file < 5 {
                w[PST + kind * FOLDED_POINTS + rank * 5 + file] =
                    values[kind] + table[rank * 9 + file];
                file += 1;
            }
            rank += 1;
        }
        kind += 1;
    }
    w[CHARIOT_MOBILITY] = 3;
    w[HORSE_MOBILITY] = 8;
    w[CANNON_MOBILITY] = 1;
    w[DEFENCE_GAP] = 4;
    w[EMPTY_CANNON] = 60;
    w[CENTRAL_CANNON] = 25;
    w[HORSE_NEAR_GENERAL] = 20;
    w[CHARIOT_ON_PALACE_FILE] = 20;
    w[CANNON_CROWD] = 0;
    w[HORSE_CROWD] = 0;
    w[SOLDIER_VS_BARE_PALACE] = 0;
    w[TEMPO] = 20;
    w
}

const fn build_pst(kind: usize) -> [Score; 90] {
    let mut t = [0; 90];
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        let cf = if f > 4 { f - 4 } else { 4 - f };
        t[sq] = match kind {
            // General: at home on e0, worse when it climbs.
            0 => {
                let base = [10, -10, -25][if r <= 2 { r as usize } else { 2 }];
                if f == 4 { base } else { base - 5 }
            }
            // Advisor: the centre of the palace is the strong point.
            1 => {
                if f == 4 && r == 1 {
                    10
                } else if r == 2 {
                    -5
                } else {
                    0
                }
            }
            // Elephant: e2 covers both wings.
            2 => {
                if f == 4 && r == 2 {
                    10
                } else if r == 0 {
                    5
                } else if f == 0 || f == 8 {
                    -5
                } else {
                    0
                }
            }
            // Horse: central and forward, best near the enemy palace; poor on the edges.
            3 => {
                let by_rank = [-20, -5, 5, 10, 15, 20, 25, 30, 20, 0][r as usize];
                let mut v = by_rank + 12 - 3 * cf;
                if f == 0 || f == 8 {
                    v -= 15;
                }
                if (f == 2 || f == 6) && r == 7 {
                    v += 15;
                }
                if (f == 3 || f == 5) && r == 8 {
                    v += 10;
                }
                v
            }
            // Chariot: developed, across the river, on the palace files.
            4 => {
                let by_rank = [-10, 0, 5, 5, 10, 15, 15, 15, 15, 5][r as usize];
                let by_file = [-5, 0, 0, 10, 5, 10, 0, 0, -5][f as usize];
                by_rank + by_file
            }
            // Cannon: the central file at home, deep in enemy ranks.
            5 => {
                let mut v = if r <= 2 {
                    5
                } else if r >= 7 {
                    10
                } else {
                    0
                };
                if f == 4 && r <= 2 {
                    v += 20;
                }
                if f == 0 || f == 8 {
                    v -= 5;
                }
                v
            }
            // Soldier: worth more once across the river, near the centre and the palace.
            _ => {
                if r <= 4 {
                    (if f == 4 { 10 } else { 0 }) + (if r == 4 { 5 } else { 0 })
                } else {
                    let by_rank = [0, 0, 0, 0, 0, 90, 110, 125, 125, 95][r as usize];
                    let mut v = by_rank + 20 - 5 * cf;
                    if (f == 3 || f == 5) && r >= 6 && r <= 8 {
                        v += 15;
                    }
                    v
                }
            }
        };
        sq += 1;
    }
    t
}
