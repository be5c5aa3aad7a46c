//! Passwords, kept only as their Argon2id hash (in the PHC string format, which names the
//! algorithm, its costs and the salt, so that a hash made with other costs still verifies).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::fmt;

/// Fewest characters in a password.
pub const MIN_PASSWORD: usize = 8;
/// Most characters in a password (a longer one would only cost the server time).
pub const MAX_PASSWORD: usize = 128;

/// Why a password cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PasswordError {
    /// Fewer than [`MIN_PASSWORD`] characters.
    TooShort(usize),
    /// More than [`MAX_PASSWORD`] characters.
    TooLong(usize),
    /// The hash could not be made (the system's random source failed).
    Hashing(String),
}

impl fmt::Display for PasswordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PasswordError::TooShort(n) => write!(
                f,
                "a password has at least {MIN_PASSWORD} characters, this one has {n}"
            ),
            PasswordError::TooLong(n) => write!(
                f,
                "a password has at most {MAX_PASSWORD} characters, this one has {n}"
            ),
            PasswordError::Hashing(why) => write!(f, "the password could not be hashed: {why}"),
        }
    }
}

impl std::error::Error for PasswordError {}

/// Argon2id with the costs OWASP recommends (19 MiB of memory, 2 passes, 1 lane).
fn argon2() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// `password`'s Argon2id hash with a new random salt, or why the password cannot be used.
/// Slow on purpose (tens of milliseconds): run it off the threads that serve requests.
pub fn hash_password(password: &str) -> Result<String, PasswordError> {
    let count = password.chars().count();
    if count < MIN_PASSWORD {
        return Err(PasswordError::TooShort(count));
    }
    if count > MAX_PASSWORD {
        return Err(PasswordError::TooLong(count));
    }
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| PasswordError::Hashing(e.to_string()))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| PasswordError::Hashing(e.to_string()))?;
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| PasswordError::Hashing(e.to_string()))
}

/// Whether `password` is the one `hash` was made from; false for a hash that does not parse
/// and for a password too long to have been set. As slow as [`hash_password`].
pub fn verify_password(password: &str, hash: &str) -> bool {
    if password.chars().count() > MAX_PASSWORD {
        return false;
    }
    let Ok(parsed) = PasswordHash::new(hash) else {
        return false;
    };
    argon2()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let hash = hash_password("correct horse").unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(!hash.contains("correct horse"));
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("correct horsE", &hash));
        assert!(!verify_password("", &hash));
        // The same password hashes differently each time (a new salt).
        let again = hash_password("correct horse").unwrap();
        assert_ne!(hash, again);
        assert!(verify_password("correct horse", &again));
    }

    #[test]
    fn bad_passwords_and_bad_hashes_are_refused() {
        assert_eq!(hash_password("short"), Err(PasswordError::TooShort(5)));
        assert_eq!(
            hash_password("密码密码密码密"),
            Err(PasswordError::TooShort(7))
        );
        assert_eq!(
            hash_password(&"x".repeat(129)),
            Err(PasswordError::TooLong(129))
        );
        assert!(!verify_password("anything", "not a hash"));
        assert!(!verify_password(
            &"x".repeat(129),
            "$argon2id$v=19$m=19456,t=2,p=1$x$y"
        ));
    }
}
