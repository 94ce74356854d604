//! What every benchmark shares: the tools, how each finds and shrinks a
//! counterexample, and the outcome of one check.

use std::fmt::Debug;
use std::time::{Duration, Instant};

use proptest::strategy::Strategy;
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use quickcheck::{Arbitrary as QcArbitrary, Gen};
use speccheck::{Config, ExplainMode, Generator, Property, RunVerdict, Tail, TestCase, Verbosity};

/// Tests per run (passing cases before a tool gives up), for every tool.
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
    /// speccheck as shipped: choice-sequence shrinking alternated with
    /// SmartCheck reduction (`explain = "reduce"`).
    Speccheck,
    /// speccheck's choice-sequence shrinker alone (`explain = "off"`).
    ShrinkOnly,
    /// SmartCheck reduction alone (`shrink = false`, `explain = "reduce"`).
    ReduceOnly,
    /// proptest: its `TestRunner` and `ValueTree` shrinking.
    Proptest,
    /// quickcheck: `Arbitrary::shrink` (genericShrink-style, written by
    /// hand), driven the way its runner drives it.
    Quickcheck,
    /// No shrinking: the counterexample as quickcheck's generator found it.
    NoShrinking,
}

pub const TOOLS: [Tool; 6] =
    [Tool::Speccheck, Tool::ShrinkOnly, Tool::ReduceOnly, Tool::Proptest, Tool::Quickcheck, Tool::NoShrinking];

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::Speccheck => "speccheck (shrink + reduce)",
            Tool::ShrinkOnly => "speccheck shrinker only",
            Tool::ReduceOnly => "speccheck SmartCheck only",
            Tool::Proptest => "proptest",
            Tool::Quickcheck => "quickcheck",
            Tool::NoShrinking => "none (quickcheck, no shrinking)",
        }
    }

    pub fn is_speccheck(self) -> bool {
        matches!(self, Tool::Speccheck | Tool::ShrinkOnly | Tool::ReduceOnly)
    }
}

/// Times `f`, which finds (and shrinks) a counterexample and sizes it.
pub fn timed(f: impl FnOnce() -> Option<usize>) -> Option<Sample> {
    let start = Instant::now();
    let size = f()?;
    Some(Sample { size: size as f64, time: start.elapsed() })
}

/// The settings of a speccheck run for `tool`.
pub fn speccheck_config(tool: Tool, seed: u64, explain: Option<ExplainMode>) -> Config {
    let (shrink, mode) = match tool {
        Tool::ShrinkOnly => (true, ExplainMode::Off),
        Tool::ReduceOnly => (false, ExplainMode::Reduce),
        _ => (true, ExplainMode::Reduce),
    };
    Config {
        cases: CASES,
        seed: Some(seed),
        database: None,
        timeout: None,
        shrink,
        explain: explain.unwrap_or(mode),
        max_discard_ratio: 200,
        verbosity: Verbosity::Quiet,
        ..Config::named("smartcheck-bench")
    }
}

/// Finds and shrinks a counterexample with speccheck; returns it.
pub fn speccheck<G>(generator: G, config: Config, check: fn(&G::Value) -> Check) -> Option<G::Value>
where
    G: Generator + Clone + 'static,
    G::Value: Debug + 'static,
{
    let report = Property::new(generator.clone()).config(config).explainer(speccheck::reduce::explainer()).run(
        move |v: G::Value| match check(&v) {
            Check::Pass => true,
            Check::Fail => false,
            Check::Discard => speccheck::reject("precondition"),
        },
    );
    let RunVerdict::Failed(c) = report.verdict else { return None };
    let mut tc = TestCase::replay(c.choices.0.clone(), Tail::Simplest);
    Some(generator.generate(&mut tc))
}

/// Finds and shrinks a counterexample with proptest; returns it.
pub fn proptest<S>(strategy: S, seed: u64, check: fn(&S::Value) -> Check) -> Option<S::Value>
where
    S: Strategy,
    S::Value: Clone + Debug,
{
    let config = PtConfig {
        cases: CASES,
        failure_persistence: None,
        max_global_rejects: CASES * 200,
        max_local_rejects: 1 << 20,
        ..PtConfig::default()
    };
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

/// Finds a counterexample with quickcheck's generator and (with `shrink`)
/// shrinks it as quickcheck's runner does: take the first shrink candidate
/// that still fails (a discarded one does not), repeat until none does.
/// The size grows from 1 to 100 over the tests, as in Haskell QuickCheck
/// (the paper's tool); quickcheck 1.x would fix it at 100.
pub fn quickcheck<T: QcArbitrary>(seed: u64, shrink: bool, check: fn(&T) -> Check) -> Option<T> {
    let mut passed = 0u32;
    let mut tries = 0u64;
    while passed < CASES && tries < u64::from(CASES) * 200 {
        let size = (tries as usize).clamp(1, 100);
        let mut g = Gen::from_size_and_seed(size, seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(tries));
        tries += 1;
        let v = T::arbitrary(&mut g);
        match check(&v) {
            Check::Pass => passed += 1,
            Check::Discard => {}
            Check::Fail => return Some(if shrink { shrink_loop(v, check) } else { v }),
        }
    }
    None
}

fn shrink_loop<T: QcArbitrary>(mut v: T, check: fn(&T) -> Check) -> T {
    'outer: loop {
        for c in v.shrink() {
            if check(&c) == Check::Fail {
                v = c;
                continue 'outer;
            }
        }
        return v;
    }
}

/// A random number below `n` from quickcheck's generator.
pub fn qc_below(g: &mut Gen, n: usize) -> usize {
    if n == 0 { 0 } else { (u64::arbitrary(g) % n as u64) as usize }
}

/// `n` values from `f` with a length below `max` (for hand-written
/// quickcheck generators that bound their lists).
pub fn qc_vec<T>(g: &mut Gen, max: usize, mut f: impl FnMut(&mut Gen) -> T) -> Vec<T> {
    let n = qc_below(g, max + 1);
    std::iter::repeat_with(|| f(g)).take(n).collect()
}
