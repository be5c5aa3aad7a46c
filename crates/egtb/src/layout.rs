//! The dense index of an ending's placements and a small board for generating tables.
//!
//! Every piece stands on the points it can ever reach: generals on the 9 points of their
//! palace, advisors on their 5, elephants on their 7, soldiers on the 55 points a soldier of
//! that side can stand on, chariots, horses and cannons anywhere. Pieces of one kind and
//! side are an unordered set (a combination index). The two generals come first as one of
//! 45 pairs: the left–right mirror turns every other pair into one with the Red general on
//! the d-file, or both on the e-file, so the index holds a little over half the placements.
//! Placements with two pieces on one point, with facing generals or with the side not to
//! move in check are illegal entries of the index.

use crate::ending::{Ending, NAME_ORDER};
use xiangqi_rules::fen::is_reachable;
use xiangqi_rules::{Color, Piece, PieceKind, Square};

pub(crate) const GENERAL: u8 = 0;
pub(crate) const ADVISOR: u8 = 1;
pub(crate) const ELEPHANT: u8 = 2;
pub(crate) const HORSE: u8 = 3;
pub(crate) const CHARIOT: u8 = 4;
pub(crate) const CANNON: u8 = 5;
pub(crate) const SOLDIER: u8 = 6;

/// Most pieces a table may hold (generals included).
pub(crate) const MAX_SLOTS: usize = 16;
/// The square of a captured piece.
pub(crate) const GONE: u8 = 255;
const NO_POINT: u8 = 255;

pub(crate) fn kind_code(kind: PieceKind) -> u8 {
    kind.index() as u8
}

pub(crate) fn kind_of_code(code: u8) -> PieceKind {
    PieceKind::ALL[code as usize]
}

pub(crate) fn color_of_code(code: u8) -> Color {
    if code == 0 { Color::Red } else { Color::Black }
}

#[inline]
fn file(s: u8) -> i8 {
    (s % 9) as i8
}

#[inline]
fn rank(s: u8) -> i8 {
    (s / 9) as i8
}

#[inline]
fn at(f: i8, r: i8) -> Option<u8> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Some((r * 9 + f) as u8)
    } else {
        None
    }
}

#[inline]
pub(crate) fn mirror(s: u8) -> u8 {
    (rank(s) * 9 + 8 - file(s)) as u8
}

#[inline]
pub(crate) fn flip_rank(s: u8) -> u8 {
    ((9 - rank(s)) * 9 + file(s)) as u8
}

#[inline]
fn in_palace(color: u8, f: i8, r: i8) -> bool {
    (3..=5).contains(&f)
        && if color == 0 {
            (0..=2).contains(&r)
        } else {
            (7..=9).contains(&r)
        }
}

#[inline]
fn own_half(color: u8, r: i8) -> bool {
    if color == 0 { r <= 4 } else { r >= 5 }
}

#[inline]
fn forward(color: u8) -> i8 {
    if color == 0 { 1 } else { -1 }
}

/// The points a general, an advisor or an elephant (`kind`) of `color` on (`f`, `r`) steps
/// to, occupied or not: along the palace's lines or diagonals, or two points diagonally on its
/// own half with the eye between empty in `cells`. Each step is its own reverse, so these are
/// also the points it can have come from.
#[inline]
fn guard_steps(kind: u8, color: u8, f: i8, r: i8, cells: &[u8; 90], each: &mut impl FnMut(u8)) {
    match kind {
        GENERAL | ADVISOR => {
            let dirs = if kind == GENERAL { ORTHO } else { DIAG };
            for (df, dr) in dirs {
                if in_palace(color, f + df, r + dr) {
                    each(at(f + df, r + dr).expect("in palace"));
                }
            }
        }
        _ => {
            for (df, dr) in DIAG {
                if let Some(to) = at(f + 2 * df, r + 2 * dr)
                    && own_half(color, r + 2 * dr)
                    && cells[at(f + df, r + dr).expect("eye") as usize] == 0
                {
                    each(to);
                }
            }
        }
    }
}

const ORTHO: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const HORSE_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

/// The horse's leg for a jump of (df, dr): the point next to the origin along the long leg.
#[inline]
fn leg(df: i8, dr: i8) -> (i8, i8) {
    if dr.abs() == 2 {
        (0, dr / 2)
    } else {
        (df / 2, 0)
    }
}

const fn binomials() -> [[u64; 6]; 91] {
    let mut t = [[0u64; 6]; 91];
    let mut n = 0;
    while n < 91 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 6 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
}

static BINOM: [[u64; 6]; 91] = binomials();

/// One kind of piece of one side: its slots and the points it may stand on.
#[derive(Clone, Debug)]
struct Group {
    first: usize,
    count: usize,
    domain: Vec<u8>,
    /// The point's place in `domain`, or `NO_POINT`.
    place: [u8; 90],
    combinations: usize,
}

/// The king pairs: (Red general, Black general) for each pair index, and for each pair of
/// points the pair index with a flag (0x80) when the board must be mirrored first.
struct KingPairs {
    pairs: Vec<(u8, u8)>,
    lookup: Vec<u8>,
}

fn king_pairs() -> &'static KingPairs {
    use std::sync::OnceLock;
    static PAIRS: OnceLock<KingPairs> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let palace = |color: u8| -> Vec<u8> {
            (0u8..90)
                .filter(|&s| in_palace(color, file(s), rank(s)))
                .collect()
        };
        let mut pairs = Vec::new();
        for &r in &palace(0) {
            for &b in &palace(1) {
                if file(r) < 4 || (file(r) == 4 && file(b) <= 4) {
                    pairs.push((r, b));
                }
            }
        }
        let mut lookup = vec![NO_POINT; 90 * 90];
        for (i, &(r, b)) in pairs.iter().enumerate() {
            lookup[r as usize * 90 + b as usize] = i as u8;
            let (mr, mb) = (mirror(r), mirror(b));
            if lookup[mr as usize * 90 + mb as usize] == NO_POINT {
                lookup[mr as usize * 90 + mb as usize] = i as u8 | 0x80;
            }
        }
        KingPairs { pairs, lookup }
    })
}

/// Number of king pairs in the index.
pub(crate) const KING_PAIRS: usize = 45;

/// A board of the generator: what stands on each point (slot + 1, 0 when empty) and where
/// each slot stands.
#[derive(Clone, Debug)]
pub(crate) struct Board {
    pub cells: [u8; 90],
    pub sq: [u8; MAX_SLOTS],
}

/// A move on a [`Board`]: the slot that moves, its points and the slot it captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mv {
    pub slot: u8,
    pub from: u8,
    pub to: u8,
    pub captured: u8,
}

/// An ending's index: its slots (Red general, Black general, then Red's and Black's pieces in
/// name order) and the size of the index per side to move.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub ending: Ending,
    /// Side (0 Red, 1 Black) and kind code of each slot.
    pub color: Vec<u8>,
    pub kind: Vec<u8>,
    groups: Vec<Group>,
    /// Entries per side to move.
    pub size: usize,
}

impl Layout {
    /// The layout of `ending`, or `None` when its index would not fit in memory addresses.
    pub fn new(ending: Ending) -> Option<Layout> {
        let mut color = vec![0u8, 1u8];
        let mut kind = vec![GENERAL, GENERAL];
        let mut groups = Vec::new();
        let mut size: usize = KING_PAIRS;
        for c in [Color::Red, Color::Black] {
            let side = ending.side(c);
            for k in NAME_ORDER {
                let count = side.count(k);
                if count == 0 {
                    continue;
                }
                let first = color.len();
                for _ in 0..count {
                    color.push(c.index() as u8);
                    kind.push(kind_code(k));
                }
                let piece = Piece::new(c, k);
                let domain: Vec<u8> = Square::all()
                    .filter(|&s| is_reachable(piece, s))
                    .map(|s| s.index() as u8)
                    .collect();
                let mut place = [NO_POINT; 90];
                for (i, &s) in domain.iter().enumerate() {
                    place[s as usize] = i as u8;
                }
                let combinations = BINOM[domain.len()][count] as usize;
                size = size.checked_mul(combinations)?;
                groups.push(Group {
                    first,
                    count,
                    domain,
                    place,
                    combinations,
                });
            }
        }
        if color.len() > MAX_SLOTS {
            return None;
        }
        Some(Layout {
            ending,
            color,
            kind,
            groups,
            size,
        })
    }

    /// Number of slots (pieces, generals included).
    pub fn slots(&self) -> usize {
        self.color.len()
    }

    /// The board of index `idx`, or `None` when two pieces share a point.
    pub fn decode(&self, idx: usize) -> Option<Board> {
        let mut b = Board {
            cells: [0; 90],
            sq: [GONE; MAX_SLOTS],
        };
        let mut rest = idx;
        for g in self.groups.iter().rev() {
            let mut r = (rest % g.combinations) as u64;
            rest /= g.combinations;
            // Unrank the combination: the largest place first.
            let mut top = g.domain.len();
            for i in (0..g.count).rev() {
                let mut c = top - 1;
                while BINOM[c][i + 1] > r {
                    c -= 1;
                }
                r -= BINOM[c][i + 1];
                top = c;
                let s = g.domain[c];
                if b.cells[s as usize] != 0 {
                    return None;
                }
                b.cells[s as usize] = (g.first + i) as u8 + 1;
                b.sq[g.first + i] = s;
            }
        }
        let (red, black) = king_pairs().pairs[rest];
        for (slot, s) in [(0usize, red), (1, black)] {
            if b.cells[s as usize] != 0 {
                return None;
            }
            b.cells[s as usize] = slot as u8 + 1;
            b.sq[slot] = s;
        }
        Some(b)
    }

    /// The index of the placement `sq` (one point per slot; the generals in their palaces,
    /// every piece on its own points).
    /// With both generals on the e-file a placement and its mirror image share the king pair;
    /// the smaller of their two indices is the entry of both, and the other entry is unused.
    pub fn encode(&self, sq: &[u8]) -> usize {
        let code = king_pairs().lookup[sq[0] as usize * 90 + sq[1] as usize];
        debug_assert_ne!(code, NO_POINT, "generals off their palaces");
        if file(sq[0]) == 4 && file(sq[1]) == 4 {
            return self.encode_as(sq, code as usize, false).min(self.encode_as(
                sq,
                code as usize,
                true,
            ));
        }
        self.encode_as(sq, (code & 0x7f) as usize, code & 0x80 != 0)
    }

    /// Whether entry `idx`, holding board `b`, is the entry of its placement (and not the
    /// unused twin of a mirror image with both generals on the e-file).
    pub fn is_canonical(&self, b: &Board, idx: usize) -> bool {
        self.encode(&b.sq[..self.slots()]) == idx
    }

    fn encode_as(&self, sq: &[u8], pair: usize, mirrored: bool) -> usize {
        let mut idx = pair;
        for g in &self.groups {
            let mut places = [0u8; 5];
            for i in 0..g.count {
                let s = sq[g.first + i];
                let s = if mirrored { mirror(s) } else { s };
                places[i] = g.place[s as usize];
                debug_assert_ne!(places[i], NO_POINT, "a piece off its points");
            }
            let places = &mut places[..g.count];
            places.sort_unstable();
            let mut r = 0u64;
            for (i, &p) in places.iter().enumerate() {
                r += BINOM[p as usize][i + 1];
            }
            idx = idx * g.combinations + r as usize;
        }
        idx
    }

    /// Whether `sq` is a point the piece of `slot` may stand on.
    pub fn may_stand(&self, slot: usize, sq: u8) -> bool {
        if slot < 2 {
            return in_palace(slot as u8, file(sq), rank(sq));
        }
        let g = self
            .groups
            .iter()
            .find(|g| (g.first..g.first + g.count).contains(&slot))
            .expect("every slot after the generals is in a group");
        g.place[sq as usize] != NO_POINT
    }

    #[inline]
    fn occupant(&self, b: &Board, s: u8) -> Option<(u8, u8)> {
        let c = b.cells[s as usize];
        if c == 0 {
            None
        } else {
            let slot = (c - 1) as usize;
            Some((self.color[slot], self.kind[slot]))
        }
    }

    /// Whether point `target` is attacked by a chariot, cannon, horse or soldier of `by`, or
    /// by `by`'s general along an open file (facing generals).
    pub fn attacked(&self, b: &Board, target: u8, by: u8) -> bool {
        let (f, r) = (file(target), rank(target));
        for (df, dr) in ORTHO {
            let (mut x, mut y) = (f + df, r + dr);
            let mut screened = false;
            while let Some(s) = at(x, y) {
                if let Some((c, k)) = self.occupant(b, s) {
                    if !screened {
                        if c == by && (k == CHARIOT || (k == GENERAL && df == 0)) {
                            return true;
                        }
                        screened = true;
                    } else {
                        if c == by && k == CANNON {
                            return true;
                        }
                        break;
                    }
                }
                x += df;
                y += dr;
            }
        }
        for (df, dr) in HORSE_JUMPS {
            // A horse standing at (f − df, r − dr) jumps by (df, dr) onto the target.
            let Some(h) = at(f - df, r - dr) else {
                continue;
            };
            if self.occupant(b, h) == Some((by, HORSE)) {
                let (lf, lr) = leg(df, dr);
                let l = at(f - df + lf, r - dr + lr).expect("a leg lies between");
                if b.cells[l as usize] == 0 {
                    return true;
                }
            }
        }
        if let Some(s) = at(f, r - forward(by))
            && self.occupant(b, s) == Some((by, SOLDIER))
        {
            return true;
        }
        if !own_half(by, r) {
            for df in [-1, 1] {
                if let Some(s) = at(f + df, r)
                    && self.occupant(b, s) == Some((by, SOLDIER))
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the board is a legal position with `stm` to move: the side not to move is
    /// not in check and the generals do not face each other.
    pub fn valid(&self, b: &Board, stm: u8) -> bool {
        !self.attacked(b, b.sq[1 - stm as usize], stm)
    }

    /// Whether `stm`, to move, is in check.
    pub fn in_check(&self, b: &Board, stm: u8) -> bool {
        self.attacked(b, b.sq[stm as usize], 1 - stm)
    }

    #[inline]
    pub fn make(&self, b: &mut Board, m: Mv) {
        if m.captured != GONE {
            b.sq[m.captured as usize] = GONE;
        }
        b.cells[m.to as usize] = m.slot + 1;
        b.cells[m.from as usize] = 0;
        b.sq[m.slot as usize] = m.to;
    }

    #[inline]
    pub fn unmake(&self, b: &mut Board, m: Mv) {
        b.cells[m.from as usize] = m.slot + 1;
        b.sq[m.slot as usize] = m.from;
        if m.captured != GONE {
            b.cells[m.to as usize] = m.captured + 1;
            b.sq[m.captured as usize] = m.to;
        } else {
            b.cells[m.to as usize] = 0;
        }
    }

    /// Appends the legal moves of `stm` to `out`.
    pub fn legal_moves(&self, b: &mut Board, stm: u8, out: &mut Vec<Mv>) {
        let start = out.len();
        self.pseudo_moves(b, stm, out);
        let mut kept = start;
        for i in start..out.len() {
            let m = out[i];
            self.make(b, m);
            let safe = !self.attacked(b, b.sq[stm as usize], 1 - stm);
            self.unmake(b, m);
            if safe {
                out[kept] = m;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    fn pseudo_moves(&self, b: &Board, stm: u8, out: &mut Vec<Mv>) {
        for slot in 0..self.slots() {
            if self.color[slot] != stm || b.sq[slot] == GONE {
                continue;
            }
            let from = b.sq[slot];
            let (f, r) = (file(from), rank(from));
            let mut push = |to: u8| {
                let c = b.cells[to as usize];
                let captured = if c == 0 {
                    GONE
                } else if self.color[(c - 1) as usize] != stm {
                    c - 1
                } else {
                    return;
                };
                out.push(Mv {
                    slot: slot as u8,
                    from,
                    to,
                    captured,
                });
            };
            match self.kind[slot] {
                kind @ (GENERAL | ADVISOR | ELEPHANT) => {
                    guard_steps(kind, stm, f, r, &b.cells, &mut push);
                }
                HORSE => {
                    for (df, dr) in HORSE_JUMPS {
                        if let Some(to) = at(f + df, r + dr) {
                            let (lf, lr) = leg(df, dr);
                            if b.cells[at(f + lf, r + lr).expect("leg") as usize] == 0 {
                                push(to);
                            }
                        }
                    }
                }
                CHARIOT | CANNON => {
                    let cannon = self.kind[slot] == CANNON;
                    for (df, dr) in ORTHO {
                        let (mut x, mut y) = (f + df, r + dr);
                        let mut screened = false;
                        while let Some(s) = at(x, y) {
                            let occupied = b.cells[s as usize] != 0;
                            if !screened {
                                if !occupied {
                                    push(s);
                                } else if cannon {
                                    screened = true;
                                } else {
                                    push(s);
                                    break;
                                }
                            } else if occupied {
                                push(s);
                                break;
                            }
                            x += df;
                            y += dr;
                        }
                    }
                }
                _ => {
                    if let Some(to) = at(f, r + forward(stm)) {
                        push(to);
                    }
                    if !own_half(stm, r) {
                        for df in [-1, 1] {
                            if let Some(to) = at(f + df, r) {
                                push(to);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Appends the index of every position, `1 − stm` to move, from which a legal
    /// non-capturing move leads to `b` (`stm` to move). Un-moves run the moves backwards:
    /// a horse's leg is next to the point it comes from, a soldier steps back, or sideways
    /// onto a point across the river, and a cannon comes back like a chariot.
    pub fn unmoves(&self, b: &mut Board, stm: u8, out: &mut Vec<usize>) {
        let mover = 1 - stm;
        for slot in 0..self.slots() {
            if self.color[slot] != mover {
                continue;
            }
            let to = b.sq[slot];
            let (f, r) = (file(to), rank(to));
            let mut origins = [0u8; 20];
            let mut n = 0;
            let mut add = |s: u8| {
                origins[n] = s;
                n += 1;
            };
            match self.kind[slot] {
                // These steps are their own reverse: a guard comes from where it could go.
                kind @ (GENERAL | ADVISOR | ELEPHANT) => {
                    guard_steps(kind, mover, f, r, &b.cells, &mut add);
                }
                HORSE => {
                    for (df, dr) in HORSE_JUMPS {
                        // The horse came from (f − df, r − dr) by a jump of (df, dr); its leg
                        // is next to that origin.
                        if let Some(s) = at(f - df, r - dr) {
                            let (lf, lr) = leg(df, dr);
                            let l = at(f - df + lf, r - dr + lr).expect("leg");
                            if b.cells[l as usize] == 0 {
                                add(s);
                            }
                        }
                    }
                }
                CHARIOT | CANNON => {
                    for (df, dr) in ORTHO {
                        let (mut x, mut y) = (f + df, r + dr);
                        while let Some(s) = at(x, y) {
                            if b.cells[s as usize] != 0 {
                                break;
                            }
                            add(s);
                            x += df;
                            y += dr;
                        }
                    }
                }
                _ => {
                    if let Some(s) = at(f, r - forward(mover)) {
                        add(s);
                    }
                    if !own_half(mover, r) {
                        for df in [-1, 1] {
                            if let Some(s) = at(f + df, r) {
                                add(s);
                            }
                        }
                    }
                }
            }
            for &from in &origins[..n] {
                if b.cells[from as usize] != 0 || !self.may_stand(slot, from) {
                    continue;
                }
                let m = Mv {
                    slot: slot as u8,
                    from: to,
                    to: from,
                    captured: GONE,
                };
                self.make(b, m);
                // Before the move `stm` was not to move, so it must not have been in check.
                if !self.attacked(b, b.sq[stm as usize], mover) {
                    out.push(self.encode(&b.sq));
                }
                self.unmake(b, m);
            }
        }
    }

    /// The board as FEN with `stm` to move (Red is the table's stronger side).
    pub fn fen(&self, b: &Board, stm: u8) -> String {
        let board = xiangqi_rules::fen::board_field(|s| {
            let c = b.cells[s.index()];
            (c != 0).then(|| {
                let slot = (c - 1) as usize;
                Piece::new(
                    color_of_code(self.color[slot]),
                    kind_of_code(self.kind[slot]),
                )
            })
        });
        format!("{board} {} - - 0 1", if stm == 0 { 'w' } else { 'b' })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips() {
        for name in ["KRKAABB", "KPKAB", "KNCKR", "KPPKA"] {
            let layout = Layout::new(Ending::parse(name).unwrap()).unwrap();
            let step = (layout.size / 5000).max(1);
            let mut checked = 0;
            for idx in (0..layout.size).step_by(step) {
                if let Some(b) = layout.decode(idx) {
                    let twin = layout.encode(&b.sq);
                    if twin != idx {
                        // The unused twin of a mirror image: both generals on the e-file.
                        assert!(twin < idx && b.sq[0] % 9 == 4 && b.sq[1] % 9 == 4);
                        let back = layout.decode(twin).unwrap();
                        let mirrored: Vec<u8> =
                            b.sq[..layout.slots()].iter().map(|&s| mirror(s)).collect();
                        assert_eq!(layout.encode(&mirrored), twin);
                        assert_eq!(layout.encode(&back.sq), twin);
                        continue;
                    }
                    checked += 1;
                }
            }
            assert!(checked > 1000, "{name}: {checked}");
        }
    }

    #[test]
    fn king_pairs_halve_by_the_mirror() {
        let kp = king_pairs();
        assert_eq!(kp.pairs.len(), KING_PAIRS);
        let filled = kp.lookup.iter().filter(|&&c| c != NO_POINT).count();
        assert_eq!(filled, 81);
    }
}
