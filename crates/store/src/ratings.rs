//! The players' ratings, one per account and speed, and the rated games that made them. The
//! store keeps the numbers; how a game changes them is the accounts crate's (Glicko-2), which
//! the store calls inside the transaction that records the game, so that two games ending at
//! once never lose an update and a game is counted exactly once.

use crate::accounts::AccountId;
use crate::error::StoreError;
use crate::sqlite::SqliteStore;
use rusqlite::{OptionalExtension, Row, TransactionBehavior, params};

/// An account's rating at one speed.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredRating {
    /// `bullet`, `blitz`, `rapid` or `classical`.
    pub speed: String,
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated games played at this speed.
    pub games: u32,
}

/// A rated game to record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedResult {
    /// The room it was played in.
    pub room: String,
    /// The game's number in the room.
    pub number: u32,
    /// Its speed.
    pub speed: String,
    /// Red's account.
    pub red: AccountId,
    /// Black's account.
    pub black: AccountId,
    /// `red-wins`, `black-wins` or `draw`.
    pub result: String,
    /// When it ended (milliseconds since 1970, UTC).
    pub ended_ms: i64,
}

/// A rated game as recorded, with both players' names and ratings before and after it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    /// What was recorded.
    pub game: RatedResult,
    /// Red's account's name.
    pub red_name: String,
    /// Black's account's name.
    pub black_name: String,
    /// Red's rating before the game, and after it.
    pub red_rating: (f64, f64),
    /// Black's rating before the game, and after it.
    pub black_rating: (f64, f64),
}

/// How a game changes two ratings: from Red's and Black's kept (`None` for a first game at
/// the speed) to each one's rating before the game (a newcomer's for `None`) and after it.
pub type RateFn<'a> = &'a dyn Fn(
    Option<StoredRating>,
    Option<StoredRating>,
) -> ((StoredRating, StoredRating), (StoredRating, StoredRating));

fn rating_of(r: &Row<'_>) -> rusqlite::Result<StoredRating> {
    Ok(StoredRating {
        speed: r.get(0)?,
        rating: r.get(1)?,
        deviation: r.get(2)?,
        volatility: r.get(3)?,
        games: r.get(4)?,
    })
}

const RATING_COLUMNS: &str = "speed, rating, deviation, volatility, games";

pub(crate) fn ratings(store: &SqliteStore, id: AccountId) -> Result<Vec<StoredRating>, StoreError> {
    let mut statement = store.connection().prepare(&format!(
        "SELECT {RATING_COLUMNS} FROM ratings WHERE account = ?1 ORDER BY speed"
    ))?;
    let rows = statement.query_map([id], rating_of)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn record_rated_game(
    store: &mut SqliteStore,
    game: &RatedResult,
    rate: RateFn<'_>,
) -> Result<Option<RatedGame>, StoreError> {
    let tx = store
        .connection_mut()
        .transaction_with_behavior(TransactionBehavior::Immediate)?;
    let recorded: Option<i64> = tx
        .query_row(
            "SELECT 1 FROM rated_games WHERE room = ?1 AND number = ?2",
            params![game.room, game.number],
            |r| r.get(0),
        )
        .optional()?;
    if recorded.is_some() {
        return Ok(None);
    }
    let now = |id: AccountId| -> Result<Option<StoredRating>, StoreError> {
        Ok(tx
            .query_row(
                &format!("SELECT {RATING_COLUMNS} FROM ratings WHERE account = ?1 AND speed = ?2"),
                params![id, game.speed],
                rating_of,
            )
            .optional()?)
    };
    let ((red_before, red_after), (black_before, black_after)) =
        rate(now(game.red)?, now(game.black)?);
    let (red_before, black_before) = (red_before.rating, black_before.rating);
    for (id, after) in [(game.red, &red_after), (game.black, &black_after)] {
        tx.execute(
            "INSERT INTO ratings (account, speed, rating, deviation, volatility, games, \
             updated_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
             ON CONFLICT (account, speed) DO UPDATE SET rating = ?3, deviation = ?4, \
             volatility = ?5, games = ?6, updated_ms = ?7",
            params![
                id,
                game.speed,
                after.rating,
                after.deviation,
                after.volatility,
                after.games,
                game.ended_ms
            ],
        )?;
    }
    tx.execute(
        "INSERT INTO rated_games (room, number, speed, red, black, result, ended_ms, \
         red_before, red_after, black_before, black_after) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        params![
            game.room,
            game.number,
            game.speed,
            game.red,
            game.black,
            game.result,
            game.ended_ms,
            red_before,
            red_after.rating,
            black_before,
            black_after.rating
        ],
    )?;
    let names = |id: AccountId| -> Result<String, StoreError> {
        Ok(tx
            .query_row("SELECT name FROM accounts WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?
            .unwrap_or_default())
    };
    let recorded = RatedGame {
        game: game.clone(),
        red_name: names(game.red)?,
        black_name: names(game.black)?,
        red_rating: (red_before, red_after.rating),
        black_rating: (black_before, black_after.rating),
    };
    tx.commit()?;
    Ok(Some(recorded))
}

pub(crate) fn rated_games(
    store: &SqliteStore,
    id: AccountId,
    most: usize,
) -> Result<Vec<RatedGame>, StoreError> {
    let mut statement = store.connection().prepare(
        "SELECT g.room, g.number, g.speed, g.red, g.black, g.result, g.ended_ms, \
         coalesce(r.name, ''), coalesce(b.name, ''), g.red_before, g.red_after, \
         g.black_before, g.black_after \
         FROM rated_games g LEFT JOIN accounts r ON r.id = g.red \
         LEFT JOIN accounts b ON b.id = g.black \
         WHERE g.red = ?1 OR g.black = ?1 ORDER BY g.ended_ms DESC, g.id DESC LIMIT ?2",
    )?;
    let most = i64::try_from(most).unwrap_or(i64::MAX);
    let rows = statement.query_map(params![id, most], |r| {
        Ok(RatedGame {
            game: RatedResult {
                room: r.get(0)?,
                number: r.get(1)?,
                speed: r.get(2)?,
                red: r.get(3)?,
                black: r.get(4)?,
                result: r.get(5)?,
                ended_ms: r.get(6)?,
            },
            red_name: r.get(7)?,
            black_name: r.get(8)?,
            red_rating: (r.get(9)?, r.get(10)?),
            black_rating: (r.get(11)?, r.get(12)?),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
