//! What every benchmark shares: the tools, how each finds and shrinks a
//! counterexample, and the outcome of one check.

use std::fmt::Debug;
use std::time::{Duration, Instant};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use quickcheck::{Arbitrary as QcArbitrary, Gen, QuickCheck, TestResult};
use speccheck::{Config, ExplainMode, Generator, Property, RunVerdict, Tail, TestCase, Verbosity};

/// Passing cases a tool searches before it gives up, the same for every
/// tool (the paper's setting; every other setting is the tool's default).
pub const CASES: u32 = 1000;

/// How one input fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The property held.
    Pass,
    /// The property failed.
    Fail,
    /// The precondition rejected the input.
    Discard,
}

/// A counterexample's final size and the time to find and shrink it.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub size: f64,
    pub time: Duration,
}

/// The tools compared (and ablations of speccheck).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// speccheck as a user runs it: every default (`explain =
    /// "generalize"`: reduction, formulas and the multi-bug search; hang
    /// detection on).
    SpeccheckDefaults,
    /// speccheck with `explain = "reduce"`: choice-sequence shrinking
    /// alternated with SmartCheck reduction, no hang detection (as the
    /// peers have none). The row the goal is measured on.
    Speccheck,
    /// speccheck's choice-sequence shrinker alone (`explain = "off"`).
    ShrinkOnly,
    /// SmartCheck reduction alone (`shrink = false`, `explain = "reduce"`).
    ReduceOnly,
    /// proptest: its `TestRunner` with its default configuration.
    Proptest,
    /// quickcheck: its own runner (`QuickCheck::quicktest`) with its
    /// defaults, shrinking with the benchmark's `Arbitrary::shrink`.
    Quickcheck,
    /// hegeltest (Hypothesis's engine): its own runner at its defaults, no
    /// example database, drawing with a composite of draws that mirrors
    /// the benchmark's strategy.
    Hegeltest,
    /// No shrinking: the first counterexample quickcheck's generator finds.
    NoShrinking,
}

pub const TOOLS: [Tool; 8] = [
    Tool::SpeccheckDefaults,
    Tool::Speccheck,
    Tool::ShrinkOnly,
    Tool::ReduceOnly,
    Tool::Proptest,
    Tool::Quickcheck,
    Tool::Hegeltest,
    Tool::NoShrinking,
];

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::SpeccheckDefaults => "speccheck (defaults: generalize, hang detection)",
            Tool::Speccheck => "speccheck (explain = reduce)",
            Tool::ShrinkOnly => "speccheck shrinker only",
            Tool::ReduceOnly => "speccheck SmartCheck only",
            Tool::Proptest => "proptest (defaults)",
            Tool::Quickcheck => "quickcheck (its runner, defaults)",
            Tool::Hegeltest => "hegeltest (its runner, defaults)",
            Tool::NoShrinking => "none (no shrinking)",
        }
    }

    pub fn is_speccheck(self) -> bool {
        matches!(self, Tool::SpeccheckDefaults | Tool::Speccheck | Tool::ShrinkOnly | Tool::ReduceOnly)
    }
}

/// Times `f`, which finds (and shrinks) a counterexample and sizes it.
pub fn timed(f: impl FnOnce() -> Option<usize>) -> Option<Sample> {
    let start = Instant::now();
    let size = f()?;
    Some(Sample { size: size as f64, time: start.elapsed() })
}

/// The settings of a speccheck run for `tool`: every tool searches up to
/// [`CASES`] passing cases; the rest is the tool's default or the ablation.
pub fn speccheck_config(tool: Tool, seed: u64, explain: Option<ExplainMode>) -> Config {
    let base = Config { cases: CASES, seed: Some(seed), database: None, ..Config::named("smartcheck-bench") };
    let config = match tool {
        Tool::SpeccheckDefaults => base,
        Tool::ShrinkOnly => Config { timeout: None, explain: ExplainMode::Off, ..base },
        Tool::ReduceOnly => Config { timeout: None, shrink: false, explain: ExplainMode::Reduce, ..base },
        _ => Config { timeout: None, explain: ExplainMode::Reduce, ..base },
    };
    Config { explain: explain.unwrap_or(config.explain), verbosity: Verbosity::Quiet, ..config }
}

/// Finds and shrinks a counterexample with speccheck; returns it.
pub fn speccheck<G>(generator: G, config: Config, check: fn(&G::Value) -> Check) -> Option<G::Value>
where
    G: Generator + Clone + 'static,
    G::Value: Debug + 'static,
{
    // The verdict is returned, as proptest's and quickcheck's are (a
    // rejection by `assume!` would unwind, which they do not).
    let report = Property::new(generator.clone()).config(config).explainer(speccheck::reduce::explainer()).run(
        move |v: G::Value| match check(&v) {
            Check::Pass => speccheck::TestResult::Pass,
            Check::Fail => speccheck::TestResult::Fail("property failed".into()),
            Check::Discard => speccheck::TestResult::Discard("precondition".into()),
        },
    );
    let RunVerdict::Failed(c) = report.verdict else { return None };
    let mut tc = TestCase::replay(c.choices.0.clone(), Tail::Simplest);
    Some(generator.generate(&mut tc))
}

/// One value of `strategy` from `seed` (the benchmark's common sampler:
/// every tool draws its inputs from the same strategy, so sizes and times
/// compare the tools' searching and shrinking, not their distributions).
pub fn sample<S: Strategy>(strategy: &S, seed: u64) -> S::Value {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..].copy_from_slice(&(seed ^ 0x9e37_79b9_7f4a_7c15).rotate_left(17).to_le_bytes());
    let mut runner = TestRunner::new_with_rng(PtConfig::default(), TestRng::from_seed(RngAlgorithm::XorShift, &bytes));
    strategy.new_tree(&mut runner).expect("the strategy makes a value").current()
}

thread_local! {
    /// Strategies built once per thread, by the function that makes them
    /// (proptest's recursive strategies are neither `Send` nor `Sync`).
    static STRATEGIES: std::cell::RefCell<std::collections::HashMap<usize, Box<dyn std::any::Any>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// One value of the strategy `make` builds, from `seed` (see [`sample`]).
pub fn sample_from<S: Strategy + 'static>(make: fn() -> S, seed: u64) -> S::Value {
    STRATEGIES.with(|m| {
        let mut m = m.borrow_mut();
        let s = m.entry(make as usize).or_insert_with(|| Box::new(make()));
        sample(s.downcast_ref::<S>().expect("one strategy per function"), seed)
    })
}

/// speccheck's generator for the values of the strategy `make` builds:
/// sampled from it, recorded as the value type's derived structure
/// (`gens::represent`), so speccheck shrinks and reduces them as it does its
/// own values.
pub fn sampled<S>(make: fn() -> S) -> speccheck::BoxedGenerator<S::Value>
where
    S: Strategy + 'static,
    S::Value: speccheck::Arbitrary,
{
    let source =
        speccheck::gens::from_fn(move |tc| sample_from(make, tc.draw(&speccheck::gens::uniform(0..=u64::MAX))));
    speccheck::gens::represent(source, speccheck::any::<S::Value>()).boxed()
}

/// A seed for [`sample`] from quickcheck's generator (three draws mixed:
/// one in ten of its `u64`s is a "problem value" such as 0).
pub fn qc_seed(g: &mut Gen) -> u64 {
    let (a, b, c) = (u64::arbitrary(g), u64::arbitrary(g), u64::arbitrary(g));
    a ^ b.rotate_left(21) ^ c.rotate_left(42).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Finds and shrinks a counterexample with proptest, at its defaults
/// (but no persistence file); returns it.
pub fn proptest<S>(strategy: S, seed: u64, check: fn(&S::Value) -> Check) -> Option<S::Value>
where
    S: Strategy,
    S::Value: Clone + Debug,
{
    // Defaults but the search budget every tool gets: `cases` only sets
    // how many cases to try; proptest's shrink budget stays its default
    // (`max_shrink_iters` is 4 × cases unless set: 1024 for its default 256
    // cases, set here so that raising `cases` does not raise it).
    let config = PtConfig { cases: CASES, max_shrink_iters: 1024, failure_persistence: None, ..PtConfig::default() };
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
    match runner.run(&strategy, |v| match check(&v) {
        Check::Pass => Ok(()),
        Check::Fail => Err(TestCaseError::fail("property failed")),
        Check::Discard => Err(TestCaseError::reject("precondition")),
    }) {
        Err(TestError::Fail(_, v)) => Some(v),
        _ => None,
    }
}

/// A benchmark input as quickcheck sees it: an `Arbitrary` newtype that can
/// say how it fares.
pub trait QcSubject: QcArbitrary + Debug {
    /// How the input fares.
    fn check(&self) -> Check;
}

thread_local! {
    /// The last input quickcheck's runner saw fail: after shrinking, its
    /// final counterexample.
    static LAST_FAILURE: std::cell::RefCell<Option<Box<dyn std::any::Any>>> = const { std::cell::RefCell::new(None) };
}

fn qc_property<T: QcSubject + 'static>(x: T) -> TestResult {
    match x.check() {
        Check::Pass => TestResult::passed(),
        Check::Discard => TestResult::discard(),
        Check::Fail => {
            LAST_FAILURE.with(|l| *l.borrow_mut() = Some(Box::new(x)));
            TestResult::failed()
        }
    }
}

/// Finds a counterexample with quickcheck's own runner (`quicktest`, its
/// defaults: a generator of size 100, 10,000 tests at most) and, with
/// `shrink`, shrinks it as the runner does; without, the first failing
/// input of the same search.
pub fn quickcheck<T: QcSubject + 'static>(seed: u64, shrink: bool) -> Option<T> {
    if !shrink {
        let mut g = Gen::from_size_and_seed(100, seed);
        return (0..10_000).map(|_| T::arbitrary(&mut g)).find(|v| v.check() == Check::Fail);
    }
    LAST_FAILURE.with(|l| l.borrow_mut().take());
    let result = QuickCheck::new()
        .rng(Gen::from_size_and_seed(100, seed))
        .tests(u64::from(CASES))
        .quicktest(qc_property::<T> as fn(T) -> TestResult);
    match result {
        Err(_) => LAST_FAILURE.with(|l| l.borrow_mut().take()).and_then(|b| b.downcast::<T>().ok()).map(|b| *b),
        Ok(_) => None,
    }
}

/// A random number below `n` from quickcheck's generator.
pub fn qc_below(g: &mut Gen, n: usize) -> usize {
    if n == 0 { 0 } else { (u64::arbitrary(g) % n as u64) as usize }
}

/// Finds and shrinks a counterexample with hegeltest (its runner at its
/// defaults, the search budget every tool gets, no example database),
/// drawing each input with `draw`; returns it. A rejected input is
/// `tc.reject()`, hegeltest's only way to discard. A run that stops with
/// an error of its own (a failed health check, say) finds nothing.
pub fn hegel<T: 'static>(
    seed: u64,
    draw: impl Fn(&speccheck_bench::hegel_peer::TestCase) -> T,
    check: fn(&T) -> Check,
) -> Option<T> {
    use speccheck_bench::hegel_peer;
    let found = hegel_peer::find(hegel_peer::settings(u64::from(CASES), seed), |tc| {
        let v = draw(tc);
        match check(&v) {
            Check::Pass => Ok(()),
            Check::Discard => tc.reject(),
            Check::Fail => Err(v),
        }
    });
    match found {
        Ok(v) => v,
        Err(e) => {
            HEGEL_ERRORS.with(|m| *m.borrow_mut().entry(e.lines().next().unwrap_or("").to_string()).or_insert(0) += 1);
            None
        }
    }
}

thread_local! {
    /// hegeltest's own run errors, by first line, with their counts: the
    /// table says why a run found nothing.
    pub static HEGEL_ERRORS: std::cell::RefCell<std::collections::BTreeMap<String, usize>> =
        const { std::cell::RefCell::new(std::collections::BTreeMap::new()) };
}

/// A vector of length uniform in `0..max_len` for hegeltest (see
/// [`speccheck_bench::hegel_peer::vec_uniform_len`]).
pub fn hg_vec<T, G>(tc: &speccheck_bench::hegel_peer::TestCase, max_len: usize, element: G) -> Vec<T>
where
    G: hegel::Generator<T> + hegel::PrintableGenerator<T>,
    T: Debug + 'static,
{
    speccheck_bench::hegel_peer::vec_uniform_len(tc, max_len, element)
}

/// A choice among `n` alternatives for hegeltest (it shrinks towards 0).
pub fn hg_below(tc: &speccheck_bench::hegel_peer::TestCase, n: usize) -> usize {
    tc.draw(speccheck_bench::hegel_peer::gs::integers::<usize>().max_value(n - 1))
}
