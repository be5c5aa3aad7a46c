//! The rooms in the archive: a room replaces its earlier states and survives reopening the
//! file; a room stamped earlier never replaces a later one; an earlier version's own rooms
//! file is taken in once and set aside.

use std::path::PathBuf;
use xiangqi_store::Store;
use xiangqi_store::{ADOPTED_SUFFIX, OLD_ROOMS_FILE, SqliteStore, StoredRoom};

fn folder(test: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-rooms-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn room(id: &str, updated_ms: u64, json: &str) -> StoredRoom {
    StoredRoom {
        id: id.into(),
        code: format!("C{id}"),
        updated_ms,
        json: json.into(),
        version: 0,
    }
}

#[test]
fn a_room_replaces_its_earlier_states_and_survives_reopening() {
    let dir = folder("keep");
    let path = dir.join("games.sqlite3");
    {
        let mut archive = SqliteStore::open(&path).unwrap();
        archive
            .put_rooms(&[room("a", 5, "{\"n\":1}"), room("b", 6, "{}")])
            .unwrap();
        archive.put_rooms(&[room("a", 7, "{\"n\":2}")]).unwrap();
        // An older state, written late, does not undo the newer one.
        archive.put_rooms(&[room("a", 6, "{\"n\":0}")]).unwrap();
    }
    let archive = SqliteStore::open(&path).unwrap();
    assert_eq!(archive.room("a").unwrap(), Some(room("a", 7, "{\"n\":2}")));
    assert_eq!(archive.room("none").unwrap(), None);
    let mut recent = archive.rooms_since(7).unwrap();
    recent.sort_by(|x, y| x.id.cmp(&y.id));
    assert_eq!(recent, [room("a", 7, "{\"n\":2}")]);
    assert_eq!(archive.rooms_since(0).unwrap().len(), 2);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_earlier_rooms_file_is_taken_in_once_and_set_aside() {
    let dir = folder("adopt");
    let old = dir.join(OLD_ROOMS_FILE);
    {
        // The rooms file as earlier versions wrote it.
        let conn = rusqlite::Connection::open(&old).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             CREATE TABLE rooms (id TEXT PRIMARY KEY, code TEXT NOT NULL,
                updated_ms INTEGER NOT NULL, room TEXT NOT NULL);
             INSERT INTO rooms VALUES ('r1', 'Cr1', 10, '{\"old\":1}'), ('r2', 'Cr2', 11, '{}');
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let mut archive = SqliteStore::open(dir.join("games.sqlite3")).unwrap();
    // A room the archive already has in a later state keeps it.
    archive.put_rooms(&[room("r2", 20, "{\"new\":1}")]).unwrap();
    assert_eq!(archive.adopt_rooms_file(&old).unwrap(), 2);
    assert!(!old.exists(), "the old file is set aside");
    let mut adopted = old.clone().into_os_string();
    adopted.push(ADOPTED_SUFFIX);
    assert!(PathBuf::from(adopted).is_file());
    assert_eq!(
        archive.room("r1").unwrap(),
        Some(room("r1", 10, "{\"old\":1}"))
    );
    assert_eq!(archive.room("r2").unwrap().unwrap().updated_ms, 20);
    // Once only: there is no file to take in any more.
    assert_eq!(archive.adopt_rooms_file(&old).unwrap(), 0);
    let _ = std::fs::remove_dir_all(dir);
}
