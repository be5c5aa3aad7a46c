//! The `xiangqi` command: argument parsing and dispatch.

mod commands;
mod convert;
mod datagen;
mod egtb;
mod files;
mod judge;
mod match_cmd;
mod opening;
mod play;
mod puzzles;
mod review;
mod spsa_cmd;
mod users;

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::sync::Arc;
use xiangqi_engine::protocol;
use xiangqi_teaching::openings::book::EccoBook;

/// Play, learn and analyse Xiangqi (Chinese chess).
#[derive(Parser)]
#[command(name = "xiangqi", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// List every legal move: ICCS, WXF and Chinese notation, sorted by ICCS.
    Moves {
        /// The position (start position when absent).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Count the leaves of the legal move tree to DEPTH plies.
    Perft {
        /// Plies to search.
        depth: u32,
        /// The position (start position when absent).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
    /// Replay a game and print how it stands: `result: red-wins|black-wins|draw|ongoing
    /// reason: <text>`, judging perpetual checks and chases under the asian or cxq rules.
    Judge(judge::JudgeArgs),
    /// Convert a game record between PGN (ICCS, WXF or Chinese moves), XQF and DhtmlXQ.
    Convert(convert::ConvertArgs),
    /// Name a game's opening by the ECCO classification: `<code>\t<opening>\t<variation>`.
    Opening(opening::OpeningArgs),
    /// Review a game: judge every move with the engine, write the game as PGN with NAGs and
    /// comments, print each side's accuracy and counts of each class of move.
    Review(review::ReviewArgs),
    /// Speak UCI on standard input and output (ICCS moves, ranks 0-9).
    Uci {
        /// Also offer the search's tunable numbers as options (for `xiangqi spsa`).
        #[arg(long)]
        tune: bool,
    },
    /// Speak UCCI on standard input and output.
    Ucci,
    /// Tune the evaluation weights to labelled positions (`FEN;score[;capture]` lines) and
    /// write them as the source of `eval/weights.rs`.
    Tune {
        /// The labelled positions.
        data: std::path::PathBuf,
        /// Where to write the weights source (standard output when absent).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Passes over the data.
        #[arg(long, default_value_t = 400)]
        epochs: usize,
        /// Held-out positions to report the loss on, before and after.
        #[arg(long)]
        check: Option<std::path::PathBuf>,
    },
    /// Search the bench positions at a fixed depth; the last line is `<nodes> nodes <nps> nps`.
    Bench {
        /// Depth per position.
        #[arg(default_value_t = xiangqi_engine::bench::DEFAULT_DEPTH)]
        depth: i32,
        /// Evaluate with this network file (NNUE) instead of the built-in one.
        #[arg(long, conflicts_with = "handcrafted")]
        evalfile: Option<std::path::PathBuf>,
        /// Evaluate with the handcrafted evaluation instead of the built-in network.
        #[arg(long)]
        handcrafted: bool,
    },
    /// Play engines against each other (UCI or UCCI) with our arbiter; report Elo and SPRT.
    Match(Box<match_cmd::MatchArgs>),
    /// Tune an engine's whole-number options by game pairs (SPSA): our search's numbers under
    /// `uci --tune`; resumable from its state file.
    Spsa(spsa_cmd::SpsaArgs),
    /// Play in the browser: serve the app on 127.0.0.1 (the default with no subcommand).
    Play(play::PlayArgs),
    /// Host the app for many people (a club) at its public address, behind a reverse proxy
    /// such as nginx (see `deploy/`).
    Serve(play::ServeArgs),
    /// The accounts of a hosted server: list, add, remove, reset a password, set a role,
    /// disable or enable one, make invitation codes.
    Users(users::UsersArgs),
    /// Self-play training data for the learned evaluation: games at a node budget from
    /// balanced random starts, written to a compact file that a rerun continues.
    Datagen(datagen::DatagenArgs),
    /// Puzzles: mine and prove them (`generate`), re-run the proofs (`verify`), print the
    /// shipped set (`export`).
    Puzzles(puzzles::PuzzlesArgs),
    /// Endgame tablebases: generate exact tables of endings (`generate`), ask them about a
    /// position (`probe`), check them (`verify`), print their figures (`stats`).
    Egtb(egtb::EgtbArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => play::run(&play::PlayArgs::default()),
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Serve(args)) => play::serve(&args),
        Some(Command::Users(args)) => users::run(&args),
        Some(Command::Moves { fen }) => commands::moves(fen.as_deref()),
        Some(Command::Perft { depth, fen, divide }) => {
            commands::perft(depth, fen.as_deref(), divide)
        }
        Some(Command::Judge(args)) => judge::run(&args),
        Some(Command::Convert(args)) => convert::run(&args),
        Some(Command::Opening(args)) => opening::run(&args),
        Some(Command::Review(args)) => review::run(&args),
        Some(Command::Uci { tune }) => {
            protocol::run_stdio(protocol::Dialect::Uci, Some(Arc::new(EccoBook)), tune);
            Ok(())
        }
        Some(Command::Ucci) => {
            protocol::run_stdio(protocol::Dialect::Ucci, Some(Arc::new(EccoBook)), false);
            Ok(())
        }
        Some(Command::Tune {
            data,
            out,
            epochs,
            check,
        }) => commands::tune(&data, out.as_deref(), epochs, check.as_deref()),
        Some(Command::Bench {
            depth,
            evalfile,
            handcrafted,
        }) => commands::bench(depth, evalfile.as_deref(), handcrafted),
        Some(Command::Match(args)) => match_cmd::run(*args),
        Some(Command::Spsa(args)) => spsa_cmd::run(&args),
        Some(Command::Puzzles(args)) => puzzles::run(&args),
        Some(Command::Datagen(args)) => datagen::run_datagen(&args),
        Some(Command::Egtb(args)) => egtb::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
