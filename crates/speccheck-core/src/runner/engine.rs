//! The phases of one run, executed on a worker thread:
//! replay (saved failures, `SPECCHECK_REPLAY`) → generate → shrink →
//! explain → final replay → persist. Each phase is a method; the run
//! composes them (Hypothesis's engine keeps its phases apart the same way).

use crate::test_case::CaseControl as _;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::config::Config;
use super::explain::{ExplainContext, Explainer};
use super::report::{Counterexample, ExhaustiveStats, RunReport, RunStats, RunVerdict, Section};
use crate::case::{CaseResult, FailureInfo, FailureKind, Outcome, SharedTest, execute, run_in_place, run_passing};
use crate::choice::{ChoiceSequence, ReplayTag, shortlex};
use crate::database::{FailureDatabase, StoredFailure};
use crate::seed::case_seed;
use crate::shrink::{ShrinkBudget, ShrinkStats, Shrinker};
use crate::term::Term;
use crate::test_case::{Invalid, Tail, TestCase, catch_invalid};
use crate::watch::{Hang, Phase, Watch};

/// Generates and renders inputs without running the property.
pub(crate) type Describe = Arc<dyn Fn(&mut TestCase) -> Vec<(String, Term)> + Send + Sync>;
/// Generates an input and drops it (to measure the input space).
pub(crate) type Draw = Arc<dyn Fn(&mut TestCase) + Send + Sync>;

/// How the engine makes inputs without running the property.
pub(crate) struct Inputs {
    pub(crate) describe: Describe,
    pub(crate) draw: Draw,
    /// The type of the inputs (for the replay tag).
    pub(crate) input_type: &'static str,
    /// Where inputs come from besides the generator, if anywhere.
    pub(crate) source: Option<super::source::Sourced>,
}

/// Random paths walked to estimate the size of an exhaustive run that
/// could not finish (Knuth's estimator, see [`crate::enumerate::estimate_count`]).
const ESTIMATE_PROBES: u32 = 400;

/// Seed salt for the cases the explanation step generates, so they differ
/// from the generation phase's.
const EXPLAIN_SALT: u64 = 0x5eed_e8b1_a100;

pub(crate) struct Engine {
    pub(crate) test: SharedTest,
    pub(crate) describe: Describe,
    pub(crate) draw: Draw,
    /// What this property's replay strings carry (see [`ReplayTag`]).
    pub(crate) tag: ReplayTag,
    pub(crate) config: Config,
    pub(crate) seed: u64,
    pub(crate) db: Option<FailureDatabase>,
    pub(crate) watch: Arc<Watch>,
    pub(crate) explainer: Option<Arc<dyn Explainer>>,
    /// The smallest failure so far, for a report if a later phase hangs.
    pub(crate) failing: Mutex<Option<(ChoiceSequence, FailureInfo)>>,
    /// The child process cases run in, for an isolated run.
    pub(crate) isolated: Option<Mutex<super::isolate::parent::Isolated>>,
    /// Inputs from outside the generator (see [`super::source`]).
    pub(crate) source: Mutex<Option<super::source::Sourced>>,
    /// Inputs the generation phase ran before its random ones (the
    /// simplest input, see [`Engine::simplest_first`]): random case `i`
    /// is input number `i + 1 + preceding`.
    pub(crate) preceding: AtomicU64,
}

/// The watch's case number for the simplest input (see
/// [`Engine::simplest_first`]); random cases are numbered from 0.
const SIMPLEST_CASE: u64 = u64::MAX;

/// The source of a failure replayed from `SPECCHECK_REPLAY`: it is shown
/// as given, neither shrunk nor reduced (replaying a reported
/// counterexample must show that counterexample).
const FROM_REPLAY: &str = "the input given by SPECCHECK_REPLAY (shown as given, not shrunk)";

/// Where a failing case came from.
struct Found {
    case: CaseResult,
    found_after: u64,
    source: Option<String>,
}

/// Where a run stands after the search: done, or a counterexample left
/// to replay one last time (see [`Engine::search`]).
pub(crate) enum Ran {
    Done(Box<RunReport>),
    Final(Box<Pending>),
}

/// A run waiting for the final replay of its counterexample.
pub(crate) struct Pending {
    last: LastStep,
    stats: RunStats,
    warnings: Vec<String>,
    started: Instant,
}

/// A shrunk and explained counterexample, before its final replay.
struct LastStep {
    best: CaseResult,
    /// The failing case as found and confirmed, before shrinking.
    confirmed: ChoiceSequence,
    first_info: FailureInfo,
    found_after: u64,
    original_choices: usize,
    shrink_stats: Option<ShrinkStats>,
    sections: Vec<Section>,
    source: Option<String>,
}

enum Explained {
    Verdict(RunVerdict),
    Final(Box<LastStep>),
}

enum Generated {
    Passed,
    Failed(Box<Found>),
    /// Case `index` failed in the parallel phase (not yet re-run).
    FailedAt(u64, FailureInfo),
    GaveUp(String),
    /// The run could not test at all.
    Error(String),
    /// The run stopped before doing what its settings say.
    Incomplete(String),
    Abandoned,
}

impl Engine {
    fn report(
        &self,
        verdict: RunVerdict,
        mut stats: RunStats,
        mut warnings: Vec<String>,
        started: Instant,
    ) -> RunReport {
        stats.elapsed = started.elapsed();
        let short = crate::case::context::coverage_warnings(&mut stats.labels, stats.passed);
        if matches!(verdict, RunVerdict::Passed) {
            warnings.extend(short);
            let rejected = stats.discarded + stats.invalid;
            if rejected > stats.passed && stats.topped_up.is_none() {
                // Hypothesis's `filter_too_much` health check, as a warning:
                // the run passed, on fewer inputs than it tried.
                let top = stats.discard_reasons.iter().max_by_key(|(_, n)| **n).map(|(r, n)| format!("{r} ({n})"));
                warnings.push(format!(
                    "most generated inputs were rejected ({rejected} rejected, {} checked){}: the property held on \
                     fewer inputs than the run tried",
                    stats.passed,
                    top.map(|t| format!("; most often: {t}")).unwrap_or_default()
                ));
            }
        }
        RunReport {
            name: self.config.name.clone(),
            verdict,
            stats,
            warnings,
            notes: Vec::new(),
            rerun_command: self.config.rerun_command.clone(),
            verbosity: self.config.verbosity,
            overridden: self.config.overridden.clone(),
        }
    }

    fn new_stats(&self) -> RunStats {
        RunStats { seed: self.seed, threads: self.config.threads.max(1), ..RunStats::default() }
    }

    /// Runs every phase on this thread.
    pub(crate) fn run(&self) -> RunReport {
        match self.search() {
            Ran::Done(report) => *report,
            Ran::Final(pending) => self.finish(*pending),
        }
    }

    /// Runs every phase up to the final replay of a counterexample, which
    /// is left to [`finish`](Self::finish): the caller may run it on a
    /// thread of its own (so that what the property prints on its final
    /// run shows in the caller's test output).
    pub(crate) fn search(&self) -> Ran {
        let started = Instant::now();
        let mut stats = self.new_stats();
        let mut warnings = Vec::new();

        let mut found = match self.replay_explicit() {
            Ok(f) => f,
            Err(e) => return Ran::Done(Box::new(self.report(RunVerdict::Error(e), stats, warnings, started))),
        };
        if found.is_none() && self.config.replay.is_some() {
            stats.passed = 1;
            stats.replayed = true;
            let mut r = self.report(RunVerdict::Passed, stats, warnings, started);
            r.notes.push("only the input given by SPECCHECK_REPLAY was run, and it passed".into());
            return Ran::Done(Box::new(r));
        }
        if found.is_none()
            && let Some(start) = &self.config.start_from
        {
            let r = self.watched(Phase::Replay, self.replay_case(start, Tail::Simplest));
            // Only a replay that ran the whole input and passed is a pass.
            let unreplayed = match &r.outcome {
                Outcome::Invalid(why) => Some(format!("it could not be rebuilt ({})", describe_invalid(why))),
                Outcome::Discard { reason } => Some(format!("it was rejected by `{reason}`")),
                _ => None,
            };
            if let Some(why) = unreplayed {
                let e = format!("the input the run started from was not replayed: {why}");
                return Ran::Done(Box::new(self.report(RunVerdict::Error(e), stats, warnings, started)));
            }
            if !r.outcome.is_fail() {
                stats.replayed = true;
                return Ran::Done(Box::new(self.report(RunVerdict::Passed, stats, warnings, started)));
            }
            found = Some(Found { case: r, found_after: 0, source: Some("the input the run started from".into()) });
        }
        if found.is_none() {
            found = self.replay_database(&mut warnings);
        }
        let mut notes = Vec::new();
        if found.is_none() {
            use super::source::Sourced;
            let (instead, fallback) = match self.source.lock().unwrap_or_else(|e| e.into_inner()).take() {
                Some(Sourced::Instead(s)) => (Some(s), None),
                Some(Sourced::Fallback(make)) => (None, Some(make)),
                None => (None, None),
            };
            let generated = match (instead, self.config.exhaustive) {
                (Some(mut source), _) => {
                    let g = self.sourced(&mut source, &mut stats, &mut notes, started, false);
                    warnings.extend(source.warnings());
                    g
                }
                (None, Some(depth)) => self.exhaust(depth, &mut stats, &mut notes, started),
                (None, None) => {
                    let g = self.generate(&mut stats, started);
                    // Topped up when the filter rejected most values and
                    // the run is short of its cases.
                    let rejected = stats.discarded + stats.invalid;
                    let short = stats.passed < u64::from(self.config.cases) && rejected > stats.passed;
                    match fallback {
                        Some(make) if matches!(g, Generated::Passed | Generated::GaveUp(_)) && short => {
                            let mut source = make();
                            let g = self.sourced(&mut source, &mut stats, &mut notes, started, true);
                            warnings.extend(source.warnings());
                            g
                        }
                        _ => g,
                    }
                }
            };
            match generated {
                Generated::Passed => {
                    let mut r = self.report(RunVerdict::Passed, stats, warnings, started);
                    r.notes = notes;
                    return Ran::Done(Box::new(r));
                }
                Generated::GaveUp(reason) => {
                    let mut r = self.report(RunVerdict::GaveUp { reason }, stats, warnings, started);
                    r.notes = notes;
                    return Ran::Done(Box::new(r));
                }
                Generated::Error(e) => {
                    let mut r = self.report(RunVerdict::Error(e), stats, warnings, started);
                    r.notes = notes;
                    return Ran::Done(Box::new(r));
                }
                Generated::Incomplete(reason) => {
                    let mut r = self.report(RunVerdict::Incomplete { reason }, stats, warnings, started);
                    r.notes = notes;
                    return Ran::Done(Box::new(r));
                }
                Generated::Failed(f) => found = Some(*f),
                Generated::Abandoned | Generated::FailedAt(..) => {
                    return Ran::Done(Box::new(self.report(
                        RunVerdict::Error("abandoned".into()),
                        stats,
                        warnings,
                        started,
                    )));
                }
            }
        }
        let found = found.expect("a failure to explain");
        // Generation notes the moment the input first failed; other sources
        // (a replay, the database) failed just now.
        stats.time_to_failure.get_or_insert(started.elapsed());
        match self.explain_failure(found) {
            Explained::Verdict(verdict) => Ran::Done(Box::new(self.report(verdict, stats, warnings, started))),
            Explained::Final(last) => Ran::Final(Box::new(Pending { last: *last, stats, warnings, started })),
        }
    }

    /// The final replay of a counterexample, then the report.
    pub(crate) fn finish(&self, pending: Pending) -> RunReport {
        let Pending { last, stats, mut warnings, started } = pending;
        let verdict = self.final_replay(last, &mut warnings);
        self.report(verdict, stats, warnings, started)
    }

    fn watched(&self, phase: Phase, tc: TestCase) -> CaseResult {
        self.watch.begin(0, phase, 0);
        let r = self.exec(tc);
        self.watch.end(0);
        r
    }

    /// Runs one case: in this process, or in the isolated child.
    fn exec(&self, tc: TestCase) -> CaseResult {
        match &self.isolated {
            None => execute(&*self.test, tc),
            Some(child) => self.exec_isolated(child, tc),
        }
    }

    /// Runs `tc` in the child: a case that kills it is a crash, one that
    /// does not answer in time a timeout, each with its input when it was
    /// drawn. Spans are rebuilt here from the input's choices.
    fn exec_isolated(&self, child: &Mutex<super::isolate::parent::Isolated>, tc: TestCase) -> CaseResult {
        use super::isolate::parent::ChildOutcome;
        let spans = tc.keeps_spans();
        let outcome = child.lock().unwrap_or_else(|e| e.into_inner()).run(&tc, self.isolated_limit());
        let (outcome, choices, rest) = match outcome {
            Ok(ChildOutcome::Done(r)) => {
                (r.outcome, r.choices, Some((r.labels, r.misaligned, r.prefix_unused, r.notes)))
            }
            Ok(ChildOutcome::Died { generated, reason }) => {
                let info = FailureInfo {
                    kind: FailureKind::Crash,
                    message: format!("the process running the case died: {reason}"),
                    location: None,
                    in_generator: generated.is_none(),
                };
                (Outcome::Fail(info), generated.unwrap_or_default(), None)
            }
            Ok(ChildOutcome::Hung { generated, after }) => {
                let info = FailureInfo {
                    kind: FailureKind::Timeout,
                    message: format!(
                        "no result after {} (limit {}); the process running it was killed",
                        crate::human::duration(after),
                        crate::human::duration(self.isolated_limit().unwrap_or_default())
                    ),
                    location: None,
                    in_generator: generated.is_none(),
                };
                (Outcome::Fail(info), generated.unwrap_or_default(), None)
            }
            Err(e) => (Outcome::Invalid(Invalid::Other(format!("isolated run: {e}"))), ChoiceSequence::default(), None),
        };
        let (labels, misaligned, prefix_unused, notes) = rest.unwrap_or_default();
        let spans = if spans && !choices.is_empty() { self.spans_of(&choices) } else { Default::default() };
        CaseResult {
            outcome,
            choices,
            spans,
            labels,
            misaligned,
            prefix_unused,
            shown: Vec::new(),
            notes,
            backtrace: None,
        }
    }

    /// The per-case limit of an isolated run: the timeout, shorter while
    /// shrinking a hang (every hanging candidate waits it out).
    fn isolated_limit(&self) -> Option<Duration> {
        let hanging = self
            .failing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_some_and(|(_, f)| f.kind == FailureKind::Timeout);
        match self.config.timeout {
            Some(t) if hanging => Some((t / 10).clamp(Duration::from_millis(100), Duration::from_secs(1)).min(t)),
            other => other,
        }
    }

    /// The spans of the input `choices` make, by replaying them through the
    /// generator alone.
    fn spans_of(&self, choices: &ChoiceSequence) -> crate::span::SpanTree {
        let mut tc =
            TestCase::replay(choices.0.clone(), Tail::Stop).with_spans(true).with_max_depth(self.config.max_depth);
        let draw = self.draw.clone();
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| catch_invalid(&mut tc, |tc| draw(tc))));
        tc.finish().1
    }

    fn replay_case(&self, choices: &ChoiceSequence, tail: Tail) -> TestCase {
        TestCase::replay(choices.0.clone(), tail).with_spans(true).with_max_depth(self.config.max_depth)
    }

    // ----- phase: replay ---------------------------------------------------

    /// Runs the input of `SPECCHECK_REPLAY`, after checking that the string
    /// was made for this property and fits its generator.
    fn replay_explicit(&self) -> Result<Option<Found>, String> {
        let Some(text) = &self.config.replay else { return Ok(None) };
        let (tag, seq) = ChoiceSequence::parse_replay_string(text)
            .map_err(|e| format!("SPECCHECK_REPLAY is not a replay string: {e}"))?;
        if let Some(tag) = tag {
            if tag.property != self.tag.property {
                return Err(format!(
                    "SPECCHECK_REPLAY was made for another property (its tag names property {:08x}; `{}` is {:08x}): \
                     run it with the test that printed it, or unset SPECCHECK_REPLAY",
                    tag.property, self.config.name, self.tag.property
                ));
            }
            if tag.input != self.tag.input {
                return Err(format!(
                    "SPECCHECK_REPLAY was made for `{}` when its inputs had another type (tag {:08x}, now {:08x}): \
                     the property's arguments changed since, so the string no longer describes an input",
                    self.config.name, tag.input, self.tag.input
                ));
            }
        }
        self.watch.begin_replay(0, Phase::Replay, &seq.0);
        let r = self.exec(self.replay_case(&seq, Tail::Stop).with_final(true));
        self.watch.end(0);
        if let Outcome::Invalid(why) = &r.outcome {
            return Err(format!(
                "SPECCHECK_REPLAY does not describe an input of `{}`: {}",
                self.config.name,
                describe_invalid(why)
            ));
        }
        if r.misaligned > 0 || r.prefix_unused {
            return Err(format!(
                "SPECCHECK_REPLAY does not fit the generator of `{}` ({}): it was made for another property or \
                 before the generator changed",
                self.config.name,
                if r.prefix_unused { "choices were left over" } else { "some choices are out of their bounds" }
            ));
        }
        Ok(r.outcome.is_fail().then(|| Found { case: r, found_after: 0, source: Some(FROM_REPLAY.into()) }))
    }

    fn replay_database(&self, warnings: &mut Vec<String>) -> Option<Found> {
        if self.config.expected_failure {
            return None;
        }
        let db = self.db.as_ref()?;
        let (entries, warning) = db.load(&self.config.name);
        if let Some(w) = warning {
            warnings.push(w.to_string());
        }
        for entry in entries {
            self.watch.begin_replay(0, Phase::Replay, &entry.choices.0);
            let r = self.exec(self.replay_case(&entry.choices, Tail::Stop));
            self.watch.end(0);
            let stale = r.misaligned > 0
                || r.prefix_unused
                || matches!(r.outcome, Outcome::Invalid(_) | Outcome::Discard { .. });
            if r.outcome.is_fail() && !stale {
                return Some(Found {
                    case: r,
                    found_after: 0,
                    source: Some("a failure saved by an earlier run".into()),
                });
            }
            if stale {
                warnings.push(format!(
                    "a saved failure of `{}` no longer fits its generator (the generator changed); dropped it",
                    self.config.name
                ));
            }
            if self.config.database_writes
                && let Err(e) = db.remove(&self.config.name, &entry.choices)
            {
                warnings.push(format!("could not update the failure database: {e}"));
            }
        }
        None
    }

    // ----- phase: generate -------------------------------------------------

    /// The generation phase's first input: the generator's simplest value
    /// (every choice its simplest option: empty collections, zeros, the
    /// first variant), as Hypothesis tries first. Bugs that any input
    /// shows are then found on the cheapest input to run, already as
    /// small as it gets. It counts as one of the run's cases; a generator
    /// that cannot make it (a filter that rejects it) loses nothing but
    /// that try, which is not counted. `Some` when it failed (or the run
    /// is over).
    fn simplest_first(&self, stats: &mut RunStats, started: Instant) -> Option<Generated> {
        if self.config.cases == 0 {
            return None;
        }
        if self.watch.is_abandoned() {
            return Some(Generated::Abandoned);
        }
        // Run as a random case is (nothing recorded), then again recorded
        // if it failed (`confirm`).
        let mut tc = self.generated_case(SIMPLEST_CASE).record_choices(false);
        self.watch.begin(0, Phase::Generate, SIMPLEST_CASE);
        let (outcome, labels) = match &self.isolated {
            None => {
                let (outcome, labels, _) = run_in_place(&*self.test, &mut tc);
                (outcome, labels)
            }
            Some(child) => {
                let r = self.exec_isolated(child, tc);
                (r.outcome, r.labels)
            }
        };
        self.watch.end(0);
        match outcome {
            // No simplest value: nothing was tested.
            Outcome::Invalid(_) => None,
            Outcome::Fail(info) => {
                stats.time_to_failure = Some(started.elapsed());
                Some(self.confirm(SIMPLEST_CASE, info))
            }
            outcome => {
                self.preceding.store(1, Ordering::Relaxed);
                tally(stats, outcome, labels);
                None
            }
        }
    }

    /// Runs generated case `index`, recorded (choices and spans), watched
    /// as that case.
    fn generated_run(&self, index: u64) -> CaseResult {
        self.watch.begin(0, Phase::Generate, index);
        let r = self.exec(self.generated_case(index).with_spans(true));
        self.watch.end(0);
        r
    }

    /// Generated case `index` as the generation phase drew it: the simplest
    /// input for [`SIMPLEST_CASE`], else random from the run's seed.
    fn generated_case(&self, index: u64) -> TestCase {
        let tc = if index == SIMPLEST_CASE {
            TestCase::replay(Vec::new(), Tail::Simplest)
        } else {
            TestCase::random(case_seed(self.seed, index), self.config.case_size(index))
        };
        tc.with_max_depth(self.config.max_depth)
    }

    /// The input number of generated case `index` (from 1, the simplest
    /// input included).
    fn input_number(&self, index: u64) -> u64 {
        if index == SIMPLEST_CASE { 1 } else { index + 1 + self.preceding.load(Ordering::Relaxed) }
    }

    fn generate(&self, stats: &mut RunStats, started: Instant) -> Generated {
        if let Some(g) = self.simplest_first(stats, started) {
            return g;
        }
        if let Some(child) = &self.isolated {
            return self.generate_isolated(child, stats, started);
        }
        if self.config.threads > 1 {
            return self.generate_parallel(stats, started);
        }
        let cases = self.config.cases;
        let max_rejects = u64::from(cases) * u64::from(self.config.max_discard_ratio.max(1));
        let mut tc = TestCase::random(0, 0).with_max_depth(self.config.max_depth).record_choices(false);
        let test = &*self.test;
        let mut i = 0u64;
        loop {
            if stats.passed >= u64::from(cases) {
                return Generated::Passed;
            }
            if stats.discarded + stats.invalid > max_rejects {
                return Generated::GaveUp(give_up_reason(stats));
            }
            if i.is_multiple_of(16) {
                if let Some(budget) = self.config.time_budget
                    && started.elapsed() > budget
                {
                    stats.time_budget_hit = true;
                    return Generated::Passed;
                }
                if self.watch.is_abandoned() {
                    return Generated::Abandoned;
                }
            }
            tc.reset_random(case_seed(self.seed, i), self.config.case_size(i));
            self.watch.begin(0, Phase::Generate, i);
            let ran = run_passing(test, &mut tc);
            self.watch.end(0);
            i += 1;
            let Some((outcome, labels, _)) = ran else {
                stats.passed += 1;
                continue;
            };
            if let Some(stop) = tally(stats, outcome, labels) {
                // The input failed now; `confirm` runs it again, recorded.
                stats.time_to_failure = Some(started.elapsed());
                return self.confirm(i - 1, stop);
            }
        }
    }

    /// The generation phase of an isolated run: cases go to the child in
    /// growing batches (one round trip each); a case that fails, crashes or
    /// hangs there is then run again alone, recorded (as `confirm` does).
    fn generate_isolated(
        &self,
        child: &Mutex<super::isolate::parent::Isolated>,
        stats: &mut RunStats,
        started: Instant,
    ) -> Generated {
        use super::isolate::parent::BatchOutcome;
        let cases = u64::from(self.config.cases);
        let max_rejects = cases * u64::from(self.config.max_discard_ratio.max(1));
        let (mut i, mut batch) = (0u64, 8u64);
        loop {
            if stats.passed >= cases {
                return Generated::Passed;
            }
            if stats.discarded + stats.invalid > max_rejects {
                return Generated::GaveUp(give_up_reason(stats));
            }
            if let Some(budget) = self.config.time_budget
                && started.elapsed() > budget
            {
                stats.time_budget_hit = true;
                return Generated::Passed;
            }
            let n = batch.min((cases - stats.passed).max(1) + 8);
            let request = super::isolate::wire::Batch {
                seed: self.seed,
                start: i,
                max_depth: self.config.max_depth,
                max_choices: crate::test_case::DEFAULT_MAX_CHOICES,
                sizes: (i..i + n).map(|k| self.config.case_size(k)).collect(),
            };
            let ran = child.lock().unwrap_or_else(|e| e.into_inner()).run_batch(&request, self.config.timeout);
            let (outcomes, stopped) = match ran {
                Ok(BatchOutcome::Ran(outcomes)) => (outcomes, None),
                Ok(BatchOutcome::Died { at, reason }) => {
                    let info = FailureInfo {
                        kind: FailureKind::Crash,
                        message: format!("the process running the case died: {reason}"),
                        location: None,
                        in_generator: false,
                    };
                    (vec![(Outcome::Pass, Vec::new()); at as usize], Some(info))
                }
                Ok(BatchOutcome::Hung { at, after }) => {
                    let info = FailureInfo {
                        kind: FailureKind::Timeout,
                        message: format!(
                            "no result after {}; the process running it was killed",
                            crate::human::duration(after)
                        ),
                        location: None,
                        in_generator: false,
                    };
                    (vec![(Outcome::Pass, Vec::new()); at as usize], Some(info))
                }
                Err(e) => return Generated::Incomplete(format!("the isolated run could not go on: {e}")),
            };
            for (outcome, labels) in outcomes {
                i += 1;
                if let Some(first) = tally(stats, outcome, labels) {
                    return self.confirm(i - 1, first);
                }
            }
            if let Some(first) = stopped {
                i += 1;
                return self.confirm(i - 1, first);
            }
            batch = (batch * 2).min(1024);
        }
    }

    /// The exhaustive phase: every input up to `depth`, by a depth-first
    /// walk over choice sequences (see [`crate::enumerate`]), bounded by
    /// `max_enumerated` and the time budget. A run stopped by either did
    /// not do what `exhaustive = depth` says: it is incomplete (not a pass)
    /// unless the settings allow a partial run.
    fn exhaust(&self, depth: u32, stats: &mut RunStats, notes: &mut Vec<String>, started: Instant) -> Generated {
        let mut prefix = Some(Vec::new());
        let mut tried = 0u64;
        while let Some(p) = prefix.take() {
            let over_time = self.config.time_budget.is_some_and(|b| started.elapsed() > b);
            if tried >= self.config.max_enumerated || over_time {
                if self.watch.is_abandoned() {
                    return Generated::Abandoned;
                }
                stats.time_budget_hit = over_time;
                let stop = self.partial_coverage(depth, tried, over_time);
                stats.exhaustive = Some(ExhaustiveStats { depth, tried, complete: false, source: None });
                if self.config.allow_partial {
                    notes.push(format!("{stop} (a partial run, as `allow_partial` allows)"));
                    return self.exhausted_verdict(stats, depth);
                }
                return Generated::Incomplete(stop);
            }
            if self.watch.is_abandoned() {
                return Generated::Abandoned;
            }
            let mut tc = crate::enumerate::enumerating_case(p.clone(), depth);
            let (outcome, labels) = if self.isolated.is_some() {
                // The case runs in the child; its choices and widths come
                // from the generator alone, here.
                let r = self.exec(crate::enumerate::enumerating_case(p, depth));
                let draw = self.draw.clone();
                let _ =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| catch_invalid(&mut tc, |tc| draw(tc))));
                (r.outcome, r.labels)
            } else {
                self.watch.begin(0, Phase::Generate, tried);
                let (outcome, labels, _) = run_in_place(&*self.test, &mut tc);
                self.watch.end(0);
                (outcome, labels)
            };
            tried += 1;
            let widths = crate::enumerate::take_widths(&mut tc);
            let (choices, _) = tc.finish();
            prefix = crate::enumerate::next_prefix(&choices, &widths);
            if let Some(first) = tally(stats, outcome, labels) {
                let r = self.watched(Phase::Generate, self.replay_case(&choices, Tail::Stop));
                if r.outcome.is_fail() {
                    return Generated::Failed(Box::new(Found { case: r, found_after: tried, source: None }));
                }
                let case = CaseResult { outcome: Outcome::Fail(first), ..r };
                return Generated::Failed(Box::new(Found { case, found_after: tried, source: Some("FLAKY".into()) }));
            }
        }
        stats.exhaustive = Some(ExhaustiveStats { depth, tried, complete: true, source: None });
        notes.push(format!("exhaustive: every input up to depth {depth} was tried ({tried} inputs)"));
        self.exhausted_verdict(stats, depth)
    }

    /// The inputs of an [`InputSource`](super::source::InputSource), each
    /// run as a replayed case, until the source says it covered everything
    /// (a pass that says so), stopped short (incomplete, unless the settings
    /// allow a partial run), or cannot work (an error). Bounded by
    /// `max_enumerated` and the time budget like an exhaustive run.
    ///
    /// `top_up`: the source supplies what random generation could not
    /// (its filter rejected most values, see [`Property::fallback_inputs`](super::Property::fallback_inputs)):
    /// it runs until the run has its `cases` passing inputs, and stopping
    /// short is no incompleteness (a random run promises no coverage).
    fn sourced(
        &self,
        source: &mut super::source::CaseSource,
        stats: &mut RunStats,
        notes: &mut Vec<String>,
        started: Instant,
        top_up: bool,
    ) -> Generated {
        use super::source::SourceStep;
        // Named when it is said: a source may learn how it finds its inputs
        // only once it starts (a solver falling back to enumeration).
        let mut tried = 0u64;
        let random = (stats.passed, stats.passed + stats.discarded + stats.invalid);
        let topped_up = |stats: &mut RunStats, name: String, how: String| {
            stats.topped_up = Some(name.clone());
            format!(
                "random inputs met the filter {} times in {} tries; {} more inputs came from {name}{how}",
                random.0,
                random.1,
                stats.passed - random.0
            )
        };
        let stopped = |stats: &mut RunStats, notes: &mut Vec<String>, why: String, name: String| {
            // Short of the cases asked for: a pass only where a partial run
            // is allowed, else the run gives up and says how far it got.
            if top_up && self.config.allow_partial && stats.passed > 0 {
                let note = topped_up(stats, name, format!(" ({why}; a partial run, as `allow_partial` allows)"));
                notes.push(note);
                Generated::Passed
            } else if top_up {
                Generated::GaveUp(format!(
                    "random inputs met the filter {} times in {} tries, and {why}: {} of the {} cases asked for were \
                     tested",
                    random.0, random.1, stats.passed, self.config.cases
                ))
            } else if self.config.allow_partial && stats.passed > 0 {
                notes.push(format!("{why} (a partial run, as `allow_partial` allows)"));
                Generated::Passed
            } else {
                Generated::Incomplete(why)
            }
        };
        loop {
            if self.watch.is_abandoned() {
                return Generated::Abandoned;
            }
            if top_up && stats.passed >= u64::from(self.config.cases) {
                let note = topped_up(stats, source.describe(), String::new());
                notes.push(note);
                return Generated::Passed;
            }
            let over_time = self.config.time_budget.is_some_and(|b| started.elapsed() > b);
            if tried >= self.config.max_enumerated || over_time {
                stats.time_budget_hit = over_time;
                let why = if over_time {
                    format!(
                        "the time budget of {} ran out",
                        crate::human::duration(self.config.time_budget.unwrap_or_default())
                    )
                } else {
                    format!("it reached the limit of {} inputs (`max_enumerated`)", self.config.max_enumerated)
                };
                let name = source.describe();
                return stopped(
                    stats,
                    notes,
                    format!("{name} stopped after {tried} inputs because {why}: not every valid input was tested"),
                    name.clone(),
                );
            }
            match source.next_input() {
                SourceStep::Input(choices) => {
                    let r = self.watched(Phase::Generate, self.replay_case(&choices, Tail::Stop));
                    tried += 1;
                    if r.misaligned > 0 || r.prefix_unused {
                        let name = source.describe();
                        return Generated::Error(format!(
                            "{name} gave an input whose choices do not rebuild it through the property's generator \
                             ({} misaligned, prefix {}used up): a bug in the source or in the generator's `encode`",
                            r.misaligned,
                            if r.prefix_unused { "not " } else { "" }
                        ));
                    }
                    if r.outcome.is_fail() {
                        stats.time_to_failure.get_or_insert(started.elapsed());
                        return Generated::Failed(Box::new(Found { case: r, found_after: tried, source: None }));
                    }
                    tally(stats, r.outcome, r.labels);
                }
                SourceStep::Complete { what, .. } if top_up => {
                    let name = source.describe();
                    if stats.passed == 0 {
                        return Generated::GaveUp(format!(
                            "random inputs met the filter in none of {} tries, and {name} found {}",
                            random.1,
                            if tried == 0 { format!("no {what}") } else { format!("{tried} {what}, all rejected") }
                        ));
                    }
                    let note = topped_up(stats, name, format!(", which then had no more: all {tried} {what}"));
                    notes.push(note);
                    return Generated::Passed;
                }
                SourceStep::Complete { what, depth } => {
                    let name = source.describe();
                    stats.exhaustive = Some(ExhaustiveStats {
                        depth: depth.unwrap_or(0),
                        tried,
                        complete: true,
                        source: Some(name.clone()),
                    });
                    if tried == 0 {
                        return Generated::GaveUp(format!("no {what} exist: the spec is vacuous ({name} found none)"));
                    }
                    if stats.passed == 0 {
                        return Generated::GaveUp(format!(
                            "every one of the {tried} {what} was rejected: {}",
                            give_up_reason(stats)
                        ));
                    }
                    notes.push(format!("all {tried} {what} tested (from {name})"));
                    return Generated::Passed;
                }
                SourceStep::Stopped { reason } => {
                    let name = source.describe();
                    return stopped(
                        stats,
                        notes,
                        format!("{name} stopped after {tried} inputs: {reason}; not every valid input was tested"),
                        name.clone(),
                    );
                }
                SourceStep::Error(e) => return Generated::Error(e),
            }
        }
    }

    /// What an exhaustive run that stopped early covered, how many inputs
    /// the depth has (estimated), and the deepest depth that fits the limit.
    fn partial_coverage(&self, depth: u32, tried: u64, over_time: bool) -> String {
        let limit = self.config.max_enumerated;
        let estimate = |d: u32| crate::enumerate::estimate_count(&*self.draw, d, ESTIMATE_PROBES, self.seed);
        let total = estimate(depth);
        let why = if over_time {
            format!(
                "the time budget of {} ran out",
                crate::human::duration(self.config.time_budget.unwrap_or_default())
            )
        } else {
            format!("it reached the limit of {limit} inputs (`max_enumerated`)")
        };
        let fits = (1..depth).rev().map(|d| (d, estimate(d))).find(|&(_, n)| n <= limit as f64);
        let advice = match fits {
            Some((d, n)) => format!("depth {d} has about {} inputs", crate::human::approx(n)),
            None => "even depth 1 is larger than the limit".to_string(),
        };
        format!(
            "exhaustive run to depth {depth} stopped after {tried} inputs because {why}: depth {depth} was not covered \
             (it has about {} inputs, estimated from {ESTIMATE_PROBES} random paths; {advice}). Lower `exhaustive`, \
             raise `max_enumerated`, or set `allow_partial = true` to accept a partial run",
            crate::human::approx(total)
        )
    }

    fn exhausted_verdict(&self, stats: &RunStats, depth: u32) -> Generated {
        if stats.passed == 0 && stats.discarded + stats.invalid > 0 {
            return Generated::GaveUp(format!("no input up to depth {depth} was accepted: {}", give_up_reason(stats)));
        }
        Generated::Passed
    }

    /// Runs generated case `index` again, recording its choices and spans
    /// (the generation phase records neither). A failure that does not come
    /// back is flaky from the start.
    fn confirm(&self, index: u64, first: FailureInfo) -> Generated {
        let r = self.generated_run(index);
        let found_after = self.input_number(index);
        if r.outcome.is_fail() {
            let source = (index == SIMPLEST_CASE).then(|| "its simplest input".to_string());
            return Generated::Failed(Box::new(Found { case: r, found_after, source }));
        }
        let case = CaseResult { outcome: Outcome::Fail(first), ..r };
        Generated::Failed(Box::new(Found { case, found_after, source: Some("FLAKY".into()) }))
    }

    fn generate_parallel(&self, stats: &mut RunStats, started: Instant) -> Generated {
        use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
        let threads = self.config.threads.min(64);
        let cases = self.config.cases;
        let max_rejects = u64::from(cases) * u64::from(self.config.max_discard_ratio.max(1));
        let next = AtomicU64::new(0);
        let done = AtomicBool::new(false);
        // Results are folded in case order, so the outcome (first failing
        // case, counts, labels) is the sequential one whatever the threads.
        struct Frontier {
            pending: BTreeMap<u64, (Outcome, Vec<String>)>,
            next: u64,
            stats: RunStats,
            result: Option<Generated>,
        }
        let frontier = Mutex::new(Frontier { pending: BTreeMap::new(), next: 0, stats: stats.clone(), result: None });
        std::thread::scope(|scope| {
            for w in 0..threads {
                let (next, done, frontier) = (&next, &done, &frontier);
                scope.spawn(move || {
                    let mut tc = TestCase::random(0, 0).with_max_depth(self.config.max_depth).record_choices(false);
                    while !done.load(Ordering::Acquire) && !self.watch.is_abandoned() {
                        if let Some(b) = self.config.time_budget
                            && started.elapsed() > b
                        {
                            let mut f = frontier.lock().unwrap_or_else(|e| e.into_inner());
                            f.stats.time_budget_hit = true;
                            f.result.get_or_insert(Generated::Passed);
                            done.store(true, Ordering::Release);
                            return;
                        }
                        let i = next.fetch_add(1, Ordering::AcqRel);
                        tc.reset_random(case_seed(self.seed, i), self.config.case_size(i));
                        self.watch.begin(w, Phase::Generate, i);
                        let (outcome, labels, _) = run_in_place(&*self.test, &mut tc);
                        self.watch.end(w);
                        let mut f = frontier.lock().unwrap_or_else(|e| e.into_inner());
                        f.pending.insert(i, (outcome, labels));
                        while f.result.is_none() {
                            let k = f.next;
                            let Some((outcome, labels)) = f.pending.remove(&k) else { break };
                            f.next += 1;
                            if f.stats.passed >= u64::from(cases) {
                                f.result = Some(Generated::Passed);
                                break;
                            }
                            if let Some(first) = tally(&mut f.stats, outcome, labels) {
                                f.result = Some(Generated::FailedAt(k, first));
                            } else if f.stats.passed >= u64::from(cases) {
                                f.result = Some(Generated::Passed);
                            } else if f.stats.discarded + f.stats.invalid > max_rejects {
                                let reason = give_up_reason(&f.stats);
                                f.result = Some(Generated::GaveUp(reason));
                            }
                        }
                        if f.result.is_some() {
                            done.store(true, Ordering::Release);
                        }
                    }
                });
            }
        });
        if self.watch.is_abandoned() {
            return Generated::Abandoned;
        }
        let f = frontier.into_inner().unwrap_or_else(|e| e.into_inner());
        *stats = f.stats;
        match f.result.unwrap_or(Generated::Passed) {
            Generated::FailedAt(index, first) => self.confirm(index, first),
            other => other,
        }
    }

    // ----- phases: shrink, explain, final replay, persist -------------------

    fn publish(&self, case: &CaseResult) {
        if let Outcome::Fail(f) = &case.outcome {
            *self.failing.lock().unwrap_or_else(|e| e.into_inner()) = Some((case.choices.clone(), f.clone()));
        }
    }

    fn explain_failure(&self, found: Found) -> Explained {
        let flaky_from_start = found.source.as_deref() == Some("FLAKY");
        let Found { case: first, found_after, source } = found;
        let source = if flaky_from_start { None } else { source };
        let Outcome::Fail(first_info) = first.outcome.clone() else { unreachable!("explaining a passing case") };
        self.publish(&first);
        let original_choices = first.choices.len();
        if flaky_from_start {
            return Explained::Verdict(RunVerdict::Flaky(Box::new(self.counterexample(
                &first,
                first_info,
                found_after,
                original_choices,
                None,
                Vec::new(),
                None,
            ))));
        }

        let as_given = source.as_deref() == Some(FROM_REPLAY);
        let confirmed = first.choices.clone();
        let mut best = first;
        let mut shrink_stats: Option<ShrinkStats> = None;
        // A hang is shrunk only when its candidates run in a child that can
        // be killed (in this process, each would abandon a thread).
        let shrinkable = first_info.kind != FailureKind::Timeout || self.isolated.is_some();
        if self.config.shrink && shrinkable && !as_given {
            let (shrunk, st) = self.shrink(best);
            best = shrunk;
            shrink_stats = Some(st);
        }

        let mut sections = Vec::new();
        if let Some(explainer) = &self.explainer
            && self.config.explain != super::config::ExplainMode::Off
            && shrinkable
            && !as_given
            && !self.config.expected_failure
        {
            let (better, secs) = self.explain(explainer.as_ref(), &best);
            if let Some(b) = better {
                best = b;
            }
            sections = secs;
        }

        Explained::Final(Box::new(LastStep {
            best,
            confirmed,
            first_info,
            found_after,
            original_choices,
            shrink_stats,
            sections,
            source,
        }))
    }

    /// The final replay shows the inputs and checks that the failure is
    /// real: one that does not come back is flaky, never a pass.
    fn final_replay(&self, last: LastStep, warnings: &mut Vec<String>) -> RunVerdict {
        let LastStep { best, confirmed, first_info, found_after, original_choices, shrink_stats, sections, source } =
            last;
        let mut final_case = self.watched(Phase::Shrink, self.replay_case(&best.choices, Tail::Stop).with_final(true));
        let mut fell_back = false;
        if !final_case.outcome.is_fail() && confirmed != best.choices {
            // The shrunk input did not fail again: its failure needed more
            // than the input (timing, scheduling). The input as found and
            // confirmed is still a reproducible counterexample: report it,
            // and say why it is not the shrunk one.
            let again = self.watched(Phase::Shrink, self.replay_case(&confirmed, Tail::Stop).with_final(true));
            if again.outcome.is_fail() {
                final_case = again;
                fell_back = true;
            }
        }
        match &final_case.outcome {
            Outcome::Fail(info) => {
                let saved_to = self.persist(&final_case, info, warnings);
                if fell_back {
                    final_case.notes.push(
                        "the shrunk input did not fail again when replayed (its failure depends on more than the \
                         input: timing, scheduling); shown is the input as found, which did"
                            .into(),
                    );
                }
                RunVerdict::Failed(Box::new(Counterexample {
                    saved_to,
                    source,
                    ..self.counterexample(
                        &final_case,
                        info.clone(),
                        found_after,
                        original_choices,
                        shrink_stats,
                        sections,
                        None,
                    )
                }))
            }
            _ => {
                let info = match &best.outcome {
                    Outcome::Fail(i) => i.clone(),
                    _ => first_info,
                };
                let inputs = self.describe_choices(&best.choices);
                RunVerdict::Flaky(Box::new(Counterexample {
                    inputs,
                    ..self.counterexample(&best, info, found_after, original_choices, shrink_stats, sections, source)
                }))
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn counterexample(
        &self,
        case: &CaseResult,
        failure: FailureInfo,
        found_after: u64,
        original_choices: usize,
        shrink: Option<ShrinkStats>,
        explanation: Vec<Section>,
        source: Option<String>,
    ) -> Counterexample {
        let inputs = if case.shown.is_empty() { self.describe_choices(&case.choices) } else { case.shown.clone() };
        Counterexample {
            failure,
            choices: case.choices.clone(),
            inputs,
            notes: case.notes.clone(),
            backtrace: case.backtrace.clone(),
            found_after,
            original_choices,
            shrink,
            explanation,
            saved_to: None,
            source,
            tag: Some(self.tag),
            rebuild: None,
        }
    }

    fn describe_choices(&self, choices: &ChoiceSequence) -> Vec<(String, Term)> {
        let mut tc =
            TestCase::replay(choices.0.clone(), Tail::Simplest).with_final(true).with_max_depth(self.config.max_depth);
        let describe = self.describe.clone();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| catch_invalid(&mut tc, |tc| describe(tc)))) {
            Ok(Ok(inputs)) => inputs,
            // Showing it panicked (a user's `Debug`) or it no longer
            // generates: its choices are all there is to show.
            Ok(Err(_)) => vec![("choices".to_string(), Term::Atom(format!("{choices:?}")))],
            Err(_) => vec![(
                "input".to_string(),
                Term::Atom(format!("<cannot be shown: its Debug panicked; its choices are {choices:?}>")),
            )],
        }
    }

    fn shrink(&self, first: CaseResult) -> (CaseResult, ShrinkStats) {
        let origin = match &first.outcome {
            Outcome::Fail(f) => (f.kind, f.location.clone()),
            _ => unreachable!(),
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
        let budget = ShrinkBudget { max_steps: self.config.shrink_steps, max_time: self.config.shrink_time };
        Shrinker::new(&mut run, first, budget, self.config.max_depth).shrink()
    }

    /// Shrinks for the explanation step: failing candidates `accept`
    /// rejects are discarded.
    fn shrink_accepting(&self, case: CaseResult, accept: &dyn Fn(&CaseResult) -> bool) -> CaseResult {
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
        let budget = ShrinkBudget { max_steps: self.config.shrink_steps, max_time: self.config.shrink_time };
        Shrinker::new(&mut run, case, budget, self.config.max_depth).shrink().0
    }

    fn explain(&self, explainer: &dyn Explainer, best: &CaseResult) -> (Option<CaseResult>, Vec<Section>) {
        let mut run = |tc: TestCase| self.watched(Phase::Explain, tc);
        let max_depth = self.config.max_depth;
        let mut generate = |i: u64| {
            let tc = TestCase::random(case_seed(self.seed ^ EXPLAIN_SALT, i), self.config.case_size(i))
                .with_spans(true)
                .with_max_depth(max_depth);
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
        let better = explanation.reduced.and_then(|reduced| {
            let r = self.watched(Phase::Explain, self.replay_case(&reduced, Tail::Stop));
            let same = match (&r.outcome, &best.outcome) {
                (Outcome::Fail(a), Outcome::Fail(b)) => a.origin() == b.origin(),
                _ => false,
            };
            // Smaller in choices (the shrinker's order) or in constructors
            // (SmartCheck's measure, which a structural reduction lowers).
            let smaller = shortlex(&r.choices.0, &best.choices.0) == std::cmp::Ordering::Less
                || r.spans.total_constructors() < best.spans.total_constructors();
            (same && smaller).then_some(r)
        });
        (better, explanation.sections)
    }

    fn persist(&self, case: &CaseResult, info: &FailureInfo, warnings: &mut Vec<String>) -> Option<std::path::PathBuf> {
        let db = self.db.as_ref()?;
        if !self.config.database_writes || self.config.expected_failure {
            return None;
        }
        let stored = StoredFailure {
            choices: case.choices.clone(),
            message: info.message.clone(),
            crashed: info.kind == FailureKind::Crash,
        };
        match db.save(&self.config.name, stored) {
            Ok(()) => Some(db.path_for(&self.config.name)),
            Err(e) => {
                warnings
                    .push(format!("could not save the failure to {}: {e}", db.path_for(&self.config.name).display()));
                None
            }
        }
    }

    // ----- hangs -----------------------------------------------------------

    /// The report for a case that hung (built on the watching thread).
    pub(crate) fn timeout_report(&self, hang: Hang, timeout: Duration, started: Instant) -> RunReport {
        let mut warnings = Vec::new();
        let message = format!(
            "no result after {} (timeout {}); the thread running it was abandoned",
            crate::human::duration(hang.elapsed),
            crate::human::duration(timeout)
        );
        let failure = FailureInfo { kind: FailureKind::Timeout, message, location: None, in_generator: false };
        let (choices, inputs, found_after, notes) = match hang.phase {
            Phase::Generate => {
                let mut tc = self.generated_case(hang.case).with_final(true);
                let describe = self.describe.clone();
                let inputs = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    catch_invalid(&mut tc, |tc| describe(tc))
                }))
                .ok()
                .and_then(Result::ok)
                .unwrap_or_default();
                let (choices, _) = tc.finish();
                (choices, inputs, self.input_number(hang.case), Vec::new())
            }
            Phase::Replay => {
                let choices = ChoiceSequence(hang.choices.unwrap_or_default());
                let inputs = self.describe_choices(&choices);
                (
                    choices,
                    inputs,
                    0,
                    vec!["this input was replayed from the failure database or SPECCHECK_REPLAY".to_string()],
                )
            }
            Phase::Shrink | Phase::Explain => {
                let failing = self.failing.lock().unwrap_or_else(|e| e.into_inner()).clone();
                if let Some((choices, info)) = failing {
                    let inputs = self.describe_choices(&choices);
                    let cx = Counterexample {
                        failure: info,
                        choices,
                        inputs,
                        notes: vec![format!(
                            "shrinking stopped early: a smaller candidate input ran for more than {} (the property can also hang)",
                            crate::human::duration(timeout)
                        )],
                        backtrace: None,
                        found_after: 0,
                        original_choices: 0,
                        shrink: None,
                        explanation: Vec::new(),
                        saved_to: None,
                        source: None,
                        tag: Some(self.tag),
                        rebuild: None,
                    };
                    let stats = self.new_stats();
                    return self.report(RunVerdict::Failed(Box::new(cx)), stats, warnings, started);
                }
                (ChoiceSequence::default(), Vec::new(), 0, Vec::new())
            }
        };
        let stand_in = CaseResult {
            outcome: Outcome::Fail(failure.clone()),
            choices: choices.clone(),
            spans: Default::default(),
            labels: Vec::new(),
            misaligned: 0,
            prefix_unused: false,
            shown: inputs,
            notes,
            backtrace: None,
        };
        let saved_to = self.persist(&stand_in, &failure, &mut warnings);
        let cx = Counterexample {
            saved_to,
            ..self.counterexample(&stand_in, failure, found_after, choices.len(), None, Vec::new(), None)
        };
        self.report(RunVerdict::Failed(Box::new(cx)), self.new_stats(), warnings, started)
    }
}

/// Counts one generated case; returns the failure if it failed.
#[inline]
fn tally(stats: &mut RunStats, outcome: Outcome, labels: Vec<String>) -> Option<FailureInfo> {
    match outcome {
        Outcome::Pass => {
            stats.passed += 1;
            for l in labels {
                *stats.labels.entry(l).or_default() += 1;
            }
            None
        }
        Outcome::Discard { reason } => {
            stats.discarded += 1;
            *stats.discard_reasons.entry(reason).or_default() += 1;
            None
        }
        Outcome::Invalid(why) => {
            stats.invalid += 1;
            *stats.discard_reasons.entry(describe_invalid(&why)).or_default() += 1;
            None
        }
        Outcome::Fail(info) => Some(info),
    }
}

fn describe_invalid(why: &Invalid) -> String {
    match why {
        Invalid::Overrun => {
            "the generator needed more choices than allowed (an unbounded or too deep generator)".into()
        }
        Invalid::FilterExhausted { name, tries } => format!("filter `{name}` rejected {tries} candidates in a row"),
        Invalid::NotSmaller => "a replacement was not smaller".into(),
        Invalid::Duplicate => "the input was already tried".into(),
        Invalid::Other(s) => s.clone(),
    }
}

fn give_up_reason(stats: &RunStats) -> String {
    match stats.discard_reasons.iter().max_by_key(|(_, n)| **n) {
        Some((reason, n)) => format!("{reason} ({n} times)"),
        None => "every input was rejected".to_string(),
    }
}
