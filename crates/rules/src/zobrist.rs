//! Zobrist keys for position hashing, fixed at compile time.

use crate::square::SQUARE_COUNT;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build_piece_keys() -> [[u64; SQUARE_COUNT]; 14] {
    let mut keys = [[0u64; SQUARE_COUNT]; 14];
    let mut state = 0x5851_F42D_4C95_7F2D;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < SQUARE_COUNT {
            let (next, value) = splitmix(state);
            state = next;
            keys[p][s] = value;
            s += 1;
        }
        p += 1;
    }
    keys
}

/// `PIECE_KEYS[piece index][square index]`.
pub(crate) static PIECE_KEYS: [[u64; SQUARE_COUNT]; 14] = build_piece_keys();

/// Toggled when Black is to move.
pub(crate) const SIDE_KEY: u64 = splitmix(0x1234_5678_9ABC_DEF0).1;
