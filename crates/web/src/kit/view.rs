//! What the page is told about a game: the position, the record in every notation, the legal
//! moves, check, the ending, the capture markers and the opening's ECCO name.

use crate::kit::reasons::end_reason_params;
use crate::kit::session::GameSession;
use serde::Serialize;
use std::collections::BTreeMap;
use xiangqi_records::TreeMove;
use xiangqi_rules::notation::{Notation, format_move};
use xiangqi_rules::{Color, Game, GameStatus, Move, PieceKind, Position, Square};
use xiangqi_teaching::Lang;
use xiangqi_teaching::openings;

/// A move in every notation, written from the position before it.
#[derive(Serialize, Debug, Clone)]
pub struct MoveView {
    /// ICCS, e.g. `h2e2`.
    pub iccs: String,
    /// WXF, e.g. `C2=5`.
    pub wxf: String,
    /// Chinese, e.g. `炮二平五`.
    pub chinese: String,
    /// The point the piece left.
    pub from: String,
    /// The point it reached.
    pub to: String,
    /// The position after the move, as FEN.
    pub fen: String,
}

impl MoveView {
    /// `m` written from `pos`.
    pub fn new(pos: &Position, m: Move) -> MoveView {
        MoveView {
            iccs: m.to_string(),
            wxf: format_move(pos, m, Notation::Wxf),
            chinese: format_move(pos, m, Notation::Chinese),
            from: m.from().to_string(),
            to: m.to().to_string(),
            fen: pos.after(m).to_fen(),
        }
    }

    /// Each of `moves`, played one after another from `start`, written from the position
    /// before it.
    pub fn line(start: &Position, moves: &[Move]) -> Vec<MoveView> {
        let mut pos = start.clone();
        moves
            .iter()
            .map(|&m| {
                let view = MoveView::new(&pos, m);
                pos.make_move(m);
                view
            })
            .collect()
    }
}

/// A piece that the other side can capture on its next move.
#[derive(Serialize, Debug, Clone)]
pub struct Marker {
    /// Where it stands.
    pub square: String,
    /// Its FEN letter.
    pub piece: char,
    /// Whether no piece of its own side protects it.
    pub unprotected: bool,
}

/// How the game ended.
#[derive(Serialize, Debug, Clone)]
pub struct OutcomeView {
    /// `red-wins`, `black-wins` or `draw`.
    pub result: &'static str,
    /// A stable key for translations, e.g. `checkmate`.
    pub code: &'static str,
    /// The reason in plain English, with the verdict's explanation where there is one.
    pub message: String,
    /// The blanks of the reason (loser, the verdict's pieces and moves, counts), for saying
    /// it in another language.
    pub params: serde_json::Value,
}

/// The ECCO opening of a game from the initial position: the code, the Chinese opening and
/// variation, and the family's name in each interface language (the page picks one).
#[derive(Serialize, Debug, Clone)]
pub struct OpeningView {
    /// The code, e.g. `C48`.
    pub code: &'static str,
    /// The Chinese opening name.
    pub name: &'static str,
    /// The Chinese variation name, empty when there is none.
    pub variation: &'static str,
    /// The family's name by language code (`en`, `ru`, `zh`).
    pub family: BTreeMap<&'static str, &'static str>,
    /// The code's own name as an interface shows it, by language code: `Opening — Variation`
    /// in English and Russian, the Chinese opening and variation in Chinese.
    pub title: BTreeMap<&'static str, String>,
}

impl OpeningView {
    /// The opening of the moves `moves` played from `start`, when it has one.
    pub fn of(start: &Position, moves: &[Move]) -> Option<OpeningView> {
        let opening = openings::classify_from(start, moves).ok()??;
        Some(OpeningView::from(&opening))
    }
}

impl From<&openings::Opening> for OpeningView {
    fn from(opening: &openings::Opening) -> OpeningView {
        OpeningView {
            code: opening.code,
            name: opening.name,
            variation: opening.variation,
            family: Lang::ALL
                .into_iter()
                .map(|lang| (lang.code(), opening.family_name(lang)))
                .collect(),
            title: Lang::ALL
                .into_iter()
                .map(|lang| (lang.code(), opening.title(lang)))
                .collect(),
        }
    }
}

/// Everything the page shows about one game.
#[derive(Serialize, Debug, Clone)]
pub struct GameView {
    /// The game's id, to send back with every request.
    pub id: String,
    /// Changes with every move, undo or redo.
    pub version: u64,
    /// The start position.
    pub start_fen: String,
    /// The current position.
    pub fen: String,
    /// `red` or `black`.
    pub turn: &'static str,
    /// The moves played, in order.
    pub moves: Vec<MoveView>,
    /// The moves that redo would replay, next first (ICCS).
    pub redo: Vec<String>,
    /// The last move played, if any.
    pub last_move: Option<MoveView>,
    /// The point of the general in check, if the side to move is in check.
    pub check: Option<String>,
    /// Legal destinations by starting point (empty when the game is over).
    pub legal: BTreeMap<String, Vec<String>>,
    /// The ending, once the game has one.
    pub outcome: Option<OutcomeView>,
    /// Pieces of either side that can be captured on the next move.
    pub markers: Vec<Marker>,
    /// The ECCO opening of the moves played, for games from the initial position.
    pub opening: Option<OpeningView>,
    /// The move tree when the game has variations: the main line, each move with the lines
    /// that leave it; absent when there is one line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<Vec<TreeMoveView>>,
    /// The line being played (0: the main line).
    pub line: usize,
}

/// How a position ends a line when the side to move has no move: mated or stalemated (both
/// lose in Xiangqi), and where the losing general stands, for the board to mark it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct EndingView {
    /// `checkmate` (in check, no move) or `stalemate` (not in check, no move).
    pub code: &'static str,
    /// The point of the general of the side that has no move.
    pub general: String,
}

impl EndingView {
    /// The ending of `pos`, none while the side to move has a move.
    pub fn of(pos: &Position) -> Option<EndingView> {
        let code = status_code(pos.status());
        (code != "ongoing").then(|| EndingView {
            code,
            general: pos.general(pos.side_to_move()).to_string(),
        })
    }
}

/// A position's status as the API writes it: `ongoing`, `checkmate` or `stalemate`.
pub fn status_code(status: GameStatus) -> &'static str {
    match status {
        GameStatus::Ongoing => "ongoing",
        GameStatus::Checkmate { .. } => "checkmate",
        GameStatus::Stalemate { .. } => "stalemate",
    }
}

/// What a move does at once (see [`xiangqi_teaching::review::MoveEffect`]).
#[derive(Serialize)]
pub struct EffectView {
    /// `checkmate` or `stalemate` when the move ends the game.
    pub ends: Option<&'static str>,
    /// The piece it takes.
    pub captures: Option<Threat>,
    /// Whether it gives check.
    pub check: bool,
    /// The most valuable piece, not the general, the moved piece attacks after it.
    pub threat: Option<Threat>,
}

impl EffectView {
    /// What `m`, played in `pos`, does.
    pub fn of(pos: &Position, m: Move) -> EffectView {
        let e = xiangqi_teaching::review::effect_of(pos, m);
        let piece = |t: xiangqi_teaching::review::Threat| Threat {
            square: t.square.to_string(),
            piece: t.piece.fen_char(),
        };
        EffectView {
            ends: e.ends.map(status_code),
            captures: e.captures.map(piece),
            check: e.check,
            threat: e.threat.map(piece),
        }
    }
}

/// A piece a move attacks that the other side has to answer: the most valuable one the moved
/// piece then attacks, as the review explains mistakes.
#[derive(Serialize)]
pub struct Threat {
    /// Where the piece stands (ICCS).
    pub square: String,
    /// Its FEN letter.
    pub piece: char,
}

impl Threat {
    /// What `m`, played in `pos`, threatens, if anything.
    pub fn of(pos: &Position, m: Move) -> Option<Threat> {
        xiangqi_teaching::review::threat_of(&pos.after(m), m).map(|t| Threat {
            square: t.square.to_string(),
            piece: t.piece.fen_char(),
        })
    }
}

/// The legal moves of the side to move in `pos`, as the page draws them: each origin point
/// with the points its piece can go to.
pub fn legal_targets(pos: &Position) -> BTreeMap<String, Vec<String>> {
    let mut legal: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for m in pos.legal_moves().iter() {
        legal
            .entry(m.from().to_string())
            .or_default()
            .push(m.to().to_string());
    }
    legal
}

/// A side as the API and the page spell it: `red` or `black`.
pub fn side_code(side: Color) -> &'static str {
    match side {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// The view of `game` with id `id`, the moves `ahead` that redo replays (next first) and
/// change count `version`.
pub fn game_view(id: &str, version: u64, game: &Game, ahead: &[Move]) -> GameView {
    let pos = game.position();
    let moves: Vec<MoveView> = game
        .moves()
        .iter()
        .enumerate()
        .map(|(ply, &m)| MoveView::new(game.position_at(ply).unwrap_or(pos), m))
        .collect();
    let outcome = game.outcome().map(|o| OutcomeView {
        result: o.result.as_str(),
        code: o.reason.code(),
        message: o.reason.to_string(),
        params: end_reason_params(&o.reason),
    });
    let legal = if outcome.is_none() {
        legal_targets(pos)
    } else {
        BTreeMap::new()
    };
    let us = pos.side_to_move();
    GameView {
        id: id.to_string(),
        version,
        start_fen: game.start().to_fen(),
        fen: pos.to_fen(),
        turn: side_code(us),
        last_move: moves.last().cloned(),
        moves,
        redo: ahead.iter().map(|m| m.to_string()).collect(),
        check: pos.in_check().then(|| pos.general(us).to_string()),
        legal,
        outcome,
        markers: capture_markers(pos),
        opening: OpeningView::of(game.start(), game.moves()),
        tree: None,
        line: 0,
    }
}

/// The view of session `s` with id `id`: its game, and its move tree when it has variations.
pub fn session_view(id: &str, s: &GameSession) -> GameView {
    let mut view = game_view(id, s.version, s.game(), &s.played.ahead());
    let tree = s.played.tree_moves();
    if tree.iter().any(|m| !m.variations.is_empty()) {
        view.tree = Some(tree.iter().map(TreeMoveView::of).collect());
        view.line = s.played.current_line();
    }
    view
}

/// One move of the lines as the page gets it.
#[derive(Serialize, Debug, Clone)]
pub struct TreeMoveView {
    /// The move in every notation, with the position after it.
    #[serde(flatten)]
    pub view: MoveView,
    /// How many moves lead to the position after it, this one included.
    pub ply: usize,
    /// The lowest-numbered line through it (0: the main line), to switch to.
    pub line: usize,
    /// Whether the line being played passes through it up to the position shown.
    pub played: bool,
    /// Whether the line being played passes through it (played, or ahead for redo).
    pub on_current_line: bool,
    /// The lines that could have been played instead of it, each from its first move.
    pub variations: Vec<Vec<TreeMoveView>>,
}

impl TreeMoveView {
    /// The view of `m`, with its variations.
    fn of(m: &TreeMove) -> TreeMoveView {
        TreeMoveView {
            view: MoveView::new(&m.before, m.mv),
            ply: m.ply,
            line: m.line,
            played: m.played,
            on_current_line: m.on_current_line,
            variations: m
                .variations
                .iter()
                .map(|v| v.iter().map(TreeMoveView::of).collect())
                .collect(),
        }
    }
}

/// The pieces (generals aside) that the side to move can capture by a legal move, and those
/// of the side to move that the other side attacks; each with whether it is protected.
pub fn capture_markers(pos: &Position) -> Vec<Marker> {
    let us = pos.side_to_move();
    let occupied = pos.occupied();
    let legal = pos.legal_moves();
    let mut markers = Vec::new();
    for sq in Square::all() {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        if piece.kind == PieceKind::General {
            continue;
        }
        let threatened = if piece.color == us {
            !pos.attackers_to(sq, us.opponent(), occupied).is_empty()
        } else {
            legal.iter().any(|m| m.to() == sq)
        };
        if threatened {
            markers.push(Marker {
                square: sq.to_string(),
                piece: piece.fen_char(),
                unprotected: pos.attackers_to(sq, piece.color, occupied).is_empty(),
            });
        }
    }
    markers
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_engine::score::Reported;

    #[test]
    fn scores_reach_the_page_as_cp_or_mate() {
        let json = |s: Reported| serde_json::to_string(&s).unwrap();
        assert_eq!(json(Reported::Cp(-35)), r#"{"cp":-35}"#);
        assert_eq!(json(Reported::Mate(2)), r#"{"mate":2}"#);
        // Black mating in 2, seen from Red's side.
        assert_eq!(
            json(Reported::Mate(2).for_red(Color::Black)),
            r#"{"mate":-2}"#
        );
    }
}
