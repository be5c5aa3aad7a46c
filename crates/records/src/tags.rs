//! The named facts about a game (event, players, date …), kept in a fixed order.

use std::collections::HashMap;

/// Tags that come first, in this order, as the xqbase convention writes them.
pub(crate) const ROSTER: [&str; 8] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "RedTeam",
    "Red",
    "BlackTeam",
    "Black",
];

/// Tag names that the game model holds elsewhere (start position, result) or that only
/// describe the file (which game, which notation). Readers take them out of the tags and
/// writers write them from the model; [`Tags::set`] refuses them.
pub(crate) const RESERVED: [&str; 6] = ["Game", "Variant", "FEN", "Format", "Result", "SetUp"];

/// The tags of a game: name and value pairs with unique names, the roster (Event, Site, Date,
/// Round, RedTeam, Red, BlackTeam, Black) first in that order, then the others in the order
/// they were set.
#[derive(Clone, Debug, Default)]
pub struct Tags {
    pairs: Vec<(String, String)>,
    /// Where each name stands in `pairs`, so that a game with many tags reads in linear time.
    index: HashMap<String, usize>,
}

impl PartialEq for Tags {
    fn eq(&self, other: &Tags) -> bool {
        self.pairs == other.pairs
    }
}

impl Eq for Tags {}

impl Tags {
    /// No tags.
    pub fn new() -> Tags {
        Tags::default()
    }

    /// The value of tag `name`, if set.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.index.get(name).map(|&i| self.pairs[i].1.as_str())
    }

    /// Sets tag `name` to `value`, replacing an earlier value. Returns false, and sets
    /// nothing, for a name the model holds elsewhere (Game, Variant, FEN, Format, Result,
    /// SetUp) or a name that is empty or holds anything but ASCII letters, digits and `_`.
    pub fn set(&mut self, name: &str, value: &str) -> bool {
        if !is_valid_name(name) || RESERVED.contains(&name) {
            return false;
        }
        if let Some(&i) = self.index.get(name) {
            self.pairs[i].1 = value.to_string();
            return true;
        }
        match roster_index(name) {
            // At most eight roster tags go in front: the index is made again each time.
            Some(rank) => {
                let at = self
                    .pairs
                    .iter()
                    .position(|(n, _)| roster_index(n).is_none_or(|r| r > rank))
                    .unwrap_or(self.pairs.len());
                self.pairs.insert(at, (name.to_string(), value.to_string()));
                self.reindex();
            }
            None => {
                self.index.insert(name.to_string(), self.pairs.len());
                self.pairs.push((name.to_string(), value.to_string()));
            }
        }
        true
    }

    /// Removes tag `name` and returns its value.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let i = self.index.remove(name)?;
        let (_, value) = self.pairs.remove(i);
        self.reindex();
        Some(value)
    }

    fn reindex(&mut self) {
        self.index = self
            .pairs
            .iter()
            .enumerate()
            .map(|(i, (n, _))| (n.clone(), i))
            .collect();
    }

    /// The tags in order, as (name, value).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// How many tags are set.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether no tag is set.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

/// Whether `name` can be a tag name: ASCII letters, digits and `_`, not empty.
pub(crate) fn is_valid_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn roster_index(name: &str) -> Option<usize> {
    ROSTER.iter().position(|r| *r == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roster_tags_come_first_in_roster_order() {
        let mut tags = Tags::new();
        assert!(tags.set("Opening", "中炮"));
        assert!(tags.set("Black", "B"));
        assert!(tags.set("Event", "E"));
        assert!(tags.set("ECCO", "A00"));
        assert!(tags.set("Red", "R"));
        let names: Vec<&str> = tags.iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["Event", "Red", "Black", "Opening", "ECCO"]);
    }

    #[test]
    fn setting_again_replaces_in_place() {
        let mut tags = Tags::new();
        tags.set("Red", "a");
        tags.set("Site", "s");
        tags.set("Red", "b");
        assert_eq!(tags.get("Red"), Some("b"));
        assert_eq!(tags.len(), 2);
        assert_eq!(tags.remove("Red"), Some("b".to_string()));
        assert_eq!(tags.get("Red"), None);
    }

    #[test]
    fn reserved_and_malformed_names_are_refused() {
        let mut tags = Tags::new();
        assert!(!tags.set("FEN", "x"));
        assert!(!tags.set("Result", "1-0"));
        assert!(!tags.set("", "x"));
        assert!(!tags.set("Bad Name", "x"));
        assert!(tags.is_empty());
    }
}
