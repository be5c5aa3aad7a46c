//! The workspace's one seeded random number generator, SplitMix64: the same numbers on every
//! machine from the same seed, so that generated openings, self-play games, mined puzzles, the
//! app's choices and the tests' random positions can be made again. The hash keys of
//! positions come from it too, at compile time.

/// The golden-ratio step SplitMix64 adds to its state for each number.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: 64 well-mixed bits from `z` (distinct inputs give distinct
/// outputs). A one-off number from a seed and a counter, e.g. `mix(seed ^ ply)`.
pub const fn mix(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// SplitMix64: 64 bits of state, good statistical quality for shuffling and sampling.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        mix(self.state)
    }

    /// A number in `0..bound` (0 when `bound` is 0), without modulo bias worth speaking of for
    /// small bounds.
    pub fn below(&mut self, bound: usize) -> usize {
        ((u128::from(self.next_u64()) * bound as u128) >> 64) as usize
    }

    /// A number in `0..bound` (`bound` > 0) by the remainder of the next 64 bits: the draw
    /// the puzzle miner has always made, so that the commands its puzzles were made with
    /// (docs/results.md) make them again.
    pub fn below_by_remainder(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }

    /// A number in `0..1`, with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// One of `items`, or `None` when there are none.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        for _ in 0..10 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn first_output_matches_the_reference() {
        // SplitMix64 from seed 0 starts 0xe220a8397b1dcdaf (Vigna's reference code).
        assert_eq!(SplitMix64::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(mix(GOLDEN), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn below_unit_and_pick_stay_in_range_and_shuffle_keeps_items() {
        let mut rng = SplitMix64::new(1);
        assert!((0..1000).all(|_| rng.below(9) < 9));
        assert_eq!(rng.below(0), 0);
        assert!((0..1000).all(|_| (0.0..1.0).contains(&rng.unit())));
        assert_eq!(rng.pick::<u8>(&[]), None);
        assert!((0..100).all(|_| rng.pick(&[3, 4]).is_some_and(|x| [3, 4].contains(x))));
        let mut items: Vec<u32> = (0..20).collect();
        rng.shuffle(&mut items);
        let mut sorted = items.clone();
        sorted.sort();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
        assert_ne!(items, sorted);
    }
}
