//! The HTTP server: routes, the host check, binding to the first free port, and the
//! shutdown.
//!
//! A shutdown ([`serve`], on its first stop request) ends in bounded time: the listener stops
//! accepting, every search is stopped (so each engine reply answers its best move so far and
//! every analysis or review stream ends), the connections are given [`DRAIN_TIME`] to finish,
//! and then the archive's queue (games and rooms) is flushed, so that every change the page
//! was told of is on disk. A second stop request skips the rest of the wait for connections, not the flush.

use crate::kit::archive_store;
use crate::kit::assets;
use crate::kit::client_addr::TrustedProxies;
use crate::kit::host_guard::{AllowedHosts, check_host};
use crate::kit::limits::MAX_BODY;
use crate::state::{AppState, ServerOptions};
use axum::Router;
use axum::extract::ConnectInfo;
use axum::extract::DefaultBodyLimit;
use axum::http::Uri;
use axum::routing::get;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tower::ServiceExt;

/// Ports tried after the requested one when it is taken.
const PORT_TRIES: u16 = 20;
/// How long a shutdown waits for the open connections to finish their requests.
pub const DRAIN_TIME: Duration = Duration::from_secs(5);
/// How long a shutdown waits at most for the archive to save what is queued.
pub const FLUSH_TIME: Duration = Duration::from_secs(4);
/// The pause after a failed accept (out of file descriptors) before the next one.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// The app for a server that answers to `allowed` hosts, sized by default.
pub fn router(allowed: AllowedHosts) -> Router {
    router_with(allowed, &ServerOptions::default())
}

/// The app for a server that answers to `allowed` hosts, sized by `options`.
pub fn router_with(allowed: AllowedHosts, options: &ServerOptions) -> Router {
    app(allowed, AppState::new(options))
}

/// The app on `state`, answering to `allowed` hosts.
fn app(allowed: AllowedHosts, state: AppState) -> Router {
    let archive = state.sessions.archive().clone();
    let accounts = state.accounts.clone();
    let api = crate::routes().with_state(state);
    Router::new()
        .merge(api)
        .fallback(get(|uri: Uri| async move { assets::serve(uri.path()) }))
        .layer(axum::middleware::from_fn_with_state(
            accounts,
            crate::kit::viewer::guest_cookie,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            archive,
            archive_store::answer_when_saved,
        ))
        .layer(axum::middleware::from_fn_with_state(allowed, check_host))
        .layer(axum::middleware::from_fn(crate::kit::error::json_errors))
        .layer(axum::middleware::map_response(
            crate::kit::security_headers::add,
        ))
}

/// Binds `host`:`port`, or the next free port among the following few.
pub async fn bind(host: &str, port: u16) -> std::io::Result<TcpListener> {
    let mut last = None;
    for p in port..=port.saturating_add(PORT_TRIES) {
        let addr = if host.contains(':') && !host.starts_with('[') {
            format!("[{host}]:{p}")
        } else {
            format!("{host}:{p}")
        };
        match TcpListener::bind(&addr).await {
            Ok(l) => return Ok(l),
            Err(e) => last = Some(e),
        }
        if port == 0 {
            break;
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no port to try")))
}

/// The address a browser should open for a listener bound for `host`.
pub fn url(host: &str, addr: SocketAddr) -> String {
    let shown = match host {
        "0.0.0.0" | "::" => "127.0.0.1".to_string(),
        h if h.contains(':') && !h.starts_with('[') => format!("[{h}]"),
        h => h.to_string(),
    };
    format!("http://{shown}:{}/", addr.port())
}

/// How a server ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shutdown {
    /// Every connection finished within [`DRAIN_TIME`] (and no second stop request cut the
    /// wait short).
    pub drained: bool,
    /// Saves the archive had not committed when the server gave up waiting ([`FLUSH_TIME`]);
    /// 0 when everything was saved.
    pub unsaved: u64,
}

/// Serves the app on `listener` (bound for `host`), sized by `options`, until a message
/// arrives on `stops`; then shuts down as the module says. A second message cuts the wait
/// for connections short. Once every sender is gone, no message can stop it.
pub async fn serve(
    listener: TcpListener,
    host: &str,
    options: &ServerOptions,
    mut stops: mpsc::UnboundedReceiver<()>,
) -> std::io::Result<Shutdown> {
    let port = listener.local_addr()?.port();
    let state = AppState::new(options);
    let mut allowed = AllowedHosts::for_address(host, port);
    let mut trusted = TrustedProxies::default();
    if let Some(site) = &options.site {
        allowed = allowed.with(site.authority());
        trusted = TrustedProxies(std::sync::Arc::new(site.trusted_proxies().to_vec()));
    }
    let app = app(allowed, state.clone());
    let (begin, begun) = tokio::sync::oneshot::channel::<()>();
    let connections = descriptor_room().map_or(options.max_connections, |room| {
        room.min(options.max_connections)
    });
    // Fewer places when the process may open fewer files.
    let places = state.connections.clone();
    places.forget_permits(options.max_connections.saturating_sub(connections.max(1)));
    let limits = (options.header_read_time, places, connections.max(1));
    let mut server = tokio::spawn(accept_connections(listener, app, limits, trusted, begun));
    tokio::select! {
        ended = &mut server => {
            // The server failed before any stop was asked for.
            ended.map_err(std::io::Error::other)??;
        }
        () = next_stop(&mut stops) => {}
    }
    let _ = begin.send(());
    let pool = state.pool.clone();
    let drained = tokio::select! {
        (_, ended) = async { tokio::join!(pool.shut_down(DRAIN_TIME), &mut server) } => {
            ended.is_ok()
        }
        _ = tokio::time::sleep(DRAIN_TIME) => false,
        () = next_stop(&mut stops) => false,
    };
    let archive = state.sessions.archive();
    let _ = tokio::time::timeout(FLUSH_TIME, archive.flush()).await;
    Ok(Shutdown {
        drained,
        unsaved: archive.pending_saves(),
    })
}

/// Serves each connection `listener` accepts with `app` until `stop` fires, then waits for
/// the open connections to finish their requests. Each holds one of the places of `slots`
/// (which the room sockets share), so more wait to be accepted; one that has not sent a
/// whole request head within
/// `header_read_time`, after it opened or after its last answer, is closed.
async fn accept_connections(
    listener: TcpListener,
    app: Router,
    (header_read_time, slots, max_connections): (
        Duration,
        std::sync::Arc<tokio::sync::Semaphore>,
        usize,
    ),
    trusted: TrustedProxies,
    stop: tokio::sync::oneshot::Receiver<()>,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    // Dropped at the stop: every connection then finishes its request and closes.
    let (closing, closed) = tokio::sync::watch::channel(());
    // The HTTP connections being served, to wait for at the end (the room sockets hold
    // places of `slots` too, and end with the server).
    let serving = std::sync::Arc::new(tokio::sync::Semaphore::new(max_connections));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_read_time)
        .keep_alive(true);
    let mut stop = std::pin::pin!(stop);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.map_err(std::io::Error::other)?,
            _ = &mut stop => break,
        };
        let served = serving
            .clone()
            .try_acquire_owned()
            .map_err(std::io::Error::other)?;
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors, or a connection reset before it was taken: the
                // listener goes on after a moment.
                Err(_) => {
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        let _ = stream.set_nodelay(true);
        // Each request carries its connection's peer and the proxies trusted to name the
        // client.
        let trusted = trusted.clone();
        let service = hyper_util::service::TowerToHyperService::new(app.clone().map_request(
            move |mut request: axum::http::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request.extensions_mut().insert(trusted.clone());
                request
            },
        ));
        let connection = builder
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let mut closed = closed.clone();
        tokio::spawn(async move {
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = closed.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            drop((slot, served));
        });
    }
    drop(listener);
    drop(closing);
    // Every connection has finished.
    let all = u32::try_from(max_connections).unwrap_or(u32::MAX);
    let _ = serving.acquire_many(all).await;
    Ok(())
}

/// Descriptors kept for the archive, the engines' threads and the rest of the process.
const DESCRIPTORS_KEPT: usize = 32;

/// How many more connections the process's limit on open files leaves room for (Linux:
/// from `/proc/self`), so that connections never take the descriptors the archive needs.
fn descriptor_room() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let soft: usize = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))?
        .split_whitespace()
        .nth(3)?
        .parse()
        .ok()?;
    let open = std::fs::read_dir("/proc/self/fd").ok()?.count();
    Some(soft.saturating_sub(open + DESCRIPTORS_KEPT))
}

/// The next stop request; never, once no one can send one.
async fn next_stop(stops: &mut mpsc::UnboundedReceiver<()>) {
    if stops.recv().await.is_none() {
        std::future::pending::<()>().await;
    }
}
