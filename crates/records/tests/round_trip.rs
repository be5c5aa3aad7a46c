//! Every format written and read back gives the same game tree: moves, variations, comments,
//! NAGs where the format has them, tags, start position and result.

mod support;

use support::random_games::{Features, Rng, game};
use xiangqi_records::{Game, dhtmlxq, pgn, xqf};
use xiangqi_rules::notation::Notation;

const GAMES: u64 = 150;

fn check(original: &Game, read: &Game, what: &str) {
    assert_eq!(read, original, "{what}");
}

#[test]
fn pgn_in_every_notation_reads_back_the_same_tree() {
    for seed in 0..GAMES {
        let mut rng = Rng::new(seed);
        let original = game(&mut rng, 60, 3, Features::PGN);
        for notation in Notation::ALL {
            let text = pgn::write_game(&original, notation).unwrap();
            let games = pgn::read_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(games.len(), 1);
            check(
                &original,
                &games[0],
                &format!("seed {seed}, {notation}\n{text}"),
            );
        }
    }
}

#[test]
fn many_games_in_one_pgn_file_read_back_in_order() {
    let mut rng = Rng::new(77);
    let games: Vec<Game> = (0..20)
        .map(|_| game(&mut rng, 30, 2, Features::PGN))
        .collect();
    let text = pgn::write_games(&games, Notation::Wxf).unwrap();
    assert_eq!(pgn::read_str(&text).unwrap(), games);
}

#[test]
fn xqf_reads_back_the_same_tree() {
    for seed in 0..GAMES {
        let mut rng = Rng::new(1000 + seed);
        let original = game(&mut rng, 60, 3, Features::XQF);
        let bytes = xqf::write(&original).unwrap().bytes;
        let read = xqf::read(&bytes).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        check(&original, &read, &format!("seed {seed}"));
    }
}

#[test]
fn dhtmlxq_reads_back_the_same_tree() {
    for seed in 0..GAMES {
        let mut rng = Rng::new(2000 + seed);
        let original = game(&mut rng, 60, 3, Features::DHTMLXQ);
        let text = dhtmlxq::write_game(&original).unwrap();
        let games = dhtmlxq::read_str(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        assert_eq!(games.len(), 1);
        check(&original, &games[0], &format!("seed {seed}\n{text}"));
    }
}

#[test]
fn converting_through_every_format_keeps_what_they_share() {
    for seed in 0..40 {
        let mut rng = Rng::new(3000 + seed);
        let original = game(&mut rng, 50, 2, Features::XQF);
        let via_xqf = xqf::read(&xqf::write(&original).unwrap().bytes).unwrap();
        let text = dhtmlxq::write_game(&via_xqf).unwrap();
        let via_dhtml = dhtmlxq::read_str(&text).unwrap().remove(0);
        let pgn_text = pgn::write_game(&via_dhtml, Notation::Chinese).unwrap();
        let via_pgn = pgn::read_str(&pgn_text).unwrap().remove(0);
        check(&original, &via_pgn, &format!("seed {seed}"));
    }
}
