//! `xiangqi judge`: replays a game and prints, on one line, how it stands under a rule set.

use clap::Args;
use xiangqi_rules::notation::parse_any;
use xiangqi_rules::{Game, GameRules, Move, Outcome, Position, RuleSet, Verdict};

/// The arguments of `xiangqi judge`.
#[derive(Args)]
pub struct JudgeArgs {
    /// The start position (the standard start position when absent).
    #[arg(long)]
    fen: Option<String>,
    /// The moves played, separated by spaces: ICCS (`h2e2`, ranks 0-9), WXF or Chinese.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    moves: String,
    /// The rule set: `asian` (AXF/WXF) or `cxq`.
    #[arg(long, default_value_t = RuleSet::Asian)]
    rules: RuleSet,
    /// Plies without a capture that draw under the asian rules (0: never).
    #[arg(long, default_value_t = xiangqi_rules::draw::NO_CAPTURE_PLIES)]
    no_capture_plies: u32,
}

/// Reads the `number`-th move text `text` in `pos`, saying what is wrong when it is not a
/// legal move there.
fn read_move(pos: &Position, number: usize, text: &str) -> Result<Move, String> {
    let fail = |why: &dyn std::fmt::Display| format!("move {number} ({text}): {why}");
    let coords = text.replace('-', "");
    if let Ok(m) = coords.parse::<Move>() {
        return pos.check_move(m.from(), m.to()).map_err(|e| fail(&e));
    }
    parse_any(pos, text).map_err(|e| fail(&e))
}

/// The reason text for a finished game.
fn reason(outcome: &Outcome) -> String {
    match &outcome.reason {
        xiangqi_rules::EndReason::Verdict(v) => Verdict::describe(v),
        other if outcome.ply > 0 => format!("{other} (move {})", outcome.ply),
        other => other.to_string(),
    }
}

/// `xiangqi judge`: `result: red-wins|black-wins|draw|ongoing reason: <text>`.
pub fn run(args: &JudgeArgs) -> Result<(), String> {
    let start = match &args.fen {
        None => Position::startpos(),
        Some(text) => Position::from_fen(text).map_err(|e| format!("bad FEN: {e}"))?,
    };
    let rules = GameRules {
        no_capture_plies: args.no_capture_plies,
        ..GameRules::new(args.rules)
    };
    let mut game = Game::with_rules(start, rules);
    for (i, text) in args.moves.split_whitespace().enumerate() {
        let m = read_move(game.position(), i + 1, text)?;
        game.play(m)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
    }
    let line = match game.outcome() {
        Some(outcome) => format!("result: {} reason: {}", outcome.result, reason(outcome)),
        None => {
            let side = game.position().side_to_move();
            let seen = game.occurrences();
            if seen > 1 {
                format!(
                    "result: ongoing reason: the game goes on with {side} to move; \
                     the position has occurred {seen} times"
                )
            } else {
                format!("result: ongoing reason: the game goes on with {side} to move")
            }
        }
    };
    println!("{line}");
    Ok(())
}
