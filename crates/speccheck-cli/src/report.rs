//! What `speccheck http` and `speccheck sync` write with `--json`.

use std::time::Duration;

use serde_json::json;
use speccheck::runner::report::RunVerdict;
use speccheck_dual::dual::Rejection;
use speccheck_dual::exec::{Execution, Verdict};
use speccheck_dual::tester::DualReport;

/// Exit status: the system passed (findings, if any, never change it).
pub const PASSED: i32 = 0;
/// Exit status: the system was rejected (it broke an enforced rule).
pub const REJECTED: i32 = 1;
/// Exit status: the run could not start or the tester failed (a refused
/// connection, a bad option): no verdict on the system.
pub const SETUP_ERROR: i32 = 2;
/// Exit status: a failure that did not reproduce when replayed.
pub const FLAKY: i32 = 3;
/// Exit status: too many executions without a full verdict (inconclusive,
/// cut short by their budget) or the run gave up: neither pass nor
/// rejection.
pub const NO_VERDICT: i32 = 4;

/// The exit status for a verdict (see the constants).
pub fn exit_status(report: &DualReport) -> i32 {
    match report.run.verdict {
        RunVerdict::Passed => PASSED,
        RunVerdict::Failed(_) => REJECTED,
        RunVerdict::Flaky(_) => FLAKY,
        RunVerdict::Error(_) => SETUP_ERROR,
        RunVerdict::GaveUp { .. } | RunVerdict::Incomplete { .. } => NO_VERDICT,
    }
}

/// A machine-readable report of a run against `target`.
pub fn json_report(report: &DualReport, target: &str, elapsed: Duration) -> serde_json::Value {
    let verdict = match &report.run.verdict {
        RunVerdict::Passed => "passed",
        RunVerdict::Failed(_) => "rejected",
        RunVerdict::Flaky(_) => "flaky",
        RunVerdict::GaveUp { .. } => "no verdict (gave up)",
        RunVerdict::Incomplete { .. } => "no verdict (incomplete)",
        RunVerdict::Error(_) => "error",
    };
    let trace = |e: &Execution| {
        e.trace
            .iter()
            .map(|t| json!({"conn": t.conn, "sent": t.sent, "closed": t.closed, "label": t.label, "message": t.ir}))
            .collect::<Vec<_>>()
    };
    let rules = |r: &Rejection| {
        r.broken
            .iter()
            .map(|b| {
                json!({"level": b.rule.level.keyword(), "clause": b.rule.clause, "says": b.rule.says,
                       "answering": b.answering})
            })
            .collect::<Vec<_>>()
    };
    let failure = |e: &Execution| {
        json!({
            "verdict": e.verdict.to_string(),
            "kind": e.verdict.kind(),
            "identity": e.verdict.identity(),
            "rules": match &e.verdict { Verdict::Rejected(r) => rules(r), _ => Vec::new() },
            "trace": trace(e),
        })
    };
    let others: Vec<serde_json::Value> = report
        .other_failures
        .iter()
        .map(|o| {
            json!({
                "summary": o.run.summary(),
                "failure": o.final_execution.as_ref().map(failure),
                "replay": match &o.run.verdict {
                    RunVerdict::Failed(c) => Some(format!("SPECCHECK_REPLAY={}", c.replay_string())),
                    _ => None,
                },
            })
        })
        .collect();
    let findings: Vec<serde_json::Value> = report
        .findings
        .iter()
        .map(|f| {
            json!({
                "identity": f.identity,
                "rules": rules(&f.rejection),
                "seen": f.seen,
                "rejection": f.rejection.to_string(),
                "trace": trace(&f.execution),
            })
        })
        .collect();
    json!({
        "target": target,
        "verdict": verdict,
        "report": report.to_string(),
        "executions": report.executions,
        "interactions": report.interactions,
        "exit_status": exit_status(report),
        "inconclusive": report.inconclusive,
        "inconclusive_reasons": report.inconclusive_reasons,
        "budget_hits": report.budget_hits,
        "findings_cut_short": report.findings_cut_short,
        "findings": findings,
        "elapsed_ms": elapsed.as_millis() as u64,
        "first_failure": report.first_failure.as_ref().map(|f| json!({
            "after_ms": f.after.as_millis() as u64, "executions": f.executions, "interactions": f.interactions,
        })),
        "failure": report.final_execution.as_ref().map(failure),
        "other_failures": others,
        "replay": match &report.run.verdict {
            RunVerdict::Failed(c) | RunVerdict::Flaky(c) => Some(format!("SPECCHECK_REPLAY={}", c.replay_string())),
            _ => None,
        },
    })
}
