//! The runner: turns a generator and a property into a verdict.
//!
//! [`Property`] is the entry point (the `#[property]` attribute expands to
//! it). A run executes on a worker thread so that a hanging case can be
//! reported as a timeout while the caller's thread stays in control; see
//! [`watch`]. The phases themselves live in `engine`.

pub mod config;
mod engine;
pub mod explain;
mod isolate;
mod pool;
pub mod report;
pub mod source;

use crate::test_case::CaseControl as _;
use std::fmt::Debug;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use crate::case::{
    CaseResult, FailureInfo, FailureKind, Outcome, SharedTest, TestFn, TestResult, Verdict, assume, collect, cover,
    label, note, reject,
};
pub use config::{Config, ConfigError, ExplainMode, Profile, Verbosity};
pub use explain::{ExplainContext, Explainer, Explanation};
pub use report::{Counterexample, Rebuild, RunReport, RunStats, RunVerdict, Section};
pub use source::{InputSource, SourceStep};

use crate::database::FailureDatabase;
use crate::gens::Generator;
use crate::term::Term;
use crate::test_case::TestCase;
use engine::{Describe, Draw, Engine, Inputs, Ran};

type Render<T> = Arc<dyn Fn(&T) -> Vec<(String, Term)> + Send + Sync>;

/// A property: a generator of inputs, the settings, and how to show inputs.
pub struct Property<G: Generator> {
    generator: Arc<G>,
    config: Config,
    render: Render<G::Value>,
    explainer: Option<Arc<dyn Explainer>>,
    source: Option<source::Sourced>,
}

impl<G> Property<G>
where
    G: Generator + 'static,
    G::Value: Debug + 'static,
{
    /// A property over the values of `generator`, shown with `Debug`.
    pub fn new(generator: G) -> Self {
        Self::with_render(generator, |v: &G::Value| vec![("input".to_string(), Term::debug(v))])
    }
}

impl<G> Property<G>
where
    G: Generator + 'static,
    G::Value: 'static,
{
    /// A property whose inputs are shown by `render` (named terms).
    pub fn with_render(
        generator: G,
        render: impl Fn(&G::Value) -> Vec<(String, Term)> + Send + Sync + 'static,
    ) -> Self {
        let mut config = Config::default();
        if let Some(name) = std::thread::current().name() {
            // `cargo test` names each test's thread after the test.
            config.name = name.to_string();
            config.test_path = Some(name.to_string());
        }
        if let Ok(dir) = std::env::var("CARGO_MANIFEST_DIR") {
            config.database = Some(FailureDatabase::default_dir(std::path::Path::new(&dir)));
        }
        Property { generator: Arc::new(generator), config, render: Arc::new(render), explainer: None, source: None }
    }

    /// Replaces the settings (environment variables still apply on top).
    pub fn config(mut self, config: Config) -> Self {
        self.config = config;
        self
    }

    /// Edits the settings.
    pub fn configure(mut self, f: impl FnOnce(&mut Config)) -> Self {
        f(&mut self.config);
        self
    }

    /// Takes the inputs from `source` instead of generating them (an SMT
    /// solver's models, a pruning enumerator; see [`source`]). Each input
    /// is encoded into the generator's choices, so it shrinks, replays and
    /// persists like a generated one; the generator must be able to
    /// [`encode`](Generator::encode) it.
    pub fn inputs_from(mut self, source: impl InputSource<G::Value> + 'static) -> Self
    where
        G: Send + Sync,
    {
        self.source =
            Some(source::Sourced::Instead(Box::new(source::Encoded { generator: self.generator.clone(), source })));
        self
    }

    /// Generates inputs at random, and if a filter (an `assume`, a
    /// refinement) rejected most of them, takes the rest from the source
    /// `make` builds then (an SMT solver's models, a pruning enumerator):
    /// the run still tests the inputs it was asked to. The source is built
    /// only when needed, and the report says when it was.
    pub fn fallback_inputs<S>(mut self, make: impl FnOnce() -> S + Send + 'static) -> Self
    where
        G: Send + Sync,
        S: InputSource<G::Value> + 'static,
    {
        let generator = self.generator.clone();
        self.source = Some(source::Sourced::Fallback(Box::new(move || {
            Box::new(source::Encoded { generator, source: make() }) as source::CaseSource
        })));
        self
    }

    /// Names the property (reports, database, CI seed).
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.config.name = name.into();
        self
    }

    /// Sets (or, with `None`, removes) the explanation step that runs
    /// after shrinking.
    pub fn explainer(mut self, explainer: impl Into<Option<Arc<dyn Explainer>>>) -> Self {
        self.explainer = explainer.into();
        self
    }

    /// The settings as they stand (before environment variables).
    pub fn settings(&self) -> &Config {
        &self.config
    }

    /// Runs `body` on generated inputs and returns the report.
    pub fn run<V: Verdict>(self, body: impl Fn(G::Value) -> V + Send + Sync + 'static) -> RunReport {
        // The body draws nothing more: an input is known once generated,
        // so shrinking may skip inputs it already tried.
        self.run_body(move |_, v| body(v), false)
    }

    /// Like [`run`](Self::run), but the body also gets the test case, to
    /// draw more values as it goes.
    pub fn run_with_case<V: Verdict>(
        self,
        body: impl Fn(&mut TestCase, G::Value) -> V + Send + Sync + 'static,
    ) -> RunReport {
        self.run_body(body, true)
    }

    fn run_body<V: Verdict>(
        self,
        body: impl Fn(&mut TestCase, G::Value) -> V + Send + Sync + 'static,
        draws_more: bool,
    ) -> RunReport {
        let started = Instant::now();
        let config = match self.config.clone().apply_env() {
            Ok(c) => c,
            Err(e) => return error_report(&self.config.name, e.to_string()),
        };
        let generator = self.generator.clone();
        let render = self.render.clone();
        let test: SharedTest = Arc::new(move |tc: &mut TestCase| {
            let value = generator.generate(tc);
            if let Some(why) = tc.invalid() {
                // A spliced value that was not smaller (see `CaseControl::splice`).
                return Outcome::Invalid(why.clone());
            }
            tc.mark_generated();
            isolate::child::generated(tc);
            if !draws_more && !tc.check_unseen() {
                // Already tried (see `CaseControl::with_seen`).
                return Outcome::Invalid(crate::test_case::Invalid::Duplicate);
            }
            if tc.is_final() {
                // Showing the input runs the user's `Debug`: if it panics,
                // say so, and let the property's own failure be the verdict.
                for (name, term) in shown_safely(&*render, &value) {
                    tc.show(&name, || term);
                }
            }
            body(tc, value).into_outcome()
        });
        let (generator, render) = (self.generator.clone(), self.render.clone());
        let describe: Describe = Arc::new(move |tc: &mut TestCase| {
            let value = generator.generate(tc);
            render(&value)
        });
        let generator = self.generator.clone();
        let draw: Draw = Arc::new(move |tc: &mut TestCase| {
            generator.generate(tc);
        });
        if isolate::child::serves(&config.name) {
            // This process was started to run cases for an isolated run.
            return isolate::child::serve(test, &config.name);
        }
        let mut report = run_engine(
            config,
            test,
            Inputs { describe, draw, input_type: std::any::type_name::<G::Value>(), source: self.source },
            self.explainer,
            started,
        );
        if let RunVerdict::Failed(c) | RunVerdict::Flaky(c) = &mut report.verdict {
            let generator = self.generator.clone();
            c.rebuild = Some(Rebuild::new(move |choices| {
                let mut tc = TestCase::replay(choices.0.clone(), crate::test_case::Tail::Simplest);
                let value = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    crate::test_case::catch_invalid(&mut tc, |tc| generator.generate(tc))
                }));
                Some(Box::new(value.ok()?.ok()?) as Box<dyn std::any::Any>)
            }));
        }
        report
    }

    /// Runs the property and panics with the report if it does not pass
    /// (the form `#[test]` functions use), at the caller's location. Prints
    /// statistics when it passes (visible with `--nocapture`).
    #[track_caller]
    pub fn check<V: Verdict>(self, body: impl Fn(G::Value) -> V + Send + Sync + 'static) {
        finish(self.run(body));
    }

    /// [`check`](Self::check) with the test case passed to the body.
    #[track_caller]
    pub fn check_with_case<V: Verdict>(self, body: impl Fn(&mut TestCase, G::Value) -> V + Send + Sync + 'static) {
        finish(self.run_with_case(body));
    }
}

/// The named inputs `render` shows for `value`, or a plain statement that
/// showing them panicked (a `Debug` or `Display` of the user's).
fn shown_safely<T>(render: &(dyn Fn(&T) -> Vec<(String, Term)> + Send + Sync), value: &T) -> Vec<(String, Term)> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| render(value))) {
        Ok(terms) => terms,
        Err(payload) => {
            let why = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            vec![("input".to_string(), Term::Atom(format!("<cannot be shown: its Debug panicked: {why}>")))]
        }
    }
}

/// Prints a passing report's statistics or panics with a failing one, at
/// the caller's location (the property), without speccheck's own stack.
#[track_caller]
pub fn finish(report: RunReport) {
    if report.passed() {
        // Summaries asked for (`stats`) and warnings are written past the
        // test harness's capture: a passing test's output is never shown.
        let mut direct = String::new();
        if report.verbosity >= Verbosity::Stats {
            direct.push_str(&report.to_string());
        } else if report.verbosity >= Verbosity::Normal {
            println!("{report}");
        }
        for w in &report.warnings {
            direct.push_str(&format!("speccheck warning ({}): {w}\n", report.name));
        }
        if !direct.is_empty() {
            use std::io::Write as _;
            let _ = std::io::stderr().lock().write_all(direct.as_bytes());
        }
    } else {
        crate::case::context::raise_report(format!("\n{report}"));
    }
}

fn error_report(name: &str, message: String) -> RunReport {
    RunReport {
        name: name.to_string(),
        verdict: RunVerdict::Error(message),
        stats: RunStats::default(),
        warnings: Vec::new(),
        notes: Vec::new(),
        rerun_command: None,
        verbosity: Verbosity::Normal,
        overridden: Vec::new(),
    }
}

/// Runs the engine on a worker thread and watches it for hangs.
pub(crate) fn run_engine(
    mut config: Config,
    test: SharedTest,
    inputs: Inputs,
    explainer: Option<Arc<dyn Explainer>>,
    started: Instant,
) -> RunReport {
    let db = config.database.clone().map(FailureDatabase::new);
    // A run of this property that died mid-case (its process crashed):
    // replay its seed first, in isolation, where the crash is a verdict.
    let journal = db.as_ref().filter(|_| config.database_writes && !config.expected_failure);
    // Opening this process's journal first recovers the journals of dead
    // processes into crashed-run records.
    let crashed = journal
        .map(|db| {
            let _ = crate::journal::for_database(db);
            db.crashed_runs(&config.name)
        })
        .unwrap_or_default();
    let mut crash_warning = None;
    if let Some(&seed) = crashed.last()
        && config.replay.is_none()
    {
        config.seed = Some(seed);
        config.isolate = true;
        crash_warning = Some(format!(
            "an earlier run of this property (seed {seed:#x}) was under way when its process died mid-case; this \
             run replays that seed in isolation (child processes), where a crash is a verdict"
        ));
    }
    // A saved failure that crashed its process is replayed in isolation.
    if !config.isolate
        && let Some(db) = journal
        && db.load(&config.name).0.iter().any(|f| f.crashed)
    {
        config.isolate = true;
    }
    let seed = config.effective_seed();
    let report = run_isolated_or_not(config, seed, db.clone(), test, inputs, explainer, started);
    let mut report = match crash_warning {
        Some(w) => RunReport { warnings: [vec![w], report.warnings].concat(), ..report },
        None => report,
    };
    if let Some(db) = journal
        && !crashed.is_empty()
    {
        if report.passed() {
            report.warnings.push(
                "replayed in isolation, that seed does not crash: another test running in the same process at the \
                 time probably took it down (or the crash depends on something besides the input, or the code \
                 changed since)"
                    .into(),
            );
        }
        let _ = db.forget_crashed_runs(&report.name);
    }
    report
}

/// The write-ahead journal of this run, when the database is written:
/// begun before, ended after (see [`crate::journal`]).
fn journaled(config: &Config, seed: u64, db: Option<&FailureDatabase>, run: impl FnOnce() -> RunReport) -> RunReport {
    let journal = db
        .filter(|_| config.database_writes && !config.isolate && !config.expected_failure)
        .and_then(crate::journal::for_database);
    if let Some(j) = &journal {
        j.begin(&config.name, seed);
    }
    let report = run();
    if let Some(j) = &journal {
        j.end(&config.name);
    }
    report
}

#[allow(clippy::too_many_arguments)]
fn run_isolated_or_not(
    config: Config,
    seed: u64,
    db: Option<FailureDatabase>,
    test: SharedTest,
    inputs: Inputs,
    explainer: Option<Arc<dyn Explainer>>,
    started: Instant,
) -> RunReport {
    let (journal_config, journal_db) = (config.clone(), db.clone());
    journaled(&journal_config, seed, journal_db.as_ref(), move || {
        run_with(config, seed, db, test, inputs, explainer, started)
    })
}

fn run_with(
    config: Config,
    seed: u64,
    db: Option<FailureDatabase>,
    test: SharedTest,
    inputs: Inputs,
    explainer: Option<Arc<dyn Explainer>>,
    started: Instant,
) -> RunReport {
    let isolated = if config.isolate {
        let Some(path) = config.test_path.clone() else {
            return error_report(
                &config.name,
                "isolation needs the property's test path (run it as a #[test], or set Config::test_path)".into(),
            );
        };
        match isolate::parent::Isolated::new(&config.name, &path) {
            Ok(i) => Some(Mutex::new(i)),
            Err(e) => return error_report(&config.name, e),
        }
    } else {
        None
    };
    // An isolated run's cases time out in the child: nothing to watch here.
    let timeout = if isolated.is_some() { None } else { config.timeout };
    let watch = Arc::new(crate::watch::Watch::new(config.threads.max(1), timeout.is_some()));
    let engine = Arc::new(Engine {
        test,
        describe: inputs.describe,
        draw: inputs.draw,
        tag: crate::choice::ReplayTag::new(&config.name, inputs.input_type),
        config,
        seed,
        db,
        watch: watch.clone(),
        explainer,
        failing: Mutex::new(None),
        isolated,
        source: Mutex::new(inputs.source),
        preceding: Default::default(),
    });
    if timeout.is_none() {
        // Nothing to watch for: run on this thread, with no hand-offs.
        return match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.run())) {
            Ok(report) => report,
            Err(payload) => error_report(&engine.config.name, format!("internal error: {}", panic_text(&*payload))),
        };
    }
    // Until this function returns (the final replay included), idle
    // workers stay awake for the next run.
    let _in_progress = pool::RunInProgress::begin();
    let handoff = Arc::new(pool::Handoff::new());
    let tx = handoff.clone();
    let worker = engine.clone();
    let spawned = pool::execute(move || {
        let ran = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| worker.search())) {
            Ok(ran) => ran,
            Err(payload) => Ran::Done(Box::new(error_report(
                &worker.config.name,
                format!("internal error: {}", panic_text(&*payload)),
            ))),
        };
        tx.put(ran);
    });
    if spawned.is_err() {
        // No thread to be had: run here, without hang detection.
        return engine.run();
    }
    let pending = match watch_for(&handoff, &engine, started) {
        Ran::Done(report) => return shrink_hang_isolated(&engine, *report),
        Ran::Final(pending) => pending,
    };
    // The final replay runs on a thread of the caller's own: a pooled
    // worker was started by some earlier test, and what the property prints
    // there would land in that test's output, not this one's.
    let handoff = Arc::new(pool::Handoff::new());
    let tx = handoff.clone();
    let worker = engine.clone();
    let last = std::sync::Mutex::new(Some(pending));
    let spawned =
        std::thread::Builder::new().name("speccheck-final".into()).stack_size(pool::WORKER_STACK).spawn(move || {
            let pending = last.lock().unwrap_or_else(|e| e.into_inner()).take().expect("one final replay");
            let report = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| worker.finish(*pending))) {
                Ok(report) => report,
                Err(payload) => error_report(&worker.config.name, format!("internal error: {}", panic_text(&*payload))),
            };
            tx.put(Ran::Done(Box::new(report)));
        });
    if let Err(e) = spawned {
        return error_report(&engine.config.name, format!("could not start a thread for the final replay: {e}"));
    }
    match watch_for(&handoff, &engine, started) {
        Ran::Done(report) => *report,
        Ran::Final(_) => unreachable!("the final replay reports"),
    }
}

/// A case that hung in this process is reported unshrunk (each hanging
/// candidate would abandon another thread). When the property can run
/// isolated, the hanging input is shrunk there — a candidate that hangs
/// is killed — and that report (with a note) replaces this one; otherwise
/// the report stays as it was.
fn shrink_hang_isolated(engine: &Engine, report: RunReport) -> RunReport {
    let Some(c) = report.counterexample() else { return report };
    let config = &engine.config;
    if c.failure.kind != FailureKind::Timeout
        || c.shrink.is_some()
        || c.choices.is_empty()
        || !config.shrink
        || config.test_path.is_none()
        || isolate::child::serves(&config.name)
    {
        return report;
    }
    let isolated = match isolate::parent::Isolated::new(&config.name, config.test_path.as_deref().unwrap_or("")) {
        Ok(i) => i,
        Err(_) => return report,
    };
    let retry = Engine {
        test: engine.test.clone(),
        describe: engine.describe.clone(),
        draw: engine.draw.clone(),
        tag: engine.tag,
        config: Config { isolate: true, start_from: Some(c.choices.clone()), replay: None, ..config.clone() },
        seed: engine.seed,
        db: engine.db.clone(),
        watch: Arc::new(crate::watch::Watch::new(1, false)),
        explainer: engine.explainer.clone(),
        failing: Mutex::new(None),
        isolated: Some(Mutex::new(isolated)),
        // It starts from the counterexample: no other input is needed.
        source: Mutex::new(None),
        preceding: Default::default(),
    };
    let mut shrunk = retry.run();
    match shrunk.counterexample() {
        Some(s) if s.failure.kind == FailureKind::Timeout => {
            if let RunVerdict::Failed(cx) = &mut shrunk.verdict {
                cx.found_after = c.found_after;
                cx.source = c.source.clone();
                cx.notes.push(
                    "the case hung in this process (its thread was abandoned); its input was then shrunk in child \
                     processes, each hanging candidate killed at the limit shown"
                        .into(),
                );
            }
            shrunk
        }
        _ => report,
    }
}

/// Waits for a worker's result, reporting a hang as a timeout.
/// A hang ends in the timeout report.
fn watch_for(handoff: &pool::Handoff<Ran>, engine: &Engine, started: Instant) -> Ran {
    let timeout = engine.config.timeout;
    let tick = timeout.map(|t| (t / 4).clamp(Duration::from_millis(1), Duration::from_millis(50)));
    loop {
        if let Some(ran) = handoff.wait(tick) {
            return ran;
        }
        if let Some(t) = timeout
            && let Some(hang) = engine.watch.hung(t)
        {
            engine.watch.abandon();
            return Ran::Done(Box::new(engine.timeout_report(hang, t, started)));
        }
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    format!("the runner panicked: {text}")
}

/// Checks `body` on values of `generator` with default settings (named after the
/// current test), panicking with the report on failure.
#[track_caller]
pub fn check<G, V>(generator: G, body: impl Fn(G::Value) -> V + Send + Sync + 'static)
where
    G: Generator + 'static,
    G::Value: Debug + 'static,
    V: Verdict,
{
    Property::new(generator).check(body)
}
