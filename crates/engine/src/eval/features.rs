//! The evaluation as a weighted sum of features. One function walks the position and hands
//! every (feature, count) pair to a sink: the evaluation multiplies by the weights as it goes,
//! the tuner records the pairs. Both therefore see exactly the same features. Each feature
//! has a middlegame and an endgame weight; the [`phase`] blends the two sums.

use xiangqi_rules::{Bitboard, Color, Piece, PieceKind, Position, Square};

/// Points per piece-square table after folding the board left to right (files a–e, 10 ranks).
pub const FOLDED_POINTS: usize = 50;
/// First feature of the piece-square tables: `PST + kind * 50 + folded point`.
pub const PST: usize = 0;
/// Points a chariot reaches.
pub const CHARIOT_MOBILITY: usize = 7 * FOLDED_POINTS;
/// Unblocked horse targets not holding an own piece.
pub const HORSE_MOBILITY: usize = CHARIOT_MOBILITY + 1;
/// Empty points a cannon can move to.
pub const CANNON_MOBILITY: usize = CHARIOT_MOBILITY + 2;
/// Missing advisors and elephants times the opponent's attack units (counted against the
/// defender).
pub const DEFENCE_GAP: usize = CHARIOT_MOBILITY + 3;
/// A cannon on the enemy general's file with nothing between.
pub const EMPTY_CANNON: usize = CHARIOT_MOBILITY + 4;
/// A cannon on the enemy general's file with one screen.
pub const CENTRAL_CANNON: usize = CHARIOT_MOBILITY + 5;
/// A horse within two points of the enemy general.
pub const HORSE_NEAR_GENERAL: usize = CHARIOT_MOBILITY + 6;
/// A chariot across the river on a palace file.
pub const CHARIOT_ON_PALACE_FILE: usize = CHARIOT_MOBILITY + 7;
/// Cannons times the pieces on the board (cannons gain with a crowded board).
pub const CANNON_CROWD: usize = CHARIOT_MOBILITY + 8;
/// Horses times the pieces on the board.
pub const HORSE_CROWD: usize = CHARIOT_MOBILITY + 9;
/// Crossed soldiers times the opponent's missing advisors and elephants.
pub const SOLDIER_VS_BARE_PALACE: usize = CHARIOT_MOBILITY + 10;
/// Points of the enemy palace a chariot reaches.
pub const CHARIOT_PALACE_REACH: usize = CHARIOT_MOBILITY + 11;
/// Points of the enemy palace a horse reaches.
pub const HORSE_PALACE_REACH: usize = CHARIOT_MOBILITY + 12;
/// Points of the enemy palace a cannon reaches.
pub const CANNON_PALACE_REACH: usize = CHARIOT_MOBILITY + 13;
/// The side to move's pieces en prise — attacked and not defended, or attacked by a cheaper
/// piece — counted for chariots, horses, cannons and the rest (soldiers, advisors, elephants).
pub const OURS_EN_PRISE: usize = CHARIOT_MOBILITY + 14;
/// The other side's pieces en prise, counted as for [`OURS_EN_PRISE`].
pub const THEIRS_EN_PRISE: usize = CHARIOT_MOBILITY + 18;
/// Being the side to move.
pub const TEMPO: usize = CHARIOT_MOBILITY + 22;
/// Number of features.
pub const FEATURE_COUNT: usize = TEMPO + 1;
/// Number of weights: every feature has one weight for the middlegame (`index`) and one for
/// the endgame (`FEATURE_COUNT + index`), blended by the game phase.
pub const WEIGHT_COUNT: usize = 2 * FEATURE_COUNT;
/// The phase of a position with all chariots, horses and cannons on the board.
pub const PHASE_FULL: i32 = 32;

/// Attack units per chariot, horse, cannon and crossed soldier, for [`DEFENCE_GAP`].
const ATTACK_UNITS: [i32; 4] = [3, 2, 2, 1];

/// The game phase: chariots count 4, horses and cannons 2, up to [`PHASE_FULL`] (middlegame)
/// down to 0 (no chariot, horse or cannon left).
pub fn phase(pos: &Position) -> i32 {
    let mut phase = 0;
    for color in [Color::Red, Color::Black] {
        for (kind, weight) in [
            (PieceKind::Chariot, 4),
            (PieceKind::Horse, 2),
            (PieceKind::Cannon, 2),
        ] {
            phase += weight * pos.pieces(Piece::new(color, kind)).count() as i32;
        }
    }
    phase.min(PHASE_FULL)
}

/// Receives features one at a time.
pub trait FeatureSink {
    /// Adds `count` of feature `index`, for the side to move (`count` negative for the
    /// opponent's).
    fn add(&mut self, index: usize, count: i32);
}

/// The folded table point of a piece of `color` on `sq`: ranks counted from the owner's back
/// rank, files folded onto a–e.
#[inline]
pub fn folded_point(color: Color, sq: Square) -> usize {
    let rank = match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    } as usize;
    let file = sq.file().min(8 - sq.file()) as usize;
    rank * 5 + file
}

fn pieces_between_on_file(pos: &Position, a: Square, b: Square) -> u32 {
    let (lo, hi) = if a.rank() < b.rank() {
        (a.rank(), b.rank())
    } else {
        (b.rank(), a.rank())
    };
    let mut mask = 0u128;
    for r in lo + 1..hi {
        if let Some(sq) = Square::new(a.file(), r) {
            mask |= 1u128 << sq.index();
        }
    }
    (pos.occupied() & Bitboard(mask)).count()
}

/// Walks one side's features, adding them with `sign` (+1 for the side to move, −1 for the
/// other); returns that side's attack units and the points its pieces reach.
fn side_features(
    pos: &Position,
    color: Color,
    sign: i32,
    crowd: i32,
    sink: &mut impl FeatureSink,
) -> (i32, AttackMaps) {
    let mut maps = AttackMaps {
        all: Bitboard::EMPTY,
        cheap: Bitboard::EMPTY,
        below_chariot: Bitboard::EMPTY,
    };
    let own = pos.pieces_of(color);
    let enemy_general = pos.general(color.opponent());
    let enemy_palace = Bitboard::palace(color.opponent());
    let mut attack = 0;
    for kind in PieceKind::ALL {
        for sq in pos.pieces(Piece::new(color, kind)) {
            sink.add(
                PST + kind.index() * FOLDED_POINTS + folded_point(color, sq),
                sign,
            );
            let reach = pos.attacks_from(sq);
            maps.all = maps.all | reach;
            match kind {
                PieceKind::Chariot => {}
                PieceKind::Horse | PieceKind::Cannon => {
                    maps.below_chariot = maps.below_chariot | reach;
                }
                _ => maps.cheap = maps.cheap | reach,
            }
            match kind {
                PieceKind::Chariot => {
                    sink.add(CHARIOT_MOBILITY, sign * (reach & !own).count() as i32);
                    sink.add(
                        CHARIOT_PALACE_REACH,
                        sign * (reach & enemy_palace).count() as i32,
                    );
                    attack += ATTACK_UNITS[0];
                    if (3..=5).contains(&sq.file()) && !color.is_own_half(sq.rank()) {
                        sink.add(CHARIOT_ON_PALACE_FILE, sign);
                    }
                }
                PieceKind::Horse => {
                    sink.add(HORSE_MOBILITY, sign * (reach & !own).count() as i32);
                    sink.add(
                        HORSE_PALACE_REACH,
                        sign * (reach & enemy_palace).count() as i32,
                    );
                    sink.add(HORSE_CROWD, sign * crowd);
                    attack += ATTACK_UNITS[1];
                    let df = sq.file().abs_diff(enemy_general.file());
                    let dr = sq.rank().abs_diff(enemy_general.rank());
                    if df <= 2 && dr <= 2 {
                        sink.add(HORSE_NEAR_GENERAL, sign);
                    }
                }
                PieceKind::Cannon => {
                    let quiet = reach & !pos.occupied();
                    sink.add(CANNON_MOBILITY, sign * quiet.count() as i32);
                    sink.add(
                        CANNON_PALACE_REACH,
                        sign * (reach & enemy_palace).count() as i32,
                    );
                    sink.add(CANNON_CROWD, sign * crowd);
                    attack += ATTACK_UNITS[2];
                    if sq.file() == enemy_general.file() {
                        match pieces_between_on_file(pos, sq, enemy_general) {
                            0 => sink.add(EMPTY_CANNON, sign),
                            1 => sink.add(CENTRAL_CANNON, sign),
                            _ => {}
                        }
                    }
                }
                PieceKind::Soldier if !color.is_own_half(sq.rank()) => {
                    attack += ATTACK_UNITS[3];
                }
                _ => {}
            }
        }
    }
    maps.below_chariot = maps.below_chariot | maps.cheap;
    (attack, maps)
}

/// The points one side's pieces reach, all together and by the cheaper pieces.
struct AttackMaps {
    /// Reached by any piece.
    all: Bitboard,
    /// Reached by a soldier, advisor, elephant or the general.
    cheap: Bitboard,
    /// Reached by anything but a chariot.
    below_chariot: Bitboard,
}

/// Adds the four en-prise counts of `color`'s pieces from feature `first` on.
fn en_prise(
    pos: &Position,
    color: Color,
    own: &AttackMaps,
    enemy: &AttackMaps,
    first: usize,
    sink: &mut impl FeatureSink,
) {
    let loose = enemy.all & !own.all;
    let of = |kind| pos.pieces(Piece::new(color, kind));
    let count = |b: Bitboard| b.count() as i32;
    sink.add(
        first,
        count(of(PieceKind::Chariot) & (loose | enemy.below_chariot)),
    );
    sink.add(
        first + 1,
        count(of(PieceKind::Horse) & (loose | enemy.cheap)),
    );
    sink.add(
        first + 2,
        count(of(PieceKind::Cannon) & (loose | enemy.cheap)),
    );
    let rest = of(PieceKind::Soldier) | of(PieceKind::Advisor) | of(PieceKind::Elephant);
    sink.add(first + 3, count(rest & loose));
}

fn defenders(pos: &Position, color: Color) -> i32 {
    (pos.pieces(Piece::new(color, PieceKind::Advisor)).count()
        + pos.pieces(Piece::new(color, PieceKind::Elephant)).count()) as i32
}

fn crossed_soldiers(pos: &Position, color: Color) -> i32 {
    pos.pieces(Piece::new(color, PieceKind::Soldier))
        .filter(|sq| !color.is_own_half(sq.rank()))
        .count() as i32
}

/// Hands every feature of `pos`, from the side to move's view, to `sink`.
pub fn visit_features(pos: &Position, sink: &mut impl FeatureSink) {
    let us = pos.side_to_move();
    let them = us.opponent();
    let crowd = pos.occupied().count() as i32;
    let (our_attack, our_maps) = side_features(pos, us, 1, crowd, sink);
    let (their_attack, their_maps) = side_features(pos, them, -1, crowd, sink);
    let (our_gap, their_gap) = (4 - defenders(pos, us), 4 - defenders(pos, them));
    sink.add(DEFENCE_GAP, their_gap * our_attack - our_gap * their_attack);
    sink.add(
        SOLDIER_VS_BARE_PALACE,
        crossed_soldiers(pos, us) * their_gap - crossed_soldiers(pos, them) * our_gap,
    );
    en_prise(pos, us, &our_maps, &their_maps, OURS_EN_PRISE, sink);
    en_prise(pos, them, &their_maps, &our_maps, THEIRS_EN_PRISE, sink);
    sink.add(TEMPO, 1);
}

/// A sink that sums weighted features, the middlegame and endgame weights apart.
pub struct WeightedSum<'a> {
    /// The weights, middlegame then endgame.
    pub weights: &'a [i32; WEIGHT_COUNT],
    /// The running middlegame sum.
    pub middlegame: i32,
    /// The running endgame sum.
    pub endgame: i32,
}

impl<'a> WeightedSum<'a> {
    /// An empty sum over `weights`.
    pub fn new(weights: &'a [i32; WEIGHT_COUNT]) -> WeightedSum<'a> {
        WeightedSum {
            weights,
            middlegame: 0,
            endgame: 0,
        }
    }

    /// The two sums blended at `phase` (0 to [`PHASE_FULL`]).
    pub fn blend(&self, phase: i32) -> i32 {
        (self.middlegame * phase + self.endgame * (PHASE_FULL - phase)) / PHASE_FULL
    }
}

impl FeatureSink for WeightedSum<'_> {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        self.middlegame += self.weights[index] * count;
        self.endgame += self.weights[FEATURE_COUNT + index] * count;
    }
}

/// A sink that records the features as a sparse list, merging repeats.
#[derive(Default, Clone, Debug)]
pub struct FeatureList {
    /// `(feature, count)` pairs with non-zero counts.
    pub entries: Vec<(u16, i16)>,
}

impl FeatureSink for FeatureList {
    fn add(&mut self, index: usize, count: i32) {
        if count == 0 {
            return;
        }
        if let Some(e) = self.entries.iter_mut().find(|e| e.0 as usize == index) {
            e.1 += count as i16;
        } else {
            self.entries.push((index as u16, count as i16));
        }
    }
}

impl FeatureList {
    /// The weight indices and counts of `pos`, scaled by the phase: each feature's count
    /// times the phase on its middlegame weight and times [`PHASE_FULL`] less the phase on
    /// its endgame weight, so that the dot product with the weights divided by
    /// [`PHASE_FULL`] is the evaluation.
    pub fn of(pos: &Position) -> FeatureList {
        let mut plain = FeatureList::default();
        visit_features(pos, &mut plain);
        let phase = phase(pos);
        let mut list = FeatureList::default();
        for &(i, c) in &plain.entries {
            let c = c as i32;
            list.add(i as usize, c * phase);
            list.add(FEATURE_COUNT + i as usize, c * (PHASE_FULL - phase));
        }
        list.entries.retain(|e| e.1 != 0);
        list
    }
}
