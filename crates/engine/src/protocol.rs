//! The UCI and UCCI front end: reads commands line by line, searches on a background thread,
//! and writes replies. Bad input gets `info string error: …` and the engine stays usable.

use crate::bench;
use crate::engine::{Engine, EngineOptions, SearchRequest};
use crate::levels::{ELO_RANGE, Level, MAX_LEVEL};
use crate::limits::SearchLimits;
use crate::score::uci_score;
use crate::search::{SearchInfo, SearchResult};
use crate::tt::Bound;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use xiangqi_rules::{Move, Position};

/// Which protocol the session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI as Pikafish speaks it for Xiangqi (ranks 0–9).
    Uci,
    /// UCCI as ElephantEye speaks it.
    Ucci,
}

/// Where replies go; shared with the search thread.
pub type Output = Arc<Mutex<dyn Write + Send>>;

fn send(out: &Output, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// Engine name and version for `id name`.
pub const ENGINE_NAME: &str = concat!("Xiangqi ", env!("CARGO_PKG_VERSION"));

/// One protocol session.
pub struct Session {
    dialect: Dialect,
    engine: Engine,
    options: EngineOptions,
    skill_level: u32,
    limit_strength: bool,
    elo: u32,
    position: Position,
    history: Vec<u64>,
    history_moves: Vec<Move>,
    banned: Vec<Move>,
    search: Option<JoinHandle<()>>,
    out: Output,
}

/// Reads a move in ICCS (ranks 0–9), e.g. `h2e2`, around which spaces are allowed.
pub fn parse_iccs(text: &str) -> Option<Move> {
    Move::parse_iccs(text.trim())
}

impl Session {
    /// A session speaking `dialect`, writing to `out`.
    pub fn new(dialect: Dialect, out: Output) -> Session {
        let options = EngineOptions::default();
        Session {
            dialect,
            engine: Engine::new(options.clone()),
            options,
            skill_level: MAX_LEVEL,
            limit_strength: false,
            elo: ELO_RANGE.1,
            position: Position::startpos(),
            history: Vec::new(),
            history_moves: Vec::new(),
            banned: Vec::new(),
            search: None,
            out,
        }
    }

    fn say(&self, line: &str) {
        send(&self.out, line);
    }

    fn error(&self, message: &str) {
        self.say(&format!("info string error: {message}"));
    }

    /// Reads commands from `input` until `quit` or end of input.
    pub fn run(&mut self, input: impl BufRead) {
        for line in input.lines() {
            let Ok(line) = line else {
                self.error("input is not valid UTF-8; line ignored");
                continue;
            };
            if !self.handle(&line) {
                break;
            }
        }
        self.stop_search();
    }

    /// Handles one command line; returns false after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "" => {}
            "uci" => {
                self.dialect = Dialect::Uci;
                self.identify();
            }
            "ucci" => {
                self.dialect = Dialect::Ucci;
                self.identify();
            }
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.stop_search();
                self.engine.new_game();
                self.history.clear();
                self.history_moves.clear();
                self.banned.clear();
            }
            "setoption" => self.set_option(rest),
            "position" => self.set_position(rest),
            "banmoves" => self.ban_moves(rest),
            "go" => self.go(rest),
            "stop" => self.stop_search(),
            "ponderhit" => self.engine.ponderhit(),
            "bench" => {
                self.stop_search();
                let depth = rest.parse().unwrap_or(bench::DEFAULT_DEPTH);
                let report = bench::run(depth, &mut |line| send(&self.out, line));
                self.say(&report.summary());
            }
            "d" => {
                self.say(&self.position.to_string());
                self.say(&format!("fen {}", self.position.to_fen()));
            }
            "eval" => {
                let score = self.engine.static_eval(&self.position);
                self.say(&format!(
                    "info string static evaluation {score} (side to move)"
                ));
            }
            "quit" => {
                self.stop_search();
                if self.dialect == Dialect::Ucci {
                    self.say("bye");
                }
                return false;
            }
            _ => self.error(&format!("unknown command '{command}'")),
        }
        true
    }

    fn identify(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say("id author the Xiangqi authors");
        let (lo, hi) = ELO_RANGE;
        match self.dialect {
            Dialect::Uci => {
                for line in [
                    "option name Hash type spin default 16 min 1 max 65536".to_string(),
                    "option name Threads type spin default 1 min 1 max 256".to_string(),
                    "option name MultiPV type spin default 1 min 1 max 128".to_string(),
                    format!(
                        "option name Skill Level type spin default {MAX_LEVEL} min 0 max {MAX_LEVEL}"
                    ),
                    "option name UCI_LimitStrength type check default false".to_string(),
                    format!("option name UCI_Elo type spin default {hi} min {lo} max {hi}"),
                    "option name Move Overhead type spin default 10 min 0 max 5000".to_string(),
                    "option name Ponder type check default false".to_string(),
                    "option name Clear Hash type button".to_string(),
                ] {
                    self.say(&line);
                }
                self.say("uciok");
            }
            Dialect::Ucci => {
                for line in [
                    "option hashsize type spin min 1 max 65536 default 16".to_string(),
                    "option threads type spin min 1 max 256 default 1".to_string(),
                    format!("option skill type spin min 0 max {MAX_LEVEL} default {MAX_LEVEL}"),
                    "option usebook type check default false".to_string(),
                    "option newgame type button".to_string(),
                ] {
                    self.say(&line);
                }
                self.say("ucciok");
            }
        }
    }

    fn apply_options(&mut self) {
        self.stop_search();
        self.options.level = if self.limit_strength {
            Level::from_elo(self.elo)
        } else {
            Level::new(self.skill_level)
        };
        self.engine.set_options(self.options.clone());
    }

    fn set_option(&mut self, rest: &str) {
        // UCI: `name <id…> [value <x…>]`; UCCI: `<id> [<value>]`.
        let (name, value) = if let Some(r) = rest.strip_prefix("name ") {
            match r.split_once(" value ") {
                Some((n, v)) => (n.trim().to_string(), v.trim().to_string()),
                None => (r.trim().to_string(), String::new()),
            }
        } else {
            let (n, v) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            (n.to_string(), v.trim().to_string())
        };
        let number = |max: u64| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|v| *v <= max)
                .ok_or_else(|| {
                    format!("option '{name}' needs a whole number up to {max}, got '{value}'")
                })
        };
        let flag = || -> Result<bool, String> {
            match value.to_ascii_lowercase().as_str() {
                "true" | "on" => Ok(true),
                "false" | "off" => Ok(false),
                _ => Err(format!(
                    "option '{name}' needs true or false, got '{value}'"
                )),
            }
        };
        let result: Result<(), String> = match name.to_ascii_lowercase().as_str() {
            "hash" | "hashsize" => number(65536).map(|v| self.options.hash_mb = v.max(1) as usize),
            "threads" => number(256).map(|v| self.options.threads = v.max(1) as usize),
            "multipv" => number(128).map(|v| self.options.multipv = v.max(1) as usize),
            "skill level" | "skill" => {
                number(MAX_LEVEL as u64).map(|v| self.skill_level = v as u32)
            }
            "uci_limitstrength" => flag().map(|v| self.limit_strength = v),
            "uci_elo" => number(u64::from(u32::MAX))
                .map(|v| self.elo = (v as u32).clamp(ELO_RANGE.0, ELO_RANGE.1)),
            "move overhead" => {
                number(5000).map(|v| self.options.move_overhead = Duration::from_millis(v))
            }
            "ponder" | "usebook" => flag().map(|_| ()),
            "clear hash" | "newgame" => {
                self.stop_search();
                self.engine.new_game();
                Ok(())
            }
            _ => Err(format!("unknown option '{name}'")),
        };
        match result {
            Ok(()) => self.apply_options(),
            Err(e) => self.error(&e),
        }
    }

    fn set_position(&mut self, rest: &str) {
        match parse_position(rest) {
            Ok(parsed) => {
                self.stop_search();
                self.position = parsed.position;
                self.history = parsed.history;
                self.history_moves = parsed.history_moves;
                self.banned.clear();
            }
            Err(e) => self.error(&format!("{e}; position unchanged")),
        }
    }

    fn ban_moves(&mut self, rest: &str) {
        let mut banned = Vec::new();
        for text in rest.split_whitespace() {
            match parse_iccs(text) {
                Some(m) if self.position.is_legal(m) => banned.push(m),
                _ => return self.error(&format!("banmoves: '{text}' is not a legal move here")),
            }
        }
        self.banned = banned;
    }

    fn stop_search(&mut self) {
        if let Some(handle) = self.search.take() {
            self.engine.stop();
            let _ = handle.join();
        }
    }

    fn go(&mut self, rest: &str) {
        self.stop_search();
        let (limits, search_moves) =
            match parse_go(rest, self.dialect, self.position.side_to_move()) {
                Ok(parsed) => parsed,
                Err(e) => return self.error(&e),
            };
        let mut search_moves_checked = Vec::new();
        for m in search_moves {
            match parse_iccs(&m) {
                Some(mv) if self.position.is_legal(mv) => search_moves_checked.push(mv),
                _ => return self.error(&format!("searchmoves: '{m}' is not a legal move here")),
            }
        }
        let request = SearchRequest {
            position: self.position.clone(),
            history: self.history.clone(),
            history_moves: self.history_moves.clone(),
            limits,
            excluded: self.banned.clone(),
            search_moves: search_moves_checked,
        };
        let engine = self.engine.clone();
        let out = self.out.clone();
        let dialect = self.dialect;
        self.search = Some(std::thread::spawn(move || {
            let result = engine.think(&request, &mut |info| send(&out, &info_line(info, dialect)));
            send(&out, &bestmove_line(&result, dialect));
        }));
    }
}

/// A position command's result: the position and how it was reached since the last capture.
#[derive(Clone, Debug)]
pub struct ParsedPosition {
    /// The position reached.
    pub position: Position,
    /// Hashes of the positions since the last capture, oldest first, not the current one.
    pub history: Vec<u64>,
    /// The move played from each of those positions.
    pub history_moves: Vec<Move>,
}

/// Parses `startpos|fen <fen> [moves …]`.
pub fn parse_position(rest: &str) -> Result<ParsedPosition, String> {
    let (setup, moves) = match rest.split_once(" moves") {
        Some((s, m)) => (s.trim(), m.trim()),
        None => (rest.trim(), ""),
    };
    let mut position = if setup == "startpos" {
        Position::startpos()
    } else if let Some(fen) = setup.strip_prefix("fen ") {
        Position::from_fen(fen.trim()).map_err(|e| format!("bad FEN: {e}"))?
    } else {
        return Err(format!(
            "position needs 'startpos' or 'fen <FEN>', got '{setup}'"
        ));
    };
    let mut history = Vec::new();
    let mut history_moves = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = parse_iccs(text)
            .filter(|&m| position.is_legal(m))
            .ok_or_else(|| {
                format!(
                    "move {} '{text}' is not legal in {}",
                    i + 1,
                    position.to_fen()
                )
            })?;
        history.push(position.hash());
        history_moves.push(m);
        position.make_move(m);
        if position.halfmove_clock() == 0 {
            history.clear();
            history_moves.clear();
        }
    }
    Ok(ParsedPosition {
        position,
        history,
        history_moves,
    })
}

/// Parses the arguments of `go` in either dialect: the limits and any `searchmoves`.
pub fn parse_go(
    rest: &str,
    dialect: Dialect,
    side: xiangqi_rules::Color,
) -> Result<(SearchLimits, Vec<String>), String> {
    let mut limits = SearchLimits::default();
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut search_moves = Vec::new();
    let mut i = 0;
    let value = |i: usize, key: &str| -> Result<u64, String> {
        words
            .get(i + 1)
            .and_then(|w| w.parse::<i64>().ok())
            .map(|v| v.max(0) as u64)
            .ok_or_else(|| format!("go: '{key}' needs a number"))
    };
    let ms = Duration::from_millis;
    let red = side == xiangqi_rules::Color::Red;
    while i < words.len() {
        let key = words[i];
        let mut consumed = 2;
        match key {
            "infinite" => {
                limits.infinite = true;
                consumed = 1;
            }
            "ponder" => {
                limits.ponder = true;
                consumed = 1;
            }
            "draw" => consumed = 1,
            "depth" => limits.depth = Some(value(i, key)?.clamp(1, 120) as i32),
            "nodes" => limits.nodes = Some(value(i, key)?.max(1)),
            "movetime" => limits.movetime = Some(ms(value(i, key)?)),
            "mate" => limits.mate = Some(value(i, key)?.clamp(1, 60) as u32),
            "movestogo" => limits.moves_to_go = Some(value(i, key)? as u32),
            "wtime" | "btime" => {
                let v = value(i, key)?;
                if (key == "wtime") == red {
                    limits.time_left = Some(ms(v));
                }
            }
            "winc" | "binc" => {
                let v = value(i, key)?;
                if (key == "winc") == red {
                    limits.increment = ms(v);
                }
            }
            // UCCI: `time T increment I` or `time T movestogo M`, in milliseconds, for the
            // side to move; `opptime`/`oppincrement`/`oppmovestogo` describe the opponent.
            "time" if dialect == Dialect::Ucci => limits.time_left = Some(ms(value(i, key)?)),
            "increment" if dialect == Dialect::Ucci => limits.increment = ms(value(i, key)?),
            "opptime" | "oppincrement" | "oppmovestogo" => {
                value(i, key)?;
            }
            "searchmoves" => {
                search_moves = words[i + 1..].iter().map(|s| s.to_string()).collect();
                consumed = words.len() - i;
            }
            "perft" => {
                return Err("go perft is not supported; use the `xiangqi perft` command".into());
            }
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
        i += consumed;
    }
    if limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.movetime.is_none()
        && limits.time_left.is_none()
        && limits.mate.is_none()
        && !limits.ponder
    {
        limits.infinite = true;
    }
    Ok((limits, search_moves))
}

/// An `info` line for one search line.
pub fn info_line(info: &SearchInfo, dialect: Dialect) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    let time = info.elapsed.as_millis();
    match dialect {
        Dialect::Uci => {
            let bound = match info.bound {
                Some(Bound::Lower) => " lowerbound",
                Some(Bound::Upper) => " upperbound",
                _ => "",
            };
            format!(
                "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {} pv {}",
                info.depth,
                info.seldepth,
                info.multipv,
                uci_score(info.score),
                bound,
                info.nodes,
                info.nps(),
                info.hashfull,
                time,
                pv.join(" ")
            )
        }
        Dialect::Ucci => format!(
            "info depth {} score {} time {} nodes {} pv {}",
            info.depth,
            info.score,
            time,
            info.nodes,
            pv.join(" ")
        ),
    }
}

/// The `bestmove` line (UCCI says `nobestmove` when there is no legal move).
pub fn bestmove_line(result: &SearchResult, dialect: Dialect) -> String {
    match (result.best_move, dialect) {
        (None, Dialect::Uci) => "bestmove (none)".to_string(),
        (None, Dialect::Ucci) => "nobestmove".to_string(),
        (Some(m), _) => match result.ponder_move {
            Some(p) => format!("bestmove {m} ponder {p}"),
            None => format!("bestmove {m}"),
        },
    }
}

/// Runs a session on standard input and output.
pub fn run_stdio(dialect: Dialect) {
    let out: Output = Arc::new(Mutex::new(std::io::stdout()));
    let mut session = Session::new(dialect, out);
    let stdin = std::io::stdin();
    session.run(stdin.lock());
}
