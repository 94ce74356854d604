//! The record of one execution: its verdict, the script as taken, the
//! trace, and counters.

use std::time::Duration;

use super::Verdict;
use crate::dual::{Rejection, ValidatorStats};
use crate::harness::script::Step;
use crate::protocol::TraceEntry;

/// Everything one execution produced.
#[derive(Clone, Debug)]
pub struct Execution {
    /// How it ended.
    pub verdict: Verdict,
    /// The script as executed.
    pub steps: Vec<Step>,
    /// When each step was taken, from the start of the execution (to
    /// repeat a script at the pace it failed at).
    pub pacing: Vec<Duration>,
    /// Messages sent and received, in the intermediate representation.
    pub trace: Vec<TraceEntry>,
    /// Requests sent.
    pub sent: usize,
    /// Responses received.
    pub received: usize,
    /// Steps whose J-expression did not stand for a request.
    pub skipped: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The validator's counters.
    pub validator: ValidatorStats,
    /// Time spent validating observations (the validator's share of
    /// `elapsed`).
    pub validation: Duration,
    /// The first response that breaks a rule the validator did not enforce
    /// (a SHOULD, when it enforces MUSTs): a finding, not a failure.
    pub finding: Option<Rejection>,
    /// The validator looking for findings had no verdict (too many
    /// branches, out of fuel, too slow) before the execution ended: the
    /// responses after that point were not looked at for findings.
    pub findings_cut_short: bool,
}

impl Execution {
    /// Messages sent and received.
    pub fn interactions(&self) -> usize {
        self.sent + self.received
    }

    /// The trace, one message per line.
    pub fn trace_lines(&self) -> String {
        let mut s = String::new();
        for (i, e) in self.trace.iter().enumerate() {
            if e.closed {
                s.push_str(&format!("#{i:<3}       conn {} closed by the server\n", e.conn));
                continue;
            }
            let arrow = if e.sent { "->" } else { "<-" };
            s.push_str(&format!("#{i:<3} [{:>3}] conn {} {arrow} {}\n", e.label, e.conn, e.ir));
        }
        s
    }
}
