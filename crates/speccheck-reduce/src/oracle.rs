//! The one way every pass runs a candidate: through the runner's
//! [`ExplainContext`], counting tests against the budget, and classifying
//! the outcome against the failure being explained. SmartCheck's `pass`
//! and `fail` (§4.1, §5.1) are [`Verdict`]s here.

use speccheck_core::test_case::CaseControl as _;
use std::cmp::Ordering;
use std::time::Instant;

use speccheck_core::runner::{CaseResult, ExplainContext};
use speccheck_core::{Choice, Fresh, Outcome, Seen, Tail, TestCase, shortlex};

use crate::config::ReduceConfig;
use crate::shapes::Shape;

pub use crate::origin::Origin;

/// How a candidate went, relative to the failure being explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It passed the precondition and failed the same way.
    Same,
    /// It failed, but somewhere else.
    Other,
    /// It passed the precondition and the property.
    Pass,
    /// A precondition rejected it, or it could not be generated (a
    /// replacement that was not smaller, a filter that gave up).
    Rejected,
}

/// Classifies `case` against `origin`.
pub fn verdict(case: &CaseResult, origin: &Origin) -> Verdict {
    match &case.outcome {
        Outcome::Fail(f) if Origin::of(f) == *origin => Verdict::Same,
        Outcome::Fail(_) => Verdict::Other,
        Outcome::Pass => Verdict::Pass,
        Outcome::Discard { .. } | Outcome::Invalid(_) => Verdict::Rejected,
    }
}

/// SmartCheck's order on counterexamples: fewer constructors, then fewer
/// (shortlex-smaller) choices.
pub fn smaller(a: &CaseResult, b: &CaseResult) -> bool {
    let (sa, sb) = (a.spans.total_constructors(), b.spans.total_constructors());
    sa < sb || (sa == sb && shortlex(&a.choices.0, &b.choices.0) == Ordering::Less)
}

/// Runs candidates for the passes, within the budget.
pub struct Oracle<'c, 'a> {
    ctx: &'c mut ExplainContext<'a>,
    tests: u64,
    max_tests: u64,
    deadline: Instant,
    seed: u64,
    draws: u64,
    max_depth: u32,
    avoid: Vec<Shape>,
}

impl<'c, 'a> Oracle<'c, 'a> {
    /// An oracle over the runner's context, with `config`'s budget.
    pub fn new(ctx: &'c mut ExplainContext<'a>, config: &ReduceConfig) -> Self {
        let max_depth = ctx.config.max_depth;
        let seed = ctx.seed ^ 0x5a17_c4ec_0000_0001;
        Oracle {
            ctx,
            tests: 0,
            max_tests: config.max_tests,
            deadline: Instant::now() + config.max_time,
            seed,
            draws: 0,
            max_depth,
            avoid: Vec::new(),
        }
    }

    /// Test runs so far.
    pub fn tests(&self) -> u64 {
        self.tests
    }

    /// True once the test or time budget is spent. The clock is read every
    /// 16 tests: reading it costs as much as a small test.
    pub fn exhausted(&self) -> bool {
        self.tests >= self.max_tests || (self.tests.is_multiple_of(16) && Instant::now() >= self.deadline)
    }

    /// The run's settings.
    pub fn run_config(&self) -> &speccheck_core::Config {
        self.ctx.config
    }

    /// The tag of the property's replay strings.
    pub fn replay_tag(&self) -> speccheck_core::ReplayTag {
        self.ctx.replay_tag
    }

    /// True when the caller replays the reported case after the
    /// explanation (see [`ExplainContext::final_replay`]).
    pub fn final_replay(&self) -> bool {
        self.ctx.final_replay
    }

    /// Runs one test case.
    pub fn run(&mut self, tc: TestCase) -> CaseResult {
        self.tests += 1;
        (self.ctx.run)(tc.with_max_depth(self.max_depth))
    }

    /// Replays `choices` (simplest choices past their end).
    pub fn replay(&mut self, choices: &[Choice]) -> CaseResult {
        self.run(TestCase::replay(choices.to_vec(), Tail::Simplest).with_spans(true))
    }

    /// Runs `base` with span `ordinal` drawn afresh from `fresh`; with
    /// `bound`, the new sub-value must have fewer constructors than that.
    pub fn splice(&mut self, base: &CaseResult, ordinal: usize, fresh: Fresh, bound: Option<usize>) -> CaseResult {
        self.run(splice_case(base, ordinal, fresh, bound))
    }

    /// Like [`splice`](Self::splice), but a replacement that generates an
    /// input already in `seen` is not run again (it ends
    /// [`Invalid::Duplicate`](speccheck_core::Invalid::Duplicate)).
    pub fn splice_unseen(
        &mut self,
        base: &CaseResult,
        ordinal: usize,
        fresh: Fresh,
        bound: Option<usize>,
        seen: &Seen,
    ) -> CaseResult {
        self.run(splice_case(base, ordinal, fresh, bound).with_seen(seen.clone()))
    }

    /// A fresh random input of the property (case index `i` of the
    /// explanation's own sequence).
    pub fn generate(&mut self, i: u64) -> CaseResult {
        self.tests += 1;
        (self.ctx.generate)(i)
    }

    /// The choice-sequence shrinker on a failing case (failures with an
    /// avoided shape count as discarded).
    pub fn shrink(&mut self, case: CaseResult) -> CaseResult {
        let avoid = &self.avoid;
        (self.ctx.shrink)(case, &|r: &CaseResult| !avoid.iter().any(|s| s.matches(r)))
    }

    /// Strengthens the property's precondition (SmartCheck §5.3): from now
    /// on a failure with one of these shapes counts as rejected.
    pub fn avoid(&mut self, shapes: Vec<Shape>) {
        self.avoid = shapes;
    }

    /// How `case` went against `origin`, under the strengthened
    /// precondition.
    pub fn judge(&self, case: &CaseResult, origin: &Origin) -> Verdict {
        match verdict(case, origin) {
            Verdict::Same if self.avoid.iter().any(|s| s.matches(case)) => Verdict::Rejected,
            v => v,
        }
    }

    /// Renders the inputs of a choice sequence without running the property.
    pub fn describe(&self, choices: &speccheck_core::ChoiceSequence) -> Vec<(String, speccheck_core::Term)> {
        (self.ctx.describe)(choices)
    }

    /// A fresh seed for a random draw (reproducible from the run seed).
    pub fn next_seed(&mut self) -> u64 {
        self.draws += 1;
        splitmix(self.seed.wrapping_add(self.draws.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
    }

    /// A number in `0..=max` (for size schedules).
    pub fn below(&mut self, max: usize) -> usize {
        if max == 0 { 0 } else { (self.next_seed() % (max as u64 + 1)) as usize }
    }
}

/// `base` with span `ordinal` to be drawn afresh (see [`Oracle::splice`]).
fn splice_case(base: &CaseResult, ordinal: usize, fresh: Fresh, bound: Option<usize>) -> TestCase {
    TestCase::splice(base.choices.0.clone(), ordinal, &base.spans.spans[ordinal], fresh, bound)
}

fn splitmix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
