//! Opening names by the ECCO classification (codes A00–E99, as published by xqbase, ECCO
//! 2004): which opening and variation a game's first moves make, with each code's own name
//! and its family's name in English and Russian for interfaces that do not show the Chinese
//! names.
//!
//! The data lives in `crates/teaching/openings/` (format and credits in its README): every
//! code with its names (`codes.tsv`), the English and Russian names of the named codes
//! (`names.tsv`), the families (`families.tsv`), the lines leading to
//! each code (`lines.tsv`) and where the reading of a side's moves stops (`stops.tsv`). The
//! classifier reads the first ten moves of each side as ECCO does, the moves of each step in
//! any order, so transposed move orders reach the same code.
//!
//! Beside [`classify`], [`continuations`] names the code each legal move from a position
//! leads to, [`explorer`] lists and ranks them for the opening explorer, and [`fill_tags`]
//! writes a record's ECCO tags.

pub mod book;
mod classify;
pub mod explorer;
mod table;
mod tags;
pub mod trainer;

use crate::lang::Lang;
use std::fmt;
use xiangqi_rules::{Move, Position};

pub use table::{Family, Names, TableError, Translated, all_codes, load};
pub use tags::fill_tags;

/// An ECCO opening: the code, its Chinese names and its family.
#[derive(Clone, Copy, Debug)]
pub struct Opening {
    /// The code, e.g. `C48`.
    pub code: &'static str,
    /// The opening's Chinese name, e.g. `中炮过河车互进七兵对屏风马平炮兑车`.
    pub name: &'static str,
    /// The variation's Chinese name, e.g. `红仕角炮对黑退边炮`; empty when there is none.
    pub variation: &'static str,
    /// The family the code belongs to, named in three languages.
    pub family: &'static Family,
    /// False for the codes the classification leaves unused (named after their group).
    pub named: bool,
    /// The code's own English and Russian names; `None` for the unused codes.
    pub names: Option<&'static Names>,
}

impl PartialEq for Opening {
    fn eq(&self, other: &Opening) -> bool {
        self.code == other.code
    }
}

impl Eq for Opening {}

impl Opening {
    /// The family's name in `lang`.
    pub fn family_name(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => &self.family.en,
            Lang::Ru => &self.family.ru,
            Lang::Zh => &self.family.zh,
        }
    }

    /// The code's own names in `lang` (English or Russian), when it has them: the unused
    /// codes and Chinese have none.
    pub fn translated(&self, lang: Lang) -> Option<&'static Translated> {
        let names = self.names?;
        match lang {
            Lang::En => Some(&names.en),
            Lang::Ru => Some(&names.ru),
            Lang::Zh => None,
        }
    }

    /// The opening's name in `lang`: the Chinese name, or its English or Russian one; an
    /// unused code (which no game reaches) is named by its family in English and Russian.
    pub fn opening_name(&self, lang: Lang) -> &'static str {
        match (lang, self.translated(lang)) {
            (Lang::Zh, _) => self.name,
            (_, Some(t)) => &t.opening,
            (_, None) => self.family_name(lang),
        }
    }

    /// The variation's name in `lang`; empty when the code has none.
    pub fn variation_name(&self, lang: Lang) -> &'static str {
        match (lang, self.translated(lang)) {
            (Lang::Zh, _) => self.variation,
            (_, Some(t)) => &t.variation,
            (_, None) => "",
        }
    }

    /// Where the name in `lang` comes from: the citation of its source for English and
    /// Russian (for an unused code, its family's), `None` for the Chinese names of ECCO.
    pub fn name_source(&self, lang: Lang) -> Option<&'static str> {
        match (lang, self.translated(lang)) {
            (Lang::Zh, _) => None,
            (_, Some(t)) => Some(&t.source),
            (Lang::En, None) => Some(&self.family.en_source),
            (Lang::Ru, None) => Some(&self.family.ru_source),
        }
    }

    /// The name an interface in `lang` shows: the opening, then the variation where there
    /// is one (`中炮对屏风马 红左马盘河` in Chinese, `Opening — Variation` in English and
    /// Russian).
    pub fn title(&self, lang: Lang) -> String {
        let (opening, variation) = (self.opening_name(lang), self.variation_name(lang));
        match lang {
            _ if variation.is_empty() => opening.to_string(),
            Lang::Zh => format!("{opening} {variation}"),
            _ => format!("{opening} — {variation}"),
        }
    }
}

impl fmt::Display for Opening {
    /// `C48 中炮过河车互进七兵对屏风马平炮兑车 红仕角炮对黑退边炮`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.code, self.title(Lang::Zh))
    }
}

/// Why a game cannot be classified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// The game starts from another position than the initial one (FEN given).
    NotFromStart(String),
    /// A move is not legal where it is played.
    IllegalMove {
        /// 0-based ply of the move.
        ply: usize,
        /// The move, as given.
        mv: Move,
    },
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::NotFromStart(fen) => write!(
                f,
                "openings are named only for games from the initial position, not from {fen}"
            ),
            OpeningError::IllegalMove { ply, mv } => {
                let side = if ply % 2 == 0 { "Red" } else { "Black" };
                write!(
                    f,
                    "move {} ({side}) {mv} is not legal in the position before it",
                    ply / 2 + 1
                )
            }
        }
    }
}

impl std::error::Error for OpeningError {}

fn opening_at(index: usize) -> Opening {
    let t = table::table();
    let e = &t.entries[index];
    Opening {
        code: &e.code,
        name: &e.opening,
        variation: &e.variation,
        family: &t.families[e.family],
        named: e.named,
        names: e.names.as_ref(),
    }
}

/// The opening with `code` (e.g. `C48`), if there is such a code.
pub fn by_code(code: &str) -> Option<Opening> {
    table::table().position(code).map(opening_at)
}

/// The codes that the lines going on from `current` need `mv` for, played after `moves` (so
/// as the side to move's next move), most general first: where a move that keeps the game at
/// its code heads. For the explorer, beside the codes a move enters. The lines are followed
/// to any depth: a move that only a later code's lines need (Red's 马二进三 at 中炮对进左马,
/// needed by the lines below 中炮对屏风马) heads for that code and for the codes on the way.
pub fn heads_toward(current: &str, moves: &[Move], mv: Move) -> Vec<Opening> {
    let t = table::table();
    let side = moves.len() % 2;
    let index = moves.len() / 2;
    let left_first = moves.first().is_some_and(|m| m.from().file() < 4);
    // Lines the game can no longer follow (a move they need was not played in time) lead
    // nowhere.
    let after = classify::Sides::new(&[moves, &[mv]].concat());
    let mv = if left_first { table::mirrored(mv) } else { mv };
    let Some(start) = t.position(current) else {
        return Vec::new();
    };
    // Every code the lines lead to from `current`, with the codes on the way to it.
    let mut way: Vec<Option<Vec<usize>>> = vec![None; t.entries.len()];
    way[start] = Some(Vec::new());
    let mut queue = vec![start];
    let mut found: Vec<usize> = Vec::new();
    while let Some(at) = queue.pop() {
        let here = way[at].clone().unwrap_or_default();
        for step in t
            .steps
            .iter()
            .filter(|s| s.parent == Some(at) && after.can_still_take(s))
        {
            let needs = if side == 0 { &step.red } else { &step.black };
            if needs
                .iter()
                .any(|n| index < n.within && n.moves.contains(&mv))
            {
                found.extend(here.iter().copied().chain([step.child]));
            }
            if way[step.child].is_none() {
                way[step.child] = Some(here.iter().copied().chain([step.child]).collect());
                queue.push(step.child);
            }
        }
    }
    found.retain(|&i| i != start);
    found.sort_unstable();
    found.dedup();
    let mut codes: Vec<Opening> = found.into_iter().map(opening_at).collect();
    codes.sort_by_key(|o| std::cmp::Reverse(lines_below(o.code).len()));
    codes
}

/// The codes a game at `code` can still go on to by the classification's lines (not `code`
/// itself), in code order: e.g. from C40 the variations C41–C49. For a trainer or explorer
/// that offers the lines below an opening.
pub fn lines_below(code: &str) -> Vec<Opening> {
    let t = table::table();
    let Some(start) = t.position(code) else {
        return Vec::new();
    };
    let mut seen = vec![false; t.entries.len()];
    let mut queue = vec![start];
    while let Some(at) = queue.pop() {
        for step in t.steps.iter().filter(|s| s.parent == Some(at)) {
            if !seen[step.child] && step.child != start {
                seen[step.child] = true;
                queue.push(step.child);
            }
        }
    }
    (0..t.entries.len())
        .filter(|&i| seen[i])
        .map(opening_at)
        .collect()
}

/// Every code A00–E99 in order, unused ones included.
pub fn all() -> impl Iterator<Item = Opening> {
    (0..table::table().entries.len()).map(opening_at)
}

/// Plays `moves` from the initial position, refusing the first illegal one.
fn play(moves: &[Move]) -> Result<Position, OpeningError> {
    let mut pos = Position::startpos();
    for (ply, &mv) in moves.iter().enumerate() {
        if !pos.is_legal(mv) {
            return Err(OpeningError::IllegalMove { ply, mv });
        }
        pos.make_move(mv);
    }
    Ok(pos)
}

/// The ECCO code of moves already known to be legal from the initial position.
fn classify_legal(moves: &[Move]) -> Option<Opening> {
    if moves.is_empty() {
        return None;
    }
    let t = table::table();
    let index = classify::walk(t, &classify::Sides::new(moves)).or_else(|| t.position("A00"))?;
    Some(opening_at(index))
}

/// The opening of a game from the initial position that begins with `moves` (Red first):
/// `None` before the first move, an error naming the first illegal move.
pub fn classify(moves: &[Move]) -> Result<Option<Opening>, OpeningError> {
    play(moves)?;
    Ok(classify_legal(moves))
}

/// Whether `pos` is the initial position (board and side to move).
pub fn is_initial(pos: &Position) -> bool {
    xiangqi_engine::book::is_initial(pos)
}

/// The opening of a game that starts at `start` with `moves`: an error when `start` is not
/// the initial position or a move is illegal.
pub fn classify_from(start: &Position, moves: &[Move]) -> Result<Option<Opening>, OpeningError> {
    if !is_initial(start) {
        return Err(OpeningError::NotFromStart(start.to_fen()));
    }
    classify(moves)
}

/// A legal move from a position and the opening the game reaches with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Continuation {
    /// The move.
    pub mv: Move,
    /// The opening of the game after it.
    pub opening: Opening,
}

/// Every legal move after `moves` (from the initial position) with the opening it leads to,
/// in ICCS order; the moves that change the code first. For an explorer: which ECCO lines
/// each continuation enters.
pub fn continuations(moves: &[Move]) -> Result<Vec<Continuation>, OpeningError> {
    let pos = play(moves)?;
    let current = classify_legal(moves).map(|o| o.code);
    let mut line = moves.to_vec();
    let mut out: Vec<Continuation> = pos
        .legal_moves()
        .iter()
        .filter_map(|&mv| {
            line.push(mv);
            let opening = classify_legal(&line);
            line.pop();
            opening.map(|opening| Continuation { mv, opening })
        })
        .collect();
    out.sort_by_key(|c| (Some(c.opening.code) == current, c.mv.to_string()));
    Ok(out)
}
