//! Runs one ETNA property once, with one tool and one seed, and says what
//! happened in the same terms for every tool: whether the bug was found,
//! after how many inputs and how long, and the shrunk counterexample.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::fmt::Debug;
use std::time::{Duration, Instant};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use speccheck::gens::Generator;
use speccheck::runner::IntegerMix;
use speccheck::{Config, Property, TestResult};

/// What an ETNA property says about one input (ETNA's `PropertyResult`).
pub enum PropertyResult {
    Pass,
    Fail(String),
    /// The input is outside the property's domain. ETNA's adapters count
    /// it as a pass (not a rejection), and so do both tools here.
    Discard,
}

/// The tools compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Speccheck,
    Proptest,
    Quickcheck,
    Hegeltest,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::Speccheck => "speccheck",
            Tool::Proptest => "proptest",
            Tool::Quickcheck => "quickcheck",
            Tool::Hegeltest => "hegeltest",
        }
    }
}

/// One run's settings: the same for both tools.
#[derive(Clone, Copy, Debug)]
pub struct RunSpec {
    pub seed: u64,
    /// Most inputs tried before the run gives up on finding the bug.
    pub cases: u32,
    /// speccheck's integer mix varies per case (`IntegerMix::PerCase`).
    pub per_case_mix: bool,
}

/// One run's result.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub found: bool,
    /// Inputs run up to and including the first failing one.
    pub inputs: u64,
    /// Time from the start of the run to the first failing input.
    pub time_to_failure: Option<Duration>,
    /// The counterexample the tool reported, shrunk (`Debug`).
    pub shrunk: Option<String>,
    /// The whole run, shrinking included.
    pub elapsed: Duration,
    /// Anything else the tool said (gave up, aborted).
    pub note: Option<String>,
}

/// A property of a workload: its ETNA name and how each tool runs it.
pub struct EtnaProperty {
    pub name: &'static str,
    pub run: fn(Tool, RunSpec) -> Outcome,
}

/// A workload's bug: its patch (under `patches/<workload>/`) and the
/// properties ETNA says catch it.
pub struct Bug {
    pub patch: &'static str,
    pub properties: &'static [&'static str],
}

/// speccheck at its defaults, but for the case budget and the seed; no
/// failure database (every run starts cold).
pub fn speccheck<G>(spec: RunSpec, g: G, f: impl Fn(G::Value) -> PropertyResult + Send + Sync + 'static) -> Outcome
where
    G: Generator + 'static,
    G::Value: Debug + 'static,
{
    let integer_mix = if spec.per_case_mix { IntegerMix::PerCase } else { IntegerMix::Fixed };
    let config =
        Config { cases: spec.cases, seed: Some(spec.seed), database: None, integer_mix, ..Config::named("etna") };
    // A discarded input counts as a passing one, as ETNA's adapters count it.
    let r = Property::new(g).config(config).run(move |v| match f(v) {
        PropertyResult::Pass | PropertyResult::Discard => TestResult::Pass,
        PropertyResult::Fail(m) => TestResult::Fail(m),
    });
    let mut out = Outcome { elapsed: r.stats.elapsed, ..Outcome::default() };
    match r.counterexample() {
        Some(c) => {
            out.found = true;
            out.inputs = c.found_after;
            out.time_to_failure = r.stats.time_to_failure;
            out.shrunk = c.value::<G::Value>().map(|v| format!("{v:?}"));
        }
        None if !r.passed() => out.note = Some(r.summary()),
        None => {}
    }
    out
}

/// proptest at its defaults (`Config::default()`), but for the case
/// budget, a seeded ChaCha generator and no failure persistence.
pub fn proptest<S>(spec: RunSpec, s: S, f: impl Fn(S::Value) -> PropertyResult) -> Outcome
where
    S: Strategy,
    S::Value: Debug,
{
    let config = PtConfig { cases: spec.cases, failure_persistence: None, ..PtConfig::default() };
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&spec.seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
    let started = Instant::now();
    let (inputs, first) = (Cell::new(0u64), Cell::new(None::<(u64, Duration)>));
    let result = runner.run(&s, |v| {
        // Inputs before the first failure are generated ones; after it,
        // proptest is shrinking.
        if first.get().is_none() {
            inputs.set(inputs.get() + 1);
        }
        let verdict = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(v)));
        let failed = match verdict {
            Ok(PropertyResult::Pass | PropertyResult::Discard) => return Ok(()),
            Ok(PropertyResult::Fail(m)) => m,
            Err(_) => "panicked".to_string(),
        };
        if first.get().is_none() {
            first.set(Some((inputs.get(), started.elapsed())));
        }
        Err(TestCaseError::fail(failed))
    });
    let mut out = Outcome { elapsed: started.elapsed(), ..Outcome::default() };
    match result {
        Ok(()) => {}
        Err(TestError::Fail(_, v)) => {
            out.found = true;
            let (n, t) = first.get().unwrap_or((inputs.get(), out.elapsed));
            out.inputs = n;
            out.time_to_failure = Some(t);
            out.shrunk = Some(format!("{v:?}"));
        }
        Err(TestError::Abort(why)) => out.note = Some(format!("aborted: {why}")),
    }
    out
}

/// A peer: proptest with strategy `s`, or quickcheck drawing from the same
/// strategy (see [`quickcheck`]).
pub fn peer<S>(tool: Tool, spec: RunSpec, s: S, f: impl Fn(S::Value) -> PropertyResult + 'static) -> Outcome
where
    S: Strategy + 'static,
    S::Value: Debug + Clone + quickcheck::Arbitrary,
{
    match tool {
        Tool::Quickcheck => quickcheck(spec, s, f),
        Tool::Proptest => proptest(spec, s, f),
        Tool::Speccheck | Tool::Hegeltest => {
            panic!("`peer` runs proptest or quickcheck; speccheck and hegeltest have their own adapters")
        }
    }
}

/// quickcheck's own runner (`QuickCheck::quicktest`, a generator of size
/// 100 seeded per run) at its defaults but for the case budget. Inputs are
/// drawn from the proptest strategy `s` (the same distribution as the
/// other tools: ETNA's), by one proptest `TestRunner` per run; quickcheck
/// shrinks them with the value type's own `Arbitrary::shrink`, as a
/// quickcheck user's property over that type would.
pub fn quickcheck<S>(spec: RunSpec, s: S, f: impl Fn(S::Value) -> PropertyResult + 'static) -> Outcome
where
    S: Strategy + 'static,
    S::Value: Debug + Clone + quickcheck::Arbitrary,
{
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&spec.seed.to_le_bytes());
    seed[8] = 0x9c; // not proptest's own stream for this seed
    let config = PtConfig { failure_persistence: None, ..PtConfig::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
    let started = Instant::now();
    QC.with(|qc| {
        *qc.borrow_mut() = Some(QcRun {
            sample: Box::new(move || Box::new(s.new_tree(&mut runner).expect("the strategy makes a value").current())),
            property: Box::new(move |v: Box<dyn Any>| {
                let v = *v.downcast::<S::Value>().expect("one value type per run");
                matches!(
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(v))),
                    Ok(PropertyResult::Pass | PropertyResult::Discard)
                )
            }),
            inputs: 0,
            first: None,
            last_failure: None,
            started,
        })
    });
    let result = quickcheck::QuickCheck::new()
        .rng(quickcheck::Gen::from_size_and_seed(100, spec.seed))
        .tests(u64::from(spec.cases))
        .max_tests(u64::from(spec.cases))
        .quicktest(qc_property::<S::Value> as fn(QcInput<S::Value>) -> quickcheck::TestResult);
    let run = QC.with(|qc| qc.borrow_mut().take()).expect("the run's state");
    let mut out = Outcome { elapsed: started.elapsed(), ..Outcome::default() };
    if result.is_err() {
        let (n, t) = run.first.unwrap_or((run.inputs, out.elapsed));
        out.found = true;
        out.inputs = n;
        out.time_to_failure = Some(t);
        out.shrunk = run.last_failure.and_then(|v| v.downcast::<S::Value>().ok()).map(|v| format!("{v:?}"));
    }
    out
}

/// One quickcheck run's state: `quicktest` takes a function pointer, so
/// the sampler and the property live here for the run.
struct QcRun {
    sample: Box<dyn FnMut() -> Box<dyn Any>>,
    property: Box<dyn Fn(Box<dyn Any>) -> bool>,
    /// Inputs run so far, up to the first failure.
    inputs: u64,
    /// Inputs and time to the first failure.
    first: Option<(u64, Duration)>,
    /// The last failing input: after shrinking, quickcheck's counterexample.
    last_failure: Option<Box<dyn Any>>,
    started: Instant,
}

thread_local! {
    static QC: RefCell<Option<QcRun>> = const { RefCell::new(None) };
}

/// A value drawn from the run's strategy, shrunk by its type's `Arbitrary`.
#[derive(Clone, Debug)]
pub struct QcInput<T>(T);

impl<T: quickcheck::Arbitrary + Debug + Clone> quickcheck::Arbitrary for QcInput<T> {
    fn arbitrary(_: &mut quickcheck::Gen) -> Self {
        let v = QC.with(|qc| (qc.borrow_mut().as_mut().expect("a quickcheck run").sample)());
        QcInput(*v.downcast::<T>().expect("one value type per run"))
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(QcInput))
    }
}

fn qc_property<T: Clone + 'static>(x: QcInput<T>) -> quickcheck::TestResult {
    let kept = x.0.clone();
    // Taken out while the property runs: it may draw nothing, but a
    // panicking property must not leave the state borrowed.
    let Some(mut run) = QC.with(|qc| qc.borrow_mut().take()) else {
        return quickcheck::TestResult::error("no quickcheck run");
    };
    let passed = (run.property)(Box::new(x.0));
    if run.first.is_none() {
        run.inputs += 1;
        if !passed {
            run.first = Some((run.inputs, run.started.elapsed()));
        }
    }
    if !passed {
        run.last_failure = Some(Box::new(kept));
    }
    QC.with(|qc| *qc.borrow_mut() = Some(run));
    quickcheck::TestResult::from_bool(passed)
}

/// hegeltest (Hypothesis's engine, library `hegel`) through its own runner
/// (`Hegel::new(..).run()`, what `#[hegel::test]` expands to) at its
/// default settings but for the case budget (`test_cases`), the seed, no
/// example database and no printing. `draw` is the input as a hegel user
/// writes it: the same bounds as the other tools' generators, drawn from
/// hegeltest's own distributions (as each other tool draws from its own).
/// hegeltest shrinks a failure and replays the shrunk input last, so the
/// last failing input is its counterexample.
pub fn hegeltest<T: Debug + Clone + 'static>(
    spec: RunSpec,
    draw: impl Fn(&hegel::TestCase) -> T + 'static,
    f: impl Fn(T) -> PropertyResult + 'static,
) -> Outcome {
    use std::rc::Rc;
    let settings = hegel::Settings::new()
        .test_cases(u64::from(spec.cases))
        .seed(Some(spec.seed))
        .database(hegel::Database::Disabled)
        .verbosity(hegel::Verbosity::Quiet)
        .print_blob(false);
    let started = Instant::now();
    let state = Rc::new(HgRun::<T> { inputs: Cell::new(0), first: Cell::new(None), last_failure: RefCell::new(None) });
    let run = state.clone();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        hegel::Hegel::new(move |tc: hegel::TestCase| {
            let v = draw(&tc);
            if run.first.get().is_none() {
                run.inputs.set(run.inputs.get() + 1);
            }
            let kept = v.clone();
            let failed = !matches!(
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(v))),
                Ok(PropertyResult::Pass | PropertyResult::Discard)
            );
            if failed {
                if run.first.get().is_none() {
                    run.first.set(Some((run.inputs.get(), started.elapsed())));
                }
                *run.last_failure.borrow_mut() = Some(kept);
                panic!("property failed");
            }
        })
        .settings(settings)
        .run()
    }));
    let mut out = Outcome { elapsed: started.elapsed(), ..Outcome::default() };
    match (result, state.first.get()) {
        (Ok(()), _) => {}
        (Err(_), Some((n, t))) => {
            out.found = true;
            out.inputs = n;
            out.time_to_failure = Some(t);
            out.shrunk = state.last_failure.borrow().as_ref().map(|v| format!("{v:?}"));
        }
        // Not the property: a health check or the run's own error.
        (Err(payload), None) => {
            out.note = Some(
                payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "hegeltest stopped with a non-string panic".into()),
            )
        }
    }
    out
}

/// One hegeltest run's counters.
struct HgRun<T> {
    /// Inputs run so far, up to the first failure.
    inputs: Cell<u64>,
    /// Inputs and time to the first failure.
    first: Cell<Option<(u64, Duration)>>,
    /// The last failing input: after shrinking, hegeltest's counterexample.
    last_failure: RefCell<Option<T>>,
}

/// hegeltest's generators for the workloads' inputs, as a hegel user
/// writes them.
pub mod hg {
    pub use hegel::TestCase;
    use hegel::generators as gs;

    /// Bytes, `lo..=hi` of them.
    pub fn bytes(tc: &TestCase, lo: usize, hi: usize) -> Vec<u8> {
        tc.draw(gs::vecs(gs::integers::<u8>()).min_size(lo).max_size(hi))
    }

    /// `lo..=hi` byte strings of `ilo..=ihi` bytes each.
    pub fn byte_chunks(tc: &TestCase, lo: usize, hi: usize, ilo: usize, ihi: usize) -> Vec<Vec<u8>> {
        tc.draw(gs::vecs(gs::vecs(gs::integers::<u8>()).min_size(ilo).max_size(ihi)).min_size(lo).max_size(hi))
    }

    /// Any value of an integer type.
    pub fn any<T: hegel::generators::Integer + std::fmt::Debug + Send + Sync + 'static>(tc: &TestCase) -> T {
        tc.draw(gs::integers::<T>())
    }

    /// An integer in `lo..=hi`.
    pub fn int<T: hegel::generators::Integer + std::fmt::Debug + Send + Sync + 'static>(
        tc: &TestCase,
        lo: T,
        hi: T,
    ) -> T {
        tc.draw(gs::integers::<T>().min_value(lo).max_value(hi))
    }

    /// One of `pool`.
    pub fn pick<T: Clone + Send + Sync + std::fmt::Debug + 'static>(tc: &TestCase, pool: &'static [T]) -> T {
        tc.draw(gs::sampled_from(pool))
    }

    /// `lo..=hi` elements of `pool`.
    pub fn vec_of<T: Clone + Send + Sync + std::fmt::Debug + 'static>(
        tc: &TestCase,
        pool: &'static [T],
        lo: usize,
        hi: usize,
    ) -> Vec<T> {
        tc.draw(gs::vecs(gs::sampled_from(pool)).min_size(lo).max_size(hi))
    }

    /// Any string (hegeltest's `text()`).
    pub fn text(tc: &TestCase) -> String {
        tc.draw(gs::text())
    }

    /// A boolean.
    pub fn bool(tc: &TestCase) -> bool {
        tc.draw(gs::booleans())
    }
}
