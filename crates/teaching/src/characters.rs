//! The pieces' characters, for learners who do not read Chinese: every character a piece is
//! written with, in the simplified and the traditional sets, for Red and for Black, with its
//! pinyin and a short memory aid in each language, drawn from the character's shape.
//!
//! The simplified set tells the sides apart on four pieces (帅/将, 仕/士, 相/象, 兵/卒); the
//! traditional set of printed books and wooden sets on all seven (帥/將, 仕/士, 相/象, 傌/馬,
//! 俥/車, 炮/包, 兵/卒). The learning order — general, chariot, horse, cannon, soldier,
//! advisor, elephant — is the one the page's mixed style adds the pieces in, one at a time.

use crate::lang::Lang;
use xiangqi_rules::{Color, PieceKind};

/// A character set: the simplified characters, or the traditional ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CharacterSet {
    /// The simplified characters (帅 马 车 …), those the app's texts use.
    Simplified,
    /// The traditional characters of printed books and wooden sets (帥 傌 俥 …).
    Traditional,
}

impl CharacterSet {
    /// Both sets.
    pub const ALL: [CharacterSet; 2] = [CharacterSet::Simplified, CharacterSet::Traditional];

    /// The set as the API writes it: `simplified` or `traditional`.
    pub const fn name(self) -> &'static str {
        match self {
            CharacterSet::Simplified => "simplified",
            CharacterSet::Traditional => "traditional",
        }
    }
}

/// The order in which a learner meets the pieces' characters.
pub const LEARNING_ORDER: [PieceKind; 7] = [
    PieceKind::General,
    PieceKind::Chariot,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Soldier,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

/// A memory aid in each language.
#[derive(Clone, Copy, Debug)]
pub struct Aid {
    /// In English.
    pub en: &'static str,
    /// In Russian.
    pub ru: &'static str,
    /// In Chinese.
    pub zh: &'static str,
}

impl Aid {
    /// The aid in `lang`.
    pub const fn get(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Ru => self.ru,
            Lang::Zh => self.zh,
        }
    }
}

/// One character a piece is written with.
#[derive(Clone, Copy, Debug)]
pub struct PieceCharacter {
    /// The character.
    pub character: char,
    /// How it is read when it names the piece, in pinyin with tone marks.
    pub pinyin: &'static str,
    /// The piece it names.
    pub kind: PieceKind,
    /// Where it is used: each set and side that writes the piece with it.
    pub forms: &'static [(CharacterSet, Color)],
    /// How to remember it.
    pub aid: Aid,
}

use CharacterSet::{Simplified as S, Traditional as T};
use Color::{Black as B, Red as R};

/// Every character of the pieces, the simplified ones first, in the learning order.
pub const CHARACTERS: [PieceCharacter; 18] = [
    PieceCharacter {
        character: '帅',
        pinyin: "shuài",
        kind: PieceKind::General,
        forms: &[(S, R)],
        aid: Aid {
            en: "Red's general, the commander: 巾 on the right is a banner on its pole — the commander's flag.",
            ru: "Генерал красных, полководец: 巾 справа — знамя на древке, флаг полководца.",
            zh: "红方的帅：右边的“巾”像挂在旗杆上的军旗，是主帅的帅旗。",
        },
    },
    PieceCharacter {
        character: '将',
        pinyin: "jiàng",
        kind: PieceKind::General,
        forms: &[(S, B)],
        aid: Aid {
            en: "Black's general: 丬 on the left stands like a spear planted upright, and 寸 below on the right is the hand that holds command.",
            ru: "Генерал чёрных: 丬 слева — копьё, воткнутое в землю, а 寸 справа внизу — рука, держащая власть.",
            zh: "黑方的将：左边“丬”像插在地上的长枪，右下的“寸”是掌兵权的手。",
        },
    },
    PieceCharacter {
        character: '车',
        pinyin: "jū",
        kind: PieceKind::Chariot,
        forms: &[(S, R), (S, B)],
        aid: Aid {
            en: "车: a cart seen from above: the upright stroke is the axle, the crossing strokes the body and the wheels. As a piece it is read jū, not chē.",
            ru: "车 — повозка, если смотреть сверху: вертикальная черта — ось, поперечные — кузов и колёса. Как фигура читается jū, а не chē.",
            zh: "从上往下看的一辆车：一竖是车轴，几横是车厢和车轮。在象棋里读“jū”，不读“chē”。",
        },
    },
    PieceCharacter {
        character: '马',
        pinyin: "mǎ",
        kind: PieceKind::Horse,
        forms: &[(S, R), (S, B)],
        aid: Aid {
            en: "马: a horse in three strokes: its head and mane at the top, its back, and the hook of its tail at the bottom.",
            ru: "马 — конь в три черты: голова и грива вверху, спина, а внизу крючок хвоста.",
            zh: "三笔画出一匹马：上边是马头和鬃毛，中间是马背，下边的钩是马尾。",
        },
    },
    PieceCharacter {
        character: '炮',
        pinyin: "pào",
        kind: PieceKind::Cannon,
        forms: &[(S, R), (S, B), (T, R)],
        aid: Aid {
            en: "火 (fire) beside 包 (a wrapped bundle): gunpowder wrapped up and set alight — the cannon.",
            ru: "火 «огонь» рядом с 包 «свёрток»: завёрнутый порох, который поджигают, — пушка.",
            zh: "火字旁加“包”：把火药包起来点燃，就是炮。",
        },
    },
    PieceCharacter {
        character: '兵',
        pinyin: "bīng",
        kind: PieceKind::Soldier,
        forms: &[(S, R), (T, R)],
        aid: Aid {
            en: "Red's soldier: an axe (斤) at the top held up by two hands below — a foot soldier with his weapon.",
            ru: "Солдат красных: вверху топор (斤), внизу две руки, что его держат, — пехотинец с оружием.",
            zh: "红方的兵：上边像一把斧头“斤”，下边两笔是双手，双手持斧就是兵。",
        },
    },
    PieceCharacter {
        character: '卒',
        pinyin: "zú",
        kind: PieceKind::Soldier,
        forms: &[(S, B), (T, B)],
        aid: Aid {
            en: "Black's soldier: a foot soldier's tunic — the hat (亠) on top, two marks on the chest, and the cross (十) of a badge below.",
            ru: "Солдат чёрных: мундир пехотинца — шапка (亠) наверху, две метки на груди и крест (十) нашивки внизу.",
            zh: "黑方的卒：像古代士兵穿的号衣，上边是帽子“亠”，中间两点是衣上的记号，下边是“十”。",
        },
    },
    PieceCharacter {
        character: '仕',
        pinyin: "shì",
        kind: PieceKind::Advisor,
        forms: &[(S, R), (T, R)],
        aid: Aid {
            en: "Red's advisor: a person (亻) beside a scholar (士) — the scholar-official at the general's side.",
            ru: "Советник красных: человек (亻) рядом с учёным (士) — учёный чиновник при генерале.",
            zh: "红方的仕：单人旁“亻”加“士”，是在主帅身边做官的读书人。",
        },
    },
    PieceCharacter {
        character: '士',
        pinyin: "shì",
        kind: PieceKind::Advisor,
        forms: &[(S, B), (T, B)],
        aid: Aid {
            en: "Black's advisor: a cross on a short base, the top stroke longer than the bottom one (in 土, earth, it is the other way round) — a scholar standing straight.",
            ru: "Советник чёрных: крест на коротком основании, верхняя черта длиннее нижней (в 土 «земля» наоборот) — учёный стоит прямо.",
            zh: "黑方的士：上横长、下横短，和“土”正好相反，像一位站得笔直的读书人。",
        },
    },
    PieceCharacter {
        character: '相',
        pinyin: "xiàng",
        kind: PieceKind::Elephant,
        forms: &[(S, R), (T, R)],
        aid: Aid {
            en: "Red's elephant, the minister: a tree (木) beside an eye (目), and the eye looks like a ladder — the minister climbs it to look over the land.",
            ru: "Слон красных, сановник: дерево (木) рядом с глазом (目), а глаз похож на лесенку — сановник поднимается по ней, чтобы осмотреть земли.",
            zh: "红方的相：左边“木”，右边“目”，“目”像一架梯子，宰相登高望远，看清全局。",
        },
    },
    PieceCharacter {
        character: '象',
        pinyin: "xiàng",
        kind: PieceKind::Elephant,
        forms: &[(S, B), (T, B)],
        aid: Aid {
            en: "象: Black's elephant: an elephant drawn standing on end — the head and trunk at the top, the body and the legs below.",
            ru: "象 — слон чёрных: слон, нарисованный стоя, — наверху голова с хоботом, ниже туловище и ноги.",
            zh: "黑方的象：像一头竖起来画的大象，上边是头和长鼻子，下边是身子和腿。",
        },
    },
    PieceCharacter {
        character: '帥',
        pinyin: "shuài",
        kind: PieceKind::General,
        forms: &[(T, R)],
        aid: Aid {
            en: "The traditional form of 帅: the same banner (巾) on the right, and on the left the old sign for an army.",
            ru: "Традиционная форма 帅: справа то же знамя (巾), слева старый знак «войско».",
            zh: "“帅”的繁体：右边还是军旗“巾”，左边是古代表示军队的字形。",
        },
    },
    PieceCharacter {
        character: '將',
        pinyin: "jiàng",
        kind: PieceKind::General,
        forms: &[(T, B)],
        aid: Aid {
            en: "The traditional form of 将: the spear on the left is written in full (爿), and the hand (寸) is still below on the right.",
            ru: "Традиционная форма 将: копьё слева написано полностью (爿), а рука (寸) по-прежнему справа внизу.",
            zh: "“将”的繁体：左边的长枪写成“爿”，右下仍是手“寸”。",
        },
    },
    PieceCharacter {
        character: '俥',
        pinyin: "jū",
        kind: PieceKind::Chariot,
        forms: &[(T, R)],
        aid: Aid {
            en: "Red's chariot in traditional sets: the chariot 車 with a person (亻) in front — a chariot with its driver.",
            ru: "Колесница красных в традиционных наборах: колесница 車 с человеком (亻) впереди — с возницей.",
            zh: "繁体棋子里红方的车：单人旁“亻”加“車”，是有人驾驶的车。",
        },
    },
    PieceCharacter {
        character: '車',
        pinyin: "jū",
        kind: PieceKind::Chariot,
        forms: &[(T, B)],
        aid: Aid {
            en: "The old chariot, Black's in traditional sets: the box (田) in the middle is its body, the strokes above and below the wheels on their axle.",
            ru: "Старая колесница, у чёрных в традиционных наборах: квадрат (田) в середине — кузов, черты сверху и снизу — колёса на оси.",
            zh: "繁体棋子里黑方的车：中间的“田”是车厢，上下两横是车轮，一竖是车轴。",
        },
    },
    PieceCharacter {
        character: '傌',
        pinyin: "mǎ",
        kind: PieceKind::Horse,
        forms: &[(T, R)],
        aid: Aid {
            en: "Red's horse in traditional sets: the horse 馬 with a person (亻) in front — a horse with its rider.",
            ru: "Конь красных в традиционных наборах: конь 馬 с человеком (亻) впереди — со всадником.",
            zh: "繁体棋子里红方的马：单人旁“亻”加“馬”，是有人骑的马。",
        },
    },
    PieceCharacter {
        character: '馬',
        pinyin: "mǎ",
        kind: PieceKind::Horse,
        forms: &[(T, B)],
        aid: Aid {
            en: "馬: the old horse, Black's in traditional sets: the mane flying at the top, and four dots below — four legs at the gallop.",
            ru: "馬 — старый конь, у чёрных в традиционных наборах: вверху развевается грива, внизу четыре точки — четыре ноги в галопе.",
            zh: "繁体棋子里黑方的马：上边是飘起的鬃毛，下边四点是奔跑的四条腿。",
        },
    },
    PieceCharacter {
        character: '包',
        pinyin: "bāo",
        kind: PieceKind::Cannon,
        forms: &[(T, B)],
        aid: Aid {
            en: "Black's cannon in traditional sets: the cannon's 炮 without its fire (火) — only the bundle (包). Players still call the piece pào.",
            ru: "Пушка чёрных в традиционных наборах: 炮 без огня (火) — один свёрток (包). Фигуру всё равно называют pào.",
            zh: "繁体棋子里黑方的炮：把“炮”的火字旁去掉，只剩“包”。棋手仍叫它“炮”。",
        },
    },
];

/// The character of the piece `kind` of `side` in `set`.
pub fn character_of(kind: PieceKind, side: Color, set: CharacterSet) -> &'static PieceCharacter {
    CHARACTERS
        .iter()
        .find(|c| c.kind == kind && c.forms.contains(&(set, side)))
        .expect("every piece has a character in each set for each side")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::problems;
    use std::collections::HashSet;

    #[test]
    fn every_piece_has_one_character_per_set_and_side() {
        for kind in LEARNING_ORDER {
            for set in CharacterSet::ALL {
                for side in [Color::Red, Color::Black] {
                    let found = CHARACTERS
                        .iter()
                        .filter(|c| c.kind == kind && c.forms.contains(&(set, side)))
                        .count();
                    assert_eq!(found, 1, "{kind:?} {set:?} {side:?}");
                }
            }
        }
        let distinct: HashSet<char> = CHARACTERS.iter().map(|c| c.character).collect();
        assert_eq!(distinct.len(), CHARACTERS.len(), "a character listed twice");
    }

    #[test]
    fn the_traditional_set_tells_every_piece_apart_by_side_and_the_simplified_four() {
        let differs = |set| {
            LEARNING_ORDER
                .iter()
                .filter(|&&k| {
                    character_of(k, Color::Red, set).character
                        != character_of(k, Color::Black, set).character
                })
                .count()
        };
        assert_eq!(differs(CharacterSet::Traditional), 7);
        assert_eq!(differs(CharacterSet::Simplified), 4);
        assert_eq!(
            character_of(PieceKind::Chariot, Color::Red, CharacterSet::Traditional).character,
            '俥'
        );
        assert_eq!(
            character_of(PieceKind::Chariot, Color::Black, CharacterSet::Traditional).character,
            '車'
        );
    }

    #[test]
    fn the_simplified_set_is_the_one_the_notation_writes() {
        // The Chinese notation names the pieces by the simplified characters (Red's, as the
        // rules core writes them in a Chinese move).
        let pos = xiangqi_rules::Position::startpos();
        for (text, kind) in [("h2e2", PieceKind::Cannon), ("b0c2", PieceKind::Horse)] {
            let m: xiangqi_rules::Move = text.parse().unwrap();
            let written = xiangqi_rules::notation::format_move(
                &pos,
                m,
                xiangqi_rules::notation::Notation::Chinese,
            );
            let c = character_of(kind, Color::Red, CharacterSet::Simplified).character;
            assert!(written.starts_with(c), "{written} {c}");
        }
    }

    #[test]
    fn every_aid_is_written_in_each_language_and_shows_characters() {
        for c in &CHARACTERS {
            // Pinyin with its tone mark (every piece's reading carries one).
            assert!(!c.pinyin.is_ascii(), "{}: {}", c.character, c.pinyin);
            for lang in Lang::ALL {
                let aid = c.aid.get(lang);
                assert!(aid.chars().count() > 20, "{} {lang}: {aid}", c.character);
                assert!(
                    aid.chars()
                        .any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch)),
                    "{} {lang}: the aid points at the shape",
                    c.character
                );
                assert!(
                    problems(lang, aid).is_empty(),
                    "{} {lang}: {:?}",
                    c.character,
                    problems(lang, aid)
                );
            }
        }
    }
}
