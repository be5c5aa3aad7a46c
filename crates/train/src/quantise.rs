//! Writes the float network as the engine's quantised network file (`.xqnn`, version 1):
//! first-layer weights and bias × QA, output weights × QB, output bias × QA·QB, rounded, all
//! little-endian, closed by an FNV-1a 64 checksum of every byte before it.

use crate::model::{EVAL_SCALE, Network};
use std::io;
use std::path::Path;
use xiangqi_engine::nnue::INPUTS;

/// The file's magic bytes.
pub const MAGIC: &[u8; 4] = b"XQNN";
/// The file format version.
pub const VERSION: u32 = 1;
/// Quantisation of the first layer: activations are clamped to `[0, QA]`.
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;

/// FNV-1a 64 of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn quantise_i16(w: f32, factor: i32) -> i16 {
    (w * factor as f32)
        .round()
        .clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

/// The network file's bytes.
pub fn network_bytes(net: &Network) -> Vec<u8> {
    let h = net.hidden();
    let mut out = Vec::with_capacity(28 + 2 * (INPUTS * h + 3 * h) + 12);
    out.extend_from_slice(MAGIC);
    for field in [
        VERSION,
        INPUTS as u32,
        h as u32,
        EVAL_SCALE as u32,
        QA as u32,
        QB as u32,
    ] {
        out.extend_from_slice(&field.to_le_bytes());
    }
    for &w in net.ft_weights().iter().chain(net.ft_bias()) {
        out.extend_from_slice(&quantise_i16(w, QA).to_le_bytes());
    }
    for &w in net.out_weights() {
        out.extend_from_slice(&quantise_i16(w, QB).to_le_bytes());
    }
    let out_bias = (net.out_bias() as f64 * (QA * QB) as f64).round() as i32;
    out.extend_from_slice(&out_bias.to_le_bytes());
    let checksum = fnv1a64(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
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
    write_atomically(path, &network_bytes(net))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_sizes_and_checksum_follow_the_format() {
        let net = Network::random(16, 4);
        let bytes = network_bytes(&net);
        assert_eq!(&bytes[..4], MAGIC);
        let field = |i: usize| u32::from_le_bytes(bytes[4 + 4 * i..8 + 4 * i].try_into().unwrap());
        assert_eq!(
            [field(0), field(1), field(2), field(3), field(4), field(5)],
            [1, 1260, 16, 400, 255, 64]
        );
        assert_eq!(bytes.len(), 28 + 2 * (1260 * 16 + 16 + 32) + 4 + 8);
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        assert_eq!(u64::from_le_bytes(sum.try_into().unwrap()), fnv1a64(body));
        // The first weight, feature-major, is the float weight × 255, rounded.
        let first = i16::from_le_bytes([bytes[28], bytes[29]]);
        assert_eq!(first, (net.ft_weights()[0] * 255.0).round() as i16);
    }

    #[test]
    fn fnv1a64_of_known_strings() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
