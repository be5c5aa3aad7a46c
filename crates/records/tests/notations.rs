//! Notations converted on every move of many games made by random play: each notation reads
//! back its own text, PGN converts from notation to notation, and the algebraic moves of the
//! `[Variant "xiangqi"]` dialect read back in either rank counting.

mod support;

use support::random_games::{Features, Rng, game};
use xiangqi_records::{Game, pgn};
use xiangqi_rules::notation::{Notation, format_move, parse_any, parse_move};
use xiangqi_rules::{Move, PieceKind, Position};

/// The positions and moves of the main line of a game made by random play.
fn random_play(seed: u64, plies: usize) -> Vec<(Position, Move)> {
    let mut rng = Rng::new(seed);
    let mut pos = Position::startpos();
    let mut out = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = *rng.pick(legal.as_slice());
        out.push((pos.clone(), m));
        pos.make_move(m);
    }
    out
}

#[test]
fn every_legal_move_of_many_games_reads_back_in_each_notation() {
    let mut checked = 0;
    for seed in 0..40 {
        for (pos, _) in random_play(seed, 150) {
            for &m in pos.legal_moves().iter() {
                for notation in Notation::ALL {
                    let text = format_move(&pos, m, notation);
                    assert_eq!(
                        parse_move(&pos, &text, notation),
                        Ok(m),
                        "{text} in {pos:?}"
                    );
                    assert_eq!(parse_any(&pos, &text), Ok(m), "{text} in {pos:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn pgn_converts_from_notation_to_notation() {
    for seed in 0..60 {
        let mut rng = Rng::new(500 + seed);
        let original = game(&mut rng, 80, 2, Features::PGN);
        let mut current = original.clone();
        let first = pgn::write_game(&current, Notation::Iccs).unwrap();
        for notation in [Notation::Wxf, Notation::Chinese, Notation::Iccs] {
            let text = pgn::write_game(&current, notation).unwrap();
            current = pgn::read_str(&text).unwrap().remove(0);
            assert_eq!(current, original, "seed {seed}, {notation}");
        }
        assert_eq!(pgn::write_game(&current, Notation::Iccs).unwrap(), first);
    }
}

/// The algebraic form of `m`: piece letter, as much of the origin as it takes to be
/// unambiguous (or all of it), target; ranks from `base`.
fn algebraic(pos: &Position, m: Move, base: u8, full: bool) -> String {
    let kind = pos.piece_at(m.from()).expect("a piece moves").kind;
    let letter = kind.fen_letter();
    let file = |sq: xiangqi_rules::Square| sq.file_char();
    let rank = |sq: xiangqi_rules::Square| (sq.rank() + base).to_string();
    let capture = if pos.piece_at(m.to()).is_some() {
        "x"
    } else {
        ""
    };
    let target = format!("{}{}", file(m.to()), rank(m.to()));
    if full {
        return format!(
            "{letter}{}{}{capture}{target}",
            file(m.from()),
            rank(m.from())
        );
    }
    let rivals: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|o| *o != m && o.to() == m.to())
        .filter(|o| pos.piece_at(o.from()).map(|p| p.kind) == Some(kind))
        .collect();
    let origin = if rivals.is_empty() {
        if kind == PieceKind::Soldier && m.from().file() != m.to().file() {
            file(m.from()).to_string()
        } else {
            String::new()
        }
    } else if rivals.iter().all(|o| o.from().file() != m.from().file()) {
        file(m.from()).to_string()
    } else {
        format!("{}{}", file(m.from()), rank(m.from()))
    };
    let letter = if kind == PieceKind::Soldier && origin.is_empty() {
        String::new()
    } else {
        letter.to_string()
    };
    format!("{letter}{origin}{capture}{target}")
}

fn variant_pgn(moves: &[(Position, Move)], base: u8, full: bool) -> String {
    let mut text = String::from("[Variant \"xiangqi\"]\n[White \"Red player\"]\n\n");
    for (i, (pos, m)) in moves.iter().enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(&algebraic(pos, *m, base, full));
        text.push(' ');
    }
    text.push('*');
    text
}

/// Whether an algebraic text names a point on the rank written `rank`.
fn names_rank(text: &str, rank: &str) -> bool {
    let b = text.as_bytes();
    (1..b.len()).any(|i| {
        (b'a'..=b'i').contains(&b[i - 1])
            && text[i..].starts_with(rank)
            && !b.get(i + rank.len()).is_some_and(u8::is_ascii_digit)
    })
}

#[test]
fn variant_dialect_reads_algebraic_moves_of_many_games() {
    for seed in 0..80 {
        let moves = random_play(10_000 + seed, 120);
        let expected: Vec<Move> = moves.iter().map(|(_, m)| *m).collect();
        for (base, full) in [(1, false), (1, true), (0, false), (0, true)] {
            let text = variant_pgn(&moves, base, full);
            let games: Vec<Game> =
                pgn::read_str(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            let read: Vec<Move> = games[0].mainline().collect();
            // With no rank 0 or 10 named, ranks from 0 cannot be told from ranks from 1, and
            // the dialect's usual counting (from 1) is taken.
            let tell = names_rank(&text, "10") || names_rank(&text, "0");
            if base == 1 || tell {
                assert_eq!(read, expected, "seed {seed}, base {base}\n{text}");
            }
            assert_eq!(games[0].tags.get("Red"), Some("Red player"));
        }
    }
}
