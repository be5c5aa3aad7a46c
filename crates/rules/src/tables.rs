//! Geometry tables computed at compile time: rays, piece steps, palace and river masks.

use crate::square::{FILES, RANKS, SQUARE_COUNT};

/// Ray directions: north (towards rank 9), south, east (towards file `i`), west.
pub(crate) const NORTH: usize = 0;
pub(crate) const SOUTH: usize = 1;
pub(crate) const EAST: usize = 2;
pub(crate) const WEST: usize = 3;
const DIRECTIONS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

const fn on_board(f: i8, r: i8) -> bool {
    f >= 0 && f < FILES as i8 && r >= 0 && r < RANKS as i8
}

const fn sq(f: i8, r: i8) -> u8 {
    (r as u8) * FILES + f as u8
}

/// Whether (file, rank) lies in the palace of the side whose back rank is at `rank` ≤ 2 (Red)
/// or ≥ 7 (Black).
const fn in_any_palace(f: i8, r: i8) -> bool {
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

const fn same_palace(r1: i8, r2: i8) -> bool {
    (r1 <= 2) == (r2 <= 2)
}

/// A short list of target points, optionally each with a blocking point.
#[derive(Clone, Copy)]
pub(crate) struct Steps {
    pub to: [u8; 8],
    pub block: [u8; 8],
    pub len: u8,
}

impl Steps {
    const EMPTY: Steps = Steps {
        to: [0; 8],
        block: [0; 8],
        len: 0,
    };
    const fn push(mut self, to: u8, block: u8) -> Steps {
        self.to[self.len as usize] = to;
        self.block[self.len as usize] = block;
        self.len += 1;
        self
    }
}

/// Points along a ray from a point, nearest first.
#[derive(Clone, Copy)]
pub(crate) struct Ray {
    pub squares: [u8; 9],
    pub len: u8,
    /// The same points as a mask.
    pub mask: u128,
}

const fn build_rays() -> [[Ray; 4]; SQUARE_COUNT] {
    let mut out = [[Ray {
        squares: [0; 9],
        len: 0,
        mask: 0,
    }; 4]; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        let f = (s % 9) as i8;
        let r = (s / 9) as i8;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRECTIONS[d];
            let (mut x, mut y) = (f + df, r + dr);
            while on_board(x, y) {
                let t = sq(x, y);
                let ray = &mut out[s][d];
                ray.squares[ray.len as usize] = t;
                ray.len += 1;
                ray.mask |= 1u128 << t;
                x += df;
                y += dr;
            }
            d += 1;
        }
        s += 1;
    }
    out
}

/// `RAYS[sq][dir]`: the points from `sq` in direction `dir`, nearest first.
pub(crate) static RAYS: [[Ray; 4]; SQUARE_COUNT] = build_rays();

const fn build_horse_moves() -> [Steps; SQUARE_COUNT] {
    let mut out = [Steps::EMPTY; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        let f = (s % 9) as i8;
        let r = (s / 9) as i8;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRECTIONS[d];
            let (lf, lr) = (f + df, r + dr);
            if on_board(lf, lr) {
                // Two targets fan out from the leg, one on each side.
                let (sf, sr) = (dr, df);
                let mut side = 0;
                while side < 2 {
                    let sign = if side == 0 { 1 } else { -1 };
                    let (tf, tr) = (lf + df + sign * sf, lr + dr + sign * sr);
                    if on_board(tf, tr) {
                        out[s] = out[s].push(sq(tf, tr), sq(lf, lr));
                    }
                    side += 1;
                }
            }
            d += 1;
        }
        s += 1;
    }
    out
}

/// `HORSE_MOVES[sq]`: horse targets from `sq` with the leg point for each.
pub(crate) static HORSE_MOVES: [Steps; SQUARE_COUNT] = build_horse_moves();

const fn build_horse_attackers() -> [Steps; SQUARE_COUNT] {
    let mut out = [Steps::EMPTY; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        let mut h = 0;
        while h < SQUARE_COUNT {
            let moves = HORSE_MOVES_CONST[h];
            let mut i = 0;
            while i < moves.len as usize {
                if moves.to[i] as usize == s {
                    out[s] = out[s].push(h as u8, moves.block[i]);
                }
                i += 1;
            }
            h += 1;
        }
        s += 1;
    }
    out
}

const HORSE_MOVES_CONST: [Steps; SQUARE_COUNT] = build_horse_moves();

/// `HORSE_ATTACKERS[sq]`: points from which a horse reaches `sq`, with that horse's leg point.
pub(crate) static HORSE_ATTACKERS: [Steps; SQUARE_COUNT] = build_horse_attackers();

const fn build_elephant_moves() -> [Steps; SQUARE_COUNT] {
    let mut out = [Steps::EMPTY; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        let f = (s % 9) as i8;
        let r = (s / 9) as i8;
        let diag = [(1i8, 1i8), (1, -1), (-1, 1), (-1, -1)];
        let mut d = 0;
        while d < 4 {
            let (df, dr) = diag[d];
            let (tf, tr) = (f + 2 * df, r + 2 * dr);
            // An elephant never crosses the river: source and target on the same half.
            if on_board(tf, tr) && (tr <= 4) == (r <= 4) {
                out[s] = out[s].push(sq(tf, tr), sq(f + df, r + dr));
            }
            d += 1;
        }
        s += 1;
    }
    out
}

/// `ELEPHANT_MOVES[sq]`: elephant targets on the same half of the board, with the eye point.
pub(crate) static ELEPHANT_MOVES: [Steps; SQUARE_COUNT] = build_elephant_moves();

const fn build_palace_steps(diagonal: bool) -> [Steps; SQUARE_COUNT] {
    let mut out = [Steps::EMPTY; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        let f = (s % 9) as i8;
        let r = (s / 9) as i8;
        if in_any_palace(f, r) {
            let dirs = if diagonal {
                [(1i8, 1i8), (1, -1), (-1, 1), (-1, -1)]
            } else {
                DIRECTIONS
            };
            let mut d = 0;
            while d < 4 {
                let (tf, tr) = (f + dirs[d].0, r + dirs[d].1);
                if on_board(tf, tr) && in_any_palace(tf, tr) && same_palace(r, tr) {
                    out[s] = out[s].push(sq(tf, tr), 0);
                }
                d += 1;
            }
        }
        s += 1;
    }
    out
}

/// `ADVISOR_MOVES[sq]`: diagonal steps inside the palace.
pub(crate) static ADVISOR_MOVES: [Steps; SQUARE_COUNT] = build_palace_steps(true);
/// `GENERAL_MOVES[sq]`: orthogonal steps inside the palace.
pub(crate) static GENERAL_MOVES: [Steps; SQUARE_COUNT] = build_palace_steps(false);

const fn build_soldier_moves() -> [[Steps; SQUARE_COUNT]; 2] {
    let mut out = [[Steps::EMPTY; SQUARE_COUNT]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd: i8 = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < SQUARE_COUNT {
            let f = (s % 9) as i8;
            let r = (s / 9) as i8;
            if on_board(f, r + fwd) {
                out[c][s] = out[c][s].push(sq(f, r + fwd), 0);
            }
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            if crossed {
                if on_board(f - 1, r) {
                    out[c][s] = out[c][s].push(sq(f - 1, r), 0);
                }
                if on_board(f + 1, r) {
                    out[c][s] = out[c][s].push(sq(f + 1, r), 0);
                }
            }
            s += 1;
        }
        c += 1;
    }
    out
}

/// `SOLDIER_MOVES[color][sq]`: forward step, and sideways steps once across the river.
pub(crate) static SOLDIER_MOVES: [[Steps; SQUARE_COUNT]; 2] = build_soldier_moves();

const fn build_soldier_attackers() -> [[u128; SQUARE_COUNT]; 2] {
    let moves = build_soldier_moves();
    let mut out = [[0u128; SQUARE_COUNT]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < SQUARE_COUNT {
            let st = moves[c][s];
            let mut i = 0;
            while i < st.len as usize {
                out[c][st.to[i] as usize] |= 1u128 << s;
                i += 1;
            }
            s += 1;
        }
        c += 1;
    }
    out
}

/// `SOLDIER_ATTACKERS[color][sq]`: points from which a soldier of `color` reaches `sq`.
pub(crate) static SOLDIER_ATTACKERS: [[u128; SQUARE_COUNT]; 2] = build_soldier_attackers();

const fn build_lines() -> [u128; SQUARE_COUNT] {
    let rays = build_rays();
    let mut out = [0u128; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        out[s] = rays[s][0].mask | rays[s][1].mask | rays[s][2].mask | rays[s][3].mask;
        s += 1;
    }
    out
}

/// `LINES[sq]`: every other point on the file and rank of `sq`.
pub(crate) static LINES: [u128; SQUARE_COUNT] = build_lines();
