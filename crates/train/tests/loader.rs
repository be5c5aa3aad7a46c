//! The loader drops exactly the positions it should (in check, a capture, a mate score, a
//! repeated cycle, the opening plies, a drawn game's long run without a capture), keeps quiet
//! ones with the right features and results, mirrors on request, skips a truncated last game,
//! and names a file that is not data.

use std::path::PathBuf;
use xiangqi_engine::datagen::{GameRecord, write_game, write_header};
use xiangqi_engine::nnue::active_features;
use xiangqi_rules::{Color, GameResult, Move, Position, Square};
use xiangqi_train::dataset::Wdl;
use xiangqi_train::loader::{
    Filters, LoadCounts, LoadSettings, SkipReason, classify, game_positions, load_files,
};

fn mv(text: &str) -> Move {
    let b = text.as_bytes();
    let sq = |f: u8, r: u8| Square::new(f - b'a', r - b'0').unwrap();
    Move::new(sq(b[0], b[1]), sq(b[2], b[3]))
}

fn game(fen: &str, result: GameResult, plies: &[(&str, i16)]) -> GameRecord {
    GameRecord {
        start: fen.parse().unwrap(),
        result,
        plies: plies.iter().map(|&(m, s)| (mv(m), s)).collect(),
    }
}

/// Black starts in check from the chariot on e0; then Red plays a quiet move.
fn in_check_game() -> GameRecord {
    game(
        "4k4/9/9/9/9/9/9/9/9/3KR4 b - - 0 1",
        GameResult::RedWins,
        &[("e9f9", -50), ("e0e1", 80)],
    )
}

/// Red's chariot takes the soldier on a4; then Black plays a quiet move.
fn capture_game() -> GameRecord {
    game(
        "4k4/9/9/9/9/p8/9/9/9/R2K5 w - - 0 1",
        GameResult::Draw,
        &[("a0a4", 30), ("e9e8", -20)],
    )
}

/// Quiet moves with a stored mate score, a score past the mate threshold, and one just below.
fn mate_game() -> GameRecord {
    game(
        "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
        GameResult::RedWins,
        &[("a0a1", 32000), ("e9e8", -20000), ("a1a2", 19999)],
    )
}

/// Chariot and general go out and back (positions 0 to 4 form a cycle), then two fresh moves.
fn repetition_game() -> GameRecord {
    game(
        "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
        GameResult::BlackWins,
        &[
            ("a0a1", 10),
            ("e9f9", 10),
            ("a1a0", 10),
            ("f9e9", 10),
            ("a0a2", 10),
            ("e9e8", 10),
        ],
    )
}

#[test]
fn a_position_in_check_is_dropped_and_the_quiet_reply_kept() {
    assert_eq!(
        classify(&in_check_game(), &Filters::default()),
        [Some(SkipReason::InCheck), None]
    );
}

#[test]
fn a_capture_is_dropped_and_the_quiet_reply_kept() {
    assert_eq!(
        classify(&capture_game(), &Filters::default()),
        [Some(SkipReason::Capture), None]
    );
}

#[test]
fn mate_scores_are_dropped_and_a_score_below_the_threshold_kept() {
    assert_eq!(
        classify(&mate_game(), &Filters::default()),
        [
            Some(SkipReason::MateScore),
            Some(SkipReason::MateScore),
            None
        ]
    );
}

#[test]
fn every_position_of_a_repeated_cycle_is_dropped() {
    let r = Some(SkipReason::Repetition);
    assert_eq!(
        classify(&repetition_game(), &Filters::default()),
        [r, r, r, r, r, None]
    );
}

#[test]
fn opening_plies_are_dropped_when_asked() {
    assert_eq!(
        classify(
            &mate_game(),
            &Filters {
                skip_plies: 2,
                ..Filters::default()
            }
        ),
        [Some(SkipReason::Opening), Some(SkipReason::Opening), None]
    );
}

/// Chariot and generals shuffle without a capture from a start 40 plies after the last one.
fn shuffling_game(result: GameResult) -> GameRecord {
    game(
        "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 40 30",
        result,
        &[("a0a1", 10), ("e9e8", 0), ("a1b1", 10), ("e8e9", 0)],
    )
}

#[test]
fn a_drawn_game_drops_its_positions_long_after_the_last_capture_when_asked() {
    let filters = Filters {
        drawn_ending_plies: Some(41),
        ..Filters::default()
    };
    let late = Some(SkipReason::DrawnEnding);
    // Positions 40, 41 plies after the last capture are kept; 42 and 43 are not.
    assert_eq!(
        classify(&shuffling_game(GameResult::Draw), &filters),
        [None, None, late, late]
    );
    // A decided game keeps them, and so does a drawn one without the filter.
    assert_eq!(
        classify(&shuffling_game(GameResult::RedWins), &filters),
        [None; 4]
    );
    assert_eq!(
        classify(&shuffling_game(GameResult::Draw), &Filters::default()),
        [None; 4]
    );
    let mut counts = LoadCounts::default();
    let mut out = Vec::new();
    let g = shuffling_game(GameResult::Draw);
    game_positions(&g, &filters, 1, &mut counts, &mut out, None).unwrap();
    assert_eq!((out.len(), counts.kept, counts.drawn_ending), (2, 2, 2));
}

fn sorted(v: &[u16]) -> Vec<u16> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

fn features(pos: &Position, side: Color) -> Vec<u16> {
    palace_features(pos, side, 1)
}

fn palace_features(pos: &Position, side: Color, palace: usize) -> Vec<u16> {
    let mut v = Vec::new();
    active_features(pos, side, palace, &mut v);
    sorted(&v.iter().map(|&i| i as u16).collect::<Vec<_>>())
}

#[test]
fn kept_positions_carry_both_perspectives_score_and_result_for_the_side_to_move() {
    let g = in_check_game();
    let mut counts = LoadCounts::default();
    let mut out = Vec::new();
    game_positions(&g, &Filters::default(), 1, &mut counts, &mut out, None).unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!((counts.positions, counts.kept, counts.in_check), (2, 1, 1));
    // The kept position is Red to move after e9f9; Red won.
    let pos = g.start.after(mv("e9f9"));
    assert_eq!(sorted(out[0].side_to_move()), features(&pos, Color::Red));
    assert_eq!(sorted(out[0].other()), features(&pos, Color::Black));
    assert_eq!(out[0].score, 80);
    assert_eq!(out[0].outcome, Wdl::Win);

    let g = capture_game();
    let mut out = Vec::new();
    game_positions(&g, &Filters::default(), 1, &mut counts, &mut out, None).unwrap();
    assert_eq!((out[0].score, out[0].outcome), (-20, Wdl::Draw));

    let g = repetition_game();
    let mut out = Vec::new();
    game_positions(&g, &Filters::default(), 1, &mut counts, &mut out, None).unwrap();
    // Black to move in a game Black won.
    assert_eq!(out[0].outcome, Wdl::Win);
}

/// The FEN with every rank reversed: the board mirrored left to right.
fn mirrored_fen(fen: &str) -> String {
    let (board, rest) = fen.split_once(' ').unwrap();
    let ranks: Vec<String> = board
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    format!("{} {rest}", ranks.join("/"))
}

#[test]
fn mirrored_copies_have_the_features_of_the_mirrored_board() {
    // The red general steps to d1 and back, so that with palace buckets Red's view of the
    // board and of its mirror image changes bucket and mirroring.
    let g = game(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        GameResult::Draw,
        &[
            ("b2e2", 20),
            ("h9g7", -15),
            ("h0g2", 25),
            ("g7h9", 0),
            ("e0e1", 5),
            ("h9g7", 0),
            ("e1d1", 5),
        ],
    );
    for palace in [1, xiangqi_engine::nnue::PALACE_BUCKETS] {
        mirrored_copies_agree(&g, palace);
    }
}

fn mirrored_copies_agree(g: &GameRecord, palace: usize) {
    let mut counts = LoadCounts::default();
    let (mut out, mut mirror) = (Vec::new(), Vec::new());
    game_positions(
        g,
        &Filters::default(),
        palace,
        &mut counts,
        &mut out,
        Some(&mut mirror),
    )
    .unwrap();
    assert_eq!((out.len(), mirror.len(), counts.mirrored), (7, 7, 7));
    let mut pos = g.start.clone();
    for (i, &(m, _)) in g.plies.iter().enumerate() {
        let flipped: Position = mirrored_fen(&pos.to_fen()).parse().unwrap();
        let side = pos.side_to_move();
        assert_eq!(
            sorted(out[i].side_to_move()),
            palace_features(&pos, side, palace)
        );
        assert_eq!(
            sorted(mirror[i].side_to_move()),
            palace_features(&flipped, side, palace)
        );
        assert_eq!(
            sorted(mirror[i].other()),
            palace_features(&flipped, side.opponent(), palace)
        );
        assert_eq!(mirror[i].score, out[i].score);
        pos.make_move(m);
    }
    // The position after b2e2 is not symmetric, so its mirror image has other features.
    assert_ne!(
        sorted(mirror[1].side_to_move()),
        sorted(out[1].side_to_move())
    );
}

struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> TempFile {
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("xqtrain-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn data_file(games: &[GameRecord]) -> Vec<u8> {
    let mut bytes = Vec::new();
    write_header(&mut bytes).unwrap();
    for g in games {
        write_game(&mut bytes, g).unwrap();
    }
    bytes
}

#[test]
fn files_load_with_counts_and_a_truncated_last_game_is_skipped_with_a_warning() {
    let mut bytes = data_file(&[
        in_check_game(),
        capture_game(),
        mate_game(),
        repetition_game(),
    ]);
    bytes.truncate(bytes.len() - 3);
    let file = TempFile::new("truncated.xqdg", &bytes);
    let mut warnings = Vec::new();
    let (split, counts) = load_files(
        std::slice::from_ref(&file.0),
        &LoadSettings::default(),
        |w| warnings.push(w.to_string()),
    )
    .unwrap();
    assert_eq!(counts.games, 3);
    assert_eq!(counts.truncated_games, 1);
    assert_eq!(
        (
            counts.kept,
            counts.in_check,
            counts.capture,
            counts.mate_score
        ),
        (3, 1, 1, 2)
    );
    assert_eq!(split.train.len(), 3);
    assert!(split.validation.is_empty());
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].contains("truncated.xqdg") && warnings[0].contains("game 4"),
        "{warnings:?}"
    );
}

#[test]
fn mirroring_doubles_the_training_set_and_validation_takes_whole_games() {
    let games: Vec<GameRecord> = (0..40).map(|_| repetition_game()).collect();
    let file = TempFile::new("many.xqdg", &data_file(&games));
    let settings = LoadSettings {
        mirror: true,
        validation_fraction: 0.25,
        seed: 3,
        ..LoadSettings::default()
    };
    let (split, counts) = load_files(std::slice::from_ref(&file.0), &settings, |_| {}).unwrap();
    assert_eq!(counts.kept, 40);
    assert!(
        counts.validation > 0 && counts.validation < 40,
        "{counts:?}"
    );
    assert_eq!(split.validation.len() as u64, counts.validation);
    assert_eq!(split.train.len() as u64, 2 * (40 - counts.validation));
}

#[test]
fn a_file_that_is_not_data_is_an_error_naming_it() {
    let file = TempFile::new("garbage.bin", b"this is not a datagen file at all");
    let e = load_files(
        std::slice::from_ref(&file.0),
        &LoadSettings::default(),
        |_| {},
    )
    .unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("garbage.bin") && text.contains("not a datagen file"),
        "{text}"
    );

    let missing =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("xqtrain-no-such-file.xqdg");
    let e = load_files(&[missing], &LoadSettings::default(), |_| {}).unwrap_err();
    assert!(e.to_string().contains("xqtrain-no-such-file.xqdg"), "{e}");
}
