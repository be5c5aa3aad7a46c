//! The perpetual-check drill (`kind = "perpetual"`): the learner gets out of check move after
//! move while the app's checking piece checks again, until the rules core's verdict ends the
//! game. The game is the rules core's own [`Game`] under the exercise's rule set, started at
//! the position before the exercise's first check (`check`), so that check is counted too.

use super::{Exercise, Kind, Rules};
use crate::lang::Lang;
use xiangqi_rules::explain::IllegalMove;
use xiangqi_rules::repetition::perpetual_limit;
use xiangqi_rules::{
    Color, EndReason, Game, GameRules, Move, Outcome, PieceKind, Position, RuleSet, Square,
    Verdict, VerdictKind,
};

impl Rules {
    /// The rules core's rule set.
    pub const fn rule_set(self) -> RuleSet {
        match self {
            Rules::Asian => RuleSet::Asian,
            Rules::Cxq => RuleSet::Cxq,
        }
    }
}

/// A perpetual-check drill in play: the game from the position before the first check.
#[derive(Clone, Debug)]
pub struct Drill {
    game: Game,
    /// Where the checking piece stands.
    checker: Square,
    /// The app's checks in a row so far, the first one included.
    checks: u32,
}

/// Why the learner's move was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrillRefusal {
    /// The move is illegal (it leaves the general in check, or breaks a piece's rule).
    Illegal(IllegalMove),
    /// The game is already over.
    Over,
}

/// What one move of the learner led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrillStep {
    /// The learner's move.
    pub escape: Move,
    /// The app's check in reply; none once the game is over.
    pub reply: Option<Move>,
}

/// The position `pos` with the quiet move `m` taken back: the piece on `m.to()` back on
/// `m.from()`, the other side to move.
fn position_before(pos: &Position, m: Move) -> Result<Position, String> {
    let piece = pos
        .piece_at(m.to())
        .ok_or_else(|| format!("no piece stands on {}, where the check {m} ends", m.to()))?;
    if !pos.is_empty(m.from()) {
        return Err(format!(
            "{} is not empty, so {m} cannot have been played",
            m.from()
        ));
    }
    let mut board = String::new();
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            let sq = Square::new(file, rank).expect("a point of the board");
            let here = if sq == m.from() {
                Some(piece)
            } else if sq == m.to() {
                None
            } else {
                pos.piece_at(sq)
            };
            match here {
                Some(p) => {
                    if empty > 0 {
                        board.push_str(&empty.to_string());
                        empty = 0;
                    }
                    board.push(p.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if rank > 0 {
            board.push('/');
        }
    }
    let side = match pos.side_to_move() {
        Color::Red => 'b',
        Color::Black => 'w',
    };
    Position::from_fen(&format!("{board} {side}"))
        .map_err(|e| format!("the position before {m} is not legal: {e}"))
}

impl Exercise {
    /// For a `perpetual` exercise: the drill at its start, the first check (`check`) played
    /// from the position before it; why not, for any other exercise or one whose first check
    /// does not lead to its position.
    pub fn drill(&self) -> Result<Drill, String> {
        if self.kind != Kind::Perpetual {
            return Err(format!("a {} exercise is not a drill", self.kind.name()));
        }
        let text = self
            .check
            .as_deref()
            .ok_or("'check' is missing: the move that gave the first check")?;
        let first: Move = text
            .parse()
            .map_err(|e| format!("check '{text}' is not a move: {e}"))?;
        let pos = Position::from_fen(&self.fen)
            .map_err(|e| format!("FEN '{}' is not a legal position: {e}", self.fen))?;
        let before = position_before(&pos, first)?;
        let mut game = Game::with_rules(before, GameRules::new(self.rules.rule_set()));
        game.play(first)
            .map_err(|e| format!("check {first} is illegal: {e}"))?;
        let now = game.position();
        if now.to_fen().split(' ').next() != pos.to_fen().split(' ').next() {
            return Err(format!(
                "check {first} does not lead to the exercise's position"
            ));
        }
        if !now.in_check() {
            return Err(format!("{first} does not give check"));
        }
        Ok(Drill {
            game,
            checker: first.to(),
            checks: 1,
        })
    }
}

impl Drill {
    /// The position now; the learner is to move unless the game is over.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The game so far: the first check, then the learner's moves and the app's checks.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Where the app's checking piece stands.
    pub fn checker(&self) -> Square {
        self.checker
    }

    /// The app's checks in a row so far, the first one included.
    pub fn checks(&self) -> u32 {
        self.checks
    }

    /// How many checks in a row with one piece the rules count as perpetual
    /// (the CXQ count, 6).
    pub fn limit(&self) -> u32 {
        perpetual_limit(1)
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.game.outcome()
    }

    /// The rules core's ruling on the checks, once it has made one.
    pub fn verdict(&self) -> Option<&Verdict> {
        match &self.outcome()?.reason {
            EndReason::Verdict(v) => Some(v),
            _ => None,
        }
    }

    /// The app's check in the position now: a move of the checking piece that gives check,
    /// one where the piece cannot be taken first, then the first in ICCS order; none when the
    /// piece has no check (or the game is over).
    pub fn reply(&self) -> Option<Move> {
        if self.game.is_over() {
            return None;
        }
        let pos = self.position();
        let mut checks: Vec<(bool, String, Move)> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| m.from() == self.checker)
            .filter_map(|m| {
                let after = pos.after(m);
                after.in_check().then(|| {
                    let taken = after.legal_moves().iter().any(|r| r.to() == m.to());
                    (taken, m.to_string(), m)
                })
            })
            .collect();
        checks.sort();
        checks.first().map(|&(_, _, m)| m)
    }

    /// Plays the learner's move `m` and, while the game goes on, the app's check in reply.
    pub fn play(&mut self, m: Move) -> Result<DrillStep, DrillRefusal> {
        if self.game.is_over() {
            return Err(DrillRefusal::Over);
        }
        let m = self
            .position()
            .check_move(m.from(), m.to())
            .map_err(DrillRefusal::Illegal)?;
        self.game.play(m).map_err(DrillRefusal::Illegal)?;
        let reply = self.reply();
        if let Some(r) = reply {
            self.game.play(r).map_err(DrillRefusal::Illegal)?;
            self.checker = r.to();
            self.checks += 1;
        }
        Ok(DrillStep { escape: m, reply })
    }
}

/// A side's name at the start of a sentence and inside one.
fn side_words(side: Color, lang: Lang) -> (&'static str, &'static str) {
    match (lang, side) {
        (Lang::En, Color::Red) => ("Red", "Red"),
        (Lang::En, Color::Black) => ("Black", "Black"),
        (Lang::Ru, Color::Red) => ("Красные", "красные"),
        (Lang::Ru, Color::Black) => ("Чёрные", "чёрные"),
        (Lang::Zh, Color::Red) => ("红方", "红方"),
        (Lang::Zh, Color::Black) => ("黑方", "黑方"),
    }
}

/// A piece's name in `lang` (Chinese names differ by side).
fn piece_word(kind: PieceKind, color: Color, lang: Lang) -> &'static str {
    let red = color == Color::Red;
    match (lang, kind) {
        (Lang::En, kind) => kind.name(),
        (Lang::Ru, PieceKind::General) => "генерал",
        (Lang::Ru, PieceKind::Advisor) => "советник",
        (Lang::Ru, PieceKind::Elephant) => "слон",
        (Lang::Ru, PieceKind::Horse) => "конь",
        (Lang::Ru, PieceKind::Chariot) => "колесница",
        (Lang::Ru, PieceKind::Cannon) => "пушка",
        (Lang::Ru, PieceKind::Soldier) => "солдат",
        (Lang::Zh, PieceKind::General) => ["将", "帅"][red as usize],
        (Lang::Zh, PieceKind::Advisor) => ["士", "仕"][red as usize],
        (Lang::Zh, PieceKind::Elephant) => ["象", "相"][red as usize],
        (Lang::Zh, PieceKind::Horse) => "马",
        (Lang::Zh, PieceKind::Chariot) => "车",
        (Lang::Zh, PieceKind::Cannon) => "炮",
        (Lang::Zh, PieceKind::Soldier) => ["卒", "兵"][red as usize],
    }
}

/// The verdict's pieces at their points: `the chariot on h9`, `колесница на h9`, `h9的车`.
fn pieces_words(v: &Verdict, lang: Lang) -> String {
    let list: Vec<String> = v
        .pieces
        .iter()
        .map(|p| {
            let name = piece_word(p.piece.kind, p.piece.color, lang);
            match lang {
                Lang::En => format!("the {name} on {}", p.point),
                Lang::Ru => format!("{name} на {}", p.point),
                Lang::Zh => format!("{}的{name}", p.point),
            }
        })
        .collect();
    list.join(match lang {
        Lang::En | Lang::Ru => ", ",
        Lang::Zh => "、",
    })
}

/// How many pieces: `one piece`, `одной фигурой`, `一个子`.
fn piece_count_words(n: u32, lang: Lang) -> String {
    match (lang, n) {
        (Lang::En, 1) => "one piece".to_string(),
        (Lang::En, 2) => "two pieces".to_string(),
        (Lang::En, n) => format!("{n} pieces"),
        (Lang::Ru, 1) => "одной фигурой".to_string(),
        (Lang::Ru, 2) => "двумя фигурами".to_string(),
        (Lang::Ru, 3) => "тремя фигурами".to_string(),
        (Lang::Ru, n) => format!("{n} фигурами"),
        (Lang::Zh, 1) => "一个子".to_string(),
        (Lang::Zh, 2) => "两个子".to_string(),
        (Lang::Zh, 3) => "三个子".to_string(),
        (Lang::Zh, n) => format!("{n}个子"),
    }
}

/// A Russian noun's form for `n`: one, a few (2–4), many.
fn ru_plural(n: u32, forms: [&'static str; 3]) -> &'static str {
    let (tens, ones) = (n % 100, n % 10);
    if (11..=14).contains(&tens) {
        forms[2]
    } else if ones == 1 {
        forms[0]
    } else if (2..=4).contains(&ones) {
        forms[1]
    } else {
        forms[2]
    }
}

/// The rule set's name after "under the" / "по" / "按".
fn rules_words(rules: RuleSet, lang: Lang) -> &'static str {
    match (lang, rules) {
        (Lang::En, RuleSet::Asian) => "the Asian rules",
        (Lang::En, RuleSet::Cxq) => "the CXQ rules",
        (Lang::Ru, RuleSet::Asian) => "азиатским правилам",
        (Lang::Ru, RuleSet::Cxq) => "правилам CXQ",
        (Lang::Zh, RuleSet::Asian) => "亚洲规则",
        (Lang::Zh, RuleSet::Cxq) => "CXQ规则",
    }
}

/// The rules core's verdict in words in `lang`: who did what and what the rule set rules,
/// e.g. `Red has checked 6 times in a row with one piece (the chariot on h9): under the CXQ
/// rules Red loses.` The same facts as the rules core's own English [`Verdict::describe`].
pub fn verdict_words(v: &Verdict, lang: Lang) -> String {
    let rules = rules_words(v.rules, lang);
    let pieces = pieces_words(v, lang);
    let count = v.count;
    let cxq = v.rules == RuleSet::Cxq;
    let Some(loser) = v.side.filter(|_| v.kind.has_loser()) else {
        return match (lang, v.kind) {
            (Lang::En, VerdictKind::MutualCheck) => {
                format!("Both sides checked perpetually: under {rules} the game is drawn.")
            }
            (Lang::En, VerdictKind::MutualChase) => {
                format!("Both sides chased perpetually: under {rules} the game is drawn.")
            }
            (Lang::En, _) => format!(
                "The position repeated with no perpetual check or chase: under {rules} the \
                 game is drawn."
            ),
            (Lang::Ru, VerdictKind::MutualCheck) => {
                format!("Обе стороны вечно шаховали: по {rules} это ничья.")
            }
            (Lang::Ru, VerdictKind::MutualChase) => {
                format!("Обе стороны вечно преследовали: по {rules} это ничья.")
            }
            (Lang::Ru, _) => format!(
                "Позиция повторилась без вечного шаха и вечного преследования: по {rules} это \
                 ничья."
            ),
            (Lang::Zh, VerdictKind::MutualCheck) => format!("双方长将：按{rules}，判和。"),
            (Lang::Zh, VerdictKind::MutualChase) => format!("双方长捉：按{rules}，判和。"),
            (Lang::Zh, _) => format!("局面重复，双方都没有长将或长捉：按{rules}，判和。"),
        };
    };
    let (side, side_in) = side_words(loser, lang);
    let (_, other_in) = side_words(loser.opponent(), lang);
    let by = piece_count_words(v.participants.max(1), lang);
    match (lang, v.kind, cxq) {
        (Lang::En, VerdictKind::PerpetualCheck, true) => format!(
            "{side} has checked {count} times in a row with {by} ({pieces}): under {rules} \
             {side_in} loses."
        ),
        (Lang::En, VerdictKind::PerpetualCheck, false) => format!(
            "{side} has checked with every move while the position repeated ({pieces}): under \
             {rules} {side_in} loses."
        ),
        (Lang::En, VerdictKind::PerpetualChase, true) => format!(
            "{side} has attacked one and the same piece {count} times in a row ({pieces}): \
             under {rules} {side_in} loses."
        ),
        (Lang::En, VerdictKind::PerpetualChase, false) => format!(
            "{side} has chased one and the same piece with every move while the position \
             repeated ({pieces}): under {rules} {side_in} loses."
        ),
        (Lang::En, _, _) => format!(
            "{side} checked perpetually while {other_in} chased ({pieces}): the checking side \
             must change, so under {rules} {side_in} loses."
        ),
        (Lang::Ru, VerdictKind::PerpetualCheck, true) => format!(
            "{side} объявили {count} {} подряд {by} ({pieces}): по {rules} {side_in} \
             проигрывают.",
            ru_plural(count, ["шах", "шаха", "шахов"])
        ),
        (Lang::Ru, VerdictKind::PerpetualCheck, false) => format!(
            "{side} шаховали каждым ходом, пока позиция повторялась ({pieces}): по {rules} \
             {side_in} проигрывают."
        ),
        (Lang::Ru, VerdictKind::PerpetualChase, true) => format!(
            "{side} {count} {} подряд нападали на одну и ту же фигуру ({pieces}): по {rules} \
             {side_in} проигрывают.",
            ru_plural(count, ["раз", "раза", "раз"])
        ),
        (Lang::Ru, VerdictKind::PerpetualChase, false) => format!(
            "{side} каждым ходом преследовали одну и ту же фигуру, пока позиция повторялась \
             ({pieces}): по {rules} {side_in} проигрывают."
        ),
        (Lang::Ru, _, _) => format!(
            "{side} вечно шаховали, а {other_in} вечно преследовали ({pieces}): менять ходы \
             должна шахующая сторона, и по {rules} {side_in} проигрывают."
        ),
        (Lang::Zh, VerdictKind::PerpetualCheck, true) => {
            format!("{side}用{by}（{pieces}）连续将军{count}次：按{rules}，{side_in}判负。")
        }
        (Lang::Zh, VerdictKind::PerpetualCheck, false) => {
            format!("{side}在局面重复中步步将军（{pieces}）：按{rules}，{side_in}判负。")
        }
        (Lang::Zh, VerdictKind::PerpetualChase, true) => {
            format!("{side}连续{count}次捉同一个子（{pieces}）：按{rules}，{side_in}判负。")
        }
        (Lang::Zh, VerdictKind::PerpetualChase, false) => {
            format!("{side}在局面重复中步步捉同一个子（{pieces}）：按{rules}，{side_in}判负。")
        }
        (Lang::Zh, _, _) => format!(
            "{side}长将，{other_in}长捉（{pieces}）：长将的一方必须变着，按{rules}，{side_in}判负。"
        ),
    }
}
