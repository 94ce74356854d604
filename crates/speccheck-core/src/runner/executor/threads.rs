//! Generated cases spread over several threads (`Config::threads`).
//! Results are counted in case order, whatever thread ran them first, so
//! the outcome (the first failing case, the counts, the labels) is the
//! sequential run's. Single cases (replays, shrinking) run in place.

use crate::test_case::CaseControl as _;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::{Batch, Cases, Executor, InPlace};
use crate::case::{CaseResult, Outcome, run_in_place};
use crate::runner::tally::{CaseCount, Tally};
use crate::test_case::TestCase;
use crate::watch::Phase;

/// The most threads a run uses.
const MAX_THREADS: usize = 64;

/// Runs generated cases on `threads` threads, everything else in place.
pub(crate) struct Threads {
    cases: Cases,
    threads: usize,
    in_place: InPlace,
}

impl Threads {
    pub(crate) fn new(cases: Cases, threads: usize) -> Self {
        Threads { in_place: InPlace::new(cases.clone()), cases, threads: threads.clamp(1, MAX_THREADS) }
    }
}

/// Results waiting for their turn to be counted.
struct Frontier<'t, 's> {
    pending: BTreeMap<u64, CaseCount>,
    /// The next case to count.
    next: u64,
    tally: &'t mut Tally<'s>,
    end: Option<Batch>,
}

impl Frontier<'_, '_> {
    /// Counts the results that are next in order; true when the batch is
    /// over (a failure, or the tally is full).
    fn fold(&mut self, from: u64) -> bool {
        while self.end.is_none() {
            if self.tally.is_full() {
                self.end = Some(Batch::Ran(self.next - from));
                break;
            }
            let Some((outcome, labels, reach)) = self.pending.remove(&self.next) else { break };
            let index = self.next;
            self.next += 1;
            if let Some(failure) = self.tally.count(index, outcome, labels, reach) {
                self.end = Some(Batch::Failed(index, failure));
            }
        }
        self.end.is_some()
    }
}

impl Executor for Threads {
    fn run(&self, tc: TestCase) -> CaseResult {
        self.in_place.run(tc)
    }

    fn run_in(&self, tc: &mut TestCase) -> (Outcome, Vec<String>) {
        self.in_place.run_in(tc)
    }

    fn run_plain(&self, tc: TestCase) -> (Outcome, Vec<String>) {
        self.in_place.run_plain(tc)
    }

    fn run_generated(&self, from: u64, n: u64, tally: &mut Tally, deadline: Option<Instant>) -> Result<Batch, String> {
        let next = AtomicU64::new(from);
        let done = AtomicBool::new(false);
        let frontier = Mutex::new(Frontier { pending: BTreeMap::new(), next: from, tally, end: None });
        let watch = &self.cases.watch;
        std::thread::scope(|scope| {
            for w in 0..self.threads {
                let (next, done, frontier) = (&next, &done, &frontier);
                scope.spawn(move || {
                    let mut tc = self.cases.scratch();
                    while !done.load(Ordering::Acquire) && !watch.is_abandoned() {
                        if deadline.is_some_and(|d| Instant::now() > d) {
                            // Time is up: nothing more is counted, whichever
                            // thread's case was still running.
                            let mut f = frontier.lock().unwrap_or_else(|e| e.into_inner());
                            let counted = f.next - from;
                            f.end.get_or_insert(Batch::Ran(counted));
                            done.store(true, Ordering::Release);
                            return;
                        }
                        let i = next.fetch_add(1, Ordering::AcqRel);
                        if i >= from + n {
                            return;
                        }
                        self.cases.reset(&mut tc, i);
                        watch.begin(w, Phase::Generate, i);
                        let (outcome, labels, _) = run_in_place(&*self.cases.test, &mut tc);
                        watch.end(w);
                        let mut f = frontier.lock().unwrap_or_else(|e| e.into_inner());
                        f.pending.insert(i, (outcome, labels, tc.reaches()));
                        if f.fold(from) {
                            done.store(true, Ordering::Release);
                        }
                    }
                });
            }
        });
        let f = frontier.into_inner().unwrap_or_else(|e| e.into_inner());
        let counted = f.next - from;
        Ok(f.end.unwrap_or(Batch::Ran(counted)))
    }

    fn next_batch(&self, last: u64) -> u64 {
        // Threads are started per batch: batches grow so that starting
        // them is paid rarely, and start small so that a run of a few
        // cases does not compute many it will not count.
        if last == 0 { 64 * self.threads as u64 } else { (last * 2).min(1 << 16) }
    }
}
