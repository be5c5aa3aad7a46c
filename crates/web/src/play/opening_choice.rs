//! The learner levels' opening moves: in the first eight moves of each side of a game from
//! the initial position, a level below full strength plays a move of the ECCO opening book
//! (`xiangqi_teaching::openings::book`), drawn by the book's weights with the game's own
//! seed, so that games against the program do not all start the same way. A book move is
//! played only when a short full-strength search finds it within [`SOUND_MARGIN`] of the
//! engine's best move there; otherwise the next drawn move is tried, and after [`DRAWS`]
//! refusals the level plays its own move. Full strength never uses the book.

use xiangqi_engine::levels::{Level, MAX_LEVEL};
use xiangqi_engine::score::Reported;
use xiangqi_engine::{Engine, EngineOptions, SearchLimits, SearchRequest};
use xiangqi_rules::random::mix;
use xiangqi_rules::{Move, Position};
use xiangqi_teaching::openings::{book, is_initial};

/// Depth of the search that checks a book move (and finds the best move to compare with).
pub(crate) const CHECK_DEPTH: i32 = 5;
/// How far below the engine's best a book move may score and still be played, centipawns.
pub(crate) const SOUND_MARGIN: i32 = 60;

/// A seed for the game with id `game_id`: ids carry the time they were made, so every game
/// gets its own, and the same id always gives the same openings.
pub(crate) fn seed_of(game_id: &str) -> u64 {
    // FNV-1a.
    game_id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A number in 0..1 for ply `ply` of the game seeded `seed`.
fn random_at(seed: u64, ply: usize) -> f64 {
    let z = mix(seed ^ (ply as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// How many book moves are drawn for one reply: when the first is refused by the check, the
/// next is tried, and when all are, the level plays its own move.
pub(crate) const DRAWS: usize = 3;

/// The book moves `level` considers, in the order tried, in a game that started at `start`
/// and went `moves`: up to [`DRAWS`] drawn by the book's weights with `seed`, none alike.
/// Empty at full strength, from another start, past the book or when no move of the
/// position continues a named line.
pub(crate) fn proposals(level: Level, start: &Position, moves: &[Move], seed: u64) -> Vec<Move> {
    if level.is_full_strength() || !is_initial(start) {
        return Vec::new();
    }
    let mut left = book::book_moves(moves).unwrap_or_default();
    let mut drawn = Vec::new();
    for draw in 0..DRAWS {
        let random = random_at(seed ^ draw as u64, moves.len());
        let Some(b) = book::pick(&left, random).copied() else {
            break;
        };
        drawn.push(b.mv);
        left.retain(|o| o.mv != b.mv);
    }
    drawn
}

/// A score as centipawns, mates beyond every evaluation.
fn centipawns(score: Reported) -> i32 {
    match score {
        Reported::Cp(cp) => cp,
        Reported::Mate(n) if n > 0 => 100_000 - n,
        Reported::Mate(n) => -100_000 - n,
    }
}

/// Whether `mv` scores within [`SOUND_MARGIN`] of the best move of `request`'s position by a
/// full-strength search to [`CHECK_DEPTH`]. The engine's options are kept.
pub(crate) fn is_sound(engine: &mut Engine, request: &SearchRequest, mv: Move) -> bool {
    if !request.position.is_legal(mv) {
        return false;
    }
    let kept = engine.options().clone();
    engine.set_options(EngineOptions {
        level: Level::new(MAX_LEVEL),
        multipv: 1,
        ..kept.clone()
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
    let best = engine.think(&check(Vec::new()), &mut |_| {});
    let book = engine.think(&check(vec![mv]), &mut |_| {});
    engine.set_options(kept);
    book.best_move == Some(mv)
        && centipawns(book.score) >= centipawns(best.score).saturating_sub(SOUND_MARGIN)
}

/// The move a learner level plays from the book: the first of `proposals` that is sound.
pub(crate) fn book_reply(
    engine: &mut Engine,
    request: &SearchRequest,
    proposals: &[Move],
) -> Option<Move> {
    proposals
        .iter()
        .copied()
        .find(|&mv| is_sound(engine, request, mv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use xiangqi_teaching::openings::classify;

    fn engine() -> Engine {
        Engine::new(EngineOptions::default())
    }

    fn request_at(moves: &[Move]) -> SearchRequest {
        let mut pos = Position::startpos();
        for &m in moves {
            pos.make_move(m);
        }
        SearchRequest::new(pos, SearchLimits::default())
    }

    /// The first move the level plays from the start with `seed`: the book's, or the
    /// level's own search's.
    fn first_move(engine: &mut Engine, level: Level, seed: u64) -> Move {
        let start = Position::startpos();
        let request = request_at(&[]);
        let proposals = proposals(level, &start, &[], seed);
        book_reply(engine, &request, &proposals).unwrap_or_else(|| {
            engine.set_options(EngineOptions {
                level,
                ..EngineOptions::default()
            });
            engine.think(&request, &mut |_| {}).best_move.unwrap()
        })
    }

    #[test]
    fn a_beginner_opens_in_several_named_ways() {
        let mut engine = engine();
        let mut firsts: BTreeMap<String, usize> = BTreeMap::new();
        for seed in 0..20 {
            let mv = first_move(&mut engine, Level::new(0), seed);
            let opening = classify(&[mv]).unwrap().unwrap();
            assert!(opening.named && opening.code != "A00", "{mv}: {opening}");
            *firsts.entry(mv.to_string()).or_default() += 1;
        }
        assert!(firsts.len() >= 3, "first moves over 20 games: {firsts:?}");
    }

    #[test]
    fn the_same_seed_gives_the_same_opening_and_seeds_differ() {
        let start = Position::startpos();
        let level = Level::new(4);
        let a = proposals(level, &start, &[], 7);
        assert_eq!(a.len(), DRAWS);
        assert!(a.iter().all(|m| a.iter().filter(|o| *o == m).count() == 1));
        assert_eq!(a, proposals(level, &start, &[], 7));
        let all: Vec<_> = (0..20).map(|s| proposals(level, &start, &[], s)).collect();
        assert!(all.iter().any(|p| p[0] != a[0]));
        assert_ne!(seed_of("g1-ab12"), seed_of("g2-ab12"));
    }

    #[test]
    fn full_strength_and_other_starts_keep_the_engine_s_own_choice() {
        let start = Position::startpos();
        for seed in 0..20 {
            assert!(proposals(Level::new(MAX_LEVEL), &start, &[], seed).is_empty());
        }
        let other: Position = "3k5/9/9/9/9/9/9/9/9/4K4 w".parse().unwrap();
        assert!(proposals(Level::new(0), &other, &[], 1).is_empty());
        // The check leaves the engine's options as they were: the full-strength move after
        // it is the move before it.
        let mut engine = engine();
        let own = |engine: &mut Engine| {
            let mut request = request_at(&[]);
            request.limits.depth = Some(4);
            (
                engine.options().level,
                engine.think(&request, &mut |_| {}).best_move,
            )
        };
        let before = own(&mut engine);
        assert!(!is_sound(
            &mut engine,
            &request_at(&[]),
            "h2h9".parse().unwrap()
        ));
        assert_eq!(own(&mut engine), before);
    }

    #[test]
    fn the_check_passes_the_sound_book_moves_and_filters_the_rest() {
        let mut engine = engine();
        let request = request_at(&[]);
        let book = book::book_moves(&[]).unwrap();
        let (passed, refused): (Vec<Move>, Vec<Move>) = book
            .iter()
            .map(|b| b.mv)
            .partition(|&mv| is_sound(&mut engine, &request, mv));
        // 炮二平五, 兵七进一, 相三进五 and 马二进三 are sound first moves.
        for m in ["h2e2", "c3c4", "g0e2", "h0g2"] {
            assert!(passed.contains(&m.parse().unwrap()), "{m} refused");
        }
        // Not every named first move is: some fall short of the best by more than the margin
        // (with the built-in network, 炮二平三).
        assert!(
            !refused.is_empty(),
            "every named first move passed: {passed:?}"
        );
        // A learner level plays only the moves that passed, whatever the seed.
        for seed in 0..40 {
            let proposals = proposals(Level::new(0), &Position::startpos(), &[], seed);
            if let Some(mv) = book_reply(&mut engine, &request, &proposals) {
                assert!(passed.contains(&mv), "seed {seed}: {mv}");
            }
        }
        // Black's answers to the central cannon pass or are filtered the same way.
        let moves = ["h2e2".parse().unwrap()];
        let request = request_at(&moves);
        let answers: Vec<Move> = book::book_moves(&moves)
            .unwrap()
            .iter()
            .map(|b| b.mv)
            .filter(|&mv| is_sound(&mut engine, &request, mv))
            .collect();
        // 马８进７ (toward 屏风马 or 反宫马) passes.
        assert!(answers.contains(&"h9g7".parse().unwrap()), "{answers:?}");
    }
}
