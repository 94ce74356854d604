//! The explain phase: the property's [`Explainer`] (by default SmartCheck's
//! reduction and generalization) on the shrunk counterexample. It may hand
//! back a smaller failing case, which is kept only if it fails the same way
//! and is smaller, and sections for the report.

use crate::case::{CaseResult, Outcome};
use crate::choice::{ChoiceSequence, shortlex};
use crate::runner::engine::Engine;
use crate::runner::explain::{ExplainContext, Explainer};
use crate::runner::report::Section;
use crate::seed::case_seed;
use crate::test_case::CaseControl as _;
use crate::test_case::{Tail, TestCase};
use crate::watch::Phase;

/// Seed salt for the cases the explanation step generates, so they differ
/// from the generation phase's.
const EXPLAIN_SALT: u64 = 0x5eed_e8b1_a100;

impl Engine {
    /// Explains `best`: a smaller failing case, if the explainer found one
    /// that holds up, and the report's sections.
    pub(crate) fn explain(&self, explainer: &dyn Explainer, best: &CaseResult) -> (Option<CaseResult>, Vec<Section>) {
        let mut run = |tc: TestCase| self.watched(Phase::Explain, tc);
        let mut generate = |i: u64| {
            let tc = TestCase::random(case_seed(self.seed ^ EXPLAIN_SALT, i), self.cases.size(i))
                .with_spans(true)
                .with_max_depth(self.config.max_depth);
            self.watched(Phase::Explain, tc)
        };
        let describe = |c: &ChoiceSequence| self.describe_choices(c);
        let mut shrink = |c: CaseResult, accept: &dyn Fn(&CaseResult) -> bool| self.shrink_accepting(c, accept);
        let mut ctx = ExplainContext {
            config: &self.config,
            failing: best,
            final_replay: true,
            replay_tag: self.tag,
            run: &mut run,
            generate: &mut generate,
            describe: &describe,
            seed: self.seed,
            shrink: &mut shrink,
        };
        let explanation = explainer.explain(&mut ctx);
        let better = explanation.reduced.and_then(|reduced| self.holds_up(&reduced, best));
        (better, explanation.sections)
    }

    /// The explainer's smaller case, replayed: kept if it fails the same
    /// way as `best` and is smaller in choices (the shrinker's order) or in
    /// constructors (SmartCheck's measure, which a structural reduction
    /// lowers).
    fn holds_up(&self, reduced: &ChoiceSequence, best: &CaseResult) -> Option<CaseResult> {
        let r = self.watched(Phase::Explain, self.replay_case(reduced, Tail::Stop));
        let same = match (&r.outcome, &best.outcome) {
            (Outcome::Fail(a), Outcome::Fail(b)) => a.origin() == b.origin(),
            _ => false,
        };
        let smaller = shortlex(&r.choices.0, &best.choices.0) == std::cmp::Ordering::Less
            || r.spans.total_constructors() < best.spans.total_constructors();
        (same && smaller).then_some(r)
    }
}
