//! What a reader passed over or a writer could not keep: said in a warning, never done
//! silently.

use crate::error::Place;
use crate::game::MoveNumber;
use std::fmt;

/// Something left out of a game or a file, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Which game of the file, counted from 1, where the warning concerns one.
    pub game: Option<usize>,
    /// Where in the input, for what a reader skipped.
    pub place: Option<Place>,
    /// What was left out.
    pub kind: WarningKind,
}

/// What was left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WarningKind {
    /// Text outside any game (a site's trailer, a line of `=`, a web address) was skipped.
    SkippedText {
        /// The start of the text (at most 40 characters).
        text: String,
    },
    /// A tag value longer than the format's field: the start that fits was kept.
    TagCut {
        /// The tag.
        tag: String,
        /// How many bytes the field holds.
        limit: usize,
        /// What was kept.
        kept: String,
        /// What was cut off.
        cut: String,
    },
    /// A comment longer than the format allows: the start that fits was kept.
    CommentCut {
        /// The move the comment follows; `None` for the comment on the game.
        number: Option<MoveNumber>,
        /// How many bytes the format holds.
        limit: usize,
        /// How many characters were cut off.
        cut_chars: usize,
    },
    /// A tag the format has no place for was left out.
    TagDropped {
        /// The tag.
        tag: String,
    },
    /// Annotation glyphs (NAGs such as `!` or `$14`), which the format cannot hold, were left
    /// out.
    NagsDropped {
        /// How many.
        count: usize,
    },
}

impl Warning {
    /// A warning about game `game` (from 1) of what is written, with no place.
    pub fn in_game(game: usize, kind: WarningKind) -> Warning {
        Warning {
            game: Some(game),
            place: None,
            kind,
        }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::SkippedText { text } => {
                write!(f, "text outside any game was skipped: {text:?}")
            }
            WarningKind::TagCut {
                tag,
                limit,
                kept,
                cut,
            } => write!(
                f,
                "tag {tag} is longer than its {limit}-byte field: kept {kept:?}, cut {cut:?}"
            ),
            WarningKind::CommentCut {
                number,
                limit,
                cut_chars,
            } => {
                match number {
                    Some(n) => write!(f, "the comment on move {n}")?,
                    None => write!(f, "the comment on the game")?,
                }
                write!(
                    f,
                    " is longer than the {limit} bytes the format holds: its last \
                     {cut_chars} characters were cut"
                )
            }
            WarningKind::TagDropped { tag } => {
                write!(f, "tag {tag} has no place in the format and was left out")
            }
            WarningKind::NagsDropped { count } => {
                let s = if *count == 1 { "" } else { "s" };
                write!(
                    f,
                    "{count} annotation glyph{s} (NAG{s}) left out: the format has no place for them"
                )
            }
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(game) = self.game {
            write!(f, "game {game}, ")?;
        }
        if let Some(place) = self.place {
            write!(f, "{place}, ")?;
        }
        write!(f, "{}", self.kind)
    }
}
