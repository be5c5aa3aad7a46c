//! `xiangqi play`: starts the browser app on a local port and prints its address, and where
//! the player's games are kept; `xiangqi serve`: hosts it for many people at its public
//! address, behind a reverse proxy. Ctrl+C (SIGINT) or SIGTERM stops either.
//!
//! A stop request is always heard, even when the shell that started the server in the
//! background set SIGINT to be ignored: the server installs its own handlers. The shutdown
//! takes at most [`DRAIN_TIME`](xiangqi_web::DRAIN_TIME) + [`FLUSH_TIME`](xiangqi_web::FLUSH_TIME)
//! (under 10 s): searches stop, connections finish, every confirmed change is saved, and the
//! process exits 0. A second Ctrl+C skips the wait for connections, not the saving.

use clap::Args;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use xiangqi_web::{ARCHIVE_FILE, PoolOptions, ServerOptions};

/// Where to serve the app.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The port to try first; the next free one is taken when it is busy.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on (loopback unless given).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the app in the default browser.
    #[arg(long)]
    pub open: bool,
    #[command(flatten)]
    pub size: SizeArgs,
}

impl Default for PlayArgs {
    fn default() -> Self {
        PlayArgs {
            port: 8080,
            host: "127.0.0.1".to_string(),
            open: false,
            size: SizeArgs::default(),
        }
    }
}

/// Where and for whom to host the app: many people, through its public address.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The address and port to listen on, e.g. `127.0.0.1:8080` behind a proxy on the same
    /// machine, or `0.0.0.0:8080`.
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: SocketAddr,
    /// The address people open, e.g. `https://xiangqi.club.example`: the server answers to
    /// its host (and to the loopback names).
    #[arg(long, value_name = "URL")]
    pub public_url: String,
    /// A reverse proxy in front of the server, whose `X-Forwarded-For` names the client
    /// (repeat for several).
    #[arg(long = "trusted-proxy", value_name = "IP")]
    pub trusted_proxies: Vec<IpAddr>,
    /// Who may make an account: anyone (`open`), whoever has an invitation code from
    /// `xiangqi users invite` (`invite`), or no one: the host adds accounts with `xiangqi users
    /// add` (`closed`).
    #[arg(long, value_name = "POLICY", default_value = "open", value_parser = parse_sign_up)]
    pub sign_up: xiangqi_accounts::SignUp,
    /// Keep everything in a PostgreSQL database (`postgres://user:password@host/name`) in
    /// place of the data folder's SQLite file, so that several servers share it; its tables
    /// are made on the first start.
    #[arg(long, value_name = "URL")]
    pub database: Option<String>,
    #[command(flatten)]
    pub size: SizeArgs,
}

/// What a server keeps and how many engine searches it runs.
#[derive(Args, Debug, Clone, Default)]
pub struct SizeArgs {
    /// Engine searches that run at once, each with its own hash table (the number of cores
    /// unless given); more requests wait in a queue.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub searchers: Option<u16>,
    /// Engine requests that may wait for a searcher (4 per searcher unless given); beyond
    /// them the server answers 503 with Retry-After.
    #[arg(long)]
    pub search_queue: Option<usize>,
    /// The folder for the data (the games archive, `games.sqlite3`):
    /// `$XDG_DATA_HOME/xiangqi` or `~/.local/share/xiangqi` unless given; created on start.
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Rooms (play a friend) one client address may make at once, after which it may make one
    /// every 30 s (10 unless given).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub rooms_burst: Option<u32>,
    /// Room sockets one client address may hold at once (64 unless given); each socket also
    /// counts against the server's connections.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub sockets_per_address: Option<u32>,
    /// Connections (HTTP and room sockets) served at once (1024 unless given, and never more
    /// than the process's limit on open files leaves room for); more wait to be accepted.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: Option<u32>,
}

/// How long the runtime waits, after the server has ended, for searches still on their
/// threads.
const RUNTIME_EXIT: std::time::Duration = std::time::Duration::from_millis(500);

/// Serves the app until it is stopped by Ctrl+C or SIGTERM.
pub fn run(args: &PlayArgs) -> Result<(), String> {
    let host = args.host.clone();
    let port = args.port;
    run_server(&args.size, None, args.open, move || async move {
        let listener = xiangqi_web::bind(&host, port)
            .await
            .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot read the listening address: {e}"))?;
        let url = xiangqi_web::url(&host, addr);
        xiangqi_web::say!("Xiangqi is served at {url}  (Ctrl+C to stop)");
        Ok((listener, host, url))
    })
}

/// Hosts the app for many people at its public address until it is stopped by Ctrl+C or
/// SIGTERM.
pub fn serve(args: &ServeArgs) -> Result<(), String> {
    let site = xiangqi_web::Site::new(&args.public_url, args.trusted_proxies.clone())?;
    let listen = args.listen;
    let public = site.url().to_string();
    let proxies: Vec<String> = args
        .trusted_proxies
        .iter()
        .map(ToString::to_string)
        .collect();
    let sign_up = args.sign_up;
    run_server(
        &args.size,
        Some((site, sign_up, args.database.clone())),
        false,
        move || async move {
            // A hosted server listens where it is told, or not at all.
            let listener = tokio::net::TcpListener::bind(listen)
                .await
                .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
            let trusting = if proxies.is_empty() {
                "no proxy trusted".to_string()
            } else {
                format!("trusting the proxies {}", proxies.join(", "))
            };
            xiangqi_web::say!(
                "Xiangqi is hosted at {public}, listening on http://{listen}/ ({trusting}; sign-up \
             {}; Ctrl+C to stop)",
                sign_up.as_str()
            );
            Ok((listener, listen.ip().to_string(), public))
        },
    )
}

/// Runs the server on the listener `listen` gives (with the host it was bound for and the
/// address to open), sized by `size`, hosted as `site`, until a stop.
fn run_server<F, Fut>(
    size: &SizeArgs,
    site: Option<(xiangqi_web::Site, xiangqi_accounts::SignUp, Option<String>)>,
    open: bool,
    listen: F,
) -> Result<(), String>
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = Result<(tokio::net::TcpListener, String, String), String>>,
{
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let served = runtime.block_on(async {
        let stops = stop_requests().map_err(|e| format!("cannot listen for Ctrl+C: {e}"))?;
        let (listener, host, url) = listen().await?;
        let data = data_folder(size);
        let database = site.as_ref().and_then(|(_, _, database)| database.clone());
        match &database {
            Some(url) => report_database(url)?,
            None => report_archive(data.as_deref()),
        }
        if open {
            open_browser(&url);
        }
        let defaults = server_options(size);
        let options = match site {
            Some((site, sign_up, database)) => ServerOptions {
                data,
                database,
                site: Some(site),
                sign_up,
                ..defaults
            },
            None => ServerOptions { data, ..defaults },
        };
        let shutdown = xiangqi_web::serve(listener, &host, &options, stops)
            .await
            .map_err(|e| format!("the server stopped: {e}"))?;
        if !shutdown.drained {
            xiangqi_web::say!("Some connections were still open; they were closed.");
        }
        if shutdown.unsaved > 0 {
            return Err(format!(
                "{} changes of games could not be saved before the server stopped",
                shutdown.unsaved
            ));
        }
        xiangqi_web::say!("Stopped; every game is saved.");
        Ok(())
    });
    // Searches still on their threads are dropped with the process.
    runtime.shutdown_timeout(RUNTIME_EXIT);
    served
}

/// Stop requests: one message for each Ctrl+C (SIGINT) or SIGTERM, the first announced.
fn stop_requests() -> std::io::Result<tokio::sync::mpsc::UnboundedReceiver<()>> {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        tokio::spawn(async move {
            let mut first = true;
            loop {
                tokio::select! {
                    _ = interrupt.recv() => {}
                    _ = terminate.recv() => {}
                }
                if first {
                    xiangqi_web::say!(
                        "Stopping: finishing the requests and saving the games (Ctrl+C again to skip the wait)…"
                    );
                    first = false;
                }
                if tx.send(()).is_err() {
                    break;
                }
            }
        });
    }
    #[cfg(not(unix))]
    tokio::spawn(async move {
        while tokio::signal::ctrl_c().await.is_ok() {
            if tx.send(()).is_err() {
                break;
            }
        }
    });
    Ok(rx)
}

/// The server's size from the command line: searchers and their queue, the rooms' rate.
fn server_options(args: &SizeArgs) -> ServerOptions {
    let mut pool = match args.searchers {
        Some(n) => PoolOptions::with_searchers(usize::from(n)),
        None => PoolOptions::default(),
    };
    if let Some(queue) = args.search_queue {
        pool.queue = queue;
    }
    let defaults = ServerOptions::default();
    ServerOptions {
        pool,
        rooms_burst: args.rooms_burst.unwrap_or(defaults.rooms_burst),
        max_connections: args
            .max_connections
            .map_or(defaults.max_connections, |n| n as usize),
        sockets: xiangqi_web::SocketLimits {
            per_address: args
                .sockets_per_address
                .unwrap_or(defaults.sockets.per_address),
            ..defaults.sockets
        },
        ..defaults
    }
}

/// The data folder: `--data`, else `$XDG_DATA_HOME/xiangqi`, else
/// `$HOME/.local/share/xiangqi`; none when neither variable is set.
pub(crate) fn data_folder(args: &SizeArgs) -> Option<PathBuf> {
    if let Some(dir) = &args.data {
        return Some(dir.clone());
    }
    let from = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    from("XDG_DATA_HOME")
        .map(|d| d.join("xiangqi"))
        .or_else(|| from("HOME").map(|h| h.join(".local/share/xiangqi")))
}

/// Says where the games are kept, or why they cannot be: the app plays on without them.
fn report_archive(data: Option<&std::path::Path>) {
    let Some(folder) = data else {
        xiangqi_web::say!(
            "Games are not kept: no data folder (set --data DIR, XDG_DATA_HOME or HOME)"
        );
        return;
    };
    let path = folder.join(ARCHIVE_FILE);
    match xiangqi_store::SqliteStore::open(&path) {
        Ok(_) => xiangqi_web::say!("Your games are kept in {}", path.display()),
        Err(e) => {
            xiangqi_web::say!("Games are not kept: {e}. The app plays without its games archive.")
        }
    }
}

/// Says which PostgreSQL database everything is kept in; a server told to keep everything
/// there does not start without it (its process manager starts it again).
fn report_database(url: &str) -> Result<(), String> {
    let shown = xiangqi_store::shown_url(url);
    let owned = url.to_string();
    // The client runs its own runtime, outside this one.
    let reached = std::thread::spawn(move || {
        xiangqi_store::PostgresStore::connect(&owned)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .join()
    .unwrap_or_else(|_| Err("the connection failed unexpectedly".into()));
    reached.map_err(|e| format!("the server needs its store: {e}"))?;
    xiangqi_web::say!("Everything is kept in the PostgreSQL database {shown}");
    Ok(())
}

/// Asks the desktop to open `url`; failing quietly, as the address is printed anyway.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    if std::process::Command::new(opener).arg(url).spawn().is_err() {
        xiangqi_web::say_err!("could not open a browser; open {url} yourself");
    }
}

/// A sign-up policy from the command line.
fn parse_sign_up(text: &str) -> Result<xiangqi_accounts::SignUp, String> {
    text.parse()
}
