//! One game between two engines: clocks, moves checked by the arbiter, engine faults turned
//! into losses, optional score adjudication.

use crate::adjudication::{ScoreAdjudicator, ScoreRule};
use crate::arbiter::{Arbiter, DrawRules, RuleSet};
use crate::limits::{Clock, Limits};
use crate::openings::Opening;
use crate::outcome::{GameEnd, MoveFault, Termination};
use crate::player::Player;
use std::time::Duration;
use xiangqi_engine::protocol::{GoParams, ReplyError, Reported};
use xiangqi_rules::{Color, Move};

/// How long to keep waiting for a move after the clock has run out, to tell a slow engine
/// (loses on time) from a hung one (killed and restarted).
const OVERRUN_GRACE: Duration = Duration::from_secs(1);

/// The rules every game of a match is played under.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSettings {
    /// Clocks, nodes or depth.
    pub limits: Limits,
    /// How far an engine may overrun its clock before it loses on time.
    pub time_margin: Duration,
    /// How long a search under a node or depth limit may take before the engine counts as hung.
    pub hang_timeout: Duration,
    /// The rule set for repetitions.
    pub rules: RuleSet,
    /// The draw limits.
    pub draw_rules: DrawRules,
    /// Score adjudication, if wanted.
    pub adjudication: Option<ScoreRule>,
}

impl GameSettings {
    /// Settings for `limits` with the defaults: 50 ms margin, 60 s hang timeout, Asian rules,
    /// 120 plies without capture, no adjudication.
    pub fn new(limits: Limits) -> GameSettings {
        GameSettings {
            limits,
            time_margin: Duration::from_millis(50),
            hang_timeout: Duration::from_secs(60),
            rules: RuleSet::Asian,
            draw_rules: DrawRules::default(),
            adjudication: None,
        }
    }
}

/// One move of a game with what the engine said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The engine's last exact score, from the mover's point of view.
    pub score: Option<Reported>,
    /// The engine's last depth.
    pub depth: Option<u32>,
    /// Time the engine took.
    pub elapsed: Duration,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The start position.
    pub start_fen: String,
    /// The moves played.
    pub moves: Vec<PlayedMove>,
    /// How it ended.
    pub outcome: GameEnd,
    /// The Red engine's name.
    pub red: String,
    /// The Black engine's name.
    pub black: String,
}

/// Plays one game from `opening`, `red` against `black`. Never fails: whatever goes wrong
/// with an engine becomes a loss for it.
pub fn play_game(
    red: &mut Player,
    black: &mut Player,
    opening: &Opening,
    settings: &GameSettings,
) -> GameRecord {
    let mut moves = Vec::new();
    let outcome = play_moves(red, black, opening, settings, &mut moves);
    GameRecord {
        start_fen: opening.fen.clone(),
        moves,
        outcome,
        red: red.spec().name.clone(),
        black: black.spec().name.clone(),
    }
}

fn play_moves(
    red: &mut Player,
    black: &mut Player,
    opening: &Opening,
    settings: &GameSettings,
    played: &mut Vec<PlayedMove>,
) -> GameEnd {
    let mut arbiter = Arbiter::new(
        opening.position.clone(),
        settings.rules,
        settings.draw_rules,
    );
    if let Some(outcome) = arbiter.verdict_at_start() {
        return outcome;
    }
    for (side, player) in [(Color::Red, &mut *red), (Color::Black, &mut *black)] {
        if let Err(fault) = player.new_game() {
            return GameEnd::loss(side, Termination::Fault { side, fault });
        }
    }
    let mut clocks = match settings.limits {
        Limits::Clock(tc) => Some([Clock::new(tc), Clock::new(tc)]),
        Limits::Nodes(_) | Limits::Depth(_) => None,
    };
    let mut adjudicator = settings.adjudication.map(ScoreAdjudicator::new);
    let mut moves: Vec<Move> = Vec::new();
    loop {
        let side = arbiter.position().side_to_move();
        let player = match side {
            Color::Red => &mut *red,
            Color::Black => &mut *black,
        };
        let (go, allowed) = match (&clocks, settings.limits) {
            (Some(clocks), _) => (
                GoParams::clocks(
                    player.spec().dialect,
                    side,
                    clocks.map(Clock::remaining),
                    clocks.map(Clock::increment),
                ),
                clocks[side.index()].remaining() + settings.time_margin + OVERRUN_GRACE,
            ),
            (None, Limits::Nodes(n)) => (GoParams::nodes(n), settings.hang_timeout),
            (None, Limits::Depth(d)) => (GoParams::depth(d), settings.hang_timeout),
            (None, Limits::Clock(_)) => unreachable!("clocks exist under a time control"),
        };
        let ranks = player.spec().ranks;
        let thought = match player.think(&opening.position, &moves, &go, allowed) {
            Ok(thought) => thought,
            Err(fault) => return GameEnd::loss(side, Termination::Fault { side, fault }),
        };
        if let Some(clocks) = clocks.as_mut()
            && let Err(loss) = clocks[side.index()].charge(thought.elapsed, settings.time_margin)
        {
            return GameEnd::loss(
                side,
                Termination::TimeForfeit {
                    side,
                    used: loss.used,
                    had: loss.had,
                },
            );
        }
        let mv = match thought.best {
            Ok(Some(mv)) => mv,
            Ok(None) => return GameEnd::loss(side, Termination::NoMove { side }),
            Err(ReplyError::BestMove { text, error }) => {
                return GameEnd::loss(
                    side,
                    Termination::IllegalMove {
                        side,
                        text,
                        why: MoveFault::Unreadable(error),
                    },
                );
            }
        };
        let verdict = match arbiter.play(mv) {
            Ok(verdict) => verdict,
            Err(reason) => {
                return GameEnd::loss(
                    side,
                    Termination::IllegalMove {
                        side,
                        text: mv.coordinates(ranks),
                        why: MoveFault::Illegal(reason),
                    },
                );
            }
        };
        moves.push(mv);
        played.push(PlayedMove {
            mv,
            score: thought.score,
            depth: thought.depth,
            elapsed: thought.elapsed,
        });
        if let Some(outcome) = verdict {
            return outcome;
        }
        if let Some(outcome) = adjudicator
            .as_mut()
            .and_then(|a| a.record(side, thought.score))
        {
            return outcome;
        }
    }
}
