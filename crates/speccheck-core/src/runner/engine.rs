//! One run of a property, as a sequence of phases:
//!
//! replay (`SPECCHECK_REPLAY`, a start input, saved failures) → generate
//! (random, exhaustive, or from an input source) → shrink → explain →
//! final replay → persist.
//!
//! Each phase lives in its own module under `phase/`; this file composes
//! them (Hypothesis's engine keeps its phases apart the same way). Cases
//! run through an [`Executor`]: in place, on threads, or in a child
//! process, which the phases never need to know.

use crate::test_case::CaseControl as _;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::config::Config;
use super::executor::{Cases, Child, Executor, Failing, InPlace, Threads};
use super::health;
use super::isolate::parent::Isolated;
use super::phase::{Found, LastStep, Origin, Searched};
use super::report::{RunReport, RunStats, RunVerdict};
use super::source::Sourced;
use super::subject::Subject;
use crate::case::{CaseResult, FailureKind, Outcome};
use crate::choice::{ChoiceSequence, ReplayTag};
use crate::observe::Observer;
use crate::shrink::ShrinkStats;
use crate::store::FailureStore;
use crate::test_case::{Tail, TestCase};
use crate::watch::{Phase, Watch};

/// The state of one run.
pub(crate) struct Engine {
    pub(crate) subject: Subject,
    /// What this property's replay strings carry (see [`ReplayTag`]).
    pub(crate) tag: ReplayTag,
    pub(crate) config: Config,
    pub(crate) seed: u64,
    /// Where failures are saved and replayed from (see [`crate::store`]).
    pub(crate) db: Option<Arc<dyn FailureStore>>,
    pub(crate) watch: Arc<Watch>,
    /// The smallest failure so far, for a report if a later phase hangs.
    pub(crate) failing: Failing,
    /// Where cases run.
    pub(crate) executor: Box<dyn Executor>,
    /// True when they run in a child process.
    isolated: bool,
    /// How generated cases are made.
    pub(crate) cases: Cases,
    /// Inputs from outside the generator (see [`super::source`]), taken
    /// by the generation phase.
    pub(crate) source: Mutex<Option<Sourced>>,
    /// Inputs the generation phase ran before its random ones (the
    /// simplest input): random case `i` is input number `i + 1 + preceding`.
    pub(crate) preceding: AtomicU64,
    /// Where observations go (`SPECCHECK_OBSERVE`), or why they cannot.
    observer: Result<Option<Arc<Observer>>, String>,
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

impl Engine {
    /// A run of `subject` with these settings. Cases run in `child` when
    /// one is given (an isolated run), else in place, on `config.threads`
    /// threads for generated cases.
    pub(crate) fn new(
        subject: Subject,
        config: Config,
        seed: u64,
        db: Option<Arc<dyn FailureStore>>,
        watch: Arc<Watch>,
        child: Option<Isolated>,
        source: Option<Sourced>,
    ) -> Engine {
        let failing = Failing::default();
        let isolated = child.is_some();
        let observer = match &config.observe {
            None => Ok(None),
            Some(path) => Observer::open(path, &config.name).map(|o| Some(Arc::new(o))).map_err(|e| {
                format!("SPECCHECK_OBSERVE: cannot append to {}: {e}; nothing was observed", path.display())
            }),
        };
        let cases = Cases::new(subject.test.clone(), watch.clone(), seed, &config);
        let executor: Box<dyn Executor> = match child {
            Some(child) => Box::new(Child::new(cases.clone(), child, subject.draw.clone(), config.timeout)),
            None if config.threads > 1 => Box::new(Threads::new(cases.clone(), config.threads)),
            None => Box::new(InPlace::new(cases.clone())),
        };
        Engine {
            tag: ReplayTag::new(&config.name, subject.input_type),
            subject,
            config,
            seed,
            db,
            watch,
            failing,
            executor,
            isolated,
            cases,
            source: Mutex::new(source),
            preceding: AtomicU64::new(0),
            observer,
        }
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
        let searched = match self.replay(&mut stats, &mut warnings) {
            Searched::Nothing => self.generation(&mut stats, &mut warnings, started),
            replayed => replayed,
        };
        let found = match searched {
            Searched::Found(found) => *found,
            Searched::Over(verdict, notes) => {
                let mut report = self.report(verdict, stats, warnings, started);
                report.notes = notes;
                return Ran::Done(Box::new(report));
            }
            Searched::Nothing => unreachable!("the generation phase always ends the search"),
        };
        // Generation notes the moment the input first failed; other sources
        // (a replay, the database) failed just now.
        stats.time_to_failure.get_or_insert(started.elapsed());
        match self.shrink_and_explain(found) {
            Ok(last) => Ran::Final(Box::new(Pending { last, stats, warnings, started })),
            Err(verdict) => Ran::Done(Box::new(self.report(verdict, stats, warnings, started))),
        }
    }

    /// The final replay of a counterexample, then the report.
    pub(crate) fn finish(&self, pending: Pending) -> RunReport {
        let Pending { last, stats, mut warnings, started } = pending;
        let verdict = self.final_replay(last, &mut warnings);
        self.report(verdict, stats, warnings, started)
    }

    /// Shrinks a failure, then explains it; a failure that did not come
    /// back when confirmed is flaky, and goes no further.
    fn shrink_and_explain(&self, found: Found) -> Result<LastStep, RunVerdict> {
        let Found { case: first, found_after, origin } = found;
        let Outcome::Fail(first_info) = first.outcome.clone() else { unreachable!("explaining a passing case") };
        self.publish(&first);
        let original_choices = first.choices.len();
        if origin == Origin::Flaky {
            let c = self.counterexample(&first, first_info, found_after);
            return Err(RunVerdict::Flaky(Box::new(c)));
        }
        // A replayed input is shown as given: replaying a reported
        // counterexample must show that counterexample.
        let as_given = origin == Origin::Replayed;
        // A hang is shrunk only when its candidates run in a child that can
        // be killed (in this process, each would abandon a thread).
        let shrinkable = first_info.kind != FailureKind::Timeout || self.isolated();
        let confirmed = first.choices.clone();
        let mut best = first;
        let mut shrink_stats: Option<ShrinkStats> = None;
        if self.config.shrink && shrinkable && !as_given {
            let (shrunk, st) = self.shrink(best);
            best = shrunk;
            shrink_stats = Some(st);
        }
        let mut sections = Vec::new();
        if let Some(explainer) = &self.subject.explainer
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
        let source = origin.describe();
        Ok(LastStep { best, confirmed, first_info, found_after, original_choices, shrink_stats, sections, source })
    }

    /// The run's report: its verdict, statistics and warnings (a passing
    /// run that checked fewer inputs than it tried says so).
    pub(crate) fn report(
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
            warnings.extend(health::filter_warning(&stats));
            if self.config.health_checks {
                warnings.extend(health::size_warning(&stats));
            }
        }
        if let Err(e) = &self.observer {
            warnings.push(e.clone());
        }
        let report = RunReport {
            name: self.config.name.clone(),
            verdict,
            stats,
            warnings,
            notes: Vec::new(),
            rerun_command: self.config.rerun_command.clone(),
            verbosity: self.config.verbosity,
            overridden: self.config.overridden.clone(),
        };
        if let Ok(Some(observer)) = &self.observer {
            observer.info("speccheck run", &report.summary());
        }
        report
    }

    pub(crate) fn new_stats(&self) -> RunStats {
        RunStats {
            seed: self.seed,
            threads: self.config.threads.max(1),
            shard: self.config.shard,
            observer: self.observer.clone().ok().flatten(),
            ..RunStats::default()
        }
    }

    /// True when cases run in a child process.
    pub(crate) fn isolated(&self) -> bool {
        self.isolated
    }

    /// Runs one case, watched as a case of `phase`.
    pub(crate) fn watched(&self, phase: Phase, tc: TestCase) -> CaseResult {
        self.watch.begin(0, phase, 0);
        let r = self.executor.run(tc);
        self.watch.end(0);
        r
    }

    /// Runs a replay of known choices, watched with them (a hang there is
    /// reported with its input).
    pub(crate) fn watched_replay(&self, choices: &ChoiceSequence, tc: TestCase) -> CaseResult {
        self.watch.begin_replay(0, Phase::Replay, &choices.0);
        let r = self.executor.run(tc);
        self.watch.end(0);
        r
    }

    /// A replay of `choices`, spans recorded.
    pub(crate) fn replay_case(&self, choices: &ChoiceSequence, tail: Tail) -> TestCase {
        TestCase::replay(choices.0.clone(), tail).with_spans(true).with_max_depth(self.config.max_depth)
    }
}
