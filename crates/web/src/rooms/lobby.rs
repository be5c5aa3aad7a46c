//! The lobby: open challenges ([`Seek`]) listed live. A player posts a seek (a time control,
//! rated or casual, a side, the rules); everyone with the lobby open sees it at once; another
//! player accepts it, and both are seated in a new room: the accepter is answered with their
//! seat, the seeker is told on their lobby stream. A seek lasts while its player has the lobby
//! open (and [`SEEK_LIFE`] at most).
//!
//! - `GET /api/lobby`: the open seeks.
//! - `GET /api/lobby/stream`: server-sent events, `seeks` (the list, at once and after each
//!   change) and, to a seeker whose seek was accepted, `matched` `{id, link, token, side}`.
//! - `POST /api/lobby/seeks` `{minutes | seconds, increment, rated, side, rules}`: posts one.
//! - `DELETE /api/lobby/seeks/{id}`: takes one's own back.
//! - `POST /api/lobby/seeks/{id}/accept`: accepts one: 201 with the new room and one's seat.

use crate::kit::archive_store::ArchiveService;
use crate::kit::client_addr::ClientAddr;
use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::extract::Body;
use crate::kit::stream::{EventStream, event, events};
use crate::kit::viewer::Viewer;
use crate::rooms::hub::{RoomHub, now_ms};
use crate::rooms::view::rules_name;
use crate::rooms::{NewRoom, clock_of, player_of};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{broadcast, mpsc};
use xiangqi_accounts::{PROVISIONAL_DEVIATION, Speed};
use xiangqi_rooms::{Seek, SeekError, side_name};

/// How long a seek stays open at most.
pub const SEEK_LIFE: std::time::Duration = std::time::Duration::from_secs(30 * 60);
/// Seeks one player may have open at once.
pub const SEEKS_PER_PLAYER: usize = 3;
/// Seeks open at once on the server.
pub const MAX_SEEKS: usize = 500;

/// A seek as the lobby keeps it: with the seeker's rating at its speed, when they have one.
#[derive(Clone)]
struct Open {
    seek: Seek,
    rating: Option<(i64, bool)>,
}

/// What the lobby's streams hear.
#[derive(Clone, Debug)]
enum Heard {
    /// The list changed.
    Seeks,
    /// A seek of `owner`'s was accepted: their seat.
    Matched { owner: String, seat: Seated },
}

/// A seat in a room just made from a seek.
#[derive(Clone, Debug, Serialize)]
pub struct Seated {
    /// The room's id.
    pub id: String,
    /// The page's address of the room.
    pub link: String,
    /// The seat's token, for the player's page to keep.
    pub token: String,
    /// The player's side.
    pub side: &'static str,
}

/// The open seeks, and who has the lobby open. Cheap to clone.
#[derive(Clone)]
pub struct Lobby {
    inner: Arc<Inner>,
}

struct Inner {
    seeks: Mutex<Vec<Open>>,
    /// How many lobby streams each owner has open.
    watching: Mutex<HashMap<String, usize>>,
    heard: broadcast::Sender<Heard>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            inner: Arc::new(Inner {
                seeks: Mutex::default(),
                watching: Mutex::default(),
                heard: broadcast::channel(256).0,
            }),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Lobby {
    /// The open seeks, the oldest first, those past [`SEEK_LIFE`] dropped.
    fn open(&self) -> Vec<Open> {
        let now = now_ms();
        let life = SEEK_LIFE.as_millis() as u64;
        let mut seeks = lock(&self.inner.seeks);
        seeks.retain(|o| now.saturating_sub(o.seek.created_ms) < life);
        seeks.clone()
    }

    fn changed(&self) {
        let _ = self.inner.heard.send(Heard::Seeks);
    }

    /// Drops every seek of `owner`'s.
    fn drop_seeks_of(&self, owner: &str) {
        let mut seeks = lock(&self.inner.seeks);
        let before = seeks.len();
        seeks.retain(|o| o.seek.by.owner.as_deref() != Some(owner));
        if seeks.len() != before {
            drop(seeks);
            self.changed();
        }
    }
}

/// A seek as the lobby lists it.
#[derive(Serialize)]
pub struct SeekView {
    /// Its id.
    pub id: String,
    /// The seeker's name.
    pub name: String,
    /// The seeker's account, when they have one (`#/@/<account>`).
    pub account: Option<String>,
    /// The seeker's rating at the seek's speed, when they have one.
    pub rating: Option<i64>,
    /// Whether that rating is provisional.
    pub provisional: bool,
    /// Main time in seconds (0 for an untimed game).
    pub seconds: u32,
    /// Seconds added a move.
    pub increment: u32,
    /// `bullet`, `blitz`, `rapid` or `classical`.
    pub speed: &'static str,
    /// Whether the game counts for the ratings.
    pub rated: bool,
    /// The seeker's side: `red`, `black` or `random`.
    pub side: &'static str,
    /// `asian` or `cxq`.
    pub rules: &'static str,
    /// Whether it is the asker's own.
    pub mine: bool,
}

fn view(open: &Open, owner: Option<&str>) -> SeekView {
    let s = &open.seek;
    SeekView {
        id: s.id.clone(),
        name: s.by.name.clone(),
        account: s.by.account.clone(),
        rating: open.rating.map(|r| r.0),
        provisional: open.rating.is_some_and(|r| r.1),
        seconds: s.clock.map_or(0, |c| c.seconds),
        increment: s.clock.map_or(0, |c| c.increment),
        speed: Speed::of(s.clock.map(|c| (c.seconds, c.increment))).as_str(),
        rated: s.rated,
        side: match s.side {
            xiangqi_rooms::SideChoice::Red => "red",
            xiangqi_rooms::SideChoice::Black => "black",
            xiangqi_rooms::SideChoice::Random => "random",
        },
        rules: rules_name(s.rules),
        mine: owner.is_some() && s.by.owner.as_deref() == owner,
    }
}

/// The open seeks.
#[derive(Serialize)]
pub struct LobbyView {
    /// The seeks, the oldest first.
    pub seeks: Vec<SeekView>,
}

fn lobby_view(lobby: &Lobby, owner: Option<&str>) -> LobbyView {
    LobbyView {
        seeks: lobby.open().iter().map(|o| view(o, owner)).collect(),
    }
}

/// `GET /api/lobby`: the open seeks.
pub async fn list(State(lobby): State<Lobby>, viewer: Viewer) -> Json<LobbyView> {
    Json(lobby_view(&lobby, viewer.owner().as_deref()))
}

/// `GET /api/lobby/stream`: the seeks, live, and a seeker's match.
pub async fn stream(State(lobby): State<Lobby>, viewer: Viewer) -> EventStream {
    let owner = viewer.owner();
    let mut heard = lobby.inner.heard.subscribe();
    let (tx, rx) = mpsc::channel(16);
    if let Some(owner) = &owner {
        *lock(&lobby.inner.watching)
            .entry(owner.clone())
            .or_default() += 1;
    }
    tokio::spawn(async move {
        let send_list = |tx: &mpsc::Sender<_>| {
            tx.try_send(event("seeks", &lobby_view(&lobby, owner.as_deref())))
        };
        let _ = send_list(&tx);
        loop {
            tokio::select! {
                () = tx.closed() => break,
                got = heard.recv() => match got {
                    Ok(Heard::Seeks) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        let _ = send_list(&tx);
                    }
                    Ok(Heard::Matched { owner: theirs, seat }) => {
                        if owner.as_deref() == Some(theirs.as_str()) {
                            let _ = tx.send(event("matched", &seat)).await;
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
            }
        }
        // The seeker left the lobby: their seeks go once no page of theirs has it open.
        if let Some(owner) = owner {
            let mut watching = lock(&lobby.inner.watching);
            let left = watching.get(&owner).copied().unwrap_or(1).saturating_sub(1);
            if left == 0 {
                watching.remove(&owner);
                drop(watching);
                lobby.drop_seeks_of(&owner);
            } else {
                watching.insert(owner, left);
            }
        }
    });
    events(rx)
}

/// A refusal of the lobby's.
fn seek_error(e: &SeekError) -> ApiError {
    let code = match e {
        SeekError::RatedNeedsAccount => ErrorCode::SignedOut,
        SeekError::OwnSeek => ErrorCode::OwnSeek,
        SeekError::Gone => ErrorCode::NoSeek,
    };
    ApiError::new(code, e.to_string())
}

/// `POST /api/lobby/seeks`: posts a seek (the same fields as a new room's; its name is the
/// asker's).
pub async fn post_seek(
    State(lobby): State<Lobby>,
    State(archive): State<ArchiveService>,
    viewer: Viewer,
    Body(req): Body<NewRoom>,
) -> Result<(StatusCode, Json<SeekView>), ApiError> {
    let owner = viewer.require_owner()?;
    let clock = clock_of(&req)?;
    let by = player_of(&viewer, &req.name);
    let seek = Seek::new(by, clock, req.rated, req.side, req.rules, now_ms())
        .map_err(|e| seek_error(&e))?;
    let rating = match &viewer {
        Viewer::Account(account) => {
            let (id, speed) = (
                account.id,
                Speed::of(clock.map(|c| (c.seconds, c.increment))),
            );
            archive
                .run(move |s| s.ratings(id))
                .await
                .ok()
                .and_then(|all| all.into_iter().find(|r| r.speed == speed.as_str()))
                .map(|r| (r.rating.round() as i64, r.deviation > PROVISIONAL_DEVIATION))
        }
        _ => None,
    };
    let open = Open { seek, rating };
    {
        let mut seeks = lock(&lobby.inner.seeks);
        let mine = seeks
            .iter()
            .filter(|o| o.seek.by.owner.as_deref() == Some(owner.as_str()))
            .count();
        if mine >= SEEKS_PER_PLAYER || seeks.len() >= MAX_SEEKS {
            let max = if mine >= SEEKS_PER_PLAYER {
                SEEKS_PER_PLAYER
            } else {
                MAX_SEEKS
            };
            return Err(ApiError::new(
                ErrorCode::TooManySeeks,
                format!("at most {max} challenges may be open at once"),
            )
            .with_params(serde_json::json!({ "max": max })));
        }
        seeks.push(open.clone());
    }
    lobby.changed();
    Ok((StatusCode::CREATED, Json(view(&open, Some(&owner)))))
}

/// `DELETE /api/lobby/seeks/{id}`: takes one's own seek back.
pub async fn cancel_seek(
    State(lobby): State<Lobby>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let owner = viewer.require_owner()?;
    let mut seeks = lock(&lobby.inner.seeks);
    let at = seeks
        .iter()
        .position(|o| o.seek.id == id && o.seek.by.owner.as_deref() == Some(owner.as_str()))
        .ok_or_else(|| seek_error(&SeekError::Gone))?;
    seeks.remove(at);
    drop(seeks);
    lobby.changed();
    Ok(StatusCode::NO_CONTENT)
}

/// Who accepts a seek.
#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Accepting {
    /// The name to sit down with (an account plays under its own).
    #[serde(default)]
    pub name: String,
}

/// `POST /api/lobby/seeks/{id}/accept` `{name}`: accepts a seek: a room with both players seated.
pub async fn accept_seek(
    State(lobby): State<Lobby>,
    State(hub): State<RoomHub>,
    viewer: Viewer,
    client: ClientAddr,
    Path(id): Path<String>,
    Body(req): Body<Accepting>,
) -> Result<(StatusCode, Json<Seated>), ApiError> {
    viewer.require_owner()?;
    let accepter = player_of(&viewer, &req.name);
    // The seek is taken off the list first, so that two players cannot both accept it.
    let open = {
        let mut seeks = lock(&lobby.inner.seeks);
        let at = seeks
            .iter()
            .position(|o| o.seek.id == id)
            .ok_or_else(|| seek_error(&SeekError::Gone))?;
        if seeks[at].seek.is_by(&accepter) {
            return Err(seek_error(&SeekError::OwnSeek));
        }
        seeks.remove(at)
    };
    let matched = match open.seek.accept(accepter, now_ms()) {
        Ok(matched) => matched,
        Err(e) => {
            // Not acceptable by this player: the seek stays open for others.
            lock(&lobby.inner.seeks).push(open);
            return Err(seek_error(&e));
        }
    };
    lobby.changed();
    let room_id = matched.room.id().to_string();
    let seat = |(token, side): (String, xiangqi_rules::Color)| Seated {
        id: room_id.clone(),
        link: format!("/#/room/{room_id}"),
        token,
        side: side_name(side),
    };
    let (seeker, accepter) = (seat(matched.seeker), seat(matched.accepter));
    hub.create(client, matched.room).await?;
    if let Some(owner) = open.seek.by.owner.clone() {
        let _ = lobby.inner.heard.send(Heard::Matched {
            owner,
            seat: seeker,
        });
    }
    Ok((StatusCode::CREATED, Json(accepter)))
}
