//! How records write a game's result. A record's result is `Option<GameResult>` (the rules'
//! result; `None` when it is not known or the game is not over), and [`ResultForms`] gives
//! it each format's words; the `read_*` functions read them back.

use xiangqi_rules::GameResult;

/// The forms a record's result takes in each format.
pub trait ResultForms {
    /// The PGN form: `1-0`, `0-1`, `1/2-1/2` or `*`.
    fn pgn(self) -> &'static str;
    /// The Chinese words DhtmlXQ writes: 红胜, 黑胜, 和棋 or 未知.
    fn chinese(self) -> &'static str;
    /// The XQF header byte: 0 unknown, 1 Red wins, 2 Black wins, 3 draw.
    fn xqf_code(self) -> u8;
}

impl ResultForms for Option<GameResult> {
    fn pgn(self) -> &'static str {
        match self {
            Some(GameResult::RedWins) => "1-0",
            Some(GameResult::BlackWins) => "0-1",
            Some(GameResult::Draw) => "1/2-1/2",
            None => "*",
        }
    }

    fn chinese(self) -> &'static str {
        match self {
            Some(GameResult::RedWins) => "红胜",
            Some(GameResult::BlackWins) => "黑胜",
            Some(GameResult::Draw) => "和棋",
            None => "未知",
        }
    }

    fn xqf_code(self) -> u8 {
        match self {
            None => 0,
            Some(GameResult::RedWins) => 1,
            Some(GameResult::BlackWins) => 2,
            Some(GameResult::Draw) => 3,
        }
    }
}

/// Reads the PGN form (`1-0`, `0-1`, `1/2-1/2`, `*`; also `½-½`): `None` when `text` is no
/// result at all, `Some(None)` for `*`.
pub fn read_pgn(text: &str) -> Option<Option<GameResult>> {
    match text.trim() {
        "1-0" => Some(Some(GameResult::RedWins)),
        "0-1" => Some(Some(GameResult::BlackWins)),
        "1/2-1/2" | "½-½" => Some(Some(GameResult::Draw)),
        "*" => Some(None),
        _ => None,
    }
}

/// Reads the Chinese words of DhtmlXQ and similar records (simplified or traditional:
/// 红胜, 红先胜, 黑负, 和棋, 和局, 未知 …), or the PGN form; `None` when `text` is none of
/// them, `Some(None)` for a result not known.
pub fn read_words(text: &str) -> Option<Option<GameResult>> {
    let t = text.trim();
    if let Some(r) = read_pgn(t) {
        return Some(r);
    }
    if t.is_empty() {
        return Some(None);
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
        (true, false, true, false) | (false, true, false, true) => Some(Some(GameResult::RedWins)),
        (false, true, true, false) | (true, false, false, true) => {
            Some(Some(GameResult::BlackWins))
        }
        _ if t.starts_with('和') || t.ends_with('和') => Some(Some(GameResult::Draw)),
        _ if t == "未知" || t == "未完" || t == "不详" => Some(None),
        _ => None,
    }
}

/// The result for an XQF header byte; other values are unknown.
pub const fn read_xqf_code(code: u8) -> Option<GameResult> {
    match code {
        1 => Some(GameResult::RedWins),
        2 => Some(GameResult::BlackWins),
        3 => Some(GameResult::Draw),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_round_trips() {
        for r in [
            Some(GameResult::RedWins),
            Some(GameResult::BlackWins),
            Some(GameResult::Draw),
            None,
        ] {
            assert_eq!(read_pgn(r.pgn()), Some(r));
            assert_eq!(read_words(r.chinese()), Some(r));
            assert_eq!(read_xqf_code(r.xqf_code()), r);
        }
        assert_eq!(read_pgn("2-0"), None);
    }

    #[test]
    fn chinese_words_of_other_programs() {
        assert_eq!(read_words("红先胜"), Some(Some(GameResult::RedWins)));
        assert_eq!(read_words("紅勝"), Some(Some(GameResult::RedWins)));
        assert_eq!(read_words("黑负"), Some(Some(GameResult::RedWins)));
        assert_eq!(read_words("红负"), Some(Some(GameResult::BlackWins)));
        assert_eq!(read_words("和局"), Some(Some(GameResult::Draw)));
        assert_eq!(read_words("红先和"), Some(Some(GameResult::Draw)));
        assert_eq!(read_words("?"), None);
    }
}
