//! Searches streamed to a page as server-sent events: an engine of the pool held for the
//! stream, the events the search sends, and the watch that stops the search when the page
//! goes away.

use crate::kit::error::ApiError;
use crate::kit::search_pool::{SearchKind, SearchPool, SearchStop};
use axum::response::sse::{Event, KeepAlive, KeepAliveStream, Sse};
use futures_util::Stream;
use serde::Serialize;
use std::convert::Infallible;
use std::pin::Pin;
use std::time::Duration;
use tokio::sync::mpsc;
use xiangqi_engine::Engine;

/// The stream a page reads.
pub type EventStream =
    Sse<KeepAliveStream<Pin<Box<dyn Stream<Item = Result<Event, Infallible>> + Send>>>>;

/// Where a streamed search sends its events.
pub struct Events {
    tx: mpsc::Sender<Event>,
}

/// The event `name` with `data` as its JSON.
pub fn event(name: &str, data: &impl Serialize) -> Event {
    Event::default()
        .event(name)
        .json_data(data)
        .unwrap_or_else(|_| Event::default().event(name).data("{}"))
}

impl Events {
    /// Sends `event` unless the page is not keeping up: a later update replaces it, and a
    /// page that left only means it is not seen.
    pub fn update(&self, event: Event) {
        let _ = self.tx.try_send(event);
    }

    /// Sends `event`, waiting for room: the last event of a search, which the page must see.
    pub fn last(&self, event: Event) {
        let _ = self.tx.blocking_send(event);
    }
}

/// Borrows an engine of `pool` for a search for `key` (a game's id) and streams what
/// `search` sends to the page; the stream ends when `search` returns. A page that leaves
/// while the stream waits for an engine drops this future and its place in the queue; a page
/// that stops listening stops the search (`stop`).
pub(crate) async fn stream_search(
    pool: &SearchPool,
    key: &str,
    stop: &SearchStop,
    search: impl FnOnce(&mut Engine, &Events) + Send + 'static,
) -> Result<EventStream, ApiError> {
    let lease = {
        let stop_when_dropped = stop.on_drop();
        let lease = pool.acquire(key, SearchKind::Analysis, stop).await?;
        stop_when_dropped.disarm();
        lease
    };
    let (tx, rx) = mpsc::channel::<Event>(8);
    let (finished, mut ended) = tokio::sync::oneshot::channel::<()>();
    let (watch, stopper) = (tx.clone(), stop.clone());
    tokio::spawn(async move {
        tokio::select! {
            _ = watch.closed() => stopper.stop(),
            _ = &mut ended => {}
        }
    });
    let work = lease.run(move |engine| {
        let events = Events { tx };
        search(engine, &events);
        // The watch ends, and with the search's own sender gone the page's stream too.
        let _ = finished.send(());
    });
    // The search runs on its own; the stream ends when it does.
    tokio::spawn(work);
    Ok(events(rx))
}

/// A stream of the one event `event`, for an answer found without a search.
pub fn one_event(event: Event) -> EventStream {
    let (tx, rx) = mpsc::channel::<Event>(1);
    let _ = tx.try_send(event);
    events(rx)
}

/// How often a stream to a page writes when nothing else is sent: a page that left is
/// noticed at the next write, so that its search stops within seconds.
const KEEP_ALIVE: Duration = Duration::from_secs(2);

/// The page's stream of the events `rx` receives, ending when every sender is dropped, kept
/// alive meanwhile.
pub(crate) fn events(rx: mpsc::Receiver<Event>) -> EventStream {
    let stream =
        futures_util::stream::unfold(
            rx,
            |mut rx| async move { rx.recv().await.map(|e| (Ok(e), rx)) },
        );
    Sse::new(Box::pin(stream) as Pin<Box<dyn Stream<Item = _> + Send>>)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}
