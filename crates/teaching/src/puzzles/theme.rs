//! The themes a puzzle can carry, written as in the export format (`mateIn2`, `fork`,
//! `pattern:smothered-palace` …).

use std::fmt;
use std::str::FromStr;
use xiangqi_rules::GameStatus;

/// What a puzzle teaches. The text form is the one the export format uses.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// The solver mates in this many of its own moves (1–5): the line ends with the defender
    /// in check and without a move.
    MateIn(u8),
    /// The solver wins by stalemate in this many of its own moves (1–5): the line ends with
    /// the defender not in check but without a move, which loses in Xiangqi.
    StalemateIn(u8),
    /// The line wins at least a piece (a horse or a cannon) net.
    Material,
    /// The moved piece attacks two valuable pieces (or one and the general) and one falls.
    Fork,
    /// The win comes from a piece that cannot move without exposing a more valuable piece
    /// or the general behind it (a cannon's screen counts).
    Pin,
    /// The moved piece uncovers an attack by another piece.
    DiscoveredAttack,
    /// The first capture removes the defender of the piece that falls next.
    CapturingDefender,
    /// The only move that holds: every other move loses at least two pawns or is mated.
    Defence,
    /// Endgame technique: by the exact tables, the only move that keeps the win (mate further
    /// than a mate in 5) or holds the draw. See `puzzles::endgame`.
    Endgame,
    /// A move checks with two pieces at once.
    DoubleCheck,
    /// A valuable piece is given up on purpose: the defender takes it.
    Sacrifice,
    /// The first move neither takes nor checks.
    QuietMove,
    /// The mate or stalemate needs the rule that the generals may not face each other.
    FacingGenerals,
    /// A cannon strikes over a screen that a move of the line put there.
    CannonScreen,
    /// A solver piece lands on an enemy horse's leg and takes away a point the horse held (蹩马腿). See `puzzles::combinations`.
    HorseLeg,
    /// A solver piece lands on an enemy elephant's eye and takes away a point the elephant held (塞象眼). See `puzzles::combinations`.
    ElephantEye,
    /// A solver piece lands between an enemy chariot or cannon and a point it held. See `puzzles::combinations`.
    Interference,
    /// A check or an offered piece draws a defender away from a point the solver then strikes. See `puzzles::combinations`.
    Deflection,
    /// A sacrifice lures a piece (often the general) onto a point where it is then hit. See `puzzles::combinations`.
    Decoy,
    /// A solver piece leaves a point so that another one can land on it or pass over it. See `puzzles::combinations`.
    Clearance,
    /// A check first, and only then the capture that was there to be made. See `puzzles::combinations`.
    Zwischenzug,
    /// An enemy chariot, horse or cannon is attacked with no safe point to go, and falls. See `puzzles::combinations`.
    TrappedPiece,
    /// The mate is one of the named mating patterns (the pattern's id).
    Pattern(String),
}

/// The themes that do not name a pattern, in the order a summary lists them.
pub const BASIC_THEMES: [Theme; 30] = [
    Theme::MateIn(1),
    Theme::MateIn(2),
    Theme::MateIn(3),
    Theme::MateIn(4),
    Theme::MateIn(5),
    Theme::StalemateIn(1),
    Theme::StalemateIn(2),
    Theme::StalemateIn(3),
    Theme::StalemateIn(4),
    Theme::StalemateIn(5),
    Theme::Material,
    Theme::Fork,
    Theme::Pin,
    Theme::DiscoveredAttack,
    Theme::CapturingDefender,
    Theme::DoubleCheck,
    Theme::Sacrifice,
    Theme::QuietMove,
    Theme::CannonScreen,
    Theme::FacingGenerals,
    Theme::HorseLeg,
    Theme::ElephantEye,
    Theme::Interference,
    Theme::Deflection,
    Theme::Decoy,
    Theme::Clearance,
    Theme::Zwischenzug,
    Theme::TrappedPiece,
    Theme::Defence,
    Theme::Endgame,
];

/// The longest mate a puzzle may ask for.
pub const LONGEST_MATE: u8 = 5;

impl Theme {
    /// The themes a summary lists, without the pattern themes.
    pub fn basic() -> &'static [Theme] {
        &BASIC_THEMES
    }

    /// Whether this theme is read from the line by a motif rule (`puzzles::motifs`), and so
    /// claimed only where the line shows it.
    pub fn is_motif(&self) -> bool {
        matches!(
            self,
            Theme::Fork
                | Theme::Pin
                | Theme::DiscoveredAttack
                | Theme::CapturingDefender
                | Theme::DoubleCheck
                | Theme::Sacrifice
                | Theme::QuietMove
                | Theme::FacingGenerals
                | Theme::CannonScreen
                | Theme::HorseLeg
                | Theme::ElephantEye
                | Theme::Interference
                | Theme::Deflection
                | Theme::Decoy
                | Theme::Clearance
                | Theme::Zwischenzug
                | Theme::TrappedPiece
        )
    }

    /// The mate length when this is a `mateInN` theme.
    pub fn mate_length(&self) -> Option<u8> {
        match self {
            Theme::MateIn(n) => Some(*n),
            _ => None,
        }
    }

    /// The length of the forced win, in the solver's moves, when this is a `mateInN` or a
    /// `stalemateInN` theme: the puzzles the mate prover proves.
    pub fn forced_win_length(&self) -> Option<u8> {
        match self {
            Theme::MateIn(n) | Theme::StalemateIn(n) => Some(*n),
            _ => None,
        }
    }

    /// The theme of a forced win of `length` moves whose line ends in `end` (the position
    /// after its last move): `mateInN` when the defender is mated, `stalemateInN` when it is
    /// stalemated; `None` when the line does not end the game.
    pub fn forced_win(length: u8, end: GameStatus) -> Option<Theme> {
        match end {
            GameStatus::Checkmate { .. } => Some(Theme::MateIn(length)),
            GameStatus::Stalemate { .. } => Some(Theme::StalemateIn(length)),
            GameStatus::Ongoing => None,
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Theme::MateIn(n) => write!(f, "mateIn{n}"),
            Theme::StalemateIn(n) => write!(f, "stalemateIn{n}"),
            Theme::Material => f.write_str("material"),
            Theme::Fork => f.write_str("fork"),
            Theme::Pin => f.write_str("pin"),
            Theme::DiscoveredAttack => f.write_str("discoveredAttack"),
            Theme::CapturingDefender => f.write_str("capturingDefender"),
            Theme::Defence => f.write_str("defence"),
            Theme::Endgame => f.write_str("endgame"),
            Theme::DoubleCheck => f.write_str("doubleCheck"),
            Theme::Sacrifice => f.write_str("sacrifice"),
            Theme::QuietMove => f.write_str("quietMove"),
            Theme::FacingGenerals => f.write_str("facingGenerals"),
            Theme::CannonScreen => f.write_str("cannonScreen"),
            Theme::HorseLeg => f.write_str("horseLeg"),
            Theme::ElephantEye => f.write_str("elephantEye"),
            Theme::Interference => f.write_str("interference"),
            Theme::Deflection => f.write_str("deflection"),
            Theme::Decoy => f.write_str("decoy"),
            Theme::Clearance => f.write_str("clearance"),
            Theme::Zwischenzug => f.write_str("zwischenzug"),
            Theme::TrappedPiece => f.write_str("trappedPiece"),
            Theme::Pattern(id) => write!(f, "pattern:{id}"),
        }
    }
}

/// A theme name that is not one of ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTheme(pub String);

impl fmt::Display for UnknownTheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown theme `{}` (known: mateIn1…mateIn{LONGEST_MATE}, \
             stalemateIn1…stalemateIn{LONGEST_MATE}, material, fork, pin, \
             discoveredAttack, capturingDefender, doubleCheck, sacrifice, quietMove, \
             cannonScreen, facingGenerals, horseLeg, elephantEye, interference, deflection, \
             decoy, clearance, zwischenzug, trappedPiece, defence, endgame, pattern:<id>)",
            self.0
        )
    }
}

impl std::error::Error for UnknownTheme {}

impl FromStr for Theme {
    type Err = UnknownTheme;

    fn from_str(text: &str) -> Result<Theme, UnknownTheme> {
        let unknown = || UnknownTheme(text.to_string());
        let length = |n: &str| match n.parse::<u8>() {
            Ok(length) if (1..=LONGEST_MATE).contains(&length) && length.to_string() == n => {
                Ok(length)
            }
            _ => Err(unknown()),
        };
        if let Some(n) = text.strip_prefix("mateIn") {
            return length(n).map(Theme::MateIn);
        }
        if let Some(n) = text.strip_prefix("stalemateIn") {
            return length(n).map(Theme::StalemateIn);
        }
        if let Some(id) = text.strip_prefix("pattern:") {
            let valid = !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            return if valid {
                Ok(Theme::Pattern(id.to_string()))
            } else {
                Err(unknown())
            };
        }
        match text {
            "material" => Ok(Theme::Material),
            "fork" => Ok(Theme::Fork),
            "pin" => Ok(Theme::Pin),
            "discoveredAttack" => Ok(Theme::DiscoveredAttack),
            "capturingDefender" => Ok(Theme::CapturingDefender),
            "defence" => Ok(Theme::Defence),
            "endgame" => Ok(Theme::Endgame),
            "doubleCheck" => Ok(Theme::DoubleCheck),
            "sacrifice" => Ok(Theme::Sacrifice),
            "quietMove" => Ok(Theme::QuietMove),
            "facingGenerals" => Ok(Theme::FacingGenerals),
            "cannonScreen" => Ok(Theme::CannonScreen),
            "horseLeg" => Ok(Theme::HorseLeg),
            "elephantEye" => Ok(Theme::ElephantEye),
            "interference" => Ok(Theme::Interference),
            "deflection" => Ok(Theme::Deflection),
            "decoy" => Ok(Theme::Decoy),
            "clearance" => Ok(Theme::Clearance),
            "zwischenzug" => Ok(Theme::Zwischenzug),
            "trappedPiece" => Ok(Theme::TrappedPiece),
            _ => Err(unknown()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_theme_reads_back_from_its_name() {
        let mut all = Theme::basic().to_vec();
        all.push(Theme::Pattern("iron-bolt".into()));
        for theme in all {
            assert_eq!(theme.to_string().parse::<Theme>(), Ok(theme));
        }
    }

    #[test]
    fn unknown_names_and_lengths_are_refused() {
        for bad in [
            "mateIn0",
            "mateIn6",
            "mateIn02",
            "stalemateIn0",
            "stalemateIn6",
            "Fork",
            "pattern:",
            "pattern:A b",
            "",
        ] {
            assert!(bad.parse::<Theme>().is_err(), "{bad}");
        }
    }
}
