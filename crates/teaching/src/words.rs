//! The house rules for the words of the Russian and Chinese texts: one term for each game word
//! (the glossary files in `glossary/`, which writers of new lessons read too), and in Chinese
//! the punctuation of a sentence (full-width marks beside Chinese text, one colon a clause, no
//! space after a full-width mark). The lessons, the patterns and the page's strings are all
//! checked against them.

use crate::lang::Lang;

/// The glossary's lines for `lang`: each term with the words that must not stand for it.
pub fn glossary(lang: Lang) -> Vec<(&'static str, Vec<&'static str>)> {
    let text = match lang {
        Lang::Ru => include_str!("../glossary/ru.txt"),
        Lang::Zh => include_str!("../glossary/zh.txt"),
        Lang::En => "",
    };
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once("<-"))
        .map(|(term, avoid)| {
            let avoid = avoid
                .split(',')
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .collect();
            (term.trim(), avoid)
        })
        .collect()
}

/// What is wrong with `text` in `lang`, one sentence each; empty when nothing is.
pub fn problems(lang: Lang, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let lower = text.to_lowercase();
    for (term, avoid) in glossary(lang) {
        for word in avoid {
            if starts_a_word_in(&lower, &word.to_lowercase()) {
                found.push(format!(
                    "says «{word}…» where the glossary's word is «{term}»"
                ));
            }
        }
    }
    if lang == Lang::Zh {
        found.extend(chinese_punctuation(text));
    }
    found
}

/// Whether `word` begins a word of `text` somewhere (its endings may vary: «министр…» is
/// found in «министра», not in «администратор»). Chinese has no spaces: a Chinese word is
/// found anywhere.
fn starts_a_word_in(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        word.chars().next().is_some_and(is_chinese)
            || !text[..at]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
    })
}

fn is_chinese(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// The punctuation faults of a Chinese text.
fn chinese_punctuation(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !":;,!?.".contains(c) {
            continue;
        }
        let before = chars[..i].iter().rev().find(|c| !c.is_whitespace());
        let after = chars[i + 1..].iter().find(|c| !c.is_whitespace());
        // A full stop inside a number or a move (`1.5`, `C2.5`) is not a sentence's.
        let next_is_chinese = after.is_some_and(|&a| is_chinese(a));
        let ends_text = after.is_none();
        if before.is_some_and(|&b| is_chinese(b)) && (c != '.' || next_is_chinese || ends_text)
            || next_is_chinese && c != '.'
        {
            found.push(format!("an ASCII «{c}» beside Chinese text"));
        }
    }
    for clause in text.split(['。', '！', '？', '；']) {
        if clause.matches('：').count() > 1 {
            found.push(format!("two colons in one clause: «{}»", clause.trim()));
        }
    }
    for (i, c) in chars.iter().enumerate() {
        if "。！？，；：".contains(*c) && chars.get(i + 1).is_some_and(|n| *n == ' ') {
            found.push(format!("a space after «{c}»"));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_faults_of_the_issue_are_found_and_good_text_passes() {
        assert_eq!(
            problems(Lang::Zh, "着法不合规则：蹩马腿：e4有棋子").len(),
            1
        );
        assert_eq!(
            problems(Lang::Zh, "对局结束: 红方胜. 黑方被将死。").len(),
            2
        );
        assert_eq!(problems(Lang::Zh, "P9+1不成立。 K4-1之后").len(), 1);
        assert_eq!(problems(Lang::Zh, "按中国象棋协会规则判和。").len(), 1);
        assert!(problems(Lang::Zh, "着法不合规则：蹩马腿（e4有棋子）").is_empty());
        assert!(problems(Lang::Zh, "评分：+1.42，走C2.5之后").is_empty());
        assert_eq!(problems(Lang::Ru, "Пушка бьёт через подставку.").len(), 1);
        assert_eq!(problems(Lang::Ru, "Две Пешки перешли реку.").len(), 1);
        assert!(problems(Lang::Ru, "Пушка бьёт через лафет.").is_empty());
        assert!(problems(Lang::En, "anything: at all.").is_empty());
        // A word to avoid is found where a word begins, whatever its ending, and not inside
        // another word.
        assert_eq!(problems(Lang::Ru, "Ход министра.").len(), 1);
        assert!(problems(Lang::Ru, "Это может сделать администратор.").is_empty());
    }

    #[test]
    fn every_glossary_line_has_a_term_and_words_to_avoid() {
        for lang in [Lang::Ru, Lang::Zh] {
            let entries = glossary(lang);
            assert!(entries.len() >= 3, "{lang}");
            assert!(entries.iter().all(|(t, a)| !t.is_empty() && !a.is_empty()));
        }
    }
}
