//! Today's training: the day's dose and the streak, for the learner who asks (see
//! [`xiangqi_teaching::today`] for what the dose holds and how a streak counts).
//!
//! - `GET /api/today?day=YYYY-MM-DD&lang=`: the streak, what was trained on the day, the next
//!   lesson, the day's puzzles (chosen at the day's first ask and kept for the day, each said
//!   tried or solved once rated), the ending to practise. The opening trainer's card is the
//!   trainer's own answer (`GET /api/trainer`).
//! - `POST /api/today/trained` `{day, kind}`: one piece of the day's training finished
//!   (`lesson`, `puzzle`, `card`, `ending`); answers the day as `GET` does.
//!
//! The day is the learner's (their page's calendar day). Each day is kept under the progress
//! topic `today`, keyed by the day: `{trained: [kinds], puzzles: [ids]}`; a day read and
//! changed in one step of the store, so that two pieces finished together both count.

use crate::kit::archive_store::ArchiveService;
use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::{Body, Params};
use crate::kit::learner::{PUZZLE_RATING_TOPIC, kept_rating, page_value, rated_puzzle, strings};
use crate::kit::viewer::{Viewer, now_ms};
use crate::kit::wire::Language;
use crate::state::AppState;
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use xiangqi_store::{Progress, Store, StoreError};
use xiangqi_teaching::endgames::{Endgame, endgames};
use xiangqi_teaching::learner_rating::START_RATING;
use xiangqi_teaching::puzzles::{Puzzle, shipped};
use xiangqi_teaching::today::{
    Day, Training, daily_puzzles, ending_to_practise, next_lesson, streak,
};
use xiangqi_teaching::{CourseId, Lang, Lesson, lessons};

/// The progress topic of the days trained.
const TOPIC: &str = "today";

/// A day as kept: what was trained and the day's puzzles.
#[derive(Serialize, Deserialize, Default, Clone)]
struct DayKept {
    #[serde(default)]
    trained: Vec<String>,
    #[serde(default)]
    puzzles: Vec<String>,
}

/// The query of `GET /api/today`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TodayQuery {
    /// The learner's day, `YYYY-MM-DD`.
    pub day: String,
    /// The language of the titles.
    #[serde(default)]
    pub lang: Language,
}

/// The body of `POST /api/today/trained`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainedRequest {
    /// The learner's day, `YYYY-MM-DD`.
    pub day: String,
    /// What was finished: `lesson`, `puzzle`, `card` or `ending`.
    pub kind: String,
    /// The language of the titles in the answer.
    #[serde(default)]
    pub lang: Language,
}

/// The lesson to take next.
#[derive(Serialize)]
pub struct LessonView {
    /// `rules` or `patterns`.
    pub course: &'static str,
    /// The lesson's id.
    pub id: &'static str,
    /// Its title in the language asked for.
    pub title: String,
    /// A pattern's Chinese name and pinyin.
    pub chinese: Option<String>,
    /// The pinyin of the Chinese name.
    pub pinyin: Option<String>,
    /// Its place in its course (1 for the first) and the course's length.
    pub number: usize,
    /// The lessons of its course.
    pub of: usize,
}

/// One of the day's puzzles.
#[derive(Serialize)]
pub struct DailyPuzzleView {
    /// The puzzle's id.
    pub id: String,
    /// Its rating.
    pub rating: u32,
    /// Its themes' codes.
    pub themes: Vec<String>,
    /// Whether the learner has tried it (it was rated for them).
    pub tried: bool,
    /// Whether they solved it.
    pub solved: bool,
}

/// The ending to practise.
#[derive(Serialize)]
pub struct EndingToPractise {
    /// The ending's id.
    pub id: String,
    /// Its Chinese name.
    pub chinese: String,
    /// Its title in the language asked for.
    pub title: String,
    /// Its positions finished.
    pub finished: usize,
    /// Its positions.
    pub positions: usize,
}

/// The day's dose and the streak.
#[derive(Serialize)]
pub struct TodayView {
    /// The day, `YYYY-MM-DD`.
    pub day: String,
    /// Days in a row trained, up to today (or up to yesterday while today has nothing yet).
    pub streak: u32,
    /// What was trained on the day, in the dose's order.
    pub trained: Vec<&'static str>,
    /// The learner's puzzle rating.
    pub rating: f64,
    /// The next lesson; none once every lesson is passed.
    pub lesson: Option<LessonView>,
    /// The day's puzzles, easiest first.
    pub puzzles: Vec<DailyPuzzleView>,
    /// The ending to practise.
    pub ending: Option<EndingToPractise>,
}

/// Reads a day, or 400 saying what a day looks like.
fn read_day(text: &str) -> Result<Day, ApiError> {
    text.parse::<Day>().map_err(|e| {
        let mut err = ApiError::bad_request(e.to_string());
        err.params = serde_json::json!({ "day": text });
        err
    })
}

/// The kept days of `owner`, by day.
fn kept_days(store: &dyn Store, owner: &str) -> Result<Vec<(Day, DayKept)>, StoreError> {
    Ok(store
        .progress(owner, TOPIC)?
        .into_iter()
        .filter_map(|p| {
            let day = p.key.parse::<Day>().ok()?;
            let kept = serde_json::from_str::<DayKept>(&p.value).ok()?;
            Some((day, kept))
        })
        .collect())
}

/// Keeps `kept` as the day `day` of `owner`.
fn keep_day(
    store: &mut dyn Store,
    owner: &str,
    day: Day,
    kept: &DayKept,
) -> Result<(), StoreError> {
    store.save_progress(&Progress {
        owner: owner.to_string(),
        topic: TOPIC.to_string(),
        key: day.to_string(),
        value: serde_json::to_string(kept).unwrap_or_default(),
        updated_ms: now_ms(),
    })
}

/// What the dose is chosen from: the shipped puzzles, the two courses' lessons and the
/// endgame course, read once for the whole run (500 when one does not read).
struct Catalogues {
    puzzles: &'static [Puzzle],
    rules: &'static [Lesson],
    patterns: &'static [Lesson],
    endings: &'static [Endgame],
}

impl Catalogues {
    fn read() -> Result<Catalogues, ApiError> {
        let unreadable =
            |e: &dyn std::fmt::Display| ApiError::new(ErrorCode::LessonsUnreadable, e.to_string());
        Ok(Catalogues {
            puzzles: shipped().map_err(|e| {
                ApiError::new(
                    ErrorCode::PuzzlesUnreadable,
                    format!("the shipped puzzles cannot be read: {e}"),
                )
            })?,
            rules: lessons(CourseId::Rules).map_err(|e| unreadable(e))?,
            patterns: lessons(CourseId::Patterns).map_err(|e| unreadable(e))?,
            endings: endgames().map_err(|e| unreadable(e))?,
        })
    }

    fn lessons(&self, course: CourseId) -> &'static [Lesson] {
        match course {
            CourseId::Rules => self.rules,
            CourseId::Patterns => self.patterns,
        }
    }
}

/// The day's dose for `owner` on `day`, choosing (and keeping) the day's puzzles at the day's
/// first ask; `trained` is recorded first when given.
fn dose(
    store: &mut dyn Store,
    owner: &str,
    day: Day,
    lang: Lang,
    trained: Option<Training>,
    catalogues: &Catalogues,
) -> Result<TodayView, StoreError> {
    let days = kept_days(store, owner)?;
    let mut kept = days
        .iter()
        .find(|(d, _)| *d == day)
        .map(|(_, k)| k.clone())
        .unwrap_or_default();
    let mut changed = false;
    if let Some(t) = trained
        && !kept.trained.iter().any(|k| k == t.code())
    {
        kept.trained.push(t.code().to_string());
        changed = true;
    }
    // The rating and the puzzles rated.
    let rating_values = store.progress(owner, PUZZLE_RATING_TOPIC)?;
    let rating = kept_rating(&rating_values).map_or(START_RATING, |s| s.rating);
    let rated: Vec<(String, bool)> = rating_values
        .iter()
        .filter_map(|p| {
            let id = rated_puzzle(&p.key)?;
            let solved = serde_json::from_str::<serde_json::Value>(&p.value)
                .ok()
                .and_then(|v| v.get("solved").and_then(serde_json::Value::as_bool))
                .unwrap_or(false);
            Some((id.to_string(), solved))
        })
        .collect();
    let catalog = catalogues.puzzles;
    if kept.puzzles.is_empty() {
        let tried: Vec<String> = rated.iter().map(|(id, _)| id.clone()).collect();
        kept.puzzles = daily_puzzles(catalog, &tried, rating, day)
            .iter()
            .map(|p| p.id.clone())
            .collect();
        changed = !kept.puzzles.is_empty() || changed;
    }
    if changed {
        keep_day(store, owner, day, &kept)?;
    }
    let mut trained_days: Vec<Day> = days
        .iter()
        .filter(|(d, k)| *d != day && !k.trained.is_empty())
        .map(|(d, _)| *d)
        .collect();
    if !kept.trained.is_empty() {
        trained_days.push(day);
    }
    let puzzles = kept
        .puzzles
        .iter()
        .filter_map(|id| catalog.iter().find(|p| p.id == *id))
        .map(|p| {
            let result = rated.iter().find(|(id, _)| *id == p.id);
            DailyPuzzleView {
                id: p.id.clone(),
                rating: p.rating,
                themes: p.themes.iter().map(|t| t.to_string()).collect(),
                tried: result.is_some(),
                solved: result.is_some_and(|(_, solved)| *solved),
            }
        })
        .collect();
    // The courses as the page keeps them.
    let rules_passed = strings(&page_value(store, owner, "course")?, "done");
    let patterns_passed = strings(&page_value(store, owner, "patterns")?, "done");
    let lesson = next_lesson(|course| match course {
        CourseId::Rules => rules_passed.clone(),
        CourseId::Patterns => patterns_passed.clone(),
    })
    .and_then(|(course, id)| {
        let all = catalogues.lessons(course);
        let i = all.iter().position(|l| l.id == id)?;
        Some(LessonView {
            course: course.code(),
            id,
            title: all[i].title.get(lang).to_string(),
            chinese: all[i].chinese.clone(),
            pinyin: all[i].pinyin.clone(),
            number: i + 1,
            of: all.len(),
        })
    });
    let finished = strings(&page_value(store, owner, "endgames")?, "done");
    let ending = ending_to_practise(catalogues.endings, &finished, day).map(|e| EndingToPractise {
        id: e.id.clone(),
        chinese: e.chinese.clone(),
        title: e.title.get(lang).to_string(),
        finished: e.finished_positions(&finished),
        positions: e.positions.len(),
    });
    Ok(TodayView {
        day: day.to_string(),
        streak: streak(&trained_days, day),
        trained: Training::ALL
            .into_iter()
            .filter(|t| kept.trained.iter().any(|k| k == t.code()))
            .map(Training::code)
            .collect(),
        rating,
        lesson,
        puzzles,
        ending,
    })
}

/// `GET /api/today`: the day's dose and the streak.
pub async fn today(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Params(q): Params<TodayQuery>,
) -> Result<Json<TodayView>, ApiError> {
    let owner = viewer.require_owner()?;
    let day = read_day(&q.day)?;
    let (lang, catalogues) = (q.lang.0, Catalogues::read()?);
    let view = archive
        .run(move |s| dose(s, &owner, day, lang, None, &catalogues))
        .await?;
    Ok(Json(view))
}

/// `POST /api/today/trained`: a piece of the day's training finished.
pub async fn trained(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
    Body(req): Body<TrainedRequest>,
) -> Result<Json<TodayView>, ApiError> {
    let owner = viewer.require_owner()?;
    let day = read_day(&req.day)?;
    let kind = Training::from_code(&req.kind).ok_or_else(|| {
        let mut err = ApiError::bad_request(format!(
            "`{}` is not a kind of training: lesson, puzzle, card or ending",
            req.kind.chars().take(40).collect::<String>()
        ));
        err.params = serde_json::json!({ "kind": req.kind });
        err
    })?;
    let (lang, catalogues) = (req.lang.0, Catalogues::read()?);
    let view = archive
        .run(move |s| dose(s, &owner, day, lang, Some(kind), &catalogues))
        .await?;
    Ok(Json(view))
}

/// The routes of today's training.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/today", get(today))
        .route("/api/today/trained", post(trained))
}
