//! Game review in the app: `GET /api/games/{id}/review` judges every move of the game's main
//! line with one engine of the search pool (the model and the classes are those of
//! [`xiangqi_teaching::review`]) and streams server-sent events — `progress` after each
//! position, then one `review` with every move's class, loss, evaluation, the engine's better
//! move and line, and for a mistake or a blunder why it was one. A page that closes the stream
//! stops the review; the engine goes back to the pool then or when the review ends.
//!
//! Where an endgame table on disk covers a position (the data folder's `egtb`, the tables
//! the endgame course made), the review takes the table's exact result instead of a search,
//! and names a move made there by the exact results before and after it (`table`).

use axum::Router;
use axum::routing::get;

use crate::kit::error::ApiError;
use crate::kit::extract::Params;
use crate::kit::games::{Games, with_game};
use crate::kit::limits::{self, REVIEW_DEPTH_MAX, REVIEW_MS_MAX};
use crate::kit::search::set_judging;
use crate::kit::search_pool::SearchStop;
use crate::kit::stream::{EventStream, event, stream_search};
use crate::kit::view::{MoveView, side_code};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::response::sse::Event;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use xiangqi_egtb::Value;
use xiangqi_engine::score::Reported;
use xiangqi_rules::notation::{Notation, format_move};
use xiangqi_rules::{Color, Move, Position};
use xiangqi_teaching::review::table::mate_moves;
use xiangqi_teaching::review::{
    Class, Consequence, EndgameTables, Eval, MoveReview, Review, ReviewLimits, SideSummary,
    TableJudgement, review_until,
};

/// Time per position when the page asks for none, under half the command line's default so
/// that the page's review of a typical game is quick: the 60-move game
/// `crates/cli/tests/data/sixty-moves.pgn` (121 positions) took 17.2 s through this stream
/// (release build, 2-core machine at load average 6); a piece thrown away is still found at
/// this depth (`tests/review.rs` and the browser test use such games).
pub const DEFAULT_MILLIS: u64 = 150;

/// How long each position is searched.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewQuery {
    /// Time per position in milliseconds (at most [`REVIEW_MS_MAX`]; [`DEFAULT_MILLIS`] when
    /// neither this nor `depth` is given).
    pub millis: Option<u64>,
    /// Depth per position (1 to [`REVIEW_DEPTH_MAX`]).
    pub depth: Option<i32>,
}

/// The `progress` event: positions judged so far of all.
#[derive(Serialize)]
pub struct ProgressView {
    /// Moves judged.
    pub done: usize,
    /// Moves in the game.
    pub total: usize,
}

/// An evaluation from Red's side: the engine's score, or the game's end.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(untagged)]
pub enum EvalView {
    /// The engine's score (`{"cp": n}` or `{"mate": n}`), positive when Red is better.
    Score(Reported),
    /// The game is over (`{"end": e}`): `red` or `black` won, or `draw`.
    End {
        /// Who won, or `draw`.
        end: &'static str,
    },
}

impl EvalView {
    /// `eval`, given from `side`'s point of view, turned to Red's.
    fn of(eval: Eval, side: Color) -> EvalView {
        let red = if side == Color::Red {
            eval
        } else {
            eval.flipped()
        };
        match red {
            Eval::Score(s) => EvalView::Score(s),
            Eval::Won => EvalView::End { end: "red" },
            Eval::Lost => EvalView::End { end: "black" },
            Eval::Drawn => EvalView::End { end: "draw" },
        }
    }
}

/// A line of moves in every notation, from the position it starts in; it stops where a move
/// is no longer legal.
#[derive(Serialize, Default)]
pub struct LineView {
    /// ICCS.
    pub iccs: Vec<String>,
    /// WXF.
    pub wxf: Vec<String>,
    /// Chinese.
    pub chinese: Vec<String>,
}

impl LineView {
    fn new(pos: &Position, line: &[Move]) -> LineView {
        let mut p = pos.clone();
        let mut view = LineView::default();
        for &m in line {
            if !p.is_legal(m) {
                break;
            }
            view.iccs.push(m.to_string());
            view.wxf.push(format_move(&p, m, Notation::Wxf));
            view.chinese.push(format_move(&p, m, Notation::Chinese));
            p = p.after(m);
        }
        view
    }
}

/// Why a move was a mistake: the other side's best reply and what it wins, as data for the
/// page to word, and in English.
#[derive(Serialize)]
pub struct WhyView {
    /// The reply, written from the position after the mistake.
    pub reply: MoveView,
    /// The line the reply starts.
    pub line: LineView,
    /// What it wins: `mate`, `material`, `threat` or `positional`.
    pub kind: &'static str,
    /// The side that replies: `red` or `black`.
    pub side: &'static str,
    /// For `mate`: moves until mate.
    pub moves: Option<i32>,
    /// For `material` and `threat`: the piece's FEN letter.
    pub piece: Option<char>,
    /// For `material` and `threat`: where the piece stands (ICCS point).
    pub square: Option<String>,
    /// For `material`: net material lost along the line, in centipawns.
    pub net: Option<i32>,
    /// The sentence in English, the reply in Chinese notation, worded as what would follow
    /// (the reply is the engine's, not necessarily the game's), e.g. `if Red answers 车二进六,
    /// the horse on c7 falls`.
    pub text: String,
}

/// One move judged.
#[derive(Serialize)]
pub struct MoveReviewView {
    /// The ply the move was made at (1 is the first move).
    pub ply: usize,
    /// The side that moved: `red` or `black`.
    pub side: &'static str,
    /// The move played (ICCS), so that a kept review is only applied to the same moves.
    pub played: String,
    /// `only`, `best`, `excellent`, `good`, `inaccuracy`, `mistake` or `blunder`
    /// ([`Class`]).
    pub class: &'static str,
    /// Expected score lost (0–1).
    pub loss: f64,
    /// The move's accuracy in percent.
    pub accuracy: f64,
    /// The evaluation of the position the move leaves, from Red's side.
    pub score_red: EvalView,
    /// The evaluation of best play before the move, from Red's side.
    pub best_score_red: EvalView,
    /// The engine's best move in the position before; absent when it found none.
    pub best: Option<MoveView>,
    /// The line the best move starts.
    pub line: LineView,
    /// For a mistake or a blunder: the refutation.
    pub why: Option<WhyView>,
    /// Where an endgame table covered the position before the move: the exact results by
    /// which it was judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<TableView>,
}

/// A move judged by the endgame tables: the result of best play and of the move played, for
/// the mover.
#[derive(Serialize)]
pub struct TableView {
    /// How the move changed the result: `kept`, `slower` (a win, slower), `sooner` (a loss,
    /// sooner), `win-thrown` (a win to a draw or a loss) or `draw-slipped` (a draw to a loss).
    pub change: &'static str,
    /// Best play: `win`, `draw` or `loss`.
    pub best: &'static str,
    /// Best play's moves to mate (the winner's), for a win or a loss.
    pub best_mate: Option<u16>,
    /// The move played: `win`, `draw` or `loss`.
    pub played: &'static str,
    /// The move played's moves to mate, for a win or a loss.
    pub played_mate: Option<u16>,
    /// The judgement in English where the result or its distance changed, e.g. `this throws
    /// away the win: mate in 9 became a draw`.
    pub text: Option<String>,
}

impl TableView {
    fn of(t: TableJudgement) -> TableView {
        let word = |v: Value| v.word();
        TableView {
            change: t.change().code(),
            best: word(t.best),
            best_mate: mate_moves(t.best),
            played: word(t.played),
            played_mate: mate_moves(t.played),
            text: t.english(),
        }
    }
}

/// One side's moves in sum.
#[derive(Serialize)]
pub struct SummaryView {
    /// Moves made.
    pub moves: usize,
    /// Mean accuracy in percent.
    pub accuracy: f64,
    /// Moves of each class, by class code.
    pub counts: std::collections::BTreeMap<&'static str, usize>,
}

impl From<SideSummary> for SummaryView {
    fn from(s: SideSummary) -> SummaryView {
        SummaryView {
            moves: s.moves,
            accuracy: s.accuracy,
            counts: Class::ALL.iter().map(|&c| (c.code(), s.count(c))).collect(),
        }
    }
}

/// The `review` event: every move and each side's summary.
#[derive(Serialize)]
pub struct ReviewView {
    /// The game's change count the review belongs to.
    pub version: u64,
    /// Each move of the main line, in order.
    pub moves: Vec<MoveReviewView>,
    /// Red's summary.
    pub red: SummaryView,
    /// Black's summary.
    pub black: SummaryView,
}

fn why_view(before: &Position, m: &MoveReview) -> Option<WhyView> {
    let r = m.refutation.as_ref()?;
    let after = before.after(m.played);
    let (kind, moves, piece, square, net) = match r.consequence {
        Consequence::Mate { moves } => ("mate", Some(moves), None, None, None),
        Consequence::Material { piece, square, net } => (
            "material",
            None,
            Some(piece.fen_char()),
            Some(square.to_string()),
            Some(net),
        ),
        Consequence::Threat(t) => (
            "threat",
            None,
            Some(t.piece.fen_char()),
            Some(t.square.to_string()),
            None,
        ),
        Consequence::Positional => ("positional", None, None, None, None),
    };
    Some(WhyView {
        reply: MoveView::new(&after, r.reply),
        line: LineView::new(&after, &r.line),
        kind,
        side: side_code(after.side_to_move()),
        moves,
        piece,
        square,
        net,
        text: r.english_if(&after, Notation::Chinese),
    })
}

/// The page's view of `review`.
fn review_view(review: &Review, version: u64) -> ReviewView {
    let mut pos = review.start.clone();
    let mut moves = Vec::with_capacity(review.moves.len());
    for (ply, m) in review.moves.iter().enumerate() {
        let side = m.mover();
        moves.push(MoveReviewView {
            ply: ply + 1,
            side: side_code(side),
            played: m.played.to_string(),
            class: m.class.code(),
            loss: m.loss,
            accuracy: m.accuracy(),
            score_red: EvalView::of(m.after, side),
            best_score_red: EvalView::of(m.before, side),
            best: m
                .best
                .filter(|&b| pos.is_legal(b))
                .map(|b| MoveView::new(&pos, b)),
            line: LineView::new(&pos, &m.best_line),
            why: why_view(&pos, m),
            table: m.table.map(TableView::of),
        });
        pos.make_move(m.played);
    }
    ReviewView {
        version,
        moves,
        red: review.summary(Color::Red).into(),
        black: review.summary(Color::Black).into(),
    }
}

/// The search limits a query asks for, for a review of `positions` positions: 400 for a
/// depth or time past the server's limits; the time a position is cut so that the whole
/// review keeps within [`REVIEW_TOTAL_MAX`](crate::kit::limits::REVIEW_TOTAL_MAX).
fn limits_of(query: &ReviewQuery, positions: usize) -> Result<ReviewLimits, ApiError> {
    if let Some(d) = query.depth {
        limits::within("depth", i64::from(d), 1, i64::from(REVIEW_DEPTH_MAX))?;
    }
    if let Some(m) = query.millis {
        limits::at_most("millis", m, REVIEW_MS_MAX, "ms a position")?;
    }
    let millis = match (query.millis, query.depth) {
        (None, None) => Some(DEFAULT_MILLIS),
        (m, _) => m,
    };
    let asked = millis.map(|m| Duration::from_millis(m.max(1)));
    Ok(ReviewLimits {
        movetime: Some(limits::review_time(asked, positions)),
        depth: query.depth,
    })
}

/// `GET /api/games/{id}/review?millis=T&depth=D`: server-sent events, a `progress` event
/// `{done, total}` after each move is judged and a last `review` event ([`ReviewView`]). The
/// review waits for an engine of the pool (503 when the queue is full), holds it until the
/// end, and stops when the page closes the stream or the game changes.
pub async fn review_stream(
    games: Games,
    State(app): State<AppState>,
    Path(id): Path<String>,
    Params(query): Params<ReviewQuery>,
) -> Result<EventStream, ApiError> {
    let (start, moves, version, stop): (Position, Vec<Move>, u64, SearchStop) =
        with_game(&games, &id, |s| {
            Ok((
                s.game().start().clone(),
                s.game().moves().to_vec(),
                s.version,
                s.start_search(),
            ))
        })?;
    // Each move may search its position a second time, for the only-move check.
    let limits = limits_of(&query, 2 * moves.len() + 1)?;
    let keeper = crate::kit::archive_store::ReviewKeeper::of(&app.sessions, &id);
    let tables = app.endgames.present();
    // A page that stops listening stops the review.
    let review_stop = stop.clone();
    stream_search(&app.pool, &id, &review_stop, move |engine, events| {
        set_judging(engine);
        let total = moves.len();
        events.update(event("progress", &ProgressView { done: 0, total }));
        let result = review_until(
            engine,
            &start,
            &moves,
            limits,
            tables.as_deref().map(|t| t as &dyn EndgameTables),
            // The page sees a later count when it is not keeping up.
            &mut |done, total| events.update(event("progress", &ProgressView { done, total })),
            &|| stop.is_stopped(),
        );
        let last = match result {
            Ok(Some(review)) => {
                let view = review_view(&review, version);
                if let Some(keeper) = &keeper {
                    keeper.keep(&view);
                }
                event("review", &view)
            }
            Ok(None) => return,
            Err(e) => Event::default().event("failed").data(e.to_string()),
        };
        events.last(last);
    })
    .await
}

/// The review route.
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/games/{id}/review", get(review_stream))
}
