//! What the command-line tests share: running the `xiangqi` binary as a user does.

use std::process::{Command, Output};

/// Runs the `xiangqi` binary built for the tests with `args`; its exit status and output.
pub fn xiangqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(args)
        .output()
        .expect("run xiangqi")
}
