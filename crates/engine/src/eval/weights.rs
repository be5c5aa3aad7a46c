//! The evaluation weights, indexed by feature (see [`super::features`]).

use super::features::FEATURE_COUNT;

/// Weights of the handcrafted evaluation.
pub const WEIGHTS: [i32; FEATURE_COUNT] = super::params::starting_weights();
