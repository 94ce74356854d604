//! A test harness: the runner's explanation context built by hand around
//! a generator and a property, so the reducer's passes can be called
//! directly on a failing case.

#![allow(dead_code)]

use speccheck::test_case::CaseControl as _;
use std::sync::Arc;
use std::time::Duration;

use speccheck::case::{CaseResult, SharedTest, execute};
use speccheck::runner::{ExplainContext, Explainer, Explanation};
use speccheck::shrink::{ShrinkBudget, Shrinker};
use speccheck::{ChoiceSequence, Config, Generator, Outcome, Tail, Term, TestCase, Verdict};

/// Renders the inputs a test case generates.
pub type Render = Arc<dyn Fn(&mut TestCase) -> Vec<(String, Term)> + Send + Sync>;

pub struct Harness {
    pub test: SharedTest,
    pub render: Render,
    pub config: Config,
}

impl Harness {
    /// A property over `g` whose inputs print as `render` says.
    pub fn new<G, V>(
        g: G,
        render: impl Fn(&G::Value) -> Vec<(String, Term)> + Send + Sync + 'static,
        body: impl Fn(G::Value) -> V + Send + Sync + 'static,
    ) -> Self
    where
        G: Generator + Clone + Send + Sync + 'static,
        V: Verdict,
    {
        let g2 = g.clone();
        let test: SharedTest = Arc::new(move |tc: &mut TestCase| {
            let v = g.generate(tc);
            if let Some(why) = tc.invalid() {
                return Outcome::Invalid(why.clone());
            }
            tc.mark_generated();
            body(v).into_outcome()
        });
        let render = Arc::new(move |tc: &mut TestCase| render(&g2.generate(tc)));
        Harness { test, render, config: Config { database: None, ..Config::named("harness") } }
    }

    pub fn run(&self, tc: TestCase) -> CaseResult {
        execute(&*self.test, tc.with_max_depth(self.config.max_depth))
    }

    pub fn replay(&self, choices: &ChoiceSequence) -> CaseResult {
        self.run(TestCase::replay(choices.0.clone(), Tail::Simplest).with_spans(true))
    }

    /// The first failing random case from `seed` (spans recorded).
    pub fn find(&self, seed: u64, tries: u64) -> Option<CaseResult> {
        (0..tries).find_map(|i| {
            let r = self.run(
                TestCase::random(seed.wrapping_mul(1_000_003).wrapping_add(i), 1 + (i as usize % 60)).with_spans(true),
            );
            r.outcome.is_fail().then_some(r)
        })
    }

    pub fn shrink(&self, case: CaseResult) -> CaseResult {
        self.shrink_accepting(case, &|_| true)
    }

    /// Shrinks, counting failures `accept` rejects as discarded (as the
    /// runner does for the explanation step).
    pub fn shrink_accepting(&self, case: CaseResult, accept: &dyn Fn(&CaseResult) -> bool) -> CaseResult {
        let mut run = |tc: TestCase| {
            let mut r = self.run(tc);
            if r.outcome.is_fail() && !accept(&r) {
                r.outcome = Outcome::Discard { reason: "known".into() };
            }
            r
        };
        let budget = ShrinkBudget { max_steps: 5_000, max_time: Duration::from_secs(5) };
        Shrinker::new(&mut run, case, budget, self.config.max_depth).shrink().0
    }

    /// Calls `f` with an explanation context over `failing`.
    pub fn with_context<R>(&self, failing: &CaseResult, seed: u64, f: impl FnOnce(&mut ExplainContext<'_>) -> R) -> R {
        let mut run = |tc: TestCase| self.run(tc);
        let mut generate = |i: u64| {
            self.run(
                TestCase::random(seed ^ (i.wrapping_mul(0x9e37_79b9_7f4a_7c15)), 1 + (i as usize % 80))
                    .with_spans(true),
            )
        };
        let describe = |c: &ChoiceSequence| {
            let mut tc = TestCase::replay(c.0.clone(), Tail::Simplest);
            (self.render)(&mut tc)
        };
        let mut shrink = |c: CaseResult, accept: &dyn Fn(&CaseResult) -> bool| self.shrink_accepting(c, accept);
        let mut ctx = ExplainContext {
            config: &self.config,
            failing,
            final_replay: false,
            replay_tag: speccheck_core::ReplayTag::new(&self.config.name, "harness"),
            run: &mut run,
            generate: &mut generate,
            describe: &describe,
            seed,
            shrink: &mut shrink,
        };
        f(&mut ctx)
    }

    pub fn explain(&self, explainer: &dyn Explainer, failing: &CaseResult, seed: u64) -> Explanation {
        self.with_context(failing, seed, |ctx| explainer.explain(ctx))
    }
}
