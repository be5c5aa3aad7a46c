//! Who may open a room's socket: every socket holds one of the server's connection places
//! (the same cap as its HTTP connections, so that held sockets cannot crowd out requests), at
//! most [`SocketLimits::per_address`] come from one client address, and at most
//! [`SocketLimits::per_room`] watch one room. A socket's pass gives its places back when it
//! closes.

use crate::kit::client_addr::ClientAddr;
use crate::kit::error::{ApiError, ErrorCode};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Sockets one client address may hold at once, unless the server is told otherwise.
pub const SOCKETS_PER_ADDRESS: u32 = 64;
/// Sockets one room may have at once (its players and spectators).
pub const SOCKETS_PER_ROOM: u32 = 1_000;

/// The caps on sockets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SocketLimits {
    /// Sockets one client address may hold at once.
    pub per_address: u32,
    /// Sockets one room may have at once.
    pub per_room: u32,
}

impl Default for SocketLimits {
    fn default() -> Self {
        SocketLimits {
            per_address: SOCKETS_PER_ADDRESS,
            per_room: SOCKETS_PER_ROOM,
        }
    }
}

/// The server's sockets, counted.
pub struct SocketGate {
    /// The connection places, shared with the server's accepting of connections.
    connections: Arc<Semaphore>,
    limits: SocketLimits,
    by_address: Arc<Mutex<HashMap<IpAddr, u32>>>,
}

/// One socket's places, given back when it is dropped.
pub struct SocketPass {
    _connection: OwnedSemaphorePermit,
    address: IpAddr,
    by_address: Arc<Mutex<HashMap<IpAddr, u32>>>,
    room: Arc<AtomicU32>,
}

impl SocketGate {
    /// The gate on `connections` (the server's connection places) with `limits`.
    pub fn new(connections: Arc<Semaphore>, limits: SocketLimits) -> SocketGate {
        SocketGate {
            connections,
            limits,
            by_address: Arc::default(),
        }
    }

    /// A pass for a socket of `client` on the room whose sockets `room` counts; refused
    /// (429 `too-many-sockets`, 503 `room-crowded` or `busy`) past a cap.
    pub fn admit(&self, client: ClientAddr, room: &Arc<AtomicU32>) -> Result<SocketPass, ApiError> {
        let address = client.0;
        {
            let mut by_address = lock(&self.by_address);
            let held = by_address.entry(address).or_default();
            if *held >= self.limits.per_address {
                return Err(ApiError::new(
                    ErrorCode::TooManySockets,
                    format!(
                        "one address may hold at most {} sockets at once",
                        self.limits.per_address
                    ),
                )
                .with_params(serde_json::json!({ "max": self.limits.per_address })));
            }
            *held += 1;
        }
        if room.fetch_add(1, Ordering::SeqCst) >= self.limits.per_room {
            room.fetch_sub(1, Ordering::SeqCst);
            give_back(&self.by_address, address);
            return Err(ApiError::new(
                ErrorCode::RoomCrowded,
                format!(
                    "a room may have at most {} sockets at once",
                    self.limits.per_room
                ),
            )
            .with_params(serde_json::json!({ "max": self.limits.per_room })));
        }
        let Ok(connection) = self.connections.clone().try_acquire_owned() else {
            room.fetch_sub(1, Ordering::SeqCst);
            give_back(&self.by_address, address);
            return Err(ApiError::new(
                ErrorCode::Busy,
                "the server holds as many connections as it may",
            )
            .with_params(serde_json::json!({ "retry_after": 5 })));
        };
        Ok(SocketPass {
            _connection: connection,
            address,
            by_address: self.by_address.clone(),
            room: room.clone(),
        })
    }
}

impl Drop for SocketPass {
    fn drop(&mut self) {
        self.room.fetch_sub(1, Ordering::SeqCst);
        give_back(&self.by_address, self.address);
    }
}

/// Gives back one of `address`'s sockets in `by_address`.
fn give_back(by_address: &Mutex<HashMap<IpAddr, u32>>, address: IpAddr) {
    let mut by_address = lock(by_address);
    if let Some(held) = by_address.get_mut(&address) {
        *held = held.saturating_sub(1);
        if *held == 0 {
            by_address.remove(&address);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_are_capped_by_address_room_and_connection_places_and_given_back() {
        let places = Arc::new(Semaphore::new(5));
        let gate = SocketGate::new(
            places.clone(),
            SocketLimits {
                per_address: 2,
                per_room: 3,
            },
        );
        let (a, b, c) = (
            ClientAddr(IpAddr::from([192, 0, 2, 1])),
            ClientAddr(IpAddr::from([192, 0, 2, 2])),
            ClientAddr(IpAddr::from([192, 0, 2, 3])),
        );
        let room = Arc::new(AtomicU32::new(0));
        let first = gate.admit(a, &room).unwrap();
        let _second = gate.admit(a, &room).unwrap();
        assert_eq!(gate.admit(a, &room).err().unwrap().code, "too-many-sockets");
        let _third = gate.admit(b, &room).unwrap();
        assert_eq!(gate.admit(c, &room).err().unwrap().code, "room-crowded");
        assert_eq!(places.available_permits(), 2, "each socket holds a place");
        drop(first);
        assert_eq!(room.load(Ordering::SeqCst), 2);
        let _again = gate.admit(a, &room).unwrap();
        // Another room, but no connection place left.
        let other = Arc::new(AtomicU32::new(0));
        let _d = gate.admit(c, &other).unwrap();
        let _e = gate.admit(c, &other).unwrap();
        assert_eq!(gate.admit(b, &other).err().unwrap().code, "busy");
        assert_eq!(other.load(Ordering::SeqCst), 2, "a refusal takes nothing");
    }
}
