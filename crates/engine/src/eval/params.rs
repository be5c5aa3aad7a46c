//! Every number the handcrafted evaluation uses, in one place so they can be tuned.
//!
//! Piece-square tables are written from Red's side: index `rank * 9 + file`, rank 0 is Red's
//! back rank. Black reads them mirrored (`rank` → `9 - rank`).

use crate::score::Score;

/// The parameters of [`super::HandcraftedEval`].
#[derive(Clone, Debug)]
pub struct EvalParams {
    /// Base value per kind in the order K A B N R C P.
    pub piece_value: [Score; 7],
    /// Piece-square bonus per kind, Red's view.
    pub pst: [[Score; 90]; 7],
    /// Per reachable point of a chariot.
    pub chariot_mobility: Score,
    /// Per unblocked, not self-occupied horse target.
    pub horse_mobility: Score,
    /// Per point a cannon can move to without capturing.
    pub cannon_mobility: Score,
    /// For each missing advisor or elephant, times the opponent's attack units.
    pub missing_defender: Score,
    /// Attack units per chariot, horse, cannon and crossed soldier.
    pub attack_units: [Score; 4],
    /// An enemy cannon on the general's file with no piece between.
    pub empty_cannon: Score,
    /// An enemy cannon on the general's file with one screen.
    pub central_cannon: Score,
    /// An enemy horse within two points of the general.
    pub horse_near_general: Score,
    /// An enemy chariot across the river on a palace file (d, e or f).
    pub chariot_on_palace_file: Score,
    /// For the side to move.
    pub tempo: Score,
    /// Divides the score when the leading side has nothing left that can attack.
    pub no_attacker_divisor: Score,
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

impl EvalParams {
    /// The built-in values.
    pub const DEFAULT: EvalParams = EvalParams {
        piece_value: [0, 120, 120, 400, 900, 450, 100],
        pst: [
            build_pst(0),
            build_pst(1),
            build_pst(2),
            build_pst(3),
            build_pst(4),
            build_pst(5),
            build_pst(6),
        ],
        chariot_mobility: 3,
        horse_mobility: 8,
        cannon_mobility: 1,
        missing_defender: 4,
        attack_units: [3, 2, 2, 1],
        empty_cannon: 60,
        central_cannon: 25,
        horse_near_general: 20,
        chariot_on_palace_file: 20,
        tempo: 20,
        no_attacker_divisor: 8,
    };
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams::DEFAULT
    }
}
