//! A rated room's finished game counted for both players' ratings: the game's speed from its
//! clock, Glicko-2 from the accounts crate, recorded once by the store with both new ratings.

use crate::kit::archive_store::ArchiveService;
use xiangqi_accounts::{Rating, Score, Speed, rate};
use xiangqi_records::GameResult;
use xiangqi_rooms::Room;
use xiangqi_rules::Color;
use xiangqi_store::{RatedResult, StoredRating};

/// The account of a seat's owner, for a seat held by an account.
fn account_id(room: &Room, side: Color) -> Option<i64> {
    room.seat(side)?
        .owner
        .as_deref()?
        .strip_prefix("account:")?
        .parse()
        .ok()
}

/// The rated game of `room`, just ended at `now_ms`: `None` when the room is not rated or a
/// seat is not an account's.
pub fn rated_result(room: &Room, now_ms: u64) -> Option<RatedResult> {
    if !room.rated() {
        return None;
    }
    let result = room.result()?;
    let (red, black) = (
        account_id(room, Color::Red)?,
        account_id(room, Color::Black)?,
    );
    let speed = Speed::of(room.clock().map(|tc| (tc.seconds, tc.increment)));
    Some(RatedResult {
        room: room.id().to_string(),
        number: room.number(),
        speed: speed.as_str().to_string(),
        red,
        black,
        result: result.result.as_str().to_string(),
        ended_ms: i64::try_from(now_ms).unwrap_or(i64::MAX),
    })
}

/// Red's and Black's ratings at `speed` before and after a game ending as `result` says,
/// from the ratings kept (a newcomer's when none).
pub fn rated(
    result: &str,
    speed: &str,
    red: Option<StoredRating>,
    black: Option<StoredRating>,
) -> ((StoredRating, StoredRating), (StoredRating, StoredRating)) {
    let of = |r: Option<StoredRating>| {
        r.map_or_else(Rating::default, |r| Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            games: r.games,
        })
    };
    let kept = |r: Rating| StoredRating {
        speed: speed.to_string(),
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
        games: r.games,
    };
    let score = match result.parse::<GameResult>() {
        Ok(GameResult::RedWins) => Score::RedWins,
        Ok(GameResult::BlackWins) => Score::BlackWins,
        _ => Score::Draw,
    };
    let (red_now, black_now) = (of(red), of(black));
    let (red_after, black_after) = rate(red_now, black_now, score);
    (
        (kept(red_now), kept(red_after)),
        (kept(black_now), kept(black_after)),
    )
}

/// Counts the game of `room`, just ended, for its players' ratings (in the background; a
/// failure is said on the server's output).
pub fn count_game(archive: &ArchiveService, room: &Room, now_ms: u64) {
    let Some(game) = rated_result(room, now_ms) else {
        return;
    };
    if archive.unavailable_reason().is_some() {
        return;
    }
    let archive = archive.clone();
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(async move {
            let counted = archive
                .run(move |s| {
                    let (result, speed) = (game.result.clone(), game.speed.clone());
                    s.record_rated_game(&game, &|red, black| rated(&result, &speed, red, black))
                })
                .await;
            if let Err(e) = counted {
                crate::say_err!("rooms: the rated game was not counted: {}", e.message);
            }
        });
    }
}
