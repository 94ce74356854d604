//! The property as the engine sees it: a test function over test cases,
//! and ways to make and show inputs without running the property.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::explain::Explainer;
use crate::case::SharedTest;
use crate::term::Term;
use crate::test_case::TestCase;

/// Generates and renders inputs without running the property.
pub(crate) type Describe = Arc<dyn Fn(&mut TestCase) -> Vec<(String, Term)> + Send + Sync>;
/// Generates an input and drops it (to measure the input space, or to
/// rebuild spans of a case run elsewhere).
pub(crate) type Draw = Arc<dyn Fn(&mut TestCase) + Send + Sync>;

/// What a run tests.
#[derive(Clone)]
pub(crate) struct Subject {
    /// The generator and the body, as one test function.
    pub(crate) test: SharedTest,
    pub(crate) describe: Describe,
    pub(crate) draw: Draw,
    /// The type of the inputs (for the replay tag).
    pub(crate) input_type: &'static str,
    /// The explanation step after shrinking, if any.
    pub(crate) explainer: Option<Arc<dyn Explainer>>,
    /// How long the generator took on the first inputs (a health check).
    pub(crate) clock: Arc<GenerationClock>,
}

/// Inputs the generation health check times (Hypothesis's `too_slow`
/// looks at the first ten valid ones).
pub(crate) const TIMED_INPUTS: u64 = 10;

/// Generation time of a run's first [`TIMED_INPUTS`] inputs, measured in
/// the test function (only those: two clock readings a case would cost
/// the hot loop).
#[derive(Debug, Default)]
pub(crate) struct GenerationClock {
    timed: AtomicU64,
    nanos: AtomicU64,
}

impl GenerationClock {
    /// Whether the next input is one of those timed.
    #[inline]
    pub(crate) fn wants(&self) -> bool {
        self.timed.load(Ordering::Relaxed) < TIMED_INPUTS
    }

    /// Adds one input's generation time.
    pub(crate) fn add(&self, took: Duration) {
        self.timed.fetch_add(1, Ordering::Relaxed);
        self.nanos.fetch_add(u64::try_from(took.as_nanos()).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    /// Inputs timed and their total generation time.
    pub(crate) fn reading(&self) -> (u64, Duration) {
        (self.timed.load(Ordering::Relaxed), Duration::from_nanos(self.nanos.load(Ordering::Relaxed)))
    }
}
