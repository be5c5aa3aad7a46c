//! The languages the course is written in.

use std::fmt;
use std::str::FromStr;

/// A language every lesson text is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    En,
    /// Russian.
    Ru,
    /// Chinese (simplified characters).
    Zh,
}

impl Lang {
    /// Every language, in the order the lesson files list them.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Ru, Lang::Zh];

    /// The language's code as the API and the lesson files write it: `en`, `ru` or `zh`.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
            Lang::Zh => "zh",
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A language code that is not one of the course's languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLang(pub String);

impl fmt::Display for UnknownLang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown language '{}': use en, ru or zh", self.0)
    }
}

impl std::error::Error for UnknownLang {}

impl FromStr for Lang {
    type Err = UnknownLang;

    /// Reads `en`, `ru` or `zh` (exactly, lower case).
    fn from_str(text: &str) -> Result<Lang, UnknownLang> {
        Lang::ALL
            .into_iter()
            .find(|lang| lang.code() == text)
            .ok_or_else(|| UnknownLang(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_back() {
        for lang in Lang::ALL {
            assert_eq!(lang.code().parse::<Lang>(), Ok(lang));
        }
    }

    #[test]
    fn unknown_code_is_refused_with_the_choices() {
        let err = "de".parse::<Lang>().unwrap_err();
        assert_eq!(err.to_string(), "unknown language 'de': use en, ru or zh");
        assert!("EN".parse::<Lang>().is_err());
    }
}
