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

use std::sync::{Arc, LazyLock};

/// The network file built into the binary (`include_bytes!`), used when no `EvalFile` is
/// given; `None` while the project has no trained network. While it is `None`, `UseNNUE` is
/// off by default.
pub const EMBEDDED_NET: Option<&[u8]> = None;

static EMBEDDED: LazyLock<Option<Arc<Network>>> =
    LazyLock::new(|| EMBEDDED_NET.and_then(|bytes| Network::from_bytes(bytes).ok().map(Arc::new)));

/// The built-in network, read once; `None` when there is none.
pub fn embedded_network() -> Option<Arc<Network>> {
    EMBEDDED.clone()
}
