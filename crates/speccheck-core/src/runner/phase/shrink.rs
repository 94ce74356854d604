//! The shrink phase: the choice-sequence shrinker (see [`crate::shrink`])
//! on a failing case, accepting only candidates that fail the same way.
//! Each smaller failure is published as it is found, so that a hang in a
//! later candidate still reports the smallest failure so far.

use std::sync::Mutex;

use crate::case::{CaseResult, Outcome};
use crate::choice::shortlex;
use crate::runner::engine::Engine;
use crate::shrink::{ShrinkBudget, ShrinkStats, Shrinker};
use crate::test_case::TestCase;
use crate::watch::Phase;

impl Engine {
    /// Shrinks a failing case.
    pub(crate) fn shrink(&self, first: CaseResult) -> (CaseResult, ShrinkStats) {
        let origin = match &first.outcome {
            Outcome::Fail(f) => (f.kind, f.location.clone()),
            _ => unreachable!("shrinking a passing case"),
        };
        let published = Mutex::new(first.choices.clone());
        let mut run = |tc: TestCase| -> CaseResult {
            let r = self.watched(Phase::Shrink, tc);
            if let Outcome::Fail(f) = &r.outcome
                && (f.kind, f.location.as_ref()) == (origin.0, origin.1.as_ref())
            {
                let mut p = published.lock().unwrap_or_else(|e| e.into_inner());
                if shortlex(&r.choices.0, &p.0) == std::cmp::Ordering::Less {
                    *p = r.choices.clone();
                    self.publish(&r);
                }
            }
            r
        };
        Shrinker::new(&mut run, first, self.shrink_budget(), self.config.max_depth).shrink()
    }

    /// Shrinks for the explanation step: failing candidates `accept`
    /// rejects are discarded.
    pub(crate) fn shrink_accepting(&self, case: CaseResult, accept: &dyn Fn(&CaseResult) -> bool) -> CaseResult {
        if !self.config.shrink || !case.outcome.is_fail() {
            return case;
        }
        let mut run = |tc: TestCase| {
            let mut r = self.watched(Phase::Explain, tc);
            if r.outcome.is_fail() && !accept(&r) {
                r.outcome = Outcome::Discard { reason: "matches a known failure".into() };
            }
            r
        };
        Shrinker::new(&mut run, case, self.shrink_budget(), self.config.max_depth).shrink().0
    }

    /// Makes `case` the smallest failure so far (for a hang's report).
    pub(crate) fn publish(&self, case: &CaseResult) {
        if let Outcome::Fail(f) = &case.outcome {
            *self.failing.lock().unwrap_or_else(|e| e.into_inner()) = Some((case.choices.clone(), f.clone()));
        }
    }

    fn shrink_budget(&self) -> ShrinkBudget {
        ShrinkBudget { max_steps: self.config.shrink_steps, max_time: self.config.shrink_time }
    }
}
