//! The rooms a server holds: each [`Room`] of the domain crate behind its own lock, with the
//! channel its state goes out on to every socket watching it, who of its players is here,
//! and the timer that ends a game on time when no message comes.
//!
//! Every change goes through [`RoomHub::act`]: the room decides; the hub then queues the room
//! for the archive's writer (rooms are kept in the archive's database, beside the games),
//! wakes the room's timer and, when the change ended the game, saves the game to My games.
//! The new state goes out to every socket of the room only once its save is committed, so
//! that no one sees a move the server could lose: each room has an outbox of states in the
//! order of its changes, each with the number of the save it waits for, and they are sent
//! in that order as the saves commit. Each state carries the room's version (one more for
//! each change), so that a page can tell one it missed and ask for the room afresh.
//!
//! Who is here is not a change of the room: a spectator's arrival or departure sends nothing
//! at once (the newcomer alone is sent the room); the room's crowd (its spectators, and
//! whether its players are here) goes to every socket at most once every [`CROWD_EVERY`], so
//! that a room's traffic grows with its spectators, not with their square. A player's own
//! arrival or departure is told at once.

use crate::kit::archive_store::ArchiveService;
use crate::kit::client_addr::ClientAddr;
use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::rate_limit::RateLimit;
use crate::rooms::gate::{SocketGate, SocketPass};
use crate::rooms::view::{crowd_message, room_message, room_view};
use axum::extract::ws::Utf8Bytes;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{Notify, broadcast};
use xiangqi_rooms::{Role, Room, RoomError, Status};
use xiangqi_rules::Color;
use xiangqi_store::{GameEntry, Source};
use xiangqi_store::{RoomNews, StoredRoom};

/// Rooms that changed in this many days are loaded when the server starts.
const KEEP_DAYS: u64 = 7;
/// Most rooms with a game not over a server holds; a new one beyond it is refused (503
/// `rooms-full`).
pub const MAX_ROOMS: usize = 50_000;
/// Rooms one client address may make at once, and how often it may make another after that.
pub const ROOMS_BURST: u32 = 10;
/// See [`ROOMS_BURST`].
pub const ROOM_EVERY: std::time::Duration = std::time::Duration::from_secs(30);
/// A room whose game is over is let go from memory this long after the game ended and its
/// last socket closed (it stays in the store, and its game in My games).
pub const FINISHED_KEPT_MS: u64 = 30 * 60 * 1000;
/// A room no one has had open for this long is abandoned and let go from memory (it stays
/// in the store).
pub const ABANDONED_AFTER_MS: u64 = 24 * 3600 * 1000;
/// How often the rooms are looked over for those to let go.
const SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(60);
/// States queued for a slow socket before it is sent the room afresh instead.
const CHANNEL_DEPTH: usize = 32;
/// How often at most a room's crowd goes out while spectators come and go.
pub const CROWD_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// How often a server sharing the store tells it that it lives (its players' presences).
const PRESENCE_BEAT: std::time::Duration = std::time::Duration::from_secs(10);
/// A presence on another server counts when that server was seen this recently.
pub const PRESENCE_FRESH_MS: i64 = 30_000;

/// How many times at most a change is judged when other servers keep changing its room.
const JUDGED_AT_MOST: usize = 5;

/// A change refused because another server changed its room since it was read.
#[derive(Debug)]
struct Conflict;

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
    /// Each seat holder's sockets, by the seat's token: who is here follows the player, also
    /// when the seats swap at a rematch.
    here: HashMap<String, Here>,
    /// When the server took the room up: a player with no socket since is away since then.
    since: u64,
    /// How many spectators' sockets are open.
    pub spectators: u32,
}

/// One seat holder's sockets.
#[derive(Clone, Copy, Debug, Default)]
struct Here {
    /// How many are open.
    sockets: u32,
    /// Since when none is (`None` while one is).
    away_since: Option<u64>,
}

impl Live {
    /// `room`, taken up at `now` with no one here.
    pub fn new(room: Room, now: u64) -> Live {
        Live {
            room,
            here: HashMap::new(),
            since: now,
            spectators: 0,
        }
    }

    /// Who a socket holding the seat token `token` is now: the seat it holds (which changes
    /// at a rematch), or a spectator.
    pub fn role_of(&self, token: Option<&str>) -> Role {
        token
            .and_then(|t| self.room.seat_of(t))
            .map_or(Role::Spectator, Role::Player)
    }

    /// A socket of the holder of `token` (none: a spectator's) opened.
    pub fn arrive(&mut self, token: Option<&str>) {
        match token {
            Some(token) => {
                let here = self.here.entry(token.to_string()).or_default();
                here.sockets += 1;
                here.away_since = None;
            }
            None => self.spectators += 1,
        }
    }

    /// A socket of the holder of `token` (none: a spectator's) closed at `now`.
    pub fn leave(&mut self, token: Option<&str>, now: u64) {
        match token {
            Some(token) => {
                let here = self.here.entry(token.to_string()).or_default();
                here.sockets = here.sockets.saturating_sub(1);
                if here.sockets == 0 {
                    here.away_since = Some(now);
                }
            }
            None => self.spectators = self.spectators.saturating_sub(1),
        }
    }

    fn here(&self, side: Color) -> Option<Here> {
        let seat = self.room.seat(side)?;
        Some(self.here.get(seat.token()).copied().unwrap_or(Here {
            sockets: 0,
            away_since: Some(self.since),
        }))
    }

    /// Whether the player on `side` has a socket open.
    pub fn present(&self, side: Color) -> bool {
        self.here(side).is_some_and(|h| h.sockets > 0)
    }

    /// Since when the player on `side` has had no socket open; `None` while one is (or the
    /// seat is free).
    pub fn away_since(&self, side: Color) -> Option<u64> {
        self.here(side)
            .filter(|h| h.sockets == 0)
            .and_then(|h| h.away_since)
    }

    /// Whether any socket is open on the room.
    pub fn anyone_here(&self) -> bool {
        self.spectators > 0 || self.here.values().any(|h| h.sockets > 0)
    }
}

/// One room, its state channel and its timer's bell.
pub struct RoomCell {
    live: Mutex<Live>,
    /// How many sockets the room has open (its players' and spectators').
    pub sockets: Arc<std::sync::atomic::AtomicU32>,
    /// The room's state, as JSON text, after every change that is kept.
    pub states: broadcast::Sender<Utf8Bytes>,
    /// The states not yet sent, and the last one sent.
    outbox: Mutex<Outbox>,
    wake: Notify,
    /// Whether a crowd message is due to go out (after [`CROWD_EVERY`]).
    crowd_due: std::sync::atomic::AtomicBool,
}

/// A room as a change queued it to be kept: its JSON and version.
type KeptRoom = (String, u64);

/// A room's states on their way to its sockets.
struct Outbox {
    /// The states not yet sent, in the order of the changes: each with the number of the
    /// save it waits for (0: none), and for a change the room as saved with its version.
    waiting: std::collections::VecDeque<(u64, Utf8Bytes, Option<KeptRoom>)>,
    /// The version of the last state queued: one more for each.
    version: u64,
    /// The number of the last save queued for the room (a state waits for it).
    last_save: u64,
    /// The versions of the states waiting, in the same order.
    versions: std::collections::VecDeque<u64>,
    /// The last state sent, and its version.
    sent: Utf8Bytes,
    sent_version: u64,
    /// The room as last kept (its JSON), and the number of that save: what a change that
    /// could not be kept goes back to.
    kept: (u64, String),
    /// The version of the room as last kept (or read from the store): each change kept is
    /// one more, and a change is kept only over the version it was made from.
    kept_version: u64,
    /// The version of the last change queued to be kept.
    queued_version: u64,
}

impl RoomCell {
    /// The room locked, for reading.
    pub fn lock(&self) -> MutexGuard<'_, Live> {
        lock(&self.live)
    }

    /// The room's last state sent to its sockets: the room as it is kept.
    pub fn state_now(&self) -> Utf8Bytes {
        lock(&self.outbox).sent.clone()
    }

    /// The room as it is kept, its clocks as they stand now, for a socket that joins or asks
    /// afresh: built anew when no change waits for its save, else the last state sent.
    pub fn state_fresh(&self) -> Utf8Bytes {
        let live = self.lock();
        let outbox = lock(&self.outbox);
        if outbox.waiting.is_empty() {
            room_message(&room_view(&live, now_ms()), outbox.sent_version)
        } else {
            outbox.sent.clone()
        }
    }

    /// Who is in the room now, with the version of the last state sent.
    pub fn crowd_now(&self) -> Utf8Bytes {
        let version = lock(&self.outbox).sent_version;
        crowd_message(&self.lock(), version)
    }

    /// Puts the state of `live` in the outbox, behind the save numbered `save` of the room
    /// as `json` when there is one (else behind the room's last save). Called with the room
    /// locked, so that the outbox keeps the changes' order.
    fn post(&self, live: &Live, save: Option<(u64, String, u64)>, now: u64) {
        let mut outbox = lock(&self.outbox);
        outbox.version += 1;
        let message = room_message(&room_view(live, now), outbox.version);
        let json = save.map(|(n, json, version)| {
            outbox.last_save = n;
            (json, version)
        });
        let after = outbox.last_save;
        let version = outbox.version;
        outbox.waiting.push_back((after, message, json));
        outbox.versions.push_back(version);
    }

    /// Sends, in order, every state whose save is committed (`saved` saves are done), up to
    /// the first whose save failed (`failed`): that one and those after it wait for
    /// [`RoomCell::roll_back`].
    fn deliver(&self, saved: u64, failed: impl Fn(u64) -> bool) {
        let mut outbox = lock(&self.outbox);
        while let Some((n, _, _)) = outbox.waiting.front() {
            if *n > saved || (*n > outbox.kept.0 && failed(*n)) {
                break;
            }
            if let Some((n, message, json)) = outbox.waiting.pop_front() {
                if let Some((json, version)) = json {
                    outbox.kept = (n, json);
                    outbox.kept_version = version;
                }
                outbox.sent_version = outbox.versions.pop_front().unwrap_or(outbox.version);
                outbox.sent = message.clone();
                let _ = self.states.send(message);
            }
        }
    }

    /// Takes the room in `live` back to the room as last kept, after its save numbered
    /// `failed` failed (the states before it that were kept are sent first, with
    /// [`RoomCell::deliver`]): the states from that save on are dropped, and the room as kept
    /// is sent again (who is here included).
    fn roll_back(&self, live: &mut Live, failed: u64, now: u64) {
        {
            let mut outbox = lock(&self.outbox);
            let kept = outbox
                .waiting
                .iter()
                .take_while(|(n, _, _)| *n < failed)
                .count();
            outbox.waiting.truncate(kept);
            outbox.versions.truncate(kept);
            outbox.last_save = outbox.kept.0;
            outbox.queued_version = outbox
                .waiting
                .iter()
                .rev()
                .find_map(|(_, _, json)| json.as_ref().map(|(_, v)| *v))
                .unwrap_or(outbox.kept_version);
            if let Ok(room) = Room::from_json(&outbox.kept.1) {
                live.room = room;
            }
        }
        self.post(live, None, now);
    }

    /// Takes back a change that was refused before its save was queued: the room in `live`
    /// goes back to its last state queued (or kept), and the states queued before stay.
    fn undo_unqueued(&self, live: &mut Live, now: u64) {
        {
            let outbox = lock(&self.outbox);
            let last = outbox
                .waiting
                .iter()
                .rev()
                .find_map(|(_, _, json)| json.as_ref().map(|(j, _)| j.as_str()))
                .unwrap_or(&outbox.kept.1);
            if let Ok(room) = Room::from_json(last) {
                live.room = room;
            }
        }
        self.post(live, None, now);
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
    /// Where rooms are kept, with the games: the archive's writer (when there is no archive,
    /// rooms live only in memory).
    archive: ArchiveService,
    /// How often one client may make a room.
    makers: RateLimit,
    /// Who may open a room's socket.
    sockets: SocketGate,
    /// This server among those sharing the store: whose sockets a presence counts.
    server: String,
    /// Reads the rooms other servers changed beside the store's writer, when servers share
    /// the store.
    reader: std::sync::OnceLock<xiangqi_store::RoomReader>,
}

impl RoomHub {
    /// The rooms kept in `archive` (in memory only when it keeps nothing), where finished
    /// games go too; a client address may make `rooms_burst` rooms at once, then one every
    /// [`ROOM_EVERY`]. The rooms that changed in the last days are loaded, and their clocks'
    /// timers started when a runtime is at hand.
    pub fn open(archive: ArchiveService, rooms_burst: u32, sockets: SocketGate) -> RoomHub {
        let since = now_ms().saturating_sub(KEEP_DAYS * 24 * 3600 * 1000);
        let stored = archive.rooms_since(since).unwrap_or_else(|e| {
            crate::say_err!("rooms: {e}");
            Vec::new()
        });
        let hub = RoomHub {
            inner: Arc::new(Inner {
                rooms: Mutex::new(HashMap::new()),
                codes: Mutex::new(HashMap::new()),
                makers: RateLimit::new(rooms_burst, ROOM_EVERY).shared_through("rooms", &archive),
                server: xiangqi_store::new_key(),
                reader: std::sync::OnceLock::new(),
                archive,
                sockets,
            }),
        };
        for stored in stored {
            hub.hold_stored(&stored);
        }
        // Rooms finished or abandoned while the server was down are not held again.
        hub.let_go_idle(now_ms());
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(sweep(Arc::downgrade(&hub.inner)));
        }
        hub
    }

    /// Lets go from memory every room finished or abandoned as of `now` (see
    /// [`FINISHED_KEPT_MS`] and [`ABANDONED_AFTER_MS`]); how many.
    pub fn let_go_idle(&self, now: u64) -> usize {
        let mut rooms = lock(&self.inner.rooms);
        let idle: Vec<(String, String)> = rooms
            .iter()
            .filter_map(|(id, cell)| {
                let live = cell.lock();
                is_idle(&live, now).then(|| (id.clone(), live.room.code().to_string()))
            })
            .collect();
        let mut codes = lock(&self.inner.codes);
        for (id, code) in &idle {
            if let Some(cell) = rooms.remove(id) {
                // Its timer wakes, finds the room gone and ends.
                cell.wake.notify_one();
            }
            codes.remove(code);
        }
        idle.len()
    }

    /// How many rooms with a game not over the server holds.
    pub fn live_rooms(&self) -> usize {
        let rooms: Vec<Arc<RoomCell>> = lock(&self.inner.rooms).values().cloned().collect();
        rooms
            .iter()
            .filter(|cell| cell.lock().room.status() != Status::Over)
            .count()
    }

    /// Queues `room` to be kept as its `version`, over the version `over` it was changed
    /// from: the number of its save, the room as saved and its version, when the archive
    /// keeps rooms; refused (503 `not-saved`) when it cannot keep them now.
    fn save(
        &self,
        room: &Room,
        version: u64,
        over: u64,
    ) -> Result<Option<(u64, String, u64)>, ApiError> {
        let json = room.to_json();
        let queued = self.inner.archive.queue_room(
            StoredRoom {
                id: room.id().to_string(),
                code: room.code().to_string(),
                updated_ms: room.updated_ms(),
                json: json.clone(),
                version,
            },
            over,
        )?;
        Ok(queued.map(|n| (n, json, version)))
    }

    /// Waits for the save numbered `save` (when there is one), then sends the states of
    /// `cell` that are kept. A save that failed takes the room back to how it was kept and
    /// is refused (503 `not-saved`); one refused because another server changed the room
    /// meanwhile is a [`Conflict`].
    async fn deliver(
        &self,
        cell: &RoomCell,
        save: Option<u64>,
    ) -> Result<Result<(), ApiError>, Conflict> {
        let archive = &self.inner.archive;
        let outcome = match save {
            Some(n) => archive.room_saved(n).await,
            None => Ok(()),
        };
        // The states kept before a failed save are sent first, so that the room goes back
        // to the last of them.
        self.send_kept(cell);
        if let (Err(_), Some(n)) = (&outcome, save) {
            let mut live = cell.lock();
            cell.roll_back(&mut live, n, now_ms());
            drop(live);
            self.send_kept(cell);
            if archive.save_conflicted(n) {
                return Err(Conflict);
            }
        }
        Ok(outcome)
    }

    /// Reads the room of `cell` again from the store and takes it up when another server
    /// kept a later version (and no change of this server waits for its save); whether it
    /// did.
    async fn reload(&self, cell: &RoomCell) -> Result<bool, ApiError> {
        let id = cell.lock().room.id().to_string();
        let read = match self.inner.reader.get() {
            Some(reader) => reader.room(&id).await.ok(),
            None => None,
        };
        let stored = match read {
            Some(stored) => stored,
            None => self.inner.archive.run(move |s| s.room(&id)).await?,
        };
        Ok(match stored {
            Some(stored) => self.take_stored(cell, &stored.json, stored.version),
            None => false,
        })
    }

    /// Whether the room of `cell`, read again from the store, is later than the version
    /// `judged_on` (taken up here by this read or by another since).
    async fn moved_on(&self, cell: &RoomCell, judged_on: u64) -> Result<bool, ApiError> {
        self.reload(cell).await?;
        Ok(lock(&cell.outbox).kept_version > judged_on)
    }

    /// When servers share the store: reads the room of `cell` again and takes it up when
    /// another server kept a later version (a failed read leaves the room as held).
    pub async fn refresh(&self, cell: &RoomCell) {
        if self.inner.archive.is_shared() {
            let _ = self.reload(cell).await;
        }
    }

    /// Takes up `stored`, the room of `cell` as another server kept it, when it is later than
    /// the version held and no change waits for its save: its state goes to every socket.
    /// Whether it was taken up.
    fn take_stored(&self, cell: &RoomCell, json: &str, version: u64) -> bool {
        let Ok(room) = Room::from_json(json) else {
            crate::say_err!("rooms: a room changed elsewhere cannot be read back");
            return false;
        };
        let mut live = cell.lock();
        {
            let mut outbox = lock(&cell.outbox);
            if version <= outbox.kept_version || !outbox.waiting.is_empty() {
                return false;
            }
            outbox.kept.1 = json.to_string();
            outbox.kept_version = version;
            outbox.queued_version = version;
        }
        live.room = room;
        cell.post(&live, None, now_ms());
        drop(live);
        cell.wake.notify_one();
        self.send_kept(cell);
        true
    }

    /// Follows the rooms other servers write (`news`, from the store's listener): a room
    /// this server holds is read again when it moved on, so that its sockets here see every
    /// change; after the listener lost its connection, every room held is read again. The
    /// rooms are read by `reader` (beside the store's writer) when there is one.
    pub fn follow(
        &self,
        mut news: tokio::sync::mpsc::UnboundedReceiver<RoomNews>,
        reader: Option<xiangqi_store::RoomReader>,
    ) {
        if let Some(reader) = reader {
            let _ = self.inner.reader.set(reader);
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        // This server's heartbeat: its players' presences stay fresh while it lives.
        let beat = Arc::downgrade(&self.inner);
        runtime.spawn(async move {
            let mut every = tokio::time::interval(PRESENCE_BEAT);
            loop {
                every.tick().await;
                let Some(inner) = beat.upgrade() else { return };
                let (server, now) = (inner.server.clone(), crate::kit::viewer::now_ms());
                let archive = inner.archive.clone();
                drop(inner);
                let _ = archive.run(move |s| s.touch_presence(&server, now)).await;
            }
        });
        let hub = Arc::downgrade(&self.inner);
        runtime.spawn(async move {
            while let Some(heard) = news.recv().await {
                let Some(inner) = hub.upgrade() else { return };
                let hub = RoomHub { inner };
                let cells: Vec<Arc<RoomCell>> = match heard {
                    RoomNews::Written(id, version, room) => {
                        let held = lock(&hub.inner.rooms)
                            .get(&id)
                            .filter(|cell| lock(&cell.outbox).kept_version < version)
                            .cloned();
                        match (held, room) {
                            // The room came with the news: taken up without a read (when no
                            // change of this server waits; else read again below).
                            (Some(cell), Some(json)) if hub.take_stored(&cell, &json, version) => {
                                Vec::new()
                            }
                            (held, _) => held.into_iter().collect(),
                        }
                    }
                    RoomNews::Resync => lock(&hub.inner.rooms).values().cloned().collect(),
                };
                for cell in cells {
                    if let Err(e) = hub.reload(&cell).await {
                        crate::say_err!(
                            "rooms: a room changed elsewhere cannot be read: {}",
                            e.message
                        );
                    }
                }
            }
        });
    }

    /// Tells the other servers sharing the store how many sockets the holder of the seat
    /// `token` has open here in the room of `cell` (a spectator's sockets are not told).
    pub fn share_presence(&self, cell: &RoomCell, token: Option<&str>) {
        let (Some(token), true) = (token, self.inner.archive.is_shared()) else {
            return;
        };
        let (room, sockets) = {
            let live = cell.lock();
            let sockets = live.here.get(token).map_or(0, |h| h.sockets);
            (live.room.id().to_string(), sockets)
        };
        let (token, server, archive) = (
            token.to_string(),
            self.inner.server.clone(),
            self.inner.archive.clone(),
        );
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let now = crate::kit::viewer::now_ms();
                let _ = archive
                    .run(move |s| s.set_presence(&room, &token, &server, sockets, now))
                    .await;
            });
        }
    }

    /// Whether the opponent of the seat holder `token` in the room of `cell` has a socket
    /// open on another server sharing the store (seen within [`PRESENCE_FRESH_MS`]).
    pub async fn opponent_elsewhere(&self, cell: &RoomCell, token: Option<&str>) -> bool {
        if !self.inner.archive.is_shared() {
            return false;
        }
        let (room, opponent) = {
            let live = cell.lock();
            let Role::Player(side) = live.role_of(token) else {
                return false;
            };
            let Some(seat) = live.room.seat(side.opponent()) else {
                return false;
            };
            (live.room.id().to_string(), seat.token().to_string())
        };
        let server = self.inner.server.clone();
        let since = crate::kit::viewer::now_ms() - PRESENCE_FRESH_MS;
        self.inner
            .archive
            .run(move |s| s.present_elsewhere(&room, &opponent, &server, since))
            .await
            // When the store cannot tell, the opponent is taken to be here: no win is
            // claimed on a doubt.
            .unwrap_or(true)
    }

    /// The room with id `id`: held here, or (when servers share the store) taken up from
    /// the store, where another server made it; else 404 `no-room`.
    pub async fn find(&self, id: &str) -> Result<Arc<RoomCell>, ApiError> {
        if let Ok(cell) = self.get(id) {
            return Ok(cell);
        }
        if !self.inner.archive.is_shared() {
            return Err(no_room(id));
        }
        let key = id.to_string();
        let stored = self.inner.archive.run(move |s| s.room(&key)).await?;
        stored
            .and_then(|stored| self.hold_stored(&stored))
            .ok_or_else(|| no_room(id))
    }

    /// The id of the room with short code `code`: held here, or (when servers share the
    /// store) found there.
    pub async fn find_code(&self, code: &str) -> Option<String> {
        if let Some(id) = self.id_of_code(code) {
            return Some(id);
        }
        if !self.inner.archive.is_shared() {
            return None;
        }
        let key = code.to_string();
        let stored = self
            .inner
            .archive
            .run(move |s| s.room_with_code(&key))
            .await;
        stored.ok().flatten().map(|stored| stored.id)
    }

    /// Holds the room as `stored` keeps it (the cell already held, should another request
    /// have taken it up meanwhile).
    fn hold_stored(&self, stored: &StoredRoom) -> Option<Arc<RoomCell>> {
        match Room::from_json(&stored.json) {
            Ok(room) => Some(self.insert(room, stored.version)),
            Err(e) => {
                crate::say_err!("rooms: room {} cannot be read back: {e}", stored.id);
                None
            }
        }
    }

    /// Sends the states of `cell` whose saves are committed.
    fn send_kept(&self, cell: &RoomCell) {
        let archive = &self.inner.archive;
        cell.deliver(archive.saved_count(), |n| archive.save_failed(n));
    }

    /// Holds `room`, kept at `version`, starts its timer, and returns its cell (the one held
    /// already, when the room is).
    pub fn insert(&self, room: Room, version: u64) -> Arc<RoomCell> {
        if let Ok(held) = self.get(room.id()) {
            return held;
        }
        let (states, _) = broadcast::channel(CHANNEL_DEPTH);
        let id = room.id().to_string();
        let code = room.code().to_string();
        let now = now_ms();
        let live = Live::new(room, now);
        let sent = room_message(&room_view(&live, now), 0);
        let kept = (0, live.room.to_json());
        let cell = Arc::new(RoomCell {
            live: Mutex::new(live),
            sockets: Arc::default(),
            states,
            outbox: Mutex::new(Outbox {
                waiting: std::collections::VecDeque::new(),
                version: 0,
                versions: std::collections::VecDeque::new(),
                last_save: 0,
                sent,
                sent_version: 0,
                kept,
                kept_version: version,
                queued_version: version,
            }),
            wake: Notify::new(),
            crowd_due: std::sync::atomic::AtomicBool::new(false),
        });
        lock(&self.inner.rooms).insert(id.clone(), cell.clone());
        lock(&self.inner.codes).insert(code, id);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(run_timer(self.clone(), Arc::downgrade(&cell)));
        }
        cell
    }

    /// A pass for a socket of `client` on the room in `cell`, or why it is refused (too many
    /// from this address, in this room, or on the server).
    pub fn admit(&self, client: ClientAddr, cell: &RoomCell) -> Result<SocketPass, ApiError> {
        self.inner.sockets.admit(client, &cell.sockets)
    }

    /// Whether `client` may make a room now: 429 `too-many-rooms` past its rate, 503
    /// `rooms-full` when the server holds [`MAX_ROOMS`] games in progress.
    pub async fn may_create(&self, client: ClientAddr) -> Result<(), ApiError> {
        let (burst, every) = self.inner.makers.rate();
        if let Err(wait) = self.inner.makers.spend(client.0).await {
            return Err(ApiError::new(
                ErrorCode::TooManyRooms,
                format!(
                    "rooms are made {burst} at once and then one every {} s; try again in {wait} s",
                    every.as_secs()
                ),
            )
            .with_params(serde_json::json!({ "burst": burst, "every_seconds": every.as_secs() }))
            .with_retry_after(wait));
        }
        if self.live_rooms() >= MAX_ROOMS {
            return Err(ApiError::new(
                ErrorCode::RoomsFull,
                format!(
                    "the server holds {MAX_ROOMS} games in progress, its most; try again later"
                ),
            )
            .with_params(serde_json::json!({ "max": MAX_ROOMS }))
            .with_retry_after(60));
        }
        Ok(())
    }

    /// Holds the new `room`, made by `client` (see [`RoomHub::may_create`]), once it is
    /// kept.
    pub async fn create(&self, client: ClientAddr, room: Room) -> Result<Arc<RoomCell>, ApiError> {
        self.may_create(client).await?;
        if let Some((n, _, _)) = self.save(&room, 1, 0)? {
            self.inner.archive.room_saved(n).await?;
        }
        Ok(self.insert(room, 1))
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
    /// queued to be kept, its timer woken and a game it ended saved to My games, and once
    /// the room is kept its state goes to every socket and the change is answered. A refusal
    /// changes nothing.
    pub async fn act<R>(
        &self,
        cell: &RoomCell,
        change: impl Fn(&mut Live, u64) -> Result<R, RoomError>,
    ) -> Result<R, ApiError> {
        self.act_if_changed(cell, |live, now| change(live, now).map(|r| (r, true)))
            .await
    }

    /// As [`RoomHub::act`], for a change that may leave the room as it was (a visitor who
    /// watches, or a player who comes back): `change` says whether it changed the room, and
    /// a room left as it was is neither kept again nor sent. A change refused because
    /// another server changed the room meanwhile is judged again on the room as kept now.
    pub async fn act_if_changed<R>(
        &self,
        cell: &RoomCell,
        change: impl Fn(&mut Live, u64) -> Result<(R, bool), RoomError>,
    ) -> Result<R, ApiError> {
        for _ in 1..JUDGED_AT_MOST {
            let judged_on = lock(&cell.outbox).kept_version;
            match self.act_once(cell, &change).await {
                // A refusal on a room another server may have moved on (its news not here
                // yet) is judged again on the room as kept, when that is later.
                Ok(Err(refused))
                    if self.inner.archive.is_shared()
                        && refused.kind != ErrorCode::NotSaved
                        && self.moved_on(cell, judged_on).await? => {}
                Ok(acted) => return acted,
                Err(Conflict) => {
                    self.reload(cell).await?;
                }
            }
        }
        self.act_once(cell, &change)
            .await
            .unwrap_or_else(|Conflict| {
                Err(ApiError::new(
                    ErrorCode::NotSaved,
                    "the room was changed on another server meanwhile; try again",
                ))
            })
    }

    /// One judgement of `change` (see [`RoomHub::act_if_changed`]); a [`Conflict`] when
    /// another server changed the room since it was read.
    async fn act_once<R>(
        &self,
        cell: &RoomCell,
        change: &impl Fn(&mut Live, u64) -> Result<(R, bool), RoomError>,
    ) -> Result<Result<R, ApiError>, Conflict> {
        let now = now_ms();
        // While changes cannot be kept, none is made.
        if let Err(refused) = self.inner.archive.refuses_changes() {
            return Ok(Err(refused));
        }
        let (result, save) = {
            let mut live = cell.lock();
            let before = (live.room.status(), live.room.number());
            let result = change(&mut live, now);
            // A flag that fell while the change was refused is a change too.
            let ended_meanwhile = live.room.status() == Status::Over && before.0 != Status::Over;
            if result.is_err() && !ended_meanwhile {
                return Ok(result.map(|(r, _)| r).map_err(|e| room_error(&e)));
            }
            if matches!(result, Ok((_, false))) && !ended_meanwhile {
                return Ok(result.map(|(r, _)| r).map_err(|e| room_error(&e)));
            }
            let result = result.map(|(r, _)| r);
            match self.changed(cell, &live, before, now) {
                Ok(save) => (result, save),
                Err(refused) => {
                    cell.undo_unqueued(&mut live, now);
                    drop(live);
                    self.send_kept(cell);
                    return Ok(Err(refused));
                }
            }
        };
        if let Err(refused) = self.deliver(cell, save).await? {
            return Ok(Err(refused));
        }
        Ok(result.map_err(|e| room_error(&e)))
    }

    /// A change of who is here (no change of the room itself, nothing kept): a player's goes
    /// to every socket at once, a spectator's with the next crowd message (within
    /// [`CROWD_EVERY`]).
    pub fn presence(&self, cell: &Arc<RoomCell>, player: bool, f: impl FnOnce(&mut Live, u64)) {
        f(&mut cell.lock(), now_ms());
        if player {
            let _ = cell.states.send(cell.crowd_now());
        } else {
            crowd_later(cell);
        }
    }

    /// Queues the changed room of `live` to be kept and its state behind that save; wakes its
    /// timer and saves a game it ended. The number of the save; refused when the room cannot
    /// be kept now.
    fn changed(
        &self,
        cell: &RoomCell,
        live: &Live,
        before: (Status, u32),
        now: u64,
    ) -> Result<Option<u64>, ApiError> {
        let (version, over) = {
            let outbox = lock(&cell.outbox);
            (outbox.queued_version + 1, outbox.queued_version)
        };
        let save = self.save(&live.room, version, over)?;
        lock(&cell.outbox).queued_version = version;
        let number = save.as_ref().map(|(n, _, _)| *n);
        cell.post(live, save, now);
        cell.wake.notify_one();
        let ended = live.room.status() == Status::Over
            && (before.0 != Status::Over || before.1 != live.room.number());
        if ended {
            self.archive_game(&live.room);
            crate::rooms::rating::count_game(&self.inner.archive, &live.room, now_ms());
        }
        Ok(number)
    }

    /// Saves the finished game of `room` to both players' archives (once when they share
    /// one, as on the learner's own app), under a key of the room, the game's number and the
    /// side, with both names, the time control and why it ended.
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
            key: None,
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
            owner: String::new(),
        };
        // A seat kept before seats had owners is the one learner's of the app.
        let owner = |side| {
            room.seat(side)
                .and_then(|s| s.owner.clone())
                .unwrap_or_default()
        };
        let base = format!("room-{}-{}", room.id(), room.number());
        let (red, black) = (owner(Color::Red), owner(Color::Black));
        let rows = if red == black {
            vec![(base, red)]
        } else {
            vec![
                (format!("{base}-red"), red),
                (format!("{base}-black"), black),
            ]
        };
        let entries: Vec<GameEntry> = rows
            .into_iter()
            .map(|(key, owner)| GameEntry {
                key: Some(key),
                owner,
                ..entry.clone()
            })
            .collect();
        let archive = self.inner.archive.clone();
        if archive.unavailable_reason().is_some() {
            return;
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let saved = archive
                    .run(move |a| entries.iter().try_for_each(|e| a.save(e).map(|_| ())))
                    .await;
                if let Err(e) = saved {
                    crate::say_err!("rooms: the finished game was not archived: {}", e.message);
                }
            });
        }
    }
}

/// Sends the room's crowd to its sockets after [`CROWD_EVERY`], once for every change of it
/// meanwhile.
fn crowd_later(cell: &Arc<RoomCell>) {
    use std::sync::atomic::Ordering;
    if cell.crowd_due.swap(true, Ordering::AcqRel) {
        return;
    }
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        cell.crowd_due.store(false, Ordering::Release);
        return;
    };
    let weak = Arc::downgrade(cell);
    runtime.spawn(async move {
        tokio::time::sleep(CROWD_EVERY).await;
        if let Some(cell) = weak.upgrade() {
            cell.crowd_due.store(false, Ordering::Release);
            let _ = cell.states.send(cell.crowd_now());
        }
    });
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
            let ticked = hub
                .act(&strong, |live, now| {
                    if live.room.tick(now) {
                        Ok(())
                    } else {
                        Err(RoomError::NotYourTurn)
                    }
                })
                .await;
            // A fallen flag that cannot be kept now is tried again in a while.
            if ticked.is_err_and(|e| e.kind == ErrorCode::NotSaved) {
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            }
        }
    }
}

/// Whether the room in `live` may be let go at `now`: no socket open, and its game over for
/// [`FINISHED_KEPT_MS`] or no one here for [`ABANDONED_AFTER_MS`].
fn is_idle(live: &Live, now: u64) -> bool {
    if live.anyone_here() {
        return false;
    }
    let last_here = [Color::Red, Color::Black]
        .into_iter()
        .filter_map(|side| live.away_since(side))
        .chain([live.room.updated_ms()])
        .max()
        .unwrap_or(0);
    match live.room.status() {
        Status::Over => {
            let since = last_here.max(live.room.ended_ms().unwrap_or(0));
            now.saturating_sub(since) >= FINISHED_KEPT_MS
        }
        _ => now.saturating_sub(last_here) >= ABANDONED_AFTER_MS,
    }
}

/// Lets go of idle rooms every [`SWEEP_EVERY`], while the hub is there.
async fn sweep(hub: std::sync::Weak<Inner>) {
    loop {
        tokio::time::sleep(SWEEP_EVERY).await;
        let Some(inner) = hub.upgrade() else { return };
        RoomHub { inner }.let_go_idle(now_ms());
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
        RoomError::RatedAnalysis => ErrorCode::AnalysisOff,
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

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_rooms::{Player, RoomSettings, Rules, SideChoice};

    fn room(id: &str, now: u64) -> Room {
        let settings = RoomSettings {
            side: SideChoice::Red,
            clock: None,
            rules: Rules::Asian,
            rated: false,
        };
        Room::create(
            id.into(),
            format!("C{id}"),
            &settings,
            format!("t-{id}"),
            Player::named("Ann"),
            now,
        )
        .0
    }

    fn test_gate() -> SocketGate {
        SocketGate::new(
            Arc::new(tokio::sync::Semaphore::new(100)),
            crate::rooms::gate::SocketLimits::default(),
        )
    }

    fn client() -> ClientAddr {
        ClientAddr(std::net::IpAddr::from([192, 0, 2, 7]))
    }

    #[tokio::test]
    async fn finished_and_abandoned_rooms_are_let_go_and_only_games_in_progress_count() {
        let hub = RoomHub::open(ArchiveService::off(), 10, test_gate());
        let now = now_ms();
        let waiting = hub.create(client(), room("waiting", now)).await.unwrap();
        let watched = hub.create(client(), room("watched", now)).await.unwrap();
        let finished = hub.create(client(), room("finished", now)).await.unwrap();
        hub.act(&finished, |live, now| {
            live.room
                .join(None, "t-bo".into(), Player::named("Bo"), now)
                .map(|_| ())
        })
        .await
        .unwrap();
        hub.act(&finished, |live, now| {
            live.room.resign(Role::Player(Color::Red), now)
        })
        .await
        .unwrap();
        hub.presence(&watched, false, |live, _| live.arrive(None));
        assert_eq!(hub.live_rooms(), 2, "the finished game does not count");

        assert_eq!(hub.let_go_idle(now + 1000), 0, "nothing is idle yet");
        assert_eq!(hub.let_go_idle(now + FINISHED_KEPT_MS + 1000), 1);
        assert!(hub.get("finished").is_err(), "the finished room is let go");
        assert!(hub.id_of_code("Cfinished").is_none());
        assert!(hub.get("waiting").is_ok(), "a waiting room is kept a day");

        assert_eq!(hub.let_go_idle(now + ABANDONED_AFTER_MS + 1000), 1);
        assert!(hub.get("waiting").is_err(), "no one came back for a day");
        assert!(
            hub.get("watched").is_ok(),
            "a room with a socket open stays"
        );
        drop((waiting, watched));
    }

    #[tokio::test]
    async fn a_client_past_its_burst_is_refused_with_when_to_come_back() {
        let hub = RoomHub::open(ArchiveService::off(), 2, test_gate());
        let now = now_ms();
        hub.create(client(), room("a", now)).await.unwrap();
        hub.create(client(), room("b", now)).await.unwrap();
        let refused = hub.create(client(), room("c", now)).await.err().unwrap();
        assert_eq!(refused.kind, ErrorCode::TooManyRooms);
        assert_eq!(refused.status, axum::http::StatusCode::TOO_MANY_REQUESTS);
        assert!(refused.retry_after.is_some_and(|s| (1..=30).contains(&s)));
        assert!(hub.get("c").is_err(), "a refused room is not held");
        let other = ClientAddr(std::net::IpAddr::from([192, 0, 2, 8]));
        hub.create(other, room("d", now)).await.unwrap();
    }
}
