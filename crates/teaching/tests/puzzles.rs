//! The shipped puzzle set: its size, its themes, every line legal and ending as its kind
//! says, and the proofs re-run over a sample drawn across the themes.

use std::collections::HashSet;
use xiangqi_rules::GameStatus;
use xiangqi_teaching::puzzles::{Theme, Verifier, shipped};

#[test]
fn the_shipped_set_holds_a_thousand_puzzles_with_unique_ids() {
    let puzzles = shipped().expect("the shipped set reads");
    assert!(puzzles.len() >= 1000, "only {} puzzles", puzzles.len());
    let ids: HashSet<&str> = puzzles.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids.len(), puzzles.len());
    let positions: HashSet<String> = puzzles.iter().map(|p| p.position.to_fen()).collect();
    assert_eq!(positions.len(), puzzles.len(), "a position appears twice");
    // Each a choice: two legal first moves at least.
    let forced: Vec<&str> = puzzles
        .iter()
        .filter(|p| !p.has_choice())
        .map(|p| p.id.as_str())
        .collect();
    assert!(forced.is_empty(), "one legal move: {forced:?}");
}

#[test]
fn every_theme_is_present() {
    let puzzles = shipped().unwrap();
    for theme in Theme::basic() {
        let count = puzzles.iter().filter(|p| p.has_theme(theme)).count();
        assert!(count > 0, "no puzzle with the theme {theme}");
    }
}

#[test]
fn every_puzzle_claims_exactly_the_motifs_its_line_shows() {
    // `xiangqi puzzles retheme` keeps the file so when a motif rule is added or changed.
    let mut differ = Vec::new();
    for puzzle in shipped().unwrap() {
        let again = puzzle.rethemed();
        if again.themes != puzzle.themes {
            differ.push(format!(
                "{}: {:?} → {:?}",
                puzzle.id, puzzle.themes, again.themes
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // The new motifs are found in the shipped set.
    for theme in [
        Theme::DoubleCheck,
        Theme::Sacrifice,
        Theme::QuietMove,
        Theme::FacingGenerals,
        Theme::CannonScreen,
    ] {
        let n = shipped()
            .unwrap()
            .iter()
            .filter(|p| p.has_theme(&theme))
            .count();
        assert!(n >= 10, "{theme}: {n}");
    }
}

#[test]
fn twelve_named_patterns_have_three_puzzles_each() {
    let mut per_pattern: std::collections::BTreeMap<&str, usize> = Default::default();
    for puzzle in shipped().unwrap() {
        for theme in &puzzle.themes {
            if let Theme::Pattern(id) = theme {
                *per_pattern.entry(id.as_str()).or_default() += 1;
            }
        }
    }
    let full = per_pattern.values().filter(|&&n| n >= 3).count();
    assert!(
        full >= 12,
        "patterns with three puzzles or more: {per_pattern:?}"
    );
}

#[test]
fn every_line_is_legal_and_mates_end_in_mate() {
    let mut misnamed = Vec::new();
    for puzzle in shipped().unwrap() {
        let mut position = puzzle.position.clone();
        assert_eq!(position.status(), GameStatus::Ongoing, "{}", puzzle.id);
        for &m in &puzzle.moves {
            assert!(position.is_legal(m), "{}: {m}", puzzle.id);
            position.make_move(m);
        }
        if let Some(n) = puzzle.forced_win_length() {
            assert_eq!(puzzle.moves.len(), 2 * usize::from(n) - 1, "{}", puzzle.id);
            // A checkmate is themed mateInN, a stalemate stalemateInN: the words the page
            // shows come from the theme.
            let mated = puzzle.has_theme(&Theme::MateIn(n));
            let stalemated = puzzle.has_theme(&Theme::StalemateIn(n));
            let right = match position.status() {
                GameStatus::Checkmate { .. } => mated && !stalemated,
                GameStatus::Stalemate { .. } => stalemated && !mated,
                GameStatus::Ongoing => false,
            };
            if !right {
                misnamed.push(puzzle.id.clone());
            }
        }
        assert!(
            (600..=2400).contains(&puzzle.rating),
            "{}: {}",
            puzzle.id,
            puzzle.rating
        );
    }
    assert!(
        misnamed.is_empty(),
        "{} puzzles' themes do not say how their line ends: {}",
        misnamed.len(),
        misnamed.join(" ")
    );
}

#[test]
fn the_proofs_of_a_sample_across_the_themes_stand() {
    let puzzles = shipped().unwrap();
    let mut sample = Vec::new();
    for theme in Theme::basic() {
        // Up to three of each theme, spread over the set.
        let with: Vec<_> = puzzles.iter().filter(|p| p.has_theme(theme)).collect();
        let step = (with.len() / 3).max(1);
        sample.extend(with.iter().step_by(step).take(3).copied());
    }
    sample.sort_by(|a, b| a.id.cmp(&b.id));
    sample.dedup_by(|a, b| a.id == b.id);
    assert!(sample.len() >= 20, "a sample of {} only", sample.len());
    // The endgame puzzles are proven by the tables of the endgame course's endings.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("puzzle-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut endings = Vec::new();
    for e in xiangqi_teaching::endgames::endgames().unwrap() {
        let m = e.material().unwrap();
        if !endings.contains(&m) {
            endings.push(m);
        }
    }
    xiangqi_egtb::generate(
        &endings,
        &dir,
        &xiangqi_egtb::Options::default(),
        &mut |_| {},
    )
    .unwrap();
    let tables = std::sync::Arc::new(xiangqi_egtb::Tablebases::open(&dir).unwrap());
    let mut verifier = Verifier::with_tables(tables);
    for puzzle in sample {
        if let Err(why) = verifier.verify(puzzle) {
            panic!("{}: {why}", puzzle.id);
        }
    }
}

#[test]
fn a_shipped_puzzle_is_found_by_its_id() {
    let all = xiangqi_teaching::puzzles::shipped().unwrap();
    for p in [&all[0], &all[all.len() / 2], &all[all.len() - 1]] {
        let found = xiangqi_teaching::puzzles::shipped_puzzle(&p.id).unwrap();
        assert_eq!(found.map(|f| &f.id), Some(&p.id));
    }
    assert!(
        xiangqi_teaching::puzzles::shipped_puzzle("no-such-id")
            .unwrap()
            .is_none()
    );
}

#[test]
fn a_stalemate_themed_as_a_mate_is_refused_and_the_other_way_round() {
    let mut verifier = Verifier::new();
    // d3d8 leaves Black without a move, not in check: a win by stalemate, not a mate.
    let stalemate = xiangqi_teaching::puzzles::shipped_puzzle("m1-2b74b4462c63")
        .unwrap()
        .expect("the puzzle is shipped");
    assert_eq!(stalemate.themes[0], Theme::StalemateIn(1));
    assert!(matches!(stalemate.ending(), GameStatus::Stalemate { .. }));
    assert_eq!(verifier.verify(stalemate), Ok(()));
    let mut as_mate = stalemate.clone();
    as_mate.themes[0] = Theme::MateIn(1);
    assert_eq!(
        verifier.verify(&as_mate),
        Err(xiangqi_teaching::puzzles::VerifyError::WrongEnding {
            expected: Theme::StalemateIn(1)
        })
    );
    let mate = shipped()
        .unwrap()
        .iter()
        .find(|p| p.has_theme(&Theme::MateIn(1)))
        .expect("a mate in 1 is shipped");
    let mut as_stalemate = mate.clone();
    as_stalemate.themes[0] = Theme::StalemateIn(1);
    assert_eq!(
        verifier.verify(&as_stalemate),
        Err(xiangqi_teaching::puzzles::VerifyError::WrongEnding {
            expected: Theme::MateIn(1)
        })
    );
}

#[test]
fn every_mate_of_a_fixed_sample_of_five_hundred_is_proven_exactly() {
    // The forced wins (mates and stalemates) drawn with a fixed seed; the whole set is
    // re-proven by `xiangqi puzzles verify` (figure in docs/results.md).
    let mut wins: Vec<_> = shipped()
        .unwrap()
        .iter()
        .filter(|p| p.forced_win_length().is_some())
        .collect();
    xiangqi_rules::random::SplitMix64::new(63).shuffle(&mut wins);
    wins.truncate(500);
    assert_eq!(wins.len(), 500, "fewer than 500 forced wins are shipped");
    let mut verifier = Verifier::new();
    let mut failed = Vec::new();
    for puzzle in wins {
        // The exact proof: one first move wins in N, no other does, the line the longest
        // defence; and the theme says mate or stalemate as the line ends.
        if let Err(why) = verifier.verify(puzzle) {
            failed.push(format!("{}: {why}", puzzle.id));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn the_set_keeps_one_puzzle_of_each_position_and_idea_and_spreads_its_ratings() {
    use xiangqi_teaching::puzzles::dedupe::dedupe;
    use xiangqi_teaching::puzzles::rating::RatingFit;
    let puzzles = shipped().unwrap();
    let deduped = dedupe(puzzles.iter().cloned());
    assert!(
        deduped.same_position.is_empty(),
        "{:?}",
        deduped.same_position
    );
    assert!(deduped.same_idea.is_empty(), "{:?}", deduped.same_idea);
    // No 200-point band from 600 to 2400 holds more than a fifth of the set.
    let mut bands = [0usize; 9];
    for p in puzzles {
        bands[((p.rating.min(2399) - 600) / 200) as usize] += 1;
    }
    for (i, &n) in bands.iter().enumerate() {
        assert!(
            n * 5 <= puzzles.len(),
            "{}-{}: {n} of {}",
            600 + 200 * i,
            799 + 200 * i,
            puzzles.len()
        );
    }
    // The fit the set was rated by is shipped with it and reads.
    let fit = RatingFit::shipped().expect("the rating fit reads");
    assert!(fit.rate(600) < fit.rate(1400));
}

#[test]
fn every_shipped_puzzle_starts_with_no_history_so_no_draw_rule_ends_it_early() {
    let puzzles = shipped().expect("the shipped set reads");
    let with_history: Vec<&str> = puzzles
        .iter()
        .filter(|p| p.position.halfmove_clock() != 0)
        .map(|p| p.id.as_str())
        .collect();
    assert!(
        with_history.is_empty(),
        "counters carried over: {with_history:?}"
    );
}
