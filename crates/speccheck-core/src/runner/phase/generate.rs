//! Random generation: the generator's simplest input first, then random
//! case `i` from seed `case_seed(run_seed, i)` at size `case_size(i)`, so
//! results never depend on where cases ran. One loop, whatever the
//! executor: it hands out batches of case numbers and stops on a failure
//! that comes back when run again, on enough passes, on too many
//! rejections, or at the time budget.
//!
//! Cases are drawn in *plain* mode (no choices or spans recorded); a
//! failing one is run again from its seed with recording on, which doubles
//! as the first check that the failure is not flaky. A flaky failure does
//! not stop the loop: it is the verdict only if no later failure comes
//! back when run again.

use crate::test_case::CaseControl as _;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{Found, Origin, Searched, abandoned};
use crate::case::{FailureInfo, Outcome};
use crate::human;
use crate::runner::engine::Engine;
use crate::runner::executor::{Batch, SIMPLEST_CASE};
use crate::runner::report::{RunStats, RunVerdict};
use crate::runner::subject::TIMED_INPUTS;
use crate::runner::tally::{Full, Tally, count};
use crate::watch::Phase;

/// The generation time of the first inputs past which a run is stopped.
const TOO_SLOW: std::time::Duration = std::time::Duration::from_secs(1);

/// A failure that did not come back when its case ran again, kept while
/// the search goes on for one that does.
struct Flaky {
    found: Box<Found>,
    /// When it first failed.
    time: Option<Duration>,
}

impl Engine {
    /// The random generation phase. A failure that does not come back when
    /// its case runs again does not end it: a system whose failures depend
    /// on scheduling (a server's interleaving of connections, threads) may
    /// show a failure that does come back later in the same run, and that
    /// one is worth more to the user. The first flaky failure is the verdict
    /// when none comes back; otherwise the report warns of it.
    pub(crate) fn generate(&self, stats: &mut RunStats, warnings: &mut Vec<String>, started: Instant) -> Searched {
        let mut flaky = None;
        let searched = self.generate_past_flaky(stats, warnings, started, &mut flaky);
        let Some(Flaky { found: first, time }) = flaky else { return searched };
        match searched {
            // The target phase's failures are confirmed too: a flaky one
            // there does not displace the first.
            Searched::Found(found) if found.origin != Origin::Flaky => {
                warnings.push(flaky_warning(&first));
                Searched::Found(found)
            }
            // A hang is reported by the watching thread.
            _ if self.watch.is_abandoned() => searched,
            _ => {
                stats.time_to_failure = time;
                Searched::Found(first)
            }
        }
    }

    /// [`generate`](Self::generate) but for what it does with the first
    /// flaky failure, which is left in `flaky`.
    fn generate_past_flaky(
        &self,
        stats: &mut RunStats,
        warnings: &mut Vec<String>,
        started: Instant,
        flaky: &mut Option<Flaky>,
    ) -> Searched {
        if let Some(s) = self.simplest_first(stats, started) {
            match s {
                Searched::Found(f) if f.origin == Origin::Flaky => {
                    keep_first(flaky, f, stats.time_to_failure.take());
                }
                s => return s,
            }
        }
        let cases = self.config.shard_cases();
        let max_rejects = cases * u64::from(self.config.max_discard_ratio.max(1));
        // A budget too long to add to a time is no deadline.
        let deadline = self.config.time_budget.and_then(|b| started.checked_add(b));
        let mut tally = Tally::new(stats, cases, max_rejects, self.config.phases.target);
        let (mut next, mut batch) = (0u64, self.executor.next_batch(0));
        loop {
            match tally.full() {
                Some(Full::Enough) if tally.stats.targets.is_empty() || !self.config.phases.target => {
                    return Searched::over(RunVerdict::Passed);
                }
                Some(Full::Enough) => return self.climb_targets(tally.stats, warnings, deadline),
                Some(Full::GaveUp(reason)) => return Searched::over(RunVerdict::GaveUp { reason }),
                Some(Full::Error(e)) => return Searched::over(RunVerdict::Error(e)),
                None => {}
            }
            if deadline.is_some_and(|d| Instant::now() > d) {
                tally.stats.time_budget_hit = true;
                return Searched::over(RunVerdict::Passed);
            }
            if self.watch.is_abandoned() {
                return abandoned();
            }
            match self.executor.run_generated(next, batch, &mut tally, deadline) {
                Ok(Batch::Ran(n)) => {
                    next += n;
                    if let Some(e) = self.generation_too_slow() {
                        return Searched::over(RunVerdict::Error(e));
                    }
                }
                Ok(Batch::Failed(index, failure)) => {
                    // The input failed now; `confirm` runs it again, recorded.
                    tally.stats.time_to_failure = Some(started.elapsed());
                    match self.confirm(index, failure) {
                        Searched::Found(f) if f.origin == Origin::Flaky => {
                            keep_first(flaky, f, tally.stats.time_to_failure.take());
                            // The cases after it were not counted.
                            next = index + 1;
                        }
                        confirmed => return confirmed,
                    }
                }
                Err(e) => return Searched::over(RunVerdict::Incomplete { reason: e }),
            }
            batch = self.executor.next_batch(batch);
        }
    }

    /// The first input: the generator's simplest value (every choice its
    /// simplest option: empty collections, zeros, the first variant), as
    /// Hypothesis tries first. Bugs that any input shows are then found on
    /// the cheapest input to run, already as small as it gets. It counts as
    /// one of the run's cases; a generator that cannot make it (a filter
    /// that rejects it) loses nothing but that try, which is not counted.
    /// `Some` when it failed (or the run is over).
    fn simplest_first(&self, stats: &mut RunStats, started: Instant) -> Option<Searched> {
        if self.config.cases == 0 || self.config.shard.is_some_and(|(i, _)| i != 1) {
            // Shard 1 runs the simplest input.
            return None;
        }
        if self.watch.is_abandoned() {
            return Some(abandoned());
        }
        // Run as a random case is (nothing recorded), then again recorded
        // if it failed (`confirm`).
        let tc = self.cases.generated(SIMPLEST_CASE).record_choices(false);
        self.watch.begin(0, Phase::Generate, SIMPLEST_CASE);
        let (outcome, labels) = self.executor.run_plain(tc);
        self.watch.end(0);
        match outcome {
            // No simplest value: nothing was tested.
            Outcome::Invalid(_) => None,
            Outcome::Fail(info) => {
                stats.time_to_failure = Some(started.elapsed());
                // Counted as the first input: a flaky failure here lets the
                // search go on, and the inputs after it are numbered from 2.
                self.preceding.store(1, Ordering::Relaxed);
                Some(self.confirm(SIMPLEST_CASE, info))
            }
            outcome => {
                self.preceding.store(1, Ordering::Relaxed);
                count(stats, Some(SIMPLEST_CASE), outcome, labels);
                None
            }
        }
    }

    /// The generation health check: an error when the first inputs took
    /// more than a second to generate (checked once they are all timed).
    fn generation_too_slow(&self) -> Option<String> {
        if !self.config.health_checks {
            return None;
        }
        let (timed, took) = self.subject.clock.reading();
        if timed < TIMED_INPUTS || took <= TOO_SLOW {
            return None;
        }
        Some(format!(
            "health check: generating inputs is too slow: the first {timed} took {} ({} each), before the \
             property ran on any of them; a run of {} cases would spend about {} generating. Make the generator \
             cheaper (smaller collections, `max_size`, fewer filters), or turn the check off with \
             `SPECCHECK_HEALTH_CHECKS=0` (`Config::health_checks`)",
            human::duration(took),
            human::duration(took / timed as u32),
            self.config.cases,
            human::duration(took / timed as u32 * self.config.cases),
        ))
    }

    /// Runs generated case `index` again, recording its choices and spans
    /// (the generation phase records neither). A failure that does not come
    /// back is flaky from the start.
    fn confirm(&self, index: u64, first: FailureInfo) -> Searched {
        let r = self.watched_generated(index);
        let found_after = self.input_number(index);
        if r.outcome.is_fail() {
            let origin = if index == SIMPLEST_CASE { Origin::Simplest } else { Origin::Generated };
            return Searched::found(r, found_after, origin);
        }
        let case = crate::case::CaseResult { outcome: Outcome::Fail(first), ..r };
        Searched::found(case, found_after, Origin::Flaky)
    }

    /// Runs generated case `index`, recorded (choices and spans), watched
    /// as that case.
    pub(crate) fn watched_generated(&self, index: u64) -> crate::case::CaseResult {
        self.watch.begin(0, Phase::Generate, index);
        let r = self.executor.run(self.cases.generated(index).with_spans(true));
        self.watch.end(0);
        r
    }

    /// The input number of generated case `index` (from 1, the simplest
    /// input included).
    pub(crate) fn input_number(&self, index: u64) -> u64 {
        if index == SIMPLEST_CASE { 1 } else { index + 1 + self.preceding.load(Ordering::Relaxed) }
    }
}

/// Keeps `found`, a flaky failure found at `time`, unless one is kept
/// already. Callers take `time` out of the run's statistics, so that a
/// later failure that comes back sets its own.
fn keep_first(flaky: &mut Option<Flaky>, found: Box<Found>, time: Option<Duration>) {
    flaky.get_or_insert(Flaky { found, time });
}

/// What the report says of a flaky failure when the search went on to a
/// failure that came back.
fn flaky_warning(flaky: &Found) -> String {
    let after = flaky.found_after;
    let message = match &flaky.case.outcome {
        Outcome::Fail(info) => info.message.lines().next().unwrap_or_default(),
        _ => "",
    };
    format!(
        "input {after} failed ({message}) but passed when run again (flaky); the search went on, and the failure \
         reported came back when run again"
    )
}
