//! Runs one ETNA property once, with one tool and one seed, and says what
//! happened in the same terms for every tool: whether the bug was found,
//! after how many inputs and how long, and the shrunk counterexample.

use std::cell::Cell;
use std::fmt::Debug;
use std::time::{Duration, Instant};

use proptest::strategy::Strategy;
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use speccheck::gens::Generator;
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
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::Speccheck => "speccheck",
            Tool::Proptest => "proptest",
        }
    }
}

/// One run's settings: the same for both tools.
#[derive(Clone, Copy, Debug)]
pub struct RunSpec {
    pub seed: u64,
    /// Most inputs tried before the run gives up on finding the bug.
    pub cases: u32,
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
    let config = Config { cases: spec.cases, seed: Some(spec.seed), database: None, ..Config::named("etna") };
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
