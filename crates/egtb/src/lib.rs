//! Exact endgame tablebases for Xiangqi: a retrograde generator, one compressed file per
//! ending, and a probe that answers the result, the distance to mate and every move's own
//! result.
//!
//! The rules are those of `xiangqi-rules`: stalemate is a loss, the generals may not face
//! each other, generals and advisors stay in the palace, elephants on their seven points
//! behind the river and blocked at the eye, horses blocked at the leg, cannons capture over
//! one screen, soldiers step sideways only once across the river.
//!
//! # Endings
//! An [`Ending`] is named the usual way, `KRKAABB`: the stronger side's pieces after the
//! first `K`, the other side's after the second (R chariot, N or H horse, C cannon, P soldier,
//! A advisor, B or E elephant). One table serves every position with that material: either
//! colour may be the stronger (the board is turned over and the colours swapped), either side
//! may be to move, and a position and its left–right mirror share an entry.
//!
//! # Results
//! A [`Value`] is the result for the side to move with the distance to mate in plies: a win
//! in 1 mates with the next move, a loss in 0 has no legal move. Positions from which
//! neither side can force mate are draws: the tables treat endless play as a draw, whatever
//! the moves repeated. The Asian rules forbid perpetual check; [`Asian`] gives their verdict
//! where it differs, for the draws a side holds only by checking forever (see
//! [`Asian`] and the `asian` module's notes for the exact meaning).
//!
//! # Use
//! ```no_run
//! use xiangqi_egtb::{Ending, Options, Tablebases, generate};
//! use xiangqi_rules::Position;
//!
//! let dir = std::path::Path::new("tables");
//! generate(&[Ending::parse("KRKA")?], dir, &Options::default(), &mut |_| {})?;
//! let tables = Tablebases::open(dir)?;
//! let pos = Position::from_fen("4k4/4a4/9/9/9/9/9/9/9/3RK4 w - - 0 1")?;
//! let probe = tables.probe(&pos)?;
//! println!("{} ({} moves)", probe.value, probe.moves.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod asian;
mod asian_one_sided;
mod ending;
mod error;
mod facts;
mod generate;
mod layout;
mod probe;
mod table;
mod value;

pub use ending::{
    Ending, EndingError, NAME_ORDER, NAMED_ENDINGS, Side, full_set, one_attacker_endings,
};
pub use error::EgtbError;
pub use facts::{
    Claim, Fact, FactCheck, KNOWN_RESULTS, KnownPosition, check_fact, check_position, known_facts,
    known_positions,
};
pub use generate::{Options, Progress, generate};
pub use probe::{MoveValue, Probe, Tablebases, VerifyReport};
pub use table::{SideCounts, Table, TableStats};
pub use value::{Asian, Value};

/// The folder tables are kept in by default: `egtb` in the player's data folder, which is
/// `$XDG_DATA_HOME/xiangqi`, else `$HOME/.local/share/xiangqi` (the folder `xiangqi play`
/// keeps its games in); `None` when neither variable is set.
pub fn default_dir() -> Option<std::path::PathBuf> {
    let from = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(std::path::PathBuf::from)
    };
    from("XDG_DATA_HOME")
        .map(|d| d.join("xiangqi"))
        .or_else(|| from("HOME").map(|h| h.join(".local/share/xiangqi")))
        .map(|d| d.join("egtb"))
}
