//! The network: its quantised weights, the file that holds them (read and written byte for
//! byte as below), and the float form it is trained in.
//!
//! File layout, all little-endian, of a network without a second hidden layer (version 3;
//! version 2 has no `palace` field and one palace bucket, and version 1 no `buckets` field
//! either and one output bucket; the engine reads and writes all three):
//! ```text
//! b"XQNN"  u32 version = 3  u32 inputs = 1260 * palace  u32 hidden (multiple of 16)
//! u32 buckets (1 to 16)     output buckets by the number of pieces on the board
//! u32 palace (1 or 6)       input buckets by where the perspective's general stands
//! u32 scale = 400  u32 qa = 255  u32 qb = 64
//! i16 ft_weights[inputs * hidden]   feature-major: feature f's row is [f*H .. f*H + H]
//! i16 ft_bias[hidden]
//! i16 out_weights[buckets * 2 * hidden]  per bucket: H for the side to move, H for the other
//! i32 out_bias[buckets]             already multiplied by qa * qb
//! u64 checksum                      FNV-1a 64 of every byte before it
//! ```
//! Version 4 adds a second hidden layer of S units (1 to [`MAX_SECOND_LAYER`]) between the
//! SCReLU of the accumulators and the output, clipped ReLU, S neurons per output bucket:
//! ```text
//! b"XQNN"  u32 version = 4  u32 inputs  u32 hidden  u32 buckets  u32 palace
//! u32 second (S)  u32 scale = 400  u32 qa = 255  u32 qb = 64
//! i16 ft_weights[inputs * hidden]  i16 ft_bias[hidden]
//! i16 out_weights[buckets * S * 2 * hidden]  per bucket, per neuron: H for the side to
//!                                   move, H for the other
//! i32 out_bias[buckets * S]         the neurons' biases, already multiplied by qa * qb
//! f32 top_weights[buckets * S]      the output layer: per bucket, one weight per neuron
//! f32 top_bias[buckets]
//! u64 checksum
//! ```
//! The second layer's sums are exact integers like the one-layer output's; the output layer
//! over them is a handful of floats added in a fixed order, so every backend gives the same
//! evaluation.
//!
//! A position is evaluated with the output bucket [`output_bucket`] gives for its number of
//! pieces, so that openings, middlegames and endings each have their own last layers, and each
//! side's inputs are those of its general's palace bucket ([`View`](super::View)).
//! The loader also bounds the weights so that the integer evaluation cannot overflow:
//! feature weights and biases within ±[`FT_LIMIT`] keep an accumulator (bias and at most 32
//! pieces) inside i16; output weights within ±[`OUT_LIMIT`] keep `clamp · weight` inside i16;
//! and at most [`MAX_HIDDEN`] hidden units keep every i32 lane of the output sum in range.

use super::features::{INPUTS, MAX_ACTIVE, PALACE_BUCKETS, active_features};
use super::simd::{Backend, CHUNK_LEN, Chunk};
use crate::eval::Evaluator;
use crate::memory::filled_in_huge_pages;
use crate::score::{MATE_BOUND, Score};
use std::fmt;
use std::path::Path;
use xiangqi_rules::{Color, Position};

/// The first four bytes of a network file.
pub const MAGIC: [u8; 4] = *b"XQNN";
/// The file version this engine writes for a network with a second hidden layer; it also
/// reads [`VERSION_PALACE`], [`VERSION_NO_PALACE`] and [`VERSION_ONE_BUCKET`], and writes them
/// for networks they fit.
pub const VERSION: u32 = 4;
/// The third file version: output and palace buckets, no second hidden layer.
pub const VERSION_PALACE: u32 = 3;
/// The second file version: output buckets, one palace bucket and no `palace` field.
pub const VERSION_NO_PALACE: u32 = 2;
/// The first file version: one output bucket and no `buckets` field.
pub const VERSION_ONE_BUCKET: u32 = 1;
/// The most output buckets a network may have.
pub const MAX_BUCKETS: usize = 16;
/// The most units a second hidden layer may have.
pub const MAX_SECOND_LAYER: usize = 32;
/// Centipawns per unit of network output.
pub const SCALE: u32 = 400;
/// Quantisation of the feature layer: float weight × QA.
pub const QA: u32 = 255;
/// Quantisation of the output weights: float weight × QB.
pub const QB: u32 = 64;
/// The most hidden units per perspective the engine accepts.
pub const MAX_HIDDEN: usize = 1024;
/// The largest feature weight or bias, in quantised units: `(MAX_ACTIVE + 1) · FT_LIMIT`
/// stays inside i16.
pub const FT_LIMIT: i32 = i16::MAX as i32 / (MAX_ACTIVE as i32 + 1);
/// The largest output weight, in quantised units: `QA · OUT_LIMIT` stays inside i16.
pub const OUT_LIMIT: i32 = i16::MAX as i32 / QA as i32;
/// The largest magnitude of a static evaluation, kept clear of mate scores.
const MAX_EVAL: i64 = MATE_BOUND as i64 - 1;
/// Bytes before the weights: magic and six u32 fields (version 1), seven (version 2), eight
/// (version 3) or nine (version 4).
const fn header_bytes(version: u32) -> usize {
    match version {
        VERSION_ONE_BUCKET => 4 + 6 * 4,
        VERSION_NO_PALACE => 4 + 7 * 4,
        VERSION_PALACE => 4 + 8 * 4,
        _ => 4 + 9 * 4,
    }
}

/// The output bucket of a position with `pieces` pieces on the board (both generals
/// included) in a network of `buckets` buckets: the range 2–32 cut into `buckets` runs of
/// equal length, fewest pieces first.
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    let run = 31usize.div_ceil(buckets.max(1));
    (pieces.saturating_sub(2) / run).min(buckets.max(1) - 1)
}

/// Why a network could not be read or built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file could not be read.
    Io {
        /// The path given.
        path: String,
        /// What the system said.
        message: String,
    },
    /// The file does not start with `XQNN`.
    NotANetwork,
    /// A version other than [`VERSION`].
    UnsupportedVersion(u32),
    /// An input count other than [`INPUTS`] per palace bucket.
    WrongInputs(u32),
    /// A hidden size that is zero, not a multiple of 16 or above [`MAX_HIDDEN`].
    BadHidden(u32),
    /// An output bucket count that is zero or above [`MAX_BUCKETS`].
    BadBuckets(u32),
    /// A palace bucket count other than 1 and [`PALACE_BUCKETS`].
    BadPalaceBuckets(u32),
    /// A second hidden layer of no units or more than [`MAX_SECOND_LAYER`].
    BadSecondLayer(u32),
    /// A quantisation constant or scale other than the one this engine uses.
    WrongConstant {
        /// `scale`, `qa` or `qb`.
        name: &'static str,
        /// The value found.
        found: u32,
        /// The value this engine uses.
        expected: u32,
    },
    /// Fewer bytes than the header says.
    Truncated {
        /// Bytes the header calls for.
        expected: usize,
        /// Bytes present.
        got: usize,
    },
    /// More bytes than the header says.
    TrailingBytes {
        /// Bytes the header calls for.
        expected: usize,
        /// Bytes present.
        got: usize,
    },
    /// The stored checksum does not match the contents.
    ChecksumMismatch {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of the bytes before it.
        computed: u64,
    },
    /// A quantised weight outside the range that keeps the integer evaluation exact.
    WeightOutOfRange {
        /// Which array: `feature weight`, `feature bias` or `output weight`.
        layer: &'static str,
        /// Position in that array.
        index: usize,
        /// The quantised value.
        value: i32,
        /// The largest magnitude allowed.
        limit: i32,
    },
    /// A float network whose array has the wrong length for its hidden size.
    WrongShape {
        /// Which array.
        layer: &'static str,
        /// The length its hidden size calls for.
        expected: usize,
        /// Its length.
        got: usize,
    },
    /// A float weight that is NaN or infinite.
    NotFinite {
        /// Which array.
        layer: &'static str,
        /// Position in that array.
        index: usize,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io { path, message } => write!(f, "cannot read '{path}': {message}"),
            NetworkError::NotANetwork => f.write_str("not a network file (no XQNN header)"),
            NetworkError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "version {v} not supported (this engine reads versions {VERSION_ONE_BUCKET} to {VERSION})"
                )
            }
            NetworkError::WrongInputs(n) => {
                write!(
                    f,
                    "the network has {n} inputs; this engine's features are {INPUTS} per palace bucket"
                )
            }
            NetworkError::BadPalaceBuckets(p) => {
                write!(f, "{p} palace buckets; a network has 1 or {PALACE_BUCKETS}")
            }
            NetworkError::BadBuckets(b) => {
                write!(f, "{b} output buckets; a network has 1 to {MAX_BUCKETS}")
            }
            NetworkError::BadSecondLayer(s) => write!(
                f,
                "a second hidden layer of {s} units; it has 1 to {MAX_SECOND_LAYER}"
            ),
            NetworkError::BadHidden(h) => write!(
                f,
                "hidden size {h} is not a multiple of {CHUNK_LEN} between {CHUNK_LEN} and {MAX_HIDDEN}"
            ),
            NetworkError::WrongConstant {
                name,
                found,
                expected,
            } => write!(f, "{name} is {found}; this engine uses {expected}"),
            NetworkError::Truncated { expected, got } => {
                write!(f, "file truncated: expected {expected} bytes, got {got}")
            }
            NetworkError::TrailingBytes { expected, got } => {
                write!(f, "file too long: expected {expected} bytes, got {got}")
            }
            NetworkError::ChecksumMismatch { stored, computed } => write!(
                f,
                "checksum mismatch: the file says {stored:016x}, its contents give {computed:016x}"
            ),
            NetworkError::WeightOutOfRange {
                layer,
                index,
                value,
                limit,
            } => write!(
                f,
                "{layer} {index} is {value} in quantised units, outside ±{limit}"
            ),
            NetworkError::WrongShape {
                layer,
                expected,
                got,
            } => write!(f, "{layer}s: expected {expected} values, got {got}"),
            NetworkError::NotFinite { layer, index } => {
                write!(f, "{layer} {index} is not a finite number")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

/// FNV-1a 64 of `bytes`: the network file's checksum.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The shape of a network: what its file's header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    hidden: usize,
    buckets: usize,
    palace: usize,
    /// Units of the second hidden layer; 0 when there is none.
    second: usize,
}

impl Shape {
    /// The shape of these sizes, when this engine runs such a network.
    fn checked(
        hidden: usize,
        buckets: usize,
        palace: usize,
        second: usize,
    ) -> Result<Shape, NetworkError> {
        check_palace(palace)?;
        check_hidden(hidden)?;
        check_buckets(buckets)?;
        check_second(second)?;
        Ok(Shape {
            hidden,
            buckets,
            palace,
            second,
        })
    }

    /// Rows of `2 · hidden` weights on the accumulators: one per output bucket, or one per
    /// neuron of the second layer.
    const fn rows(self) -> usize {
        if self.second > 0 {
            self.buckets * self.second
        } else {
            self.buckets
        }
    }

    /// The second layer's output weights: one per neuron of each bucket (none without it).
    const fn top_weights(self) -> usize {
        self.buckets * self.second
    }

    /// The second layer's output biases: one per bucket (none without it).
    const fn top_biases(self) -> usize {
        if self.second > 0 { self.buckets } else { 0 }
    }

    /// The names of the rows on the accumulators and of their biases, for errors.
    const fn row_layers(self) -> (&'static str, &'static str) {
        if self.second > 0 {
            ("second-layer weight", "second-layer bias")
        } else {
            ("output weight", "output bias")
        }
    }

    /// The file size of this shape in file version `version`.
    const fn file_size(self, version: u32) -> usize {
        header_bytes(version)
            + 2 * (self.palace * INPUTS * self.hidden + self.hidden + self.rows() * 2 * self.hidden)
            + 4 * self.rows()
            + 4 * (self.top_weights() + self.top_biases())
            + 8
    }

    /// The oldest file version that holds this shape.
    const fn version(self) -> u32 {
        version_for(self.buckets, self.palace, self.second)
    }
}

/// The oldest file version that holds a network of `buckets` output buckets, `palace`
/// palace buckets and a second layer of `second` units.
const fn version_for(buckets: usize, palace: usize, second: usize) -> u32 {
    if second > 0 {
        VERSION
    } else if palace > 1 {
        VERSION_PALACE
    } else if buckets > 1 {
        VERSION_NO_PALACE
    } else {
        VERSION_ONE_BUCKET
    }
}

/// A quantised network, ready to evaluate. Rows are stored in aligned [`Chunk`]s.
#[derive(Clone)]
pub struct Network {
    shape: Shape,
    layers: Layers,
    backend: Backend,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &self.shape.hidden)
            .field("buckets", &self.shape.buckets)
            .field("palace", &self.shape.palace)
            .field("second", &self.shape.second)
            .field("backend", &self.backend)
            .finish_non_exhaustive()
    }
}

/// Reads little-endian values from a byte slice whose length was checked beforehand.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        out.copy_from_slice(&self.bytes[self.at..self.at + N]);
        self.at += N;
        out
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }

    fn f32s(&mut self, values: usize) -> Vec<f32> {
        (0..values)
            .map(|_| f32::from_le_bytes(self.take()))
            .collect()
    }

    fn chunks(&mut self, values: usize) -> Vec<Chunk> {
        let mut out = filled_in_huge_pages(values / CHUNK_LEN, Chunk::default());
        for chunk in &mut out {
            for v in &mut chunk.0 {
                *v = i16::from_le_bytes(self.take());
            }
        }
        out
    }
}

fn check_range(layer: &'static str, chunks: &[Chunk], limit: i32) -> Result<(), NetworkError> {
    let values = chunks.iter().flat_map(|c| c.0);
    for (index, v) in values.enumerate() {
        if i32::from(v).abs() > limit {
            return Err(NetworkError::WeightOutOfRange {
                layer,
                index,
                value: i32::from(v),
                limit,
            });
        }
    }
    Ok(())
}

fn check_buckets(buckets: usize) -> Result<(), NetworkError> {
    if buckets == 0 || buckets > MAX_BUCKETS {
        return Err(NetworkError::BadBuckets(
            buckets.min(u32::MAX as usize) as u32
        ));
    }
    Ok(())
}

fn check_palace(palace: usize) -> Result<(), NetworkError> {
    if palace != 1 && palace != PALACE_BUCKETS {
        return Err(NetworkError::BadPalaceBuckets(
            palace.min(u32::MAX as usize) as u32,
        ));
    }
    Ok(())
}

fn check_second(second: usize) -> Result<(), NetworkError> {
    if second > MAX_SECOND_LAYER {
        return Err(NetworkError::BadSecondLayer(
            second.min(u32::MAX as usize) as u32
        ));
    }
    Ok(())
}

fn check_finite(layer: &'static str, values: &[f32]) -> Result<(), NetworkError> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(NetworkError::NotFinite { layer, index }),
        None => Ok(()),
    }
}

fn check_hidden(hidden: usize) -> Result<(), NetworkError> {
    if hidden == 0 || !hidden.is_multiple_of(CHUNK_LEN) || hidden > MAX_HIDDEN {
        return Err(NetworkError::BadHidden(hidden.min(u32::MAX as usize) as u32));
    }
    Ok(())
}

impl Network {
    /// Reads a network file.
    pub fn load(path: impl AsRef<Path>) -> Result<Network, NetworkError> {
        use std::io::Read;
        let path = path.as_ref();
        let io = |message: String| NetworkError::Io {
            path: path.display().to_string(),
            message,
        };
        // Looked at before it is opened: opening a pipe waits for a writer, and a device
        // such as /dev/zero never ends.
        let meta = std::fs::metadata(path).map_err(|e| io(e.to_string()))?;
        if !meta.is_file() {
            return Err(io(
                "not a regular file (a folder, pipe or device); a network is a file".into(),
            ));
        }
        let largest = Shape {
            hidden: MAX_HIDDEN,
            buckets: MAX_BUCKETS,
            palace: PALACE_BUCKETS,
            second: MAX_SECOND_LAYER,
        }
        .file_size(VERSION);
        if meta.len() > largest as u64 {
            return Err(io(format!(
                "{} bytes is larger than any network (at most {largest})",
                meta.len()
            )));
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        std::fs::File::open(path)
            .and_then(|file| file.take(largest as u64 + 1).read_to_end(&mut bytes))
            .map_err(|e| io(e.to_string()))?;
        Network::from_bytes(&bytes)
    }

    /// Reads a network from the bytes of a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < MAGIC.len() || bytes[..4] != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        if bytes.len() < header_bytes(VERSION_ONE_BUCKET) {
            return Err(NetworkError::Truncated {
                expected: header_bytes(VERSION_ONE_BUCKET),
                got: bytes.len(),
            });
        }
        let mut r = Reader { bytes, at: 4 };
        let version = r.u32();
        if !(VERSION_ONE_BUCKET..=VERSION).contains(&version) {
            return Err(NetworkError::UnsupportedVersion(version));
        }
        if bytes.len() < header_bytes(version) {
            return Err(NetworkError::Truncated {
                expected: header_bytes(version),
                got: bytes.len(),
            });
        }
        let inputs = r.u32();
        let hidden_field = r.u32();
        let hidden = hidden_field as usize;
        let buckets = if version == VERSION_ONE_BUCKET {
            1
        } else {
            r.u32() as usize
        };
        let palace = if version >= VERSION_PALACE {
            r.u32() as usize
        } else {
            1
        };
        let second = if version == VERSION {
            let second = r.u32() as usize;
            if second == 0 {
                return Err(NetworkError::BadSecondLayer(0));
            }
            second
        } else {
            0
        };
        let shape = Shape::checked(hidden, buckets, palace, second)?;
        if inputs as usize != palace * INPUTS {
            return Err(NetworkError::WrongInputs(inputs));
        }
        let expected = shape.file_size(version);
        if bytes.len() < expected {
            return Err(NetworkError::Truncated {
                expected,
                got: bytes.len(),
            });
        }
        if bytes.len() > expected {
            return Err(NetworkError::TrailingBytes {
                expected,
                got: bytes.len(),
            });
        }
        let body = expected - 8;
        let stored = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
        let computed = fnv1a64(&bytes[..body]);
        if stored != computed {
            return Err(NetworkError::ChecksumMismatch { stored, computed });
        }
        for (name, expected) in [("scale", SCALE), ("qa", QA), ("qb", QB)] {
            let found = r.u32();
            if found != expected {
                return Err(NetworkError::WrongConstant {
                    name,
                    found,
                    expected,
                });
            }
        }
        let ft_weights = r.chunks(palace * INPUTS * hidden);
        let ft_bias = r.chunks(hidden);
        let out_weights = r.chunks(shape.rows() * 2 * hidden);
        let out_bias = (0..shape.rows())
            .map(|_| i32::from_le_bytes(r.take()))
            .collect();
        let top_weights = r.f32s(shape.top_weights());
        let top_bias = r.f32s(shape.top_biases());
        Network::checked(
            shape,
            Layers {
                ft_weights,
                ft_bias,
                out_weights,
                out_bias,
                top_weights,
                top_bias,
            },
        )
    }

    fn checked(shape: Shape, layers: Layers) -> Result<Network, NetworkError> {
        check_range("feature weight", &layers.ft_weights, FT_LIMIT)?;
        check_range("feature bias", &layers.ft_bias, FT_LIMIT)?;
        check_range(shape.row_layers().0, &layers.out_weights, OUT_LIMIT)?;
        check_finite("output weight", &layers.top_weights)?;
        check_finite("output bias", &layers.top_bias)?;
        Ok(Network {
            shape,
            layers,
            backend: Backend::detect(),
        })
    }

    /// The network file's bytes, in the oldest version that holds the network (so that a
    /// network of an earlier architecture is written as it always was): version 1 for one
    /// output bucket and one palace bucket, version 2 for output buckets alone, version 3
    /// with palace buckets, version 4 with a second hidden layer.
    pub fn to_bytes(&self) -> Vec<u8> {
        let shape = self.shape;
        let version = shape.version();
        let mut out = Vec::with_capacity(shape.file_size(version));
        out.extend_from_slice(&MAGIC);
        let inputs = (shape.palace * INPUTS) as u32;
        let mut header = vec![version, inputs, shape.hidden as u32];
        if version != VERSION_ONE_BUCKET {
            header.push(shape.buckets as u32);
        }
        if version >= VERSION_PALACE {
            header.push(shape.palace as u32);
        }
        if version == VERSION {
            header.push(shape.second as u32);
        }
        header.extend([SCALE, QA, QB]);
        for v in header {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for chunks in [
            &self.layers.ft_weights,
            &self.layers.ft_bias,
            &self.layers.out_weights,
        ] {
            for v in chunks.iter().flat_map(|c| c.0) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for bias in &self.layers.out_bias {
            out.extend_from_slice(&bias.to_le_bytes());
        }
        for v in self.layers.top_weights.iter().chain(&self.layers.top_bias) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let checksum = fnv1a64(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Quantises a float network: feature weights and biases × QA, output weights × QB,
    /// output biases × QA·QB, each rounded to the nearest integer.
    pub fn from_float(float: &FloatNetwork) -> Result<Network, NetworkError> {
        let hidden = float.hidden;
        let buckets = float.buckets();
        let (palace, second) = (float.palace, float.second);
        let shape = Shape::checked(hidden, buckets, palace, second)?;
        let (rows, row_biases) = shape.row_layers();
        let shapes = [
            (
                "feature weight",
                &float.ft_weights,
                palace * INPUTS * hidden,
            ),
            ("feature bias", &float.ft_bias, hidden),
            (rows, &float.out_weights, shape.rows() * 2 * hidden),
            (row_biases, &float.out_bias, shape.rows()),
            ("output weight", &float.top_weights, shape.top_weights()),
            ("output bias", &float.top_bias, shape.top_biases()),
        ];
        for (layer, values, expected) in shapes {
            if values.len() != expected {
                return Err(NetworkError::WrongShape {
                    layer,
                    expected,
                    got: values.len(),
                });
            }
            if let Some(index) = values.iter().position(|v| !v.is_finite()) {
                return Err(NetworkError::NotFinite { layer, index });
            }
        }
        let quantise = |values: &[f32], factor: u32| -> Vec<Chunk> {
            let mut out = filled_in_huge_pages(values.len() / CHUNK_LEN, Chunk::default());
            for (chunk, source) in out.iter_mut().zip(values.chunks_exact(CHUNK_LEN)) {
                for (v, &w) in chunk.0.iter_mut().zip(source) {
                    // Float-to-integer casts saturate; the range check below reports it.
                    *v = (w * factor as f32).round() as i16;
                }
            }
            out
        };
        Network::checked(
            shape,
            Layers {
                ft_weights: quantise(&float.ft_weights, QA),
                ft_bias: quantise(&float.ft_bias, QA),
                out_weights: quantise(&float.out_weights, QB),
                out_bias: float
                    .out_bias
                    .iter()
                    .map(|b| (b * (QA * QB) as f32).round() as i32)
                    .collect(),
                top_weights: float.top_weights.clone(),
                top_bias: float.top_bias.clone(),
            },
        )
    }

    /// Hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.shape.hidden
    }

    /// Output buckets (1 for a network of the first architecture).
    pub fn buckets(&self) -> usize {
        self.shape.buckets
    }

    /// Palace buckets: 1, or [`PALACE_BUCKETS`] for a network whose inputs depend on where
    /// each side's general stands.
    pub fn palace_buckets(&self) -> usize {
        self.shape.palace
    }

    /// Units of the second hidden layer; 0 for a network without one.
    pub fn second_layer(&self) -> usize {
        self.shape.second
    }

    /// The kernels this network's evaluations run on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The same network running on `backend` (to compare the AVX2 and scalar kernels).
    pub fn with_backend(mut self, backend: Backend) -> Network {
        self.backend = backend;
        self
    }

    /// Chunks in one accumulator.
    pub(super) fn chunks(&self) -> usize {
        self.shape.hidden / CHUNK_LEN
    }

    /// The weights of input `feature`.
    #[inline]
    pub(super) fn row(&self, feature: usize) -> &[Chunk] {
        let n = self.chunks();
        &self.layers.ft_weights[feature * n..feature * n + n]
    }

    /// Fills `acc` from scratch with `perspective`'s view of `pos`.
    pub fn refresh(&self, pos: &Position, perspective: Color, acc: &mut [Chunk]) {
        acc.copy_from_slice(&self.layers.ft_bias);
        let mut features = Vec::with_capacity(MAX_ACTIVE);
        active_features(pos, perspective, self.shape.palace, &mut features);
        for f in features {
            self.backend.add(acc, self.row(f));
        }
    }

    /// The accumulator of `perspective`'s view of `pos`, computed from scratch, as plain
    /// values (for tests and tools).
    pub fn accumulator_values(&self, pos: &Position, perspective: Color) -> Vec<i16> {
        let mut acc = vec![Chunk::default(); self.chunks()];
        self.refresh(pos, perspective, &mut acc);
        acc.iter().flat_map(|c| c.0).collect()
    }

    /// The evaluation in centipawns from the accumulators of the side to move (`us`) and of
    /// the other side (`them`) of a position with `pieces` pieces on the board.
    #[inline]
    pub fn evaluate_accumulators(&self, us: &[Chunk], them: &[Chunk], pieces: usize) -> Score {
        let bucket = output_bucket(pieces, self.shape.buckets);
        let qa = i64::from(QA);
        let qab = qa * i64::from(QB);
        let len = 2 * self.chunks();
        let cp = if self.shape.second == 0 {
            let row = &self.layers.out_weights[bucket * len..(bucket + 1) * len];
            let sum =
                self.backend.output(us, them, row) / qa + i64::from(self.layers.out_bias[bucket]);
            sum * i64::from(SCALE) / qab
        } else {
            let first = bucket * self.shape.second;
            let rows = &self.layers.out_weights[first * len..(first + self.shape.second) * len];
            let mut sums = [0i64; MAX_SECOND_LAYER];
            let sums = &mut sums[..self.shape.second];
            self.backend.outputs(us, them, rows, sums);
            let mut y = self.layers.top_bias[bucket];
            for ((sum, bias), w) in sums
                .iter()
                .zip(&self.layers.out_bias[first..])
                .zip(&self.layers.top_weights[first..])
            {
                let unit = ((sum / qa + i64::from(*bias)) as f32 / qab as f32).clamp(0.0, 1.0);
                y += w * unit;
            }
            // Float-to-integer casts saturate; the clamp below keeps clear of mate scores.
            (y * SCALE as f32) as i64
        };
        cp.clamp(-MAX_EVAL, MAX_EVAL) as Score
    }
}

/// A network's layers in quantised form, as read from a file or quantised from floats.
#[derive(Clone)]
struct Layers {
    /// `palace · INPUTS` rows of `hidden / 16` chunks.
    ft_weights: Vec<Chunk>,
    ft_bias: Vec<Chunk>,
    /// Rows of `2 · hidden / 16` chunks, the side to move's half, then the other side's: one
    /// per output bucket, or with a second layer one per bucket and neuron, bucket by bucket.
    out_weights: Vec<Chunk>,
    /// One per row of `out_weights`.
    out_bias: Vec<i32>,
    /// With a second layer: per bucket, the output weight of each neuron.
    top_weights: Vec<f32>,
    /// With a second layer: one output bias per bucket.
    top_bias: Vec<f32>,
}

/// A from-scratch evaluation (two refreshes); the search keeps accumulators instead.
impl Evaluator for Network {
    fn evaluate(&self, pos: &Position) -> Score {
        let us = pos.side_to_move();
        let mut acc_us = vec![Chunk::default(); self.chunks()];
        let mut acc_them = vec![Chunk::default(); self.chunks()];
        self.refresh(pos, us, &mut acc_us);
        self.refresh(pos, us.opponent(), &mut acc_them);
        self.evaluate_accumulators(&acc_us, &acc_them, pos.occupied().count() as usize)
    }
}

/// A network in floats, as it is trained: what [`Network::from_float`] quantises.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// Hidden units per perspective (a multiple of 16).
    pub hidden: usize,
    /// Palace buckets: 1 or [`PALACE_BUCKETS`].
    pub palace: usize,
    /// `palace × INPUTS × hidden`, feature-major: feature f's weights are
    /// `[f*hidden .. f*hidden + hidden]`.
    pub ft_weights: Vec<f32>,
    /// `hidden` biases of the feature layer.
    pub ft_bias: Vec<f32>,
    /// The layer on the accumulators: `buckets × 2 × hidden` output weights (per output
    /// bucket, the side to move's half first), or with a second hidden layer of S units
    /// `buckets × S × 2 × hidden`, per bucket and neuron.
    pub out_weights: Vec<f32>,
    /// One bias per row of `out_weights`: per output bucket, or per bucket and neuron of the
    /// second layer.
    pub out_bias: Vec<f32>,
    /// Units of the second hidden layer; 0 when there is none.
    pub second: usize,
    /// With a second layer: `buckets × S` output weights, one per neuron of each bucket.
    pub top_weights: Vec<f32>,
    /// With a second layer: one output bias per bucket; their number is the number of
    /// buckets.
    pub top_bias: Vec<f32>,
}

impl FloatNetwork {
    /// A network of `hidden` units and one output bucket with every weight drawn uniformly
    /// from `±ft_range` (feature layer) and `±out_range` (output layer) by a generator seeded
    /// with `seed`; for tests and speed measurements.
    pub fn random(hidden: usize, seed: u64, ft_range: f32, out_range: f32) -> FloatNetwork {
        FloatNetwork::random_bucketed(hidden, 1, seed, ft_range, out_range)
    }

    /// [`FloatNetwork::random`] with `buckets` output buckets.
    pub fn random_bucketed(
        hidden: usize,
        buckets: usize,
        seed: u64,
        ft_range: f32,
        out_range: f32,
    ) -> FloatNetwork {
        FloatNetwork::random_shaped(hidden, buckets, 1, seed, ft_range, out_range)
    }

    /// [`FloatNetwork::random`] with `buckets` output buckets and `palace` palace buckets.
    pub fn random_shaped(
        hidden: usize,
        buckets: usize,
        palace: usize,
        seed: u64,
        ft_range: f32,
        out_range: f32,
    ) -> FloatNetwork {
        FloatNetwork::random_layered(hidden, buckets, palace, 0, seed, ft_range, out_range)
    }

    /// [`FloatNetwork::random_shaped`] with a second hidden layer of `second` units (none
    /// for 0); its weights, biases and the output layer's are drawn from `±out_range` too.
    pub fn random_layered(
        hidden: usize,
        buckets: usize,
        palace: usize,
        second: usize,
        seed: u64,
        ft_range: f32,
        out_range: f32,
    ) -> FloatNetwork {
        let mut rng = crate::random::SplitMix64::new(seed);
        let mut next =
            |range: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * range;
        let rows = buckets * second.max(1);
        let top = if second > 0 { buckets } else { 0 };
        FloatNetwork {
            hidden,
            palace,
            ft_weights: (0..palace * INPUTS * hidden)
                .map(|_| next(ft_range))
                .collect(),
            ft_bias: (0..hidden).map(|_| next(ft_range)).collect(),
            out_weights: (0..rows * 2 * hidden).map(|_| next(out_range)).collect(),
            out_bias: (0..rows).map(|_| next(out_range)).collect(),
            second,
            top_weights: (0..top * second).map(|_| next(out_range)).collect(),
            top_bias: (0..top).map(|_| next(out_range)).collect(),
        }
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        if self.second > 0 {
            self.top_bias.len()
        } else {
            self.out_bias.len()
        }
    }

    /// The accumulator of `perspective`'s view of `pos` before activation.
    pub fn accumulator(&self, pos: &Position, perspective: Color) -> Vec<f32> {
        let mut acc = self.ft_bias.clone();
        let mut features = Vec::with_capacity(MAX_ACTIVE);
        active_features(pos, perspective, self.palace, &mut features);
        for f in features {
            let row = &self.ft_weights[f * self.hidden..(f + 1) * self.hidden];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// The raw output `y` for the side to move of `pos` (centipawns are `y · SCALE`).
    pub fn output(&self, pos: &Position) -> f32 {
        let us = pos.side_to_move();
        let screlu = |a: f32| {
            let c = a.clamp(0.0, 1.0);
            c * c
        };
        let bucket = output_bucket(pos.occupied().count() as usize, self.buckets());
        let acc_us = self.accumulator(pos, us);
        let acc_them = self.accumulator(pos, us.opponent());
        let h = self.hidden;
        // Row `r` of the layer on the accumulators, with its bias.
        let row_sum = |r: usize| -> f32 {
            let (w_us, w_them) = self.out_weights[r * 2 * h..(r + 1) * 2 * h].split_at(h);
            let dot = |acc: &[f32], w: &[f32]| -> f32 {
                acc.iter().zip(w).map(|(a, w)| screlu(*a) * w).sum()
            };
            dot(&acc_us, w_us) + dot(&acc_them, w_them) + self.out_bias[r]
        };
        if self.second == 0 {
            return row_sum(bucket);
        }
        let first = bucket * self.second;
        (first..first + self.second)
            .zip(&self.top_weights[first..])
            .fold(self.top_bias[bucket], |y, (r, w)| {
                y + w * row_sum(r).clamp(0.0, 1.0)
            })
    }

    /// The evaluation in centipawns from the side to move's view.
    pub fn evaluate_cp(&self, pos: &Position) -> f32 {
        self.output(pos) * SCALE as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Network {
        Network::from_float(&FloatNetwork::random(32, 7, 0.5, 1.98)).unwrap()
    }

    #[test]
    fn the_limits_keep_the_integer_sums_in_range() {
        assert_eq!(FT_LIMIT, 992);
        assert!((MAX_ACTIVE as i32 + 1) * FT_LIMIT <= i32::from(i16::MAX));
        assert_eq!(OUT_LIMIT, 128);
        assert!(QA as i32 * OUT_LIMIT <= i32::from(i16::MAX));
        // Each i32 lane of the AVX2 output sums MAX_HIDDEN / 4 products.
        let product = i64::from(QA * QA) * i64::from(OUT_LIMIT);
        assert!((MAX_HIDDEN as i64 / 4) * product <= i64::from(i32::MAX));
    }

    #[test]
    fn a_written_network_reads_back_the_same() {
        let net = small();
        let bytes = net.to_bytes();
        let shape = Shape {
            hidden: 32,
            buckets: 1,
            palace: 1,
            second: 0,
        };
        assert_eq!(bytes.len(), shape.file_size(VERSION_ONE_BUCKET));
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        let pos = Position::startpos();
        assert_eq!(back.evaluate(&pos), net.evaluate(&pos));
    }

    #[test]
    fn quantising_rounds_to_the_nearest_step() {
        let mut float = FloatNetwork::random(16, 1, 0.0, 0.0);
        float.ft_weights[0] = 0.5; // 127.5 → 128
        float.ft_bias[1] = -0.1; // −25.5 → −26
        float.out_weights[2] = 1.98; // 126.72 → 127
        float.out_bias = vec![0.25]; // 4080
        let net = Network::from_float(&float).unwrap();
        assert_eq!(net.layers.ft_weights[0].0[0], 128);
        assert_eq!(net.layers.ft_bias[0].0[1], -26);
        assert_eq!(net.layers.out_weights[0].0[2], 127);
        assert_eq!(net.layers.out_bias, vec![4080]);
    }

    #[test]
    fn weights_that_could_overflow_are_refused() {
        let mut float = FloatNetwork::random(16, 1, 0.1, 0.1);
        float.out_weights[5] = 2.5;
        assert_eq!(
            Network::from_float(&float).unwrap_err(),
            NetworkError::WeightOutOfRange {
                layer: "output weight",
                index: 5,
                value: 160,
                limit: OUT_LIMIT,
            }
        );
        let mut float = FloatNetwork::random(16, 1, 0.1, 0.1);
        float.ft_weights[3] = f32::NAN;
        assert!(matches!(
            Network::from_float(&float),
            Err(NetworkError::NotFinite { index: 3, .. })
        ));
        let mut float = FloatNetwork::random(16, 1, 0.1, 0.1);
        float.hidden = 24;
        assert_eq!(
            Network::from_float(&float).unwrap_err(),
            NetworkError::BadHidden(24)
        );
    }
}
