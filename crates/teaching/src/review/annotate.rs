//! A reviewed game as an annotated record: each marked main-line move (an only move, an
//! inaccuracy, a mistake or a blunder, [`Class::nag`]) gets its glyph as a NAG, in place of
//! the record's own move-quality glyph, and every move a comment with the evaluation, and for a move that was not the engine's choice the better
//! move and its line (also as a variation); for a mistake or blunder the refutation.

use super::model::{Class, Eval};
use super::{MoveReview, Review};
use xiangqi_records::{Game, Line, Nag};
use xiangqi_rules::notation::{Notation, format_move};
use xiangqi_rules::{Color, Move, Position};

/// How many moves of the engine's line a comment or variation shows.
pub const LINE_MOVES: usize = 8;

/// `game` with the review's annotations on its main line; moves, tags and result unchanged.
/// The review must be of this game's main line (moves past the review's end stay bare).
/// Comments write moves in `notation` and evaluations from Red's side.
pub fn annotate(game: &Game, review: &Review, notation: Notation) -> Game {
    let mut annotated = game.clone();
    let mut pos = review.start.clone();
    for (node, judged) in annotated.moves.moves.iter_mut().zip(&review.moves) {
        if node.mv != judged.played {
            break;
        }
        mark(&mut node.nags, judged.class);
        let comment = comment(&pos, judged, notation);
        node.comment = Some(match node.comment.take() {
            Some(old) => format!("{old}\n{comment}"),
            None => comment,
        });
        if judged.class >= Class::Inaccuracy {
            let line = legal_prefix(&pos, &judged.best_line, LINE_MOVES);
            if !line.is_empty() {
                node.variations.push(Line::from_moves(line));
            }
        }
        pos.make_move(judged.played);
    }
    annotated
}

/// Puts the glyph of `class` ([`Class::nag`]) among a move's `nags`, in place of the
/// move-quality glyphs there (`$1`–`$6`); a class with no glyph leaves them as they are.
pub fn mark(nags: &mut Vec<Nag>, class: Class) {
    if let Some(nag) = class.nag() {
        nags.retain(|n| !(1..=6).contains(&n.0));
        nags.push(Nag(nag));
    }
}

/// An evaluation from Red's side, for a mover of `side`.
fn for_red(eval: Eval, side: Color) -> Eval {
    match side {
        Color::Red => eval,
        Color::Black => eval.flipped(),
    }
}

/// `blunder; -3.80 (before +0.35); better was 炮二平五 (炮二平五 马8进7 …); if Black answers
/// 车2进6, the horse on c7 falls`: the moves named that were not played read as what would
/// have been.
fn comment(before: &Position, judged: &MoveReview, notation: Notation) -> String {
    let side = judged.mover();
    let mut text = format!(
        "{}; {} (before {})",
        judged.class,
        for_red(judged.after, side),
        for_red(judged.before, side)
    );
    // The engine's own move (best, or the only move) has nothing better to name.
    if !matches!(judged.class, Class::Best | Class::Only)
        && let Some(best) = judged.best
    {
        let line = legal_prefix(before, &judged.best_line, LINE_MOVES);
        text.push_str(&format!(
            "; better was {} ({})",
            format_move(before, best, notation),
            written_line(before, &line, notation)
        ));
    }
    if let Some(exact) = judged.table.and_then(|t| t.english()) {
        text.push_str(&format!("; {exact} (table)"));
    }
    if let Some(refutation) = &judged.refutation {
        let after = before.after(judged.played);
        text.push_str("; ");
        text.push_str(&refutation.english_if(&after, notation));
    }
    text
}

/// The first moves of `line` that are legal one after another from `pos`, at most `limit`.
fn legal_prefix(pos: &Position, line: &[Move], limit: usize) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut legal = Vec::new();
    for &m in line.iter().take(limit) {
        if pos.check_move(m.from(), m.to()).is_err() {
            break;
        }
        pos.make_move(m);
        legal.push(m);
    }
    legal
}

/// Moves of a legal line written in `notation`, separated by spaces.
fn written_line(pos: &Position, line: &[Move], notation: Notation) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::with_capacity(line.len());
    for &m in line {
        words.push(format_move(&pos, m, notation));
        pos.make_move(m);
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::model::Eval;
    use xiangqi_engine::score::Reported;
    use xiangqi_records::MoveNumber;

    fn mv(text: &str) -> Move {
        text.parse().expect("ICCS move")
    }

    fn judged(ply: usize, played: &str, class: Class, best: &[&str]) -> MoveReview {
        MoveReview {
            number: MoveNumber::of_ply(&Position::startpos(), ply),
            played: mv(played),
            before: Eval::Score(Reported::Cp(30)),
            after: Eval::Score(Reported::Cp(-420)),
            best: best.first().map(|m| mv(m)),
            best_line: best.iter().map(|m| mv(m)).collect(),
            alternative: None,
            loss: 0.4,
            class,
            refutation: None,
            table: None,
        }
    }

    #[test]
    fn each_move_gets_its_glyph_comment_and_the_better_line() {
        let mut game = Game::new(Position::startpos());
        game.moves = Line::from_moves([mv("h2e2"), mv("h9g7")]);
        game.moves.moves[0].nags = vec![Nag(1), Nag(13)];
        game.moves.moves[0].comment = Some("from the file".to_string());
        game.moves.moves[1].nags = vec![Nag(3)];
        let review = Review {
            start: Position::startpos(),
            moves: vec![
                judged(0, "h2e2", Class::Blunder, &["h0g2", "h9g7", "a0a9"]),
                judged(1, "h9g7", Class::Best, &["h9g7"]),
            ],
        };
        let annotated = annotate(&game, &review, Notation::Iccs);
        let first = &annotated.moves.moves[0];
        // The old move-quality glyph gives way; others stay.
        assert_eq!(first.nags, [Nag(13), Nag(4)]);
        assert_eq!(
            first.comment.as_deref(),
            Some("from the file\nblunder; -4.20 (before +0.30); better was h0g2 (h0g2 h9g7)")
        );
        // The better line as a variation, cut where it stops being legal.
        assert_eq!(
            first.variations,
            [Line::from_moves([mv("h0g2"), mv("h9g7")])]
        );
        let second = &annotated.moves.moves[1];
        // The review gives a best move no glyph, so the record's own stays.
        assert_eq!(second.nags, [Nag(3)]);
        // Black's evaluations are written from Red's side.
        assert_eq!(
            second.comment.as_deref(),
            Some("best; +4.20 (before -0.30)")
        );
        assert!(second.variations.is_empty());
        assert_eq!(annotated.mainline().count(), 2);
    }
}
