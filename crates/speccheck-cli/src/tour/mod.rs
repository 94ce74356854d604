//! The tour: one stop per technique, each running speccheck on bundled
//! buggy code (and, where there is one, the fixed version) and printing the
//! reports. A stop is *expected* to find its planted bug; the tour exits
//! with an error if one does not, so it doubles as an end-to-end check.

mod contracts;
mod core_engine;
mod dual;
mod http;
mod interface;
mod reduce;
mod sync;
mod target;

use std::time::{Duration, Instant};

use anyhow::{Context, bail};

/// What one check of a stop expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The planted bug must be found.
    Bug,
    /// The (correct) code must pass.
    Pass,
    /// The run must give up with an error (bad input to the framework).
    GiveUp,
}

/// The outcome of one check, for the closing summary.
pub struct Finding {
    /// What was checked.
    pub what: String,
    /// What was expected.
    pub expect: Expect,
    /// Whether speccheck's verdict matched.
    pub ok: bool,
    /// Time taken.
    pub elapsed: Duration,
}

/// A stop of the tour.
pub struct Stop {
    /// Short name (for `speccheck tour <name>`).
    pub name: &'static str,
    /// The technique and the paper it comes from.
    pub title: &'static str,
    /// Runs the stop, printing as it goes.
    pub run: fn(seed: u64) -> anyhow::Result<Vec<Finding>>,
}

fn stops() -> Vec<Stop> {
    vec![
        core_engine::stop(),
        reduce::stop(),
        target::stop(),
        contracts::stop(),
        interface::stop(),
        dual::stop(),
        http::stop(),
        sync::stop(),
    ]
}

/// How a run ended, as far as the tour is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Everything passed.
    Passed,
    /// A counterexample was found.
    Failed,
    /// The framework refused to call it a pass (too many rejected inputs).
    GaveUp,
    /// Anything else (flaky, errors).
    Other,
}

/// A report the tour can print and judge.
pub trait TourReport: std::fmt::Display {
    /// How the run ended.
    fn ended(&self) -> Ended;
}

impl TourReport for speccheck::RunReport {
    fn ended(&self) -> Ended {
        match self.verdict {
            speccheck::RunVerdict::Passed => Ended::Passed,
            speccheck::RunVerdict::Failed(_) => Ended::Failed,
            speccheck::RunVerdict::GaveUp { .. } => Ended::GaveUp,
            _ => Ended::Other,
        }
    }
}

impl TourReport for speccheck::interface::InterfaceReport {
    fn ended(&self) -> Ended {
        match self.verdict {
            speccheck::interface::Verdict::Passed => Ended::Passed,
            speccheck::interface::Verdict::Failed(_) => Ended::Failed,
            _ => Ended::Other,
        }
    }
}

/// Runs a report-producing check and records whether it met expectations.
pub fn check<R: TourReport>(what: &str, expect: Expect, run: impl FnOnce() -> R) -> Finding {
    check_that(what, expect, |_| Ok(()), run)
}

/// [`check`], with a further judgement of the report (e.g. "the
/// counterexample was generalized"); its complaint is printed.
pub fn check_that<R: TourReport>(
    what: &str,
    expect: Expect,
    judge: impl FnOnce(&R) -> Result<(), String>,
    run: impl FnOnce() -> R,
) -> Finding {
    let started = Instant::now();
    let report = run();
    let elapsed = started.elapsed();
    let kind = match expect {
        Expect::Bug => "planted bug",
        Expect::Pass => "correct code",
        Expect::GiveUp => "bad input to the framework",
    };
    println!("--- {what} ({kind})");
    println!("{report}");
    let ended = match expect {
        Expect::Bug => report.ended() == Ended::Failed,
        Expect::Pass => report.ended() == Ended::Passed,
        Expect::GiveUp => report.ended() == Ended::GaveUp,
    };
    let judged = judge(&report);
    if let Err(why) = &judged {
        println!("tour: {why}");
    }
    Finding { what: what.to_string(), expect, ok: ended && judged.is_ok(), elapsed }
}

pub fn run(selected: &[String], list: bool, seed: u64) -> anyhow::Result<()> {
    let all = stops();
    if list {
        for s in &all {
            println!("{:12} {}", s.name, s.title);
        }
        return Ok(());
    }
    for name in selected {
        if !all.iter().any(|s| s.name == name) {
            bail!("no tour stop named `{name}` (try `speccheck tour --list`)");
        }
    }
    let mut summary = Vec::new();
    let started = Instant::now();
    for stop in all.iter().filter(|s| selected.is_empty() || selected.iter().any(|n| n == s.name)) {
        println!("\n================ {} — {}\n", stop.name, stop.title);
        let findings = (stop.run)(seed).with_context(|| format!("tour stop `{}`", stop.name))?;
        summary.extend(findings.into_iter().map(|f| (stop.name, f)));
    }
    println!("\n================ summary\n");
    let mut failures = 0;
    for (stop, f) in &summary {
        let verdict = match (f.expect, f.ok) {
            (Expect::Bug, true) => "bug found",
            (Expect::Pass, true) => "passed",
            (Expect::GiveUp, true) => "reported as an error",
            (Expect::Bug, false) => "MISSED the planted bug",
            (Expect::Pass, false) => "FAILED on correct code",
            (Expect::GiveUp, false) => "NOT reported as an error",
        };
        if !f.ok {
            failures += 1;
        }
        println!("  {stop:10} {:62} {verdict:24} {:>8.1} ms", f.what, f.elapsed.as_secs_f64() * 1e3);
    }
    println!(
        "\n  {} checks, {} as expected, in {:.2} s",
        summary.len(),
        summary.len() - failures,
        started.elapsed().as_secs_f64()
    );
    if failures > 0 {
        bail!("{failures} tour checks did not go as expected");
    }
    Ok(())
}
