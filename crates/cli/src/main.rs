//! The `xiangqi` command: argument parsing and dispatch.

mod commands;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

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
    /// Speak UCI on standard input and output (ICCS moves, ranks 0-9).
    Uci,
    /// Speak UCCI on standard input and output.
    Ucci,
    /// Search the bench positions at a fixed depth; the last line is `<nodes> nodes <nps> nps`.
    Bench {
        /// Depth per position.
        #[arg(default_value_t = xiangqi_engine::bench::DEFAULT_DEPTH)]
        depth: i32,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            Ok(())
        }
        Some(Command::Moves { fen }) => commands::moves(fen.as_deref()),
        Some(Command::Perft { depth, fen, divide }) => {
            commands::perft(depth, fen.as_deref(), divide)
        }
        Some(Command::Uci) => {
            xiangqi_engine::protocol::run_stdio(xiangqi_engine::protocol::Dialect::Uci);
            Ok(())
        }
        Some(Command::Ucci) => {
            xiangqi_engine::protocol::run_stdio(xiangqi_engine::protocol::Dialect::Ucci);
            Ok(())
        }
        Some(Command::Bench { depth }) => {
            let report = xiangqi_engine::bench::run(depth, &mut |line| eprintln!("{line}"));
            println!("{}", report.summary());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
