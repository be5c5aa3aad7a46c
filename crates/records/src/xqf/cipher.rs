//! The scrambling of XQF versions 1.1 and later: keys derived from header bytes, and how
//! they hide piece positions, move points, comment lengths and every byte after the header.
//!
//! From the header's key bytes `XY`, `XYf`, `XYt` and `Sum`, with
//! `f(k) = 54·k² + 221` (all arithmetic on bytes, wrapping):
//! - piece key `P = f(XY)·XY`; origin key `F = f(XYf)·P`; target key `T = f(XYt)·F`;
//! - comment-length key `(Sum·256 + XY) mod 32000 + 767`;
//! - a 32-byte stream: byte `i` of `[(C) Copyright Mr. Dong Shiwei.]` AND-ed with key byte
//!   `i mod 4`, the key bytes being `(Sum, XY, XYf, XYt)` each AND the mask OR its own
//!   `KeyOr` byte.
//!
//! Every byte from offset 0x400 on has the stream byte of its offset (mod 32) added; move
//! points have `0x18 + F` (origin) and `0x20 + T` (target) added; comment lengths the
//! comment-length key. Piece positions have `P` added, and from version 1.2 on the 32 slots
//! are also rotated: slot `i` is stored at `(i - P - 1) mod 32`.

use super::layout::{KEY_MASK, KEY_OR, KEY_XY, KEY_XYF, KEY_XYT, KEYS_SUM, PLAIN_VERSION};

/// The text whose bytes make the key stream.
const STREAM_TEXT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The keys of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Keys {
    encrypted: bool,
    rotated: bool,
    pieces: u8,
    from: u8,
    to: u8,
    comment_length: u32,
    stream: [u8; 32],
}

/// `(54·k² + 221)·factor`, on bytes.
fn derive(k: u8, factor: u8) -> u8 {
    let k = u32::from(k);
    let base = (((((k * k) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) & 0xFF;
    ((base * u32::from(factor)) & 0xFF) as u8
}

impl Keys {
    /// The keys a header gives (at least its first 16 bytes); none for version 1.0 and before.
    pub(crate) fn from_header(header: &[u8]) -> Keys {
        let version = header[super::layout::VERSION];
        if version <= PLAIN_VERSION {
            return Keys {
                encrypted: false,
                rotated: false,
                pieces: 0,
                from: 0,
                to: 0,
                comment_length: 0,
                stream: [0; 32],
            };
        }
        let mask = header[KEY_MASK];
        let (sum, xy, xyf, xyt) = (
            header[KEYS_SUM],
            header[KEY_XY],
            header[KEY_XYF],
            header[KEY_XYT],
        );
        let pieces = derive(xy, xy);
        let from = derive(xyf, pieces);
        let to = derive(xyt, from);
        let key_bytes = [sum, xy, xyf, xyt];
        let mut stream = [0u8; 32];
        for (i, s) in stream.iter_mut().enumerate() {
            let key = (key_bytes[i % 4] & mask) | header[KEY_OR + i % 4];
            *s = STREAM_TEXT[i] & key;
        }
        Keys {
            encrypted: true,
            rotated: version >= 12,
            pieces,
            from,
            to,
            comment_length: (u32::from(sum) * 256 + u32::from(xy)) % 32000 + 767,
            stream,
        }
    }

    /// Whether the file is encrypted.
    pub(crate) fn encrypted(&self) -> bool {
        self.encrypted
    }

    /// The 32 piece positions (X*10+Y) from the header's 32 stored bytes.
    pub(crate) fn pieces(&self, stored: &[u8]) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (i, &b) in stored.iter().take(32).enumerate() {
            let slot = if self.rotated {
                (i + usize::from(self.pieces) + 1) % 32
            } else {
                i
            };
            out[slot] = b.wrapping_sub(self.pieces);
        }
        out
    }

    /// The plain value of the byte stored at file offset `offset` (0x400 and later).
    pub(crate) fn byte(&self, stored: u8, offset: usize) -> u8 {
        stored.wrapping_sub(self.stream[offset % 32])
    }

    /// A move's origin X*10+Y from its plain record byte.
    pub(crate) fn origin(&self, plain: u8) -> u8 {
        plain
            .wrapping_sub(super::layout::FROM_BIAS)
            .wrapping_sub(self.from)
    }

    /// A move's target X*10+Y from its plain record byte.
    pub(crate) fn target(&self, plain: u8) -> u8 {
        plain
            .wrapping_sub(super::layout::TO_BIAS)
            .wrapping_sub(self.to)
    }

    /// A comment's length from its plain stored length; `None` when there is no comment.
    pub(crate) fn comment_length(&self, stored: u32) -> Option<usize> {
        let n = i64::from(stored) - i64::from(self.comment_length);
        usize::try_from(n).ok().filter(|&n| n > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derivation_is_the_published_polynomial() {
        for k in 0..=255u8 {
            let expected = (((u32::from(k) * u32::from(k) * 54 + 221) * 7) & 0xFF) as u8;
            assert_eq!(derive(k, 7), expected);
        }
    }

    #[test]
    fn version_one_has_no_keys() {
        let mut header = [0u8; 16];
        header[2] = 10;
        header[13] = 0x55;
        let keys = Keys::from_header(&header);
        assert!(!keys.encrypted());
        assert_eq!(keys.byte(0x42, 0x400), 0x42);
        assert_eq!(keys.origin(0x18 + 44), 44);
        assert_eq!(keys.comment_length(5), Some(5));
        assert_eq!(keys.comment_length(0), None);
    }

    #[test]
    fn rotation_starts_in_version_twelve() {
        let mut header = [0u8; 16];
        header[2] = 12;
        header[13] = 1; // piece key derive(1, 1) = 275 & 0xFF = 19
        let keys = Keys::from_header(&header);
        assert_eq!(keys.pieces, 19);
        let mut stored = [0u8; 32];
        stored[0] = 19 + 44;
        let plain = keys.pieces(&stored);
        assert_eq!(plain[20], 44);
    }
}
