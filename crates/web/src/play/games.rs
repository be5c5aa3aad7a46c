//! The JSON API the page talks to: games, moves, undo/redo, engine replies, hints, analysis,
//! FEN checks and the playing levels.

use crate::kit::error::{ApiError, ErrorCode, game_over};
use crate::kit::extract::Body;
use crate::kit::extract::legal;
use crate::kit::games::game_from_moves;
use crate::kit::games::start_session;
use crate::kit::games::{Games, with_game};
use crate::kit::limits;
use crate::kit::search::changed_meanwhile;
use crate::kit::search::run_search;
use crate::kit::search::{Prepared, prepare_search};
use crate::kit::search_pool::SearchKind;
use crate::kit::view::{EffectView, GameView, MoveView, Threat, session_view};
use crate::kit::wire::{Fen, Iccs, Point, fen_or_blank};
use crate::play::safety::{HangingPiece, hanging_piece};
use crate::state::AppState;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use xiangqi_engine::book;
use xiangqi_engine::levels::NAMED_LEVELS;
use xiangqi_engine::levels::{Level, MAX_LEVEL};
use xiangqi_engine::score::Reported;
use xiangqi_engine::{EngineOptions, SearchLimits};
use xiangqi_records::{Branch, LineAction, PlayError, PlayedGame};
use xiangqi_rules::Position;
use xiangqi_teaching::openings::book::EccoBook;

/// How long the engine may think at full strength, per move.
const FULL_STRENGTH_TIME: Duration = Duration::from_secs(3);
/// How long a hint may take.
const HINT_TIME: Duration = Duration::from_millis(600);

type ApiResult<T> = Result<Json<T>, ApiError>;

/// A new game: from `fen` (the start position when absent), with `moves` already played.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The start position.
    #[serde(default, deserialize_with = "fen_or_blank")]
    pub fen: Option<Fen>,
    /// Moves played from it (ICCS).
    #[serde(default)]
    pub moves: Vec<Iccs>,
    /// Moves taken back that redo can replay, next first (ICCS).
    #[serde(default)]
    pub redo: Vec<Iccs>,
}

/// `POST /api/games`: starts a game and returns it.
pub async fn new_game(
    sessions: Games,
    Body(req): Body<NewGame>,
) -> Result<(StatusCode, Json<GameView>), ApiError> {
    let played = game_from_moves(req.fen.as_ref(), &req.moves, &req.redo)?;
    let view = start_session(&sessions, played)?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `GET /api/games/{id}`: the game as it stands.
pub async fn get_game(sessions: Games, Path(id): Path<String>) -> ApiResult<GameView> {
    with_game(&sessions, &id, |s| Ok(session_view(&id, s))).map(Json)
}

/// `DELETE /api/games/{id}`: forgets the game.
pub async fn delete_game(sessions: Games, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    with_game(&sessions, &id, |_| Ok(()))?;
    if sessions.remove(&id) {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::no_game(&id))
    }
}

/// A move by its two points, and where it is played from.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The point the piece leaves.
    pub from: Point,
    /// The point it goes to.
    pub to: Point,
    /// How many moves of the line being played lead to the position the move is played
    /// from; the position now when absent.
    #[serde(default)]
    pub ply: Option<usize>,
    /// For a move from an earlier position: `replace` drops the moves after it, `variation`
    /// keeps them and plays on in a new line. Needed when the move is not the one the line
    /// goes on with.
    #[serde(default)]
    pub choice: Option<Branch>,
    /// When true, a move that leaves a piece of the mover's to be won is not played: the
    /// answer is `{hanging: {piece, square, loss, defended}}`.
    #[serde(default)]
    pub check_hanging: bool,
}

/// What a move request answers: the game after the move, or the piece it would leave
/// hanging (when asked to check).
#[derive(Serialize)]
#[serde(untagged)]
pub enum MoveAnswer {
    /// The move was played.
    Played(Box<GameView>),
    /// The move was not played: it leaves this piece to be won.
    Hanging {
        /// The piece.
        hanging: HangingPiece,
    },
}

/// `POST /api/games/{id}/move`: plays a move, or explains why it is illegal (422). With
/// `ply`, from an earlier position of the line being played, as `choice` says (400
/// `bad-ply` for a position the line has not reached, `choice-needed` without a choice);
/// with `check_hanging`, a move that leaves a piece hanging is answered, not played.
pub async fn play_move(
    sessions: Games,
    Path(id): Path<String>,
    Body(req): Body<MoveRequest>,
) -> ApiResult<MoveAnswer> {
    let (Point(from), Point(to)) = (req.from, req.to);
    with_game(&sessions, &id, |s| {
        let played = s.game().moves().len();
        let ply = req.ply.unwrap_or(played);
        let pos = s
            .game()
            .position_at(ply)
            .ok_or(PlayError::BadPly { ply, moves: played })?
            .clone();
        if ply == played
            && let Some(o) = s.game().outcome()
        {
            return Err(game_over(o));
        }
        let m = legal(&pos, xiangqi_rules::Move::new(from, to))?;
        if req.check_hanging
            && let Some(hanging) = hanging_piece(&pos, m)
        {
            return Ok(MoveAnswer::Hanging { hanging });
        }
        s.played.play_at(ply, m, req.choice)?;
        s.changed();
        Ok(MoveAnswer::Played(Box::new(session_view(&id, s))))
    })
    .map(Json)
}

/// Which line a request changes, and how.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineRequest {
    /// The line, 0 being the main line.
    pub line: usize,
    /// `switch`, `promote` or `delete`.
    pub action: LineAction,
}

/// `POST /api/games/{id}/line`: plays on in another line (from its end), makes a variation
/// the main line, or deletes it with the variations that leave it.
pub async fn change_line(
    sessions: Games,
    Path(id): Path<String>,
    Body(req): Body<LineRequest>,
) -> ApiResult<GameView> {
    with_game(&sessions, &id, |s| {
        s.played.change_line(req.line, req.action)?;
        s.changed();
        Ok(session_view(&id, s))
    })
    .map(Json)
}

/// How many moves undo or redo steps over: `{"count": n}`, `{}` or no body at all (1).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct StepRequest {
    /// Moves to step over, 1 to [`MAX_STEPS`].
    #[serde(default)]
    pub count: Option<usize>,
}

/// Most moves one undo or redo steps over.
pub const MAX_STEPS: usize = 1000;

/// The step count of an undo or redo body: 1 for no body, `{}` or no count; 400 for a body
/// that is not such an object (`[]`, `null`, a number) or a count outside 1 to [`MAX_STEPS`].
fn step_count(body: &[u8]) -> Result<usize, ApiError> {
    let text = std::str::from_utf8(body)
        .map_err(|_| ApiError::bad_request("the request body is not UTF-8 text"))?
        .trim();
    if text.is_empty() {
        return Ok(1);
    }
    if !text.starts_with('{') {
        return Err(ApiError::bad_request(
            "the request body must be an object such as {\"count\": 2}, or nothing",
        ));
    }
    let request: StepRequest = serde_json::from_str(text)
        .map_err(|e| ApiError::bad_request(format!("the request body is not valid: {e}")))?;
    let count = request.count.unwrap_or(1);
    if !(1..=MAX_STEPS).contains(&count) {
        let mut err = ApiError::bad_request(format!("count must be 1 to {MAX_STEPS}, not {count}"));
        err.params = serde_json::json!({ "count": count, "max": MAX_STEPS });
        return Err(err);
    }
    Ok(count)
}

/// `POST /api/games/{id}/undo`: takes back `count` moves (body `{"count": n}`, or none for
/// one); fewer when fewer were played, and none left is not an error.
pub async fn undo(
    sessions: Games,
    Path(id): Path<String>,
    payload: axum::body::Bytes,
) -> ApiResult<GameView> {
    step(&sessions, &id, &payload, PlayedGame::undo)
}

/// `POST /api/games/{id}/redo`: replays `count` moves taken back (body as for undo).
pub async fn redo(
    sessions: Games,
    Path(id): Path<String>,
    payload: axum::body::Bytes,
) -> ApiResult<GameView> {
    step(&sessions, &id, &payload, PlayedGame::redo)
}

/// Steps game `id` over the moves `payload` counts with `stepper` (undo or redo); a game
/// that moved is changed.
fn step(
    sessions: &Games,
    id: &str,
    payload: &[u8],
    stepper: fn(&mut PlayedGame, usize) -> usize,
) -> ApiResult<GameView> {
    let count = step_count(payload)?;
    with_game(sessions, id, |s| {
        if stepper(&mut s.played, count) > 0 {
            s.changed();
        }
        Ok(session_view(id, s))
    })
    .map(Json)
}

/// The engine's level for a reply.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineRequest {
    /// 0 (beginner) to 20 (full strength).
    pub level: u32,
    /// The engine's time left on a game clock, in milliseconds; without it the level's own
    /// pace applies.
    #[serde(default)]
    pub clock_ms: Option<u64>,
    /// The clock's increment per move, in milliseconds.
    #[serde(default)]
    pub increment_ms: u64,
}

/// The game after the engine's reply, and the reply itself.
#[derive(Serialize)]
pub struct EngineReply {
    /// The game after the reply.
    pub game: GameView,
    /// The move the engine played.
    pub reply: MoveView,
}

/// `POST /api/games/{id}/engine`: the engine plays the side to move at `level`.
pub async fn engine_move(
    sessions: Games,
    State(AppState { pool, .. }): State<AppState>,
    Path(id): Path<String>,
    Body(req): Body<EngineRequest>,
) -> ApiResult<EngineReply> {
    if req.level > MAX_LEVEL {
        return Err(ApiError::bad_request(format!(
            "level {} does not exist: levels run from 0 to {MAX_LEVEL}",
            req.level
        )));
    }
    if let Some(ms) = req.clock_ms {
        limits::at_most("clock_ms", ms, limits::CLOCK_MS_MAX, "ms")?;
    }
    limits::at_most(
        "increment_ms",
        req.increment_ms,
        limits::INCREMENT_MS_MAX,
        "ms",
    )?;
    let level = Level::new(req.level);
    let (
        Prepared {
            request,
            version,
            stop,
        },
        book,
    ) = with_game(&sessions, &id, |s| {
        let limits = match req.clock_ms {
            Some(ms) => SearchLimits {
                time_left: Some(Duration::from_millis(ms)),
                increment: Duration::from_millis(req.increment_ms),
                max_time: Some(limits::REPLY_TIME_MAX),
                ..SearchLimits::default()
            },
            None => SearchLimits {
                movetime: level.is_full_strength().then_some(FULL_STRENGTH_TIME),
                max_time: Some(limits::REPLY_TIME_MAX),
                ..SearchLimits::default()
            },
        };
        let prepared = prepare_search(s, limits)?;
        let book = book::proposals(
            &EccoBook,
            level,
            s.game().start(),
            s.game().moves(),
            book::seed_of(&id),
        );
        Ok((prepared, book))
    })?;
    let result = run_search(&pool, &id, SearchKind::Play, &stop, move |engine| {
        book::book_reply(engine, &request, &book).or_else(|| {
            engine.set_options(EngineOptions {
                level,
                multipv: 1,
                ..engine.options().clone()
            });
            engine.think(&request, &mut |_| {}).best_move
        })
    })
    .await?;
    with_game(&sessions, &id, |s| {
        if s.version != version {
            return Err(changed_meanwhile());
        }
        let m = result
            .ok_or_else(|| ApiError::new(ErrorCode::NoMove, "the engine has no legal move"))?;
        let reply = MoveView::new(s.game().position(), m);
        s.played.play(m).map_err(|e| match e {
            PlayError::Illegal(e) => crate::kit::error::internal_play(&e),
            e => e.into(),
        })?;
        s.changed();
        Ok(EngineReply {
            game: session_view(&id, s),
            reply,
        })
    })
    .map(Json)
}

/// A suggested move with its line and score.
#[derive(Serialize)]
pub struct Hint {
    /// The suggested move.
    pub hint: MoveView,
    /// The line it starts (ICCS).
    pub line: Vec<String>,
    /// Score from the side to move's point of view: `{"cp": n}` or `{"mate": n}`.
    pub score: Reported,
    /// What the move attacks that the other side has to answer, if anything (ICCS point and
    /// FEN letter of the piece).
    pub threat: Option<Threat>,
    /// What the move does at once, for saying the most important first: it mates, it takes,
    /// it checks, it attacks.
    pub effect: EffectView,
}

/// `POST /api/games/{id}/hint`: the engine's suggestion for the side to move.
pub async fn hint(
    sessions: Games,
    State(AppState { pool, .. }): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Hint> {
    let Prepared { request, stop, .. } = with_game(&sessions, &id, |s| {
        prepare_search(s, SearchLimits::default())
    })?;
    let pos = request.position.clone();
    let result = run_search(&pool, &id, SearchKind::Play, &stop, move |engine| {
        engine.hint(
            &request.position,
            &request.history,
            &request.history_moves,
            HINT_TIME,
        )
    })
    .await?;
    let m = result
        .best_move
        .ok_or_else(|| ApiError::new(ErrorCode::NoMove, "there is no legal move"))?;
    Ok(Json(Hint {
        hint: MoveView::new(&pos, m),
        line: result.pv.iter().map(|m| m.to_string()).collect(),
        score: result.score,
        threat: Threat::of(&pos, m),
        effect: EffectView::of(&pos, m),
    }))
}

/// A FEN to check.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FenRequest {
    /// The FEN.
    pub fen: String,
}

/// Whether a FEN is valid, with the rules core's reason when it is not.
#[derive(Serialize)]
pub struct FenCheck {
    /// Whether the position can be played.
    pub valid: bool,
    /// The reason it cannot, in plain words.
    pub message: Option<String>,
    /// The reason's code (`fen-rank-count` …), when invalid.
    pub code: Option<&'static str>,
    /// The reason's blanks, for wording it in another language (null when valid).
    pub params: Option<serde_json::Value>,
    /// The FEN as the rules core writes it, when valid.
    pub fen: Option<String>,
}

/// `POST /api/fen`: checks a FEN (a position editor validates as the user edits).
pub async fn check_fen(Body(req): Body<FenRequest>) -> ApiResult<FenCheck> {
    Ok(Json(match Position::from_fen(req.fen.trim()) {
        Ok(p) => FenCheck {
            valid: true,
            message: None,
            code: None,
            params: None,
            fen: Some(p.to_fen()),
        },
        Err(e) => FenCheck {
            valid: false,
            message: Some(e.to_string()),
            code: Some(e.code()),
            params: Some(crate::kit::reasons::fen_error_params(&e)),
            fen: None,
        },
    }))
}

/// One playing level the page offers.
#[derive(Serialize)]
pub struct LevelInfo {
    /// The engine level, 0–20.
    pub level: u32,
    /// A key for the name: `beginner` … `full`.
    pub key: &'static str,
    /// Approximate strength in Elo.
    pub elo: u32,
}

/// `GET /api/levels`: the named levels with their approximate strength.
pub async fn levels() -> Json<Vec<LevelInfo>> {
    Json(
        NAMED_LEVELS
            .iter()
            .map(|named| LevelInfo {
                level: named.level,
                key: named.key,
                elo: Level::new(named.level).label_elo(),
            })
            .collect(),
    )
}
