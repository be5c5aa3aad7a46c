//! One tab's WebSocket to a room: it joins (with its seat token, or taking the free seat, or
//! as a spectator), then sends moves, offers, answers, resignation, a claim or the analysis
//! switch as JSON messages, and gets the room's state after every change.
//!
//! Each message is checked before the room sees it: text only, at most [`MAX_MESSAGE`]
//! bytes, at most [`RATE`] a second (with a burst of [`BURST`]), of one of the shapes
//! [`ClientMessage`] allows. A refusal is answered with the API's error code; a socket that
//! sends an oversized message, floods, or keeps sending what cannot be read is closed, and
//! the room goes on.

use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::viewer::Viewer;
use crate::kit::wire::{Point, clear_fault, take_fault};
use crate::rooms::hub::{RoomCell, RoomHub};
use crate::rooms::view::{ServerMessage, role_name, text};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast::error::RecvError;
use xiangqi_rooms::{OfferKind, Role, token};

/// Largest message a socket may send, in bytes.
pub const MAX_MESSAGE: usize = 1024;
/// Messages a second a socket may send on average.
pub const RATE: f64 = 8.0;
/// Messages a socket may send at once.
pub const BURST: f64 = 16.0;
/// Messages that cannot be read before the socket is closed.
pub const MAX_FAULTS: u32 = 10;
/// How long a socket may take to join.
const JOIN_TIME: Duration = Duration::from_secs(10);
/// How often the server pings a socket (a browser answers by itself).
const PING_EVERY: Duration = Duration::from_secs(30);
/// How long a socket may send nothing, not even a pong, before it is taken for gone and
/// closed, giving its places back.
const SILENT_MAX: Duration = Duration::from_secs(90);
/// The close code for a socket that broke the rules (RFC 6455: policy violation).
const POLICY: u16 = 1008;

/// A message of a tab to its room.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message: who the tab is.
    Join {
        /// The seat token the tab keeps for this room, if any.
        #[serde(default)]
        token: Option<String>,
        /// The name to sit down with, when taking the free seat.
        #[serde(default)]
        name: Option<String>,
    },
    /// A move by its two points.
    Move {
        /// The point the piece leaves.
        from: Point,
        /// The point it goes to.
        to: Point,
    },
    /// An offer to the opponent.
    Offer {
        /// `draw`, `takeback` or `rematch`.
        kind: OfferKind,
    },
    /// The answer to the opponent's offer.
    Answer {
        /// The offer answered.
        kind: OfferKind,
        /// Whether it is accepted.
        accept: bool,
    },
    /// Resigns the game.
    Resign,
    /// Claims the game against an opponent away past the grace period.
    Claim,
    /// Turns the spectators' analysis on or off.
    Analysis {
        /// On or off.
        on: bool,
    },
    /// Asks for a pong (and the room's state).
    Ping,
    /// Asks for the room afresh (the page missed a version).
    Sync,
}

/// A token bucket: [`RATE`] a second, [`BURST`] at once.
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new() -> Bucket {
        Bucket {
            tokens: BURST,
            at: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * RATE).min(BURST);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

fn error_message(err: &ApiError) -> Utf8Bytes {
    text(&ServerMessage::Error {
        error: err.detail_json(),
        status: err.status.as_u16(),
    })
}

/// Reads one message: its shape, with the value's own code for a point that is none.
pub fn parse(text: &str) -> Result<ClientMessage, ApiError> {
    if text.len() > MAX_MESSAGE {
        return Err(too_large());
    }
    clear_fault();
    serde_json::from_str(text).map_err(|e| {
        take_fault()
            .unwrap_or_else(|| ApiError::bad_request(format!("the message is not valid: {e}")))
    })
}

fn too_large() -> ApiError {
    ApiError::new(
        ErrorCode::MessageTooLarge,
        format!("a message may hold at most {MAX_MESSAGE} bytes"),
    )
    .with_params(serde_json::json!({ "max_bytes": MAX_MESSAGE }))
}

/// Whether a socket's read failed on a message or frame past the size limit.
fn is_too_long(error: &axum::Error) -> bool {
    std::error::Error::source(error)
        .and_then(|inner| inner.downcast_ref::<tungstenite::Error>())
        .is_some_and(|e| matches!(e, tungstenite::Error::Capacity(_)))
}

fn flood() -> ApiError {
    ApiError::new(
        ErrorCode::TooManyMessages,
        format!("a socket may send at most {RATE} messages a second"),
    )
    .with_params(serde_json::json!({ "per_second": RATE }))
}

/// The socket is to be closed, after it is sent this error.
enum Next {
    Close(ApiError),
}

/// Serves one socket of the room `cell` until it closes.
pub async fn serve(socket: WebSocket, hub: RoomHub, cell: Arc<RoomCell>, viewer: Viewer) {
    let cell = &cell;
    let (mut tx, mut rx) = socket.split();
    let mut bucket = Bucket::new();
    // The join; a ping or pong the browser or a proxy sends before it is let pass.
    let deadline = tokio::time::Instant::now() + JOIN_TIME;
    let first = loop {
        match tokio::time::timeout_at(deadline, rx.next()).await {
            Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => continue,
            other => break other,
        }
    };
    let join = match first {
        Ok(Some(Ok(Message::Text(t)))) => parse(&t),
        Ok(Some(Ok(_))) => Err(ApiError::bad_request("the first message must be a join")),
        _ => return,
    };
    let (token_sent, name) = match join {
        Ok(ClientMessage::Join { token, name }) => (token, name.unwrap_or_default()),
        Ok(_) => {
            let err = ApiError::bad_request("the first message must be a join");
            let _ = close(&mut tx, &err).await;
            return;
        }
        Err(err) => {
            let _ = close(&mut tx, &err).await;
            return;
        }
    };
    let mut states = cell.states.subscribe();
    let new_token = token::seat_token();
    // A seat may have been taken on another server a moment ago.
    hub.refresh(cell).await;
    let joined = hub
        .act_if_changed(cell, |live, now| {
            let (role, took) = live.room.join(
                token_sent.as_deref(),
                new_token.clone(),
                crate::rooms::player_of(&viewer, &name),
                now,
            )?;
            // A seat holder's socket speaks by its token from now on: the seat it holds
            // changes at a rematch.
            let seat_token = match role {
                Role::Player(_) if took => Some(new_token.clone()),
                Role::Player(_) => token_sent.clone(),
                Role::Spectator => None,
            };
            // Only a seat taken changes the room; a visitor who watches, or a player who
            // comes back, is told the room as it is.
            Ok(((role, took, seat_token), took))
        })
        .await;
    let (mut role, took, seat_token) = match joined {
        Ok(j) => j,
        Err(err) => {
            let _ = close(&mut tx, &err).await;
            return;
        }
    };
    let token = seat_token.as_deref();
    // Here from now on (once, however many times the join was judged).
    cell.lock().arrive(token);
    hub.share_presence(cell, token);
    let welcome = text(&ServerMessage::Welcome {
        role: role_name(role),
        token: took.then_some(new_token.as_str()),
    });
    let ended = async {
        tx.send(Message::Text(welcome)).await.ok()?;
        if !took {
            // The room as it is, and who is here now; the others hear of a player at once,
            // of a spectator with the next crowd message.
            tx.send(Message::Text(cell.state_fresh())).await.ok()?;
            hub.presence(cell, token.is_some(), |_, _| {});
            if token.is_none() {
                tx.send(Message::Text(cell.crowd_now())).await.ok()?;
            }
        }
        // A seat taken is a change: the room's state follows on the channel.
        let mut faults = 0;
        let mut heard = Instant::now();
        let mut pings =
            tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
        loop {
            tokio::select! {
                _ = pings.tick() => {
                    if heard.elapsed() > SILENT_MAX {
                        return Some(());
                    }
                    tx.send(Message::Ping(Default::default())).await.ok()?;
                }
                incoming = rx.next() => {
                    heard = Instant::now();
                    let message = match incoming {
                        Some(Ok(m)) => m,
                        // A message past the socket's size limit is refused as any oversized
                        // one is: with the policy-violation close.
                        Some(Err(e)) if is_too_long(&e) => {
                            close(&mut tx, &too_large()).await;
                            return Some(());
                        }
                        _ => return Some(()),
                    };
                    let next = match message {
                        Message::Text(t) => on_text(&hub, cell, token, &t, &mut bucket, &mut faults).await,
                        Message::Binary(_) => {
                            faults += 1;
                            reply(ApiError::bad_request("messages are JSON text"), faults)
                        }
                        Message::Close(_) => return Some(()),
                        // Pings are answered by the socket itself.
                        _ => Ok(None),
                    };
                    match next {
                        Ok(None) => {}
                        Ok(Some(answer)) => tx.send(Message::Text(answer)).await.ok()?,
                        Err(Next::Close(err)) => {
                            close(&mut tx, &err).await;
                            return Some(());
                        }
                    }
                }
                state = states.recv() => {
                    let state = match state {
                        Ok(s) => s,
                        // A socket too slow for the room's changes is sent the room afresh.
                        Err(RecvError::Lagged(_)) => cell.state_now(),
                        Err(RecvError::Closed) => return Some(()),
                    };
                    // After a rematch the seats have swapped: the tab is told its new colour
                    // before the state it plays in.
                    let now_role = cell.lock().role_of(token);
                    if token.is_some() && now_role != role {
                        role = now_role;
                        let again = text(&ServerMessage::Welcome { role: role_name(role), token: None });
                        tx.send(Message::Text(again)).await.ok()?;
                    }
                    tx.send(Message::Text(state)).await.ok()?;
                }
            }
        }
    };
    let _: Option<()> = ended.await;
    hub.presence(cell, token.is_some(), |live, now| live.leave(token, now));
    hub.share_presence(cell, token);
}

/// An error answered, or the socket closed when it has sent too many that cannot be read.
fn reply(err: ApiError, faults: u32) -> Result<Option<Utf8Bytes>, Next> {
    if faults >= MAX_FAULTS {
        return Err(Next::Close(err));
    }
    Ok(Some(error_message(&err)))
}

/// Handles one text message of a socket holding the seat token `token` (none: a
/// spectator's): `Ok(Some(answer))` to send back, `Ok(None)` when the room's new state says
/// it all, `Err(Close)` to close the socket. The message speaks for the seat the token holds
/// when the room gets it.
async fn on_text(
    hub: &RoomHub,
    cell: &RoomCell,
    token: Option<&str>,
    text_in: &str,
    bucket: &mut Bucket,
    faults: &mut u32,
) -> Result<Option<Utf8Bytes>, Next> {
    if text_in.len() > MAX_MESSAGE {
        return Err(Next::Close(too_large()));
    }
    if !bucket.take() {
        return Err(Next::Close(flood()));
    }
    let message = match parse(text_in) {
        Ok(m) => m,
        Err(err) => {
            *faults += 1;
            return reply(err, *faults);
        }
    };
    let acted = match message {
        ClientMessage::Join { .. } => Err(ApiError::bad_request("the socket has already joined")),
        ClientMessage::Ping => return Ok(Some(text(&ServerMessage::Pong))),
        ClientMessage::Sync => return Ok(Some(cell.state_fresh())),
        ClientMessage::Move {
            from: Point(from),
            to: Point(to),
        } => {
            hub.act(cell, |live, now| {
                live.room.play(live.role_of(token), from, to, now)
            })
            .await
        }
        ClientMessage::Offer { kind } => {
            hub.act(cell, |live, now| {
                live.room.offer(live.role_of(token), kind, now)
            })
            .await
        }
        ClientMessage::Answer { kind, accept } => {
            hub.act(cell, |live, now| {
                live.room.answer(live.role_of(token), kind, accept, now)
            })
            .await
        }
        ClientMessage::Resign => {
            hub.act(cell, |live, now| live.room.resign(live.role_of(token), now))
                .await
        }
        ClientMessage::Claim => {
            // An opponent connected to another server sharing the store is not away.
            let elsewhere = hub.opponent_elsewhere(cell, token).await;
            hub.act(cell, |live, now| {
                let role = live.role_of(token);
                let away = match role {
                    Role::Player(side) if !elsewhere => live.away_since(side.opponent()),
                    _ => None,
                };
                live.room.claim(role, away, now)
            })
            .await
        }
        ClientMessage::Analysis { on } => {
            hub.act(cell, |live, now| {
                live.room.set_analysis(live.role_of(token), on, now)
            })
            .await
        }
    };
    match acted {
        Ok(()) => Ok(None),
        Err(err) => Ok(Some(error_message(&err))),
    }
}

/// Sends `err` and closes the socket with a policy-violation frame.
async fn close(
    tx: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    err: &ApiError,
) -> Option<()> {
    tx.send(Message::Text(error_message(err))).await.ok()?;
    tx.send(Message::Close(Some(CloseFrame {
        code: POLICY,
        reason: Utf8Bytes::from(err.code),
    })))
    .await
    .ok()
}
