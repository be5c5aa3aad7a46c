//! The opening trainer in the app ([`xiangqi_teaching::openings::trainer`]): the learner
//! plays one side of a named opening line while the server answers along its branches, names
//! a move that leaves the line with the engine's view of it, and keeps each card's place in
//! the spaced-repetition schedule in the games archive.
//!
//! - `GET /api/trainer?side=red|black`: the lines with their branches, the cards stored, the
//!   card to play next (the most overdue; `side` limits it to one side), and whether progress
//!   is saved.
//! - `POST /api/trainer/start` `{line, side, branch?}`: a run of a card; without `branch` the
//!   schedule chooses the line's most due one. As Black, the app's first move comes with it.
//! - `POST /api/trainer/move` `{line, side, branch, moves, move, missed}`: the learner's move
//!   after `moves`. On the line: the app's reply, and at the end of the branch a clean run is
//!   recorded (unless `missed`). Off the line: the main line's move and the engine's
//!   evaluation after each, from the learner's side; the run's first miss is recorded.
//!
//! Without an archive the trainer works the same and says that progress is not saved.

use axum::Router;
use axum::routing::{get, post};

use crate::kit::archive_store::ArchiveService;
use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::{Body, Params};
use crate::kit::search::{run_search, set_judging};
use crate::kit::search_pool::{SearchKind, SearchPool, SearchStop};
use crate::kit::view::{MoveView, OpeningView, side_code};
use crate::kit::viewer::Viewer;
use crate::kit::wire::{self, Iccs, Side};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use xiangqi_engine::score::Reported;
use xiangqi_engine::{SearchLimits, SearchRequest};
use xiangqi_rules::{Color, Move, Position};
use xiangqi_store::TrainerCard;
use xiangqi_teaching::Lang;
use xiangqi_teaching::openings::trainer::walk::{self, Step, WalkError};
use xiangqi_teaching::openings::trainer::{Branch, CardState, Run, TrainerLine, lines};
use xiangqi_teaching::openings::{self};

/// Depth of the engine's look at the learner's move and at the main move.
pub const DEVIATION_DEPTH: i32 = 9;
/// The longest each of the two looks may take.
pub const DEVIATION_TIME: Duration = Duration::from_millis(400);

/// Milliseconds since 1970: the clock the schedule is read with.
fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The line `id`; 404 `no-trainer-line` when there is none.
fn find_line(id: &str) -> Result<&'static TrainerLine, ApiError> {
    openings::trainer::line(id).ok_or_else(|| {
        let mut err = ApiError::new(
            ErrorCode::NoTrainerLine,
            format!("there is no opening line {id:?} to train"),
        );
        err.params = json!({ "line": id });
        err
    })
}

/// The branch `id` of `line`; 404 `no-trainer-branch` when there is none.
fn find_branch(line: &'static TrainerLine, id: &str) -> Result<&'static Branch, ApiError> {
    walk::branch(line, id).map_err(|_| {
        let mut err = ApiError::new(
            ErrorCode::NoTrainerBranch,
            format!("the line {} has no branch {id:?}", line.id),
        );
        err.params = json!({ "line": line.id, "branch": id });
        err
    })
}

/// A stored card: which it is and its place in the schedule.
fn from_stored(card: &TrainerCard) -> (CardKey, CardState) {
    let key = CardKey {
        line: card.line.clone(),
        side: card.side.clone(),
        branch: card.branch.clone(),
    };
    let state = CardState {
        level: card.level,
        reps: card.reps,
        lapses: card.lapses,
        due_ms: card.due_ms,
        last_ms: card.last_ms,
    };
    (key, state)
}

/// The card `key` at `state`, as the archive stores it.
fn to_stored(key: &CardKey, state: &CardState) -> TrainerCard {
    TrainerCard {
        line: key.line.clone(),
        side: key.side.clone(),
        branch: key.branch.clone(),
        level: state.level,
        reps: state.reps,
        lapses: state.lapses,
        due_ms: state.due_ms,
        last_ms: state.last_ms,
    }
}

/// The stored cards, by line, side and branch.
type Cards = BTreeMap<CardKey, CardState>;

/// Whether progress is saved, and why not when it is not.
#[derive(Serialize, Clone)]
pub struct ProgressView {
    /// Whether the cards are kept in the archive.
    pub saved: bool,
    /// Why not: the archive's error (`code`, `message`, `params`).
    pub error: Option<serde_json::Value>,
}

impl ProgressView {
    fn saved() -> ProgressView {
        ProgressView {
            saved: true,
            error: None,
        }
    }

    fn not_saved(err: &ApiError) -> ProgressView {
        ProgressView {
            saved: false,
            error: Some(json!({ "code": err.code, "message": err.message, "params": err.params })),
        }
    }
}

/// `owner`'s stored cards, or an empty set and why they are not there.
async fn load_cards(archive: &ArchiveService, owner: &str) -> (Cards, ProgressView) {
    let owner = owner.to_string();
    match archive.run(move |a| a.trainer_cards(&owner)).await {
        Ok(cards) => (
            cards.iter().map(from_stored).collect(),
            ProgressView::saved(),
        ),
        Err(err) => (Cards::new(), ProgressView::not_saved(&err)),
    }
}

/// The cards of `line` played from `side`, in the line's order of branches.
fn line_cards<'a>(
    cards: &Cards,
    line: &'a TrainerLine,
    side: Color,
) -> Vec<(&'a Branch, CardState)> {
    line.branches
        .iter()
        .map(|b| {
            let key = CardKey::new(line, side, b);
            (b, cards.get(&key).copied().unwrap_or_default())
        })
        .collect()
}

/// A card as the page gets it.
#[derive(Serialize, Clone)]
pub struct CardView {
    /// Which card: its line, side and branch.
    #[serde(flatten)]
    pub key: CardKey,
    /// Its box in the schedule (0: new or missed).
    pub level: u8,
    /// Runs recorded.
    pub reps: u32,
    /// Misses recorded.
    pub lapses: u32,
    /// When it is due (ms since 1970).
    pub due_ms: i64,
    /// Whether it is due now.
    pub due: bool,
    /// Whether it counts as learnt.
    pub learnt: bool,
}

fn card_view(key: &CardKey, state: &CardState, now: i64) -> CardView {
    CardView {
        key: key.clone(),
        level: state.level,
        reps: state.reps,
        lapses: state.lapses,
        due_ms: state.due_ms,
        due: state.is_due(now),
        learnt: state.is_learnt(),
    }
}

/// A branch as the page gets it: its moves, to show the line.
#[derive(Serialize)]
pub struct BranchView {
    /// The branch's id.
    pub id: String,
    /// Its moves from the start.
    pub moves: Vec<MoveView>,
    /// The ECCO opening it ends in.
    pub opening: Option<OpeningView>,
}

/// A line of the catalogue.
#[derive(Serialize)]
pub struct LineView {
    /// The line's id.
    pub id: String,
    /// Its name by language code (`en`, `ru`, `zh`).
    pub name: BTreeMap<&'static str, String>,
    /// The first and last ECCO code it stays in.
    pub codes: [String; 2],
    /// Its branches, the main line first.
    pub branches: Vec<BranchView>,
}

fn line_view(line: &TrainerLine) -> LineView {
    LineView {
        id: line.id.clone(),
        name: Lang::ALL
            .into_iter()
            .map(|lang| (lang.code(), line.name(lang).to_string()))
            .collect(),
        codes: [line.first_code.clone(), line.last_code.clone()],
        branches: line
            .branches
            .iter()
            .map(|b| BranchView {
                id: b.id.clone(),
                moves: MoveView::line(&Position::startpos(), &b.moves),
                opening: OpeningView::of(&Position::startpos(), &b.moves),
            })
            .collect(),
    }
}

/// The card to play next.
#[derive(Serialize, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct CardKey {
    /// The line's id.
    pub line: String,
    /// `red` or `black`.
    pub side: String,
    /// The branch's id.
    pub branch: String,
}

impl CardKey {
    /// The card of `branch` of `line`, played from `side`.
    fn new(line: &TrainerLine, side: Color, branch: &Branch) -> CardKey {
        CardKey {
            line: line.id.clone(),
            side: side_code(side).into(),
            branch: branch.id.clone(),
        }
    }
}

/// The trainer's catalogue and the learner's progress.
#[derive(Serialize)]
pub struct TrainerView {
    /// Every line.
    pub lines: Vec<LineView>,
    /// The cards played so far.
    pub cards: Vec<CardView>,
    /// The card to play next: the most overdue, else a new one, else the one due soonest.
    pub next: Option<CardKey>,
    /// Whether progress is saved.
    pub progress: ProgressView,
    /// The server's clock (ms since 1970), for the page to say when cards come due.
    pub now_ms: i64,
}

/// The query of `GET /api/trainer`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainerQuery {
    /// Only this side's cards are offered next (both when absent or blank).
    #[serde(default, deserialize_with = "wire::side_or_blank")]
    pub side: Option<Side>,
}

/// `GET /api/trainer`: the lines, the learner's cards and the card to play next.
pub async fn catalogue(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Params(q): Params<TrainerQuery>,
) -> Result<Json<TrainerView>, ApiError> {
    let owner = viewer.require_owner()?;
    let sides = match q.side {
        None => vec![Color::Red, Color::Black],
        Some(Side(side)) => vec![side],
    };
    let (cards, progress) = load_cards(&archive, &owner).await;
    let now = now_ms();
    let all: Vec<(CardKey, CardState)> = sides
        .iter()
        .flat_map(|&side| {
            lines()
                .iter()
                .flat_map(move |l| l.branches.iter().map(move |b| CardKey::new(l, side, b)))
        })
        .map(|key| {
            let state = cards.get(&key).copied().unwrap_or_default();
            (key, state)
        })
        .collect();
    Ok(Json(TrainerView {
        lines: lines().iter().map(line_view).collect(),
        cards: cards.iter().map(|(k, s)| card_view(k, s, now)).collect(),
        next: openings::trainer::next_card(&all, now).cloned(),
        progress,
        now_ms: now,
    }))
}

/// The body of `POST /api/trainer/start`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartRequest {
    /// The line's id.
    pub line: String,
    /// The learner's side: `red` or `black`.
    pub side: Side,
    /// The branch to train; the schedule's choice when absent.
    #[serde(default)]
    pub branch: Option<String>,
}

/// A run of a card, as it starts.
#[derive(Serialize)]
pub struct StartView {
    /// The line's id.
    pub line: String,
    /// The learner's side.
    pub side: &'static str,
    /// The branch trained.
    pub branch: String,
    /// The app's moves before the learner's first (Black: the first move).
    pub moves: Vec<MoveView>,
    /// The branch's length in plies.
    pub plies: usize,
    /// The card as stored (a new card when never played).
    pub card: CardView,
    /// Whether progress is saved.
    pub progress: ProgressView,
}

/// `POST /api/trainer/start`: begins a run of a line from one side.
pub async fn start(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Body(req): Body<StartRequest>,
) -> Result<Json<StartView>, ApiError> {
    let owner = viewer.require_owner()?;
    let line = find_line(&req.line)?;
    let Side(side) = req.side;
    let explicit = match req.branch.as_deref() {
        Some(id) => Some(find_branch(line, id)?),
        None => None,
    };
    let (cards, progress) = load_cards(&archive, &owner).await;
    let now = now_ms();
    let of_line = line_cards(&cards, line, side);
    let branch = explicit
        .or_else(|| openings::trainer::next_card(&of_line, now).copied())
        .unwrap_or(line.main());
    let state = of_line
        .iter()
        .find(|(b, _)| b.id == branch.id)
        .map(|&(_, s)| s)
        .unwrap_or_default();
    let key = CardKey::new(line, side, branch);
    let moves = MoveView::line(&Position::startpos(), &walk::opening_moves(branch, side));
    Ok(Json(StartView {
        line: line.id.clone(),
        side: side_code(side),
        branch: branch.id.clone(),
        moves,
        plies: branch.moves.len(),
        card: card_view(&key, &state, now),
        progress,
    }))
}

/// The body of `POST /api/trainer/move`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The line's id.
    pub line: String,
    /// The learner's side.
    pub side: Side,
    /// The branch trained.
    pub branch: String,
    /// The moves played so far from the start (ICCS), all on the line.
    #[serde(default)]
    pub moves: Vec<Iccs>,
    /// The learner's move (ICCS).
    pub r#move: Iccs,
    /// Whether the learner already left the line in this run (its miss is recorded).
    #[serde(default)]
    pub missed: bool,
}

/// The engine's view of a move off the line: the evaluation after it and after the main
/// move, each from the learner's side.
#[derive(Serialize)]
pub struct EngineView {
    /// After the learner's move.
    pub played: Reported,
    /// After the main line's move.
    pub main: Reported,
    /// The depth searched.
    pub depth: i32,
}

/// What a recorded run did to its card.
#[derive(Serialize)]
pub struct RecordView {
    /// `clean` or `missed`.
    pub outcome: &'static str,
    /// The card after it.
    pub card: CardView,
    /// Whether it was saved.
    pub progress: ProgressView,
}

/// The answer to the learner's move.
#[derive(Serialize)]
pub struct MoveAnswer {
    /// Whether the move is on the line.
    pub on_line: bool,
    /// The learner's move.
    pub played: MoveView,
    /// The branch followed now (another one when the learner played its move).
    pub branch: String,
    /// On the line: the app's reply, when the branch goes on.
    pub reply: Option<MoveView>,
    /// On the line: whether the branch is played to its end.
    pub done: bool,
    /// Off the line: the main line's move in its place.
    pub main: Option<MoveView>,
    /// Off the line: the ECCO opening the learner's move leads to.
    pub opening: Option<OpeningView>,
    /// Off the line: the engine's view (absent when every engine was busy).
    pub engine: Option<EngineView>,
    /// The run recorded by this move: its first miss, or its clean end.
    pub record: Option<RecordView>,
}

/// Moves that do not fit the line (409), or a branch it lacks (404): the code and the ply
/// concerned.
fn walk_error(e: &WalkError) -> ApiError {
    let (code, ply) = match e {
        WalkError::OffTheLine { ply } | WalkError::IllegalMove { ply, .. } => {
            (ErrorCode::TrainerMovesOffLine, Some(*ply))
        }
        WalkError::NotYourTurn => (ErrorCode::TrainerNotYourTurn, None),
        WalkError::LineOver => (ErrorCode::TrainerLineOver, None),
        WalkError::NoBranch(_) => (ErrorCode::NoTrainerBranch, None),
    };
    let mut err = ApiError::new(code, e.to_string());
    err.params = json!({ "ply": ply.map(|p| p + 1) });
    err
}

/// Records `outcome` for `owner`'s card `key` at `now`: the card after it, saved when the archive
/// is there.
async fn record(
    archive: &ArchiveService,
    owner: &str,
    key: CardKey,
    before: CardState,
    outcome: Run,
    now: i64,
) -> RecordView {
    let after = before.after(outcome, now);
    let stored = to_stored(&key, &after);
    let owner = owner.to_string();
    let progress = match archive
        .run(move |a| a.save_trainer_card(&owner, &stored))
        .await
    {
        Ok(()) => ProgressView::saved(),
        Err(err) => ProgressView::not_saved(&err),
    };
    RecordView {
        outcome: match outcome {
            Run::Clean => "clean",
            Run::Missed => "missed",
        },
        card: card_view(&key, &after, now),
        progress,
    }
}

/// The engine's look at the positions after `played` and after `main` in `pos`, from the
/// side to move's point of view; `None` when every engine is busy.
async fn engine_view(
    pool: &SearchPool,
    pos: &Position,
    played: Move,
    main: Move,
) -> Result<Option<EngineView>, ApiError> {
    let learner = pos.side_to_move();
    let positions = [pos.after(played), pos.after(main)];
    let stop = SearchStop::new();
    let searched = run_search(pool, "trainer", SearchKind::Play, &stop, move |engine| {
        set_judging(engine);
        positions.map(|after| {
            let request = SearchRequest::new(
                after.clone(),
                SearchLimits {
                    depth: Some(DEVIATION_DEPTH),
                    movetime: Some(DEVIATION_TIME),
                    ..SearchLimits::default()
                },
            );
            let result = engine.think(&request, &mut |_| {});
            let depth = result.lines.first().map_or(0, |l| l.depth);
            // The score is the other side's, who moves after the learner.
            let red = result.score.for_red(after.side_to_move());
            let mine = if learner == Color::Red { red } else { -red };
            (mine, depth)
        })
    })
    .await;
    match searched {
        Ok([(played, d1), (main, d2)]) => Ok(Some(EngineView {
            played,
            main,
            depth: d1.min(d2),
        })),
        Err(err) if err.kind == ErrorCode::Busy => Ok(None),
        Err(err) => Err(err),
    }
}

/// `POST /api/trainer/move`: checks the learner's move against the line.
pub async fn play(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    State(pool): State<SearchPool>,
    Body(req): Body<MoveRequest>,
) -> Result<Json<MoveAnswer>, ApiError> {
    let owner = viewer.require_owner()?;
    let line = find_line(&req.line)?;
    let Side(side) = req.side;
    let trained = find_branch(line, &req.branch)?;
    let moves = wire::moves(&req.moves);
    let Iccs(mv) = req.r#move;
    // The moves sent must follow the line before the learner's move is looked at.
    let mut pos = Position::startpos();
    for (ply, &m) in moves.iter().enumerate() {
        if !pos.is_legal(m) || walk::following(line, &moves[..=ply]).is_empty() {
            return Err(walk_error(&WalkError::OffTheLine { ply }));
        }
        pos.make_move(m);
    }
    if pos.side_to_move() == side {
        pos.check_move(mv.from(), mv.to())
            .map_err(|e| ApiError::illegal_move(&e, e.message()))?;
    }
    let (cards, _) = load_cards(&archive, &owner).await;
    let now = now_ms();
    let of_line = line_cards(&cards, line, side);
    let rank_of = |b: &Branch| {
        of_line
            .iter()
            .find(|(o, _)| o.id == b.id)
            .map_or(0, |(_, s)| s.preference(now))
    };
    let step = walk::step(line, side, trained, &moves, mv, &rank_of).map_err(|e| walk_error(&e))?;
    let played = MoveView::new(&pos, mv);
    let key_of = |b: &Branch| CardKey::new(line, side, b);
    let state_of = |b: &Branch| {
        of_line
            .iter()
            .find(|(o, _)| o.id == b.id)
            .map_or_else(CardState::default, |&(_, s)| s)
    };
    match step {
        Step::OnLine {
            branch,
            reply,
            done,
        } => {
            let after = pos.after(mv);
            let reply = reply.map(|r| MoveView::new(&after, r));
            let record = if done && !req.missed {
                Some(
                    record(
                        &archive,
                        &owner,
                        key_of(branch),
                        state_of(branch),
                        Run::Clean,
                        now,
                    )
                    .await,
                )
            } else {
                None
            };
            Ok(Json(MoveAnswer {
                on_line: true,
                played,
                branch: branch.id.clone(),
                reply,
                done,
                main: None,
                opening: None,
                engine: None,
                record,
            }))
        }
        Step::OffLine(deviation) => {
            let engine = engine_view(&pool, &pos, deviation.played, deviation.main).await?;
            let mut line_after = moves.clone();
            line_after.push(mv);
            let record = if req.missed {
                None
            } else {
                let b = deviation.branch;
                Some(record(&archive, &owner, key_of(b), state_of(b), Run::Missed, now).await)
            };
            Ok(Json(MoveAnswer {
                on_line: false,
                played,
                branch: deviation.branch.id.clone(),
                reply: None,
                done: false,
                main: Some(MoveView::new(&pos, deviation.main)),
                opening: OpeningView::of(&Position::startpos(), &line_after),
                engine,
                record,
            }))
        }
    }
}

/// The openings trainer's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/trainer", get(catalogue))
        .route("/api/trainer/start", post(start))
        .route("/api/trainer/move", post(play))
}
