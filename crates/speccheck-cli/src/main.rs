//! `speccheck`: the command-line front door.
//!
//! `speccheck tour` runs every technique on bundled buggy code and prints
//! what it finds; `speccheck tour --list` names the stops; `speccheck tour
//! <stop>…` runs some of them. `speccheck http` tests an HTTP/1.1 server
//! against the model (the bundled reference server by default);
//! `speccheck sync` tests a file synchronizer (the bundled reference
//! synchronizer by default, Unison with `--unison`). The bundled systems
//! come from `speccheck-fixtures`.
//!
//! One subcommand is hidden, `speccheck sync-reference`: the bundled
//! reference synchronizer as a program. The tester runs a synchronizer as a
//! command on real directories, with a time limit and stopping its whole
//! process group on a hang, so the bundled one must be a program of its
//! own; `speccheck sync` runs its own executable with this subcommand, the
//! one program sure to be there (a second binary would not be built by
//! `cargo run -p speccheck-cli`). It is not for users, hence hidden.

mod http;
mod report;
mod sync;
mod tour;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "speccheck", version, about = "Specifications into tests, failures into explanations")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every technique on bundled buggy code and show what it finds.
    Tour {
        /// Run only these stops (see --list).
        stops: Vec<String>,
        /// List the stops and exit.
        #[arg(long)]
        list: bool,
        /// Seed for every property (the tour is reproducible).
        #[arg(long, default_value_t = 2026)]
        seed: u64,
    },
    /// Test an HTTP/1.1 server against the model: the bundled reference
    /// server (or a mutant of it) by default, or --target HOST:PORT.
    /// Rejects only for RFC 9110 MUSTs (--strict: SHOULDs too); SHOULDs not
    /// followed are findings. Exit status: 0 passed, 1 rejected, 2 setup
    /// error, 3 flaky, 4 no verdict (too many inconclusive executions).
    Http(Box<http::Args>),
    /// Test a file synchronizer against the model of reconciliation: the
    /// bundled reference synchronizer (or a mutant of it) by default,
    /// --unison, or --command '<command with {a} {b}>'.
    /// Exit status: 0 passed, 1 rejected, 2 setup error, 3 flaky, 4 no
    /// verdict (too many inconclusive executions).
    Sync(Box<sync::Args>),
    /// The bundled reference synchronizer itself: `[--bug NAME] A B STATE`
    /// (what `speccheck sync` and the tour run, as a process: see the
    /// module docs).
    #[command(hide = true)]
    SyncReference {
        /// Its arguments.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

fn main() {
    let cli = Cli::parse();
    // Errors: the tour exits 1; the testers exit with a setup error.
    let (result, error_status) = match cli.command {
        Command::Tour { stops, list, seed } => (tour::run(&stops, list, seed).map(|()| 0), 1),
        Command::Http(args) => (http::run(*args), report::SETUP_ERROR),
        Command::Sync(args) => (sync::run(*args), report::SETUP_ERROR),
        Command::SyncReference { args } => std::process::exit(sync::reference(&args)),
    };
    match result {
        Ok(status) => std::process::exit(status),
        Err(e) => {
            eprintln!("speccheck: {e:#}");
            std::process::exit(error_status);
        }
    }
}
