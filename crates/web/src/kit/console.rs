//! The server's lines for the person who started it: [`say!`](crate::say) on standard
//! output for what it does, [`say_err!`](crate::say_err) on standard error for what went
//! wrong. A closed output (a pipe whose reader went away, a closed terminal) loses the line
//! and nothing else: printing never stops the server, where `println!` would panic.

use std::fmt::Arguments;
use std::io::Write;

/// Writes `line` to standard output; see [`say!`](crate::say).
pub fn out(line: Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// Writes `line` to standard error; see [`say_err!`](crate::say_err).
pub fn err(line: Arguments<'_>) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// `println!` that never panics: a line on standard output, lost when it is closed.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::kit::console::out(format_args!($($arg)*))
    };
}

/// `eprintln!` that never panics: a line on standard error, lost when it is closed.
#[macro_export]
macro_rules! say_err {
    ($($arg:tt)*) => {
        $crate::kit::console::err(format_args!($($arg)*))
    };
}
