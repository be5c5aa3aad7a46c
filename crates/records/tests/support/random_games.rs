//! Games made by random play from a seeded generator: start positions, move trees with
//! variations, comments, NAGs and tags.

use xiangqi_records::{Game, GameResult, Line, MoveNode, Nag};
use xiangqi_rules::random::SplitMix64;
use xiangqi_rules::{Position, START_FEN};

/// The workspace's seeded generator, with the draws these games are made of.
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        self.0.pick(items).expect("something to pick from")
    }
}

/// What a format keeps, so that generated games hold only that.
#[derive(Clone, Copy, Debug)]
pub struct Features {
    /// NAGs on moves.
    pub nags: bool,
    /// Comments before the first move of a variation.
    pub variation_comments: bool,
    /// Comments with `}` and other characters that need care.
    pub awkward_comments: bool,
    /// Any tag name, or only those the format has a place for.
    pub any_tags: bool,
    /// Long tag values (XQF cuts them).
    pub long_tags: bool,
}

impl Features {
    /// Everything PGN keeps.
    pub const PGN: Features = Features {
        nags: true,
        variation_comments: true,
        awkward_comments: true,
        any_tags: true,
        long_tags: true,
    };
    /// What DhtmlXQ keeps.
    pub const DHTMLXQ: Features = Features {
        nags: false,
        variation_comments: false,
        awkward_comments: true,
        any_tags: true,
        long_tags: true,
    };
    /// What XQF keeps.
    pub const XQF: Features = Features {
        nags: false,
        variation_comments: false,
        awkward_comments: false,
        any_tags: false,
        long_tags: false,
    };
}

const COMMENTS: [&str; 8] = [
    "好棋",
    "Red threatens mate.",
    "中炮对屏风马，红方先手。",
    "line one\nline two",
    "黑方应以\n马8进7为正。",
    "a (note) with [brackets]",
    "x",
    "1-0 is not the result here",
];

const AWKWARD_COMMENTS: [&str; 6] = [
    "a } brace",
    "pipes | and || here",
    "back\\slash \\u0041 not an escape",
    "[/DhtmlXQ_comment1] inside",
    "{ open brace",
    "two }\nlines } here",
];

/// A random comment.
pub fn comment(rng: &mut Rng, features: Features) -> String {
    if features.awkward_comments && rng.chance(30) {
        rng.pick(&AWKWARD_COMMENTS).to_string()
    } else {
        rng.pick(&COMMENTS).to_string()
    }
}

/// A random line of at most `max_len` moves from `pos`, with variations down to `depth`.
pub fn line(
    rng: &mut Rng,
    pos: &Position,
    max_len: usize,
    depth: usize,
    features: Features,
) -> Line {
    let mut line = Line::default();
    let mut pos = pos.clone();
    for _ in 0..max_len {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = *rng.pick(legal.as_slice());
        let mut node = MoveNode::new(m);
        if features.nags && rng.chance(10) {
            node.nags.push(Nag(1 + rng.below(20) as u8));
        }
        if rng.chance(15) {
            node.comment = Some(comment(rng, features));
        }
        if depth > 0 && legal.len() > 1 && rng.chance(12) {
            for _ in 0..1 + rng.below(2) {
                let mut alt = line_with_first(rng, &pos, m, max_len / 3 + 1, depth - 1, features);
                if features.variation_comments && rng.chance(30) {
                    alt.comment = Some(comment(rng, features));
                }
                if !alt.moves.is_empty() {
                    node.variations.push(alt);
                }
            }
        }
        pos.make_move(m);
        line.moves.push(node);
    }
    line
}

/// A random line from `pos` whose first move is not `avoid`.
fn line_with_first(
    rng: &mut Rng,
    pos: &Position,
    avoid: xiangqi_rules::Move,
    max_len: usize,
    depth: usize,
    features: Features,
) -> Line {
    let legal: Vec<_> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| *m != avoid)
        .collect();
    if legal.is_empty() {
        return Line::default();
    }
    let first = *rng.pick(&legal);
    let mut node = MoveNode::new(first);
    if rng.chance(20) {
        node.comment = Some(comment(rng, features));
    }
    let rest = line(
        rng,
        &pos.after(first),
        max_len.saturating_sub(1),
        depth,
        features,
    );
    let mut out = Line {
        comment: None,
        moves: vec![node],
    };
    out.moves.extend(rest.moves);
    out
}

/// A start position: the standard one, or one reached by random play (either side to move),
/// with the counters at 0 and 1.
pub fn start(rng: &mut Rng) -> Position {
    if rng.chance(50) {
        return Position::from_fen(START_FEN).expect("start");
    }
    let mut pos = Position::startpos();
    for _ in 0..rng.below(40) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        pos.make_move(*rng.pick(legal.as_slice()));
    }
    let fen = pos.to_fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    Position::from_fen(&format!("{} {} - - 0 1", fields[0], fields[1])).expect("reached")
}

/// Random tags that a format with `features` keeps.
pub fn tags(rng: &mut Rng, game: &mut Game, features: Features) {
    let names: &[&str] = if features.any_tags {
        &[
            "Event",
            "Site",
            "Date",
            "Round",
            "RedTeam",
            "Red",
            "BlackTeam",
            "Black",
            "Opening",
            "ECCO",
            "Annotator",
            "TimeControl",
            "Variation",
        ]
    } else {
        &[
            "Title",
            "Event",
            "Date",
            "Site",
            "Red",
            "Black",
            "Opening",
            "Annotator",
            "Author",
        ]
    };
    let values: &[&str] = if features.long_tags {
        &[
            "许银川",
            "广东",
            "2024.05.01",
            "第24届“五羊杯”全国冠军邀请赛",
            "Hu Ronghua \"the Master\"",
            "a\\b",
            "C45",
        ]
    } else {
        &["许银川", "广东", "2024.05.01", "Hu", "C45", "五羊杯"]
    };
    for name in names {
        if rng.chance(50) {
            let value = *rng.pick(values);
            game.tags.set(name, value);
        }
    }
}

/// A random game with `features`.
pub fn game(rng: &mut Rng, max_len: usize, depth: usize, features: Features) -> Game {
    let mut game = Game::new(start(rng));
    tags(rng, &mut game, features);
    game.moves = line(rng, &game.start.clone(), max_len, depth, features);
    if rng.chance(30) {
        game.moves.comment = Some(comment(rng, features));
    }
    game.result = *rng.pick(&[
        Some(GameResult::RedWins),
        Some(GameResult::BlackWins),
        Some(GameResult::Draw),
        None,
    ]);
    game.normalize();
    game
}
