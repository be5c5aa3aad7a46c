//! The efficiently updatable neural network evaluation (NNUE): input features, the network
//! file, accumulators kept up to date on make and unmake, and the SIMD kernels.
//!
//! Architecture: `(1260 → H) × 2 perspectives → [side to move, other side] → SCReLU → 1`.

pub mod accumulator;
pub mod features;
pub mod net;
pub mod simd;

pub use accumulator::AccumulatorStack;
pub use features::{INPUTS, active_features, feature_index};
pub use net::{FloatNetwork, Network, NetworkError};
pub use simd::Backend;
