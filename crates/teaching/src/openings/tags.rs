//! ECCO tags for game records: `[ECCO]`, `[Opening]` and `[Variation]` as xqbase writes them.

use super::{Opening, OpeningError, classify_from};
use xiangqi_records::Game;

fn blank(game: &Game, tag: &str) -> bool {
    game.tags.get(tag).is_none_or(|v| v.trim().is_empty())
}

/// Writes the ECCO code, opening and variation of `game`'s main line into its tags when the
/// record has no ECCO code (a blank value counts as none), keeping an `[Opening]` or
/// `[Variation]` it already has. Returns the opening written; `Ok(None)` when the record
/// already has a code, does not start from the initial position or has no move.
pub fn fill_tags(game: &mut Game) -> Result<Option<Opening>, OpeningError> {
    if !blank(game, "ECCO") || !super::is_initial(&game.start) {
        return Ok(None);
    }
    let moves: Vec<_> = game.mainline().collect();
    let Some(opening) = classify_from(&game.start, &moves)? else {
        return Ok(None);
    };
    for (tag, value) in [
        ("ECCO", opening.code),
        ("Opening", opening.name),
        ("Variation", opening.variation),
    ] {
        if blank(game, tag) && !value.is_empty() {
            game.tags.set(tag, value);
        }
    }
    Ok(Some(opening))
}
