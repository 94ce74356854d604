//! The property as the engine sees it: a test function over test cases,
//! and ways to make and show inputs without running the property.

use std::sync::Arc;

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
}
