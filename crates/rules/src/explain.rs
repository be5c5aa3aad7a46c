//! Why a requested move is illegal, as data the app can render in any language.
//!
//! [`Position::check_move`] takes the two points a player picked and either returns the move
//! (exactly when it is legal) or names the first rule it breaks, in the order a teacher
//! would state them: whose piece it is, how that piece moves (shape, palace, river, soldier
//! direction), what stands on the target, what stands in the way, and last the safety of the
//! mover's own general. The reason is an [`IllegalMove`]: [`IllegalMove::code`] is a stable
//! key for translation tables, the variant's fields fill in the blanks, and
//! [`IllegalMove::message`] (or `Display`) gives plain English.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::piece::{Color, Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;
use std::fmt;

/// The rule a requested move breaks. Points are the board points of the position the move
/// was asked in, except where a field says it describes the position after the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// There is no piece on the starting point.
    NoPieceThere {
        /// The empty point.
        from: Square,
    },
    /// The piece on the starting point belongs to the side that is not to move.
    OpponentsPiece {
        /// Where the piece stands.
        from: Square,
        /// The opponent's piece.
        piece: Piece,
    },
    /// The target is the point the piece already stands on.
    SamePoint,
    /// The target holds a piece of the mover's own side.
    OwnPieceOnTarget {
        /// The target point.
        to: Square,
        /// The mover's own piece standing there.
        piece: Piece,
    },
    /// The general's step would take it out of its palace.
    GeneralLeavesPalace,
    /// The advisor's step would take it out of its palace.
    AdvisorLeavesPalace,
    /// The general moves exactly one point orthogonally, and this is not such a step.
    GeneralMoveShape,
    /// The advisor moves exactly one point diagonally, and this is not such a step.
    AdvisorMoveShape,
    /// The elephant moves exactly two points diagonally, and this is not such a move.
    ElephantMoveShape,
    /// The elephant's move would take it across the river.
    ElephantCrossesRiver,
    /// The point the elephant would pass over (its eye) is occupied.
    ElephantEyeBlocked {
        /// The occupied eye point.
        eye: Square,
    },
    /// The horse moves one point orthogonally and then one point diagonally outward, and
    /// this is not such a move.
    HorseMoveShape,
    /// The point next to the horse in the direction of the move (its leg) is occupied.
    HorseLegBlocked {
        /// The occupied leg point.
        leg: Square,
    },
    /// The chariot moves along a file or a rank, and this move does not.
    ChariotMoveShape,
    /// A piece stands between the chariot and its target.
    ChariotPathBlocked {
        /// The piece in the way nearest to the chariot.
        blocker: Square,
    },
    /// The cannon moves along a file or a rank, and this move does not.
    CannonMoveShape,
    /// The cannon moves to an empty point, which it may only do over empty points, and a
    /// piece stands in between.
    CannonPathBlocked {
        /// The piece in the way nearest to the cannon.
        blocker: Square,
    },
    /// The cannon captures only by jumping over exactly one piece (the screen), and there is
    /// none between it and its target.
    CannonNeedsScreen,
    /// The cannon captures only by jumping over exactly one piece, and there are several
    /// between it and its target.
    CannonTooManyScreens {
        /// Every piece in between, nearest to the cannon first (at least two).
        screens: Vec<Square>,
    },
    /// Soldiers never move backward.
    SoldierMovesBackward,
    /// Soldiers move sideways only after crossing the river, and this one has not.
    SoldierSidewaysBeforeRiver,
    /// The soldier moves one point forward, or one point sideways after crossing the river,
    /// and this is not such a step.
    SoldierMoveShape,
    /// After the move an enemy piece could capture the mover's general.
    LeavesGeneralInCheck {
        /// Where the attacking enemy pieces stand after the move, in point order (`a0` first).
        attackers: Vec<Square>,
        /// The kind of each attacker, in the same order as `attackers`.
        attacker_kinds: Vec<PieceKind>,
    },
    /// After the move the two generals would face each other on a file with nothing between
    /// them (the move opens the file, or the general steps onto it).
    GeneralsFace {
        /// The file letter, `a`–`i`.
        file: char,
    },
}

impl IllegalMove {
    /// Every value [`IllegalMove::code`] can return, in the order of the variants; for
    /// checking that a translation table is complete.
    pub const CODES: [&'static str; 24] = [
        "no-piece-there",
        "opponents-piece",
        "same-point",
        "own-piece-on-target",
        "general-leaves-palace",
        "advisor-leaves-palace",
        "general-move-shape",
        "advisor-move-shape",
        "elephant-move-shape",
        "elephant-crosses-river",
        "elephant-eye-blocked",
        "horse-move-shape",
        "horse-leg-blocked",
        "chariot-move-shape",
        "chariot-path-blocked",
        "cannon-move-shape",
        "cannon-path-blocked",
        "cannon-needs-screen",
        "cannon-too-many-screens",
        "soldier-moves-backward",
        "soldier-sideways-before-river",
        "soldier-move-shape",
        "leaves-general-in-check",
        "generals-face",
    ];

    /// A stable machine key for the variant, e.g. `"horse-leg-blocked"`, for translation
    /// tables. Keys never change once published.
    pub fn code(&self) -> &'static str {
        match self {
            IllegalMove::NoPieceThere { .. } => "no-piece-there",
            IllegalMove::OpponentsPiece { .. } => "opponents-piece",
            IllegalMove::SamePoint => "same-point",
            IllegalMove::OwnPieceOnTarget { .. } => "own-piece-on-target",
            IllegalMove::GeneralLeavesPalace => "general-leaves-palace",
            IllegalMove::AdvisorLeavesPalace => "advisor-leaves-palace",
            IllegalMove::GeneralMoveShape => "general-move-shape",
            IllegalMove::AdvisorMoveShape => "advisor-move-shape",
            IllegalMove::ElephantMoveShape => "elephant-move-shape",
            IllegalMove::ElephantCrossesRiver => "elephant-crosses-river",
            IllegalMove::ElephantEyeBlocked { .. } => "elephant-eye-blocked",
            IllegalMove::HorseMoveShape => "horse-move-shape",
            IllegalMove::HorseLegBlocked { .. } => "horse-leg-blocked",
            IllegalMove::ChariotMoveShape => "chariot-move-shape",
            IllegalMove::ChariotPathBlocked { .. } => "chariot-path-blocked",
            IllegalMove::CannonMoveShape => "cannon-move-shape",
            IllegalMove::CannonPathBlocked { .. } => "cannon-path-blocked",
            IllegalMove::CannonNeedsScreen => "cannon-needs-screen",
            IllegalMove::CannonTooManyScreens { .. } => "cannon-too-many-screens",
            IllegalMove::SoldierMovesBackward => "soldier-moves-backward",
            IllegalMove::SoldierSidewaysBeforeRiver => "soldier-sideways-before-river",
            IllegalMove::SoldierMoveShape => "soldier-move-shape",
            IllegalMove::LeavesGeneralInCheck { .. } => "leaves-general-in-check",
            IllegalMove::GeneralsFace { .. } => "generals-face",
        }
    }

    /// The reason in plain English, e.g. "the horse's leg at e3 is blocked" (the same text as
    /// `Display`).
    pub fn message(&self) -> String {
        self.to_string()
    }

    /// The points the reason refers to, for highlighting on the board: the empty or enemy
    /// starting point, the own piece on the target, the eye, leg, blocker or screens, or the
    /// attackers (after the move). Empty for reasons about the move's shape alone.
    pub fn highlights(&self) -> Vec<Square> {
        match self {
            IllegalMove::NoPieceThere { from } | IllegalMove::OpponentsPiece { from, .. } => {
                vec![*from]
            }
            IllegalMove::OwnPieceOnTarget { to, .. } => vec![*to],
            IllegalMove::ElephantEyeBlocked { eye } => vec![*eye],
            IllegalMove::HorseLegBlocked { leg } => vec![*leg],
            IllegalMove::ChariotPathBlocked { blocker }
            | IllegalMove::CannonPathBlocked { blocker } => vec![*blocker],
            IllegalMove::CannonTooManyScreens { screens } => screens.clone(),
            IllegalMove::LeavesGeneralInCheck { attackers, .. } => attackers.clone(),
            _ => Vec::new(),
        }
    }
}

/// "the black horse on b9"
fn describe(piece: Piece, at: Square) -> String {
    let color = match piece.color {
        Color::Red => "red",
        Color::Black => "black",
    };
    format!("the {color} {} on {at}", piece.kind.name())
}

/// "e3", "e3 and e6", "e3, e5 and e6"
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::NoPieceThere { from } => write!(f, "there is no piece on {from}"),
            IllegalMove::OpponentsPiece { .. } => {
                write!(f, "that piece belongs to your opponent")
            }
            IllegalMove::SamePoint => write!(f, "a move must go to a different point"),
            IllegalMove::OwnPieceOnTarget { to, piece } => write!(
                f,
                "you cannot capture your own piece ({})",
                describe(*piece, *to)
            ),
            IllegalMove::GeneralLeavesPalace => write!(f, "the general cannot leave the palace"),
            IllegalMove::AdvisorLeavesPalace => write!(f, "advisors cannot leave the palace"),
            IllegalMove::GeneralMoveShape => write!(
                f,
                "the general moves one point at a time, forward, backward or sideways"
            ),
            IllegalMove::AdvisorMoveShape => {
                write!(f, "the advisor moves one point at a time, diagonally")
            }
            IllegalMove::ElephantMoveShape => {
                write!(f, "the elephant moves exactly two points diagonally")
            }
            IllegalMove::ElephantCrossesRiver => write!(f, "elephants cannot cross the river"),
            IllegalMove::ElephantEyeBlocked { eye } => {
                write!(f, "the elephant's eye at {eye} is blocked")
            }
            IllegalMove::HorseMoveShape => write!(
                f,
                "the horse moves one point straight and then one point diagonally outward"
            ),
            IllegalMove::HorseLegBlocked { leg } => {
                write!(f, "the horse's leg at {leg} is blocked")
            }
            IllegalMove::ChariotMoveShape => {
                write!(
                    f,
                    "the chariot moves in a straight line along a file or rank"
                )
            }
            IllegalMove::ChariotPathBlocked { blocker } => {
                write!(f, "the chariot's path is blocked by the piece on {blocker}")
            }
            IllegalMove::CannonMoveShape => {
                write!(
                    f,
                    "the cannon moves in a straight line along a file or rank"
                )
            }
            IllegalMove::CannonPathBlocked { blocker } => write!(
                f,
                "the cannon's path is blocked by the piece on {blocker}; a cannon jumps only to capture"
            ),
            IllegalMove::CannonNeedsScreen => write!(
                f,
                "a cannon captures by jumping over exactly one piece, and there is none in between"
            ),
            IllegalMove::CannonTooManyScreens { screens } => {
                let points: Vec<String> = screens.iter().map(|s| s.to_string()).collect();
                write!(
                    f,
                    "a cannon captures by jumping over exactly one piece, but there are {} in between ({})",
                    screens.len(),
                    join_and(&points)
                )
            }
            IllegalMove::SoldierMovesBackward => write!(f, "soldiers never move backward"),
            IllegalMove::SoldierSidewaysBeforeRiver => {
                write!(f, "soldiers cannot move sideways before crossing the river")
            }
            IllegalMove::SoldierMoveShape => write!(
                f,
                "the soldier moves one point forward, or one point sideways once across the river"
            ),
            IllegalMove::LeavesGeneralInCheck {
                attackers,
                attacker_kinds,
            } => {
                let from: Vec<String> = attackers
                    .iter()
                    .zip(attacker_kinds)
                    .map(|(sq, kind)| format!("the {} on {sq}", kind.name()))
                    .collect();
                if from.is_empty() {
                    write!(f, "this leaves your general in check")
                } else {
                    write!(
                        f,
                        "this leaves your general in check (from {})",
                        join_and(&from)
                    )
                }
            }
            IllegalMove::GeneralsFace { file } => {
                write!(f, "the generals would face each other on the {file}-file")
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Whether `sq` lies in `color`'s palace.
fn in_palace(color: Color, sq: Square) -> bool {
    Bitboard::palace(color).contains(sq)
}

/// The points strictly between `from` and `to`, nearest to `from` first; empty unless the two
/// share a file or a rank.
fn between(from: Square, to: Square) -> impl Iterator<Item = Square> {
    let df = to.file() as i8 - from.file() as i8;
    let dr = to.rank() as i8 - from.rank() as i8;
    let steps = if df == 0 || dr == 0 {
        df.abs().max(dr.abs())
    } else {
        0
    };
    let (sf, sr) = (df.signum(), dr.signum());
    (1..steps.max(1)).filter_map(move |k| from.offset(k * sf, k * sr))
}

/// The occupied points strictly between `from` and `to` on one line.
fn pieces_between(pos: &Position, from: Square, to: Square) -> Vec<Square> {
    between(from, to).filter(|&s| !pos.is_empty(s)).collect()
}

/// The first rule of `piece`'s own movement that moving from `from` to `to` (different
/// points) breaks in `pos`, whoever is to move: shape, palace, river, soldier direction, own
/// piece on the target, then blocking. `None` when the piece could make the move if its
/// general's safety were not at stake — which also means it attacks the target.
fn movement_error(pos: &Position, piece: Piece, from: Square, to: Square) -> Option<IllegalMove> {
    let color = piece.color;
    let df = to.file() as i8 - from.file() as i8;
    let dr = to.rank() as i8 - from.rank() as i8;
    let (adf, adr) = (df.abs(), dr.abs());
    let target = pos.piece_at(to);
    let own_target = match target {
        Some(p) if p.color == color => Some(IllegalMove::OwnPieceOnTarget { to, piece: p }),
        _ => None,
    };
    let occupied = |sq: Option<Square>| sq.filter(|&s| !pos.is_empty(s));
    match piece.kind {
        PieceKind::General => {
            if adf + adr != 1 {
                Some(IllegalMove::GeneralMoveShape)
            } else if !in_palace(color, to) {
                Some(IllegalMove::GeneralLeavesPalace)
            } else {
                own_target
            }
        }
        PieceKind::Advisor => {
            if adf != 1 || adr != 1 {
                Some(IllegalMove::AdvisorMoveShape)
            } else if !in_palace(color, to) {
                Some(IllegalMove::AdvisorLeavesPalace)
            } else {
                own_target
            }
        }
        PieceKind::Elephant => {
            if adf != 2 || adr != 2 {
                Some(IllegalMove::ElephantMoveShape)
            } else if !color.is_own_half(to.rank()) {
                Some(IllegalMove::ElephantCrossesRiver)
            } else if own_target.is_some() {
                own_target
            } else {
                occupied(from.offset(df / 2, dr / 2))
                    .map(|eye| IllegalMove::ElephantEyeBlocked { eye })
            }
        }
        PieceKind::Horse => {
            if !((adf == 1 && adr == 2) || (adf == 2 && adr == 1)) {
                Some(IllegalMove::HorseMoveShape)
            } else if own_target.is_some() {
                own_target
            } else {
                let leg = if adf == 2 {
                    from.offset(df / 2, 0)
                } else {
                    from.offset(0, dr / 2)
                };
                occupied(leg).map(|leg| IllegalMove::HorseLegBlocked { leg })
            }
        }
        PieceKind::Chariot => {
            if df != 0 && dr != 0 {
                Some(IllegalMove::ChariotMoveShape)
            } else if own_target.is_some() {
                own_target
            } else {
                pieces_between(pos, from, to)
                    .first()
                    .map(|&blocker| IllegalMove::ChariotPathBlocked { blocker })
            }
        }
        PieceKind::Cannon => {
            if df != 0 && dr != 0 {
                return Some(IllegalMove::CannonMoveShape);
            }
            if own_target.is_some() {
                return own_target;
            }
            let screens = pieces_between(pos, from, to);
            match (target, screens.len()) {
                (None, 0) | (Some(_), 1) => None,
                (None, _) => Some(IllegalMove::CannonPathBlocked {
                    blocker: screens[0],
                }),
                (Some(_), 0) => Some(IllegalMove::CannonNeedsScreen),
                (Some(_), _) => Some(IllegalMove::CannonTooManyScreens { screens }),
            }
        }
        PieceKind::Soldier => {
            let forward = dr * color.forward();
            if forward < 0 {
                Some(IllegalMove::SoldierMovesBackward)
            } else if forward == 1 && df == 0 {
                own_target
            } else if forward == 0 && color.is_own_half(from.rank()) {
                Some(IllegalMove::SoldierSidewaysBeforeRiver)
            } else if forward == 0 && adf == 1 {
                own_target
            } else {
                Some(IllegalMove::SoldierMoveShape)
            }
        }
    }
}

impl Position {
    /// Checks the move from `from` to `to` for the side to move: `Ok` with the move exactly
    /// when it is legal (when [`Position::legal_moves`] holds it), otherwise the first rule it
    /// breaks, in this order: a piece must stand on `from` and belong to the side to move;
    /// `to` must differ from `from`; the move must fit how the piece moves (shape, then
    /// palace, river or soldier direction); `to` must not hold an own piece; nothing may
    /// block the way (horse's leg, elephant's eye, a chariot's or cannon's path, a cannon's
    /// screens); and last the move must not leave the generals facing each other
    /// ([`IllegalMove::GeneralsFace`], reported whenever they would face) or the own general
    /// attacked ([`IllegalMove::LeavesGeneralInCheck`]).
    pub fn check_move(&self, from: Square, to: Square) -> Result<Move, IllegalMove> {
        let piece = self
            .piece_at(from)
            .ok_or(IllegalMove::NoPieceThere { from })?;
        if piece.color != self.side_to_move() {
            return Err(IllegalMove::OpponentsPiece { from, piece });
        }
        if from == to {
            return Err(IllegalMove::SamePoint);
        }
        if let Some(reason) = movement_error(self, piece, from, to) {
            return Err(reason);
        }
        let m = Move::new(from, to);
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(self.safety_error(m))
        }
    }

    /// Why the pseudo-legal move `m` endangers the mover's general.
    fn safety_error(&self, m: Move) -> IllegalMove {
        let us = self.side_to_move();
        let after = self.after(m);
        let ours = after.general(us);
        let theirs = after.general(us.opponent());
        if ours.file() == theirs.file() && between(ours, theirs).all(|s| after.is_empty(s)) {
            return IllegalMove::GeneralsFace {
                file: ours.file_char(),
            };
        }
        let mut attackers = Vec::new();
        let mut attacker_kinds = Vec::new();
        for sq in after.pieces_of(us.opponent()) {
            if let Some(piece) = after.piece_at(sq)
                && piece.kind != PieceKind::General
                && movement_error(&after, piece, sq, ours).is_none()
            {
                attackers.push(sq);
                attacker_kinds.push(piece.kind);
            }
        }
        IllegalMove::LeavesGeneralInCheck {
            attackers,
            attacker_kinds,
        }
    }
}
