//! Proofs by the engine for puzzles that are not mates: a first move that wins material
//! (`material`) or the only move that holds (`defence`).
//!
//! Both rest on one fixed-depth search of the position with two lines (the engine's table
//! cleared first, one thread, so the same engine gives the same numbers every time):
//! - **material**: the best first move scores at least [`MIN_GAP`] (two pawns) more than the
//!   second, and the line — the engine's principal variation, cut at the first solver move
//!   after which the solver is a piece up (at least [`PIECE_GAIN`]) and the reply the line
//!   gives does not take it back — wins at least a horse's worth of material and leaves the
//!   solver at least [`FINAL_LEAD`] ahead (a plain recapture that only restores the balance
//!   is no puzzle);
//! - **defence**: the best first move holds (scores at least [`HOLD_FLOOR`]) and is no
//!   winning tactic (at most [`DEFENCE_CEILING`]), while every other move scores at least
//!   [`MIN_GAP`] less and at most [`LOST_CEILING`]: everything else loses two pawns or is
//!   mated. The line is that one move, and it is no capture (taking back what was just
//!   taken is no puzzle); in check, at least three legal moves must be there to choose from.

use std::fmt;
use xiangqi_engine::score::Reported;
use xiangqi_engine::{Engine, EngineOptions, SEE_VALUE, SearchLimits, SearchParams, SearchRequest};
use xiangqi_rules::{Color, Move, Position};

/// The depth of the fixed search behind every material and defence proof.
pub const PROOF_DEPTH: i32 = 7;
/// The least gap between the best and the second-best first move, in centipawns.
pub const MIN_GAP: i32 = 200;
/// The least material a `material` line must win: a horse (a cannon is worth more).
pub const PIECE_GAIN: i32 = 400;
/// The least material lead the solver must have at the end of a `material` line, so that
/// winning back what was just lost (a plain recapture) is no puzzle.
pub const FINAL_LEAD: i32 = 300;
/// A defence holds when it scores at least this.
pub const HOLD_FLOOR: i32 = -150;
/// A defence scores at most this (beyond it the position is a win to find, not a save).
pub const DEFENCE_CEILING: i32 = 200;
/// Every move but the defence scores at most this.
pub const LOST_CEILING: i32 = -150;
/// The longest `material` line, in plies (three solver moves).
pub const LONGEST_MATERIAL_LINE: usize = 5;

/// The engine's view of a position's two best first moves at the proof depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopTwo {
    /// The best first move and its line.
    pub best: Vec<Move>,
    /// Its score for the side to move.
    pub best_score: Reported,
    /// The second-best first move's score (`None` with a single legal move).
    pub second_score: Option<Reported>,
    /// The second-best first move.
    pub second: Option<Move>,
}

impl TopTwo {
    /// Best minus second, as [`Reported::centipawns`] (unbounded with a single legal move).
    pub fn gap(&self) -> i32 {
        self.second_score.map_or(i32::MAX, |s| {
            self.best_score.centipawns().saturating_sub(s.centipawns())
        })
    }
}

/// An engine that searches two lines on one thread with a small table, as the proofs and the
/// miner's quick look use it. It evaluates with the handcrafted evaluation, the one the
/// shipped puzzles were proven with, so `xiangqi puzzles verify` re-runs the same proofs
/// whichever evaluation the engine plays with. It does not correct the evaluation by what
/// earlier searches found (`CorrectionLimit` 0): a proof is a search of its own, the same
/// whatever was searched before, and the search the set was proven with, which pruned quiet
/// checks like other quiet moves (`QuietChecksKept` 0), tried no quiet checks in the
/// quiescence search (`QsearchChecks` 0), pruned no quiet move for losing material or for
/// its continuation history (`SeeQuietMaxDepth` 0, `ContPruneMaxDepth` 0), and reduced no
/// capture (`LmrLosingCaptures` 0).
pub(super) fn two_line_engine() -> Engine {
    Engine::new(EngineOptions {
        use_nnue: false,
        hash_mb: 16,
        threads: 1,
        multipv: 2,
        search_params: SearchParams {
            correction_limit: 0,
            quiet_checks_kept: 0,
            qsearch_checks: 0,
            see_quiet_max_depth: 0,
            continuation_prune_max_depth: 0,
            lmr_losing_captures: 0,
            ..SearchParams::default()
        },
        ..EngineOptions::default()
    })
}

/// The engine set up for proofs: one thread, its table cleared before each search.
pub struct ProofEngine {
    engine: Engine,
}

impl Default for ProofEngine {
    fn default() -> Self {
        ProofEngine::new()
    }
}

impl ProofEngine {
    /// A fresh engine with two lines.
    pub fn new() -> ProofEngine {
        ProofEngine {
            engine: two_line_engine(),
        }
    }

    /// The two best first moves at [`PROOF_DEPTH`]; the side to move without a move is
    /// [`TacticError::NoMove`].
    fn top_two_proven(&self, position: &Position) -> Result<TopTwo, TacticError> {
        self.top_two(position, PROOF_DEPTH)
            .ok_or(TacticError::NoMove)
    }

    /// The two best first moves at `depth`, or `None` when the side to move has no move.
    pub fn top_two(&self, position: &Position, depth: i32) -> Option<TopTwo> {
        self.engine.new_game();
        let request = SearchRequest::new(
            position.clone(),
            SearchLimits {
                depth: Some(depth),
                ..SearchLimits::default()
            },
        );
        let result = self.engine.think(&request, &mut |_| {});
        let best = result.lines.first()?;
        let second = result.lines.get(1);
        Some(TopTwo {
            best: best.pv.clone(),
            best_score: best.score,
            second_score: second.map(|l| l.score),
            second: second.and_then(|l| l.pv.first().copied()),
        })
    }

    /// The best move at each depth from 1 to `max_depth`, with the nodes searched up to the
    /// end of that depth; one line, table cleared first.
    pub fn best_by_depth(&self, position: &Position, max_depth: i32) -> Vec<(Move, u64)> {
        self.engine.new_game();
        let mut single = self.engine.clone();
        single.set_options(EngineOptions {
            multipv: 1,
            ..self.engine.options().clone()
        });
        let request = SearchRequest::new(
            position.clone(),
            SearchLimits {
                depth: Some(max_depth),
                ..SearchLimits::default()
            },
        );
        let mut by_depth: Vec<(Move, u64)> = Vec::new();
        single.think(&request, &mut |info| {
            if info.multipv == 1
                && info.bound.is_none()
                && let Some(&first) = info.pv.first()
            {
                let depth = info.depth.max(1) as usize;
                by_depth.resize(depth, (first, info.nodes));
                by_depth[depth - 1] = (first, info.nodes);
            }
        });
        by_depth
    }
}

/// Why a material or defence puzzle does not stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TacticError {
    /// The side to move has no legal move.
    NoMove,
    /// The engine prefers another first move.
    NotBest {
        /// The engine's first move.
        engine: Move,
    },
    /// The best move is not two pawns better than the second.
    SmallGap {
        /// The gap in centipawns.
        gap: i32,
        /// The second-best move.
        second: Option<Move>,
    },
    /// The best move mates: a mate puzzle, not this kind.
    Mate,
    /// The line does not win a piece.
    NoGain {
        /// What the line wins, in centipawns of material.
        gain: i32,
    },
    /// The solver ends the line less than [`FINAL_LEAD`] ahead in material.
    SmallLead {
        /// The material lead at the end of the line.
        lead: i32,
    },
    /// The defence is a capture, or one of fewer than three moves out of check.
    PlainDefence,
    /// The best move does not hold, or wins too much to be a defence, or another holds too.
    NotADefence {
        /// The best score.
        best: i32,
        /// The second-best score.
        second: i32,
    },
}

impl fmt::Display for TacticError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TacticError::NoMove => write!(f, "the side to move has no legal move"),
            TacticError::NotBest { engine } => write!(
                f,
                "the engine's best first move at depth {PROOF_DEPTH} is {engine}, not the line's"
            ),
            TacticError::SmallGap { gap, second } => write!(
                f,
                "the best first move is only {gap} cp better than the second{} (needs {MIN_GAP})",
                second.map(|m| format!(" ({m})")).unwrap_or_default()
            ),
            TacticError::Mate => write!(f, "the best first move mates: a mate puzzle"),
            TacticError::NoGain { gain } => write!(
                f,
                "the line wins {gain} cp of material, less than a piece ({PIECE_GAIN})"
            ),
            TacticError::SmallLead { lead } => write!(
                f,
                "the line ends only {lead} cp of material ahead (needs {FINAL_LEAD})"
            ),
            TacticError::PlainDefence => write!(
                f,
                "the defence is a capture or one of few moves out of check: no puzzle"
            ),
            TacticError::NotADefence { best, second } => write!(
                f,
                "not a lone defence: best {best} cp, second {second} cp (the best must hold at \
                 {HOLD_FLOOR}..{DEFENCE_CEILING}, the others lose at most {LOST_CEILING})"
            ),
        }
    }
}

impl std::error::Error for TacticError {}

/// Material of `color` minus the other side's, by the exchange values (generals left out).
pub fn material_balance(position: &Position, color: Color) -> i32 {
    let mut balance = 0;
    for sq in xiangqi_rules::Square::all() {
        if let Some(piece) = position.piece_at(sq)
            && piece.kind != xiangqi_rules::PieceKind::General
        {
            let value = SEE_VALUE[piece.kind.index()];
            balance += if piece.color == color { value } else { -value };
        }
    }
    balance
}

/// What the solver's material gains over `moves` from `position`.
pub fn material_gain(position: &Position, moves: &[Move]) -> i32 {
    let solver = position.side_to_move();
    let before = material_balance(position, solver);
    let mut pos = position.clone();
    for &m in moves {
        pos.make_move(m);
    }
    material_balance(&pos, solver) - before
}

/// The material line in `pv`: cut after the first solver move that leaves the solver a
/// piece up, when the next move of `pv` (if any) does not take it back.
pub fn material_line(position: &Position, pv: &[Move]) -> Option<Vec<Move>> {
    let limit = pv.len().min(LONGEST_MATERIAL_LINE);
    (1..=limit).step_by(2).find_map(|end| {
        let kept = material_gain(position, &pv[..end]) >= PIECE_GAIN;
        let after_reply = pv
            .get(end)
            .is_none_or(|_| material_gain(position, &pv[..end + 1]) >= PIECE_GAIN);
        (kept && after_reply).then(|| pv[..end].to_vec())
    })
}

/// A proven puzzle that is no mate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tactic {
    /// The line wins material.
    Material(Vec<Move>),
    /// The one move that holds.
    Defence(Move),
}

/// One search of `position`, then the material proof, else the defence proof; the first
/// that stands. The error is the material proof's when neither does.
pub fn classify(engine: &ProofEngine, position: &Position) -> Result<Tactic, TacticError> {
    let top = engine.top_two_proven(position)?;
    match check_material(position, &top, None) {
        Ok(line) => Ok(Tactic::Material(line)),
        Err(material) => check_defence(position, &top, None)
            .map(Tactic::Defence)
            .map_err(|_| material),
    }
}

/// Searches `position` and, when the best first move wins a piece and is two pawns better
/// than the second, gives the material line.
pub fn find_material(engine: &ProofEngine, position: &Position) -> Result<Vec<Move>, TacticError> {
    let top = engine.top_two_proven(position)?;
    check_material(position, &top, None)
}

/// Checks a material puzzle: `line` must start with the engine's best first move.
pub fn prove_material(
    engine: &ProofEngine,
    position: &Position,
    line: &[Move],
) -> Result<(), TacticError> {
    let top = engine.top_two_proven(position)?;
    check_material(position, &top, Some(line)).map(|_| ())
}

fn check_material(
    position: &Position,
    top: &TopTwo,
    line: Option<&[Move]>,
) -> Result<Vec<Move>, TacticError> {
    let engine_first = *top.best.first().ok_or(TacticError::NoMove)?;
    if let Some(line) = line
        && line.first() != Some(&engine_first)
    {
        return Err(TacticError::NotBest {
            engine: engine_first,
        });
    }
    if matches!(top.best_score, Reported::Mate(n) if n > 0) {
        return Err(TacticError::Mate);
    }
    if top.gap() < MIN_GAP {
        return Err(TacticError::SmallGap {
            gap: top.gap(),
            second: top.second,
        });
    }
    let line = match line {
        Some(line) => {
            let gain = material_gain(position, line);
            if gain < PIECE_GAIN {
                return Err(TacticError::NoGain { gain });
            }
            line.to_vec()
        }
        None => material_line(position, &top.best).ok_or_else(|| TacticError::NoGain {
            gain: material_gain(
                position,
                &top.best[..top.best.len().min(LONGEST_MATERIAL_LINE)],
            ),
        })?,
    };
    let lead = material_balance(position, position.side_to_move()) + material_gain(position, &line);
    if lead < FINAL_LEAD {
        return Err(TacticError::SmallLead { lead });
    }
    Ok(line)
}

/// Searches `position` and, when one move alone holds, gives it.
pub fn find_defence(engine: &ProofEngine, position: &Position) -> Result<Move, TacticError> {
    let top = engine.top_two_proven(position)?;
    check_defence(position, &top, None)
}

/// Checks a defence puzzle: `first` must be the only move that holds.
pub fn prove_defence(
    engine: &ProofEngine,
    position: &Position,
    first: Move,
) -> Result<(), TacticError> {
    let top = engine.top_two_proven(position)?;
    check_defence(position, &top, Some(first)).map(|_| ())
}

fn check_defence(
    position: &Position,
    top: &TopTwo,
    first: Option<Move>,
) -> Result<Move, TacticError> {
    let engine_first = *top.best.first().ok_or(TacticError::NoMove)?;
    if first.is_some_and(|m| m != engine_first) {
        return Err(TacticError::NotBest {
            engine: engine_first,
        });
    }
    let best = top.best_score.centipawns();
    // A single legal move is forced, not found: no puzzle.
    let second = top.second_score.map_or(i32::MAX, Reported::centipawns);
    let holds = (HOLD_FLOOR..=DEFENCE_CEILING).contains(&best);
    let others_lose = second <= LOST_CEILING && top.gap() >= MIN_GAP;
    if !(holds && others_lose) {
        return Err(TacticError::NotADefence { best, second });
    }
    let capture = position.piece_at(engine_first.to()).is_some();
    if capture || (position.in_check() && position.legal_moves().len() < 3) {
        return Err(TacticError::PlainDefence);
    }
    Ok(engine_first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn taking_a_loose_chariot_is_a_material_puzzle() {
        let position = pos("3aka3/9/9/9/r8/9/9/9/9/R2K5 w");
        let line = find_material(&ProofEngine::new(), &position).unwrap();
        assert_eq!(line, vec!["a0a5".parse::<Move>().unwrap()]);
        assert!(prove_material(&ProofEngine::new(), &position, &line).is_ok());
    }

    #[test]
    fn winning_back_a_piece_to_even_material_is_no_puzzle() {
        // Black is a chariot up; taking one of them leaves Red still behind.
        let position = pos("3aka3/9/9/9/r7r/9/9/9/9/R2K5 w");
        let top = TopTwo {
            best: vec!["a0a5".parse().unwrap()],
            best_score: Reported::Cp(100),
            second_score: Some(Reported::Cp(-800)),
            second: Some("d0e0".parse().unwrap()),
        };
        let error = check_material(&position, &top, None).unwrap_err();
        assert_eq!(error, TacticError::SmallLead { lead: -400 });
    }

    #[test]
    fn a_line_that_is_not_the_engines_best_is_refused() {
        let position = pos("3aka3/9/9/9/r8/9/9/9/9/R2K5 w");
        let line = vec!["d0e0".parse::<Move>().unwrap()];
        let error = prove_material(&ProofEngine::new(), &position, &line).unwrap_err();
        assert!(matches!(error, TacticError::NotBest { .. }), "{error}");
    }

    #[test]
    fn a_material_line_ends_once_the_piece_is_kept() {
        // a0a5 wins the chariot; the line stops there, before any quiet moves that follow.
        let position = pos("3aka3/9/9/9/r8/9/9/9/9/R2K5 w");
        let pv: Vec<Move> = ["a0a5", "e9e8", "a5a8"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        assert_eq!(material_line(&position, &pv), Some(pv[..1].to_vec()));
        assert_eq!(material_line(&position, &pv[1..2]), None);
    }
}
