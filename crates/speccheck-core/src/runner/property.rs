//! [`Property`]: a generator of inputs, the settings, how to show inputs,
//! and the explanation step; `run` and `check` turn it, with a body, into
//! a test function over test cases and hand it to a [`Run`].

use std::fmt::Debug;
use std::sync::Arc;
use std::time::Instant;

use super::config::Config;
use super::explain::Explainer;
use super::fuzz::FuzzTarget;
use super::isolate;
use super::report::{Rebuild, RunReport, RunVerdict};
use super::run::Run;
use super::source::{CaseSource, Encoded, InputSource, Sourced};
use super::subject::{Describe, Draw, GenerationClock, Subject};
use crate::case::{Outcome, SharedTest, Verdict};
use crate::database::FailureDatabase;
use crate::gens::Generator;
use crate::term::Term;
use crate::test_case::{CaseControl as _, TestCase};

type Render<T> = Arc<dyn Fn(&T) -> Vec<(String, Term)> + Send + Sync>;

/// A property: a generator of inputs, the settings, and how to show inputs.
pub struct Property<G: Generator> {
    generator: Arc<G>,
    config: Config,
    render: Render<G::Value>,
    explainer: Option<Arc<dyn Explainer>>,
    source: Option<Sourced>,
    /// Why an explicit example could not be taken (the run is then an
    /// error that says so).
    example_errors: Vec<String>,
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
        Property {
            generator: Arc::new(generator),
            config,
            render: Arc::new(render),
            explainer: None,
            source: None,
            example_errors: Vec::new(),
        }
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
    /// solver's models, a pruning enumerator; see [`super::source`]). Each input
    /// is encoded into the generator's choices, so it shrinks, replays and
    /// persists like a generated one; the generator must be able to
    /// [`encode`](Generator::encode) it.
    pub fn inputs_from(mut self, source: impl InputSource<G::Value> + 'static) -> Self
    where
        G: Send + Sync,
    {
        self.source = Some(Sourced::Instead(Box::new(Encoded { generator: self.generator.clone(), source })));
        self
    }

    /// Takes every input from `source`, which makes *random* inputs (valid
    /// by construction, say, where a filter would reject most): one per
    /// case, each [`prepare`](InputSource::prepare)d with the case's seed
    /// and its size on the run's ramp. The run needs `cases` passing
    /// inputs, as a random run does, and claims no coverage; a source that
    /// stops short makes the run give up, saying why. Inputs are encoded
    /// into the generator's choices, so they shrink, replay and persist
    /// like generated ones.
    pub fn sampled_inputs(mut self, source: impl InputSource<G::Value> + 'static) -> Self
    where
        G: Send + Sync,
    {
        self.source = Some(Sourced::Sampled(Box::new(Encoded { generator: self.generator.clone(), source })));
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
        self.source =
            Some(Sourced::Fallback(Box::new(move || Box::new(Encoded { generator, source: make() }) as CaseSource)));
        self
    }

    /// Adds an explicit example: an input run before any other (before
    /// saved failures and generation), every run. It is encoded into the
    /// generator's choices, so a failing example is shrunk, explained and
    /// saved like a generated input; a generator that cannot
    /// [`encode`](Generator::encode) it makes the run an error naming the
    /// example.
    pub fn example(mut self, value: G::Value) -> Self {
        let number = self.config.examples.len() + self.example_errors.len() + 1;
        let mut enc = crate::encode::Encoder::new();
        match self.generator.encode(&value, &mut enc) {
            Ok(()) => self.config.examples.push(enc.finish()),
            Err(e) => self.example_errors.push(format!(
                "explicit example {number} cannot be run: the generator cannot encode it ({e}); give the \
                 argument a generator that can (`any::<T>()`, or `map_inv` instead of `map`)"
            )),
        }
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
        let generator = self.generator.clone();
        let prepared = match self.prepare(body, draws_more) {
            Ok(p) => p,
            Err(report) => return *report,
        };
        if isolate::child::serves(&prepared.config.name) {
            // This process was started to run cases for an isolated run.
            return isolate::child::serve(prepared.subject.test, &prepared.config.name);
        }
        let report =
            Run { config: prepared.config, subject: prepared.subject, source: prepared.source, started }.report();
        with_rebuild(report, generator)
    }

    /// The settings (environment applied) and the test function of a run
    /// of `body`, or the error report of a property that cannot run.
    fn prepare<V: Verdict>(
        self,
        body: impl Fn(&mut TestCase, G::Value) -> V + Send + Sync + 'static,
        draws_more: bool,
    ) -> Result<Prepared, Box<RunReport>> {
        if let Some(e) = self.example_errors.first() {
            return Err(Box::new(super::run::error_report(&self.config.name, e.clone())));
        }
        let config = match self.config.clone().apply_env() {
            Ok(c) => c,
            Err(e) => return Err(Box::new(super::run::error_report(&self.config.name, e.to_string()))),
        };
        let generator = self.generator.clone();
        let render = self.render.clone();
        let observing = config.observe.is_some();
        let clock = Arc::new(GenerationClock::default());
        let timing = config.health_checks.then(|| clock.clone());
        let test: SharedTest = Arc::new(move |tc: &mut TestCase| {
            let started = timing.as_ref().filter(|c| c.wants()).map(|_| Instant::now());
            let value = generator.generate(tc);
            if let (Some(c), Some(t)) = (&timing, started) {
                c.add(t.elapsed());
            }
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
            if observing {
                return observed(tc, value, &*render, &body);
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
        let subject = Subject {
            test,
            describe,
            draw,
            input_type: std::any::type_name::<G::Value>(),
            explainer: self.explainer,
            clock,
        };
        Ok(Prepared { config, subject, source: self.source })
    }

    /// A fuzz target of `body` over this property's inputs (see
    /// [`FuzzTarget`]): each fuzzer input is read as the generator's
    /// choices ([`crate::bytes`]), and a failure is shrunk, explained,
    /// reported and saved as a run of this property would.
    pub fn fuzz_target<V: Verdict>(self, body: impl Fn(G::Value) -> V + Send + Sync + 'static) -> FuzzTarget {
        self.fuzz_body(move |_, v| body(v))
    }

    /// [`fuzz_target`](Self::fuzz_target) with the test case passed to the
    /// body.
    pub fn fuzz_target_with_case<V: Verdict>(
        self,
        body: impl Fn(&mut TestCase, G::Value) -> V + Send + Sync + 'static,
    ) -> FuzzTarget {
        self.fuzz_body(body)
    }

    fn fuzz_body<V: Verdict>(self, body: impl Fn(&mut TestCase, G::Value) -> V + Send + Sync + 'static) -> FuzzTarget {
        let generator = self.generator.clone();
        let name = self.config.name.clone();
        // A fuzzer's inputs are never the same twice by design, and the
        // body may draw more: no `Seen` set (an input is run once).
        match self.prepare(body, true) {
            Ok(p) => FuzzTarget::new(p.config, p.subject, move |report| with_rebuild(report, generator.clone())),
            Err(report) => FuzzTarget::broken(name, *report),
        }
    }

    /// Runs the property and panics with the report if it does not pass
    /// (the form `#[test]` functions use), at the caller's location. Prints
    /// statistics when it passes (visible with `--nocapture`).
    #[track_caller]
    pub fn check<V: Verdict>(self, body: impl Fn(G::Value) -> V + Send + Sync + 'static) {
        super::finish(self.run(body));
    }

    /// [`check`](Self::check) with the test case passed to the body.
    #[track_caller]
    pub fn check_with_case<V: Verdict>(self, body: impl Fn(&mut TestCase, G::Value) -> V + Send + Sync + 'static) {
        super::finish(self.run_with_case(body));
    }
}

/// What a run needs besides the property's generator: its settings, its
/// test function, and where its inputs come from.
pub(crate) struct Prepared {
    pub(crate) config: Config,
    pub(crate) subject: Subject,
    pub(crate) source: Option<Sourced>,
}

/// Lets a failed run's counterexample be rebuilt as the typed input (see
/// [`Rebuild`]).
fn with_rebuild<G>(mut report: RunReport, generator: Arc<G>) -> RunReport
where
    G: Generator + 'static,
    G::Value: 'static,
{
    if let RunVerdict::Failed(c) | RunVerdict::Flaky(c) = &mut report.verdict {
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

/// Runs the body on `value` with its observation (`SPECCHECK_OBSERVE`):
/// the input, rendered, and the body's time ride on the case's labels.
fn observed<T, V: Verdict>(
    tc: &mut TestCase,
    value: T,
    render: &(dyn Fn(&T) -> Vec<(String, Term)> + Send + Sync),
    body: &impl Fn(&mut TestCase, T) -> V,
) -> Outcome {
    let inputs: Vec<(String, String)> =
        shown_safely(render, &value).into_iter().map(|(name, term)| (name, term.to_string())).collect();
    crate::case::label(crate::observe::input_label(&inputs));
    let started = Instant::now();
    let outcome = body(tc, value).into_outcome();
    crate::case::label(crate::observe::time_label(started.elapsed().as_secs_f64()));
    outcome
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
