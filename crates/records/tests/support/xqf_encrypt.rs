//! Turns a plain XQF 1.0 file into an encrypted one (version 1.1 or later), written from the
//! published description of the scheme and independent of the reader's code, so that the
//! reader's decryption is checked against a second implementation.

/// Header key choices: the three keys (the checksum byte is derived), the mask, the OR bytes.
pub struct KeyChoice {
    pub xy: u8,
    pub xyf: u8,
    pub xyt: u8,
    pub mask: u8,
    pub or: [u8; 4],
}

/// `(54·k² + 221)·factor mod 256`.
fn scramble(k: u8, factor: u8) -> u8 {
    let k = k as u64;
    ((54 * k * k + 221) * factor as u64 % 256) as u8
}

/// The encrypted form of `plain` (a version 1.0 file) as version `version` (11 or more).
pub fn encrypt(plain: &[u8], version: u8, keys: &KeyChoice) -> Vec<u8> {
    assert!(version > 10 && plain.len() >= 0x400 && plain[2] == 10);
    let sum = 0u8
        .wrapping_sub(keys.xy)
        .wrapping_sub(keys.xyf)
        .wrapping_sub(keys.xyt);
    let piece_key = scramble(keys.xy, keys.xy);
    let from_key = scramble(keys.xyf, piece_key);
    let to_key = scramble(keys.xyt, from_key);
    let length_key = (sum as u32 * 256 + keys.xy as u32) % 32000 + 767;
    let copyright = b"[(C) Copyright Mr. Dong Shiwei.]";
    let key_bytes = [sum, keys.xy, keys.xyf, keys.xyt];
    let stream: Vec<u8> = (0..32)
        .map(|i| copyright[i] & ((key_bytes[i % 4] & keys.mask) | keys.or[i % 4]))
        .collect();

    let mut out = plain[..0x400].to_vec();
    out[2] = version;
    out[3] = keys.mask;
    out[8..12].copy_from_slice(&keys.or);
    out[12..16].copy_from_slice(&key_bytes);
    let shifted: Vec<u8> = plain[0x10..0x30]
        .iter()
        .map(|b| b.wrapping_add(piece_key))
        .collect();
    for i in 0..32 {
        out[0x10 + i] = if version >= 12 {
            shifted[(i + piece_key as usize + 1) % 32]
        } else {
            shifted[i]
        };
    }

    // Records: the same order, new flags, keyed points and comment lengths.
    let mut body = Vec::new();
    let mut at = 0x400;
    while at + 8 <= plain.len() {
        let (from, to, flags, reserved) = (plain[at], plain[at + 1], plain[at + 2], plain[at + 3]);
        let len = u32::from_le_bytes([plain[at + 4], plain[at + 5], plain[at + 6], plain[at + 7]]);
        let mut new_flags = 0;
        if flags & 0xF0 != 0 {
            new_flags |= 0x80;
        }
        if flags & 0x0F != 0 {
            new_flags |= 0x40;
        }
        if len > 0 {
            new_flags |= 0x20;
        }
        body.extend_from_slice(&[
            from.wrapping_add(from_key),
            to.wrapping_add(to_key),
            new_flags,
            reserved,
        ]);
        if len > 0 {
            body.extend_from_slice(&(len + length_key).to_le_bytes());
            body.extend_from_slice(&plain[at + 8..at + 8 + len as usize]);
        }
        at += 8 + len as usize;
    }
    for (i, b) in body.iter().enumerate() {
        let offset = 0x400 + i;
        out.push(b.wrapping_add(stream[offset % 32]));
    }
    out
}
