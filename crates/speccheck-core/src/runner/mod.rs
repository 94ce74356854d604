//! The runner: turns a generator and a property into a verdict.
//!
//! [`Property`] is the entry point (the `#[property]` attribute expands to
//! it). A `Run` (run.rs) sets up what surrounds the engine (the
//! write-ahead journal, the thread that watches for hangs); the engine
//! composes the phases of a run (`engine.rs`, one module per phase under
//! `phase/`), running cases through an executor (in place, threads, or a
//! child process: `executor/`). A property is also a fuzz target
//! (`fuzz.rs`): a fuzzer's input read as choices, a failure handed to a
//! run as its start input.

pub mod config;
mod engine;
mod executor;
pub mod explain;
mod finish;
pub mod fuzz;
mod health;
mod isolate;
mod phase;
mod pool;
mod property;
pub mod report;
mod run;
pub mod source;
mod subject;
mod tally;

use std::fmt::Debug;

pub use crate::case::{
    CaseResult, FailureInfo, FailureKind, Outcome, SharedTest, TestFn, TestResult, Verdict, assume, collect, cover,
    label, note, reject,
};
pub use config::{Config, ConfigError, ExplainMode, IntegerMix, PHASE_NAMES, Phases, Profile, Verbosity};
pub use explain::{ExplainContext, Explainer, Explanation};
pub use finish::{AsFuzzTarget, AsTest, Finish};
pub use fuzz::{FuzzError, FuzzOutcome, FuzzTarget};
pub use property::Property;
pub use report::{Counterexample, InputSizes, Rebuild, RunReport, RunStats, RunVerdict, Section};
pub use source::{InputSource, SourceStep};

use crate::gens::Generator;

/// Prints a passing report's statistics or panics with a failing one, at
/// the caller's location (the property), without speccheck's own stack.
#[track_caller]
pub fn finish(report: RunReport) {
    if report.passed() {
        // Summaries asked for (`stats`) and warnings are written past the
        // test harness's capture: a passing test's output is never shown.
        let mut direct = String::new();
        if report.verbosity >= Verbosity::Stats {
            direct.push_str(&report.to_string());
        } else if report.verbosity >= Verbosity::Normal {
            println!("{report}");
        }
        for w in &report.warnings {
            direct.push_str(&format!("speccheck warning ({}): {w}\n", report.name));
        }
        if !direct.is_empty() {
            use std::io::Write as _;
            let _ = std::io::stderr().lock().write_all(direct.as_bytes());
        }
    } else {
        crate::case::context::raise_report(format!("\n{report}"));
    }
}

/// Checks `body` on values of `generator` with default settings (named after the
/// current test), panicking with the report on failure.
#[track_caller]
pub fn check<G, V>(generator: G, body: impl Fn(G::Value) -> V + Send + Sync + 'static)
where
    G: Generator + 'static,
    G::Value: Debug + 'static,
    V: Verdict,
{
    Property::new(generator).check(body)
}
