//! Cases run in a child process (`Config::isolate`): the test binary
//! started again for this one property, serving cases sent as data (see
//! `runner::isolate`). A case that kills the child is a crash, one that
//! does not answer in time a timeout; both are failures with their input
//! when it was drawn, and shrink like any other.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{Batch, Cases, Executor};
use crate::case::{CaseResult, FailureInfo, FailureKind, Outcome};
use crate::choice::ChoiceSequence;
use crate::human;
use crate::runner::isolate::parent::{BatchOutcome, ChildOutcome, Isolated};
use crate::runner::isolate::wire;
use crate::runner::subject::Draw;
use crate::runner::tally::{CaseCount, Tally};
use crate::span::SpanTree;
use crate::test_case::{CaseControl as _, Invalid, Tail, TestCase, catch_invalid};

/// The first batch of generated cases, and the largest.
const FIRST_BATCH: u64 = 8;
const MAX_BATCH: u64 = 1024;
/// Cases a batch holds beyond the passes the run still needs (some will be
/// rejected).
const SLACK: u64 = 8;

/// Runs every case in a child process.
pub(crate) struct Child {
    cases: Cases,
    child: Mutex<Isolated>,
    /// Rebuilds a case's spans and choices here, from its input.
    draw: Draw,
    timeout: Option<Duration>,
}

impl Child {
    pub(crate) fn new(cases: Cases, child: Isolated, draw: Draw, timeout: Option<Duration>) -> Self {
        Child { cases, child: Mutex::new(child), draw, timeout }
    }

    /// The per-case limit: the user's timeout, in every phase. Shrinking a
    /// hang waits it out for each candidate that still hangs (a shorter
    /// limit would call an input that is merely slow a hang, and shrink to
    /// it); candidates that pass cost only their run.
    fn limit(&self) -> Option<Duration> {
        self.timeout
    }

    fn child(&self) -> std::sync::MutexGuard<'_, Isolated> {
        self.child.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The spans of the input `choices` make, by replaying them through the
    /// generator alone.
    fn spans_of(&self, choices: &ChoiceSequence) -> SpanTree {
        let mut tc =
            TestCase::replay(choices.0.clone(), Tail::Stop).with_spans(true).with_max_depth(self.cases.max_depth);
        self.draw_into(&mut tc);
        tc.finish().1
    }

    /// Runs `tc` (a case that has not started) in the child: everything it
    /// produced but its spans.
    fn execute(&self, tc: &TestCase) -> CaseResult {
        let limit = self.limit();
        let (outcome, choices, rest) = match self.child().run(tc, limit) {
            Ok(ChildOutcome::Done(r)) => {
                (r.outcome, r.choices, Some((r.labels, r.misaligned, r.prefix_unused, r.notes)))
            }
            Ok(ChildOutcome::Died { generated, reason }) => {
                (Outcome::Fail(crash(reason, generated.is_none())), generated.unwrap_or_default(), None)
            }
            Ok(ChildOutcome::Hung { generated, after }) => {
                let info = FailureInfo {
                    kind: FailureKind::Timeout,
                    message: format!(
                        "no result after {} (limit {}); the process running it was killed",
                        human::duration(after),
                        human::duration(limit.unwrap_or_default())
                    ),
                    location: None,
                    in_generator: generated.is_none(),
                };
                (Outcome::Fail(info), generated.unwrap_or_default(), None)
            }
            Err(e) => (Outcome::Invalid(Invalid::Other(format!("isolated run: {e}"))), ChoiceSequence::default(), None),
        };
        let (labels, misaligned, prefix_unused, notes) = rest.unwrap_or_default();
        CaseResult {
            outcome,
            choices,
            spans: SpanTree::default(),
            labels,
            misaligned,
            prefix_unused,
            shown: Vec::new(),
            notes,
            backtrace: None,
        }
    }

    /// Draws `tc`'s input here, without running the property.
    fn draw_into(&self, tc: &mut TestCase) {
        let draw = self.draw.clone();
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| catch_invalid(tc, |tc| draw(tc))));
    }
}

impl Executor for Child {
    fn run(&self, tc: TestCase) -> CaseResult {
        let mut r = self.execute(&tc);
        if tc.keeps_spans() && !r.choices.is_empty() {
            r.spans = self.spans_of(&r.choices);
        }
        r
    }

    fn run_in(&self, tc: &mut TestCase) -> (Outcome, Vec<String>) {
        // The case runs in the child; its record (choices, an
        // enumeration's widths) comes from the generator alone, here.
        let r = self.execute(tc);
        self.draw_into(tc);
        (r.outcome, r.labels)
    }

    fn run_plain(&self, tc: TestCase) -> (Outcome, Vec<String>) {
        let r = self.execute(&tc);
        (r.outcome, r.labels)
    }

    fn run_generated(&self, from: u64, n: u64, tally: &mut Tally, _deadline: Option<Instant>) -> Result<Batch, String> {
        let n = n.min(tally.missing().max(1) + SLACK);
        let request = wire::Batch {
            seed: self.cases.seed,
            start: self.cases.global(from),
            stride: self.cases.stride(),
            max_depth: self.cases.max_depth,
            max_choices: crate::test_case::DEFAULT_MAX_CHOICES,
            vary_mix: self.cases.vary_mix,
            sizes: (from..from + n).map(|k| self.cases.size(k)).collect(),
        };
        let (outcomes, stopped) = match self
            .child()
            .run_batch(&request, self.timeout)
            .map_err(|e| format!("the isolated run could not go on: {e}"))?
        {
            BatchOutcome::Ran(outcomes) => (outcomes, None),
            BatchOutcome::Died { at, reason } => (passes(at), Some(crash(reason, false))),
            BatchOutcome::Hung { at, after } => {
                let info = FailureInfo {
                    kind: FailureKind::Timeout,
                    message: format!("no result after {}; the process running it was killed", human::duration(after)),
                    location: None,
                    in_generator: false,
                };
                (passes(at), Some(info))
            }
        };
        // Every case the child ran counts, as far as the batch went (the
        // pass count and the rejection limit are checked between batches): a
        // crash or hang at its end is reported whatever the count says.
        let mut i = from;
        for (outcome, labels, reach) in outcomes {
            if let Some(failure) = tally.count(i, outcome, labels, reach) {
                return Ok(Batch::Failed(i, failure));
            }
            i += 1;
        }
        match stopped {
            Some(failure) => Ok(Batch::Failed(i, failure)),
            None => Ok(Batch::Ran(i - from)),
        }
    }

    fn next_batch(&self, last: u64) -> u64 {
        if last == 0 { FIRST_BATCH } else { (last * 2).min(MAX_BATCH) }
    }
}

/// `at` cases that passed (those a batch ran before the one that died).
fn passes(at: u64) -> Vec<CaseCount> {
    // How far they reached died with the child: not counted.
    vec![(Outcome::Pass, Vec::new(), Default::default()); at as usize]
}

/// The failure of a case that killed the process running it.
fn crash(reason: String, in_generator: bool) -> FailureInfo {
    FailureInfo {
        kind: FailureKind::Crash,
        message: format!("the process running the case died: {reason}"),
        location: None,
        in_generator,
    }
}
