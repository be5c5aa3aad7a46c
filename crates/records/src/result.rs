//! How a game ended, as records write it.

use std::fmt;
use xiangqi_rules::Color;

/// The outcome of a game as its record states it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Red won (`1-0`).
    RedWins,
    /// Black won (`0-1`).
    BlackWins,
    /// A draw (`1/2-1/2`).
    Draw,
    /// Not known or not over (`*`).
    #[default]
    Unknown,
}

impl GameResult {
    /// The PGN form: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads the PGN form (`1-0`, `0-1`, `1/2-1/2`, `*`; also `½-½`).
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        match text.trim() {
            "1-0" => Some(GameResult::RedWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }

    /// The Chinese words DhtmlXQ writes: 红胜, 黑胜, 和棋 or 未知.
    pub const fn chinese(self) -> &'static str {
        match self {
            GameResult::RedWins => "红胜",
            GameResult::BlackWins => "黑胜",
            GameResult::Draw => "和棋",
            GameResult::Unknown => "未知",
        }
    }

    /// Reads the Chinese words of DhtmlXQ and similar records (simplified or traditional:
    /// 红胜, 红先胜, 黑负, 和棋, 和局, 未知 …), or the PGN form.
    pub fn from_words(text: &str) -> Option<GameResult> {
        let t = text.trim();
        if let Some(r) = GameResult::from_pgn(t) {
            return Some(r);
        }
        if t.is_empty() {
            return Some(GameResult::Unknown);
        }
        let t = t
            .replace('紅', "红")
            .replace('勝', "胜")
            .replace('負', "负");
        let red = t.starts_with('红');
        let black = t.starts_with('黑');
        let won = t.ends_with('胜') || t.ends_with("赢");
        let lost = t.ends_with('负') || t.ends_with('输');
        match (red, black, won, lost) {
            (true, false, true, false) | (false, true, false, true) => Some(GameResult::RedWins),
            (false, true, true, false) | (true, false, false, true) => Some(GameResult::BlackWins),
            _ if t.starts_with('和') || t.ends_with('和') => Some(GameResult::Draw),
            _ if t == "未知" || t == "未完" || t == "不详" => Some(GameResult::Unknown),
            _ => None,
        }
    }

    /// The XQF header byte: 0 unknown, 1 Red wins, 2 Black wins, 3 draw.
    pub const fn xqf_code(self) -> u8 {
        match self {
            GameResult::Unknown => 0,
            GameResult::RedWins => 1,
            GameResult::BlackWins => 2,
            GameResult::Draw => 3,
        }
    }

    /// The result for an XQF header byte; other values are unknown.
    pub const fn from_xqf_code(code: u8) -> GameResult {
        match code {
            1 => GameResult::RedWins,
            2 => GameResult::BlackWins,
            3 => GameResult::Draw,
            _ => GameResult::Unknown,
        }
    }

    /// The winner, if one side won.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_forms_round_trip() {
        for r in [
            GameResult::RedWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unknown,
        ] {
            assert_eq!(GameResult::from_pgn(r.pgn()), Some(r));
            assert_eq!(GameResult::from_words(r.chinese()), Some(r));
            assert_eq!(GameResult::from_xqf_code(r.xqf_code()), r);
        }
    }

    #[test]
    fn chinese_words_of_other_programs() {
        assert_eq!(GameResult::from_words("红先胜"), Some(GameResult::RedWins));
        assert_eq!(GameResult::from_words("紅勝"), Some(GameResult::RedWins));
        assert_eq!(GameResult::from_words("黑负"), Some(GameResult::RedWins));
        assert_eq!(GameResult::from_words("红负"), Some(GameResult::BlackWins));
        assert_eq!(GameResult::from_words("和局"), Some(GameResult::Draw));
        assert_eq!(GameResult::from_words("红先和"), Some(GameResult::Draw));
        assert_eq!(GameResult::from_words("?"), None);
    }
}
