//! Game review: every move of a game's main line judged by the engine — the evaluation before
//! and after it, the engine's best move and line, the class of the move, and for a mistake or
//! a blunder the refutation that shows why.
//!
//! # The model
//!
//! An evaluation becomes an expected score (0 lost, ½ drawn, 1 won) by the logistic Elo curve
//! `W(cp) = 1 / (1 + 10^(-cp/400))` ([`model::win_probability`]); a forced mate is 1 for the
//! mating side and 0 for the mated one. The slope makes a clean extra horse (400 cp) worth 0.91
//! and an extra chariot (900 cp) 0.99 — decisive, as such material is between players who
//! can use it — and it is the scale the evaluation's tuner uses for its targets, so that the
//! same centipawns mean the same odds across the engine and the review. A move loses
//! `W(before) − W(after)`, both from the mover's side, where `before` is the engine's score of
//! best play in the position and `after` the score of the position the move leaves.
//!
//! # Classes and accuracy
//!
//! The rule is [`model::judge`]; the marks are those of PGN, and `!` is kept rare:
//!
//! - `!` **only move** ([`Class::Only`]): the engine's own choice where the best other move
//!   would have lost at least 0.20 of expected score ([`model::ONLY_MOVE_GAP`], a blunder's
//!   worth) — the one good move among bad ones. The best other move is found by a second
//!   search of the position without the move played, made only where the move was the
//!   engine's choice and the mover's expected score was at least 0.20. A recapture, the taking
//!   of a piece worth at least the taker ([`is_plain`]), and a move with no alternative are
//!   never `!`.
//! - **best** (no glyph): any other move that was the engine's choice.
//! - **excellent**, **good** (no glyph): another move losing below 0.02, below 0.05.
//! - `?!` **inaccuracy**: below 0.10; `?` **mistake**: below 0.20; `??` **blunder**: 0.20
//!   or more ([`model::Class::LIMITS`]).
//! - A move that lets in a forced mate which the best move avoided is at least a blunder, or a
//!   mistake where the mover's expected score was already below 0.05
//!   ([`model::LET_IN_MATE`]): a side far behind loses little expected score by any move, and
//!   the mate would otherwise go unmarked.
//! - The review never gives `!!` or `!?`: daring and beauty are not in the engine's score.
//!
//! Measuring loss in expected score rather than centipawns is why a piece thrown away in a
//! level game is a blunder while the same piece given back when a chariot up is not: the
//! second no longer changes the result. A move's accuracy is `103.1668 · e^(−4.354 · loss) −
//! 3.1669` clamped to 0–100 ([`model::move_accuracy`]); a side's is the mean of the
//! arithmetic and the harmonic mean of its moves' ([`summary::accuracy_of`]), so that the move
//! that lost the game is not drowned by the easy ones around it. The figures these rules give
//! on real games are in `docs/results.md` ("Review calibration").

//! # The searches
//!
//! One search per position of the line, with one engine and its table kept across the game:
//! the score after move *k* is the score before move *k + 1*, turned to the mover's side, and
//! the line that search finds is the refutation of move *k* when move *k* was a mistake. A
//! position where the game is over (mate, stalemate, a rules verdict) is not searched.
//!
//! # Endgame tables
//!
//! Given exact tables ([`table::EndgameTables`]), a position they cover is not searched: its
//! score is the table's result (a mate in moves, a draw 0), its best move and line the
//! table's. A move made from such a position is judged by the exact results before and
//! after it ([`table::TableJudgement::judge`]): a win thrown to a draw or a loss, or a draw
//! to a loss, is a blunder; a win kept but slower is at worst an inaccuracy.

pub mod annotate;
pub mod hanging;
pub mod model;
pub mod refutation;
pub mod summary;
pub mod table;
pub mod threat;

pub use annotate::annotate;
pub use hanging::{Hanging, hanging_after};
pub use model::{Class, Eval};
pub use refutation::{Consequence, Refutation};
pub use summary::SideSummary;
pub use table::{EndgameTables, TableChange, TableJudgement};
pub use threat::{MoveEffect, Threat, effect_of, threat_of};

use std::fmt;
use std::time::Duration;
use xiangqi_engine::{Engine, EngineOptions, SEE_VALUE, SearchLimits, SearchRequest, SearchResult};
use xiangqi_records::MoveNumber;
use xiangqi_rules::{Color, Game, Move, Position};

/// Time per position when neither a time nor a depth is given: the 121 searches of a 60-move
/// game then stay under a minute (measured in `docs/results.md`).
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(400);

/// Transposition table size of the review's engine, in MB.
pub const HASH_MB: usize = 64;

/// How long each position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewLimits {
    /// Time per position; [`DEFAULT_MOVETIME`] when neither this nor `depth` is set.
    pub movetime: Option<Duration>,
    /// Depth per position.
    pub depth: Option<i32>,
}

impl Default for ReviewLimits {
    fn default() -> Self {
        ReviewLimits {
            movetime: Some(DEFAULT_MOVETIME),
            depth: None,
        }
    }
}

impl ReviewLimits {
    fn search_limits(self) -> SearchLimits {
        let movetime = match (self.movetime, self.depth) {
            (None, None) => Some(DEFAULT_MOVETIME),
            (t, _) => t,
        };
        SearchLimits {
            movetime,
            depth: self.depth,
            ..Default::default()
        }
    }
}

/// One move judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The move's number as records print it.
    pub number: MoveNumber,
    /// The move played.
    pub played: Move,
    /// The engine's score of best play before the move, from the mover's side.
    pub before: Eval,
    /// The score of the position the move leaves, from the mover's side.
    pub after: Eval,
    /// The engine's best move; `None` when the search found none (it had no time).
    pub best: Option<Move>,
    /// The line the best move starts.
    pub best_line: Vec<Move>,
    /// The score of the best other move, from the mover's side: searched only where the move
    /// played was the engine's choice and could be an only move ([`model::judge`]).
    pub alternative: Option<Eval>,
    /// Expected score lost (0–1).
    pub loss: f64,
    /// The class of the move.
    pub class: Class,
    /// For a mistake or a blunder: the best reply and what it wins.
    pub refutation: Option<Refutation>,
    /// Where a table covered the position before the move: the exact results before and
    /// after it, by which the move was judged.
    pub table: Option<TableJudgement>,
}

impl MoveReview {
    /// The side that made the move.
    pub fn mover(&self) -> Color {
        self.number.side
    }

    /// The move's accuracy in percent ([`model::move_accuracy`]).
    pub fn accuracy(&self) -> f64 {
        model::move_accuracy(self.loss)
    }
}

/// A whole game reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The position before the first move.
    pub start: Position,
    /// Each move of the main line, in order.
    pub moves: Vec<MoveReview>,
}

impl Review {
    /// The summary of `side`'s moves.
    pub fn summary(&self, side: Color) -> SideSummary {
        SideSummary::of(self.moves.iter().filter(|m| m.mover() == side))
    }

    /// The position before move `index` (0 is the start).
    pub fn position_before(&self, index: usize) -> Position {
        let mut pos = self.start.clone();
        for m in self.moves.iter().take(index) {
            pos.make_move(m.played);
        }
        pos
    }
}

/// Why a game cannot be reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMoveInGame {
    /// The number of the move.
    pub number: MoveNumber,
    /// The move.
    pub mv: Move,
    /// The rules' reason, in English.
    pub reason: String,
}

impl fmt::Display for IllegalMoveInGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} {} is illegal: {}",
            self.number, self.mv, self.reason
        )
    }
}

impl std::error::Error for IllegalMoveInGame {}

/// The review's engine: full strength, one thread, its own table.
pub fn review_engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: HASH_MB,
        threads: 1,
        multipv: 1,
        ..EngineOptions::default()
    })
}

/// Reviews the main line `moves` from `start` with `engine`, calling `progress(done, total)`
/// after each move is judged; positions `tables` cover are judged exactly. The engine's table
/// is cleared first and then shared by every position of the game.
pub fn review(
    engine: &Engine,
    start: &Position,
    moves: &[Move],
    limits: ReviewLimits,
    tables: Option<&dyn EndgameTables>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, IllegalMoveInGame> {
    let whole = review_until(engine, start, moves, limits, tables, progress, &|| false)?;
    // Never cancelled, so the review is whole.
    Ok(whole.unwrap_or_else(|| Review {
        start: start.clone(),
        moves: Vec::new(),
    }))
}

/// As [`review`], with the exact `tables` where they cover a position (see "Endgame tables"
/// above), and giving up — `Ok(None)` — when `cancelled()` answers true before one of the
/// searches. A search already running is stopped with [`Engine::stop`], which the caller
/// calls from another thread.
pub fn review_until(
    engine: &Engine,
    start: &Position,
    moves: &[Move],
    limits: ReviewLimits,
    tables: Option<&dyn EndgameTables>,
    progress: &mut dyn FnMut(usize, usize),
    cancelled: &dyn Fn() -> bool,
) -> Result<Option<Review>, IllegalMoveInGame> {
    // Replay first, so that an illegal move is reported before any search.
    let mut game = Game::new(start.clone());
    for (ply, &mv) in moves.iter().enumerate() {
        game.play(mv).map_err(|e| IllegalMoveInGame {
            number: MoveNumber::of_ply(start, ply),
            mv,
            reason: e.to_string(),
        })?;
    }
    engine.new_game();
    let limits = limits.search_limits();
    let total = moves.len();
    let mut searched: Vec<Option<SearchResult>> = Vec::with_capacity(total + 1);
    // The best other move's score where the played move was the engine's choice.
    let mut alternatives: Vec<Option<Eval>> = vec![None; total];
    // The tables' answer for each position they cover; such a position is not searched.
    let mut probed: Vec<Option<xiangqi_egtb::Probe>> = Vec::with_capacity(total + 1);
    let mut replay = Game::new(start.clone());
    let probe_here = |replay: &Game| {
        tables
            .filter(|_| !replay.is_over())
            .and_then(|t| t.probe(replay.position()))
    };
    let search_here = |replay: &Game, probe: &Option<xiangqi_egtb::Probe>| {
        (!replay.is_over() && probe.is_none())
            .then(|| search_position(engine, replay, &limits, &[]))
    };
    probed.push(probe_here(&replay));
    searched.push(search_here(&replay, &probed[0]));
    for (ply, &mv) in moves.iter().enumerate() {
        if cancelled() {
            return Ok(None);
        }
        if let Some(before) = &searched[ply]
            && before.best_move == Some(mv)
            && model::win_probability_of(before.score) >= model::ONLY_MOVE_GAP
            && !is_plain(start, moves, ply)
        {
            let other = search_position(engine, &replay, &limits, &[mv]);
            alternatives[ply] = other.best_move.map(|_| Eval::Score(other.score));
            if cancelled() {
                return Ok(None);
            }
        }
        // Already replayed once above: legal.
        let _ = replay.play(mv);
        probed.push(probe_here(&replay));
        searched.push(search_here(&replay, &probed[ply + 1]));
        progress(ply + 1, total);
    }
    if cancelled() {
        return Ok(None);
    }
    let ends: Vec<Option<Eval>> = (0..=total).map(|ply| game_over_eval(&game, ply)).collect();
    // Each position's score for its side to move, best move and line: the table's where it
    // covers the position, else the search's.
    let mut at = start.clone();
    let looks: Vec<Look> = (0..=total)
        .map(|ply| {
            if ply > 0 {
                at.make_move(moves[ply - 1]);
            }
            let pos = &at;
            match (&probed[ply], &searched[ply], tables) {
                (Some(probe), _, Some(t)) => Look {
                    score: table::reported(probe.value),
                    best: probe.moves.first().map(|m| m.mv),
                    line: table::best_line(t, pos, TABLE_LINE_PLIES),
                },
                (_, Some(r), _) => Look {
                    score: r.score,
                    best: r.best_move,
                    line: r.pv.clone(),
                },
                _ => Look {
                    score: xiangqi_engine::score::Reported::Cp(0),
                    best: None,
                    line: Vec::new(),
                },
            }
        })
        .collect();
    let mut reviewed = Vec::with_capacity(total);
    let mut pos = start.clone();
    for (ply, &played) in moves.iter().enumerate() {
        let look = &looks[ply];
        let before = ends[ply].unwrap_or(Eval::Score(look.score));
        let after_pos = pos.after(played);
        let after = match ends[ply + 1] {
            Some(end) => end.flipped(),
            None => Eval::Score(-looks[ply + 1].score),
        };
        let best = look.best;
        let exact = probed[ply]
            .as_ref()
            .and_then(|probe| table::judge_move(probe, played));
        let plain = is_plain(start, moves, ply);
        let (loss, class) = match exact {
            Some((judgement, only)) => judgement.judge(only && !plain),
            None => {
                let j = model::judge(
                    before,
                    after,
                    best == Some(played),
                    alternatives[ply],
                    plain,
                );
                (j.loss, j.class)
            }
        };
        let reply = &looks[ply + 1];
        let refutation = match class {
            Class::Mistake | Class::Blunder if ends[ply + 1].is_none() => {
                Refutation::find(&pos, played, reply.score, &reply.line)
            }
            _ => None,
        };
        reviewed.push(MoveReview {
            number: MoveNumber::of_ply(start, ply),
            played,
            before,
            after,
            best,
            best_line: look.line.clone(),
            alternative: alternatives[ply],
            loss,
            class,
            refutation,
            table: exact.map(|(judgement, _)| judgement),
        });
        pos = after_pos;
    }
    Ok(Some(Review {
        start: start.clone(),
        moves: reviewed,
    }))
}

/// Whether move `ply` of `moves` (from `start`) is plain whatever the position, and so never
/// an only move: a recapture on the point where the other side has just taken, or the taking
/// of a piece worth at least the one that takes it ([`SEE_VALUE`]).
pub fn is_plain(start: &Position, moves: &[Move], ply: usize) -> bool {
    let mut pos = start.clone();
    let mut last_capture = None;
    for &m in &moves[..ply] {
        last_capture = pos.piece_at(m.to()).map(|_| m.to());
        pos.make_move(m);
    }
    let Some(&played) = moves.get(ply) else {
        return false;
    };
    let (Some(taken), Some(taker)) = (pos.piece_at(played.to()), pos.piece_at(played.from()))
    else {
        return false;
    };
    last_capture == Some(played.to())
        || SEE_VALUE[taken.kind.index()] >= SEE_VALUE[taker.kind.index()]
}

/// Plies of the table's best line the review gives for a position a table covers.
const TABLE_LINE_PLIES: usize = 12;

/// What the review knows of a position: the score for its side to move (`Cp(0)` where
/// nothing was searched), the best move and its line.
struct Look {
    score: xiangqi_engine::score::Reported,
    best: Option<Move>,
    line: Vec<Move>,
}

/// Searches the position `game` stands in, with its history for repetition rulings, leaving
/// out the root moves `excluded`.
fn search_position(
    engine: &Engine,
    game: &Game,
    limits: &SearchLimits,
    excluded: &[Move],
) -> SearchResult {
    let mut history = game.hashes_since_capture();
    history.pop();
    let request = SearchRequest {
        history,
        history_moves: game.moves_since_capture().to_vec(),
        excluded: excluded.to_vec(),
        ..SearchRequest::new(game.position().clone(), limits.clone())
    };
    engine.think(&request, &mut |_| {})
}

/// The evaluation, for the side to move at `ply`, of a game that is over by then.
fn game_over_eval(game: &Game, ply: usize) -> Option<Eval> {
    let outcome = game.outcome().filter(|o| o.ply <= ply)?;
    let side = game.position_at(ply)?.side_to_move();
    Some(match outcome.result.winner() {
        None => Eval::Drawn,
        Some(winner) if winner == side => Eval::Won,
        Some(_) => Eval::Lost,
    })
}
