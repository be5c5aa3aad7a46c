//! The accounts of a server hosted for many people (`xiangqi serve`): what a name may be
//! ([`AccountName`]), passwords hashed with Argon2id ([`hash_password`], [`verify_password`]),
//! the random secrets of sessions and invitations, kept only as their hash ([`Secret`],
//! [`secret_hash`]), an account's [`Role`], the host's [`SignUp`] policy and the number a guest
//! is shown by ([`guest_number`]), and the players' Glicko-2 ratings by [`Speed`] ([`rate`]). The store keeps
//! what these make; the web asks them.

mod name;
mod password;
mod policy;
mod ratings;
mod secret;

pub use name::{AccountName, MAX_NAME, MIN_NAME, NameError, key_of};
pub use password::{MAX_PASSWORD, MIN_PASSWORD, PasswordError, hash_password, verify_password};
pub use policy::{Role, SignUp};
pub use ratings::{PROVISIONAL_DEVIATION, Rating, START_RATING, Score, Speed, rate};
pub use secret::{Secret, guest_number, secret_hash};
