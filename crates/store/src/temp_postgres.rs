//! A real PostgreSQL server for tests: a new cluster in a temporary folder (Debian's
//! `postgresql` package, found under `/usr/lib/postgresql/<version>/bin`), listening on a
//! free port of the loopback address, stopped and removed when dropped. Run as root, the
//! server runs as the `postgres` user the package makes (PostgreSQL refuses to run as root).
//! Each test takes a database of its own ([`TempPostgres::new_database`]).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How long the server may take to accept connections.
const START_WAIT: Duration = Duration::from_secs(60);

/// A PostgreSQL server of the test's own.
pub struct TempPostgres {
    folder: PathBuf,
    /// The server's programs.
    bin: PathBuf,
    /// Whether the server runs as the `postgres` user (this process being root).
    as_root: bool,
    server: Child,
    port: u16,
    databases: AtomicU32,
}

impl std::fmt::Debug for TempPostgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TempPostgres")
            .field("folder", &self.folder)
            .field("port", &self.port)
            .finish()
    }
}

impl TempPostgres {
    /// Makes a cluster and starts its server; an error says what is missing or failed.
    pub fn start() -> Result<TempPostgres, String> {
        let bin = server_programs()?;
        let as_root = is_root();
        let folder = std::env::temp_dir().join(format!(
            "xiangqi-postgres-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        std::fs::create_dir_all(&folder)
            .map_err(|e| format!("cannot make {}: {e}", folder.display()))?;
        if as_root {
            let status = Command::new("chown")
                .arg("postgres:postgres")
                .arg(&folder)
                .status()
                .map_err(|e| format!("chown: {e}"))?;
            if !status.success() {
                return Err("the folder cannot be given to the postgres user (is the \
                            postgresql package installed?)"
                    .into());
            }
        }
        let data = folder.join("data");
        let initdb = run_as(as_root, &bin.join("initdb"))
            .arg("-D")
            .arg(&data)
            .args([
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ])
            .output()
            .map_err(|e| format!("initdb cannot run: {e}"))?;
        if !initdb.status.success() {
            return Err(format!(
                "initdb failed: {}",
                String::from_utf8_lossy(&initdb.stderr)
            ));
        }
        let port = free_port()?;
        let log = std::fs::File::create(folder.join("server.log"))
            .map_err(|e| format!("cannot write the server's log: {e}"))?;
        let server = run_as(as_root, &bin.join("postgres"))
            .arg("-D")
            .arg(&data)
            .arg("-k")
            .arg(&folder)
            .args(["-p", &port.to_string()])
            .args(["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"])
            .args(["-c", "max_connections=200"])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("the server cannot start: {e}"))?;
        let mut started = TempPostgres {
            folder,
            bin,
            as_root,
            server,
            port,
            databases: AtomicU32::new(0),
        };
        started.wait_for_connections()?;
        Ok(started)
    }

    /// Waits until the server takes connections.
    fn wait_for_connections(&mut self) -> Result<(), String> {
        let since = Instant::now();
        loop {
            if let Ok(Some(status)) = self.server.try_wait() {
                return Err(format!(
                    "the server stopped ({status}): {}",
                    std::fs::read_to_string(self.folder.join("server.log")).unwrap_or_default()
                ));
            }
            if postgres::Client::connect(&self.url("postgres"), postgres::NoTls).is_ok() {
                return Ok(());
            }
            if since.elapsed() > START_WAIT {
                return Err("the server took no connection within a minute".into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The address of database `name` on the server.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A new empty database on the server; its address.
    pub fn new_database(&self) -> String {
        let n = self.databases.fetch_add(1, Ordering::Relaxed);
        let name = format!("test_{n}");
        let mut admin = postgres::Client::connect(&self.url("postgres"), postgres::NoTls)
            .expect("connect to the test server");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("make a test database");
        self.url(&name)
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        // The server stops at once (its data is thrown away with the folder).
        let _ = run_as(self.as_root, &self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(self.folder.join("data"))
            .args(["stop", "-m", "immediate", "-w"])
            .output();
        let _ = self.server.kill();
        let _ = self.server.wait();
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// The folder of the newest installed PostgreSQL's server programs.
fn server_programs() -> Result<PathBuf, String> {
    let root = Path::new("/usr/lib/postgresql");
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir(root)
        .map_err(|_| {
            "PostgreSQL is not installed (no /usr/lib/postgresql): install Debian's \
             postgresql package (scripts/test does)"
                .to_string()
        })?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("postgres").is_file().then_some((version, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin).ok_or_else(|| {
        "no PostgreSQL server under /usr/lib/postgresql: install Debian's postgresql package"
            .to_string()
    })
}

/// A command that runs `program`, as the `postgres` user when this process is root.
fn run_as(as_root: bool, program: &Path) -> Command {
    if as_root {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// A port of the loopback address no one listens on now.
fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")
        .map_err(|e| format!("no free port on the loopback address: {e}"))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| e.to_string())
}
