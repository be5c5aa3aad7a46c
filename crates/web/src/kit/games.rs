//! The games being played: finding one by id, and starting one from what a page sends.

use crate::kit::archive_store::ArchiveLink;
use crate::kit::error::ApiError;
use crate::kit::extract::{illegal, legal};
use crate::kit::session::{GameSession, Sessions};
use crate::kit::view::{GameView, session_view};
use crate::kit::wire::{Fen, Iccs};
use xiangqi_records::PlayedGame;
use xiangqi_rules::{Game, GameRules, Position};

pub(crate) fn with_game<R>(
    sessions: &Sessions,
    id: &str,
    f: impl FnOnce(&mut GameSession) -> Result<R, ApiError>,
) -> Result<R, ApiError> {
    sessions.with(id, f).ok_or_else(|| ApiError::no_game(id))?
}

/// The game a page sends: from `fen` (the start position when none) with `moves` played,
/// each legal; and the `redo` moves (next first, ICCS) kept while they replay legally.
pub(crate) fn game_from_moves(
    fen: Option<&Fen>,
    moves: &[Iccs],
    redo: &[Iccs],
) -> Result<PlayedGame, ApiError> {
    let start = fen.map_or_else(Position::startpos, |f| f.0.clone());
    let mut game = Game::with_rules(start, GameRules::default());
    for &Iccs(m) in moves {
        let m = legal(game.position(), m)?;
        game.play(m).map_err(|e| illegal(&e))?;
    }
    Ok(PlayedGame::with_redo(
        game,
        redo.iter().map(|&Iccs(m)| m).collect(),
    ))
}

/// Stores `played` as a new session that is saved to a new row of the archive; its view.
pub(crate) fn start_session(sessions: &Sessions, played: PlayedGame) -> Result<GameView, ApiError> {
    start_linked_session(sessions, played, ArchiveLink::new())
}

/// Stores `played` as a new session linked to the archive by `link`; its view.
pub(crate) fn start_linked_session(
    sessions: &Sessions,
    played: PlayedGame,
    link: ArchiveLink,
) -> Result<GameView, ApiError> {
    let mut session = GameSession::new(played);
    session.archive = sessions.archive().link_now(link);
    let id = sessions.insert(session);
    with_game(sessions, &id, |s| Ok(session_view(&id, s)))
}
