//! What every socket of a room is told: the room's state (seats and who is here, the game as
//! the play view shows it, the clocks as of the server's time, the offer, the result), and
//! the messages a socket sends back.

use crate::kit::reasons::end_reason_params;
use crate::kit::view::{GameView, OutcomeView, game_view, side_code};
use crate::rooms::hub::Live;
use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use xiangqi_rooms::{AWAY_GRACE_MS, Role, Room};
use xiangqi_rules::Color;

/// A seat as everyone sees it: the name, and whether its player is here.
#[derive(Serialize)]
pub struct SeatView {
    /// The player's name.
    pub name: String,
    /// Whether the player has the room open.
    pub present: bool,
    /// Since when (ms since 1970) the player has been away, while away.
    pub away_since: Option<u64>,
    /// The player's account (its profile is `#/@/<account>`), when they sat down signed in.
    pub account: Option<String>,
}

/// The clocks at the server's time `now`.
#[derive(Serialize)]
pub struct ClocksView {
    /// Red's time left, in milliseconds.
    pub red_ms: u64,
    /// Black's time left.
    pub black_ms: u64,
    /// The side whose clock runs, if one does.
    pub running: Option<&'static str>,
}

/// The time control.
#[derive(Serialize)]
pub struct TimeControlView {
    /// Main time in seconds.
    pub seconds: u32,
    /// Seconds added per move.
    pub increment: u32,
}

/// An offer waiting for an answer.
#[derive(Serialize)]
pub struct OfferView {
    /// `draw`, `takeback` or `rematch`.
    pub kind: &'static str,
    /// The side that offered it.
    pub by: &'static str,
}

/// A room's state.
#[derive(Serialize)]
pub struct RoomView {
    /// The room's id.
    pub id: String,
    /// Its short code.
    pub code: String,
    /// `asian` or `cxq`.
    pub rules: &'static str,
    /// The time control; none for an untimed game.
    pub time_control: Option<TimeControlView>,
    /// `waiting`, `playing` or `over`.
    pub status: &'static str,
    /// The game's number in the room (one more with each rematch).
    pub number: u32,
    /// Red's seat, when taken.
    pub red: Option<SeatView>,
    /// Black's seat, when taken.
    pub black: Option<SeatView>,
    /// How many spectators watch.
    pub spectators: u32,
    /// The game, as the play view shows it.
    pub game: GameView,
    /// The clocks, for a timed game.
    pub clocks: Option<ClocksView>,
    /// The server's time the clocks are given at (ms since 1970).
    pub server_ms: u64,
    /// The offer waiting for an answer.
    pub offer: Option<OfferView>,
    /// How the game ended: the result, the reason's code, words and blanks (the rules'
    /// verdict as the play view words it; `time`, `resignation`, `agreement` or `abandoned`
    /// with the losing side as `loser`).
    pub result: Option<OutcomeView>,
    /// Whether the spectators are shown the analysis.
    pub analysis: bool,
    /// Whether the games count for the players' ratings.
    pub rated: bool,
    /// Whether an administrator of the server closed the room.
    pub closed: bool,
    /// How long a player may be away before the opponent may claim the game, in ms.
    pub grace_ms: u64,
}

fn seat_view(live: &Live, side: Color) -> Option<SeatView> {
    live.room.seat(side).map(|seat| SeatView {
        account: seat.account.clone(),
        name: seat.name.clone(),
        present: live.present(side),
        away_since: live.away_since(side),
    })
}

fn result_view(room: &Room) -> Option<OutcomeView> {
    if let Some(o) = room.rules_outcome() {
        return Some(OutcomeView {
            result: o.result.as_str(),
            code: o.reason.code(),
            message: o.reason.to_string(),
            params: end_reason_params(&o.reason),
        });
    }
    let (ending, result) = (room.ending()?, room.result()?);
    Some(OutcomeView {
        result: result.result.as_str(),
        code: result.code,
        message: ending.to_string(),
        params: serde_json::json!({ "loser": ending.loser().map(side_code) }),
    })
}

/// The state of the room in `live` at the server's time `now`.
pub fn room_view(live: &Live, now: u64) -> RoomView {
    let room = &live.room;
    let mut game = game_view(
        room.id(),
        room.game().moves().len() as u64,
        room.game(),
        &[],
    );
    if room.result().is_some() {
        game.legal.clear();
    }
    let clocks = room.time_left(now).map(|[red_ms, black_ms]| ClocksView {
        red_ms,
        black_ms,
        running: room.deadline().map(|_| side_code(room.turn())),
    });
    RoomView {
        id: room.id().to_string(),
        code: room.code().to_string(),
        rules: rules_name(room.rules()),
        time_control: room.clock().map(|tc| TimeControlView {
            seconds: tc.seconds,
            increment: tc.increment,
        }),
        status: room.status().name(),
        number: room.number(),
        red: seat_view(live, Color::Red),
        black: seat_view(live, Color::Black),
        spectators: live.spectators,
        game,
        clocks,
        server_ms: now,
        offer: room.pending_offer().map(|o| OfferView {
            kind: o.kind.name(),
            by: side_code(o.by),
        }),
        result: result_view(room),
        analysis: room.analysis(),
        rated: room.rated(),
        closed: room.is_closed(),
        grace_ms: AWAY_GRACE_MS,
    }
}

/// A message of the server to a socket.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMessage<'a> {
    /// The answer to a join: who the socket is, and the seat token when it took a seat.
    Welcome {
        /// `red`, `black` or `spectator`.
        role: &'static str,
        /// The new seat's token, to keep (only when the socket took a free seat).
        #[serde(skip_serializing_if = "Option::is_none")]
        token: Option<&'a str>,
    },
    /// The room's state.
    State {
        /// The room's version: one more for each change (a page that sees a gap asks for the
        /// room afresh with `sync`).
        version: u64,
        /// The state.
        room: &'a RoomView,
    },
    /// Who is in the room: sent after spectators came or went (at most once a second), and
    /// at once when a player comes or goes. Changes no more than its fields.
    Crowd {
        /// The version of the last state sent before it.
        version: u64,
        /// How many spectators' sockets are open.
        spectators: u32,
        /// Whether Red is here, and since when away.
        red: Option<Presence>,
        /// Whether Black is here, and since when away.
        black: Option<Presence>,
    },
    /// A refusal, with the API's error code.
    Error {
        /// `{code, message, highlights, params}` as the HTTP API answers.
        error: serde_json::Value,
        /// The HTTP status the code goes with.
        status: u16,
    },
    /// The answer to a ping.
    Pong,
}

/// A rule set's name on the wire: `asian` or `cxq`.
pub fn rules_name(rules: xiangqi_rooms::Rules) -> &'static str {
    match rules {
        xiangqi_rooms::Rules::Asian => "asian",
        xiangqi_rooms::Rules::Cxq => "cxq",
    }
}

/// The role's name on the wire.
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Player(side) => side_code(side),
        Role::Spectator => "spectator",
    }
}

/// `message` as the JSON text a socket sends.
pub fn text(message: &ServerMessage<'_>) -> Utf8Bytes {
    serde_json::to_string(message).unwrap_or_default().into()
}

/// The state message of `view`, the room's `version`.
pub fn room_message(view: &RoomView, version: u64) -> Utf8Bytes {
    text(&ServerMessage::State {
        version,
        room: view,
    })
}

/// Whether a player is here.
#[derive(Serialize)]
pub struct Presence {
    /// Whether the player has the room open.
    pub present: bool,
    /// Since when (ms since 1970) the player has been away, while away.
    pub away_since: Option<u64>,
}

/// The crowd message of the room in `live`, after its state `version`.
pub fn crowd_message(live: &Live, version: u64) -> Utf8Bytes {
    let presence = |side| {
        live.room.seat(side).map(|_| Presence {
            present: live.present(side),
            away_since: live.away_since(side),
        })
    };
    text(&ServerMessage::Crowd {
        version,
        spectators: live.spectators,
        red: presence(Color::Red),
        black: presence(Color::Black),
    })
}
