//! Which DhtmlXQ elements hold which tags, and which hold the record itself.

/// DhtmlXQ element names (after `DhtmlXQ_`) and the tags they hold.
const TAGS: [(&str, &str); 17] = [
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("red", "Red"),
    ("redteam", "RedTeam"),
    ("redtime", "RedTime"),
    ("redrating", "RedElo"),
    ("black", "Black"),
    ("blackteam", "BlackTeam"),
    ("blacktime", "BlackTime"),
    ("blackrating", "BlackElo"),
    ("open", "Opening"),
    ("remark", "Annotator"),
    ("author", "Author"),
    ("timerule", "TimeControl"),
];

/// Elements that describe the viewer or the moves rather than the game, and are not tags.
const STRUCTURE: [&str; 8] = [
    "ver", "init", "binit", "fen", "movelist", "result", "firstnum", "length",
];

/// The tag an element holds: a known element's tag name, any other element's own name, or
/// `None` for elements that are not tags (`movelist`, `binit`, `move_…`, `comment…` …).
pub(crate) fn tag_of(element: &str) -> Option<&str> {
    if STRUCTURE.contains(&element)
        || element.starts_with("move_")
        || element.starts_with("comment")
    {
        return None;
    }
    Some(
        TAGS.iter()
            .find(|(e, _)| *e == element)
            .map_or(element, |&(_, t)| t),
    )
}

/// The element that holds tag `tag`, or `None` for a tag that would read back as another
/// (its name is one of the element names above, or begins like `move_` or `comment`).
pub(crate) fn element_of(tag: &str) -> Option<&str> {
    if let Some(&(e, _)) = TAGS.iter().find(|(_, t)| *t == tag) {
        return Some(e);
    }
    (tag_of(tag) == Some(tag)).then_some(tag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_and_tags_map_both_ways() {
        assert_eq!(tag_of("place"), Some("Site"));
        assert_eq!(tag_of("gametype"), Some("gametype"));
        assert_eq!(tag_of("movelist"), None);
        assert_eq!(tag_of("move_0_1_1"), None);
        assert_eq!(tag_of("comment3"), None);
        assert_eq!(element_of("Site"), Some("place"));
        assert_eq!(element_of("ECCO"), Some("ECCO"));
        assert_eq!(element_of("place"), None);
        assert_eq!(element_of("binit"), None);
        for (e, t) in TAGS {
            assert_eq!(tag_of(element_of(t).unwrap()), Some(t), "{e}");
        }
    }
}
