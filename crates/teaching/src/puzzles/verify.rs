//! Re-running a puzzle's proof: the mate prover for `mateInN` puzzles, the engine's
//! fixed-depth search for `material` and `defence`, the endgame tables for `endgame`, and the
//! motif rules for the motif themes.

use super::endgame::{EndgameError, prove_endgame};
use super::motifs::detect_motifs;
use super::proof::{DEFAULT_NODE_BUDGET, MateProofError, MateProver, line_text};
use super::puzzle::Puzzle;
use super::tactic::{ProofEngine, TacticError, prove_defence, prove_material};
use super::theme::Theme;
use std::fmt;
use std::sync::Arc;
use xiangqi_egtb::Tablebases;
use xiangqi_rules::Move;

/// Why a puzzle failed its proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The puzzle has none of `mateInN`, `material` or `defence`, or more than one.
    NoKind,
    /// The mate proof failed.
    Mate(MateProofError),
    /// The mate is proven but the line is not the principal one.
    NotPrincipal {
        /// The principal line.
        expected: Vec<Move>,
    },
    /// The material or defence proof failed.
    Tactic(TacticError),
    /// A defence puzzle's line is more than its one move.
    LongDefence,
    /// A `pattern:` theme on a puzzle that is no mate.
    PatternWithoutMate,
    /// The forced win's theme does not say how its line ends (a stalemate themed as a mate,
    /// or the other way round); `expected` is the theme the ending asks for.
    WrongEnding {
        /// The theme the line's end calls for.
        expected: Theme,
    },
    /// A motif theme the line does not show.
    MotifNotShown(Theme),
    /// An endgame puzzle, and the verifier has no tables (see [`Verifier::with_tables`]).
    NoTables,
    /// The endgame proof failed.
    Endgame(EndgameError),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::NoKind => write!(
                f,
                "a puzzle needs exactly one of mateIn1…mateIn5, stalemateIn1…stalemateIn5, \
                 material, defence or endgame"
            ),
            VerifyError::Mate(e) => write!(f, "mate proof: {e}"),
            VerifyError::NotPrincipal { expected } => write!(
                f,
                "the line is not the principal one: {}",
                line_text(expected)
            ),
            VerifyError::Tactic(e) => write!(f, "engine proof: {e}"),
            VerifyError::LongDefence => write!(f, "a defence puzzle's line is its one move"),
            VerifyError::PatternWithoutMate => write!(f, "a pattern theme needs a mate"),
            VerifyError::WrongEnding { expected } => write!(
                f,
                "the line ends in {}, so the theme is {expected}",
                match expected {
                    Theme::StalemateIn(_) => "stalemate",
                    _ => "checkmate",
                }
            ),
            VerifyError::MotifNotShown(theme) => {
                write!(f, "the line does not show the theme {theme}")
            }
            VerifyError::NoTables => write!(
                f,
                "an endgame puzzle is proven by the endgame tables, and none were given"
            ),
            VerifyError::Endgame(e) => write!(f, "endgame proof: {e}"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// Re-runs proofs; keeps its engine and prover between puzzles.
pub struct Verifier {
    prover: MateProver,
    engine: ProofEngine,
    tables: Option<Arc<Tablebases>>,
}

impl Default for Verifier {
    fn default() -> Self {
        Verifier::new()
    }
}

impl Verifier {
    /// A verifier with the default mate node budget.
    pub fn new() -> Verifier {
        Verifier {
            prover: MateProver::new(DEFAULT_NODE_BUDGET),
            engine: ProofEngine::new(),
            tables: None,
        }
    }

    /// A verifier that also proves endgame puzzles, by `tables` (which must cover the endgame
    /// course's endings).
    pub fn with_tables(tables: Arc<Tablebases>) -> Verifier {
        Verifier {
            tables: Some(tables),
            ..Verifier::new()
        }
    }

    /// Checks `puzzle`: its proof by kind, the motifs it claims, and that its line ends as
    /// the kind says (a mate with the defender in check and out of moves, a stalemate with
    /// the defender out of moves but not in check).
    pub fn verify(&mut self, puzzle: &Puzzle) -> Result<(), VerifyError> {
        let mates: Vec<u8> = puzzle
            .themes
            .iter()
            .filter_map(Theme::forced_win_length)
            .collect();
        let material = puzzle.has_theme(&Theme::Material);
        let defence = puzzle.has_theme(&Theme::Defence);
        let endgame = puzzle.has_theme(&Theme::Endgame);
        let kinds =
            mates.len() + usize::from(material) + usize::from(defence) + usize::from(endgame);
        if kinds != 1 {
            return Err(VerifyError::NoKind);
        }
        let pattern = puzzle.themes.iter().any(|t| matches!(t, Theme::Pattern(_)));
        if pattern && puzzle.mate_length().is_none() {
            return Err(VerifyError::PatternWithoutMate);
        }
        if let Some(&length) = mates.first() {
            let proof = self
                .prover
                .prove(&puzzle.position, u32::from(length))
                .map_err(VerifyError::Mate)?;
            if proof.line != puzzle.moves {
                return Err(VerifyError::NotPrincipal {
                    expected: proof.line,
                });
            }
            let expected = Theme::forced_win(length, puzzle.ending())
                .expect("a proven principal line ends the game");
            if !puzzle.has_theme(&expected) {
                return Err(VerifyError::WrongEnding { expected });
            }
        } else if endgame {
            let tables = self.tables.as_ref().ok_or(VerifyError::NoTables)?;
            prove_endgame(tables, puzzle).map_err(VerifyError::Endgame)?;
        } else if material {
            prove_material(&self.engine, &puzzle.position, &puzzle.moves)
                .map_err(VerifyError::Tactic)?;
        } else {
            if puzzle.moves.len() != 1 {
                return Err(VerifyError::LongDefence);
            }
            prove_defence(&self.engine, &puzzle.position, puzzle.moves[0])
                .map_err(VerifyError::Tactic)?;
        }
        let shown = detect_motifs(&puzzle.position, &puzzle.moves);
        for theme in &puzzle.themes {
            let motif = theme.is_motif();
            if motif && !shown.contains(theme) {
                return Err(VerifyError::MotifNotShown(theme.clone()));
            }
        }
        Ok(())
    }
}
