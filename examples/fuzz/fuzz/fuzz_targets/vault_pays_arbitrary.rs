//! The throughput baseline of the benchmark (`bench/fuzz-throughput.sh`):
//! the property of `vault_pays` under a plain libFuzzer target whose
//! commands are decoded by `arbitrary`, with no speccheck in the loop.
#![no_main]

#[path = "common/arbitrary_commands.rs"]
mod arbitrary_commands;

use arbitrary_commands::Cmd;
use speccheck_fuzz_example::vault::{Command, overpayment};

libfuzzer_sys::fuzz_target!(|commands: Vec<Cmd>| {
    if let Some((c, paid)) = overpayment(commands.iter().map(Command::from)) {
        panic!("{c:?} paid {paid}");
    }
});
