//! The derived tester as a speccheck property: seeds, replay, timeouts,
//! shrinking, persistence and reports come from the core runner.
//!
//! Each test case is one execution. Its input is a seed (for simulated
//! network delays) followed by the script, recorded as choices (see
//! [`crate::harness::script`]); so a failure found adaptively is shrunk by
//! the core shrinker — deleting steps, simplifying J-expressions — each
//! candidate re-run against a fresh execution, its J-expressions
//! re-instantiated against the new trace (thesis §5.3).
//!
//! The runner re-runs a failing generated case to record it; the tester
//! makes that run repeat the very script that failed (not re-generate it
//! from heuristics that would see a different trace), so only the system's
//! own nondeterminism can make a failure flaky.

use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use speccheck_core::gens;
use speccheck_core::runner::report::RunVerdict;
use speccheck_core::{Config, FailureInfo, FailureKind, Outcome, Property, RunReport, Term, TestCase};

use crate::dual::Rejection;
use crate::exec::{Execution, Settings, Target, Verdict, draw_script, execute, execute_paced, execute_script};
use crate::harness::script::Step;
use crate::protocol::Protocol;
use crate::solver::{Native, Solver};

/// When the first failure happened, counted from the start of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstFailure {
    /// Time from the start of the run to the end of the failing execution.
    pub after: Duration,
    /// Executions run, the failing one included.
    pub executions: u64,
    /// Messages sent and received, over all those executions.
    pub interactions: u64,
    /// What failed (see [`Verdict::identity`]): the shrunk failure keeps it.
    pub identity: String,
    /// The failing execution's verdict (see [`Verdict::is_within`]).
    pub verdict: Verdict,
}

/// A run's report and the tester's own counters.
#[derive(Clone, Debug)]
pub struct DualReport {
    /// The core runner's report (verdict, shrunk script, replay string).
    pub run: RunReport,
    /// Executions run.
    pub executions: u64,
    /// Messages sent and received over the run.
    pub interactions: u64,
    /// Executions the validator could not decide (too many branches, out
    /// of fuel): neither passes nor failures, counted as discards.
    pub inconclusive: u64,
    /// Why (a few distinct reasons).
    pub inconclusive_reasons: Vec<String>,
    /// Executions whose script the wall-clock budget of one execution cut
    /// short (validated as far as they went).
    pub budget_hits: u64,
    /// Responses that break a rule the run does not enforce (a SHOULD, by
    /// default): one per distinct set of rules, with how often it was seen
    /// and the first execution that showed it. Findings never fail a run.
    pub findings: Vec<Finding>,
    /// Executions in which findings were not looked for to the end (the
    /// validator enforcing every rule had no verdict part way).
    pub findings_cut_short: u64,
    /// The first failure, if any.
    pub first_failure: Option<FirstFailure>,
    /// The execution of the reported failure, with its trace and verdict:
    /// the final run of the shrunk script against a fresh system or, when
    /// the failure never reproduced (a flaky verdict with no final run),
    /// the failing execution as it was found.
    pub final_execution: Option<Execution>,
    /// Failures that break other rules, found by searching on after the
    /// first (each shrunk on its own; see [`Tester::run`]).
    pub other_failures: Vec<OtherFailure>,
}

/// A further failure of a run: one that breaks other rules than those
/// reported before it.
#[derive(Clone, Debug)]
pub struct OtherFailure {
    /// The search that found it (its verdict, shrunk script, replay).
    pub run: RunReport,
    /// When it was first seen in that search.
    pub first_failure: Option<FirstFailure>,
    /// Its final execution, with the trace.
    pub final_execution: Option<Execution>,
}

impl DualReport {
    /// True when the system passed.
    pub fn passed(&self) -> bool {
        self.run.passed()
    }

    /// The identity of the reported failure (see [`Verdict::identity`]),
    /// when the run failed.
    pub fn failure_identity(&self) -> Option<String> {
        self.failure_verdict().map(|v| v.identity())
    }

    /// The verdict of the reported failure's final execution, when the run
    /// failed.
    pub fn failure_verdict(&self) -> Option<Verdict> {
        if !matches!(self.run.verdict, RunVerdict::Failed(_)) {
            return None;
        }
        self.final_execution.as_ref().map(|e| e.verdict.clone())
    }

    /// The failures this run reported: the final execution's, and the
    /// first one found when that was another (the interleaving of the
    /// connections is the system's, so a replay may show another failure
    /// of the same script). A search for further failures passes over both.
    fn reported(&self) -> Vec<Verdict> {
        let mut all: Vec<Verdict> = self.failure_verdict().into_iter().collect();
        if let Some(first) = self.first_failure.as_ref().filter(|_| !all.is_empty())
            && !all.iter().any(|v| first.verdict.is_within(v))
        {
            all.push(first.verdict.clone());
        }
        all
    }
}

/// A rule the system does not follow, and that the run does not enforce
/// (see [`crate::rule`]).
#[derive(Clone, Debug)]
pub struct Finding {
    /// The rules broken (what tells findings apart).
    pub identity: String,
    /// The response and why no behaviour that follows every rule explains it.
    pub rejection: Rejection,
    /// Executions that showed it.
    pub seen: u64,
    /// The first of them, with its trace.
    pub execution: Execution,
}

/// Above this share of executions without a full verdict (inconclusive, or
/// cut short by their budget), a run that found nothing is no pass.
pub const MAX_NO_VERDICT_SHARE: f64 = 0.1;

impl fmt::Display for DualReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.run)?;
        write!(f, "  {} executions, {} messages", self.executions, self.interactions)?;
        if self.inconclusive > 0 {
            write!(f, ", {} inconclusive (no verdict)", self.inconclusive)?;
        }
        for r in &self.inconclusive_reasons {
            write!(f, "\n  inconclusive: {}", r.lines().next().unwrap_or(""))?;
        }
        if self.budget_hits > 0 {
            write!(f, ", {} cut short by the execution budget", self.budget_hits)?;
        }
        if let Some(ff) = &self.first_failure {
            write!(
                f,
                "; first failure after {} ({} executions, {} messages)",
                speccheck_core::human::duration(ff.after),
                ff.executions,
                ff.interactions
            )?;
        }
        writeln!(f)?;
        for o in &self.other_failures {
            let what = o.final_execution.as_ref().map_or_else(|| o.run.summary(), |e| e.verdict.identity());
            writeln!(f, "  another failure: {what}")?;
        }
        if self.findings_cut_short > 0 {
            writeln!(
                f,
                "  findings were not looked for to the end of {} execution{} (the validator enforcing every rule \
                 had no verdict part way: too many branches, out of fuel or too slow)",
                self.findings_cut_short,
                if self.findings_cut_short == 1 { "" } else { "s" }
            )?;
        }
        if !self.findings.is_empty() {
            writeln!(f, "  findings (rules not enforced: reported, never a failure):")?;
            for x in &self.findings {
                writeln!(f, "  - {} (seen in {} execution{})", x.identity, x.seen, if x.seen == 1 { "" } else { "s" })?;
            }
        }
        Ok(())
    }
}

#[derive(Default)]
struct Shared {
    setup_error: Mutex<Option<String>>,
    /// Failing scripts found adaptively, by seed, with the pace they were
    /// taken at, for the run that confirms them.
    repeats: Mutex<HashMap<u64, Paced>>,
    executions: AtomicU64,
    interactions: AtomicU64,
    inconclusive: AtomicU64,
    inconclusive_reasons: Mutex<Vec<String>>,
    budget_hits: AtomicU64,
    findings_cut_short: AtomicU64,
    findings: Mutex<Vec<Finding>>,
    first: Mutex<Option<FirstFailure>>,
    /// Failures reported already (a later search's passes).
    known: Vec<Verdict>,
    /// The failure this search found, which shrinking keeps (a narrower
    /// form of it counts as the same).
    target: Mutex<Option<Verdict>>,
    final_execution: Mutex<Option<Execution>>,
    /// Executions, while shrinking and explaining, that failed as the
    /// search's failure (the shortest script, and the latest few): the
    /// final run of one of those scripts takes its pace, and falls back on
    /// it when the system never interleaves the connections that way again.
    shrunk: Mutex<Shrunk>,
    /// What the run's report must say beyond the core's warnings.
    warnings: Mutex<Vec<String>>,
    /// The first failing execution, kept for a failure that never reproduces.
    found_execution: Mutex<Option<Execution>>,
    on_execution: Option<OnExecution>,
}

/// Executions that failed as the search's failure while it was shrunk.
#[derive(Default)]
struct Shrunk {
    shortest: Option<Execution>,
    latest: std::collections::VecDeque<Execution>,
}

impl Shrunk {
    /// How many of the latest are kept (the explanation's variations come
    /// after the shrinker's last step).
    const LATEST: usize = 32;

    fn record(&mut self, exec: &Execution) {
        if self.shortest.as_ref().is_none_or(|s| exec.steps.len() <= s.steps.len()) {
            self.shortest = Some(exec.clone());
        }
        if self.latest.len() == Self::LATEST {
            self.latest.pop_front();
        }
        self.latest.push_back(exec.clone());
    }

    fn of(&self, script: &[Step]) -> Option<Execution> {
        self.latest.iter().rev().chain(&self.shortest).find(|e| e.steps == script).cloned()
    }
}

/// A failing script, the pace it was taken at, and its failure (with when
/// the run met it).
type Paced = (Vec<Step>, Vec<Duration>, FirstFailure);

/// Called after every execution (progress reports).
type OnExecution = Arc<dyn Fn(&Execution) + Send + Sync>;

/// Tests a live system against a protocol's model; `S` is the validator's
/// constraint solver.
pub struct Tester<P: Protocol, S: Solver = Native> {
    protocol: Arc<P>,
    target: Arc<dyn Target>,
    settings: Settings,
    config: Config,
    on_execution: Option<OnExecution>,
    distinct: usize,
    solver: PhantomData<fn() -> S>,
}

/// How many distinct failures `speccheck http` looks for by default (a
/// [`Tester`] stops at the first unless told otherwise: a protocol whose
/// model names no rules has one kind of rejection).
pub const DISTINCT_FAILURES: usize = 4;

impl<P: Protocol> Tester<P> {
    /// A tester of the system `target` starts, for `protocol`.
    pub fn new(protocol: P, target: impl Target + 'static) -> Self {
        Tester::with_solver(protocol, target)
    }
}

impl<P: Protocol, S: Solver> Tester<P, S> {
    /// A tester of the system `target` starts, for `protocol`, with the
    /// solver `S`.
    pub fn with_solver(protocol: P, target: impl Target + 'static) -> Self {
        let config = Config { cases: 100, database: None, ..Config::named(protocol.name()) };
        Tester {
            protocol: Arc::new(protocol),
            target: Arc::new(target),
            settings: Settings::default(),
            config,
            on_execution: None,
            distinct: 1,
            solver: PhantomData,
        }
    }

    /// Calls `f` after every execution (e.g. to show progress).
    pub fn on_execution(mut self, f: impl Fn(&Execution) + Send + Sync + 'static) -> Self {
        self.on_execution = Some(Arc::new(f));
        self
    }

    /// Replaces the execution settings.
    pub fn settings(mut self, settings: Settings) -> Self {
        self.settings = settings;
        self
    }

    /// Edits the execution settings.
    pub fn with_settings(mut self, f: impl FnOnce(&mut Settings)) -> Self {
        f(&mut self.settings);
        self
    }

    /// Replaces the runner's settings (cases are executions).
    pub fn config(mut self, config: Config) -> Self {
        self.config = config;
        self
    }

    /// Edits the runner's settings.
    pub fn configure(mut self, f: impl FnOnce(&mut Config)) -> Self {
        f(&mut self.config);
        self
    }

    /// The execution settings.
    pub fn current_settings(&self) -> &Settings {
        &self.settings
    }

    /// Runs one execution with a random script from `seed`, outside the
    /// runner (for measurements).
    pub fn execute_once(&self, seed: u64, size: usize) -> Result<Execution, crate::exec::SetupError> {
        let mut tc = TestCase::random(seed, size);
        let run_seed = tc.draw_int::<u64>(0, u64::MAX);
        execute::<P, S>(&*self.protocol, &*self.target, &self.settings, &mut tc, run_seed, None)
    }

    /// Runs the tester as a speccheck property.
    ///
    /// With [`distinct_failures`](Self::distinct_failures) above 1, the
    /// search goes on after a failure for failures that break other rules
    /// (up to that many in all,
    /// within the run's time budget): each is shrunk on its own, keeping
    /// its identity, and reported in [`DualReport::other_failures`].
    pub fn run(&self) -> DualReport {
        let started = Instant::now();
        let mut report = self.run_once(&[], self.config.time_budget);
        let mut known = report.reported();
        // Failures reported so far (`known` may hold two verdicts of one).
        let found = |r: &DualReport| 1 + r.other_failures.len();
        while !known.is_empty() && found(&report) < self.distinct {
            let left = match self.config.time_budget {
                Some(budget) => match budget.checked_sub(started.elapsed()) {
                    Some(left) if !left.is_zero() => Some(left),
                    _ => {
                        report.run.warnings.push(format!(
                            "the search for further failures stopped after {} of {}: the time budget ran out",
                            found(&report),
                            self.distinct
                        ));
                        break;
                    }
                },
                None => None,
            };
            let next = self.run_once(&known, left);
            report.executions += next.executions;
            report.interactions += next.interactions;
            report.inconclusive += next.inconclusive;
            report.budget_hits += next.budget_hits;
            report.findings_cut_short += next.findings_cut_short;
            for f in next.findings.iter() {
                if !report.findings.iter().any(|g| g.identity == f.identity) {
                    report.findings.push(f.clone());
                }
            }
            // No failure, or one already reported: nothing further.
            if next.failure_verdict().is_none_or(|v| known.iter().any(|k| v.is_within(k))) {
                break;
            }
            // Its failure and, when it differs, the first one that search saw.
            known.extend(next.reported());
            report.other_failures.push(OtherFailure {
                run: next.run,
                first_failure: next.first_failure,
                final_execution: next.final_execution,
            });
        }
        report
    }

    /// How many distinct failures a run looks for (1, the default: stop at
    /// the first).
    pub fn distinct_failures(mut self, n: usize) -> Self {
        self.distinct = n.max(1);
        self
    }

    /// One search; failures whose identity is in `known` count as passes
    /// (they are reported already).
    fn run_once(&self, known: &[Verdict], time_budget: Option<Duration>) -> DualReport {
        let started = Instant::now();
        let shared =
            Arc::new(Shared { on_execution: self.on_execution.clone(), known: known.to_vec(), ..Shared::default() });
        // The SHOULDs of failures already reported are not enforced while
        // looking for others (see `Settings::waived`).
        let mut settings = self.settings.clone();
        settings.waived.extend(known.iter().flat_map(Verdict::waivable));
        let (protocol, target, sh) = (self.protocol.clone(), self.target.clone(), shared.clone());

        let seed_gen = gens::from_fn(|tc: &mut TestCase| tc.draw_int::<u64>(0, u64::MAX));
        // An execution stops itself after its budget and a drain; the
        // runner's hang detection must not fire before that.
        let mut config = self.config.clone();
        config.time_budget = time_budget;
        let needed = self.settings.budget + self.settings.liveness * 2 + Duration::from_secs(5);
        if let Some(t) = config.timeout
            && t < needed
        {
            config.timeout = Some(needed);
        }
        let mut run =
            Property::with_render(seed_gen, |s: &u64| vec![("seed".to_string(), Term::Atom(format!("{s:#x}")))])
                .config(config)
                .run_with_case(move |tc: &mut TestCase, seed: u64| {
                    body::<P, S>(&*protocol, &*target, &settings, &sh, started, tc, seed)
                });
        if let Some(e) = shared.setup_error.lock().unwrap_or_else(|e| e.into_inner()).clone() {
            run.verdict = RunVerdict::Error(format!(
                "setup error against {}: {e} (this is not a verdict on the system under test)",
                self.target.describe()
            ));
        }
        run.warnings.append(&mut shared.warnings.lock().unwrap_or_else(|e| e.into_inner()));
        let found = match run.verdict {
            RunVerdict::Flaky(_) => shared.found_execution.lock().unwrap_or_else(|e| e.into_inner()).take(),
            _ => None,
        };
        let final_execution = shared.final_execution.lock().unwrap_or_else(|e| e.into_inner()).take().or(found);
        let executions = shared.executions.load(Ordering::Relaxed);
        let inconclusive = shared.inconclusive.load(Ordering::Relaxed);
        let budget_hits = shared.budget_hits.load(Ordering::Relaxed);
        if let Some(reason) = no_verdict(&run.verdict, executions, inconclusive, budget_hits) {
            run.verdict = RunVerdict::Incomplete { reason };
        }
        DualReport {
            run,
            executions,
            interactions: shared.interactions.load(Ordering::Relaxed),
            inconclusive,
            inconclusive_reasons: std::mem::take(
                &mut *shared.inconclusive_reasons.lock().unwrap_or_else(|e| e.into_inner()),
            ),
            budget_hits,
            findings_cut_short: shared.findings_cut_short.load(Ordering::Relaxed),
            findings: {
                let mut findings = std::mem::take(&mut *shared.findings.lock().unwrap_or_else(|e| e.into_inner()));
                // The SHOULDs first; what follows from them after.
                findings.sort_by_key(|f| f.rejection.after_should);
                findings
            },
            first_failure: shared.first.lock().unwrap_or_else(|e| e.into_inner()).clone(),
            final_execution,
            other_failures: Vec::new(),
        }
    }

    /// Runs the tester and panics with the report unless the system passes
    /// (for `#[test]` functions).
    pub fn check(&self) {
        let r = self.run();
        if !r.passed() {
            panic!("\n{r}");
        }
    }
}

/// Why a run that found nothing is no pass: too many of its executions
/// had no full verdict.
fn no_verdict(verdict: &RunVerdict, executions: u64, inconclusive: u64, budget_hits: u64) -> Option<String> {
    let partial = inconclusive + budget_hits;
    let share = partial as f64 / executions.max(1) as f64;
    if !matches!(verdict, RunVerdict::Passed) || partial == 0 || share <= MAX_NO_VERDICT_SHARE {
        return None;
    }
    Some(format!(
        "{partial} of {executions} executions ({:.0}%) had no full verdict ({inconclusive} inconclusive, \
         {budget_hits} cut short by the execution budget): more than {:.0}% is no pass (raise the validator's limits \
         or the execution budget, or lower the steps per execution)",
        share * 100.0,
        MAX_NO_VERDICT_SHARE * 100.0
    ))
}

/// Counts a finding (generation only: shrinking re-runs would count the
/// same one again).
fn record_finding(shared: &Shared, exec: &Execution) {
    let Some(rejection) = &exec.finding else { return };
    // A strict rejection that names no SHOULD follows from one (the shadow
    // marks it `after_should`, and its identity says so).
    let identity = rejection.identity();
    let mut findings = shared.findings.lock().unwrap_or_else(|e| e.into_inner());
    match findings.iter_mut().find(|f| f.identity == identity) {
        Some(f) => f.seen += 1,
        None => findings.push(Finding { identity, rejection: rejection.clone(), seen: 1, execution: exec.clone() }),
    }
}

/// A confirmation that showed another failure than the search's (that
/// one never came back): the core runner shrinks what the confirmation
/// showed, so the search's failure becomes that one, and the run's first
/// failure is reported as it. Either the confirmation showed another
/// failure than its own script's (`found`, which the report says), or
/// the search's failure was an earlier script's that never came back at
/// all (which the core runner reports as flaky): then the first failure
/// is this script's, with when the run met it.
fn retarget(shared: &Shared, confirmed: &Verdict, found: &FirstFailure, attempts: usize) {
    let mut target = shared.target.lock().unwrap_or_else(|e| e.into_inner());
    if target.as_ref().is_none_or(|t| confirmed.is_within(t)) {
        return;
    }
    *target = Some(confirmed.clone());
    let (identity, verdict) = (confirmed.identity(), confirmed.clone());
    let mut first = shared.first.lock().unwrap_or_else(|e| e.into_inner());
    if confirmed.is_within(&found.verdict) {
        *first = Some(FirstFailure { identity, verdict, ..found.clone() });
        return;
    }
    shared.warnings.lock().unwrap_or_else(|e| e.into_inner()).push(format!(
        "the failure its script first showed ({}) did not come back in {attempts} runs of that script; another \
         one did ({identity}), and it is the failure reported (the interleaving of the connections is the \
         system's)",
        found.identity
    ));
    if let Some(first) = first.as_mut() {
        first.identity = identity;
        first.verdict = verdict;
    }
}

fn body<P: Protocol, S: Solver>(
    protocol: &P,
    target: &dyn Target,
    settings: &Settings,
    shared: &Shared,
    started: Instant,
    tc: &mut TestCase,
    seed: u64,
) -> Outcome {
    if let Some(e) = shared.setup_error.lock().unwrap_or_else(|e| e.into_inner()).clone() {
        return Outcome::Discard { reason: format!("setup error: {e}") };
    }
    let generating = tc.is_sampling();
    let repeat =
        if generating { shared.repeats.lock().unwrap_or_else(|e| e.into_inner()).get(&seed).cloned() } else { None };
    let mut run = || -> Result<Execution, crate::exec::SetupError> {
        if generating && repeat.is_none() {
            return execute::<P, S>(protocol, target, settings, tc, seed, None);
        }
        // A known script (confirming a failure, shrinking, the final run):
        // drawn whole, then run — again, for a failure that must reproduce.
        let script = draw_script(protocol, settings, tc, repeat.as_ref().map(|(s, _, _)| s.as_slice()));
        let attempts = if repeat.is_some() || tc.is_final() { settings.attempts.max(1) } else { 1 };
        // A confirmation wants the failure it confirms: another one the
        // same script shows under another interleaving is kept only if
        // that one never comes back.
        // The final run of a shrunk script wants the failure the search shrank.
        let shrunk = if tc.is_final() { shared.target.lock().unwrap_or_else(|e| e.into_inner()).clone() } else { None };
        let wanted = repeat.as_ref().map(|(_, _, f)| &f.verdict).or(shrunk.as_ref());
        // The shrinking run that last showed the wanted failure on this
        // very script (the final run replays the shrunk script).
        let seen =
            if tc.is_final() { shared.shrunk.lock().unwrap_or_else(|e| e.into_inner()).of(&script) } else { None };
        let pace = repeat.as_ref().map(|(_, pace, _)| pace).or(seen.as_ref().map(|e| &e.pacing));
        let mut other: Option<Execution> = None;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let exec = match pace {
                // The first attempts at the pace of the failure, the last at the script's own.
                Some(pace) if attempt < attempts => {
                    execute_paced::<P, S>(protocol, target, settings, seed, &script, pace)?
                }
                _ => execute_script::<P, S>(protocol, target, settings, seed, &script)?,
            };
            let same = exec.verdict.is_failure() && wanted.is_none_or(|id| exec.verdict.is_within(id));
            if !same && exec.verdict.is_failure() && other.is_none() {
                other = Some(exec.clone());
            }
            if !same
                && attempt >= attempts
                && let Some(seen) = seen
            {
                // An observed execution of this script that failed as the
                // search's failure, said to be one: the system chose another
                // interleaving on every attempt since (one that showed
                // another failure, or none: the rejection seen stays a
                // response no behaviour of the model explains).
                let now = other.as_ref().map_or_else(|| exec.verdict.to_string(), |o| o.verdict.to_string());
                tc.note(|| {
                    format!(
                        "the final run of the shrunk script did not show this failure in {attempts} attempts \
                         (the interleaving of the connections is the system's; it showed: {now}); the trace \
                         is the shrinking run's execution of the same script"
                    )
                });
                return Ok(seen);
            }
            if !same
                && attempt >= attempts
                && let Some(o) = other.take()
            {
                return Ok(o);
            }
            if same || attempt >= attempts {
                if attempt > 1 && exec.verdict.is_failure() && tc.is_final() {
                    tc.note(|| {
                        format!(
                            "the failure reproduced on attempt {attempt} of {attempts} (the interleaving of the \
                             connections is the system's)"
                        )
                    });
                }
                return Ok(exec);
            }
        }
    };
    let exec = match run() {
        Ok(e) => e,
        Err(e) => {
            *shared.setup_error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.to_string());
            return Outcome::Discard { reason: format!("setup error: {e}") };
        }
    };
    if let Some((_, _, found)) = &repeat
        && exec.verdict.is_failure()
    {
        retarget(shared, &exec.verdict, found, settings.attempts.max(1));
    }
    let executions = shared.executions.fetch_add(1, Ordering::Relaxed) + 1;
    let interactions =
        shared.interactions.fetch_add(exec.interactions() as u64, Ordering::Relaxed) + exec.interactions() as u64;
    if let Some(f) = &shared.on_execution {
        f(&exec);
    }
    if generating {
        record_finding(shared, &exec);
        if exec.findings_cut_short {
            shared.findings_cut_short.fetch_add(1, Ordering::Relaxed);
        }
    }
    if shared.known.iter().any(|k| exec.verdict.is_within(k)) {
        // Reported by an earlier search: this one looks for others.
        return Outcome::Pass;
    }
    if let Verdict::Accepted { budget_hit: true } = exec.verdict {
        shared.budget_hits.fetch_add(1, Ordering::Relaxed);
    }
    if tc.is_final() {
        *shared.final_execution.lock().unwrap_or_else(|e| e.into_inner()) = Some(exec.clone());
        let steps = exec.steps.clone();
        tc.show("script", || Term::seq("[", "]", steps.iter().map(|s| Term::Atom(s.to_string())).collect()));
    }
    if let Verdict::Inconclusive(_) = exec.verdict {
        // No verdict on this execution: counted as a discard, so a run where
        // it happens too often gives up with an error instead of passing.
        shared.inconclusive.fetch_add(1, Ordering::Relaxed);
        let mut reasons = shared.inconclusive_reasons.lock().unwrap_or_else(|e| e.into_inner());
        let reason = exec.verdict.to_string();
        if reasons.len() < 3 && !reasons.contains(&reason) {
            reasons.push(reason);
        }
        drop(reasons);
        return Outcome::Discard { reason: exec.verdict.to_string() };
    }
    if !exec.verdict.is_failure() {
        return Outcome::Pass;
    }
    let (identity, verdict) = (exec.verdict.identity(), exec.verdict.clone());
    let found = FirstFailure { after: started.elapsed(), executions, interactions, identity, verdict };
    {
        let mut first = shared.first.lock().unwrap_or_else(|e| e.into_inner());
        if first.is_none() {
            *first = Some(found.clone());
            *shared.found_execution.lock().unwrap_or_else(|e| e.into_inner()) = Some(exec.clone());
        }
    }
    if generating && repeat.is_none() {
        let failing = (exec.steps.clone(), exec.pacing.clone(), found);
        shared.repeats.lock().unwrap_or_else(|e| e.into_inner()).insert(seed, failing);
    }
    // The failure's identity: the one found first when this is a narrower
    // form of it (see `Verdict::is_within`), so that shrinking keeps it.
    let identity = {
        let mut target = shared.target.lock().unwrap_or_else(|e| e.into_inner());
        match target.as_ref() {
            Some(t) if exec.verdict.is_within(t) => {
                if !generating && !tc.is_final() {
                    shared.shrunk.lock().unwrap_or_else(|e| e.into_inner()).record(&exec);
                }
                t.identity()
            }
            Some(_) => exec.verdict.identity(),
            None => target.insert(exec.verdict.clone()).identity(),
        }
    };
    let message = format!(
        "{}\n\ntrace ({} sent, {} received{}):\n{}",
        exec.verdict,
        exec.sent,
        exec.received,
        if exec.skipped > 0 { format!(", {} steps skipped", exec.skipped) } else { String::new() },
        exec.trace_lines().trim_end()
    );
    Outcome::Fail(FailureInfo {
        kind: FailureKind::Returned,
        message,
        location: Some(format!("speccheck-dual ({identity})")),
        in_generator: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_with_many_executions_without_a_full_verdict_is_no_pass() {
        let passed = RunVerdict::Passed;
        assert_eq!(no_verdict(&passed, 100, 0, 0), None);
        assert_eq!(no_verdict(&passed, 100, 5, 5), None, "10% is tolerated");
        let reason = no_verdict(&passed, 100, 4, 7).expect("11% is not");
        assert!(reason.contains("11 of 100 executions") && reason.contains("7 cut short"), "{reason}");
        // A verdict that is no pass stays what it is.
        assert_eq!(no_verdict(&RunVerdict::Error("x".into()), 100, 50, 0), None);
    }
}
