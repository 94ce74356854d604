//! Hangs: a case that runs past the timeout in this process. The watching
//! thread sees it (see [`crate::watch`]), abandons the hung thread (Rust
//! cannot kill one) and reports the case as a timeout failure with its
//! input. Such a report is unshrunk — each hanging candidate would abandon
//! another thread — unless the property can run isolated: then the hanging
//! input is shrunk in child processes, where a hanging candidate is killed.

use crate::test_case::CaseControl as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::case::{CaseResult, FailureInfo, FailureKind, Outcome};
use crate::choice::ChoiceSequence;
use crate::human;
use crate::runner::config::Config;
use crate::runner::engine::Engine;
use crate::runner::isolate;
use crate::runner::report::{Counterexample, RunReport, RunVerdict};
use crate::term::Term;
use crate::test_case::{Tail, TestCase, catch_invalid};
use crate::watch::{Hang, Phase, Watch};

impl Engine {
    /// The report for a case that hung (built on the watching thread).
    pub(crate) fn timeout_report(&self, hang: Hang, timeout: Duration, started: Instant) -> RunReport {
        let message = format!(
            "no result after {} (timeout {}); the thread running it was abandoned",
            human::duration(hang.elapsed),
            human::duration(timeout)
        );
        let failure = FailureInfo { kind: FailureKind::Timeout, message, location: None, in_generator: false };
        let (choices, inputs, found_after, notes) = match hang.phase {
            Phase::Generate => {
                let (choices, inputs) = self.rebuilt(self.cases.generated(hang.case));
                (choices, inputs, self.input_number(hang.case), Vec::new())
            }
            Phase::Enumerate => {
                // The input was known before it ran: the values of its
                // choices (an enumeration's prefix, then the simplest
                // choices); replayed here for its inputs and its choices.
                let known = hang.choices.unwrap_or_default();
                let tc = TestCase::replay(known, Tail::Simplest).with_max_depth(self.config.max_depth);
                let (choices, inputs) = self.rebuilt(tc);
                (choices, inputs, hang.case, Vec::new())
            }
            Phase::Replay => {
                let choices = ChoiceSequence(hang.choices.unwrap_or_default());
                let inputs = self.describe_choices(&choices);
                let note = "this input was replayed from the failure database or SPECCHECK_REPLAY".to_string();
                (choices, inputs, 0, vec![note])
            }
            Phase::Shrink | Phase::Explain => {
                if let Some(report) = self.hang_while_shrinking(timeout, started) {
                    return report;
                }
                (ChoiceSequence::default(), Vec::new(), 0, Vec::new())
            }
        };
        let stand_in = stand_in(&failure, choices, inputs, notes);
        let mut warnings = Vec::new();
        let saved_to = self.persist(&stand_in, &failure, &mut warnings);
        let cx = Counterexample { saved_to, ..self.counterexample(&stand_in, failure, found_after) };
        self.report(RunVerdict::Failed(Box::new(cx)), self.new_stats(), warnings, started)
    }

    /// The input `tc` makes, drawn here without running the property (its
    /// choices, and its inputs as the report shows them).
    fn rebuilt(&self, tc: TestCase) -> (ChoiceSequence, Vec<(String, Term)>) {
        let mut tc = tc.with_final(true);
        let describe = self.subject.describe.clone();
        let inputs =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| catch_invalid(&mut tc, |tc| describe(tc))))
                .ok()
                .and_then(Result::ok)
                .unwrap_or_default();
        (tc.finish().0, inputs)
    }

    /// A candidate hung while shrinking or explaining: the report is the
    /// smallest failure found so far, with a note.
    fn hang_while_shrinking(&self, timeout: Duration, started: Instant) -> Option<RunReport> {
        let (choices, info) = self.failing.lock().unwrap_or_else(|e| e.into_inner()).clone()?;
        let inputs = self.describe_choices(&choices);
        let note = format!(
            "shrinking stopped early: a smaller candidate input ran for more than {} (the property can also hang)",
            human::duration(timeout)
        );
        let case = stand_in(&info, choices, inputs, vec![note]);
        let cx = Counterexample { original_choices: 0, ..self.counterexample(&case, info, 0) };
        Some(self.report(RunVerdict::Failed(Box::new(cx)), self.new_stats(), Vec::new(), started))
    }

    /// A case that hung in this process is reported unshrunk. When the
    /// property can run isolated, the hanging input is shrunk there — a
    /// candidate that hangs is killed — and that report (with a note)
    /// replaces this one; otherwise the report stays as it was.
    pub(crate) fn shrink_hang_isolated(&self, report: RunReport) -> RunReport {
        let Some(c) = report.counterexample() else { return report };
        let config = &self.config;
        if c.failure.kind != FailureKind::Timeout
            || c.shrink.is_some()
            || c.choices.is_empty()
            || !config.shrink
            || isolate::child::serves(&config.name)
        {
            return report;
        }
        let Some(test_path) = config.test_path.as_deref() else { return report };
        let Ok(child) = isolate::parent::Isolated::new(&config.name, test_path) else { return report };
        let retry_config =
            Config { isolate: true, start_from: Some(c.choices.clone()), replay: None, ..config.clone() };
        // It starts from the counterexample: no other input is needed.
        let watch = Arc::new(Watch::new(1, false));
        let retry =
            Engine::new(self.subject.clone(), retry_config, self.seed, self.db.clone(), watch, Some(child), None);
        let mut shrunk = retry.run();
        match shrunk.counterexample() {
            Some(s) if s.failure.kind == FailureKind::Timeout => {
                if let RunVerdict::Failed(cx) = &mut shrunk.verdict {
                    cx.found_after = c.found_after;
                    cx.source = c.source.clone();
                    cx.notes.push(
                        "the case hung in this process (its thread was abandoned); its input was then shrunk in \
                         child processes, each hanging candidate killed at the limit shown"
                            .into(),
                    );
                }
                shrunk
            }
            _ => report,
        }
    }
}

/// The case a hang's report shows: it never finished, so all there is of
/// it is its input and the failure.
fn stand_in(
    failure: &FailureInfo,
    choices: ChoiceSequence,
    shown: Vec<(String, Term)>,
    notes: Vec<String>,
) -> CaseResult {
    CaseResult {
        outcome: Outcome::Fail(failure.clone()),
        choices,
        spans: Default::default(),
        labels: Vec::new(),
        misaligned: 0,
        prefix_unused: false,
        shown,
        notes,
        backtrace: None,
    }
}
