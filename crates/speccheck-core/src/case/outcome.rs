//! What a property returns, and what running one case produced.

use std::fmt;

use crate::test_case::Invalid;

/// How a test case failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// The code under test (or the property) panicked.
    Panic,
    /// The property returned `false` or `Err`.
    Returned,
    /// The case did not finish within the per-case timeout.
    Timeout,
    /// The process running the case died: a signal (a segmentation fault,
    /// an abort, a stack overflow), a non-zero exit or an out-of-memory
    /// kill. Only seen in isolated runs (a crash in-process takes the test
    /// binary with it; the next run finds it in the journal).
    Crash,
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FailureKind::Panic => "panic",
            FailureKind::Returned => "returned failure",
            FailureKind::Timeout => "timeout",
            FailureKind::Crash => "crash",
        })
    }
}

/// A failing case's description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailureInfo {
    /// How it failed.
    pub kind: FailureKind,
    /// The panic message, the returned error, or the timeout.
    pub message: String,
    /// Where the panic happened (`file:line:col`), if known.
    pub location: Option<String>,
    /// True when the failure happened while generating the input (a bug in
    /// a generator, not in the code under test).
    pub in_generator: bool,
}

impl FailureInfo {
    /// A returned (non-panic) failure.
    pub fn returned(message: impl Into<String>) -> Self {
        FailureInfo { kind: FailureKind::Returned, message: message.into(), location: None, in_generator: false }
    }

    /// What identifies "the same bug" while shrinking: shrinking never
    /// trades one failure for another of a different origin.
    pub fn origin(&self) -> (FailureKind, Option<&str>) {
        (self.kind, self.location.as_deref())
    }
}

/// The result of running one test case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The property held.
    Pass,
    /// The property failed.
    Fail(FailureInfo),
    /// A precondition (`assume`) rejected the input; `reason` names it.
    Discard {
        /// The precondition, as written or as named.
        reason: String,
    },
    /// The input could not be generated (filter exhausted, overrun…).
    Invalid(Invalid),
}

impl Outcome {
    /// True for a failure.
    pub fn is_fail(&self) -> bool {
        matches!(self, Outcome::Fail(_))
    }
}

/// Anything a property may return.
pub trait Verdict {
    /// Turns the returned value into an outcome.
    fn into_outcome(self) -> Outcome;
}

impl Verdict for () {
    fn into_outcome(self) -> Outcome {
        Outcome::Pass
    }
}

impl Verdict for bool {
    fn into_outcome(self) -> Outcome {
        if self { Outcome::Pass } else { Outcome::Fail(FailureInfo::returned("property returned false")) }
    }
}

impl<T, E: fmt::Debug> Verdict for Result<T, E> {
    fn into_outcome(self) -> Outcome {
        match self {
            Ok(_) => Outcome::Pass,
            Err(e) => Outcome::Fail(FailureInfo::returned(format!("property returned Err({e:?})"))),
        }
    }
}

/// An explicit verdict (QuickCheck's `TestResult`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TestResult {
    /// The property held.
    Pass,
    /// The property failed, with a message.
    Fail(String),
    /// The input does not satisfy a precondition.
    Discard(String),
}

impl Verdict for TestResult {
    fn into_outcome(self) -> Outcome {
        match self {
            TestResult::Pass => Outcome::Pass,
            TestResult::Fail(m) => Outcome::Fail(FailureInfo::returned(m)),
            TestResult::Discard(reason) => Outcome::Discard { reason },
        }
    }
}

impl Verdict for Outcome {
    fn into_outcome(self) -> Outcome {
        self
    }
}
