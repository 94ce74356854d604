//! Running one test case: the property on a test case, with panics,
//! preconditions and invalid inputs turned into an [`Outcome`].

use crate::test_case::CaseControl as _;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use super::context::{self, Discarded};
use super::outcome::{FailureInfo, FailureKind, Outcome};
use super::result::CaseResult;
use crate::choice::Choice;
use crate::test_case::{StopTest, Tail, TestCase};

/// A property as the runner sees it: draw inputs from the test case, run,
/// say how it went.
pub type TestFn = dyn Fn(&mut TestCase) -> Outcome + Send + Sync;

/// A shareable property.
pub type SharedTest = Arc<TestFn>;

/// What [`run_in_place`] returns: the outcome, the labels and, for a
/// failure on a final run, its backtrace.
pub type Ran = (Outcome, Vec<String>, Option<String>);

/// Runs `test` on `tc` in place (keeping `tc`'s buffers). Returns the
/// outcome and the labels.
pub fn run_in_place(test: &TestFn, tc: &mut TestCase) -> Ran {
    context::install_panic_hook();
    context::begin_case(tc.is_final());
    let result = panic::catch_unwind(AssertUnwindSafe(|| test(tc)));
    finish_case(result, tc)
}

/// [`run_in_place`] for the generation phase's hot path: `None` for a case
/// that passed and recorded nothing (no label, note or invalidity), which
/// is most of them; then nothing is built or copied (a case's outcome is
/// large, and copying it right after it was written stalls on every case).
#[inline]
pub(crate) fn run_passing(test: &TestFn, tc: &mut TestCase) -> Option<Ran> {
    context::install_panic_hook();
    context::begin_case(tc.is_final());
    let result = panic::catch_unwind(AssertUnwindSafe(|| test(tc)));
    if matches!(result, Ok(Outcome::Pass)) && tc.invalid().is_none() && context::end_clean_case() {
        // `Ok(Pass)` owns nothing: skip its drop glue (a call per case).
        std::mem::forget(result);
        return None;
    }
    Some(finish_case(result, tc))
}

/// Ends the case `result` came from: its outcome as the runner counts it
/// (a panic, a rejection, an invalid input), its labels and notes.
fn finish_case(result: std::thread::Result<Outcome>, tc: &mut TestCase) -> Ran {
    let (panic_record, labels, notes) = context::end_case();
    for n in notes {
        tc.note(|| n);
    }
    let mut backtrace = None;
    let mut outcome = match result {
        Ok(outcome) => outcome,
        Err(payload) => {
            if payload.is::<StopTest>() {
                Outcome::Invalid(tc.invalid().cloned().unwrap_or(crate::test_case::Invalid::Overrun))
            } else if let Some(d) = payload.downcast_ref::<Discarded>() {
                Outcome::Discard { reason: d.reason.clone() }
            } else {
                let record = panic_record.unwrap_or_default();
                backtrace = record.backtrace;
                let message = if record.message.is_empty() { payload_message(&*payload) } else { record.message };
                Outcome::Fail(FailureInfo {
                    kind: FailureKind::Panic,
                    message,
                    location: record.location,
                    in_generator: !tc.is_generated(),
                })
            }
        }
    };
    if let Some(why) = tc.invalid()
        && !matches!(outcome, Outcome::Invalid(_))
    {
        // Marked invalid without unwinding (a splice that was not smaller):
        // whatever ran after that does not count.
        outcome = Outcome::Invalid(why.clone());
    }
    (outcome, labels, backtrace)
}

/// The message of a panic payload (`&str` or `String`; others are named
/// as such).
pub fn payload_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "<non-string panic payload>".to_string()
    }
}

/// Runs `test` on `tc` and collects everything it produced.
pub fn execute(test: &TestFn, mut tc: TestCase) -> CaseResult {
    let (outcome, labels, backtrace) = run_in_place(test, &mut tc);
    let misaligned = tc.misaligned();
    let prefix_unused = tc.prefix_unused();
    let (shown, notes) = tc.take_report_parts();
    let (choices, spans) = tc.finish();
    CaseResult { outcome, choices, spans, labels, misaligned, prefix_unused, shown, notes, backtrace }
}

/// Replays `choices` (spans recorded, simplest options past the end).
pub fn replay(test: &TestFn, choices: &[Choice], max_depth: u32) -> CaseResult {
    execute(test, TestCase::replay(choices.to_vec(), Tail::Simplest).with_spans(true).with_max_depth(max_depth))
}
