//! The store under real storage faults, with the real server (`xiangqi play`) killed outright
//! (SIGKILL) during a fault and after it passed: a disk that fills up (a small tmpfs), the
//! database locked by another program, the file replaced, overwritten in place or deleted
//! while the server runs, and a data folder that is read-only when the server starts. Each
//! for a game played over HTTP and for a room played by two players over WebSockets.
//!
//! For every case: every change the server acknowledged is in the database after each kill,
//! every change tried during the fault is refused (`not-saved`) and not played, and the
//! server takes changes again by itself, without a restart, once a passing fault is gone.
//!
//! The disk-full and read-only cases mount a small tmpfs, which needs root (or sudo without a
//! password): they fail, saying so, where it cannot be mounted.

#[path = "support/server.rs"]
mod server;

use serde_json::{Value, json};
use server::{json, moves_of, request, start_server};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

const STORE_FILE: &str = "games.sqlite3";

/// How long a passing fault may take to be noticed gone: the writer tries again after 2 s,
/// then after 4 s.
const RECOVERY_BOUND: Duration = Duration::from_secs(20);

/// A data folder of its own for one case, on a small tmpfs when the case needs one; removed
/// (and unmounted) at the end.
struct DataFolder {
    path: PathBuf,
    mounted: bool,
}

impl DataFolder {
    fn new(case: &str) -> DataFolder {
        let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("xiangqi-faults-{}-{case}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("a data folder");
        DataFolder {
            path,
            mounted: false,
        }
    }

    /// A folder on a tmpfs of `size` (as `mount` writes it: `4m`).
    fn on_tmpfs(case: &str, size: &str) -> DataFolder {
        let mut folder = DataFolder::new(case);
        let path = folder.path.display().to_string();
        as_root(&[
            "mount",
            "-t",
            "tmpfs",
            "-o",
            &format!("size={size}"),
            "tmpfs",
            &path,
        ]);
        folder.mounted = true;
        folder
    }

    /// Remounts the tmpfs read-only or back read-write.
    fn remount(&self, options: &str) {
        let path = self.path.display().to_string();
        as_root(&["mount", "-o", &format!("remount,{options}"), &path]);
    }

    fn file(&self) -> PathBuf {
        self.path.join(STORE_FILE)
    }
}

impl Drop for DataFolder {
    fn drop(&mut self) {
        if self.mounted {
            let _ = Command::new("umount").arg("-l").arg(&self.path).status();
            let _ = Command::new("sudo")
                .args(["-n", "umount", "-l"])
                .arg(&self.path)
                .status();
        }
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Runs `command` as root (itself when the tests run as root, else through `sudo -n`);
/// panics, saying what the case needs, when it fails.
fn as_root(command: &[&str]) {
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let output = if is_root {
        Command::new(command[0]).args(&command[1..]).output()
    } else {
        Command::new("sudo").arg("-n").args(command).output()
    }
    .expect("run mount");
    assert!(
        output.status.success(),
        "`{}` failed ({}): the storage-fault cases mount a small tmpfs and need root or \
         password-less sudo",
        command.join(" "),
        String::from_utf8_lossy(&output.stderr).trim()
    );
}

/// The server, killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(data: &DataFolder) -> Server {
        let (child, port) = start_server(&data.path);
        Server { child, port }
    }

    /// SIGKILL, and waits for the process to be gone.
    fn kill_9(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn archive_status(&self) -> Value {
        let (status, body) = request(self.port, "GET", "/api/archive", None).expect("an answer");
        assert_eq!(status, 200, "{body}");
        json(&body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// Where moves are played: a game over HTTP, or a room with a socket for each player.
enum Table {
    Game {
        id: String,
        key: String,
    },
    Room {
        id: String,
        red: Box<Socket>,
        black: Box<Socket>,
    },
}

/// What a move came to.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    /// Played and acknowledged.
    Played,
    /// Refused with this code.
    Refused(String),
}

impl Table {
    /// A new game, kept in the archive from its first move.
    fn game(port: u16) -> Table {
        let (status, body) = request(port, "POST", "/api/games", Some("{}")).expect("an answer");
        assert_eq!(status, 201, "{body}");
        let id = json(&body)["id"].as_str().unwrap().to_string();
        let path = format!("/api/archive/sessions/{id}");
        let (status, body) = request(port, "POST", &path, Some("{}")).expect("an answer");
        assert_eq!(status, 200, "{body}");
        let key = json(&body)["key"].as_str().unwrap().to_string();
        Table::Game { id, key }
    }

    /// A new room with Red and Black seated on sockets of their own.
    fn room(port: u16) -> Table {
        let body = json!({"side": "red", "name": "Ann"}).to_string();
        let (status, answer) = request(port, "POST", "/api/rooms", Some(&body)).expect("an answer");
        assert_eq!(status, 201, "{answer}");
        let room = json(&answer);
        let id = room["id"].as_str().unwrap().to_string();
        let red = join(port, &id, room["token"].as_str());
        let black = join(port, &id, None);
        Table::Room {
            id,
            red: Box::new(red),
            black: Box::new(black),
        }
    }

    fn new(kind: Kind, port: u16) -> Table {
        match kind {
            Kind::Game => Table::game(port),
            Kind::Room => Table::room(port),
        }
    }

    /// The game as the server shows it: its view (moves, legal moves, side to move).
    fn view(&self, port: u16) -> Value {
        let path = match self {
            Table::Game { id, .. } => format!("/api/games/{id}"),
            Table::Room { id, .. } => format!("/api/rooms/{id}"),
        };
        let (status, body) = request(port, "GET", &path, None).expect("an answer");
        assert_eq!(status, 200, "{body}");
        let view = json(&body);
        match self {
            Table::Game { .. } => view,
            Table::Room { .. } => view["game"].clone(),
        }
    }

    /// Plays the first legal move of the side to move.
    fn try_move(&mut self, port: u16) -> Answer {
        let view = self.view(port);
        let plies = moves_of(&view).len();
        let (from, tos) = view["legal"]
            .as_object()
            .and_then(|legal| legal.iter().next())
            .expect("a legal move");
        let to = tos[0].as_str().unwrap().to_string();
        match self {
            Table::Game { id, .. } => {
                let body = json!({"from": from, "to": to}).to_string();
                let path = format!("/api/games/{id}/move");
                let (status, answer) =
                    request(port, "POST", &path, Some(&body)).expect("an answer");
                match status {
                    200 => Answer::Played,
                    _ => Answer::Refused(json(&answer)["error"]["code"].to_string()),
                }
            }
            Table::Room { red, black, .. } => {
                let socket = if view["turn"] == "red" { red } else { black };
                let message = json!({"type": "move", "from": from, "to": to});
                socket
                    .send(Message::text(message.to_string()))
                    .expect("the move sent");
                loop {
                    let m = next_message(socket);
                    if m["type"] == "error" {
                        return Answer::Refused(m["error"]["code"].to_string());
                    }
                    if m["type"] == "state" && moves_of(&m["room"]["game"]).len() > plies {
                        return Answer::Played;
                    }
                }
            }
        }
    }

    /// Plays `n` moves, each acknowledged.
    fn play(&mut self, port: u16, n: usize) {
        for _ in 0..n {
            assert_eq!(self.try_move(port), Answer::Played);
        }
    }

    /// The moves the server shows (and acknowledged).
    fn moves(&self, port: u16) -> Vec<String> {
        moves_of(&self.view(port))
    }

    /// The moves the database holds for this game or room, read straight from the file.
    fn kept(&self, data: &DataFolder) -> Option<Vec<String>> {
        let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
        let conn = rusqlite::Connection::open_with_flags(data.file(), flags).ok()?;
        match self {
            Table::Game { key, .. } => {
                let pgn: String = conn
                    .query_row("SELECT pgn FROM games WHERE key = ?1", [key], |r| r.get(0))
                    .ok()?;
                let games = xiangqi_records::pgn::read_str(&pgn).ok()?;
                Some(games[0].mainline().map(|m| m.to_string()).collect())
            }
            Table::Room { id, .. } => {
                let room: String = conn
                    .query_row("SELECT room FROM rooms WHERE id = ?1", [id], |r| r.get(0))
                    .ok()?;
                let room: Value = serde_json::from_str(&room).ok()?;
                Some(
                    room["moves"]
                        .as_array()?
                        .iter()
                        .filter_map(|m| m.as_str().map(str::to_string))
                        .collect(),
                )
            }
        }
    }
}

/// A socket on room `id`, joined with `token` (none: the free seat).
fn join(port: u16, id: &str, token: Option<&str>) -> Socket {
    let url = format!("ws://127.0.0.1:{port}/api/rooms/{id}/socket");
    let mut request = url.into_client_request().unwrap();
    request.headers_mut().insert(
        "Origin",
        format!("http://127.0.0.1:{port}").parse().unwrap(),
    );
    let (mut socket, _) = tungstenite::connect(request).expect("a socket");
    if let MaybeTlsStream::Plain(stream) = socket.get_mut() {
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
    }
    let join = json!({"type": "join", "token": token, "name": "Bo"});
    socket.send(Message::text(join.to_string())).unwrap();
    let welcome = next_message(&mut socket);
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    socket
}

/// The next JSON message of `socket` (pings and pongs skipped).
fn next_message(socket: &mut Socket) -> Value {
    loop {
        match socket.read().expect("a message within 10 s") {
            Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            Message::Close(frame) => panic!("the socket closed: {frame:?}"),
            _ => {}
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Game,
    Room,
}

/// A storage fault while the server runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    /// The disk fills up.
    Full,
    /// Another program holds the database's write lock.
    Locked,
    /// The file is replaced by a copy of itself (a new file under its name).
    Replaced,
    /// The file's own bytes are written back over it by another program.
    Overwritten,
    /// The file is deleted.
    Deleted,
}

/// A fault in force, to clear when it can pass.
enum InForce {
    Full(PathBuf),
    Locked(rusqlite::Connection),
    Lasting,
}

impl Fault {
    fn folder(self, kind: Kind) -> DataFolder {
        let case = format!("{kind:?}-{self:?}").to_lowercase();
        match self {
            Fault::Full => DataFolder::on_tmpfs(&case, "4m"),
            _ => DataFolder::new(&case),
        }
    }

    fn inject(self, data: &DataFolder) -> InForce {
        let file = data.file();
        match self {
            Fault::Full => {
                let filler = data.path.join("filler");
                let mut out = std::fs::File::create(&filler).expect("the filler");
                let chunk = vec![7u8; 64 * 1024];
                while std::io::Write::write_all(&mut out, &chunk).is_ok() {}
                // Down to the last byte.
                while std::io::Write::write_all(&mut out, &[7]).is_ok() {}
                InForce::Full(filler)
            }
            Fault::Locked => {
                let holder = rusqlite::Connection::open(&file).unwrap();
                holder.execute_batch("BEGIN IMMEDIATE").unwrap();
                InForce::Locked(holder)
            }
            Fault::Replaced => {
                let copy = data.path.join("copy");
                std::fs::copy(&file, &copy).unwrap();
                std::fs::rename(&copy, &file).unwrap();
                InForce::Lasting
            }
            Fault::Overwritten => {
                let bytes = std::fs::read(&file).unwrap();
                std::thread::sleep(Duration::from_millis(20));
                std::fs::write(&file, &bytes).unwrap();
                InForce::Lasting
            }
            Fault::Deleted => {
                std::fs::remove_file(&file).unwrap();
                InForce::Lasting
            }
        }
    }
}

impl InForce {
    /// Takes the fault away; whether it was one that passes.
    fn clear(self) -> bool {
        match self {
            InForce::Full(filler) => {
                std::fs::remove_file(filler).unwrap();
                true
            }
            InForce::Locked(holder) => {
                holder.execute_batch("ROLLBACK").unwrap();
                true
            }
            InForce::Lasting => false,
        }
    }
}

/// Tries moves while `fault` is in force: the first may still find room (a disk fills a page
/// at a time), then every move is refused with `not-saved` and the game stays as it was.
fn refused_while(table: &mut Table, port: u16, fault: Fault) {
    let mut tries = 0;
    loop {
        tries += 1;
        match table.try_move(port) {
            Answer::Refused(code) => {
                assert_eq!(code, "\"not-saved\"", "{fault:?}");
                break;
            }
            Answer::Played => assert!(
                fault == Fault::Full && tries < 5,
                "a move was acknowledged during {fault:?}"
            ),
        }
    }
    let before = table.moves(port);
    assert_eq!(
        table.try_move(port),
        Answer::Refused("\"not-saved\"".into())
    );
    assert_eq!(table.moves(port), before, "a refused move is not played");
}

/// Waits until a move is played again after the fault passed (each try meanwhile refused).
fn resumes(table: &mut Table, port: u16) {
    let began = Instant::now();
    while began.elapsed() < RECOVERY_BOUND {
        match table.try_move(port) {
            Answer::Played => return,
            Answer::Refused(code) => assert_eq!(code, "\"not-saved\""),
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!("play did not resume within {RECOVERY_BOUND:?} of the fault passing");
}

/// Every acknowledged move of `table` (as last shown) is in the database, and nothing else.
fn all_kept(table: &Table, data: &DataFolder, acknowledged: &[String], when: &str) {
    assert_eq!(
        table.kept(data).as_deref(),
        Some(acknowledged),
        "{when}: the database holds exactly the moves acknowledged"
    );
}

/// One case: play, the fault, refused changes, recovery without a restart where the fault
/// passes, and a kill -9 after recovery and during the fault, each checked against the file.
fn case(kind: Kind, fault: Fault) {
    let data = fault.folder(kind);
    let server = Server::start(&data);
    let port = server.port;
    let mut table = Table::new(kind, port);
    table.play(port, 3);
    let in_force = fault.inject(&data);
    refused_while(&mut table, port, fault);
    let acknowledged = table.moves(port);
    if in_force.clear() {
        // The server finds by itself that it can write again.
        resumes(&mut table, port);
        table.play(port, 2);
        let acknowledged = table.moves(port);
        server.kill_9();
        all_kept(&table, &data, &acknowledged, "killed after recovery");
        // Again, killed during the fault this time.
        let server = Server::start(&data);
        let port = server.port;
        let mut second = Table::new(kind, port);
        second.play(port, 2);
        let in_force = fault.inject(&data);
        refused_while(&mut second, port, fault);
        let acknowledged_second = second.moves(port);
        server.kill_9();
        all_kept(
            &table,
            &data,
            &acknowledged,
            "the first, after the second kill",
        );
        all_kept(
            &second,
            &data,
            &acknowledged_second,
            "killed during the fault",
        );
        in_force.clear();
        // After a restart, the server holds all of it and plays on.
        let server = Server::start(&data);
        assert_eq!(server.archive_status()["available"], true);
        let mut third = Table::new(kind, server.port);
        third.play(server.port, 1);
        return;
    }
    // A lasting fault: the archive says it stopped, nothing is written in the file's place.
    let status = server.archive_status();
    assert_eq!(status["available"], false, "{status}");
    server.kill_9();
    match fault {
        Fault::Deleted => assert!(
            !data.file().exists(),
            "nothing was written in the deleted file's place"
        ),
        _ => all_kept(&table, &data, &acknowledged, "killed during the fault"),
    }
}

#[test]
fn a_full_disk_refuses_game_moves_and_loses_none_acknowledged() {
    case(Kind::Game, Fault::Full);
}

#[test]
fn a_full_disk_refuses_room_moves_and_loses_none_acknowledged() {
    case(Kind::Room, Fault::Full);
}

#[test]
fn a_lock_held_by_another_program_refuses_game_moves_and_loses_none() {
    case(Kind::Game, Fault::Locked);
}

#[test]
fn a_lock_held_by_another_program_refuses_room_moves_and_loses_none() {
    case(Kind::Room, Fault::Locked);
}

#[test]
fn a_replaced_file_refuses_game_moves() {
    case(Kind::Game, Fault::Replaced);
}

#[test]
fn a_replaced_file_refuses_room_moves() {
    case(Kind::Room, Fault::Replaced);
}

#[test]
fn a_file_overwritten_in_place_refuses_game_moves() {
    case(Kind::Game, Fault::Overwritten);
}

#[test]
fn a_file_overwritten_in_place_refuses_room_moves() {
    case(Kind::Room, Fault::Overwritten);
}

#[test]
fn a_deleted_file_refuses_game_moves_and_is_not_written_again() {
    case(Kind::Game, Fault::Deleted);
}

#[test]
fn a_deleted_file_refuses_room_moves_and_is_not_written_again() {
    case(Kind::Room, Fault::Deleted);
}

#[test]
fn a_read_only_data_folder_refuses_changes_until_it_can_be_written() {
    let data = DataFolder::on_tmpfs("read-only", "4m");
    let server = Server::start(&data);
    let mut game = Table::game(server.port);
    game.play(server.port, 2);
    let acknowledged = game.moves(server.port);
    server.kill_9();
    data.remount("ro");
    // The server starts on the read-only folder: the archive is there to read, and every
    // change is refused, a game's move as a room's creation.
    let server = Server::start(&data);
    let port = server.port;
    let status = server.archive_status();
    assert_eq!(status["available"], true, "{status}");
    let (status, list) = request(port, "GET", "/api/archive/games", None).expect("an answer");
    assert_eq!(status, 200, "{list}");
    let mut refused = Table::game(port);
    refused_while(&mut refused, port, Fault::Locked);
    let body = json!({"side": "red"}).to_string();
    let (status, answer) = request(port, "POST", "/api/rooms", Some(&body)).expect("an answer");
    assert_eq!(status, 503, "{answer}");
    assert_eq!(json(&answer)["error"]["code"], "not-saved", "{answer}");
    // Writable again: the server takes changes without a restart, and keeps them.
    data.remount("rw");
    resumes(&mut refused, port);
    let mut room = Table::room(port);
    room.play(port, 2);
    let kept_game = refused.moves(port);
    let kept_room = room.moves(port);
    server.kill_9();
    all_kept(&game, &data, &acknowledged, "the game played before");
    all_kept(&refused, &data, &kept_game, "the game played once writable");
    all_kept(&room, &data, &kept_room, "the room played once writable");
}
