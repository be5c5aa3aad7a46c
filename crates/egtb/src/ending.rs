//! Endings named the usual way: `KRKAABB` is a general and a chariot against a general, two
//! advisors and two elephants.

use std::fmt;
use xiangqi_rules::{Color, PieceKind, Position, Square};

/// The kinds besides the general, in the order a name lists them: chariot, horse, cannon,
/// soldier, advisor, elephant. A side earlier in this order is the stronger.
pub const NAME_ORDER: [PieceKind; 6] = [
    PieceKind::Chariot,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Soldier,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

/// What one side has besides its general: a count per kind, in [`NAME_ORDER`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Side {
    counts: [u8; 6],
}

impl Side {
    /// No piece but the general.
    pub const BARE: Side = Side { counts: [0; 6] };

    /// How many pieces of `kind` the side has (the general counts 1).
    pub fn count(&self, kind: PieceKind) -> usize {
        match order_of(kind) {
            Some(i) => self.counts[i] as usize,
            None => 1,
        }
    }

    /// The pieces besides the general, strongest kind first, e.g. `[Chariot, Horse]`.
    pub fn pieces(&self) -> Vec<PieceKind> {
        let mut out = Vec::new();
        for (i, kind) in NAME_ORDER.iter().enumerate() {
            for _ in 0..self.counts[i] {
                out.push(*kind);
            }
        }
        out
    }

    /// Number of pieces besides the general.
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&c| c as usize).sum()
    }

    /// Whether the side has nothing but its general.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the side has a chariot, horse, cannon or soldier (a piece that can cross the
    /// river and give check).
    pub fn has_attacker(&self) -> bool {
        self.counts[..4].iter().any(|&c| c > 0)
    }

    /// The side with one more `kind`.
    pub fn with(mut self, kind: PieceKind) -> Side {
        if let Some(i) = order_of(kind) {
            self.counts[i] += 1;
        }
        self
    }

    /// The side with one `kind` fewer (unchanged when it has none).
    pub fn without(mut self, kind: PieceKind) -> Side {
        if let Some(i) = order_of(kind) {
            self.counts[i] = self.counts[i].saturating_sub(1);
        }
        self
    }

    /// Strength order for naming: the side whose strongest pieces come first in
    /// [`NAME_ORDER`] is stronger; with the same pieces as far as the shorter goes, the one
    /// with more pieces is.
    fn strength_cmp(&self, other: &Side) -> std::cmp::Ordering {
        let (a, b) = (self.pieces(), other.pieces());
        for (x, y) in a.iter().zip(b.iter()) {
            let (ix, iy) = (order_of(*x), order_of(*y));
            if ix != iy {
                // An earlier kind is stronger.
                return iy.cmp(&ix);
            }
        }
        a.len().cmp(&b.len())
    }

    fn letters(&self) -> String {
        let mut s = String::from("K");
        for kind in self.pieces() {
            s.push(kind.fen_letter());
        }
        s
    }
}

fn order_of(kind: PieceKind) -> Option<usize> {
    NAME_ORDER.iter().position(|&k| k == kind)
}

/// An ending: the material of both sides. The first side is the stronger (by [`NAME_ORDER`]);
/// a table for the ending serves every position with this material, whichever colour has
/// the stronger side and whichever side is to move. In a table the stronger side plays Red.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Ending {
    strong: Side,
    weak: Side,
}

/// Why an ending name was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndingError {
    /// The name as given.
    pub name: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for EndingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad ending name '{}': {}", self.name, self.reason)
    }
}

impl std::error::Error for EndingError {}

impl Ending {
    /// The ending of two sides, put in order (the stronger first).
    pub fn new(a: Side, b: Side) -> Ending {
        if a.strength_cmp(&b) == std::cmp::Ordering::Less {
            Ending { strong: b, weak: a }
        } else {
            Ending { strong: a, weak: b }
        }
    }

    /// Reads a name such as `KRKAABB`, `KHPKAA` or `KCAKA`: a `K`, the first side's pieces,
    /// a `K`, the other side's pieces, with R chariot, N or H horse, C cannon, P soldier,
    /// A advisor, B or E elephant (either case). The sides may come in either order and the
    /// letters of a side in any order; the ending is the same.
    pub fn parse(name: &str) -> Result<Ending, EndingError> {
        let err = |reason: String| EndingError {
            name: name.to_string(),
            reason,
        };
        let text = name.trim();
        if text.is_empty() {
            return Err(err("the name is empty; expected e.g. KRKAABB".into()));
        }
        let mut sides: Vec<Side> = Vec::new();
        for (i, c) in text.chars().enumerate() {
            let kind = PieceKind::from_letter(c).ok_or_else(|| {
                err(format!(
                    "unknown letter '{c}' at character {}; expected K, R, N (H), C, P, A, B (E)",
                    i + 1
                ))
            })?;
            if kind == PieceKind::General {
                if sides.len() == 2 {
                    return Err(err(format!(
                        "a third general at character {}; an ending names two sides",
                        i + 1
                    )));
                }
                sides.push(Side::BARE);
                continue;
            }
            let Some(side) = sides.last_mut() else {
                return Err(err(
                    "the name must start with K (the first side's general)".into()
                ));
            };
            *side = side.with(kind);
            if side.count(kind) > kind.max_count() {
                return Err(err(format!(
                    "a side has {} {}s, at most {} allowed",
                    side.count(kind),
                    kind.name(),
                    kind.max_count()
                )));
            }
        }
        if sides.len() != 2 {
            return Err(err(
                "only one general; name both sides, e.g. KRKAABB (a chariot against a full guard)"
                    .into(),
            ));
        }
        Ok(Ending::new(sides[0], sides[1]))
    }

    /// The stronger side (Red in the table).
    pub fn strong(&self) -> Side {
        self.strong
    }

    /// The weaker side (Black in the table).
    pub fn weak(&self) -> Side {
        self.weak
    }

    /// The side of `color` in the table's frame (Red is the stronger side).
    pub fn side(&self, color: Color) -> Side {
        match color {
            Color::Red => self.strong,
            Color::Black => self.weak,
        }
    }

    /// Whether both sides have the same pieces (then a table needs no colour flip).
    pub fn is_symmetric(&self) -> bool {
        self.strong == self.weak
    }

    /// The standard name, stronger side first, letters R N C P A B: `KRKAABB`.
    pub fn name(&self) -> String {
        format!("{}{}", self.strong.letters(), self.weak.letters())
    }

    /// The file a table of this ending is kept in: `KRKAABB.xqtb`.
    pub fn file_name(&self) -> String {
        format!("{}.xqtb", self.name())
    }

    /// Every piece on the board, the generals included.
    pub fn piece_count(&self) -> usize {
        2 + self.strong.len() + self.weak.len()
    }

    /// The endings one capture leads to, each once, in name order.
    pub fn captures(&self) -> Vec<Ending> {
        let mut out = Vec::new();
        for (mine, theirs, color) in [
            (self.strong, self.weak, Color::Red),
            (self.weak, self.strong, Color::Black),
        ] {
            let _ = color;
            for kind in NAME_ORDER {
                if theirs.count(kind) > 0 {
                    let e = Ending::new(mine, theirs.without(kind));
                    if !out.contains(&e) {
                        out.push(e);
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// This ending and every ending captures can lead to, smallest first (each after all
    /// the endings its own captures lead to).
    pub fn with_sub_endings(&self) -> Vec<Ending> {
        let mut order = Vec::new();
        fn visit(e: Ending, order: &mut Vec<Ending>) {
            if order.contains(&e) {
                return;
            }
            for sub in e.captures() {
                visit(sub, order);
            }
            order.push(e);
        }
        visit(*self, &mut order);
        order
    }

    /// The ending of a position and whether the table sees it colour-flipped (Black is the
    /// stronger side, so the board is turned and the colours swapped).
    pub fn of_position(pos: &Position) -> (Ending, bool) {
        let mut sides = [Side::BARE; 2];
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq)
                && p.kind != PieceKind::General
            {
                sides[p.color.index()] = sides[p.color.index()].with(p.kind);
            }
        }
        let ending = Ending::new(sides[0], sides[1]);
        let flipped = ending.strong != sides[0];
        (ending, flipped)
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl std::str::FromStr for Ending {
    type Err = EndingError;
    fn from_str(s: &str) -> Result<Ending, EndingError> {
        Ending::parse(s)
    }
}

/// The endings with one attacking piece (chariot, horse, cannon or soldier) and a bare
/// general on the stronger side against up to `max_defenders` advisors and elephants, in
/// name order.
pub fn one_attacker_endings(max_defenders: usize) -> Vec<Ending> {
    let mut out = Vec::new();
    for attacker in ATTACKERS {
        for weak in guards() {
            if weak.len() <= max_defenders {
                out.push(Ending::new(Side::BARE.with(attacker), weak));
            }
        }
    }
    out
}

/// The pieces that can cross the river and give check.
const ATTACKERS: [PieceKind; 4] = [
    PieceKind::Chariot,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Soldier,
];

/// Every set of advisors and elephants one side may have: up to two of each.
fn guards() -> Vec<Side> {
    let mut out = Vec::new();
    for advisors in 0..=2 {
        for elephants in 0..=2 {
            let mut side = Side::BARE;
            for _ in 0..advisors {
                side = side.with(PieceKind::Advisor);
            }
            for _ in 0..elephants {
                side = side.with(PieceKind::Elephant);
            }
            out.push(side);
        }
    }
    out
}

/// The endings with two or more attacking pieces that the course and the known results need:
/// chariot + horse or + soldier against chariot, the chariot against a horse or a cannon with
/// two advisors or two elephants and against two defending pieces, cannon or horse with a
/// soldier against the guards, horse + cannon, two horses, two and three soldiers against the
/// full guard.
pub const NAMED_ENDINGS: [&str; 20] = [
    "KRNKR",
    "KRPKR",
    "KRKNAA",
    "KRKNBB",
    "KRKCAA",
    "KRKCBB",
    "KRKNN",
    "KRKCC",
    "KRKNC",
    "KCPKAA",
    "KCPKAB",
    "KCPKBB",
    "KNPKAA",
    "KNPKAAB",
    "KNPKABB",
    "KNPKAABB",
    "KNCKAABB",
    "KNNKAABB",
    "KPPKAABB",
    "KPPPKAABB",
];

/// The full set: every ending of one attacking piece with any advisors and elephants on
/// either side (324 endings), then [`NAMED_ENDINGS`].
pub fn full_set() -> Vec<Ending> {
    let mut out = Vec::new();
    for attacker in ATTACKERS {
        for strong in guards() {
            for weak in guards() {
                out.push(Ending::new(strong.with(attacker), weak));
            }
        }
    }
    out.extend(
        NAMED_ENDINGS
            .iter()
            .map(|n| Ending::parse(n).expect("the named endings are well named")),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_and_put_in_order() {
        let e = Ending::parse("KRKAABB").unwrap();
        assert_eq!(e.name(), "KRKAABB");
        assert_eq!(Ending::parse("kaabbkr").unwrap(), e);
        assert_eq!(Ending::parse("KAEBAKR").unwrap(), e);
        assert_eq!(Ending::parse("KHPKAA").unwrap().name(), "KNPKAA");
        assert_eq!(Ending::parse("KAKCA").unwrap().name(), "KCAKA");
        assert_eq!(Ending::parse("KBKA").unwrap().name(), "KAKB");
        assert_eq!(Ending::parse("KK").unwrap().name(), "KK");
        assert_eq!(Ending::parse("KNKR").unwrap().name(), "KRKN");
        assert_eq!(Ending::parse("KRKRN").unwrap().name(), "KRNKR");
    }

    #[test]
    fn bad_names_say_what_is_wrong() {
        for (name, part) in [
            ("", "empty"),
            ("RKK", "must start with K"),
            ("KRX", "unknown letter 'X' at character 3"),
            ("KRAAAK", "3 advisors"),
            ("KRKAKB", "third general"),
            ("KR", "only one general"),
        ] {
            let e = Ending::parse(name).unwrap_err();
            assert!(e.to_string().contains(part), "{name}: {e}");
        }
    }

    #[test]
    fn sub_endings_come_first() {
        let order = Ending::parse("KRKA").unwrap().with_sub_endings();
        let names: Vec<String> = order.iter().map(|e| e.name()).collect();
        assert_eq!(names, ["KK", "KAK", "KRK", "KRKA"]);
        assert_eq!(one_attacker_endings(2).len(), 24);
        let full = full_set();
        assert_eq!(full.len(), 324 + NAMED_ENDINGS.len());
        let distinct: std::collections::HashSet<_> = full.iter().collect();
        assert_eq!(distinct.len(), full.len());
        assert!(full.contains(&Ending::parse("KRAABBKAABB").unwrap()));
        assert!(full.contains(&Ending::parse("KPKAABB").unwrap()));
    }
}
