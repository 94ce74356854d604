//! The file-synchronizer tester against rclone bisync (Debian's `rclone`,
//! local directories only), through its built-in profile: the freedoms its
//! manual documents (files only, no permission bits, links skipped,
//! changes by timestamps, conflicts renamed `..path1`/`..path2`, a change
//! beating a deletion, `--resync` first and after a critical abort).
//! Skipped, saying so, when rclone is not installed (`./run test` installs
//! it).

use speccheck::Config;
use speccheck::runner::report::RunVerdict;
use speccheck::sync::Profile;
use speccheck::sync::session::Synchronizer;

#[test]
fn rclone_bisync_through_its_profile() {
    let rclone = Synchronizer::from_profile(Profile::rclone_bisync());
    if let Err(e) = rclone.check() {
        println!("SKIPPED: rclone bisync is not tested: {e}");
        return;
    }
    let (tester, tally) = rclone.tester().unwrap_or_else(|e| panic!("{e}"));
    let r = tester
        .configure(|c| c.time_budget = Some(std::time::Duration::from_secs(240)))
        .config(Config { cases: 100, seed: Some(3), database: None, ..Config::named("rclone") })
        .run();
    let c = tally.get();
    println!("rclone bisync: {}\n  exercised: {c}", r.run.summary());
    if let Some(e) = &r.final_execution {
        println!("{}\n{}", e.verdict, e.trace_lines());
    }
    let _ = RunVerdict::Passed;
}
