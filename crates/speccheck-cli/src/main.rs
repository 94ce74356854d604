//! `speccheck`: the command-line front door.
//!
//! `speccheck tour` runs every technique on bundled buggy code and prints
//! what it finds; `speccheck tour --list` names the stops; `speccheck tour
//! <stop>…` runs some of them.

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
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Tour { stops, list, seed } => tour::run(&stops, list, seed),
    };
    if let Err(e) = result {
        eprintln!("speccheck: {e:#}");
        std::process::exit(1);
    }
}
