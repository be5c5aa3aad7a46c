//! The efficiently updatable neural network evaluation (NNUE): input features, the network
//! file, accumulators kept up to date on make and unmake, and the SIMD kernels.
//!
//! Architecture: `(1260 · P → H) × 2 perspectives → [side to move, other side] → SCReLU → 1`,
//! with one output layer per bucket of piece counts ([`output_bucket`]) and, when P is
//! [`PALACE_BUCKETS`] rather than 1, inputs of their own for each bucket of the palace where a
//! side's general stands ([`View`]). A network may put a second hidden layer of a few units
//! (clipped ReLU) between the SCReLU and the output.

pub mod accumulator;
pub mod features;
pub mod net;
pub mod simd;

pub use accumulator::AccumulatorStack;
pub use features::{INPUTS, PALACE_BUCKETS, View, active_features, feature_index, features_of};
pub use net::{FloatNetwork, Network, NetworkError, output_bucket};
pub use simd::Backend;

use std::sync::{Arc, LazyLock};

/// The network file built into the binary, used when no `EvalFile` is given (`None` would
/// leave the engine without one). `UseNNUE` is on by default exactly when it is `Some`.
/// `xq-512-20261206`, palace buckets and 512 hidden units: each side's inputs chosen by where
/// its general stands (6 buckets), trained by `scripts/train-nnue` on 12.91 M positions, the
/// first generation's data and the first three networks' own self-play, without the long
/// drawn endings (see `crates/engine/nets/README.md`).
pub const EMBEDDED_NET: Option<&[u8]> = Some(include_bytes!("../../nets/xq-512-20261206.xqnn"));

static EMBEDDED: LazyLock<Option<Arc<Network>>> =
    LazyLock::new(|| EMBEDDED_NET.and_then(|bytes| Network::from_bytes(bytes).ok().map(Arc::new)));

/// The built-in network, read once; `None` when there is none.
pub fn embedded_network() -> Option<Arc<Network>> {
    EMBEDDED.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_network_reads_and_sets_the_default_evaluation() {
        let read = EMBEDDED_NET.map(Network::from_bytes).transpose();
        assert!(read.is_ok(), "the built-in network: {:?}", read.err());
        assert_eq!(embedded_network().is_some(), EMBEDDED_NET.is_some());
        let default = crate::EngineOptions::default();
        assert_eq!(default.use_nnue, EMBEDDED_NET.is_some());
    }
}
