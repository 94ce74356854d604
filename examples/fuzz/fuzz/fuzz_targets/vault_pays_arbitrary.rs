//! The throughput baseline of the benchmark (`bench/fuzz.sh`): the
//! property of `vault_pays` under a plain libFuzzer target whose commands
//! are decoded by `arbitrary`, with no speccheck in the loop.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use speccheck_fuzz_example::vault::{Command, Vault};

/// `Command`, decoded by `arbitrary`.
#[derive(Arbitrary, Debug)]
enum Cmd {
    Enter(u32),
    Deposit(u16),
    Withdraw(u16),
    Lock,
}

libfuzzer_sys::fuzz_target!(|commands: Vec<Cmd>| {
    let mut v = Vault::default();
    let (mut paid_in, mut paid_out) = (0u64, 0u64);
    for c in &commands {
        let c = match *c {
            Cmd::Enter(n) => Command::Enter(n),
            Cmd::Deposit(n) => Command::Deposit(n),
            Cmd::Withdraw(n) => Command::Withdraw(n),
            Cmd::Lock => Command::Lock,
        };
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
