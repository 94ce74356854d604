//! The baseline of the benchmark (`bench/fuzz.sh`): the vault under a
//! plain libFuzzer target whose commands are decoded by `arbitrary`, with
//! no speccheck in the loop (the property's body, as written in the
//! example crate).
#![no_main]

#[path = "common/arbitrary_commands.rs"]
mod arbitrary_commands;

use arbitrary_commands::Cmd;
use speccheck_fuzz_example::vault::{Command, Vault};

libfuzzer_sys::fuzz_target!(|commands: Vec<Cmd>| {
    let mut v = Vault::default();
    let (mut paid_in, mut paid_out) = (0u64, 0u64);
    for c in &commands {
        let c = Command::from(c);
        if let Command::Deposit(n) = c {
            paid_in += u64::from(n);
        }
        paid_out += u64::from(v.run(&c));
        assert!(paid_out <= paid_in, "paid out {paid_out}, more than the {paid_in} paid in");
    }
});
