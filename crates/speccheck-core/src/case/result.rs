//! What one run of a test case produced, as the runner, the shrinker and
//! the explanation step read it.

use super::outcome::Outcome;
use crate::choice::ChoiceSequence;
use crate::span::SpanTree;
use crate::term::Term;

/// Everything one run of a test case produced.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// How it went.
    pub outcome: Outcome,
    /// The choices it made.
    pub choices: ChoiceSequence,
    /// The spans it marked (empty unless spans were recorded).
    pub spans: SpanTree,
    /// Labels it was counted under.
    pub labels: Vec<String>,
    /// Replayed choices that did not fit the generator.
    pub misaligned: usize,
    /// True when a replayed prefix was not used up.
    pub prefix_unused: bool,
    /// The inputs, as shown on a final run.
    pub shown: Vec<(String, Term)>,
    /// Notes recorded on a final run.
    pub notes: Vec<String>,
    /// A backtrace of the failure (final runs, when `RUST_BACKTRACE` is set).
    pub backtrace: Option<String>,
}

impl CaseResult {
    /// Drops the result, giving its choice and span buffers to the next
    /// test case on this thread (engines that run many cases and keep few
    /// results call this on the others: allocating those buffers afresh
    /// costs as much as a short replay).
    pub fn recycle(self) {
        crate::test_case::pool::recycle(self.choices.0, self.spans.spans);
    }
}
