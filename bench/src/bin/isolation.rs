//! The cost of crash-safe runs (issue 17): one property run in-process and
//! isolated (speccheck `isolate = true`: cases in a child process over a
//! socket), against proptest in-process and in its `fork` mode (rusty-fork),
//! on the same property, in one run; then a crash found, shrunk and
//! reported end to end by each.
//!
//! ```text
//! ISOLATION_RUNS=20 ISOLATION_CASES=1000 ISOLATION_OUT=bench/results/isolation.md \
//!     cargo run --release -p speccheck-bench --bin isolation
//! ```
//!
//! The binary is its own child: started again with a workload's name (by
//! speccheck's isolation or by rusty-fork), it runs that workload, whose
//! runner then serves the parent. Settings come from the environment:
//! rusty-fork passes the parent's arguments on to the child and accepts
//! only the test harness's own.

use std::time::{Duration, Instant};

use proptest::prelude::any;
use proptest::test_runner::{Config as PtConfig, TestCaseError, TestError, TestRunner};
use speccheck::{Config, ExplainMode, Property, RunVerdict, Verbosity};
use speccheck_bench::{Summary, Table, machine};

/// The settings, from `ISOLATION_RUNS`, `ISOLATION_CASES`, `ISOLATION_OUT`.
struct Args {
    /// Runs per tool and workload.
    runs: usize,
    /// Cases per passing run.
    cases: u32,
    /// Where to write the markdown results.
    out: Option<String>,
}

impl Args {
    fn from_env() -> Args {
        let num = |k: &str, d: u64| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
        Args {
            runs: num("ISOLATION_RUNS", 20) as usize,
            cases: num("ISOLATION_CASES", 1000) as u32,
            out: std::env::var("ISOLATION_OUT").ok(),
        }
    }
}

/// Overflows any stack.
#[inline(never)]
#[allow(unconditional_recursion)]
fn deep_recursion(n: u64) -> u64 {
    let frame = std::hint::black_box([n; 64]);
    deep_recursion(frame[n as usize % 64] + 1) + frame[3]
}

fn passing(a: u32, b: u32) -> bool {
    a.wrapping_add(b) == b.wrapping_add(a)
}

fn crashing(x: u32) {
    if x > 1000 {
        std::hint::black_box(deep_recursion(u64::from(x)));
    }
}

fn speccheck_config(name: &str, isolate: bool, cases: u32, seed: u64) -> Config {
    Config {
        cases,
        seed: Some(seed),
        database: None,
        isolate,
        test_path: Some(name.to_string()),
        verbosity: Verbosity::Quiet,
        explain: ExplainMode::Reduce,
        timeout: None,
        ..Config::named(name)
    }
}

/// speccheck on the passing property; the report.
fn sc_pass(isolate: bool, cases: u32, seed: u64) -> speccheck::RunReport {
    let name = if isolate { "sc_pass_isolated" } else { "sc_pass" };
    Property::new((speccheck::any::<u32>(), speccheck::any::<u32>()))
        .config(speccheck_config(name, isolate, cases, seed))
        .run(|(a, b): (u32, u32)| passing(a, b))
}

/// speccheck on the crashing property, isolated; the shrunk input.
fn sc_crash(seed: u64) -> Option<u32> {
    let r = Property::new(speccheck::any::<u32>())
        .config(speccheck_config("sc_crash", true, 100, seed))
        .run(|x: u32| crashing(x));
    match &r.verdict {
        RunVerdict::Failed(c) if c.failure.kind == speccheck::FailureKind::Crash => {
            speccheck::decode_value::<u32>(&c.choices)
        }
        _ => None,
    }
}

fn pt_config(name: &str, fork: bool, cases: u32) -> PtConfig {
    PtConfig { cases, fork, failure_persistence: None, test_name: Some(Box::leak(name.into())), ..PtConfig::default() }
}

/// proptest on the passing property.
fn pt_pass(fork: bool, cases: u32) -> bool {
    let name = if fork { "pt_pass_fork" } else { "pt_pass" };
    TestRunner::new(pt_config(name, fork, cases))
        .run(
            &(any::<u32>(), any::<u32>()),
            |(a, b)| {
                if passing(a, b) { Ok(()) } else { Err(TestCaseError::fail("no")) }
            },
        )
        .is_ok()
}

/// proptest on the crashing property, forked; the input it reports.
fn pt_crash() -> Option<String> {
    match TestRunner::new(pt_config("pt_crash", true, 100)).run(&any::<u32>(), |x| {
        crashing(x);
        Ok(())
    }) {
        Err(TestError::Fail(why, x)) => Some(format!("{x} ({why})")),
        Err(TestError::Abort(why)) => Some(format!("aborted: {why}")),
        Ok(()) => None,
    }
}

/// Runs the workload a child process was started for.
fn serve_child(name: &str, cases: u32) {
    match name {
        "sc_pass_isolated" => drop(sc_pass(true, cases, 0)),
        "sc_crash" => drop(sc_crash(0)),
        "pt_pass_fork" => drop(pt_pass(true, cases)),
        "pt_crash" => drop(pt_crash()),
        other => eprintln!("isolation bench: no workload {other}"),
    }
}

fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let start = Instant::now();
    let r = f();
    (start.elapsed(), r)
}

fn main() {
    // A child started by speccheck's isolation (first argument: the
    // workload) or by rusty-fork (last argument).
    let argv: Vec<String> = std::env::args().collect();
    let child = if std::env::var_os("SPECCHECK_CHILD_SOCKET").is_some() {
        argv.get(1).cloned()
    } else if std::env::var_os("RUSTY_FORK_OCCURS").is_some() {
        argv.last().cloned()
    } else {
        None
    };
    let args = Args::from_env();
    if let Some(name) = child {
        serve_child(&name, args.cases);
        return;
    }

    let mut times: Vec<Vec<f64>> = vec![Vec::new(); 4];
    for run in 0..args.runs {
        // Alternate the order, so no tool always follows another.
        for k in 0..4 {
            let k = (k + run) % 4;
            let (t, ok) = match k {
                0 => timed(|| sc_pass(false, args.cases, run as u64).passed()),
                1 => timed(|| sc_pass(true, args.cases, run as u64).passed()),
                2 => timed(|| pt_pass(false, args.cases)),
                _ => timed(|| pt_pass(true, args.cases)),
            };
            assert!(ok, "workload {k} failed");
            times[k].push(t.as_secs_f64());
        }
    }
    let names = [
        "speccheck, in-process",
        "speccheck, isolate = true",
        "proptest, in-process",
        "proptest, fork = true (rusty-fork)",
    ];
    let s: Vec<Summary> = times.iter().map(|t| Summary::of(t)).collect();
    let mut table = Table::new(&["tool", "run ms (mean / sd / p95)", "per case µs (mean)", "isolation overhead"]);
    for (k, name) in names.iter().enumerate() {
        let base = if k < 2 { s[0].mean } else { s[2].mean };
        let overhead = if k % 2 == 1 {
            format!(
                "+{:.1} ms per run, +{:.1} µs per case",
                (s[k].mean - base) * 1e3,
                (s[k].mean - base) * 1e6 / f64::from(args.cases)
            )
        } else {
            "—".to_string()
        };
        table.row(vec![
            name.to_string(),
            format!("{:.2} / {:.2} / {:.2}", s[k].mean * 1e3, s[k].sd * 1e3, s[k].p95 * 1e3),
            format!("{:.2}", s[k].mean * 1e6 / f64::from(args.cases)),
            overhead,
        ]);
    }

    // A crash, end to end.
    let mut crash = Table::new(&["tool", "time ms (mean / sd / p95)", "reported input"]);
    let (mut sc_times, mut sc_inputs) = (Vec::new(), Vec::new());
    let (mut pt_times, mut pt_inputs) = (Vec::new(), Vec::new());
    for run in 0..args.runs.min(10) {
        let (t, x) = timed(|| sc_crash(run as u64));
        sc_times.push(t.as_secs_f64());
        sc_inputs.push(x.map_or("not found".to_string(), |x| x.to_string()));
        let (t, x) = timed(pt_crash);
        pt_times.push(t.as_secs_f64());
        pt_inputs.push(x.unwrap_or_else(|| "not found".to_string()));
    }
    let tally = |xs: &[String]| {
        let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
        for x in xs {
            *counts.entry(x.as_str()).or_default() += 1;
        }
        counts.iter().map(|(x, n)| format!("{x} ×{n}")).collect::<Vec<_>>().join(", ")
    };
    let (a, b) = (Summary::of(&sc_times), Summary::of(&pt_times));
    crash.row(vec![
        "speccheck, isolate = true".into(),
        format!("{:.1} / {:.1} / {:.1}", a.mean * 1e3, a.sd * 1e3, a.p95 * 1e3),
        tally(&sc_inputs),
    ]);
    crash.row(vec![
        "proptest, fork = true".into(),
        format!("{:.1} / {:.1} / {:.1}", b.mean * 1e3, b.sd * 1e3, b.p95 * 1e3),
        tally(&pt_inputs),
    ]);

    let text = format!(
        "# Crash-safe runs: what isolation costs\n\n`ISOLATION_RUNS={} ISOLATION_CASES={} cargo run --release -p \
         speccheck-bench --bin isolation`\n\n{}\n\nOne run of a passing property (`a + b == b + a` over two `u32`s, {} cases) per tool and \
         mode, {} runs each, interleaved. speccheck isolated: the test binary started again as a child, cases sent \
         over a local socket one by one (a child start per crash or hang, not per case). proptest fork: rusty-fork \
         starts one child per run. Both at their defaults otherwise (speccheck without hang detection, as proptest).\n\n\
         {}\n\n## A stack overflow, found, shrunk and reported\n\n`fn p(x: u32) {{ if x > 1000 {{ deep_recursion() }} }}`, \
         {} runs each (speccheck: 100 cases, `explain = \"reduce\"`; proptest: 100 cases, `fork = true`). Each crash \
         costs a child start.\n\n{}",
        args.runs,
        args.cases,
        machine(),
        args.cases,
        args.runs,
        table.to_markdown(),
        args.runs.min(10),
        crash.to_markdown()
    );
    match &args.out {
        Some(p) => std::fs::write(p, &text).expect("write the results"),
        None => print!("{text}"),
    }
}
