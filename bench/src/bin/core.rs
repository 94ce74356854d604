//! Core engine benchmark (issue 2): throughput of speccheck, proptest,
//! quickcheck and hegeltest (Hypothesis's engine) on the same three properties, in one run, and the final
//! shrunk size of a failing variant of each.
//!
//! ```text
//! cargo run --release -p speccheck-bench --bin core -- [--cases N] [--rounds R] [--seeds S] [--out FILE]
//! ```

use std::time::{Duration, Instant};

use clap::Parser;
use proptest::prelude::{Just, Strategy, any};
use proptest::test_runner::{Config as PtConfig, TestCaseError, TestRunner};
use proptest::{prop_assert, prop_oneof};
use quickcheck::{Arbitrary as QcArbitrary, Gen, QuickCheck, TestResult};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use speccheck::{Config, Generator, Property, RunVerdict, Tail, TestCase, gens};
use speccheck_bench::hegel_peer::{self, gs};
use speccheck_bench::{Summary, Table, machine};

#[derive(Parser, Debug)]
struct Args {
    /// Cases per throughput measurement.
    #[arg(long, default_value_t = 20_000)]
    cases: u32,
    /// Throughput measurements per tool and property.
    #[arg(long, default_value_t = 10)]
    rounds: usize,
    /// Failing runs (seeds) per tool and property for the shrink sizes.
    #[arg(long, default_value_t = 100)]
    seeds: u64,
    /// Where to write the markdown results.
    #[arg(long)]
    out: Option<String>,
}

// ----- the code under test ---------------------------------------------------

/// A small arithmetic language: the derived recursive type of the benchmark.
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
enum Expr {
    Num(i16),
    Var,
    Neg(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
}

fn eval(e: &Expr, x: i64) -> i64 {
    match e {
        Expr::Num(n) => i64::from(*n),
        Expr::Var => x,
        Expr::Neg(a) => eval(a, x).wrapping_neg(),
        Expr::Add(a, b) => eval(a, x).wrapping_add(eval(b, x)),
        Expr::Mul(a, b) => eval(a, x).wrapping_mul(eval(b, x)),
    }
}

/// Constant folding; `buggy` folds `e * 0` to `e` (the planted bug).
fn simplify(e: &Expr, buggy: bool) -> Expr {
    match e {
        Expr::Neg(a) => match simplify(a, buggy) {
            Expr::Num(n) if n != i16::MIN => Expr::Num(-n),
            s => Expr::Neg(Box::new(s)),
        },
        Expr::Add(a, b) => match (simplify(a, buggy), simplify(b, buggy)) {
            (Expr::Num(0), s) | (s, Expr::Num(0)) => s,
            (sa, sb) => Expr::Add(Box::new(sa), Box::new(sb)),
        },
        Expr::Mul(a, b) => match (simplify(a, buggy), simplify(b, buggy)) {
            (s, Expr::Num(0)) if buggy => s,
            (_, Expr::Num(0)) | (Expr::Num(0), _) => Expr::Num(0),
            (Expr::Num(1), s) | (s, Expr::Num(1)) => s,
            (sa, sb) => Expr::Mul(Box::new(sa), Box::new(sb)),
        },
        other => other.clone(),
    }
}

fn size(e: &Expr) -> usize {
    match e {
        Expr::Num(_) | Expr::Var => 1,
        Expr::Neg(a) => 1 + size(a),
        Expr::Add(a, b) | Expr::Mul(a, b) => 1 + size(a) + size(b),
    }
}

/// Inserts `x` keeping `xs` sorted; `buggy` never inserts before the head.
fn sorted_insert(xs: &mut Vec<u8>, x: u8, buggy: bool) {
    let skip = usize::from(buggy && !xs.is_empty());
    let at = xs.iter().skip(skip).position(|&y| y >= x).map_or(xs.len(), |p| p + skip);
    xs.insert(at, x);
}

fn prop_reverse(xs: &[i32], buggy: bool) -> bool {
    let mut r = xs.to_vec();
    r.reverse();
    if !buggy {
        r.reverse();
    }
    r == xs
}

fn prop_insert(xs: &[u8], x: u8, buggy: bool) -> bool {
    let mut v = xs.to_vec();
    v.sort_unstable();
    sorted_insert(&mut v, x, buggy);
    v.windows(2).all(|w| w[0] <= w[1])
}

fn prop_expr(e: &Expr, buggy: bool) -> bool {
    (-2..=2).all(|x| eval(&simplify(e, buggy), x) == eval(e, x))
}

// ----- the three tools --------------------------------------------------------

fn sc_config(cases: u32, seed: u64) -> Config {
    Config { cases, seed: Some(seed), database: None, ..Config::named("bench") }
}

fn sc_vec_i32() -> impl speccheck::Generator<Value = Vec<i32>> + Clone {
    gens::vec(speccheck::any::<i32>(), 0..100)
}

fn sc_insert_input() -> impl speccheck::Generator<Value = (Vec<u8>, u8)> + Clone {
    (gens::vec(speccheck::any::<u8>(), 0..100), speccheck::any::<u8>())
}

fn pt_expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![any::<i16>().prop_map(Expr::Num), Just(Expr::Var)];
    // Depth and size chosen so the mean tree size is close to the derived
    // generator's (the `mean input` column): a like-for-like comparison.
    leaf.prop_recursive(4, 12, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| Expr::Neg(Box::new(a))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| Expr::Mul(Box::new(a), Box::new(b))),
        ]
    })
}

fn pt_runner(cases: u32, seed: u64) -> TestRunner {
    let config = PtConfig { cases, failure_persistence: None, ..PtConfig::default() };
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    TestRunner::new_with_rng(
        config,
        proptest::test_runner::TestRng::from_seed(proptest::test_runner::RngAlgorithm::ChaCha, &bytes),
    )
}

/// QuickCheck's expression generator as its users write one: size-halving
/// recursion, with a shrinker in QuickCheck's style (children, then
/// shrunk children).
#[derive(Clone, Debug)]
struct QcExpr(Expr);

fn qc_expr(g: &mut Gen, size: usize) -> Expr {
    let leaf = |g: &mut Gen| if bool::arbitrary(g) { Expr::Num(i16::arbitrary(g)) } else { Expr::Var };
    if size <= 1 {
        return leaf(g);
    }
    match u8::arbitrary(g) % 5 {
        0 | 1 => leaf(g),
        2 => Expr::Neg(Box::new(qc_expr(g, size / 2))),
        3 => Expr::Add(Box::new(qc_expr(g, size / 2)), Box::new(qc_expr(g, size / 2))),
        _ => Expr::Mul(Box::new(qc_expr(g, size / 2)), Box::new(qc_expr(g, size / 2))),
    }
}

impl QcArbitrary for QcExpr {
    fn arbitrary(g: &mut Gen) -> Self {
        let size = g.size();
        QcExpr(qc_expr(g, size))
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let mut out: Vec<Expr> = Vec::new();
        match &self.0 {
            Expr::Num(n) => out.extend(n.shrink().map(Expr::Num)),
            Expr::Var => out.push(Expr::Num(0)),
            Expr::Neg(a) => {
                out.push((**a).clone());
                out.extend(QcExpr((**a).clone()).shrink().map(|s| Expr::Neg(Box::new(s.0))));
            }
            Expr::Add(a, b) | Expr::Mul(a, b) => {
                let mk = |x: Expr, y: Expr| match &self.0 {
                    Expr::Add(..) => Expr::Add(Box::new(x), Box::new(y)),
                    _ => Expr::Mul(Box::new(x), Box::new(y)),
                };
                out.push((**a).clone());
                out.push((**b).clone());
                out.extend(QcExpr((**a).clone()).shrink().map(|s| mk(s.0, (**b).clone())));
                out.extend(QcExpr((**b).clone()).shrink().map(|s| mk((**a).clone(), s.0)));
            }
        }
        Box::new(out.into_iter().map(QcExpr))
    }
}

fn qc(cases: u32, seed: u64) -> QuickCheck {
    // Its runner at its defaults (a generator of size 100, as
    // `QuickCheck::new()` makes), seeded, and the run's case count.
    QuickCheck::new().rng(Gen::from_size_and_seed(100, seed)).tests(u64::from(cases)).max_tests(u64::from(cases) * 10)
}

/// hegeltest's expression generator as its users write one (a composite
/// of draws, as `@composite` in Hypothesis): the same size-halving
/// recursion as quickcheck's, every choice drawn from the test case so its
/// engine shrinks them.
fn hg_expr(tc: &hegel_peer::TestCase, size: usize) -> Expr {
    let leaf = |tc: &hegel_peer::TestCase| {
        if tc.draw(gs::booleans()) { Expr::Num(tc.draw(gs::integers::<i16>())) } else { Expr::Var }
    };
    if size <= 1 {
        return leaf(tc);
    }
    match tc.draw(gs::integers::<u8>().max_value(4)) {
        0 | 1 => leaf(tc),
        2 => Expr::Neg(Box::new(hg_expr(tc, size / 2))),
        3 => Expr::Add(Box::new(hg_expr(tc, size / 2)), Box::new(hg_expr(tc, size / 2))),
        _ => Expr::Mul(Box::new(hg_expr(tc, size / 2)), Box::new(hg_expr(tc, size / 2))),
    }
}

fn hg_vec_i32(tc: &hegel_peer::TestCase) -> Vec<i32> {
    hegel_peer::vec_uniform_len(tc, 100, gs::integers::<i32>())
}

fn hg_insert_input(tc: &hegel_peer::TestCase) -> (Vec<u8>, u8) {
    (hegel_peer::vec_uniform_len(tc, 100, gs::integers::<u8>()), tc.draw(gs::integers::<u8>()))
}

// ----- measurements -----------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tool {
    Speccheck,
    Proptest,
    Quickcheck,
    Hegeltest,
}

const TOOLS: [Tool; 4] = [Tool::Speccheck, Tool::Proptest, Tool::Quickcheck, Tool::Hegeltest];

impl Tool {
    fn name(self) -> &'static str {
        match self {
            Tool::Speccheck => "speccheck",
            Tool::Proptest => "proptest",
            Tool::Quickcheck => "quickcheck",
            Tool::Hegeltest => "hegeltest",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bench {
    Reverse,
    Insert,
    Expr,
}

const BENCHES: [Bench; 3] = [Bench::Reverse, Bench::Insert, Bench::Expr];

impl Bench {
    fn name(self) -> &'static str {
        match self {
            Bench::Reverse => "reverse involution, Vec<i32>",
            Bench::Insert => "sorted insert, Vec<u8>",
            Bench::Expr => "derived recursive enum (simplify preserves eval)",
        }
    }
}

/// Runs `cases` passing cases; returns the time taken and the mean input
/// size (elements or constructors), so differences in distribution show.
fn throughput(tool: Tool, bench: Bench, cases: u32, seed: u64) -> (Duration, f64) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    let total = Arc::new(AtomicU64::new(0));
    let t = total.clone();
    let add = move |n: usize| {
        t.fetch_add(n as u64, Ordering::Relaxed);
    };
    let start = Instant::now();
    match (tool, bench) {
        (Tool::Speccheck, Bench::Reverse) => {
            let r = Property::new(sc_vec_i32()).config(sc_config(cases, seed)).run(move |xs: Vec<i32>| {
                add(xs.len());
                prop_reverse(&xs, false)
            });
            assert!(r.passed(), "{r}");
        }
        (Tool::Speccheck, Bench::Insert) => {
            let r =
                Property::new(sc_insert_input()).config(sc_config(cases, seed)).run(move |(xs, x): (Vec<u8>, u8)| {
                    add(xs.len());
                    prop_insert(&xs, x, false)
                });
            assert!(r.passed(), "{r}");
        }
        (Tool::Speccheck, Bench::Expr) => {
            let r = Property::new(speccheck::any::<Expr>()).config(sc_config(cases, seed)).run(move |e: Expr| {
                add(size(&e));
                prop_expr(&e, false)
            });
            assert!(r.passed(), "{r}");
        }
        (Tool::Proptest, Bench::Reverse) => {
            let mut runner = pt_runner(cases, seed);
            runner
                .run(&proptest::collection::vec(any::<i32>(), 0..100), move |xs| {
                    add(xs.len());
                    prop_assert!(prop_reverse(&xs, false));
                    Ok(())
                })
                .unwrap();
        }
        (Tool::Proptest, Bench::Insert) => {
            let mut runner = pt_runner(cases, seed);
            runner
                .run(&(proptest::collection::vec(any::<u8>(), 0..100), any::<u8>()), move |(xs, x)| {
                    add(xs.len());
                    prop_assert!(prop_insert(&xs, x, false));
                    Ok(())
                })
                .unwrap();
        }
        (Tool::Proptest, Bench::Expr) => {
            let mut runner = pt_runner(cases, seed);
            runner
                .run(&pt_expr(), move |e| {
                    add(size(&e));
                    if prop_expr(&e, false) { Ok(()) } else { Err(TestCaseError::fail("simplify")) }
                })
                .unwrap();
        }
        (Tool::Hegeltest, bench) => {
            let settings = hegel_peer::settings(u64::from(cases), seed);
            let failed = match bench {
                Bench::Reverse => hegel_peer::find(settings, move |tc| {
                    let xs = hg_vec_i32(tc);
                    add(xs.len());
                    if prop_reverse(&xs, false) { Ok(()) } else { Err(()) }
                }),
                Bench::Insert => hegel_peer::find(settings, move |tc| {
                    let (xs, x) = hg_insert_input(tc);
                    add(xs.len());
                    if prop_insert(&xs, x, false) { Ok(()) } else { Err(()) }
                }),
                Bench::Expr => hegel_peer::find(settings, move |tc| {
                    let e = hg_expr(tc, 100);
                    add(size(&e));
                    if prop_expr(&e, false) { Ok(()) } else { Err(()) }
                }),
            };
            assert!(matches!(failed, Ok(None)), "hegeltest: {failed:?}");
        }
        (Tool::Quickcheck, bench) => {
            // quickcheck takes function pointers: count through a static.
            static COUNT: AtomicU64 = AtomicU64::new(0);
            COUNT.store(0, Ordering::Relaxed);
            fn rev(xs: Vec<i32>) -> bool {
                COUNT.fetch_add(xs.len() as u64, Ordering::Relaxed);
                prop_reverse(&xs, false)
            }
            fn ins(xs: Vec<u8>, x: u8) -> TestResult {
                COUNT.fetch_add(xs.len() as u64, Ordering::Relaxed);
                TestResult::from_bool(prop_insert(&xs, x, false))
            }
            fn expr(e: QcExpr) -> bool {
                COUNT.fetch_add(size(&e.0) as u64, Ordering::Relaxed);
                prop_expr(&e.0, false)
            }
            let r = match bench {
                Bench::Reverse => qc(cases, seed).quicktest(rev as fn(Vec<i32>) -> bool),
                Bench::Insert => qc(cases, seed).quicktest(ins as fn(Vec<u8>, u8) -> TestResult),
                Bench::Expr => qc(cases, seed).quicktest(expr as fn(QcExpr) -> bool),
            };
            assert!(r.is_ok());
            total.store(COUNT.load(Ordering::Relaxed), Ordering::Relaxed);
        }
    }
    let elapsed = start.elapsed();
    (elapsed, total.load(Ordering::Relaxed) as f64 / f64::from(cases))
}

/// Finds and shrinks a counterexample of the failing variant; returns the
/// final size (elements, or constructors for the enum) and the time.
fn shrunk(tool: Tool, bench: Bench, seed: u64) -> Option<(f64, Duration)> {
    let start = Instant::now();
    let size = match (tool, bench) {
        (Tool::Speccheck, Bench::Reverse) => {
            let g = sc_vec_i32();
            let r = Property::new(g.clone()).config(sc_config(1000, seed)).run(|xs: Vec<i32>| prop_reverse(&xs, true));
            let c = match r.verdict {
                RunVerdict::Failed(c) => c,
                _ => return None,
            };
            let mut tc = TestCase::replay(c.choices.0.clone(), Tail::Simplest);
            g.generate(&mut tc).len()
        }
        (Tool::Speccheck, Bench::Insert) => {
            let g = sc_insert_input();
            let r = Property::new(g.clone())
                .config(sc_config(1000, seed))
                .run(|(xs, x): (Vec<u8>, u8)| prop_insert(&xs, x, true));
            let c = match r.verdict {
                RunVerdict::Failed(c) => c,
                _ => return None,
            };
            let mut tc = TestCase::replay(c.choices.0.clone(), Tail::Simplest);
            g.generate(&mut tc).0.len() + 1
        }
        (Tool::Speccheck, Bench::Expr) => {
            let r = Property::new(speccheck::any::<Expr>())
                .config(sc_config(1000, seed))
                .run(|e: Expr| prop_expr(&e, true));
            let c = match r.verdict {
                RunVerdict::Failed(c) => c,
                _ => return None,
            };
            size(&speccheck::decode_value::<Expr>(&c.choices)?)
        }
        (Tool::Proptest, Bench::Reverse) => {
            let mut runner = pt_runner(1000, seed);
            match runner.run(&proptest::collection::vec(any::<i32>(), 0..100), |xs| {
                prop_assert!(prop_reverse(&xs, true));
                Ok(())
            }) {
                Err(proptest::test_runner::TestError::Fail(_, xs)) => xs.len(),
                _ => return None,
            }
        }
        (Tool::Proptest, Bench::Insert) => {
            let mut runner = pt_runner(1000, seed);
            match runner.run(&(proptest::collection::vec(any::<u8>(), 0..100), any::<u8>()), |(xs, x)| {
                prop_assert!(prop_insert(&xs, x, true));
                Ok(())
            }) {
                Err(proptest::test_runner::TestError::Fail(_, (xs, _))) => xs.len() + 1,
                _ => return None,
            }
        }
        (Tool::Proptest, Bench::Expr) => {
            let mut runner = pt_runner(1000, seed);
            match runner.run(&pt_expr(), |e| if prop_expr(&e, true) { Ok(()) } else { Err(TestCaseError::fail("bug")) })
            {
                Err(proptest::test_runner::TestError::Fail(_, e)) => size(&e),
                _ => return None,
            }
        }
        (Tool::Hegeltest, bench) => {
            let settings = hegel_peer::settings(1000, seed);
            match bench {
                Bench::Reverse => hegel_peer::find(settings, |tc| {
                    let xs = hg_vec_i32(tc);
                    if prop_reverse(&xs, true) { Ok(()) } else { Err(xs.len()) }
                })
                .ok()??,
                Bench::Insert => hegel_peer::find(settings, |tc| {
                    let (xs, x) = hg_insert_input(tc);
                    if prop_insert(&xs, x, true) { Ok(()) } else { Err(xs.len() + 1) }
                })
                .ok()??,
                Bench::Expr => hegel_peer::find(settings, |tc| {
                    let e = hg_expr(tc, 100);
                    if prop_expr(&e, true) { Ok(()) } else { Err(size(&e)) }
                })
                .ok()??,
            }
        }
        (Tool::Quickcheck, bench) => {
            // quickcheck reports the shrunk input only in its panic message;
            // recompute it by shrinking with its own `shrink` the same way
            // its runner does (first failing candidate, repeatedly).
            let mut g = Gen::new(100);
            fn shrink_loop<T: QcArbitrary>(mut v: T, fails: impl Fn(&T) -> bool) -> T {
                'outer: loop {
                    for c in v.shrink() {
                        if fails(&c) {
                            v = c;
                            continue 'outer;
                        }
                    }
                    return v;
                }
            }
            let mut found = None;
            for _ in 0..1000 {
                match bench {
                    Bench::Reverse => {
                        let xs = Vec::<i32>::arbitrary(&mut g);
                        if !prop_reverse(&xs, true) {
                            found = Some(shrink_loop(xs, |v| !prop_reverse(v, true)).len());
                            break;
                        }
                    }
                    Bench::Insert => {
                        let input = <(Vec<u8>, u8)>::arbitrary(&mut g);
                        if !prop_insert(&input.0, input.1, true) {
                            found = Some(shrink_loop(input, |(v, x)| !prop_insert(v, *x, true)).0.len() + 1);
                            break;
                        }
                    }
                    Bench::Expr => {
                        let e = QcExpr::arbitrary(&mut g);
                        if !prop_expr(&e.0, true) {
                            found = Some(size(&shrink_loop(e, |v| !prop_expr(&v.0, true)).0));
                            break;
                        }
                    }
                }
            }
            found?
        }
    };
    Some((size as f64, start.elapsed()))
}

fn fmt(s: &Summary, unit: &str) -> String {
    match unit {
        "k/s" => format!("{:.0} / {:.0} / {:.0}", s.mean / 1e3, s.sd / 1e3, s.p95 / 1e3),
        "ms" => format!("{:.2} / {:.2} / {:.2}", s.mean * 1e3, s.sd * 1e3, s.p95 * 1e3),
        _ => format!("{:.2} / {:.2} / {:.0}", s.mean, s.sd, s.p95),
    }
}

fn main() {
    let args = Args::parse();
    // Keep quickcheck from printing its own messages.
    let mut out = String::new();
    out.push_str("# Core engine benchmark\n\n");
    out.push_str(&format!(
        "Command: `cargo run --release -p speccheck-bench --bin core -- --cases {} --rounds {} --seeds {}`\n\nMachine: {}\n\n",
        args.cases,
        args.rounds,
        args.seeds,
        machine()
    ));
    out.push_str("All tools run in the same process, interleaved round by round, in an order shuffled per round.\n");
    out.push_str("A ratio compares speccheck with a tool *within* each round (the machine's speed drifts between\n");
    out.push_str("rounds, by tens of percent here, and a round's tools see the same drift): its mean / sd / p95 are\n");
    out.push_str("over the rounds. Inputs: vectors of length 0..100\n");
    out.push_str("(uniform) for every tool; the recursive enum comes from `#[derive(Arbitrary)]` (speccheck), `prop_recursive`\n");
    out.push_str(
        "(proptest), a size-halving hand-written `Arbitrary` (quickcheck) and the same size-halving recursion\n",
    );
    out.push_str(
        "written as a composite of draws (hegeltest). `mean input` is elements or constructors per case, to show\n",
    );
    out.push_str(
        "how far distributions differ. quickcheck runs through its own runner. hegeltest (0.51, library `hegel`,\n",
    );
    out.push_str("Hypothesis's engine) runs through its own runner (`Hegel::new(..).run()`, what `#[hegel::test]`\n");
    out.push_str(
        "expands to) at its real defaults (`Settings::new()`: the environment's profile, health checks on) but\n",
    );
    out.push_str("the case count, a fixed seed, no example database and quiet output; a failure panics, as a user's\n");
    out.push_str(
        "`assert!` would. Its vectors draw the length (`integers::<usize>().max_value(99)`) and then that many\n",
    );
    out.push_str(
        "elements (`vecs(..).min_size(n).max_size(n)`), since its own `vecs(..).max_size(99)` averages about\n",
    );
    out.push_str(
        "five elements; its integers are Hypothesis's (biased towards small and boundary values), not uniform.\n\n",
    );

    out.push_str("## Throughput (passing properties)\n\n");
    let mut table = Table::new(&[
        "property",
        "tool",
        "cases/s ×1000 (mean / sd / p95)",
        "mean input",
        "speccheck ÷ tool, per round (mean / sd / p95)",
    ]);
    for bench in BENCHES {
        let mut rates: Vec<Vec<f64>> = vec![Vec::new(); TOOLS.len()];
        let mut sizes: Vec<f64> = vec![0.0; TOOLS.len()];
        let mut order: Vec<usize> = (0..TOOLS.len()).collect();
        for round in 0..args.rounds {
            // A fresh order per round: no tool always runs right after
            // another one's work.
            order.shuffle(&mut SmallRng::seed_from_u64(round as u64));
            for &k in &order {
                let (d, mean_size) = throughput(TOOLS[k], bench, args.cases, 1000 + round as u64);
                rates[k].push(f64::from(args.cases) / d.as_secs_f64());
                sizes[k] += mean_size / args.rounds as f64;
            }
        }
        for (k, tool) in TOOLS.iter().enumerate() {
            let ratios: Vec<f64> = rates[0].iter().zip(&rates[k]).map(|(s, t)| s / t).collect();
            let r = Summary::of(&ratios);
            table.row(vec![
                bench.name().into(),
                tool.name().into(),
                fmt(&Summary::of(&rates[k]), "k/s"),
                format!("{:.1}", sizes[k]),
                if k == 0 { "—".into() } else { format!("{:.2}× / {:.2} / {:.2}×", r.mean, r.sd, r.p95) },
            ]);
        }
        eprintln!("throughput done: {}", bench.name());
    }
    out.push_str(&table.to_markdown());

    out.push_str("\n## Shrinking a failing variant\n\n");
    out.push_str("Failing variants: reverse compared with the input (not reversed twice); insert that never inserts\n");
    out.push_str("before the head; simplify that folds `e * 0` to `e`. Size: elements (reverse), elements + the\n");
    out.push_str("inserted value (insert), constructors (enum). Time: finding plus shrinking, per run. Each tool\n");
    out.push_str("gets 1000 cases per seed to find the bug. The enum bug needs a literal `0` (`e * 0`): speccheck\n");
    out.push_str(
        "and quickcheck draw small and boundary integers often; proptest's `any::<i16>()` is uniform, so it\n",
    );
    out.push_str("draws `0` about once in 65536 leaves and does not find the bug. speccheck runs with its\n");
    out.push_str("defaults, hang detection included: a run moves to a worker thread and its report comes back by\n");
    out.push_str("a hand-off, which costs about 0.02 ms per run on this machine (`timeout: None` saves it;\n");
    out.push_str(
        "proptest and quickcheck watch for no hangs). hegeltest gets the same 1000 cases (`test_cases`) and\n",
    );
    out.push_str(
        "shrinks with its engine's defaults; its size is that of the last failing case, its final replay.\n\n",
    );
    let mut table =
        Table::new(&["property", "tool", "bug found", "final size (mean / sd / p95)", "time ms (mean / sd / p95)"]);
    for bench in BENCHES {
        for tool in TOOLS {
            let mut sizes = Vec::new();
            let mut times = Vec::new();
            for seed in 0..args.seeds {
                if let Some((s, t)) = shrunk(tool, bench, seed) {
                    sizes.push(s);
                    times.push(t);
                }
            }
            let found = format!("{} of {}", sizes.len(), args.seeds);
            let (size, time) = match sizes.is_empty() {
                true => ("— (bug not found)".to_string(), "—".to_string()),
                false => (fmt(&Summary::of(&sizes), ""), fmt(&Summary::of_durations(&times), "ms")),
            };
            table.row(vec![bench.name().into(), tool.name().into(), found, size, time]);
        }
        eprintln!("shrinking done: {}", bench.name());
    }
    out.push_str(&table.to_markdown());
    println!("{out}");
    if let Some(path) = args.out {
        std::fs::write(&path, &out).expect("write results");
    }
}
