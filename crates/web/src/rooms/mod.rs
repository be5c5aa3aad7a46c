//! Play a friend: rooms made by one player and joined by link, played over one WebSocket
//! per tab. The room's rules (seats, turns, clocks, offers, results) are the domain crate's
//! (`xiangqi_rooms`); this module carries them to HTTP and WebSocket messages.
//!
//! - `POST /api/rooms` makes a room (`{side, minutes | seconds, increment, rules, name}`) and answers
//!   its id, link, short code and the creator's seat token;
//! - `GET /api/rooms/{id}` answers the room's state; `GET /api/room-codes/{code}` the id of
//!   the room with that short code;
//! - `GET /api/rooms/{id}/socket` opens the room's WebSocket (same origin only), see
//!   [`socket`];
//! - `GET /api/rooms/{id}/analysis` streams the analysis of the room's position to a
//!   spectator while the players allow it, see [`analysis`].

pub mod analysis;
pub mod gate;
pub mod hub;
pub mod lobby;
pub mod rating;
pub mod socket;
pub mod view;

use crate::kit::client_addr::ClientAddr;
use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::Body;
use crate::kit::viewer::Viewer;
use crate::state::AppState;
use axum::Json;
use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use hub::{RoomHub, no_room, now_ms, room_error};
use serde::{Deserialize, Serialize};
use view::{RoomView, room_view};
use xiangqi_rooms::{Player, Room, RoomSettings, Rules, SideChoice, TimeControl, token};

/// The rooms' routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/rooms", post(create))
        .route("/api/rooms/{id}", get(show))
        .route("/api/rooms/{id}/socket", get(open_socket))
        .route("/api/rooms/{id}/analysis", get(analysis::analysis_stream))
        .route("/api/room-codes/{code}", get(find_code))
        .route("/api/admin/rooms/{id}/close", post(close_room))
        .route("/api/lobby", get(lobby::list))
        .route("/api/lobby/stream", get(lobby::stream))
        .route("/api/lobby/seeks", post(lobby::post_seek))
        .route(
            "/api/lobby/seeks/{id}",
            axum::routing::delete(lobby::cancel_seek),
        )
        .route("/api/lobby/seeks/{id}/accept", post(lobby::accept_seek))
}

/// A new room.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewRoom {
    /// The creator's side: `red`, `black` or `random` (the default).
    #[serde(default = "random_side")]
    pub side: SideChoice,
    /// Main time in minutes; none (or 0) for an untimed game.
    #[serde(default)]
    pub minutes: Option<u32>,
    /// Main time in seconds, in place of minutes (a short game).
    #[serde(default)]
    pub seconds: Option<u32>,
    /// Seconds added after each move.
    #[serde(default)]
    pub increment: u32,
    /// `asian` (the default) or `cxq`.
    #[serde(default = "asian")]
    pub rules: Rules,
    /// The creator's name (an account plays under its own).
    #[serde(default)]
    pub name: String,
    /// Whether the games count for the players' ratings (both players signed in).
    #[serde(default)]
    pub rated: bool,
}

fn random_side() -> SideChoice {
    SideChoice::Random
}

fn asian() -> Rules {
    Rules::Asian
}

/// A room just made, for its creator.
#[derive(Serialize)]
pub struct Created {
    /// The room's id.
    pub id: String,
    /// The page's address of the room, to send to the friend.
    pub link: String,
    /// The short code that finds the room.
    pub code: String,
    /// The creator's seat token: a secret the page keeps, never in the link.
    pub token: String,
    /// The creator's side.
    pub side: &'static str,
    /// The room's state.
    pub room: RoomView,
}

/// The clock a new room or a seek asks for: none for an untimed game; 400 for both minutes
/// and seconds, 422 `bad-time-control` for one out of range.
pub(crate) fn clock_of(req: &NewRoom) -> Result<Option<TimeControl>, ApiError> {
    let seconds = match (req.minutes, req.seconds) {
        (Some(m), None) => m.saturating_mul(60),
        (None, Some(s)) => s,
        (None, None) => 0,
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request(
                "give the main time in minutes or in seconds, not both",
            ));
        }
    };
    if seconds == 0 && req.increment == 0 {
        Ok(None)
    } else {
        Ok(Some(
            TimeControl::new(seconds, req.increment).map_err(|e| room_error(&e))?,
        ))
    }
}

/// `POST /api/rooms`: makes a room with the creator in the seat chosen.
async fn create(
    State(hub): State<RoomHub>,
    viewer: Viewer,
    client: ClientAddr,
    Body(req): Body<NewRoom>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    if req.rated && !matches!(viewer, Viewer::Account(_)) {
        return Err(ApiError::new(
            ErrorCode::SignedOut,
            "rated games are played between signed-in players: sign in first",
        ));
    }
    let clock = clock_of(&req)?;
    let settings = RoomSettings {
        side: req.side,
        clock,
        rules: req.rules,
        rated: req.rated,
    };
    let token = token::seat_token();
    let (room, side) = Room::create(
        token::room_id(),
        token::short_code(),
        &settings,
        token.clone(),
        player_of(&viewer, &req.name),
        now_ms(),
    );
    let cell = hub.create(client, room).await?;
    let live = cell.lock();
    let view = room_view(&live, now_ms());
    Ok((
        StatusCode::CREATED,
        Json(Created {
            link: format!("/#/room/{}", view.id),
            id: view.id.clone(),
            code: view.code.clone(),
            token,
            side: crate::kit::view::side_code(side),
            room: view,
        }),
    ))
}

/// `POST /api/admin/rooms/{id}/close`: an administrator closes a room: a game going on ends
/// with no result (nothing kept of it, nothing rated), and no rematch follows.
async fn close_room(
    State(hub): State<RoomHub>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    viewer.require_admin()?;
    let cell = hub.find(&id).await?;
    hub.act(&cell, |live, now| {
        live.room.close(now);
        Ok(())
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/rooms/{id}`: the room's state.
async fn show(
    State(hub): State<RoomHub>,
    Path(id): Path<String>,
) -> Result<Json<RoomView>, ApiError> {
    let cell = hub.find(&id).await?;
    let live = cell.lock();
    Ok(Json(room_view(&live, now_ms())))
}

/// The room a short code names.
#[derive(Serialize)]
pub struct Found {
    /// The room's id.
    pub id: String,
    /// The page's address of the room.
    pub link: String,
}

/// `GET /api/room-codes/{code}`: the room with that short code (spaces, dashes and case
/// ignored).
async fn find_code(
    State(hub): State<RoomHub>,
    Path(code): Path<String>,
) -> Result<Json<Found>, ApiError> {
    let id = match token::normal_code(&code) {
        Some(c) => hub.find_code(&c).await,
        None => None,
    }
    .ok_or_else(|| no_room(&code))?;
    Ok(Json(Found {
        link: format!("/#/room/{id}"),
        id,
    }))
}

/// `GET /api/rooms/{id}/socket`: the room's WebSocket (the server's host check has made sure
/// it comes from the app's own page).
async fn open_socket(
    State(hub): State<RoomHub>,
    Path(id): Path<String>,
    viewer: Viewer,
    client: ClientAddr,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let cell = hub.find(&id).await?;
    // The socket holds its places (a connection's, its address's, its room's) while open.
    let pass = hub.admit(client, &cell)?;
    Ok(upgrade
        .max_message_size(64 * 1024)
        .max_frame_size(64 * 1024)
        .on_upgrade(move |socket| async move {
            socket::serve(socket, hub, cell, viewer).await;
            drop(pass);
        }))
}

/// Who `viewer` sits down as, under the name they gave: an account under its own name, with
/// its archive; a guest with theirs; a visitor with none.
pub(crate) fn player_of(viewer: &Viewer, name: &str) -> Player {
    let account = match viewer {
        Viewer::Account(account) => Some(account.name.clone()),
        _ => None,
    };
    Player {
        name: account.clone().unwrap_or_else(|| name.to_string()),
        owner: viewer.owner(),
        account,
    }
}
