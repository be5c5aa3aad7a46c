//! The seeded random number generator, shared with the engine's self-play data generation.

pub use xiangqi_engine::random::SplitMix64;
