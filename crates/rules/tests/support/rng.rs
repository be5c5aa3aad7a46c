//! The tests' seeded random source: the workspace's one generator.

pub use xiangqi_rules::random::SplitMix64 as Rng;
