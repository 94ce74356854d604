//! What `speccheck http` and `speccheck sync` write with `--json`.

use std::time::Duration;

use serde_json::json;
use speccheck::runner::report::RunVerdict;
use speccheck_dual::tester::DualReport;

/// The exit status for a verdict: 0 passed, 1 rejected, 2 no verdict.
pub fn exit_status(report: &DualReport) -> i32 {
    match report.run.verdict {
        RunVerdict::Passed => 0,
        RunVerdict::Failed(_) | RunVerdict::Flaky(_) => 1,
        _ => 2,
    }
}

/// A machine-readable report of a run against `target`.
pub fn json_report(report: &DualReport, target: &str, elapsed: Duration) -> serde_json::Value {
    let verdict = match &report.run.verdict {
        RunVerdict::Passed => "passed",
        RunVerdict::Failed(_) => "rejected",
        RunVerdict::Flaky(_) => "rejected (flaky)",
        RunVerdict::GaveUp { .. } => "no verdict (gave up)",
        RunVerdict::Incomplete { .. } => "no verdict (incomplete)",
        RunVerdict::Error(_) => "error",
    };
    let failure = report.final_execution.as_ref().map(|e| {
        json!({
            "verdict": e.verdict.to_string(),
            "kind": e.verdict.kind(),
            "trace": e.trace.iter().map(|t| json!({
                "conn": t.conn, "sent": t.sent, "closed": t.closed, "label": t.label, "message": t.ir,
            })).collect::<Vec<_>>(),
        })
    });
    json!({
        "target": target,
        "verdict": verdict,
        "report": report.to_string(),
        "executions": report.executions,
        "interactions": report.interactions,
        "inconclusive": report.inconclusive,
        "elapsed_ms": elapsed.as_millis() as u64,
        "first_failure": report.first_failure.map(|f| json!({
            "after_ms": f.after.as_millis() as u64, "executions": f.executions, "interactions": f.interactions,
        })),
        "failure": failure,
        "replay": match &report.run.verdict {
            RunVerdict::Failed(c) | RunVerdict::Flaky(c) => Some(format!("SPECCHECK_REPLAY={}", c.replay_string())),
            _ => None,
        },
    })
}
