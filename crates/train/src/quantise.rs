//! Writes the float network as the engine's quantised network file (`.xqnn`) through the
//! engine's own quantiser and writer ([`xiangqi_engine::nnue::Network::from_float`] and
//! `to_bytes`), so the trainer and the engine cannot disagree about the format.

use crate::model::Network;
use std::io;
use std::path::Path;
use xiangqi_engine::nnue::{FloatNetwork, Network as EngineNetwork, NetworkError};

/// The trained network in the engine's float form.
pub fn float_network(net: &Network) -> FloatNetwork {
    FloatNetwork {
        hidden: net.hidden(),
        palace: net.palace(),
        ft_weights: net.ft_weights(),
        ft_bias: net.ft_bias().to_vec(),
        out_weights: net.out_weights().to_vec(),
        out_bias: net.out_bias().to_vec(),
        second: net.second(),
        top_weights: net.top_weights().to_vec(),
        top_bias: net.top_bias().to_vec(),
    }
}

/// The trained network quantised as the engine runs it.
pub fn quantised(net: &Network) -> Result<EngineNetwork, NetworkError> {
    EngineNetwork::from_float(&float_network(net))
}

/// The network file's bytes.
pub fn network_bytes(net: &Network) -> Result<Vec<u8>, NetworkError> {
    Ok(quantised(net)?.to_bytes())
}

/// Writes `bytes` to `path` through a temporary file renamed into place, so a run stopped
/// mid-write leaves the previous file whole.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// Writes the quantised network to `path`.
pub fn write_network(path: &Path, net: &Network) -> io::Result<()> {
    let bytes = network_bytes(net).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    write_atomically(path, &bytes)
}
