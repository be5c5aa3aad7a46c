//! `xiangqi egtb generate`, `probe`, `verify`, `stats` and `facts` as a user runs them.

mod support;

use std::path::PathBuf;
use support::xiangqi;

fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("xiangqi-egtb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn generate_probe_verify_and_resume() {
    let dir = scratch("krka");
    let d = dir.to_str().unwrap();
    let out = xiangqi(&["egtb", "generate", "KRKA", "--out", d, "--threads", "2"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for line in [
        "KK: init",
        "KRKA: level 1,",
        "positions/s",
        "KRKA: done in",
        "4 tables complete",
    ] {
        assert!(stdout.contains(line), "{line} missing from\n{stdout}");
    }
    assert!(dir.join("KRKA.xqtb").is_file());

    // A second run keeps what is complete.
    let out = xiangqi(&["egtb", "generate", "krka", "--out", d]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("KRKA: already complete"), "{stdout}");
    assert!(!stdout.contains("done in"), "{stdout}");

    // The chariot mates on the back rank: d0d9 at once, the rest later.
    let out = xiangqi(&[
        "egtb",
        "probe",
        "--fen",
        "4k4/4a4/9/9/9/9/9/9/9/3RK4 w - - 0 1",
        "--dir",
        d,
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[..6],
        [
            "ending: KRKA",
            "side to move: red",
            "result: win",
            "distance: 3 plies",
            "asian rules: same",
            "moves:"
        ]
    );
    assert!(lines[6].ends_with(" win 3"), "{stdout}");
    // Every legal move is listed.
    let moves = xiangqi(&["moves", "--fen", "4k4/4a4/9/9/9/9/9/9/9/3RK4 w - - 0 1"]);
    assert_eq!(
        lines.len() - 6,
        text(&moves.stdout).lines().count(),
        "{stdout}"
    );

    let out = xiangqi(&["egtb", "verify", "--dir", d]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("KRKA: ok,"), "{stdout}");

    let out = xiangqi(&["egtb", "stats", "KRKA", "--dir", d]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("| KRKA | 20685 |"), "{stdout}");

    // The known results: those with a table are checked, the others named as missing.
    let out = xiangqi(&["egtb", "facts", "--dir", d]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("KRKA won: holds: 9264 positions: 100.00% won"),
        "{stdout}"
    );
    assert!(stdout.contains("KRKAABB fortress: no table"), "{stdout}");
    assert!(
        stdout.contains("4k4/4a4/9/9/9/9/9/9/9/3RK4 w - - 0 1 win in 3: holds"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    let dir = scratch("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["egtb", "generate", "KRXK", "--out", d],
            "bad ending name 'KRXK': unknown letter 'X' at character 3",
        ),
        (
            &["egtb", "probe", "--fen", "9/9/9 w", "--dir", d],
            "bad FEN: the board field has 3 ranks",
        ),
        (
            &[
                "egtb",
                "probe",
                "--fen",
                "4k4/4a4/9/9/9/9/9/9/9/3RK4 w - - 0 1",
                "--dir",
                d,
            ],
            "no table for this material (KRKA)",
        ),
        (
            &[
                "egtb",
                "probe",
                "--fen",
                "5k3/9/9/9/9/9/9/9/9/3RK4 w - - 0 1",
                "--dir",
                "/no/such/folder",
            ],
            "no tablebase folder at /no/such/folder",
        ),
        (&["egtb", "verify", "--dir", d], "no tables in"),
    ];
    for (args, message) in cases {
        let out = xiangqi(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    // A damaged table is named.
    std::fs::write(dir.join("KRK.xqtb"), b"XQTB").unwrap();
    let out = xiangqi(&[
        "egtb",
        "probe",
        "--fen",
        "5k3/9/9/9/9/9/9/9/9/3RK4 w - - 0 1",
        "--dir",
        d,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the KRK table") && stderr.contains("KRK.xqtb is damaged"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
