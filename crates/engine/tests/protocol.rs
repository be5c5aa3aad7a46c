//! The protocol words round-trip: every line a session writes reads back as a reply that
//! writes the same line, and every command, `go`, `info` and best move, in both dialects and
//! both rank numberings, reads back to the value it was written from.

mod captured;

use captured::Captured;
use std::time::{Duration, Instant};
use xiangqi_engine::protocol::{
    BestMove, Command, Dialect, GoParams, Info, OptionDecl, OptionKind, PositionCommand, Reply,
    Reported, ScoreBound, Session,
};
use xiangqi_rules::{Color, Move, Position, RankBase};

/// Runs `input` through a session and returns what it wrote, line by line.
fn session_output(dialect: Dialect, input: &str) -> Vec<String> {
    let captured = Captured::default();
    let mut session = Session::new(dialect, captured.output());
    let count = |word: &str| captured.text().matches(word).count();
    let mut searches = 0;
    for line in input.lines() {
        let errors = count("error:");
        session.handle(line);
        if line.trim().starts_with("go") {
            // Let the search finish on its own (it has written its best move), unless the
            // command was refused.
            let deadline = Instant::now() + Duration::from_secs(20);
            while count("bestmove") <= searches
                && count("error:") == errors
                && Instant::now() < deadline
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            searches = count("bestmove");
        }
    }
    session.handle("quit");
    captured.text().lines().map(str::to_string).collect()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

#[test]
fn every_line_the_engine_writes_reads_back_to_the_same_line() {
    let script = "
        isready
        position startpos moves h2e2 h9g7
        go depth 4
        position fen 3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1
        go depth 3
        position fen 3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1 moves a0a9
        go depth 2
        go depth banana
        position startpos moves h2e2 h2e2
        setoption name NoSuchOption value 1
    ";
    for dialect in Dialect::ALL {
        let input = format!("{dialect}\n{script}");
        let lines = session_output(dialect, &input);
        let mut kinds = Vec::new();
        for line in &lines {
            let reply = Reply::parse(line, RankBase::Zero)
                .unwrap_or_else(|e| panic!("{dialect}: '{line}': {e}"))
                .unwrap_or_else(|| panic!("{dialect}: '{line}' is not a reply"));
            assert_eq!(&reply.format(dialect, RankBase::Zero), line, "{dialect}");
            kinds.push(std::mem::discriminant(&reply));
        }
        // The session said each kind of thing at least once.
        let said = |reply: Reply| kinds.contains(&std::mem::discriminant(&reply));
        assert!(said(Reply::IdName(String::new())), "{lines:?}");
        assert!(said(Reply::HandshakeDone(dialect)), "{lines:?}");
        assert!(said(Reply::ReadyOk), "{lines:?}");
        assert!(said(Reply::Info(Info::default())), "{lines:?}");
        let best_moves: Vec<&String> = lines.iter().filter(|l| l.contains("bestmove")).collect();
        assert_eq!(best_moves.len(), 3, "{lines:?}");
        // The mate in one is announced as a mate in either dialect's form.
        let mate = lines
            .iter()
            .filter_map(|l| match Reply::parse(l, RankBase::Zero) {
                Ok(Some(Reply::Info(info))) => info.score,
                _ => None,
            })
            .any(|score| score == Reported::Mate(1));
        assert!(mate, "{dialect}: {lines:?}");
        assert_eq!(
            lines.last().map(String::as_str) == Some("bye"),
            dialect == Dialect::Ucci
        );
    }
}

/// Commands a GUI or the match runner writes, for `dialect`.
fn sample_commands(dialect: Dialect) -> Vec<Command> {
    let fen = "3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1";
    let ms = Duration::from_millis;
    let clocks = |side| GoParams::clocks(dialect, side, [ms(4000), ms(3500)], [ms(50), ms(0)]);
    let mut commands = vec![
        Command::Hello(dialect),
        Command::IsReady,
        Command::NewGame,
        Command::SetOption {
            name: "Hash".into(),
            value: "16".into(),
        },
        Command::SetOption {
            name: "newgame".into(),
            value: String::new(),
        },
        Command::Position(PositionCommand {
            start: Position::startpos(),
            moves: vec![mv("h2e2"), mv("h9g7"), mv("a0a1")],
        }),
        Command::Position(PositionCommand {
            start: Position::from_fen(fen).unwrap(),
            moves: vec![mv("a0a9")],
        }),
        Command::Position(PositionCommand {
            start: Position::startpos(),
            moves: vec![],
        }),
        Command::BanMoves(vec![mv("h9g7"), mv("b9c7")]),
        Command::Go(clocks(Color::Red)),
        Command::Go(clocks(Color::Black)),
        Command::Go(GoParams::depth(7)),
        Command::Go(GoParams::nodes(100_000)),
        Command::Go(GoParams {
            movetime: Some(ms(1500)),
            ponder: true,
            ..GoParams::default()
        }),
        Command::Go(GoParams {
            infinite: true,
            mate: Some(3),
            search_moves: vec![mv("h2e2"), mv("a0a2")],
            ..GoParams::default()
        }),
        Command::Stop,
        Command::PonderHit,
        Command::Bench(Some(5)),
        Command::Show,
        Command::Eval,
        Command::Quit,
    ];
    if dialect == Dialect::Uci {
        commands.push(Command::SetOption {
            name: "Skill Level".into(),
            value: "5".into(),
        });
        commands.push(Command::Go(GoParams {
            red_time: Some(ms(60_000)),
            black_time: Some(ms(1)),
            moves_to_go: Some(20),
            ..GoParams::default()
        }));
    } else {
        commands.push(Command::Go(GoParams {
            time: Some(ms(2000)),
            increment: Some(ms(10)),
            opponent_time: Some(ms(900)),
            opponent_increment: Some(ms(5)),
            moves_to_go: Some(8),
            opponent_moves_to_go: Some(9),
            draw: true,
            ..GoParams::default()
        }));
    }
    commands
}

/// Replies an engine writes.
fn sample_replies(dialect: Dialect) -> Vec<Reply> {
    let info = Info {
        depth: Some(12),
        seldepth: Some(19),
        multipv: Some(2),
        score: Some(Reported::Cp(-48)),
        bound: Some(ScoreBound::Lower),
        nodes: Some(1_234_567),
        nps: Some(890_000),
        hashfull: Some(37),
        time: Some(Duration::from_millis(1387)),
        pv: vec![mv("h2e2"), mv("h9g7"), mv("a0a9")],
        string: None,
    };
    vec![
        Reply::IdName("Xiangqi 0.1.0".into()),
        Reply::IdAuthor("the Xiangqi authors".into()),
        Reply::Option(OptionDecl {
            name: if dialect == Dialect::Uci {
                "Skill Level"
            } else {
                "skill"
            }
            .into(),
            kind: OptionKind::Spin {
                default: 20,
                min: 0,
                max: 20,
            },
        }),
        Reply::Option(OptionDecl {
            name: "Ponder".into(),
            kind: OptionKind::Check { default: false },
        }),
        Reply::Option(OptionDecl {
            name: "newgame".into(),
            kind: OptionKind::Button,
        }),
        Reply::HandshakeDone(dialect),
        Reply::ReadyOk,
        Reply::Info(info.clone()),
        Reply::Info(Info {
            score: Some(Reported::Mate(3)),
            bound: None,
            ..info.clone()
        }),
        Reply::Info(Info {
            score: Some(Reported::Mate(-2)),
            bound: Some(ScoreBound::Upper),
            ..info
        }),
        Reply::Info(Info::text("error: move 2 'h2e2' is not legal")),
        Reply::BestMove(BestMove {
            best: Some(mv("a0a9")),
            ponder: Some(mv("d9e9")),
        }),
        Reply::BestMove(BestMove {
            best: Some(mv("h2e2")),
            ponder: None,
        }),
        Reply::BestMove(BestMove {
            best: None,
            ponder: None,
        }),
        Reply::Bye,
    ]
}

#[test]
fn commands_read_back_to_what_was_written_in_both_dialects_and_rank_numberings() {
    for dialect in Dialect::ALL {
        for ranks in [RankBase::Zero, RankBase::One] {
            for command in sample_commands(dialect) {
                let line = command.format(dialect, ranks);
                let read = Command::parse(&line, dialect, ranks)
                    .unwrap_or_else(|e| panic!("{dialect} {ranks:?}: '{line}': {e}"));
                assert_eq!(read, Some(command), "{dialect} {ranks:?}: '{line}'");
            }
        }
    }
}

#[test]
fn replies_read_back_to_what_was_written_in_both_dialects_and_rank_numberings() {
    for dialect in Dialect::ALL {
        for ranks in [RankBase::Zero, RankBase::One] {
            for reply in sample_replies(dialect) {
                let line = reply.format(dialect, ranks);
                let read = Reply::parse(&line, ranks)
                    .unwrap_or_else(|e| panic!("{dialect} {ranks:?}: '{line}': {e}"));
                assert_eq!(read, Some(reply), "{dialect} {ranks:?}: '{line}'");
            }
        }
    }
}

#[test]
fn the_rank_numbering_shows_in_every_move() {
    let go = Command::Go(GoParams {
        search_moves: vec![mv("a0a9")],
        ..GoParams::default()
    });
    assert_eq!(
        go.format(Dialect::Uci, RankBase::One),
        "go searchmoves a1a10"
    );
    let best = Reply::BestMove(BestMove {
        best: Some(mv("a0a9")),
        ponder: None,
    });
    assert_eq!(best.format(Dialect::Uci, RankBase::One), "bestmove a1a10");
    assert_eq!(best.format(Dialect::Ucci, RankBase::Zero), "bestmove a0a9");
    // A move in the other numbering is a different move, or none.
    assert_ne!(
        Reply::parse("bestmove a1a8", RankBase::Zero).unwrap(),
        Reply::parse("bestmove a1a8", RankBase::One).unwrap()
    );
    assert!(Reply::parse("bestmove a0a9", RankBase::One).is_err());
}
