//! Random secrets (session tokens, guests' tokens, invitation codes), kept by the server only
//! as their hash, so that a copy of the store opens no session.

use blake2::{Blake2s256, Digest};

/// A random secret of 256 bits, written as 64 hexadecimal digits.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// A new secret from the system's random source; `None` if the source failed.
    pub fn new() -> Option<Secret> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).ok()?;
        Some(Secret(hex(&bytes)))
    }

    /// The secret, to hand to its holder once.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Its hash, as kept.
    pub fn hash(&self) -> String {
        secret_hash(&self.0)
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The hash a secret is kept as (BLAKE2s-256, in hexadecimal): a secret has 256 random bits,
/// so a fast hash is enough.
pub fn secret_hash(secret: &str) -> String {
    hex(&Blake2s256::digest(secret.as_bytes()))
}

/// The number a guest is shown by ("Guest 4821"), from the hash of the guest's token: four
/// digits, 1000 to 9999.
pub fn guest_number(token_hash: &str) -> u32 {
    let n = token_hash
        .bytes()
        .take(8)
        .fold(0u32, |n, b| n.wrapping_mul(31).wrapping_add(u32::from(b)));
    1000 + n % 9000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_new_each_time_and_kept_only_as_their_hash() {
        let a = Secret::new().unwrap();
        let b = Secret::new().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), 64);
        assert!(a.as_str().bytes().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(a.hash(), secret_hash(a.as_str()));
        assert_ne!(a.hash(), a.as_str());
        assert_eq!(a.hash().len(), 64);
        assert_eq!(format!("{a:?}"), "Secret(…)");
        // BLAKE2s-256 of the empty string, as its specification gives it.
        assert_eq!(
            secret_hash(""),
            "69217a3079908094e11121d042354a7c1f55b6482ca1a51e1b250dfd1ed0eef9"
        );
    }

    #[test]
    fn a_guest_number_has_four_digits_and_follows_the_token() {
        for _ in 0..100 {
            let n = guest_number(&Secret::new().unwrap().hash());
            assert!((1000..=9999).contains(&n), "{n}");
        }
        assert_eq!(guest_number("abc"), guest_number("abc"));
    }
}
