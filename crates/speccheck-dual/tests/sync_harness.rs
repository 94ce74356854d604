//! The file-synchronizer tester's harness and model against trivial
//! synchronizers (shell commands): what they do is known, so the verdict is.

use speccheck::Config;
use speccheck::runner::report::RunVerdict;
use speccheck_dual::Tester;
use speccheck_dual::exec::local::Local;
use speccheck_dual::protocols::sync::Sync;
use speccheck_dual::protocols::sync::session::Synchronizer;

fn config(name: &str, cases: u32) -> Config {
    Config { cases, database: None, seed: Some(0x5c), ..Config::named(name) }
}

fn tester(command: &str) -> Tester<Sync> {
    let target: Local = Synchronizer::new(command).target().expect("sh exists");
    Tester::new(Sync::detect(), target).with_settings(|s| {
        s.conns = 1;
        s.fuel = 30;
    })
}

#[test]
fn a_synchronizer_that_does_nothing_and_says_it_synced_is_rejected() {
    let r = tester("true").config(config("sync-true", 50)).run();
    match &r.run.verdict {
        RunVerdict::Failed(c) => assert!(c.failure.message.contains("REJECTED"), "{r}"),
        other => panic!("expected a rejection, got {other:?}\n{r}"),
    }
}

#[test]
fn a_synchronizer_that_always_stops_early_and_says_so_is_allowed() {
    // Exit 2 allows any subset of the propagations, none included.
    let r = tester("exit 2").config(config("sync-exit-2", 30)).run();
    assert!(r.passed(), "{r}");
}

#[test]
fn a_missing_command_is_a_setup_error_naming_it() {
    let err = Synchronizer::new("no-such-synchronizer {a} {b}").target().err().expect("not found");
    assert!(err.to_string().contains("`no-such-synchronizer`"), "{err}");
}
