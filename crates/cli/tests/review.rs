//! `xiangqi review` as a user runs it: the move that throws away material is flagged as a
//! blunder, the written PGN carries NAGs and comments, the summary is printed, and bad input
//! is an error with exit code 2.
//!
//! The games with a thrown-away piece are made here, the same way each run: from the start
//! position, one of 12 fixed two-ply openings, then the engine plays itself for 3 to 6 plies
//! at depth 5 (game *i*: opening *i* mod 12, 3 + ⌊*i* / 12⌋ mod 4 plies, so the first 48
//! games differ); then the side to move plays the first move (in ICCS order) of a chariot
//! or horse that the engine's best reply captures on its new point and that drops the
//! engine's evaluation by at least 400 cp from a level position (|score| ≤ 150 before);
//! then the engine plays itself 4 more plies. Games where no such move exists are skipped,
//! and the next ones tried, up to four times as many as the games wanted.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;
use support::xiangqi;
use xiangqi_engine::score::Reported;
use xiangqi_engine::{Engine, EngineOptions, SearchLimits, SearchRequest, SearchResult};
use xiangqi_records::{Game, Line, Nag, OutputFormat, RecordFormat};
use xiangqi_rules::notation::Notation;
use xiangqi_rules::{Move, PieceKind, Position};

/// A fresh folder for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-review-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_string_lossy().into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn assert_ok(out: &Output) {
    assert!(out.status.success(), "stderr: {}", stderr(out));
}

/// The games of the review written to `dir`/out.pgn.
fn reviewed_games(dir: &Path) -> Vec<Game> {
    let bytes = std::fs::read(dir.join("out.pgn")).unwrap();
    RecordFormat::Pgn
        .read(&bytes)
        .unwrap()
        .into_games()
        .unwrap()
}

/// Depth of the engine that makes the games.
const MAKER_DEPTH: i32 = 5;
/// Depth of the review.
const REVIEW_DEPTH: &str = "6";
/// The fewest centipawns the thrown-away move must lose.
const DROP: i32 = 400;
/// The openings the games start from.
const OPENINGS: [&str; 12] = [
    "h2e2 h9g7",
    "b2e2 b9c7",
    "h0g2 h9g7",
    "c3c4 g6g5",
    "b0c2 b9c7",
    "g3g4 c6c5",
    "h2e2 b9c7",
    "b2d2 h7e7",
    "c0e2 h9g7",
    "h2f2 b7e7",
    "g0e2 c6c5",
    "b2c2 h9i7",
];

fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| m.parse().expect("ICCS move"))
        .collect()
}

fn search(engine: &Engine, pos: &Position) -> SearchResult {
    let limits = SearchLimits {
        depth: Some(MAKER_DEPTH),
        ..Default::default()
    };
    engine.think(&SearchRequest::new(pos.clone(), limits), &mut |_| {})
}

fn centipawns(score: Reported) -> i32 {
    match score {
        Reported::Cp(cp) => cp,
        Reported::Mate(n) if n > 0 => 30_000,
        Reported::Mate(_) => -30_000,
    }
}

/// Plays `plies` engine moves from `pos`, appending them to `line`; false when the game ends.
fn self_play(engine: &Engine, pos: &mut Position, line: &mut Vec<Move>, plies: usize) -> bool {
    for _ in 0..plies {
        let Some(m) = search(engine, pos).best_move else {
            return false;
        };
        pos.make_move(m);
        line.push(m);
    }
    true
}

/// The first chariot or horse move (ICCS order) of `pos` that hangs the piece: the best reply
/// takes it and the evaluation drops by at least [`DROP`] from a level position.
fn hanging_move(engine: &Engine, pos: &Position) -> Option<Move> {
    let before = centipawns(search(engine, pos).score);
    if before.abs() > 150 {
        return None;
    }
    let mut candidates: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| {
            pos.piece_at(m.from())
                .is_some_and(|p| matches!(p.kind, PieceKind::Chariot | PieceKind::Horse))
        })
        .collect();
    candidates.sort_by_key(|m| m.to_string());
    candidates.into_iter().find(|&m| {
        let after = pos.after(m);
        let reply = search(engine, &after);
        let after_cp = -centipawns(reply.score);
        reply.best_move.is_some_and(|r| r.to() == m.to()) && before - after_cp >= DROP
    })
}

/// A generated game and the index of its thrown-away move in the main line.
struct Generated {
    game: Game,
    thrown: usize,
}

/// Makes game `index` (see the module doc), or `None` when it has no move that hangs a piece.
fn make_game(engine: &Engine, index: usize) -> Option<Generated> {
    engine.new_game();
    let mut pos = Position::startpos();
    let mut line = moves(OPENINGS[index % OPENINGS.len()]);
    for &m in &line {
        pos.make_move(m);
    }
    if !self_play(engine, &mut pos, &mut line, 3 + index / OPENINGS.len() % 4) {
        return None;
    }
    let thrown = line.len();
    let m = hanging_move(engine, &pos)?;
    pos.make_move(m);
    line.push(m);
    self_play(engine, &mut pos, &mut line, 4);
    let mut game = Game::new(Position::startpos());
    game.moves = Line::from_moves(line);
    Some(Generated { game, thrown })
}

fn main_line_nags(game: &Game) -> Vec<Vec<Nag>> {
    game.moves.moves.iter().map(|n| n.nags.clone()).collect()
}

#[test]
fn the_move_that_throws_away_a_piece_is_flagged_as_the_blunder() {
    let count: usize = std::env::var("REVIEW_TEST_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(12);
    let engine = Engine::new(EngineOptions {
        threads: 1,
        ..EngineOptions::default()
    });
    // Games without such a move are skipped: up to four times as many are tried.
    let made: Vec<Generated> = (0..count * 4)
        .filter_map(|i| make_game(&engine, i))
        .take(count)
        .collect();
    assert!(made.len() * 2 >= count, "only {} games made", made.len());
    let dir = scratch("blunders");
    let games: Vec<Game> = made.iter().map(|g| g.game.clone()).collect();
    let written = OutputFormat::Pgn(Notation::Iccs).write(&games).unwrap();
    std::fs::write(dir.join("in.pgn"), written.bytes).unwrap();
    let out = xiangqi(&[
        "review",
        &path(&dir, "in.pgn"),
        &path(&dir, "out.pgn"),
        "--depth",
        REVIEW_DEPTH,
        "--notation",
        "iccs",
    ]);
    assert_ok(&out);
    let reviewed = reviewed_games(&dir);
    assert_eq!(reviewed.len(), made.len());
    let (mut hits, mut others, mut most_others) = (0, 0, 0);
    for (generated, game) in made.iter().zip(&reviewed) {
        let nags = main_line_nags(game);
        assert_eq!(nags.len(), generated.game.moves.moves.len());
        if nags[generated.thrown].contains(&Nag(4)) {
            hits += 1;
        }
        let other = nags
            .iter()
            .enumerate()
            .filter(|&(i, n)| i != generated.thrown && n.contains(&Nag(4)))
            .count();
        others += other;
        most_others = most_others.max(other);
    }
    eprintln!(
        "{} games: thrown-away move flagged $4 in {hits}, other moves flagged $4: {others} \
         (at most {most_others} in one game)",
        made.len()
    );
    assert_eq!(hits, made.len(), "every thrown-away move is a blunder");
    assert!(most_others <= 2, "{most_others} other blunders in one game");
}

/// The path of `relative`, a file named from this crate's folder.
fn crate_file(relative: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(relative)
        .to_string_lossy()
        .into_owned()
}

/// The first 60 moves of an engine self-play game, from a set-up position.
fn sixty_moves() -> String {
    crate_file("tests/data/sixty-moves.pgn")
}

#[test]
fn every_move_gets_a_comment_the_marked_ones_a_nag_and_the_summary_is_printed() {
    let dir = scratch("sixty");
    let out = xiangqi(&[
        "review",
        &sixty_moves(),
        &path(&dir, "out.pgn"),
        "--depth",
        "3",
        "--notation",
        "wxf",
    ]);
    assert_ok(&out);
    let text = std::fs::read_to_string(dir.join("out.pgn")).unwrap();
    assert!(text.contains("[Format \"WXF\"]"), "{text}");
    let game = reviewed_games(&dir);
    let nodes = &game[0].moves.moves;
    assert_eq!(nodes.len(), 120);
    let classes = [
        "only",
        "best",
        "excellent",
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    ];
    for node in nodes {
        let comment = node.comment.as_deref().unwrap_or_default();
        let class = classes
            .iter()
            .find(|c| comment.starts_with(*c))
            .unwrap_or_else(|| panic!("comment {comment:?}"));
        // Only an only move and the errors carry a glyph; a good move is not marked "!".
        let nags: Vec<Nag> = match *class {
            "only" => vec![Nag(1)],
            "inaccuracy" => vec![Nag(6)],
            "mistake" => vec![Nag(2)],
            "blunder" => vec![Nag(4)],
            _ => vec![],
        };
        assert_eq!(node.nags, nags, "{comment}");
        // A move that was not the engine's choice names the better one.
        let engines = matches!(*class, "best" | "only");
        assert_eq!(!engines, comment.contains("; better was "), "{comment}");
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("game 1: xiangqi (Red) vs xiangqi (Black), 120 moves\n"));
    assert!(stdout.contains("\n  Red   accuracy "), "{stdout}");
    assert!(stdout.contains("\n  Black accuracy "), "{stdout}");
    // Not a terminal: one progress line per tenth, the last at 100%.
    let progress = stderr(&out);
    let lines: Vec<&str> = progress.lines().collect();
    assert_eq!(lines.len(), 10, "{progress}");
    assert_eq!(lines[9], "game 1: 100% (120/120 moves)");
}

#[test]
fn review_rejects_bad_input_with_exit_code_2() {
    let dir = scratch("bad");
    let out_file = path(&dir, "out.pgn");
    let missing = path(&dir, "missing.pgn");
    let out = xiangqi(&["review", &missing, &out_file]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with(&format!("error: cannot read {missing}: ")));

    let illegal = path(&dir, "illegal.pgn");
    std::fs::write(&illegal, "[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. h2e2 *\n").unwrap();
    let out = xiangqi(&["review", &illegal, &out_file, "--depth", "2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains(&format!("error: {illegal} (PGN)")), "{err}");
    assert!(err.contains("h2e2"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let out = xiangqi(&["review", &sixty_moves(), &out_file, "--game", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holds 1 game(s), not 2"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.join("out.pgn").exists());
}

#[test]
fn game_picks_one_game_of_a_collection() {
    let dir = scratch("collection");
    let collection = crate_file("../records/tests/data/collection.pgn");
    let out = xiangqi(&[
        "review",
        &collection,
        &path(&dir, "out.pgn"),
        "--game",
        "2",
        "--depth",
        "2",
    ]);
    assert_ok(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("game 2: "), "{stdout}");
    assert!(!stdout.contains("game 1:") && !stdout.contains("game 3:"));
    let games = reviewed_games(&dir);
    assert_eq!(games.len(), 1);
    assert!(
        games[0]
            .moves
            .moves
            .iter()
            .all(|node| node.comment.is_some())
    );
}

#[test]
fn a_broken_game_of_a_collection_is_named_and_the_others_reviewed() {
    let dir = scratch("broken");
    let collection = crate_file("../records/tests/real-world/collection-one-broken.pgn");
    let out = xiangqi(&[
        "review",
        &collection,
        &path(&dir, "out.pgn"),
        "--depth",
        "2",
    ]);
    assert_ok(&out);
    let err = stderr(&out);
    assert!(err.contains("(PGN): game 2, line 18"), "{err}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("game 1: ") && stdout.contains("game 3: "),
        "{stdout}"
    );
    assert!(!stdout.contains("game 2: "), "{stdout}");
    let games = reviewed_games(&dir);
    assert_eq!(games.len(), 2);
}

#[test]
fn with_endgame_tables_a_thrown_win_is_named_exactly() {
    let dir = scratch("tables");
    let tables = path(&dir, "egtb");
    assert_ok(&xiangqi(&["egtb", "generate", "KRKA", "--out", &tables]));
    // Chariot against an advisor: 2. R4+8?? lets the general trade into a draw.
    let game = path(&dir, "krka.pgn");
    std::fs::write(
        &game,
        "[FEN \"9/9/3ak4/9/9/9/9/9/9/3K1R3 w - - 0 1\"]\n[Format \"ICCS\"]\n\n\
         1. d0d1 e7e8 2. f0f8 e8e9 *\n",
    )
    .unwrap();
    let out_file = path(&dir, "out.pgn");
    let out = xiangqi(&[
        "review",
        &game,
        &out_file,
        "--depth",
        "2",
        "--notation",
        "iccs",
        "--egtb",
        &tables,
    ]);
    assert_ok(&out);
    let games = reviewed_games(&dir);
    let nodes = &games[0].moves.moves;
    let comment = nodes[2].comment.as_deref().unwrap_or_default();
    assert!(
        comment.starts_with("blunder")
            && comment.contains("this throws away the win: mate in 4 became a draw (table)"),
        "{comment}"
    );
    // A folder that holds no tables is refused by name.
    let out = xiangqi(&["review", &game, &out_file, "--egtb", &path(&dir, "none")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--egtb"), "{}", stderr(&out));
}
