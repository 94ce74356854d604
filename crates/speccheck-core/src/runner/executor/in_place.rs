//! Cases run on the engine's own thread, one after another: the default,
//! and the hot path of a run (most properties run millions of passing
//! cases, and each costs a few tens of nanoseconds of speccheck's own).

use crate::test_case::CaseControl as _;
use std::sync::Mutex;
use std::time::Instant;

use super::{Batch, Cases, Executor};
use crate::case::{CaseResult, Outcome, execute, run_in_place, run_passing};
use crate::runner::tally::Tally;
use crate::test_case::TestCase;
use crate::watch::Phase;

/// Generated cases between two looks at the clock and the watch.
const BATCH: u64 = 16;

/// Runs every case in place.
pub(crate) struct InPlace {
    cases: Cases,
    /// The test case generated cases reuse (its buffers stay warm).
    scratch: Mutex<Option<TestCase>>,
}

impl InPlace {
    pub(crate) fn new(cases: Cases) -> Self {
        InPlace { cases, scratch: Mutex::new(None) }
    }
}

impl Executor for InPlace {
    fn run(&self, tc: TestCase) -> CaseResult {
        execute(&*self.cases.test, tc)
    }

    fn run_in(&self, tc: &mut TestCase) -> (Outcome, Vec<String>) {
        let (outcome, labels, _) = run_in_place(&*self.cases.test, tc);
        (outcome, labels)
    }

    fn run_plain(&self, mut tc: TestCase) -> (Outcome, Vec<String>) {
        self.run_in(&mut tc)
    }

    fn run_generated(&self, from: u64, n: u64, tally: &mut Tally, _deadline: Option<Instant>) -> Result<Batch, String> {
        let mut scratch = self.scratch.lock().unwrap_or_else(|e| e.into_inner());
        let tc = scratch.get_or_insert_with(|| self.cases.scratch());
        let (test, watch) = (&*self.cases.test, &self.cases.watch);
        for i in from..from + n {
            if tally.is_full() {
                return Ok(Batch::Ran(i - from));
            }
            self.cases.reset(tc, i);
            watch.begin(0, Phase::Generate, i);
            let ran = run_passing(test, tc);
            watch.end(0);
            let Some((outcome, labels, _)) = ran else {
                tally.pass(tc.reaches());
                continue;
            };
            if let Some(failure) = tally.count(i, outcome, labels, tc.reaches()) {
                return Ok(Batch::Failed(i, failure));
            }
        }
        Ok(Batch::Ran(n))
    }

    fn next_batch(&self, _last: u64) -> u64 {
        BATCH
    }
}
