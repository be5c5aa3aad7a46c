//! Searches streamed to a page: an engine of the pool held for the stream, and the watch that
//! stops the search when the page goes away.

use crate::kit::error::ApiError;
use crate::kit::search_pool::{Lease, SearchKind, SearchPool, SearchStop};
use axum::response::sse::Event;

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
