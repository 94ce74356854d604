//! Tour stop: the file-synchronizer tester — a model of two replicas and
//! of reconciliation, dualized into a tester that changes real files, runs
//! the synchronizer as a process and checks both replicas and its exit
//! code: here the bundled reference synchronizer, two of its mutants, and
//! Unison when it is installed (`speccheck sync --unison`).

use std::fmt;

use speccheck::{Config, RunVerdict};
use speccheck_dual::tester::DualReport;
use speccheck_fixtures::sync::SyncBug;
use speccheck_sync::Profile;
use speccheck_sync::session::Synchronizer;

use super::{Ended, Expect, Finding, Stop, TourReport, check};

pub fn stop() -> Stop {
    Stop {
        name: "sync",
        title: "File synchronizers from a model: a bundled synchronizer, its mutants, Unison (Li's thesis §6.2)",
        run,
    }
}

/// A run's report with the shrunk run shown step by step.
struct Shown(DualReport);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let (RunVerdict::Failed(_), Some(exec)) = (&self.0.run.verdict, &self.0.final_execution) {
            writeln!(f, "{}\n\nthe shrunk run:\n\n{}", exec.verdict, exec.trace_lines())?;
        }
        write!(f, "{}", self.0)
    }
}

impl TourReport for Shown {
    fn ended(&self) -> Ended {
        self.0.run.ended()
    }
}

fn run(seed: u64) -> anyhow::Result<Vec<Finding>> {
    let exe = std::env::current_exe()?;
    let reference = |bug: Option<SyncBug>| {
        let flag = bug.map(|b| format!(" --bug {}", b.name())).unwrap_or_default();
        Profile::reference(format!("'{}' sync-reference{flag} {{a}} {{b}} {{state}}", exe.display()))
    };
    let mut cases = vec![
        ("the bundled reference synchronizer", reference(None), Expect::Pass),
        ("a write-delete conflict resolved by deleting", reference(Some(SyncBug::DeleteWins)), Expect::Bug),
        ("copies that lose permission bits", reference(Some(SyncBug::DropsPermissions)), Expect::Bug),
    ];
    let unison = Synchronizer::from_profile(Profile::unison());
    if unison.check().is_ok() {
        cases.push(("Unison 2.52 (as this user)", Profile::unison(), Expect::Pass));
    } else {
        println!("  (Unison is not installed: `apt-get install -y unison` adds it to this stop)");
    }
    let mut out = Vec::new();
    for (what, profile, expect) in cases {
        let (tester, _) = Synchronizer::from_profile(profile).tester().map_err(|e| anyhow::anyhow!("{e}"))?;
        out.push(check(what, expect, || {
            Shown(tester.config(Config { cases: 150, seed: Some(seed), database: None, ..Config::named("sync") }).run())
        }));
    }
    Ok(out)
}
