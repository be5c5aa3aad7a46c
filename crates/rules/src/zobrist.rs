//! Zobrist keys for position hashing, fixed at compile time.

use crate::random::SplitMix64;
use crate::square::SQUARE_COUNT;

const fn build_piece_keys() -> [[u64; SQUARE_COUNT]; 14] {
    let mut keys = [[0u64; SQUARE_COUNT]; 14];
    let mut rng = SplitMix64::new(0x5851_F42D_4C95_7F2D);
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < SQUARE_COUNT {
            keys[p][s] = rng.next_u64();
            s += 1;
        }
        p += 1;
    }
    keys
}

/// `PIECE_KEYS[piece index][square index]`.
pub(crate) static PIECE_KEYS: [[u64; SQUARE_COUNT]; 14] = build_piece_keys();

/// Toggled when Black is to move.
pub(crate) const SIDE_KEY: u64 = SplitMix64::new(0x1234_5678_9ABC_DEF0).next_u64();
