//! Puzzles: positions where one line wins and nothing else does, each with its proof.
//!
//! - [`puzzle`]: the model ([`Puzzle`]) and its line in the export format;
//! - [`line`]: reading puzzle files with errors that name the line and the field;
//! - [`theme`]: the themes (`mateIn1`…`mateIn5`, `material`, `fork` …, `pattern:<id>`);
//! - [`proof`]: the exact mate prover;
//! - [`tactic`]: the engine's proofs of `material` and `defence` puzzles;
//! - [`motifs`]: fork, pin, discovered attack, capturing the defender and the other motifs,
//!   read from a line;
//! - [`patterns`]: the named mates of the patterns course, recognised in a mate's end;
//! - [`combinations`]: horse leg, elephant eye, interference, deflection, decoy, clearance,
//!   zwischenzug and the trapped piece, read from a line;
//! - [`endgame`]: endgame technique from the exact tables;
//! - [`dedupe`]: one puzzle of each position (mirrors too) and of each idea;
//! - [`rating`]: difficulty from how deep the engine must look and how many tries fail;
//! - [`verify`]: re-running a puzzle's proofs;
//! - [`solving`]: a trainer's steps: judging a solver's move, why a wrong one fails, the next
//!   puzzle for a learner;
//! - [`mine`]: finding puzzles in self-play and recorded games.
//!
//! The shipped set is `crates/teaching/puzzles/puzzles.tsv`, embedded in the binary deflated
//! (by the crate's build script) and made by `scripts/make-puzzles`.

pub mod combinations;
pub mod dedupe;
pub mod endgame;
pub mod line;
pub mod mine;
pub mod motifs;
pub mod patterns;
pub mod proof;
pub mod puzzle;
pub mod rating;
pub mod solving;
pub mod tactic;
pub mod theme;
pub mod verify;

pub use line::{Field, LineError, parse_line, parse_puzzles, parse_puzzles_lenient};
pub use proof::{MateProof, MateProofError, MateProver, prove_mate};
pub use puzzle::Puzzle;
pub use solving::{
    Failure, Filter, Judgement, NotSolversTurn, SolverStep, choose_near, choose_next,
};
pub use theme::{Theme, UnknownTheme};
pub use verify::{Verifier, VerifyError};

use std::collections::HashMap;
use std::sync::OnceLock;

/// The shipped puzzle set deflated (made from `puzzles/puzzles.tsv` by the build script).
pub const SHIPPED_DEFLATED: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/puzzles.tsv.deflate"));

/// The shipped puzzle set as text (the export format), inflated.
pub fn shipped_tsv() -> Result<String, LineError> {
    let bad = |message: String| LineError {
        line: 0,
        field: None,
        message,
    };
    let bytes = miniz_oxide::inflate::decompress_to_vec(SHIPPED_DEFLATED)
        .map_err(|e| bad(format!("the shipped set does not inflate: {e}")))?;
    String::from_utf8(bytes).map_err(|e| bad(format!("the shipped set is not UTF-8: {e}")))
}

/// The shipped puzzles read afresh from the binary: inflated and parsed (what [`shipped`]
/// does once).
pub fn read_shipped() -> Result<Vec<Puzzle>, LineError> {
    parse_puzzles(&shipped_tsv()?)
}

/// The shipped puzzles, read once. The set is checked by the crate's tests, so a line that
/// cannot be read is a build defect; it is reported here rather than skipped.
pub fn shipped() -> Result<&'static [Puzzle], &'static LineError> {
    static SHIPPED: OnceLock<Result<Vec<Puzzle>, LineError>> = OnceLock::new();
    SHIPPED
        .get_or_init(read_shipped)
        .as_ref()
        .map(Vec::as_slice)
}

/// The shipped puzzle with id `id`, found by an index made once; none when there is no such
/// puzzle.
pub fn shipped_puzzle(id: &str) -> Result<Option<&'static Puzzle>, &'static LineError> {
    static INDEX: OnceLock<HashMap<&'static str, usize>> = OnceLock::new();
    let puzzles = shipped()?;
    let index = INDEX.get_or_init(|| {
        puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.as_str(), i))
            .collect()
    });
    Ok(index.get(id).map(|&i| &puzzles[i]))
}
