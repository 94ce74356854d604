//! What identifies "the same failure" while reducing: its kind and its
//! location, as the core's shrinker also decides it.

use speccheck_core::runner::{CaseResult, FailureInfo};
use speccheck_core::{FailureKind, Outcome};

/// What identifies "the same failure": its kind and where it happened.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Origin {
    /// Panic, returned failure or timeout.
    pub kind: FailureKind,
    /// `file:line:col` of a panic.
    pub location: Option<String>,
}

impl Origin {
    /// The origin of a failure.
    pub fn of(info: &FailureInfo) -> Self {
        Origin { kind: info.kind, location: info.location.clone() }
    }

    /// The origin of a case's failure, if it failed.
    pub fn of_case(case: &CaseResult) -> Option<Self> {
        match &case.outcome {
            Outcome::Fail(f) => Some(Origin::of(f)),
            _ => None,
        }
    }
}
