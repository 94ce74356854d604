//! The throughput baseline of the benchmark (`bench/fuzz-throughput.sh`):
//! the property of `vault_pays` under a plain libFuzzer target whose
//! commands are decoded by `arbitrary`, with no speccheck in the loop.
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
        let asked = match c {
            Command::Deposit(n) => {
                paid_in += u64::from(n);
                0
            }
            Command::Withdraw(n) => u32::from(n),
            _ => 0,
        };
        let paid = v.run(&c);
        assert!(paid <= asked, "{c:?} paid {paid}");
        paid_out += u64::from(paid);
        if paid_out > paid_in {
            return;
        }
    }
});
