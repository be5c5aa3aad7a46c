//! Training checkpoints: the float parameters, Adam's moments and the epochs done, so that a
//! run can resume where it stopped.
//!
//! Layout (little-endian): `b"XQTC"`, `u32` version 4, `u32` hidden, `u32` output buckets,
//! `u32` palace buckets, `u32` second-layer units (0 for none), `u32` epochs done, `u64` Adam
//! steps, then parameters, first moments and second moments (`f32` each, one per parameter),
//! then an FNV-1a 64 checksum of every byte before it. Version 3, still read, has no
//! second-layer count (no second layer); version 2 no palace bucket count either (one bucket);
//! version 1 no output bucket count either (one bucket).

use crate::model::{Network, Shape};
use crate::optimiser::Adam;
use crate::quantise::write_atomically;
use std::fmt;
use std::path::{Path, PathBuf};
use xiangqi_engine::memory::filled_in_huge_pages;
use xiangqi_engine::nnue::net::fnv1a64;

const MAGIC: &[u8; 4] = b"XQTC";
const VERSION: u32 = 4;
const VERSION_ONE_BUCKET: u32 = 1;

/// Header bytes of a `version` checkpoint: magic, version, hidden, the bucket counts the
/// version has, epochs and steps.
const fn header(version: u32) -> usize {
    4 + 4 + 4 + 4 * (version as usize - 1) + 4 + 8
}

/// A network with its optimiser state.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The float network.
    pub net: Network,
    /// Adam's state.
    pub adam: Adam,
    /// Epochs finished.
    pub epochs_done: usize,
}

/// Why a checkpoint could not be read or written.
#[derive(Debug)]
pub enum CheckpointError {
    /// The file could not be read or written.
    Io(PathBuf, std::io::Error),
    /// The file is not a checkpoint of this version, or is damaged.
    Invalid(PathBuf, String),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(path, e) => write!(f, "checkpoint {}: {e}", path.display()),
            CheckpointError::Invalid(path, why) => {
                write!(f, "checkpoint {}: {why}", path.display())
            }
        }
    }
}

impl std::error::Error for CheckpointError {}

impl Checkpoint {
    /// The checkpoint's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.net.params().len();
        let mut out = Vec::with_capacity(header(VERSION) + 12 * n + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.net.hidden() as u32).to_le_bytes());
        out.extend_from_slice(&(self.net.buckets() as u32).to_le_bytes());
        out.extend_from_slice(&(self.net.palace() as u32).to_le_bytes());
        out.extend_from_slice(&(self.net.second() as u32).to_le_bytes());
        out.extend_from_slice(&(self.epochs_done as u32).to_le_bytes());
        out.extend_from_slice(&self.adam.steps.to_le_bytes());
        for values in [self.net.params(), &self.adam.first, &self.adam.second] {
            for v in values {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        let checksum = fnv1a64(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a checkpoint from `bytes`; `path` names it in errors.
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        let invalid = |why: String| CheckpointError::Invalid(path.to_path_buf(), why);
        if bytes.len() < header(VERSION_ONE_BUCKET) + 8 || &bytes[..4] != MAGIC {
            return Err(invalid("not a training checkpoint (no XQTC header)".into()));
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let version = u32_at(4);
        if !(VERSION_ONE_BUCKET..=VERSION).contains(&version) {
            return Err(invalid(format!(
                "version {version}, this trainer reads {VERSION_ONE_BUCKET} to {VERSION}"
            )));
        }
        let head = header(version);
        if bytes.len() < head + 8 {
            return Err(invalid(format!(
                "{} bytes, shorter than its header",
                bytes.len()
            )));
        }
        let hidden = u32_at(8) as usize;
        let buckets = if version == VERSION_ONE_BUCKET {
            1
        } else {
            u32_at(12) as usize
        };
        let palace = if version >= 3 { u32_at(16) as usize } else { 1 };
        let second = if version >= 4 { u32_at(20) as usize } else { 0 };
        let rest = head - 12;
        if buckets == 0 || buckets > xiangqi_engine::nnue::net::MAX_BUCKETS {
            return Err(invalid(format!("{buckets} output buckets")));
        }
        if palace != 1 && palace != xiangqi_engine::nnue::PALACE_BUCKETS {
            return Err(invalid(format!("{palace} palace buckets")));
        }
        if second > xiangqi_engine::nnue::net::MAX_SECOND_LAYER {
            return Err(invalid(format!("a second layer of {second} units")));
        }
        let epochs_done = u32_at(rest) as usize;
        let steps = u64::from_le_bytes(bytes[rest + 4..rest + 12].try_into().unwrap());
        let shape = Shape {
            hidden,
            buckets,
            palace,
            second,
        };
        let n = shape.len();
        let expected = head + 12 * n + 8;
        if bytes.len() != expected {
            return Err(invalid(format!(
                "{} bytes, a checkpoint with hidden {hidden}, {buckets} output buckets and \
                 {palace} palace buckets has {expected}",
                bytes.len()
            )));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if u64::from_le_bytes(sum.try_into().unwrap()) != fnv1a64(body) {
            return Err(invalid(
                "checksum does not match: the file is damaged".into(),
            ));
        }
        let floats = |k: usize| -> Vec<f32> {
            let mut floats = filled_in_huge_pages(n, 0.0);
            let bytes = body[head + 4 * n * k..head + 4 * n * (k + 1)].chunks_exact(4);
            for (f, c) in floats.iter_mut().zip(bytes) {
                *f = f32::from_le_bytes(c.try_into().unwrap());
            }
            floats
        };
        let net = Network::from_params(shape, floats(0)).expect("length checked above");
        let mut adam = Adam::new(n);
        adam.first = floats(1);
        adam.second = floats(2);
        adam.steps = steps;
        Ok(Checkpoint {
            net,
            adam,
            epochs_done,
        })
    }

    /// Reads the checkpoint at `path`.
    pub fn load(path: &Path) -> Result<Checkpoint, CheckpointError> {
        let bytes = std::fs::read(path).map_err(|e| CheckpointError::Io(path.to_path_buf(), e))?;
        Checkpoint::from_bytes(path, &bytes)
    }

    /// Writes the checkpoint to `path` (through a temporary file).
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        write_atomically(path, &self.to_bytes())
            .map_err(|e| CheckpointError::Io(path.to_path_buf(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkpoint() -> Checkpoint {
        let net = Network::random(Shape::flat(16, 3), 2);
        let mut adam = Adam::new(net.params().len());
        adam.first[3] = 0.25;
        adam.second[5] = 0.5;
        adam.steps = 42;
        Checkpoint {
            net,
            adam,
            epochs_done: 3,
        }
    }

    #[test]
    fn bytes_round_trip() {
        let c = checkpoint();
        let back = Checkpoint::from_bytes(Path::new("x"), &c.to_bytes()).unwrap();
        assert_eq!(back, c);
        let net = Network::random(
            Shape {
                hidden: 16,
                buckets: 2,
                palace: xiangqi_engine::nnue::PALACE_BUCKETS,
                second: 0,
            },
            3,
        );
        let palace = Checkpoint {
            adam: Adam::new(net.params().len()),
            net,
            epochs_done: 1,
        };
        let back = Checkpoint::from_bytes(Path::new("x"), &palace.to_bytes()).unwrap();
        assert_eq!(back, palace);
        let net = Network::random(
            Shape {
                hidden: 16,
                buckets: 2,
                palace: xiangqi_engine::nnue::PALACE_BUCKETS,
                second: 8,
            },
            4,
        );
        let layered = Checkpoint {
            adam: Adam::new(net.params().len()),
            net,
            epochs_done: 2,
        };
        let back = Checkpoint::from_bytes(Path::new("x"), &layered.to_bytes()).unwrap();
        assert_eq!(back, layered);
    }

    /// `checkpoint`'s bytes as an older version would have written them: without the
    /// second-layer count (version 3), without the palace bucket count too (version 2) and
    /// without the output bucket count too (version 1).
    fn older(checkpoint: &Checkpoint, version: u32) -> Vec<u8> {
        let v4 = checkpoint.to_bytes();
        let mut old = Vec::new();
        old.extend_from_slice(MAGIC);
        old.extend_from_slice(&version.to_le_bytes());
        old.extend_from_slice(&v4[8..12]);
        if version >= 2 {
            old.extend_from_slice(&v4[12..16]);
        }
        if version >= 3 {
            old.extend_from_slice(&v4[16..20]);
        }
        old.extend_from_slice(&v4[24..v4.len() - 8]);
        let checksum = fnv1a64(&old);
        old.extend_from_slice(&checksum.to_le_bytes());
        old
    }

    #[test]
    fn a_checkpoint_of_the_third_version_still_reads_without_a_second_layer() {
        let c = checkpoint();
        let back = Checkpoint::from_bytes(Path::new("v3.ckpt"), &older(&c, 3)).unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn a_checkpoint_of_the_second_version_still_reads_without_palace_buckets() {
        let c = checkpoint();
        let back = Checkpoint::from_bytes(Path::new("v2.ckpt"), &older(&c, 2)).unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn a_checkpoint_of_the_first_version_still_reads_with_one_bucket() {
        let one = Checkpoint {
            net: Network::random(Shape::flat(16, 1), 4),
            ..checkpoint()
        };
        let one = Checkpoint {
            adam: Adam::new(one.net.params().len()),
            ..one
        };
        let back = Checkpoint::from_bytes(Path::new("old.ckpt"), &older(&one, 1)).unwrap();
        assert_eq!(back, one);
    }

    #[test]
    fn damaged_or_foreign_files_are_refused_with_their_name() {
        let mut bytes = checkpoint().to_bytes();
        bytes[100] ^= 1;
        let e = Checkpoint::from_bytes(Path::new("run.ckpt"), &bytes).unwrap_err();
        assert!(
            e.to_string().contains("run.ckpt") && e.to_string().contains("checksum"),
            "{e}"
        );
        let e = Checkpoint::from_bytes(Path::new("net.xqnn"), b"XQNN\x01\0\0\0").unwrap_err();
        assert!(e.to_string().contains("net.xqnn"), "{e}");
        let mut short = checkpoint().to_bytes();
        short.truncate(short.len() - 12);
        assert!(Checkpoint::from_bytes(Path::new("a"), &short).is_err());
    }
}
