//! Puzzles in the app: the shipped puzzles ([`xiangqi_teaching::puzzles`]) served one at a
//! time, near the learner's rating, with the learner's moves checked on the server.
//!
//! - `GET /api/puzzles/themes`: every theme and pattern with its number of puzzles.
//! - `GET /api/puzzles/next?rating=R&theme=T&pattern=P&min=A&max=B&recent=id,id`: a puzzle
//!   chosen among those nearest to `R` that match the filters, not one of `recent`.
//! - `GET /api/puzzles/{id}`: one puzzle (the page reopens the one it was on).
//! - `POST /api/puzzles/{id}/move` `{ply, move}`: the learner's move after `ply` moves of the
//!   solution. Right: the automatic reply, or solved. Wrong: why — the engine's refutation,
//!   searched on the search pool, as a move and what it wins.
//! - `GET /api/puzzles/{id}/hint?ply=K`: the piece to move and the move.
//! - `GET /api/puzzles/{id}/solution`: the whole line.
//! - `POST /api/puzzles/result` `{id, solved, state}`: the learner's Glicko-2 state after the
//!   puzzle ([`xiangqi_teaching::learner_rating`]), rated from and kept on the server for its
//!   owner; the page keeps a copy.
//!
//! - `GET /api/puzzles/own`, `POST /api/puzzles/own/mine`: puzzles from the learner's own
//!   games ([`own`]), served by the routes above with `source=own`.
//!
//! The solution of a mate puzzle is proven unique for its first move, so any other first move
//! is wrong; a move that ends the game at once in the solver's favour is always right.

mod own;

use crate::state::AppState;
use axum::Router;
use axum::routing::{get, post};

use crate::kit::archive_store::ArchiveService;
use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::{Body, Params, legal};
use crate::kit::learner::{
    PUZZLE_RATING_KEY, PUZZLE_RATING_TOPIC, PUZZLE_RATINGS_OWNER, PUZZLE_RATINGS_TOPIC,
    kept_rating, moved_puzzle_ratings, rated_key,
};
use crate::kit::search::{run_search, set_judging};
use crate::kit::search_pool::{SearchKind, SearchPool, SearchStop};
use crate::kit::view::{EndingView, MoveView, Threat, legal_targets, side_code};
use crate::kit::viewer::Viewer;
use crate::kit::wire::Iccs;
use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::time::Duration;
use xiangqi_engine::score::Reported;
use xiangqi_engine::{SearchLimits, SearchRequest};
use xiangqi_rules::notation::Notation;
use xiangqi_rules::{Move, Position};
use xiangqi_teaching::learner_rating::{LearnerState, PuzzleRatingState};
use xiangqi_teaching::puzzles::{
    Failure, Filter, Judgement, LineError, NotSolversTurn, Puzzle, SolverStep, Theme, choose_next,
    shipped, shipped_puzzle,
};
use xiangqi_teaching::review::Refutation;
use xiangqi_teaching::{CourseId, Lang, lessons};

/// How deep the refutation of a wrong move is searched: enough for the mates and the
/// captures a puzzle is about, quick enough that the answer comes at once.
pub const REFUTATION_DEPTH: i32 = 10;
/// The longest a refutation search may take.
pub const REFUTATION_TIME: Duration = Duration::from_millis(700);
/// Most recent ids a request may name.
pub const MAX_RECENT: usize = 200;

/// The shipped puzzles; 500 `puzzles-unreadable` when the set does not read.
fn catalog() -> Result<&'static [Puzzle], ApiError> {
    shipped().map_err(unreadable)
}

/// How a shipped puzzle's rating is wanted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rating {
    /// As its solvers moved it (read from the store).
    Moved,
    /// Not needed: the line alone (no store read).
    Unused,
}

/// The puzzle `id`: a shipped one, or one of the viewer's own; 404 `no-puzzle` when there is
/// none (another learner's own puzzle included).
async fn find(
    archive: &ArchiveService,
    viewer: &Viewer,
    id: &str,
    rating: Rating,
) -> Result<Cow<'static, Puzzle>, ApiError> {
    if id.starts_with(own::OWN_PREFIX) {
        return own::find_own(archive, viewer, id)
            .await?
            .map(Cow::Owned)
            .ok_or_else(|| no_puzzle(id));
    }
    let shipped = shipped_puzzle(id)
        .map_err(unreadable)?
        .ok_or_else(|| no_puzzle(id))?;
    if rating == Rating::Unused {
        return Ok(Cow::Borrowed(shipped));
    }
    Ok(match moved_ratings(archive).await?.get(id) {
        Some(moved) => Cow::Owned(Puzzle {
            rating: moved.shown(),
            ..shipped.clone()
        }),
        None => Cow::Borrowed(shipped),
    })
}

/// The shipped puzzles' own ratings as their solvers moved them, by id; none where the
/// server keeps nothing.
async fn moved_ratings(
    archive: &ArchiveService,
) -> Result<std::collections::HashMap<String, PuzzleRatingState>, ApiError> {
    if archive.unavailable_reason().is_some() {
        return Ok(Default::default());
    }
    archive.run(|s| moved_puzzle_ratings(s)).await
}

fn unreadable(e: &LineError) -> ApiError {
    ApiError::new(
        ErrorCode::PuzzlesUnreadable,
        format!("the shipped puzzles cannot be read: {e}"),
    )
}

fn no_puzzle(id: &str) -> ApiError {
    let mut err = ApiError::new(ErrorCode::NoPuzzle, format!("there is no puzzle {id}"));
    err.params = serde_json::json!({ "id": id });
    err
}

/// A puzzle as the page gets it: the position and what it is about, not its solution.
#[derive(Serialize)]
pub struct PuzzleView {
    /// The puzzle's id.
    pub id: String,
    /// The position; the side to move is the solver.
    pub fen: String,
    /// The solver: `red` or `black`.
    pub side: &'static str,
    /// The themes (`mateIn2`, `fork`, `pattern:<id>` …).
    pub themes: Vec<String>,
    /// The difficulty, on the learner rating scale.
    pub rating: u32,
    /// Moves in the solution, the replies included.
    pub plies: usize,
    /// For a mate puzzle: the mate's length in the solver's moves.
    pub mate: Option<u8>,
    /// For a win by stalemate: its length in the solver's moves.
    pub stalemate: Option<u8>,
    /// The solver's legal moves: each origin point with the points it can go to.
    pub legal: BTreeMap<String, Vec<String>>,
}

fn puzzle_view(e: &Puzzle) -> PuzzleView {
    PuzzleView {
        id: e.id.clone(),
        fen: e.position.to_fen(),
        side: side_code(e.position.side_to_move()),
        themes: e.themes.iter().map(Theme::to_string).collect(),
        rating: e.rating,
        plies: e.moves.len(),
        mate: e.mate_length(),
        stalemate: e.forced_win_length().filter(|_| e.mate_length().is_none()),
        legal: legal_targets(&e.position),
    }
}

/// A theme or a pattern with its number of puzzles.
#[derive(Serialize)]
pub struct ThemeCount {
    /// The theme (`mateIn2`) or the pattern's id (without `pattern:`).
    pub id: String,
    /// Puzzles that carry it.
    pub count: usize,
    /// For a pattern: its names, from the pattern's lesson.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<PatternName>,
}

/// A named mating pattern's names, as its lesson gives them.
#[derive(Serialize)]
pub struct PatternName {
    /// The Chinese name, e.g. `马后炮`.
    pub chinese: String,
    /// The Chinese name in pinyin, e.g. `mǎ hòu pào`.
    pub pinyin: String,
    /// The name in English.
    pub en: String,
    /// The name in Russian.
    pub ru: String,
    /// The name in Chinese.
    pub zh: String,
}

/// The names of pattern `id` from the patterns course, when it has that lesson.
fn pattern_name(id: &str) -> Option<PatternName> {
    let lesson = lessons(CourseId::Patterns)
        .ok()?
        .iter()
        .find(|l| l.id == id)?;
    Some(PatternName {
        chinese: lesson.chinese.clone()?,
        pinyin: lesson.pinyin.clone().unwrap_or_default(),
        en: lesson.title.get(Lang::En).to_string(),
        ru: lesson.title.get(Lang::Ru).to_string(),
        zh: lesson.title.get(Lang::Zh).to_string(),
    })
}

/// What the page can choose from.
#[derive(Serialize)]
pub struct ThemesView {
    /// Puzzles in all.
    pub total: usize,
    /// The themes that have puzzles, in a fixed order.
    pub themes: Vec<ThemeCount>,
    /// The named patterns that have puzzles, by id.
    pub patterns: Vec<ThemeCount>,
    /// The lowest and the highest puzzle rating.
    pub ratings: [u32; 2],
    /// A newcomer's rating state, for a learner with none kept.
    pub newcomer: LearnerState,
    /// Above this deviation a rating is provisional: the learner is still being calibrated.
    pub provisional_deviation: f64,
}

/// `GET /api/puzzles/themes`: every theme and pattern with its number of puzzles.
pub async fn themes() -> Result<Json<ThemesView>, ApiError> {
    let catalog = catalog()?;
    let mut counts: BTreeMap<&Theme, usize> = BTreeMap::new();
    for p in catalog {
        for t in &p.themes {
            *counts.entry(t).or_default() += 1;
        }
    }
    let count = |t: &Theme, &count: &usize| match t {
        Theme::Pattern(id) => ThemeCount {
            id: id.clone(),
            count,
            name: pattern_name(id),
        },
        other => ThemeCount {
            id: other.to_string(),
            count,
            name: None,
        },
    };
    let themes = Theme::basic()
        .iter()
        .filter_map(|t| counts.get(t).map(|n| count(t, n)))
        .collect();
    let patterns = counts
        .iter()
        .filter(|(t, _)| matches!(t, Theme::Pattern(_)))
        .map(|(t, n)| count(t, n))
        .collect();
    let ratings = catalog.iter().map(|p| p.rating);
    Ok(Json(ThemesView {
        total: catalog.len(),
        themes,
        patterns,
        ratings: [
            ratings.clone().min().unwrap_or(0),
            ratings.max().unwrap_or(0),
        ],
        newcomer: LearnerState::default(),
        provisional_deviation: xiangqi_teaching::learner_rating::PROVISIONAL_DEVIATION,
    }))
}

/// The query of `GET /api/puzzles/next`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    /// The rating to be near: the learner's (1500 when absent).
    pub rating: Option<f64>,
    /// Only puzzles with this theme (`mateIn2`, `fork` …).
    pub theme: Option<String>,
    /// Only puzzles of this named pattern (its id).
    pub pattern: Option<String>,
    /// Only puzzles rated at least this.
    pub min: Option<u32>,
    /// Only puzzles rated at most this.
    pub max: Option<u32>,
    /// Ids the learner has just seen, comma-separated: not chosen again while others match.
    pub recent: Option<String>,
    /// Chooses among the nearest puzzles (a number; random when absent).
    pub seed: Option<u64>,
    /// `own`: the puzzles found in the viewer's own games; the shipped set when absent or
    /// `all`.
    pub source: Option<String>,
}

/// The puzzles `q.source` names: the shipped set (with the ratings its solvers moved), or
/// the viewer's own; 400 for another source, 401 `signed-out` for a visitor's own. `own` is
/// the buffer a set made for the request is kept in.
async fn source<'a>(
    archive: &ArchiveService,
    viewer: &Viewer,
    q: &NextQuery,
    own: &'a mut Vec<Puzzle>,
) -> Result<&'a [Puzzle], ApiError> {
    match q.source.as_deref().unwrap_or("all") {
        "all" | "" => {
            let moved = moved_ratings(archive).await?;
            if moved.is_empty() {
                return catalog();
            }
            *own = catalog()?
                .iter()
                .map(|p| match moved.get(&p.id) {
                    Some(m) => Puzzle {
                        rating: m.shown(),
                        ..p.clone()
                    },
                    None => p.clone(),
                })
                .collect();
            Ok(own.as_slice())
        }
        "own" => {
            *own = own::own_puzzles(archive, viewer.require_owner()?).await?;
            Ok(own.as_slice())
        }
        other => {
            let mut err = ApiError::bad_request(format!(
                "`{}` is not a source of puzzles: all or own",
                other.chars().take(40).collect::<String>()
            ));
            err.params = serde_json::json!({ "source": other });
            Err(err)
        }
    }
}

/// The puzzles that match `q`'s filters (all but `recent`), or why the filters are wrong.
fn matching<'a>(catalog: &'a [Puzzle], q: &NextQuery) -> Result<Vec<&'a Puzzle>, ApiError> {
    let theme = match q.theme.as_deref().filter(|t| !t.is_empty()) {
        None => None,
        Some(text) => Some(
            text.parse::<Theme>()
                .ok()
                .filter(|t| !matches!(t, Theme::Pattern(_)))
                .ok_or_else(|| {
                    let mut err =
                        ApiError::new(ErrorCode::BadTheme, format!("there is no theme {text}"));
                    err.params = serde_json::json!({ "theme": text });
                    err
                })?,
        ),
    };
    let filter = Filter {
        theme,
        pattern: q.pattern.clone().filter(|p| !p.is_empty()),
        min: q.min,
        max: q.max,
    };
    Ok(catalog.iter().filter(|p| filter.matches(p)).collect())
}

/// A number that changes from request to request, for choosing among equals.
fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// `GET /api/puzzles/next`: a puzzle near `rating` that matches the filters; one of the
/// `recent` ids only when no other matches. 404 `no-puzzles` when none matches at all.
pub async fn next(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Params(q): Params<NextQuery>,
) -> Result<Json<PuzzleView>, ApiError> {
    let rating = q
        .rating
        .unwrap_or(xiangqi_teaching::learner_rating::START_RATING);
    if !rating.is_finite() {
        return Err(ApiError::bad_request("the rating is not a number"));
    }
    let mut own = Vec::new();
    let all = matching(source(&archive, &viewer, &q, &mut own).await?, &q)?;
    let recent: Vec<&str> = q
        .recent
        .as_deref()
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .take(MAX_RECENT)
        .collect();
    let seed = q.seed.unwrap_or_else(fresh_seed);
    let chosen = choose_next(&all, &recent, rating, seed).ok_or_else(|| {
        let mut err = ApiError::new(
            ErrorCode::NoPuzzles,
            "no puzzle matches the chosen theme, pattern and difficulty",
        );
        err.params = serde_json::json!({
            "theme": q.theme, "pattern": q.pattern, "min": q.min, "max": q.max,
            "source": q.source,
        });
        err
    })?;
    Ok(Json(puzzle_view(chosen)))
}

/// How many puzzles match.
#[derive(Serialize)]
pub struct CountView {
    /// The puzzles that match the filters.
    pub count: usize,
}

/// `GET /api/puzzles/count`: how many puzzles match the filters of `next` (theme, pattern,
/// `min`, `max`), so that a page can tell "none" without asking for one.
pub async fn count(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Params(q): Params<NextQuery>,
) -> Result<Json<CountView>, ApiError> {
    let mut own = Vec::new();
    Ok(Json(CountView {
        count: matching(source(&archive, &viewer, &q, &mut own).await?, &q)?.len(),
    }))
}

/// `GET /api/puzzles/{id}`: the puzzle, without its solution.
pub async fn puzzle(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Path(id): Path<String>,
) -> Result<Json<PuzzleView>, ApiError> {
    Ok(Json(puzzle_view(
        &*find(&archive, &viewer, &id, Rating::Moved).await?,
    )))
}

/// The step a request names: `ply` moves of the solution played, the solver to move.
fn solver_step(e: &Puzzle, ply: usize) -> Result<SolverStep, ApiError> {
    e.solver_step(ply).map_err(|NotSolversTurn { ply, plies }| {
        let mut err = ApiError::new(
            ErrorCode::PuzzleOutOfStep,
            format!(
                "after {ply} moves it is not the solver's turn in puzzle {} ({plies} moves)",
                e.id
            ),
        );
        err.params = serde_json::json!({ "ply": ply, "plies": plies });
        err
    })
}

/// The body of `POST /api/puzzles/{id}/move`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleMove {
    /// Moves of the solution already played (0, 2, 4 …).
    pub ply: usize,
    /// The learner's move (ICCS).
    pub r#move: Iccs,
}

/// Why a wrong move fails: the other side's best answer and what follows.
#[derive(Serialize)]
pub struct WrongView {
    /// The answer, written from the position after the wrong move.
    pub reply: MoveView,
    /// The line the answer starts (ICCS).
    pub line: Vec<String>,
    /// `mate` (the other side mates), `material` (the learner loses a piece), `no-mate` (a
    /// mate puzzle: no mate follows any more), `no-win` (nothing is won) or `positional`.
    pub kind: &'static str,
    /// The side that answers: `red` or `black`.
    pub side: &'static str,
    /// For `mate`: moves until mate.
    pub moves: Option<i32>,
    /// For `material`: the FEN letter of the piece lost.
    pub piece: Option<char>,
    /// For `material`: where it is taken.
    pub square: Option<String>,
    /// What the answer threatens, if anything: the piece it attacks.
    pub threat: Option<Threat>,
    /// The reason in English, e.g. `after h9g7 there is no mate`.
    pub text: String,
}

/// The answer to a learner's move.
#[derive(Serialize)]
pub struct MoveAnswer {
    /// Whether the move is right.
    pub correct: bool,
    /// The learner's move.
    pub played: MoveView,
    /// Right and not the last: the automatic reply.
    pub reply: Option<MoveView>,
    /// Right: the point of the general the move checks (or mates), if it does.
    pub check: Option<String>,
    /// Right and not the last: the solver's legal moves after the reply, by origin point.
    pub legal: Option<BTreeMap<String, Vec<String>>>,
    /// Right and the puzzle is done.
    pub solved: bool,
    /// Right and the other side is left without a move: mated or stalemated.
    pub ending: Option<EndingView>,
    /// Moves of the solution played after this answer (the next step's `ply`).
    pub ply: usize,
    /// Wrong: why (absent when the engine could not be asked: it was busy).
    pub refutation: Option<WrongView>,
}

/// `POST /api/puzzles/{id}/move`: checks the learner's move after `ply` moves.
pub async fn play(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    State(pool): State<SearchPool>,
    Path(id): Path<String>,
    Body(req): Body<PuzzleMove>,
) -> Result<Json<MoveAnswer>, ApiError> {
    let found = find(&archive, &viewer, &id, Rating::Unused).await?;
    let e = &*found;
    let step = solver_step(e, req.ply)?;
    let pos = &step.position;
    let m = legal(pos, req.r#move.0)?;
    let played = MoveView::new(pos, m);
    if let Judgement::Right { reply, solved, ply } = e.judge(&step, m) {
        let after = pos.after(m);
        return Ok(Json(MoveAnswer {
            correct: true,
            played,
            solved,
            check: after
                .in_check()
                .then(|| after.general(after.side_to_move()).to_string()),
            ending: EndingView::of(&after),
            legal: reply.map(|r| legal_targets(&after.after(r))),
            reply: reply.map(|r| MoveView::new(&after, r)),
            ply,
            refutation: None,
        }));
    }
    let refutation = refute(&pool, e, pos, m).await?;
    Ok(Json(MoveAnswer {
        correct: false,
        played,
        reply: None,
        check: None,
        legal: None,
        solved: false,
        ending: None,
        ply: req.ply,
        refutation,
    }))
}

/// Why `wrong`, played in `pos` of puzzle `e`, fails: the engine's answer after it, searched
/// at [`REFUTATION_DEPTH`] within [`REFUTATION_TIME`]. `None` when every engine is busy.
async fn refute(
    pool: &SearchPool,
    e: &Puzzle,
    pos: &Position,
    wrong: Move,
) -> Result<Option<WrongView>, ApiError> {
    let after = pos.after(wrong);
    let request = SearchRequest::new(
        after.clone(),
        SearchLimits {
            depth: Some(REFUTATION_DEPTH),
            movetime: Some(REFUTATION_TIME),
            ..SearchLimits::default()
        },
    );
    let stop = SearchStop::new();
    let searched = run_search(
        pool,
        &format!("puzzle:{}", e.id),
        SearchKind::Play,
        &stop,
        move |engine| {
            set_judging(engine);
            engine.think(&request, &mut |_| {})
        },
    )
    .await;
    let result = match searched {
        Ok(r) => r,
        Err(err) if err.kind == ErrorCode::Busy => return Ok(None),
        Err(err) => return Err(err),
    };
    Ok(wrong_view(e, pos, wrong, result.score, &result.pv))
}

/// The page's view of the refutation `line` (score `score` for the answering side) of
/// `wrong`, played in `pos` of puzzle `e`.
fn wrong_view(
    e: &Puzzle,
    pos: &Position,
    wrong: Move,
    score: Reported,
    line: &[Move],
) -> Option<WrongView> {
    let after = pos.after(wrong);
    let found = Refutation::find(pos, wrong, score, line)?;
    let reply = MoveView::new(&after, found.reply);
    let side = side_code(after.side_to_move());
    let (kind, moves, piece, square) = match e.failure(&found) {
        Failure::Mate { moves } => ("mate", Some(moves), None, None),
        Failure::Material { piece, square } => (
            "material",
            None,
            Some(piece.fen_char()),
            Some(square.to_string()),
        ),
        Failure::NoMate => ("no-mate", None, None, None),
        Failure::Positional => ("positional", None, None, None),
        Failure::NoWin => ("no-win", None, None, None),
    };
    let text = match kind {
        "no-mate" => format!("after {} there is no mate", reply.iccs),
        "no-win" => format!("after {} nothing is won", reply.iccs),
        _ => found.english(&after, Notation::Iccs),
    };
    Some(WrongView {
        reply,
        line: found.line.iter().map(Move::to_string).collect(),
        kind,
        side,
        moves,
        piece,
        square,
        threat: Threat::of(&after, found.reply),
        text,
    })
}

/// The query of `GET /api/puzzles/{id}/hint`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintQuery {
    /// Moves of the solution played (0 when absent).
    #[serde(default)]
    pub ply: usize,
}

/// A hint: first the piece, then the move.
#[derive(Serialize)]
pub struct HintView {
    /// The point of the piece to move.
    pub from: String,
    /// The move.
    pub r#move: MoveView,
}

/// `GET /api/puzzles/{id}/hint?ply=K`: the solution's move at step `K`.
pub async fn hint(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Path(id): Path<String>,
    Params(q): Params<HintQuery>,
) -> Result<Json<HintView>, ApiError> {
    let found = find(&archive, &viewer, &id, Rating::Unused).await?;
    let e = &*found;
    let step = solver_step(e, q.ply)?;
    let m = e.moves[q.ply];
    Ok(Json(HintView {
        from: m.from().to_string(),
        r#move: MoveView::new(&step.position, m),
    }))
}

/// The whole solution.
#[derive(Serialize)]
pub struct SolutionView {
    /// Every move from the start, the solver's first, each written from the position before it.
    pub moves: Vec<MoveView>,
}

/// `GET /api/puzzles/{id}/solution`: the solution line.
pub async fn solution(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Path(id): Path<String>,
) -> Result<Json<SolutionView>, ApiError> {
    let found = find(&archive, &viewer, &id, Rating::Unused).await?;
    let e = &*found;
    Ok(Json(SolutionView {
        moves: MoveView::line(&e.position, &e.moves),
    }))
}

/// The body of `POST /api/puzzles/result`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultRequest {
    /// The puzzle tried.
    pub id: String,
    /// Solved without a hint or a retry.
    pub solved: bool,
    /// The learner's state before it; a newcomer's when absent.
    #[serde(default)]
    pub state: Option<LearnerState>,
}

/// The learner's state after a puzzle.
#[derive(Serialize)]
pub struct ResultView {
    /// The new state, for the page to keep.
    pub state: LearnerState,
    /// The rating's change, in whole points.
    pub change: i32,
    /// The puzzle's rating the learner was rated against.
    pub puzzle_rating: u32,
    /// The puzzle's rating after this result (moved by settled learners' results where the
    /// server keeps them).
    pub new_puzzle_rating: u32,
    /// Whether this result moved the rating: a puzzle counts once for a learner whose rating
    /// the server keeps; trying it again (by its address) leaves the rating as it is.
    pub rated: bool,
}

/// `POST /api/puzzles/result`: the learner's rating after solving or failing a puzzle. The
/// rating is the server's: it rates from the state it keeps for the learner, and keeps the
/// new one; the state the page sends is taken only while the server keeps none (a rating
/// from before the server kept it), and for a visitor, whose rating is kept nowhere. A puzzle
/// counts once: a learner whose rating the server keeps and who was rated on it before gets
/// the state unchanged (`rated: false`). 422 `bad-rating-state` naming the field when a state
/// sent cannot be a rating.
pub async fn result(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Body(req): Body<ResultRequest>,
) -> Result<Json<ResultView>, ApiError> {
    let found = find(&archive, &viewer, &req.id, Rating::Moved).await?;
    let e = &*found;
    // A server that keeps nothing (no data folder) rates from what the page sends.
    let owner = viewer
        .owner()
        .filter(|_| archive.unavailable_reason().is_none());
    let (kept, rated_before) = match &owner {
        Some(owner) => {
            let owner = owner.clone();
            let values = archive
                .run(move |s| s.progress(&owner, PUZZLE_RATING_TOPIC))
                .await
                .unwrap_or_default();
            let before = values.iter().any(|p| p.key == rated_key(&e.id));
            (kept_rating(&values), before)
        }
        None => (None, false),
    };
    let state = match kept {
        Some(state) => state,
        None => req.state.unwrap_or_default().validate().map_err(|bad| {
            let mut err = ApiError::new(ErrorCode::BadRatingState, bad.to_string());
            err.params = serde_json::json!({ "field": bad.field, "value": bad.value });
            err
        })?,
    };
    if rated_before && let Some(state) = kept {
        return Ok(Json(ResultView {
            state,
            change: 0,
            puzzle_rating: e.rating,
            new_puzzle_rating: e.rating,
            rated: false,
        }));
    }
    // A shipped puzzle's own rating moves with its solvers' results where the server keeps
    // them; one of the learner's own puzzles is the learner's alone. Both ratings are read,
    // rated and kept in one step of the store, so two results at once both count.
    let moves_puzzle = !e.id.starts_with(own::OWN_PREFIX);
    let (id, shipped_rating, solved) = (e.id.clone(), e.rating, req.solved);
    let (rated, puzzle_after) = match owner {
        None => state.after_puzzle_rated(PuzzleRatingState::shipped(shipped_rating), solved),
        Some(owner) => {
            archive
                .run(move |s| {
                    let before = if moves_puzzle {
                        moved_puzzle_ratings(s)?.remove(&id)
                    } else {
                        None
                    }
                    .unwrap_or_else(|| PuzzleRatingState::shipped(shipped_rating));
                    let (rated, after) = state.after_puzzle_rated(before, solved);
                    let now = crate::kit::viewer::now_ms();
                    let progress = |owner: &str, topic: &str, key: &str, value: String| {
                        xiangqi_store::Progress {
                            owner: owner.to_string(),
                            topic: topic.to_string(),
                            key: key.to_string(),
                            value,
                            updated_ms: now,
                        }
                    };
                    let learner = serde_json::to_string(&rated.state).unwrap_or_default();
                    s.save_progress(&progress(
                        &owner,
                        PUZZLE_RATING_TOPIC,
                        PUZZLE_RATING_KEY,
                        learner,
                    ))?;
                    if moves_puzzle && after != before {
                        let puzzle = serde_json::to_string(&after).unwrap_or_default();
                        s.save_progress(&progress(
                            PUZZLE_RATINGS_OWNER,
                            PUZZLE_RATINGS_TOPIC,
                            &id,
                            puzzle,
                        ))?;
                    }
                    let mark = serde_json::json!({ "solved": solved }).to_string();
                    s.save_progress(&progress(
                        &owner,
                        PUZZLE_RATING_TOPIC,
                        &rated_key(&id),
                        mark,
                    ))?;
                    Ok((rated, after))
                })
                .await?
        }
    };
    Ok(Json(ResultView {
        state: rated.state,
        change: rated.change,
        puzzle_rating: e.rating,
        new_puzzle_rating: puzzle_after.shown(),
        rated: true,
    }))
}

/// The puzzle routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/puzzles/themes", get(themes))
        .route("/api/puzzles/next", get(next))
        .route("/api/puzzles/count", get(count))
        .route("/api/puzzles/result", post(result))
        .route("/api/puzzles/own", get(own::own))
        .route("/api/puzzles/own/mine", post(own::mine))
        .route("/api/puzzles/{id}", get(puzzle))
        .route("/api/puzzles/{id}/move", post(play))
        .route("/api/puzzles/{id}/hint", get(hint))
        .route("/api/puzzles/{id}/solution", get(solution))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, rating: u32, themes: &[&str]) -> Puzzle {
        Puzzle {
            id: id.to_string(),
            position: Position::startpos(),
            moves: vec!["h2e2".parse().unwrap()],
            themes: themes.iter().map(|t| t.parse().unwrap()).collect(),
            rating,
        }
    }

    #[test]
    fn filters_pick_theme_pattern_and_range() {
        let catalog = vec![
            entry("a", 900, &["mateIn1"]),
            entry("b", 1500, &["mateIn2", "pattern:double-cannon"]),
            entry("c", 2000, &["fork", "material"]),
        ];
        let ids = |q: NextQuery| -> Vec<String> {
            matching(&catalog, &q)
                .unwrap()
                .iter()
                .map(|e| e.id.clone())
                .collect()
        };
        let theme = |t: &str| NextQuery {
            theme: Some(t.to_string()),
            ..NextQuery::default()
        };
        assert_eq!(ids(theme("fork")), ["c"]);
        let pattern = NextQuery {
            pattern: Some("double-cannon".to_string()),
            ..NextQuery::default()
        };
        assert_eq!(ids(pattern), ["b"]);
        let range = NextQuery {
            min: Some(1000),
            max: Some(2000),
            ..NextQuery::default()
        };
        assert_eq!(ids(range), ["b", "c"]);
        let unknown = matching(&catalog, &theme("mateIn9")).err().unwrap();
        assert_eq!(unknown.code, "bad-theme");
    }
}
