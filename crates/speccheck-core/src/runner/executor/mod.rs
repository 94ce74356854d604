//! Where a run's cases execute: in place on the engine's thread, on
//! several threads, or in a child process that a crash or a hang cannot
//! take down. The phases never ask which: they hand an [`Executor`] one
//! case (a replay, a shrink candidate) or a batch of generated ones.

mod child;
mod in_place;
mod threads;

pub(crate) use child::Child;
pub(crate) use in_place::InPlace;
pub(crate) use threads::Threads;

use crate::test_case::CaseControl as _;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::config::{Config, case_size};
use super::tally::Tally;
use crate::case::{CaseResult, FailureInfo, Outcome, SharedTest};
use crate::choice::ChoiceSequence;
use crate::seed::case_seed;
use crate::test_case::{Tail, TestCase};
use crate::watch::Watch;

/// The generation phase's case number for the simplest input (see
/// `phase::generate`); random cases are numbered from 0.
pub(crate) const SIMPLEST_CASE: u64 = u64::MAX;

/// The smallest failure found so far: the shrinker publishes it and a
/// hang's report shows it.
pub(crate) type Failing = Arc<Mutex<Option<(ChoiceSequence, FailureInfo)>>>;

/// Runs the property's cases.
pub(crate) trait Executor: Send + Sync {
    /// Runs one case and returns everything it produced (spans when `tc`
    /// records them): a replay, a shrink candidate, a confirmation.
    fn run(&self, tc: TestCase) -> CaseResult;

    /// Runs one case and leaves its record in `tc` for the caller to read
    /// (its choices, an enumeration's widths): the outcome and labels only.
    fn run_in(&self, tc: &mut TestCase) -> (Outcome, Vec<String>);

    /// Runs one case for its outcome and labels only; nothing of it is
    /// read back (the simplest input: a failure is run again, recorded).
    fn run_plain(&self, tc: TestCase) -> (Outcome, Vec<String>);

    /// Runs generated cases `from..from + n` and counts each into `tally` in
    /// index order, whatever order they ran in; stops at the first failure,
    /// or when the tally is full. An executor that runs cases concurrently
    /// also stops taking new ones past `deadline`; the caller checks it
    /// between batches. `Err` when the cases cannot be run at all any more.
    fn run_generated(&self, from: u64, n: u64, tally: &mut Tally, deadline: Option<Instant>) -> Result<Batch, String>;

    /// How many generated cases the batch after one of `last` holds (the
    /// first batch: `last` is 0).
    fn next_batch(&self, last: u64) -> u64;
}

/// How a batch of generated cases ended.
pub(crate) enum Batch {
    /// It counted this many cases, none failing.
    Ran(u64),
    /// Case `index` failed; the cases after it were not counted.
    Failed(u64, FailureInfo),
}

/// What every executor needs to run the property's cases.
#[derive(Clone)]
pub(crate) struct Cases {
    pub(crate) test: SharedTest,
    pub(crate) watch: Arc<Watch>,
    pub(crate) seed: u64,
    pub(crate) max_depth: u32,
    /// Each case takes its integer mix from its seed (`Config::integer_mix`).
    pub(crate) vary_mix: bool,
    /// The size ramp and the largest size (see [`Config::case_size`]).
    ramp: u32,
    max_size: usize,
    /// This run's shard (`SPECCHECK_SHARD=i/n`): generated case `k` is case
    /// `k * n + (i - 1)` of the whole run.
    shard: Option<(u64, u64)>,
}

impl Cases {
    pub(crate) fn new(test: SharedTest, watch: Arc<Watch>, seed: u64, config: &Config) -> Self {
        Cases {
            test,
            watch,
            seed,
            max_depth: config.max_depth,
            vary_mix: config.integer_mix == super::config::IntegerMix::PerCase,
            ramp: config.size_ramp.min(config.cases / 2),
            max_size: config.max_size,
            shard: config.shard.map(|(i, n)| (u64::from(i) - 1, u64::from(n))),
        }
    }

    /// The run's number of this shard's generated case `index`: cases are
    /// a function of the run seed and that number, so the shards of a run
    /// together run exactly its cases.
    #[inline]
    pub(crate) fn global(&self, index: u64) -> u64 {
        match self.shard {
            Some((i, n)) => index.saturating_mul(n).saturating_add(i),
            None => index,
        }
    }

    /// How far apart this shard's cases are in the whole run.
    pub(crate) fn stride(&self) -> u64 {
        self.shard.map_or(1, |(_, n)| n)
    }

    /// The size parameter of generated case `index`.
    pub(crate) fn size(&self, index: u64) -> usize {
        case_size(self.global(index), self.ramp, self.max_size)
    }

    /// Generated case `index` as the generation phase draws it: the
    /// simplest input for [`SIMPLEST_CASE`], else random from the run's
    /// seed.
    pub(crate) fn generated(&self, index: u64) -> TestCase {
        let tc = if index == SIMPLEST_CASE {
            TestCase::replay(Vec::new(), Tail::Simplest)
        } else {
            TestCase::random(case_seed(self.seed, self.global(index)), self.size(index)).with_varied_mix(self.vary_mix)
        };
        tc.with_max_depth(self.max_depth)
    }

    /// A test case to reuse for one generated case after another (its
    /// buffers are kept; nothing is recorded).
    pub(crate) fn scratch(&self) -> TestCase {
        TestCase::random(0, 0).with_max_depth(self.max_depth).with_varied_mix(self.vary_mix).record_choices(false)
    }

    /// Makes `tc` generated case `index` (see [`scratch`](Self::scratch)).
    #[inline]
    pub(crate) fn reset(&self, tc: &mut TestCase, index: u64) {
        tc.reset_random(case_seed(self.seed, self.global(index)), self.size(index));
    }
}
