//! Start positions drawn from endgame tables, for matches from endgame starts
//! (`scripts/egtb-match`): for each ending, positions won by the stronger side and drawn
//! positions, the stronger side to move and neither side in check, one FEN a line with its
//! verdict as a comment (`FEN ; KNKA win 23`).
//!
//! Usage: `egtb_starts DIR WINS DRAWS MIN_DISTANCE SEED ENDING…` — the tables in DIR (with
//! every ending their captures lead to), WINS won and DRAWS drawn positions per ending (all
//! there are when fewer), wins at least MIN_DISTANCE plies from mate, drawn with SEED.

use xiangqi_egtb::{Ending, Tablebases, Value};
use xiangqi_rules::Position;
use xiangqi_rules::random::SplitMix64;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 6 {
        eprintln!("usage: egtb_starts DIR WINS DRAWS MIN_DISTANCE SEED ENDING...");
        std::process::exit(2);
    }
    let number = |i: usize| -> u64 {
        args[i].parse().unwrap_or_else(|_| {
            eprintln!("'{}' is not a whole number", args[i]);
            std::process::exit(2)
        })
    };
    let (wins, draws, min_distance, seed) = (number(1), number(2), number(3), number(4));
    let tables = Tablebases::open(&args[0]).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let mut random = SplitMix64::new(seed);
    for name in &args[5..] {
        let ending = Ending::parse(name).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        });
        let table = tables.table(ending).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
        let mut won = Vec::new();
        let mut drawn = Vec::new();
        for (fen, value, _) in table.positions(0) {
            let quiet = |fen: &str| {
                let pos = Position::from_fen(fen).expect("a table's legal entry is a position");
                !pos.in_check()
            };
            match value {
                Value::Win(d) if u64::from(d) >= min_distance && quiet(&fen) => {
                    won.push((fen, value))
                }
                Value::Draw if quiet(&fen) => drawn.push((fen, value)),
                _ => {}
            }
        }
        for (list, count) in [(&mut won, wins), (&mut drawn, draws)] {
            random.shuffle(list);
            for (fen, value) in list.iter().take(count as usize) {
                println!("{fen} ; {} {value}", ending.name());
            }
        }
    }
}
