//! The file-synchronizer tester against rclone bisync (Debian's `rclone`,
//! local directories only), through its built-in profile: the freedoms its
//! manual documents (files only, no permission bits, links skipped,
//! changes by timestamps, conflicts renamed `..path1`/`..path2`, a change
//! beating a deletion, `--resync` first and after a critical abort).
//! Skipped, saying so, when rclone is not installed (`./run test` installs
//! it).

use std::time::Duration;

use speccheck::Config;
use speccheck::runner::report::RunVerdict;
use speccheck::sync::Profile;
use speccheck::sync::session::Synchronizer;

/// rclone bisync either passes, saying what it exercised, or deviates from
/// the model with its own profile, with a short trace showing how (what
/// it found and what each finding is: `bench/results/sync-profiles.md`;
/// the deviation seen depends on timing, so either is a result).
#[test]
fn rclone_bisync_passes_with_its_figures_or_deviates_with_a_short_trace() {
    let rclone = Synchronizer::from_profile(Profile::rclone_bisync());
    if let Err(e) = rclone.check() {
        println!("SKIPPED: rclone bisync is not tested: {e}");
        return;
    }
    let (tester, tally) = rclone.tester().unwrap_or_else(|e| panic!("{e}"));
    let r = tester
        .configure(|c| {
            c.time_budget = Some(Duration::from_secs(120));
            c.shrink_time = Duration::from_secs(20);
        })
        .config(Config { cases: 60, seed: Some(3), database: None, ..Config::named("rclone") })
        .run();
    let c = tally.get();
    println!("rclone bisync: {}\n  exercised: {c}", r.run.summary());
    assert!(c.synchronizations() > 0, "{c}");
    match &r.run.verdict {
        RunVerdict::Passed => {
            let finished = c.exit_codes.get(&0).copied().unwrap_or(0);
            assert!(finished >= 30, "too few finished synchronizations: {c}");
            // Case-only renames are rarer here: a run with few renames.
            let low: Vec<_> = c.fewer_than(3).into_iter().filter(|k| *k != "case-only renames").collect();
            assert!(low.is_empty(), "too few {low:?}: {c}");
        }
        RunVerdict::Failed(_) => {
            let exec = r.final_execution.as_ref().expect("a rejection comes with its execution");
            println!("{}\n{}", exec.verdict, exec.trace_lines());
            let requests = exec.trace.iter().filter(|t| t.sent).count();
            assert!((1..=8).contains(&requests), "shrunk to {requests} requests:\n{}", exec.trace_lines());
            assert!(exec.verdict.to_string().contains("REJECTED"), "{}", exec.verdict);
        }
        other => panic!("neither a pass nor a deviation: {other:?}\n{r}"),
    }
}
