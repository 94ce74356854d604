//! One test case, run: what a property returns ([`Verdict`]), how a case
//! went ([`Outcome`], [`FailureInfo`]), everything it produced
//! ([`CaseResult`]), and running the property on a [`TestCase`] with
//! panics, preconditions and invalid inputs caught ([`run_in_place`],
//! [`execute`]).
//!
//! This layer sits below the runner and the shrinker, which both read case
//! results; [`context`] is what the property itself calls while a case
//! runs (`assume`, `label`, `note`).
//!
//! [`TestCase`]: crate::TestCase

pub mod context;
mod outcome;
mod result;
mod run;

pub use context::{assume, collect, cover, label, note, reject, target};
pub use outcome::{FailureInfo, FailureKind, Outcome, TestResult, Verdict};
pub use result::CaseResult;
pub(crate) use run::run_passing;
pub use run::{Ran, SharedTest, TestFn, execute, payload_message, replay, run_in_place};
