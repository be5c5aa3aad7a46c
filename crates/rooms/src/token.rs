//! Secrets and names made from the system's random source: room ids and seat tokens that
//! cannot be guessed, and short codes that can be typed.

/// `n` random bytes from the system's source.
fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    if getrandom::fill(&mut bytes).is_err() {
        // The system source failed: fall back to the process's hasher keys and the time, so
        // that ids stay distinct (this never happens on the platforms the server runs on).
        use std::hash::{BuildHasher, Hasher};
        for chunk in bytes.chunks_mut(8) {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos()),
            );
            let v = h.finish().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
    bytes
}

/// A random number.
pub fn random_u64() -> u64 {
    u64::from_le_bytes(random_bytes::<8>())
}

const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for &b in bytes {
        acc = (acc << 8) | u32::from(b);
        bits += 8;
        while bits >= 6 {
            bits -= 6;
            out.push(URL_SAFE[((acc >> bits) & 63) as usize] as char);
        }
    }
    if bits > 0 {
        out.push(URL_SAFE[((acc << (6 - bits)) & 63) as usize] as char);
    }
    out
}

/// A room id: 128 random bits, 22 URL-safe characters.
pub fn room_id() -> String {
    encode(&random_bytes::<16>())
}

/// A seat token: 192 random bits, 32 URL-safe characters.
pub fn seat_token() -> String {
    encode(&random_bytes::<24>())
}

/// Letters of a short code: no 0/O or 1/I/L to mix up.
const CODE_LETTERS: &[u8; 31] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// Length of a short code.
pub const CODE_LEN: usize = 8;

/// A short code to type: 8 letters and digits (40 bits), e.g. `K7QXM2PA`.
pub fn short_code() -> String {
    random_bytes::<CODE_LEN>()
        .iter()
        .map(|b| CODE_LETTERS[usize::from(b % 31)] as char)
        .collect()
}

/// Whether `text` could be a room id (22 URL-safe characters).
pub fn is_room_id(text: &str) -> bool {
    text.len() == 22 && text.bytes().all(|b| URL_SAFE.contains(&b))
}

/// `code` as typed, made canonical: upper case, spaces and dashes dropped; `None` when it
/// cannot be a code.
pub fn normal_code(code: &str) -> Option<String> {
    let code: String = code
        .chars()
        .filter(|c| !matches!(c, ' ' | '-'))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    (code.len() == CODE_LEN && code.bytes().all(|b| CODE_LETTERS.contains(&b))).then_some(code)
}

/// Whether two tokens are the same, compared in time that does not depend on where they
/// differ.
pub fn same(a: &str, b: &str) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.bytes()
        .zip(b.bytes())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_tokens_and_codes_have_their_shapes_and_differ() {
        let (a, b) = (room_id(), room_id());
        assert!(is_room_id(&a) && is_room_id(&b) && a != b);
        assert_eq!(seat_token().len(), 32);
        let code = short_code();
        assert_eq!(normal_code(&code.to_lowercase()), Some(code.clone()));
        assert_eq!(normal_code("ab"), None);
        assert!(same("abc", "abc") && !same("abc", "abd") && !same("abc", "ab"));
    }
}
