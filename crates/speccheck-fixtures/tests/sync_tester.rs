//! The file-synchronizer tester against the bundled reference
//! synchronizer and its mutants, run as real processes on temporary
//! replicas: the reference is never rejected, every mutant is, a rejection
//! shrinks to a few operations, and nothing is left behind or touched
//! outside the sandbox.

use std::time::Duration;

use speccheck::Config;
use speccheck::dual::tester::DualReport;
use speccheck::runner::report::RunVerdict;
use speccheck::sync::Profile;
use speccheck::sync::session::{Sandbox, Synchronizer};
use speccheck_fixtures::sync::SyncBug;

fn synchronizer(bug: Option<SyncBug>) -> Synchronizer {
    let flag = bug.map(|b| format!(" --bug {}", b.name())).unwrap_or_default();
    let command = format!("'{}'{flag} {{a}} {{b}} {{state}}", env!("CARGO_BIN_EXE_refsync"));
    let mut s = Synchronizer::from_profile(Profile::reference(command));
    s.timeout = Duration::from_secs(2);
    s
}

fn run(sync: Synchronizer, seed: u64, executions: u32, shrink: bool) -> DualReport {
    let (tester, _) = sync.tester().expect("the reference synchronizer is built");
    tester
        .with_settings(|s| s.fuel = 30)
        .config(Config { cases: executions, seed: Some(seed), database: None, shrink, ..Config::named("sync") })
        .run()
}

#[test]
fn the_reference_synchronizer_is_never_rejected() {
    let (tester, tally) = synchronizer(None).tester().expect("built");
    let r = tester
        .with_settings(|s| s.fuel = 30)
        .config(Config { cases: 120, seed: Some(11), database: None, ..Config::named("sync") })
        .run();
    assert!(r.passed(), "{r}");
    assert_eq!(r.inconclusive, 0, "{r}");
    // Not vacuous: synchronizations finished, with and without conflicts,
    // over every kind of change the tester makes.
    let c = tally.get();
    let code = |n: i64| c.exit_codes.get(&n).copied().unwrap_or(0);
    assert!(code(0) > 50 && code(1) > 10, "{c}");
    assert_eq!(c.executions, r.executions, "{c}");
    assert!(c.fewer_than(5).is_empty(), "too few {:?}: {c}", c.fewer_than(5));
}

#[test]
fn every_mutant_is_rejected() {
    let mut missed = Vec::new();
    for bug in SyncBug::ALL {
        let r = run(synchronizer(Some(bug)), 1, 400, false);
        let expected = match bug {
            SyncBug::HangsOnConflict => "LIVENESS",
            _ => "REJECTED",
        };
        match &r.run.verdict {
            RunVerdict::Failed(c) if c.failure.message.contains(expected) => {}
            _ => missed.push(format!("{}: {}", bug.name(), r.run.summary())),
        }
    }
    assert!(missed.is_empty(), "mutants not rejected:\n{}", missed.join("\n"));
}

#[test]
fn rejections_shrink_to_a_few_operations() {
    for (bug, at_most) in
        [(SyncBug::ExitZeroOnConflict, 5), (SyncBug::DropsPermissions, 4), (SyncBug::IgnoresNewDirs, 3)]
    {
        let r = run(synchronizer(Some(bug)), 3, 400, true);
        let exec = r.final_execution.as_ref().unwrap_or_else(|| panic!("{}: no final execution\n{r}", bug.name()));
        let steps = exec.trace.iter().filter(|t| t.sent).count();
        assert!(steps <= at_most, "{} shrunk to {steps} steps:\n{r}\n{}", bug.name(), exec.trace_lines());
    }
}

#[test]
fn a_hang_is_a_liveness_failure_that_names_the_time_limit() {
    let r = run(synchronizer(Some(SyncBug::HangsOnConflict)), 2, 400, false);
    let RunVerdict::Failed(c) = &r.run.verdict else { panic!("{r}") };
    assert!(c.failure.message.contains("2 s limit and was stopped"), "{}", c.failure.message);
}

#[test]
fn writes_outside_the_replicas_are_seen_and_stay_in_the_sandbox() {
    let r = run(synchronizer(Some(SyncBug::WritesOutside)), 4, 400, true);
    let exec = r.final_execution.as_ref().expect("rejected");
    assert!(exec.trace_lines().contains("\"outside\":[\"replicas/escaped\"]"), "{}", exec.trace_lines());
    // The sandbox's parent (the temporary directory) got nothing.
    assert!(!std::env::temp_dir().join("escaped").exists());
}

#[test]
fn sandboxes_are_removed_even_after_a_panic() {
    let sandbox = Sandbox::new(synchronizer(None), false).expect("sandbox");
    let path = sandbox.path().to_path_buf();
    std::fs::create_dir(path.join("replicas/a/locked")).unwrap();
    std::fs::write(path.join("replicas/a/locked/f"), b"x").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path.join("replicas/a/locked"), std::fs::Permissions::from_mode(0o500)).unwrap();
    let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        let _owned = sandbox;
        panic!("a panic while the sandbox is in use");
    }));
    assert!(unwound.is_err());
    assert!(!path.exists(), "{} was left behind", path.display());
}
