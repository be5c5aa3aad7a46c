//! Opening books for the learner levels: in the first moves of a game from the initial
//! position, a level below full strength plays a move of a book, drawn by the book's weights
//! with the game's own seed, so that games against the program do not all start the same
//! way. A book move is played only when a short full-strength search finds it within
//! [`SOUND_MARGIN`] of the engine's best move there; otherwise the next drawn move is tried,
//! and after [`DRAWS`] refusals the level plays its own move. Full strength never uses the
//! book.
//!
//! The engine knows no book of its own: the ECCO book is `xiangqi_teaching`'s, given to the
//! protocol session and the app through [`OpeningBook`].

use crate::levels::{Level, MAX_LEVEL};
use crate::{Engine, EngineOptions, SearchLimits, SearchRequest};
use xiangqi_rules::random::mix;
use xiangqi_rules::{Move, Position};

/// A move of a book with its share among the book's moves of the position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookEntry {
    /// The move.
    pub mv: Move,
    /// Its share (any positive scale).
    pub weight: f64,
}

/// A book of opening moves.
pub trait OpeningBook: Send + Sync {
    /// The book's moves after `moves`, played from the initial position (Red first); empty
    /// when the game is out of the book.
    fn moves(&self, moves: &[Move]) -> Vec<BookEntry>;
}

/// Depth of the search that checks a book move (and finds the best move to compare with).
pub const CHECK_DEPTH: i32 = 5;
/// How far below the engine's best a book move may score and still be played, centipawns.
pub const SOUND_MARGIN: i32 = 60;
/// How many book moves are drawn for one reply: when the first is refused by the check, the
/// next is tried, and when all are, the level plays its own move.
pub const DRAWS: usize = 3;

/// A seed for a game named `name` (the app's game id): the same name always gives the same
/// openings.
pub fn seed_of(name: &str) -> u64 {
    // FNV-1a.
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A number in 0..1 for ply `ply` of the game seeded `seed`.
fn random_at(seed: u64, ply: usize) -> f64 {
    let z = mix(seed ^ (ply as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Whether `position` is the initial position with Red to move (move counters aside).
pub fn is_initial(position: &Position) -> bool {
    let fields = |fen: &str| fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
    fields(&position.to_fen()) == fields(&Position::startpos().to_fen())
}

/// The entry of `entries` that `random` (0..1) falls on, each taking its weight's share.
fn pick(entries: &[BookEntry], random: f64) -> Option<&BookEntry> {
    let total: f64 = entries.iter().map(|b| b.weight).sum();
    let mut at = random.clamp(0.0, 0.999_999) * total;
    for b in entries {
        if at < b.weight {
            return Some(b);
        }
        at -= b.weight;
    }
    entries.last()
}

/// The book moves `level` considers, in the order tried, in a game that started at `start`
/// and went `moves`: up to [`DRAWS`] drawn from `book` by its weights with `seed`, none
/// alike. Empty at full strength, from another start, and out of the book.
pub fn proposals(
    book: &dyn OpeningBook,
    level: Level,
    start: &Position,
    moves: &[Move],
    seed: u64,
) -> Vec<Move> {
    if level.is_full_strength() || !is_initial(start) {
        return Vec::new();
    }
    let mut left = book.moves(moves);
    let mut drawn = Vec::new();
    for draw in 0..DRAWS {
        let random = random_at(seed ^ draw as u64, moves.len());
        let Some(b) = pick(&left, random).copied() else {
            break;
        };
        drawn.push(b.mv);
        left.retain(|o| o.mv != b.mv);
    }
    drawn
}

/// Whether `mv` scores within [`SOUND_MARGIN`] of the best move of `request`'s position by a
/// full-strength, one-line search to [`CHECK_DEPTH`] on `judge` (its table and network; its
/// own options are left as they are).
pub fn is_sound(judge: &Engine, request: &SearchRequest, mv: Move) -> bool {
    if !request.position.is_legal(mv) {
        return false;
    }
    let mut judge = judge.clone();
    judge.set_options(EngineOptions {
        level: Level::new(MAX_LEVEL),
        multipv: 1,
        ..judge.options().clone()
    });
    let check = |search_moves: Vec<Move>| SearchRequest {
        limits: SearchLimits {
            depth: Some(CHECK_DEPTH),
            ..SearchLimits::default()
        },
        search_moves,
        excluded: Vec::new(),
        ..request.clone()
    };
    let best = judge.think(&check(Vec::new()), &mut |_| {});
    let book = judge.think(&check(vec![mv]), &mut |_| {});
    book.best_move == Some(mv) && book.score.centipawns() >= best.score.centipawns() - SOUND_MARGIN
}

/// The move a learner level plays from the book: the first of `proposals` that `judge`
/// finds sound.
pub fn book_reply(judge: &Engine, request: &SearchRequest, proposals: &[Move]) -> Option<Move> {
    proposals
        .iter()
        .copied()
        .find(|&mv| is_sound(judge, request, mv))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A book of two first moves, the second twice as often.
    struct TwoMoves;

    impl OpeningBook for TwoMoves {
        fn moves(&self, moves: &[Move]) -> Vec<BookEntry> {
            if !moves.is_empty() {
                return Vec::new();
            }
            vec![
                BookEntry {
                    mv: "h2e2".parse().unwrap(),
                    weight: 1.0,
                },
                BookEntry {
                    mv: "c3c4".parse().unwrap(),
                    weight: 2.0,
                },
            ]
        }
    }

    #[test]
    fn pick_follows_the_weights() {
        let entries = TwoMoves.moves(&[]);
        let firsts = (0..1000)
            .filter(|i| pick(&entries, *i as f64 / 1000.0).unwrap().mv == entries[0].mv)
            .count();
        assert!((320..=347).contains(&firsts), "{firsts}");
        assert_eq!(pick(&[], 0.5), None);
    }

    #[test]
    fn draws_follow_the_weights_and_never_repeat_a_move() {
        let start = Position::startpos();
        let mut first_c3c4 = 0;
        for seed in 0..300 {
            let drawn = proposals(&TwoMoves, Level::new(0), &start, &[], seed);
            assert_eq!(drawn.len(), 2, "{drawn:?}");
            assert_ne!(drawn[0], drawn[1]);
            first_c3c4 += usize::from(drawn[0] == "c3c4".parse().unwrap());
        }
        assert!((170..=230).contains(&first_c3c4), "{first_c3c4} of 300");
        let out: Vec<Move> = vec!["h2e2".parse().unwrap()];
        assert!(proposals(&TwoMoves, Level::new(0), &start.after(out[0]), &out, 1).is_empty());
    }

    #[test]
    fn full_strength_and_other_starts_have_no_proposals() {
        let start = Position::startpos();
        assert!(proposals(&TwoMoves, Level::new(MAX_LEVEL), &start, &[], 3).is_empty());
        let other: Position = "3k5/9/9/9/9/9/9/9/9/4K4 w".parse().unwrap();
        assert!(!is_initial(&other));
        assert!(proposals(&TwoMoves, Level::new(0), &other, &[], 3).is_empty());
        assert_ne!(seed_of("g1-ab12"), seed_of("g2-ab12"));
    }

    #[test]
    fn the_check_refuses_a_move_that_gives_a_piece_and_keeps_the_judge_s_options() {
        let judge = Engine::new(EngineOptions {
            level: Level::new(3),
            ..EngineOptions::default()
        });
        let request = SearchRequest::new(Position::startpos(), SearchLimits::default());
        // 炮二进七 gives the cannon for a horse; 炮二平五 is the central cannon.
        assert!(!is_sound(&judge, &request, "h2h9".parse().unwrap()));
        assert!(is_sound(&judge, &request, "h2e2".parse().unwrap()));
        assert_eq!(judge.options().level, Level::new(3));
        let proposals: Vec<Move> = vec!["h2h9".parse().unwrap(), "h2e2".parse().unwrap()];
        assert_eq!(
            book_reply(&judge, &request, &proposals),
            Some("h2e2".parse().unwrap())
        );
    }
}
