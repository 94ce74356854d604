//! The baseline of the benchmark (`bench/fuzz.sh`): the vault under a
//! plain libFuzzer target whose commands are decoded by `arbitrary`, with
//! no speccheck in the loop (the property's body, as the example crate
//! defines it).
#![no_main]

#[path = "common/arbitrary_commands.rs"]
mod arbitrary_commands;

use arbitrary_commands::Cmd;
use speccheck_fuzz_example::vault::{Command, overdraft};

libfuzzer_sys::fuzz_target!(|commands: Vec<Cmd>| {
    if let Some((paid_out, paid_in)) = overdraft(commands.iter().map(Command::from)) {
        panic!("paid out {paid_out}, more than the {paid_in} paid in");
    }
});
