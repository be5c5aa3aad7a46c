//! An account's name: what others see on boards, in the lobby and at `#/@/<name>`.

use std::fmt;

/// Fewest characters in a name.
pub const MIN_NAME: usize = 2;
/// Most characters in a name.
pub const MAX_NAME: usize = 20;

/// A valid account name: 2 to 20 letters (of any script) or digits, with `_` or `-` between
/// them; two names that differ only in case are the same account ([`AccountName::key`]).
/// Names that start with "guest" are kept for guests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountName(String);

/// Why a name cannot be an account's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// Fewer than [`MIN_NAME`] or more than [`MAX_NAME`] characters.
    Length(usize),
    /// A character that is not a letter, a digit, `_` or `-`, at this character position
    /// (from 1).
    Character(char, usize),
    /// Begins or ends with `_` or `-`.
    Edge,
    /// Begins with "guest", which guests' names do.
    Reserved,
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Length(n) => write!(
                f,
                "a name has {MIN_NAME} to {MAX_NAME} characters, this one has {n}"
            ),
            NameError::Character(c, at) => write!(
                f,
                "a name has letters, digits, _ and - only; character {at} is {c:?}"
            ),
            NameError::Edge => write!(f, "a name begins and ends with a letter or a digit"),
            NameError::Reserved => write!(f, "names beginning with \"guest\" are kept for guests"),
        }
    }
}

impl std::error::Error for NameError {}

impl AccountName {
    /// `text` as a name (spaces around it dropped), or why it cannot be one.
    pub fn parse(text: &str) -> Result<AccountName, NameError> {
        let name = text.trim();
        let count = name.chars().count();
        if !(MIN_NAME..=MAX_NAME).contains(&count) {
            return Err(NameError::Length(count));
        }
        for (i, c) in name.chars().enumerate() {
            if !(c.is_alphanumeric() || c == '_' || c == '-') {
                return Err(NameError::Character(c, i + 1));
            }
        }
        let edge = |c: Option<char>| matches!(c, Some('_' | '-'));
        if edge(name.chars().next()) || edge(name.chars().last()) {
            return Err(NameError::Edge);
        }
        let name = AccountName(name.to_string());
        if name.key().starts_with("guest") {
            return Err(NameError::Reserved);
        }
        Ok(name)
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name as accounts are told apart: in lower case.
    pub fn key(&self) -> String {
        key_of(&self.0)
    }
}

/// The key two names share when they differ only in case.
pub fn key_of(name: &str) -> String {
    name.trim().to_lowercase()
}

impl fmt::Display for AccountName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_any_script_are_taken_and_told_apart_without_case() {
        for ok in ["Ann", "李明", "Сергей_2", "a-b", "x9"] {
            assert_eq!(AccountName::parse(ok).unwrap().as_str(), ok);
        }
        assert_eq!(AccountName::parse("  Ann ").unwrap().as_str(), "Ann");
        assert_eq!(AccountName::parse("ANN").unwrap().key(), "ann");
        assert_eq!(AccountName::parse("СЕРГЕЙ").unwrap().key(), "сергей");
    }

    #[test]
    fn a_bad_name_says_what_is_wrong() {
        assert_eq!(AccountName::parse("a"), Err(NameError::Length(1)));
        assert_eq!(
            AccountName::parse(&"a".repeat(21)),
            Err(NameError::Length(21))
        );
        assert_eq!(
            AccountName::parse("ann smith"),
            Err(NameError::Character(' ', 4))
        );
        assert_eq!(AccountName::parse("<b>"), Err(NameError::Character('<', 1)));
        assert_eq!(AccountName::parse("_ann"), Err(NameError::Edge));
        assert_eq!(AccountName::parse("ann-"), Err(NameError::Edge));
        assert_eq!(AccountName::parse("Guest1234"), Err(NameError::Reserved));
        assert!(
            NameError::Character(' ', 4)
                .to_string()
                .contains("character 4")
        );
    }
}
