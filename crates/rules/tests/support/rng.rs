//! A small deterministic random generator (xorshift) for tests, benchmarks and generators.

/// Xorshift state; seed it with any non-zero number.
pub struct Rng(pub u64);

impl Rng {
    /// The next raw number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
