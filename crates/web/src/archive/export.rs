//! The archive's PGN export with the review's marks: each game as it was stored (tags,
//! comments, variations, result), and where a review is kept with it, the review's glyph on
//! each move it marked — `$1` (!) an only move, `$6` (?!) an inaccuracy, `$2` (?) a mistake,
//! `$4` (??) a blunder ([`Class::nag`]) — in place of the record's own move-quality glyph.
//! A move the review leaves unmarked keeps the record's glyphs.

use serde_json::Value;
use xiangqi_records::{Game, OutputFormat, pgn};
use xiangqi_rules::notation::Notation;
use xiangqi_store::{Filter, Store, StoreError};
use xiangqi_teaching::review::{Class, annotate};

/// Every game of `owner` in `archive` as one PGN file, as [`Store::export_pgn`] writes it (oldest
/// first, moves in `notation`), with the marks of the reviews kept ([`with_review_marks`]).
/// The file is written again only when a game has a review.
pub fn export_with_marks(
    archive: &dyn Store,
    owner: &str,
    notation: Notation,
) -> Result<String, StoreError> {
    let text = archive.export_pgn(owner, notation)?;
    // The list is newest first, the export oldest first: by date, creation, row.
    let mut reviews = Vec::new();
    let mine = Filter {
        owner: owner.to_string(),
        ..Filter::default()
    };
    for summary in archive.list(&mine)?.into_iter().rev() {
        let review = if summary.reviewed {
            archive.get(owner, summary.id)?.and_then(|g| g.review)
        } else {
            None
        };
        reviews.push(review.and_then(|r| serde_json::from_str::<Value>(&r).ok()));
    }
    if reviews.iter().all(Option::is_none) {
        return Ok(text);
    }
    let record = |e: String| StoreError::Record(e);
    let mut games = pgn::read_str(&text).map_err(|e| record(e.to_string()))?;
    if games.len() != reviews.len() {
        return Err(record(format!(
            "the export holds {} games, the archive {}",
            games.len(),
            reviews.len()
        )));
    }
    for (game, review) in games.iter_mut().zip(&reviews) {
        if let Some(review) = review {
            with_review_marks(game, review);
        }
    }
    let written = OutputFormat::Pgn(notation)
        .write(&games)
        .map_err(|e| record(e.to_string()))?;
    String::from_utf8(written.bytes).map_err(|e| record(e.to_string()))
}

/// Puts on `game`'s main line the glyphs of `review`, a review as the review stream gave it
/// (`moves[i].class`, and `moves[i].played` in ICCS): each move from the first on, while the
/// review's move is the record's. A review kept before it named its moves is applied only when
/// it covers the whole main line.
pub fn with_review_marks(game: &mut Game, review: &Value) {
    let Some(judged) = review["moves"].as_array() else {
        return;
    };
    let named = judged.iter().all(|m| m["played"].is_string());
    if !named && judged.len() != game.moves.moves.len() {
        return;
    }
    for (node, m) in game.moves.moves.iter_mut().zip(judged) {
        if let Some(played) = m["played"].as_str()
            && played != node.mv.to_string()
        {
            break;
        }
        if let Some(class) = m["class"].as_str().and_then(Class::from_code) {
            annotate::mark(&mut node.nags, class);
        }
    }
}
