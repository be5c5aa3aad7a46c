//! Puzzles from the learner's own games: the finished games of the owner's archive mined as
//! the shipped set was (every position looked at, each puzzle proven), rated on the shipped
//! set's scale, and kept for the owner alone.
//!
//! - `GET /api/puzzles/own`: how many puzzles were found, in how many games, and how many
//!   finished games are still to be looked at.
//! - `POST /api/puzzles/own/mine`: looks at up to [`GAMES_PER_REQUEST`] games not looked at
//!   yet (the newest first) and keeps what it finds; 503 `busy` while another look runs.
//!
//! The puzzles are served by the puzzle routes like the shipped ones (`source=own` in
//! `next` and `count`; their ids start with [`OWN_PREFIX`]), to their owner only: another
//! learner gets 404 for them. They are kept as progress of the server's own topic
//! [`OWN_TOPIC`], which the page cannot write: a puzzle under `puzzle:<id>` (its line in the
//! export format), each game looked at under `game:<row>`.

use crate::kit::archive_store::ArchiveService;
use crate::kit::error::{ApiError, ErrorCode};
use crate::kit::viewer::{Viewer, now_ms};
use axum::Json;
use axum::extract::State;
use serde::Serialize;
use std::sync::Arc;
use tokio::sync::Semaphore;
use xiangqi_store::{Filter, GameId, Progress};
use xiangqi_teaching::puzzles::mine::Miner;
use xiangqi_teaching::puzzles::rating::rate_mined;
use xiangqi_teaching::puzzles::{Puzzle, parse_line};

/// The progress topic of a learner's own puzzles (kept by the server only).
pub const OWN_TOPIC: &str = "own-puzzles";
/// The start of an own puzzle's id.
pub const OWN_PREFIX: &str = "own-";
/// The engine's quick look at each position of a learner's game, in nodes.
pub const OWN_NODES: u64 = 8_000;
/// The most games one request looks at.
pub const GAMES_PER_REQUEST: usize = 20;

const PUZZLE_KEY: &str = "puzzle:";
const GAME_KEY: &str = "game:";

/// What was found in a learner's games.
#[derive(Serialize)]
pub struct OwnView {
    /// The puzzles found, in all.
    pub puzzles: usize,
    /// The games looked at.
    pub games: usize,
    /// Finished games not looked at yet.
    pub games_left: usize,
    /// Puzzles this request found (0 for a `GET`).
    pub found: usize,
}

/// The owner's puzzles as kept, with the rows of the games looked at.
fn kept(values: &[Progress]) -> (Vec<Puzzle>, Vec<GameId>) {
    let mut puzzles = Vec::new();
    let mut games = Vec::new();
    for p in values {
        if let Some(id) = p.key.strip_prefix(GAME_KEY) {
            games.extend(id.parse::<GameId>().ok());
        } else if p.key.starts_with(PUZZLE_KEY) {
            // A kept line was written by this server from a proven puzzle; one that no longer
            // reads (a theme renamed since) is left out rather than failing the rest.
            let line = serde_json::from_str::<String>(&p.value).unwrap_or_default();
            puzzles.extend(parse_line(&line, 1).ok());
        }
    }
    (puzzles, games)
}

/// The owner's own puzzles.
pub async fn own_puzzles(archive: &ArchiveService, owner: String) -> Result<Vec<Puzzle>, ApiError> {
    let values = archive.run(move |s| s.progress(&owner, OWN_TOPIC)).await?;
    Ok(kept(&values).0)
}

/// The own puzzle `id` of `viewer`, if it is theirs.
pub async fn find_own(
    archive: &ArchiveService,
    viewer: &Viewer,
    id: &str,
) -> Result<Option<Puzzle>, ApiError> {
    let Some(owner) = viewer.owner() else {
        return Ok(None);
    };
    let key = format!("{PUZZLE_KEY}{id}");
    let values = archive.run(move |s| s.progress(&owner, OWN_TOPIC)).await?;
    Ok(values
        .iter()
        .find(|p| p.key == key)
        .and_then(|p| serde_json::from_str::<String>(&p.value).ok())
        .and_then(|line| parse_line(&line, 1).ok()))
}

/// The finished games of `owner` and the state of the mining.
async fn state(
    archive: &ArchiveService,
    owner: &str,
) -> Result<(Vec<Puzzle>, Vec<GameId>, Vec<GameId>), ApiError> {
    let owner = owner.to_string();
    archive
        .run(move |s| {
            let (puzzles, done) = kept(&s.progress(&owner, OWN_TOPIC)?);
            let finished = s.list(&Filter {
                owner: owner.clone(),
                finished: Some(true),
                ..Filter::default()
            })?;
            let left = finished
                .iter()
                .map(|g| g.id)
                .filter(|id| !done.contains(id))
                .collect();
            Ok((puzzles, done, left))
        })
        .await
}

/// `GET /api/puzzles/own`: what was found in the viewer's games.
pub async fn own(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
) -> Result<Json<OwnView>, ApiError> {
    let owner = viewer.require_owner()?;
    let (puzzles, done, left) = state(&archive, &owner).await?;
    Ok(Json(OwnView {
        puzzles: puzzles.len(),
        games: done.len(),
        games_left: left.len(),
        found: 0,
    }))
}

/// One look at a time on the whole server: mining is a long search.
fn miners() -> &'static Arc<Semaphore> {
    static MINERS: std::sync::OnceLock<Arc<Semaphore>> = std::sync::OnceLock::new();
    MINERS.get_or_init(|| Arc::new(Semaphore::new(1)))
}

/// `POST /api/puzzles/own/mine`: looks at the next games of the viewer's archive.
pub async fn mine(
    viewer: Viewer,
    State(archive): State<ArchiveService>,
) -> Result<Json<OwnView>, ApiError> {
    let owner = viewer.require_owner()?;
    let _turn = miners().clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            ErrorCode::Busy,
            "games are being looked at for puzzles already; try again in a moment",
        )
    })?;
    let (puzzles, done, left) = state(&archive, &owner).await?;
    let batch: Vec<GameId> = left.iter().copied().take(GAMES_PER_REQUEST).collect();
    let reader = owner.clone();
    let games = {
        let batch = batch.clone();
        archive
            .run(move |s| {
                let mut games = Vec::new();
                for id in batch {
                    games.push((id, s.get(&reader, id)?));
                }
                Ok(games)
            })
            .await?
    };
    let known: Vec<Puzzle> = puzzles.clone();
    let found = tokio::task::spawn_blocking(move || {
        let mut miner = Miner::new(OWN_NODES);
        for p in &known {
            miner.mark_seen(&p.position);
        }
        let mut found = Vec::new();
        for (id, game) in games {
            // A game that no longer reads (or was deleted meanwhile) counts as looked at.
            if let Some(record) = game.and_then(|g| g.record().ok()) {
                let moves: Vec<_> = record.mainline().collect();
                miner.mine_line(&record.start, &moves, &mut |p| found.push((id, p)));
            }
        }
        found
    })
    .await
    .map_err(|e| ApiError::new(ErrorCode::Internal, format!("the look failed: {e}")))?;
    let mut values = Vec::new();
    let now = now_ms();
    for (_, mut puzzle) in found {
        puzzle.rating = rate_mined(&puzzle).map_err(|e| {
            ApiError::new(ErrorCode::PuzzlesUnreadable, format!("the rating fit: {e}"))
        })?;
        puzzle.id = format!("{OWN_PREFIX}{}", puzzle.id);
        values.push(Progress {
            owner: owner.clone(),
            topic: OWN_TOPIC.to_string(),
            key: format!("{PUZZLE_KEY}{}", puzzle.id),
            value: serde_json::Value::String(puzzle.to_line()).to_string(),
            updated_ms: now,
        });
    }
    let new_puzzles = values.len();
    for id in &batch {
        values.push(Progress {
            owner: owner.clone(),
            topic: OWN_TOPIC.to_string(),
            key: format!("{GAME_KEY}{id}"),
            value: "{}".to_string(),
            updated_ms: now,
        });
    }
    archive
        .run(move |s| {
            for value in &values {
                s.save_progress(value)?;
            }
            Ok(())
        })
        .await?;
    Ok(Json(OwnView {
        puzzles: puzzles.len() + new_puzzles,
        games: done.len() + batch.len(),
        games_left: left.len() - batch.len(),
        found: new_puzzles,
    }))
}
