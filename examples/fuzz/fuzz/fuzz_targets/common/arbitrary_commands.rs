//! The vault's commands as the `arbitrary` baselines decode them
//! (`#[derive(Arbitrary)]`), shared by `vault_arbitrary.rs` and
//! `vault_pays_arbitrary.rs`.

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use speccheck_fuzz_example::vault::Command;

/// `Command`, decoded by `arbitrary`.
#[derive(Arbitrary, Debug)]
pub enum Cmd {
    Enter(u32),
    Deposit(u16),
    Withdraw(u16),
    Lock,
}

impl From<&Cmd> for Command {
    fn from(c: &Cmd) -> Command {
        match *c {
            Cmd::Enter(n) => Command::Enter(n),
            Cmd::Deposit(n) => Command::Deposit(n),
            Cmd::Withdraw(n) => Command::Withdraw(n),
            Cmd::Lock => Command::Lock,
        }
    }
}
