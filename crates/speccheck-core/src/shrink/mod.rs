//! Shrinking on the choice sequence.
//!
//! A failing case is a [`ChoiceSequence`](crate::ChoiceSequence); the shrinker tries smaller
//! sequences (shortlex: fewer choices, then smaller values) and keeps one
//! only if it *still fails the same way* (same failure kind and location)
//! and the choices it actually made are strictly smaller than the current
//! best. So the shrinker only ever moves to smaller, still-failing cases,
//! and it cannot loop. It is bounded by steps and time.
//!
//! A shrink first tries the case's bare shape (every collection empty,
//! every number at its simplest: the `coarse` module), then runs the passes.
//! Every pass (one per module, after Hypothesis's shrinker) proposes
//! candidates through [`Shrinker::consider`] (a replayed sequence; built in
//! a reused buffer by [`Shrinker::consider_edit`]), [`Shrinker::consider_splice`]
//! (one span drawn afresh) or [`Shrinker::consider_case`] (any test case),
//! which share the bookkeeping: candidates already tried, inputs already
//! seen, and the tree of known replays (`known`), which tells — without
//! generating anything — when a candidate could only repeat a case already
//! run.

mod coarse;
mod delete;
mod known;
mod minimize;
mod promote;
mod redistribute;
mod reorder;

use crate::test_case::CaseControl as _;
use std::time::{Duration, Instant};

use crate::case::{CaseResult, FailureKind, Outcome};
use crate::choice::{Choice, FingerprintSet, fingerprint, shortlex};
use crate::test_case::{Fresh, Seen, Tail, TestCase};
use known::KnownReplays;

/// Number of passes [`Shrinker::shrink`] runs in turn.
const PASSES: usize = 11;

/// Limits on one shrink.
#[derive(Clone, Copy, Debug)]
pub struct ShrinkBudget {
    /// Most candidates to run.
    pub max_steps: u32,
    /// Longest time to take.
    pub max_time: Duration,
}

/// Why shrinking stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShrinkStop {
    /// No pass could improve the case any more.
    Fixpoint,
    /// The step budget ran out.
    Steps,
    /// The time budget ran out.
    Time,
}

/// What a shrink did.
#[derive(Clone, Copy, Debug)]
pub struct ShrinkStats {
    /// Candidates run.
    pub steps: u32,
    /// Candidates that became the new best.
    pub improvements: u32,
    /// Time taken.
    pub elapsed: Duration,
    /// Why it stopped.
    pub stop: ShrinkStop,
}

/// Runs test cases for the shrinker (the runner gives one that replays on
/// the property with spans recorded).
pub type Runner<'a> = dyn FnMut(TestCase) -> CaseResult + 'a;

/// Shrinks one failing case.
pub struct Shrinker<'a> {
    run: &'a mut Runner<'a>,
    best: CaseResult,
    origin: (FailureKind, Option<String>),
    /// Candidates already proposed (fingerprints of their choices).
    tried: Tried,
    /// The replays run so far: a candidate that could only repeat one is
    /// not run (nor generated).
    known: KnownReplays,
    /// The buffer [`consider_edit`](Self::consider_edit) builds candidates in.
    scratch: Vec<Choice>,
    seen: Seen,
    budget: ShrinkBudget,
    started: Instant,
    /// The step count at which the clock is read next (see
    /// [`exhausted`](Self::exhausted)).
    clock_at: std::cell::Cell<u32>,
    /// Set once the time budget was found spent.
    out_of_time: std::cell::Cell<bool>,
    steps: u32,
    improvements: u32,
    max_depth: u32,
}

impl<'a> Shrinker<'a> {
    /// Starts from `failing` (whose outcome must be a failure).
    pub fn new(run: &'a mut Runner<'a>, failing: CaseResult, budget: ShrinkBudget, max_depth: u32) -> Self {
        let origin = match &failing.outcome {
            Outcome::Fail(f) => (f.kind, f.location.clone()),
            other => panic!("shrinking a case that did not fail: {other:?}"),
        };
        // Room for a typical shrink's cases without growing.
        let seen = Seen::with_capacity(256);
        seen.insert(&failing.choices.0);
        // A replay of the failing case's own choices makes that case again:
        // a candidate that could only do so is known before it runs.
        let mut known = KnownReplays::default();
        known.insert(&failing.choices.0, &failing.spans.spans);
        Shrinker {
            run,
            seen,
            best: failing,
            origin,
            tried: Tried(crate::test_case::pool::take(&TRIED, 512)),
            known,
            scratch: Vec::new(),
            budget,
            started: Instant::now(),
            // The clock was just read (`started`).
            clock_at: std::cell::Cell::new(16),
            out_of_time: std::cell::Cell::new(budget.max_time.is_zero()),
            steps: 0,
            improvements: 0,
            max_depth,
        }
    }

    /// The smallest failing case so far.
    pub fn best(&self) -> &CaseResult {
        &self.best
    }

    /// The best choices (a copy, for passes that edit them).
    pub fn best_choices(&self) -> Vec<Choice> {
        self.best.choices.0.clone()
    }

    /// True once the step or time budget is spent. The clock is read once
    /// every 16 steps run (passes ask far more often than they run a
    /// step, and reading it costs as much as a small step).
    pub fn exhausted(&self) -> bool {
        if self.steps >= self.budget.max_steps || self.out_of_time.get() {
            return true;
        }
        if self.steps >= self.clock_at.get() {
            self.clock_at.set(self.steps + 16);
            self.out_of_time.set(self.started.elapsed() >= self.budget.max_time);
        }
        self.out_of_time.get()
    }

    /// Runs every pass until none improves the case or the budget is spent.
    pub fn shrink(mut self) -> (CaseResult, ShrinkStats) {
        // A pass is a function of the best case: one that went through it
        // without improving it would only propose the same candidates
        // again, so it is skipped until the best case changes. The value
        // is `improvements` when the pass last went through clean.
        let mut clean_at: [Option<u32>; PASSES] = [None; PASSES];
        // One try at the case's bare shape first (see `coarse`): when it
        // still fails, the passes start next to the minimum.
        coarse::simplest_shape(&mut self);
        let stop = loop {
            let before = self.improvements;
            for (pass, clean) in clean_at.iter_mut().enumerate() {
                if self.exhausted() {
                    break;
                }
                if *clean == Some(self.improvements) {
                    continue;
                }
                let at_start = self.improvements;
                match pass {
                    // Promotion first: replacing a value by one of its own
                    // parts is the largest step a recursive value can take,
                    // and deleting elements first leads it to local minima
                    // (on the SmartCheck heap programs, 14.5 constructors
                    // on average against 14.2 this way round).
                    0 => promote::promote_descendants(&mut self),
                    1 => delete::delete_slots(&mut self),
                    2 => minimize::simplest_subvalues(&mut self),
                    3 => delete::delete_chunks(&mut self),
                    4 => minimize::lower_constructors(&mut self),
                    5 => minimize::minimize_choices(&mut self),
                    6 => minimize::lower_duplicates(&mut self),
                    7 => reorder::sort_siblings(&mut self),
                    8 => delete::lower_and_delete(&mut self),
                    9 => redistribute::redistribute_pairs(&mut self),
                    // Costly and rarely needed: only when the rest of the
                    // round improved nothing.
                    _ if self.improvements != before => continue,
                    _ => minimize::lower_pairs(&mut self),
                }
                if self.improvements == at_start && !self.exhausted() {
                    *clean = Some(at_start);
                }
            }
            if self.steps >= self.budget.max_steps {
                break ShrinkStop::Steps;
            }
            // The clock is read every 16 steps (see `exhausted`): a round
            // that ran none cannot have used up the time.
            if self.out_of_time.get() {
                break ShrinkStop::Time;
            }
            if self.improvements == before {
                break ShrinkStop::Fixpoint;
            }
        };
        let stats =
            ShrinkStats { steps: self.steps, improvements: self.improvements, elapsed: self.started.elapsed(), stop };
        (self.best, stats)
    }

    /// Tries `candidate` (replayed, simplest choices past its end). Returns
    /// true if it became the new best.
    pub fn consider(&mut self, candidate: &[Choice]) -> bool {
        if !self.worth_running(candidate) {
            return false;
        }
        let mut prefix = crate::test_case::pool::choices(candidate.len());
        prefix.extend_from_slice(candidate);
        self.run_replay(prefix)
    }

    /// True when `candidate` is smaller than the best, not tried before,
    /// and not known to repeat a case already run.
    fn worth_running(&mut self, candidate: &[Choice]) -> bool {
        shortlex(candidate, &self.best.choices.0) == std::cmp::Ordering::Less
            && !self.exhausted()
            && self.tried.insert(fingerprint(candidate))
            && !self.known.repeats(candidate)
    }

    fn run_replay(&mut self, prefix: Vec<Choice>) -> bool {
        let tc = TestCase::replay(prefix, Tail::Simplest).with_spans(true).with_max_depth(self.max_depth);
        self.run_candidate(tc, true)
    }

    /// Tries the candidate `edit` writes, given the best choices and an
    /// empty buffer (most candidates are rejected before they run, and
    /// need no allocation of their own; one that runs takes the buffer
    /// with it).
    pub fn consider_edit(&mut self, edit: impl FnOnce(&[Choice], &mut Vec<Choice>)) -> bool {
        let mut buf = std::mem::take(&mut self.scratch);
        if buf.capacity() == 0 {
            buf = crate::test_case::pool::choices(self.best.choices.len() + 1);
        }
        buf.clear();
        edit(&self.best.choices.0, &mut buf);
        if self.worth_running(&buf) {
            return self.run_replay(buf);
        }
        self.scratch = buf;
        false
    }

    /// Tries the best choices with the values at some positions changed
    /// (`(position, value)`; positions past the end are left out). Returns
    /// true if it became the new best.
    pub(crate) fn consider_values(&mut self, changes: &[(usize, u64)]) -> bool {
        self.consider_edit(|best, out| {
            out.extend_from_slice(best);
            for &(i, v) in changes {
                if let Some(c) = out.get_mut(i) {
                    c.value = v;
                }
            }
        })
    }

    /// Tries the best case with span `ordinal` drawn afresh from `fresh`
    /// (see [`CaseControl::splice`](crate::test_case::CaseControl::splice)). Returns true if it became the new best.
    pub fn consider_splice(&mut self, ordinal: usize, fresh: Fresh) -> bool {
        if self.exhausted() {
            return false;
        }
        let span = self.best.spans.spans[ordinal];
        // A fresh span of given choices then the simplest ones is drawn as
        // a replay would draw it, so the known replays can tell whether it
        // repeats one (see `known`); a random one cannot be told.
        let predictable = fresh.tail == Tail::Simplest && fresh.size == 0;
        if predictable
            && self.known.repeats_splice(
                &self.best.choices.0,
                span.start as usize,
                span.depth,
                &fresh.prefix,
                span.end as usize,
            )
        {
            return false;
        }
        let tc = TestCase::splice(self.best_choices(), ordinal, &span, fresh, None).with_max_depth(self.max_depth);
        self.run_candidate(tc, predictable)
    }

    /// Runs an arbitrary test case (a splice, say); it becomes the new best
    /// if it fails the same way and made strictly smaller choices.
    pub fn consider_case(&mut self, tc: TestCase) -> bool {
        if self.exhausted() {
            return false;
        }
        self.run_candidate(tc, false)
    }

    /// Runs a candidate. `known`: `tc` draws as a replay of its result
    /// would (a replay, or a splice whose fresh part is not random), so the
    /// known-replay tree may record the result.
    fn run_candidate(&mut self, tc: TestCase, known: bool) -> bool {
        // A splice already run on this same case would make the same
        // choices again: skip it before generating anything.
        if let Some(key) = tc.splice_key()
            && !self.tried.insert(key)
        {
            return false;
        }
        self.steps += 1;
        // A predictable candidate was checked against the known replays
        // already; only the others need the set of inputs seen.
        let tc =
            if (known && self.known.is_consistent()) || tc.has_seen() { tc } else { tc.with_seen(self.seen.clone()) };
        let result = (self.run)(tc);
        if known {
            self.known.insert(&result.choices.0, &result.spans.spans);
        }
        let same_failure = match &result.outcome {
            Outcome::Fail(f) => (f.kind, f.location.as_deref()) == (self.origin.0, self.origin.1.as_deref()),
            _ => false,
        };
        if same_failure && shortlex(&result.choices.0, &self.best.choices.0) == std::cmp::Ordering::Less {
            std::mem::replace(&mut self.best, result).recycle();
            self.improvements += 1;
            true
        } else {
            result.recycle();
            false
        }
    }
}

thread_local! {
    /// Sets of tried candidates of the shrinks done on this thread.
    static TRIED: crate::test_case::pool::Pool<FingerprintSet> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A shrink's set of tried candidates (fingerprints), taken from and given
/// back to the thread's pool: a fresh one is tens of kilobytes each shrink.
#[derive(Debug)]
struct Tried(FingerprintSet);

impl Tried {
    /// Adds a fingerprint; false if it was there.
    fn insert(&mut self, key: u64) -> bool {
        self.0.insert(key)
    }
}

impl Drop for Tried {
    fn drop(&mut self) {
        crate::test_case::pool::give(&TRIED, std::mem::take(&mut self.0));
    }
}

/// Appends `choices` with `range` replaced by `with` to `out`.
pub(crate) fn replace_into(choices: &[Choice], range: std::ops::Range<usize>, with: &[Choice], out: &mut Vec<Choice>) {
    out.extend_from_slice(&choices[..range.start]);
    out.extend_from_slice(with);
    out.extend_from_slice(&choices[range.end..]);
}
