//! The rooms a server holds: each [`Room`] of the domain crate behind its own lock, with the
//! channel its state goes out on to every socket watching it, who of its players is here,
//! and the timer that ends a game on time when no message comes.
//!
//! Every change goes through [`RoomHub::act`]: the room decides; the hub then queues the room
//! for its store, sends the new state once to every socket of the room, wakes the room's
//! timer and, when the change ended the game, saves the game to the archive (My games).

use crate::kit::archive_store::ArchiveService;
use crate::kit::error::{ApiError, ErrorCode};
use crate::rooms::view::{room_message, room_view};
use axum::extract::ws::Utf8Bytes;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{Notify, broadcast};
use xiangqi_archive::{GameEntry, Source};
use xiangqi_rooms::{
    MemoryStore, ROOMS_FILE, Role, Room, RoomError, RoomStore, Saver, SqliteStore, Status,
    StoredRoom,
};
use xiangqi_rules::Color;

/// Rooms that changed in this many days are loaded when the server starts.
const KEEP_DAYS: u64 = 7;
/// Most rooms a server holds; a new one beyond it is refused (503 `busy`).
pub const MAX_ROOMS: usize = 50_000;
/// States queued for a slow socket before it is sent the room afresh instead.
const CHANNEL_DEPTH: usize = 32;

/// Milliseconds since 1970, as rooms stamp their changes.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A room as the server holds it.
pub struct Live {
    /// The room itself.
    pub room: Room,
    /// How many sockets each seat (Red, Black) has open.
    pub connected: [u32; 2],
    /// Since when each seat has had no socket open (`None` while it has one).
    pub away_since: [Option<u64>; 2],
    /// How many spectators' sockets are open.
    pub spectators: u32,
}

/// One room, its state channel and its timer's bell.
pub struct RoomCell {
    live: Mutex<Live>,
    /// The room's state, as JSON text, after every change.
    pub states: broadcast::Sender<Utf8Bytes>,
    wake: Notify,
}

impl RoomCell {
    /// The room locked, for reading.
    pub fn lock(&self) -> MutexGuard<'_, Live> {
        lock(&self.live)
    }

    /// The room's state message as it stands now.
    pub fn state_now(&self) -> Utf8Bytes {
        let live = self.lock();
        room_message(&room_view(&live, now_ms()))
    }
}

/// Every room the server holds, the store they are kept in and the archive finished games
/// go to. Cheap to clone.
#[derive(Clone)]
pub struct RoomHub {
    inner: Arc<Inner>,
}

struct Inner {
    rooms: Mutex<HashMap<String, Arc<RoomCell>>>,
    codes: Mutex<HashMap<String, String>>,
    /// The store's writer (none when its thread could not start: rooms then live only
    /// in memory).
    saver: Option<Saver>,
    archive: ArchiveService,
}

impl RoomHub {
    /// The rooms kept in the data folder `data` (`rooms.sqlite3`, created when missing), or
    /// in memory when there is none or it cannot be opened; finished games go to `archive`.
    /// The rooms that changed in the last days are loaded, and their clocks' timers started
    /// when a runtime is at hand.
    pub fn open(data: Option<&Path>, archive: ArchiveService) -> RoomHub {
        let memory = || Saver::start(MemoryStore::default()).ok();
        let (saver, stored) = match data.map(|folder| SqliteStore::open(&folder.join(ROOMS_FILE))) {
            Some(Ok(mut store)) => {
                let since = now_ms().saturating_sub(KEEP_DAYS * 24 * 3600 * 1000);
                let rooms = store.load(since).unwrap_or_else(|e| {
                    eprintln!("rooms: {e}");
                    Vec::new()
                });
                (Saver::start(store).ok(), rooms)
            }
            Some(Err(e)) => {
                eprintln!("rooms: {e}; rooms are kept in memory only");
                (memory(), Vec::new())
            }
            None => (memory(), Vec::new()),
        };
        let hub = RoomHub {
            inner: Arc::new(Inner {
                rooms: Mutex::new(HashMap::new()),
                codes: Mutex::new(HashMap::new()),
                saver,
                archive,
            }),
        };
        for stored in stored {
            match Room::from_json(&stored.json) {
                Ok(room) => {
                    hub.insert(room);
                }
                Err(e) => eprintln!("rooms: room {} cannot be read back: {e}", stored.id),
            }
        }
        hub
    }

    /// Waits (blocking, at most `timeout`) until every change queued is in the store.
    pub fn flush(&self, timeout: std::time::Duration) {
        if let Some(saver) = &self.inner.saver {
            saver.flush(timeout);
        }
    }

    fn save(&self, room: &Room) {
        if let Some(saver) = &self.inner.saver {
            saver.save(StoredRoom::of(room));
        }
    }

    /// Holds `room`, starts its timer, and returns its cell.
    pub fn insert(&self, room: Room) -> Arc<RoomCell> {
        let (states, _) = broadcast::channel(CHANNEL_DEPTH);
        let id = room.id().to_string();
        let code = room.code().to_string();
        let now = now_ms();
        let cell = Arc::new(RoomCell {
            live: Mutex::new(Live {
                room,
                connected: [0, 0],
                away_since: [Some(now), Some(now)],
                spectators: 0,
            }),
            states,
            wake: Notify::new(),
        });
        lock(&self.inner.rooms).insert(id.clone(), cell.clone());
        lock(&self.inner.codes).insert(code, id);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(run_timer(self.clone(), Arc::downgrade(&cell)));
        }
        cell
    }

    /// Whether another room may be made.
    pub fn has_room_for_more(&self) -> bool {
        lock(&self.inner.rooms).len() < MAX_ROOMS
    }

    /// Holds the new `room`; the room is kept in the store at once.
    pub fn create(&self, room: Room) -> Result<Arc<RoomCell>, ApiError> {
        if !self.has_room_for_more() {
            return Err(ApiError::busy(60));
        }
        self.save(&room);
        Ok(self.insert(room))
    }

    /// The room with id `id`, or 404 `no-room`.
    pub fn get(&self, id: &str) -> Result<Arc<RoomCell>, ApiError> {
        lock(&self.inner.rooms)
            .get(id)
            .cloned()
            .ok_or_else(|| no_room(id))
    }

    /// The id of the room with short code `code`.
    pub fn id_of_code(&self, code: &str) -> Option<String> {
        lock(&self.inner.codes).get(code).cloned()
    }

    /// Runs `change` on the room in `cell` at the time now; when it succeeds, the room is
    /// kept, its state sent to every socket, its timer woken, and a game it ended saved to
    /// the archive. A refusal changes nothing.
    pub fn act<R>(
        &self,
        cell: &RoomCell,
        change: impl FnOnce(&mut Live, u64) -> Result<R, RoomError>,
    ) -> Result<R, ApiError> {
        let now = now_ms();
        let mut live = cell.lock();
        let before = (live.room.status(), live.room.number());
        let result = change(&mut live, now);
        // A flag that fell while the change was refused is a change too.
        let ended_meanwhile = live.room.status() == Status::Over && before.0 != Status::Over;
        if result.is_err() && !ended_meanwhile {
            return result.map_err(|e| room_error(&e));
        }
        self.changed(cell, &live, before, now);
        result.map_err(|e| room_error(&e))
    }

    /// A change of who is here (no change of the room itself): sent to every socket.
    pub fn presence(&self, cell: &RoomCell, f: impl FnOnce(&mut Live, u64)) {
        let now = now_ms();
        let mut live = cell.lock();
        f(&mut live, now);
        let _ = cell.states.send(room_message(&room_view(&live, now)));
    }

    fn changed(&self, cell: &RoomCell, live: &Live, before: (Status, u32), now: u64) {
        self.save(&live.room);
        let _ = cell.states.send(room_message(&room_view(live, now)));
        cell.wake.notify_one();
        let ended = live.room.status() == Status::Over
            && (before.0 != Status::Over || before.1 != live.room.number());
        if ended {
            self.archive_game(&live.room);
        }
    }

    /// Saves the finished game of `room` to the archive, under a key of the room and the
    /// game's number, with both names, the time control and why it ended.
    fn archive_game(&self, room: &Room) {
        let Some(result) = room.result() else { return };
        let mut record = xiangqi_records::Game::from_played(room.game());
        record.result = Some(result.result);
        record.tags.set("Event", "Play a friend");
        if let Some(tc) = room.clock() {
            record.tags.set("TimeControl", &tc.pgn());
        } else {
            record.tags.set("TimeControl", "-");
        }
        let name = |side| room.seat(side).map(|s| s.name.clone()).unwrap_or_default();
        let moves = room.game().moves().to_vec();
        let opening = xiangqi_teaching::openings::classify_from(room.game().start(), &moves)
            .ok()
            .flatten()
            .map(|o| o.to_string());
        let entry = GameEntry {
            key: Some(format!("room-{}-{}", room.id(), room.number())),
            finished: true,
            red: name(Color::Red),
            black: name(Color::Black),
            level: None,
            end_reason: Some(result.code.to_string()),
            date: xiangqi_records::date::pgn_today(),
            opening,
            time_control: room.clock().map(|tc| tc.pgn()),
            record,
            source: Source::Played,
        };
        let archive = self.inner.archive.clone();
        if archive.unavailable_reason().is_some() {
            return;
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(e) = archive.run(move |a| a.save(&entry)).await {
                    eprintln!("rooms: the finished game was not archived: {}", e.message);
                }
            });
        }
    }
}

/// Ends the room's game when the flag of the side to move falls, with or without messages;
/// sleeps while no clock runs. Stops when the room is gone.
async fn run_timer(hub: RoomHub, cell: std::sync::Weak<RoomCell>) {
    loop {
        let Some(strong) = cell.upgrade() else { return };
        let deadline = strong.lock().room.deadline();
        let woken = {
            let wake = strong.wake.notified();
            match deadline {
                Some(at) => {
                    let wait = at.saturating_sub(now_ms());
                    tokio::select! {
                        () = wake => true,
                        () = tokio::time::sleep(std::time::Duration::from_millis(wait)) => false,
                    }
                }
                None => {
                    wake.await;
                    true
                }
            }
        };
        if !woken {
            let _ = hub.act(&strong, |live, now| {
                if live.room.tick(now) {
                    Ok(())
                } else {
                    Err(RoomError::NotYourTurn)
                }
            });
        }
    }
}

/// 404 `no-room`.
pub fn no_room(id: &str) -> ApiError {
    ApiError::new(ErrorCode::NoRoom, format!("there is no room {id}"))
}

/// The API's error for a room's refusal.
pub fn room_error(e: &RoomError) -> ApiError {
    let code = match e {
        RoomError::BadToken => ErrorCode::BadSeatToken,
        RoomError::NotSeated => ErrorCode::NotSeated,
        RoomError::NoOpponent => ErrorCode::NoOpponent,
        RoomError::NotYourTurn => ErrorCode::NotYourTurn,
        RoomError::GameOver => ErrorCode::GameOver,
        RoomError::NotOver | RoomError::CannotOffer(_) => ErrorCode::CannotOffer,
        RoomError::Illegal(reason) => {
            return crate::kit::extract::illegal(reason);
        }
        RoomError::NoOffer(_) => ErrorCode::NoOffer,
        RoomError::CannotClaim { .. } => ErrorCode::CannotClaim,
        RoomError::BadTimeControl { .. } => ErrorCode::BadTimeControl,
    };
    let params = match e {
        RoomError::NoOffer(k) | RoomError::CannotOffer(k) => {
            serde_json::json!({ "kind": k.name() })
        }
        RoomError::NotOver => serde_json::json!({ "kind": "rematch" }),
        RoomError::CannotClaim { wait_ms } => {
            serde_json::json!({ "wait_seconds": wait_ms.map(|ms| ms.div_ceil(1000)) })
        }
        RoomError::BadTimeControl { seconds, increment } => serde_json::json!({
            "seconds": seconds,
            "increment": increment,
            "max_minutes": xiangqi_rooms::room::MAX_MINUTES,
            "max_increment": xiangqi_rooms::room::MAX_INCREMENT,
        }),
        _ => serde_json::json!({}),
    };
    ApiError::new(code, e.to_string()).with_params(params)
}

/// The seat `role` holds, as an index of [`Live::connected`].
pub fn seat_index(role: Role) -> Option<usize> {
    match role {
        Role::Player(Color::Red) => Some(0),
        Role::Player(Color::Black) => Some(1),
        Role::Spectator => None,
    }
}
