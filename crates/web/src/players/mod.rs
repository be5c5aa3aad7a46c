//! Players' profiles on a hosted server: `GET /api/players/{name}` answers an account's
//! ratings by speed (with their deviation, and whether they are still provisional), its last
//! rated games (the opponent, the result, the rating's change, the room to replay it in, and
//! for the player themself the game's row in their My games to review it) and the history of
//! each rating, for a chart. Profiles are public: anyone may look.

use crate::kit::archive_store::ArchiveService;
use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::viewer::{Accounts, Hosting, Viewer};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use std::collections::BTreeMap;
use xiangqi_accounts::{PROVISIONAL_DEVIATION, Speed};

/// The rated games a profile lists.
const GAMES_SHOWN: usize = 20;
/// The rated games a profile's history is drawn from.
const HISTORY_GAMES: usize = 500;

/// A rating as a profile shows it.
#[derive(Serialize)]
pub struct RatingView {
    /// `bullet`, `blitz`, `rapid` or `classical`.
    pub speed: String,
    /// The rating, rounded.
    pub rating: i64,
    /// Its deviation, rounded.
    pub deviation: i64,
    /// Whether it is still provisional (shown with a "?").
    pub provisional: bool,
    /// Rated games played at this speed.
    pub games: u32,
}

/// A rated game as a profile lists it, from the player's side.
#[derive(Serialize)]
pub struct PlayedView {
    /// The room it was played in (`#/room/<id>` shows its last game).
    pub room: String,
    /// Its number in the room.
    pub number: u32,
    /// Its speed.
    pub speed: String,
    /// The player's side: `red` or `black`.
    pub side: &'static str,
    /// The opponent's name (empty for a deleted account).
    pub opponent: String,
    /// `win`, `loss` or `draw`, for the player.
    pub outcome: &'static str,
    /// The player's rating before the game and after it, rounded.
    pub rating: (i64, i64),
    /// When it ended (milliseconds since 1970, UTC).
    pub ended_ms: i64,
    /// The game's row in the player's own My games, to review it: only for the player.
    pub row: Option<i64>,
}

/// An account's profile.
#[derive(Serialize)]
pub struct ProfileView {
    /// The name.
    pub name: String,
    /// When the account was made.
    pub since_ms: i64,
    /// The ratings, by speed, fastest first.
    pub ratings: Vec<RatingView>,
    /// The last rated games, the latest first.
    pub games: Vec<PlayedView>,
    /// Each speed's rating after each game, oldest first: `[ended_ms, rating]`.
    pub history: BTreeMap<String, Vec<(i64, i64)>>,
}

/// `GET /api/players/{name}`: the profile of the account named `name` (any case).
pub async fn profile(
    State(accounts): State<Accounts>,
    State(archive): State<ArchiveService>,
    viewer: Viewer,
    Path(name): Path<String>,
) -> Result<Json<ProfileView>, ApiError> {
    if accounts.hosting() == Hosting::Own {
        return Err(ApiError::new(
            ErrorCode::NoAccounts,
            "this app is one learner's own: it has no players' profiles",
        ));
    }
    let key = xiangqi_accounts::key_of(&name);
    let me = match &viewer {
        Viewer::Account(account) => Some(account.id),
        _ => None,
    };
    let found = archive
        .run(move |s| {
            let Some(account) = s.account_named(&key)? else {
                return Ok(None);
            };
            let ratings = s.ratings(account.id)?;
            let games = s.rated_games(account.id, HISTORY_GAMES)?;
            // The player's own rows of their games, to review them.
            let mut rows = Vec::new();
            for g in games.iter().take(GAMES_SHOWN) {
                let side = if g.game.red == account.id {
                    "red"
                } else {
                    "black"
                };
                let row = if me == Some(account.id) {
                    let base = format!("room-{}-{}", g.game.room, g.game.number);
                    match s.id_of_key(&format!("{base}-{side}"))? {
                        Some(id) => Some(id),
                        None => s.id_of_key(&base)?,
                    }
                } else {
                    None
                };
                rows.push(row);
            }
            Ok(Some((account, ratings, games, rows)))
        })
        .await?;
    let Some((account, ratings, games, rows)) = found else {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!("there is no player named {name}"),
        ));
    };
    let mut ratings: Vec<RatingView> = ratings
        .into_iter()
        .map(|r| RatingView {
            speed: r.speed,
            rating: r.rating.round() as i64,
            deviation: r.deviation.round() as i64,
            provisional: r.deviation > PROVISIONAL_DEVIATION,
            games: r.games,
        })
        .collect();
    let order = |speed: &str| speed.parse::<Speed>().map_or(usize::MAX, |s| s as usize);
    ratings.sort_by_key(|r| order(&r.speed));
    let mut history: BTreeMap<String, Vec<(i64, i64)>> = BTreeMap::new();
    for g in games.iter().rev() {
        let after = if g.game.red == account.id {
            g.red_rating.1
        } else {
            g.black_rating.1
        };
        history
            .entry(g.game.speed.clone())
            .or_default()
            .push((g.game.ended_ms, after.round() as i64));
    }
    let games = games
        .iter()
        .take(GAMES_SHOWN)
        .zip(rows)
        .map(|(g, row)| {
            let red = g.game.red == account.id;
            let (side, opponent, rating) = if red {
                ("red", g.black_name.clone(), g.red_rating)
            } else {
                ("black", g.red_name.clone(), g.black_rating)
            };
            let outcome = match (g.game.result.as_str(), red) {
                ("red-wins", true) | ("black-wins", false) => "win",
                ("red-wins", false) | ("black-wins", true) => "loss",
                _ => "draw",
            };
            PlayedView {
                room: g.game.room.clone(),
                number: g.game.number,
                speed: g.game.speed.clone(),
                side,
                opponent,
                outcome,
                rating: (rating.0.round() as i64, rating.1.round() as i64),
                ended_ms: g.game.ended_ms,
                row,
            }
        })
        .collect();
    Ok(Json(ProfileView {
        name: account.name,
        since_ms: account.created_ms,
        ratings,
        games,
        history,
    }))
}

/// The profiles' routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/players/{name}", get(profile))
}
