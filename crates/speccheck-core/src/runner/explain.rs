//! The explanation step: what runs after shrinking to turn a counterexample
//! into an explanation. The core only defines the hook; engines (the
//! SmartCheck reducer and generalizer) implement it, and the facade crate
//! installs the default, so the core knows no engine.

use super::case::CaseResult;
use super::config::Config;
use super::report::Section;
use crate::choice::ChoiceSequence;
use crate::test_case::TestCase;

/// What the explanation step may use.
pub struct ExplainContext<'a> {
    /// The run's settings.
    pub config: &'a Config,
    /// The shrunk failing case (spans recorded).
    pub failing: &'a CaseResult,
    /// Runs any test case on the property (replays, splices).
    pub run: &'a mut dyn FnMut(TestCase) -> CaseResult,
    /// Runs the property on a fresh random input of the given case index
    /// (for searching further failure classes).
    pub generate: &'a mut dyn FnMut(u64) -> CaseResult,
    /// Renders the inputs of a choice sequence without running the
    /// property (for printing other counterexamples).
    pub describe: &'a dyn Fn(&ChoiceSequence) -> Vec<(String, crate::term::Term)>,
    /// The run seed (for reproducible random replacements).
    pub seed: u64,
}

/// What the explanation step found.
#[derive(Clone, Debug, Default)]
pub struct Explanation {
    /// A smaller failing case than the one given, if one was found (it
    /// must fail the same way; the runner re-checks it).
    pub reduced: Option<ChoiceSequence>,
    /// Sections to print after the failure.
    pub sections: Vec<Section>,
}

/// An explanation step.
pub trait Explainer: Send + Sync {
    /// Explains `ctx.failing`.
    fn explain(&self, ctx: &mut ExplainContext<'_>) -> Explanation;
}
