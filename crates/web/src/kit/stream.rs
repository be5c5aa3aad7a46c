//! Searches streamed to a page: an engine of the pool held for the stream, and the watch that
//! stops the search when the page goes away.

use crate::kit::error::ApiError;
use crate::kit::search_pool::{Lease, SearchKind, SearchPool, SearchStop};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use std::convert::Infallible;
use std::time::Duration;

/// What a streamed search holds: an engine of the pool, the channel of its events, and the
/// signal to send when the search ends.
pub(crate) struct StreamSearch {
    /// The engine borrowed from the pool, given back when dropped.
    pub lease: Lease,
    /// Where the search sends its events.
    pub tx: tokio::sync::mpsc::Sender<Event>,
    /// What the page's stream reads.
    pub rx: tokio::sync::mpsc::Receiver<Event>,
    /// Send (or drop) once the search has ended, to end the watch on the page.
    pub finished: tokio::sync::oneshot::Sender<()>,
}

/// Borrows an engine of `pool` for a search of game `id` streamed to a page, and watches the
/// page: a page that leaves while the stream waits for an engine drops this future and its
/// place in the queue; a page that stops listening stops the search (`stop`).
pub(crate) async fn stream_search(
    pool: &SearchPool,
    id: &str,
    stop: &SearchStop,
) -> Result<StreamSearch, ApiError> {
    let lease = {
        let stop_when_dropped = stop.on_drop();
        let lease = pool.acquire(id, SearchKind::Analysis, stop).await?;
        stop_when_dropped.disarm();
        lease
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(8);
    let (finished, mut ended) = tokio::sync::oneshot::channel::<()>();
    let (watch, stopper) = (tx.clone(), stop.clone());
    tokio::spawn(async move {
        tokio::select! {
            _ = watch.closed() => stopper.stop(),
            _ = &mut ended => {}
        }
    });
    Ok(StreamSearch {
        lease,
        tx,
        rx,
        finished,
    })
}

/// How often a stream to a page writes when nothing else is sent: a page that left is
/// noticed at the next write, so that its search stops within seconds.
const KEEP_ALIVE: Duration = Duration::from_secs(2);

/// The page's stream of the events `rx` receives, ending when the search drops its sender,
/// kept alive meanwhile.
pub fn events(
    rx: tokio::sync::mpsc::Receiver<Event>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let stream =
        futures_util::stream::unfold(
            rx,
            |mut rx| async move { rx.recv().await.map(|e| (Ok(e), rx)) },
        );
    Sse::new(stream).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}
