//! Running the `speccheck` binary from the CLI tests.

use std::process::{Command, Output};

/// `speccheck <subcommand> <args>`, without backtraces in its output.
pub fn speccheck(subcommand: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_speccheck"))
        .arg(subcommand)
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("the speccheck binary runs")
}

/// Everything the command printed.
pub fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}
