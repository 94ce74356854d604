//! The explanation step: what runs after shrinking to turn a counterexample
//! into an explanation. The core only defines the hook; engines (the
//! SmartCheck reducer and generalizer) implement it, and the facade crate
//! installs the default, so the core knows no engine.

use super::config::Config;
use super::report::Section;
use crate::case::CaseResult;
use crate::choice::ChoiceSequence;
use crate::test_case::TestCase;

/// Says whether a failing candidate counts as a failure (see
/// [`ExplainContext::shrink`]).
pub type Accept<'f> = dyn Fn(&CaseResult) -> bool + 'f;

/// The choice-sequence shrinker, as the explanation step calls it.
pub type ShrinkFn<'a> = dyn for<'f> FnMut(CaseResult, &'f Accept<'f>) -> CaseResult + 'a;

/// What the explanation step may use.
pub struct ExplainContext<'a> {
    /// The run's settings.
    pub config: &'a Config,
    /// The shrunk failing case (spans recorded).
    pub failing: &'a CaseResult,
    /// True when the caller replays the case it finally reports, after the
    /// explanation (the runner always does, and reports a failure that
    /// does not come back as flaky): the explanation step then need not
    /// re-run `failing` before it starts. Cases it accepts in place of
    /// `failing` it still confirms itself.
    pub final_replay: bool,
    /// The tag this property's replay strings carry (for the replay
    /// strings of further counterexamples).
    pub replay_tag: crate::choice::ReplayTag,
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
    /// Runs the choice-sequence shrinker on a failing case (the run's
    /// shrink settings; the case comes back unchanged when shrinking is
    /// off), so an explanation step can alternate its own reduction with
    /// shrinking. A failing candidate that `accept` rejects counts as
    /// discarded: a precondition added by the explanation step (SmartCheck
    /// §5.3 strengthens the property with "matches no known failure").
    pub shrink: &'a mut ShrinkFn<'a>,
}

/// What the explanation step found.
#[derive(Clone, Debug, Default)]
pub struct Explanation {
    /// A smaller failing case than the one given, if one was found. The
    /// runner re-checks it: it must fail the same way and be smaller in
    /// choices (shortlex) or in constructors
    /// ([`SpanTree::total_constructors`](crate::SpanTree::total_constructors)).
    pub reduced: Option<ChoiceSequence>,
    /// Sections to print after the failure.
    pub sections: Vec<Section>,
}

/// An explanation step.
pub trait Explainer: Send + Sync {
    /// Explains `ctx.failing`.
    fn explain(&self, ctx: &mut ExplainContext<'_>) -> Explanation;
}
