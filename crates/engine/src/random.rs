//! The workspace's seeded random number generator (the rules crate's SplitMix64), so that
//! generated openings, opening order and self-play games are reproducible from a seed.

pub use xiangqi_rules::random::{SplitMix64, mix};
