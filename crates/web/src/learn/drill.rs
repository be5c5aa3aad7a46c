//! The perpetual-check drill on a lesson board (`POST /api/lessons/drill`): the learner's
//! escapes are played in the rules core's game of the exercise (teaching's `Drill`), the
//! server answers each with the app's check, counts the checks and, when the rules end the
//! game, gives the verdict in the asked language. The page only shows what it is told.

use super::exercise_of_kind;
use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::{Body, illegal};
use crate::kit::view::{MoveView, side_code};
use crate::kit::wire::{Course, Iccs, Language};
use axum::Json;
use serde::{Deserialize, Serialize};
use xiangqi_teaching::lesson::{Drill, DrillRefusal, verdict_words};
use xiangqi_teaching::{Kind, way_out_of_check};

/// The body of `POST /api/lessons/drill`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrillRequest {
    /// The course (`rules` when absent).
    #[serde(default)]
    pub course: Course,
    /// The lesson's id, e.g. `perpetual`.
    pub lesson: String,
    /// The exercise's place in the lesson, from 0.
    pub exercise: usize,
    /// The learner's moves so far, in order (ICCS); the app's replies are the server's.
    #[serde(default)]
    pub moves: Vec<Iccs>,
    /// The language of the verdict (`en` when absent).
    #[serde(default)]
    pub lang: Language,
}

/// The rules core's ruling that ended the drill.
#[derive(Serialize)]
pub struct DrillVerdict {
    /// The verdict's kind, e.g. `perpetual-check`.
    pub code: &'static str,
    /// `red-wins`, `black-wins` or `draw`.
    pub result: &'static str,
    /// The side that loses: `red` or `black` (none for a draw).
    pub loser: Option<&'static str>,
    /// The rule set that judged: `asian` or `cxq`.
    pub rules: &'static str,
    /// How many checks (or attacks) in a row were counted.
    pub count: u32,
    /// The verdict in words in the asked language.
    pub text: String,
}

/// Where the drill stands after the learner's moves.
#[derive(Serialize)]
pub struct DrillView {
    /// The position now, as FEN.
    pub fen: String,
    /// Whether the side to move (the learner) is in check.
    pub check: bool,
    /// The moves played from the exercise's position: the learner's escapes and the app's
    /// checks, alternating.
    pub moves: Vec<MoveView>,
    /// The app's reply to the last escape; none before the first escape, after a refused
    /// move and once the game is over.
    pub reply: Option<MoveView>,
    /// The check that led to the exercise's position (the first check).
    pub first_check: MoveView,
    /// The app's checks in a row so far, the first one included.
    pub checks: u32,
    /// How many checks in a row the rules count as perpetual (6).
    pub limit: u32,
    /// A way out of the check now (the general's own step first), for a hint.
    pub escape: Option<MoveView>,
    /// The rules core's verdict, once it has ended the game.
    pub verdict: Option<DrillVerdict>,
    /// The learner's last move refused, with the rules core's reason (`{code, message,
    /// highlights, params}`); the position is then the one before it.
    pub refused: Option<serde_json::Value>,
}

fn view(
    drill: &Drill,
    reply: bool,
    refused: Option<serde_json::Value>,
    lang: Language,
) -> DrillView {
    let game = drill.game();
    let written = |ply: usize| {
        let pos = game.position_at(ply).expect("a ply of the game");
        MoveView::new(pos, game.moves()[ply])
    };
    let moves: Vec<MoveView> = (1..game.moves().len()).map(written).collect();
    let pos = drill.position();
    let verdict = drill.verdict().map(|v| DrillVerdict {
        code: v.kind.code(),
        result: v.result().as_str(),
        loser: v.side.map(side_code),
        rules: v.rules.name(),
        count: v.count,
        text: verdict_words(v, lang.0),
    });
    let over = drill.outcome().is_some();
    DrillView {
        fen: pos.to_fen(),
        check: pos.in_check(),
        reply: (reply && refused.is_none() && moves.len().is_multiple_of(2))
            .then(|| moves.last().cloned())
            .flatten(),
        moves,
        first_check: written(0),
        checks: drill.checks(),
        limit: drill.limit(),
        escape: (!over)
            .then(|| way_out_of_check(pos).map(|m| MoveView::new(pos, m)))
            .flatten(),
        verdict,
        refused,
    }
}

/// `POST /api/lessons/drill`: plays the learner's `moves` in the drill of exercise `exercise`
/// of `lesson`, each answered with the app's check, and says where it stands: the count, and
/// at the end the verdict in `lang`. A move that does not get out of check is answered as
/// `refused` with the rules core's reason; 404 `no-exercise` for a place with no drill, 400 for
/// a move after the game is over.
pub async fn drill(Body(req): Body<DrillRequest>) -> Result<Json<DrillView>, ApiError> {
    let exercise = exercise_of_kind(
        req.course.0,
        &req.lesson,
        req.exercise,
        Kind::Perpetual,
        "perpetual drill",
    )?;
    let mut drill = exercise
        .drill()
        .map_err(|e| ApiError::new(ErrorCode::LessonsUnreadable, e))?;
    let mut refused = None;
    for &Iccs(m) in &req.moves {
        match drill.play(m) {
            Ok(_) => {}
            Err(DrillRefusal::Illegal(reason)) => {
                refused = Some(illegal(&reason).detail_json());
                break;
            }
            Err(DrillRefusal::Over) => {
                return Err(ApiError::bad_request(format!(
                    "the drill is over after {} checks: {m} comes after the verdict",
                    drill.checks()
                )));
            }
        }
    }
    Ok(Json(view(&drill, !req.moves.is_empty(), refused, req.lang)))
}
