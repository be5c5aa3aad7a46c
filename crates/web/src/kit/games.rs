//! The games being played: finding one by id, and starting one from what a page sends.

use crate::kit::archive_store::ArchiveLink;
use crate::kit::error::ApiError;
use crate::kit::extract::{illegal, legal};
use crate::kit::session::{GameSession, Sessions};
use crate::kit::view::{GameView, session_view};
use crate::kit::viewer::{Accounts, Viewer};
use crate::kit::wire::{Fen, Iccs};
use xiangqi_records::PlayedGame;
use xiangqi_rules::{Game, GameRules, Position};

/// The games being played, as one who asks may use them: their own, and visitors' games.
pub struct Games {
    /// Every game.
    pub sessions: Sessions,
    /// Who asks.
    pub viewer: Viewer,
}

impl std::ops::Deref for Games {
    type Target = Sessions;

    fn deref(&self) -> &Sessions {
        &self.sessions
    }
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Games
where
    Sessions: axum::extract::FromRef<S>,
    Accounts: axum::extract::FromRef<S>,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Games, Self::Rejection> {
        let viewer = Viewer::from_request_parts(parts, state).await?;
        Ok(Games {
            sessions: <Sessions as axum::extract::FromRef<S>>::from_ref(state),
            viewer,
        })
    }
}

/// Runs `f` on game `id`, when it is one the asker may use (another's is answered as no
/// game, 404).
pub(crate) fn with_game<R>(
    games: &Games,
    id: &str,
    f: impl FnOnce(&mut GameSession) -> Result<R, ApiError>,
) -> Result<R, ApiError> {
    let owner = games.viewer.owner();
    games
        .sessions
        .with_owned(id, owner.as_deref(), f)
        .ok_or_else(|| ApiError::no_game(id))?
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

/// Stores `played` as a new session of the asker's, saved to a new row of their archive; its
/// view.
pub(crate) fn start_session(games: &Games, played: PlayedGame) -> Result<GameView, ApiError> {
    start_linked_session(games, played, ArchiveLink::new())
}

/// Stores `played` as a new session of the asker's, linked to their archive by `link` (a
/// visitor's game is kept nowhere); its view.
pub(crate) fn start_linked_session(
    games: &Games,
    played: PlayedGame,
    link: ArchiveLink,
) -> Result<GameView, ApiError> {
    let mut session = GameSession::new(played);
    session.owner = games.viewer.owner();
    session.archive = match &session.owner {
        Some(_) => games.archive().link_now(link),
        None => ArchiveLink::nowhere(),
    };
    let id = games.insert(session);
    with_game(games, &id, |s| Ok(session_view(&id, s)))
}
