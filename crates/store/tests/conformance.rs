//! The SQLite store and the PostgreSQL store pass the checks every implementation of `Store`
//! passes; PostgreSQL on a real server of the test's own.

use xiangqi_store::temp_postgres::TempPostgres;
use xiangqi_store::{PostgresStore, SqliteStore, Store};

#[test]
fn the_sqlite_store_conforms() {
    let base = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-store-conformance-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let mut made = 0;
    xiangqi_store::conformance::check_all(&mut || {
        made += 1;
        let mut store = SqliteStore::open(base.join(format!("{made}.sqlite3"))).unwrap();
        store
            .written_alone(xiangqi_store::WRITE_WAIT)
            .expect("the one writer");
        Box::new(store) as Box<dyn Store>
    });
    assert_eq!(made, 17, "every check ran on a store of its own");
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn the_postgres_store_conforms() {
    let server =
        TempPostgres::start().unwrap_or_else(|e| panic!("the test needs a PostgreSQL server: {e}"));
    let mut made = 0;
    xiangqi_store::conformance::check_all(&mut || {
        made += 1;
        let store = PostgresStore::connect(&server.new_database()).expect("connect");
        Box::new(store) as Box<dyn Store>
    });
    assert_eq!(made, 17, "every check ran on a store of its own");
}
