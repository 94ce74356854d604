//! Profiling aid: runs one speccheck throughput workload (no peers), for
//! `perf record` / `valgrind --tool=callgrind`.
//!
//! `cargo run --release -p speccheck-bench --bin profile_core -- [vec|insert|expr] [cases]`

use speccheck::{Config, Property, gens};

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "vec".into());
    let cases: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let config = Config { cases, seed: Some(1), database: None, ..Config::named("profile") };
    let r = match which.as_str() {
        "vec" => Property::new(gens::vec(speccheck::any::<i32>(), 0..100)).config(config).run(|xs: Vec<i32>| {
            let mut r = xs.clone();
            r.reverse();
            r.reverse();
            r == xs
        }),
        "insert" => Property::new((gens::vec(speccheck::any::<u8>(), 0..100), speccheck::any::<u8>()))
            .config(config)
            .run(|(mut xs, x): (Vec<u8>, u8)| {
                xs.sort_unstable();
                let at = xs.iter().position(|&y| y >= x).unwrap_or(xs.len());
                xs.insert(at, x);
                xs.windows(2).all(|w| w[0] <= w[1])
            }),
        "pt_insert" => {
            use proptest::prelude::any;
            let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
                cases,
                failure_persistence: None,
                ..Default::default()
            });
            runner
                .run(&(proptest::collection::vec(any::<u8>(), 0..100), any::<u8>()), |(mut xs, x)| {
                    xs.sort_unstable();
                    let at = xs.iter().position(|&y| y >= x).unwrap_or(xs.len());
                    xs.insert(at, x);
                    proptest::prop_assert!(xs.windows(2).all(|w| w[0] <= w[1]));
                    Ok(())
                })
                .unwrap();
            println!("proptest passed {cases}");
            return;
        }
        "pt_vec" => {
            use proptest::prelude::{Strategy as _, any};
            let _ = any::<i32>().boxed();
            let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
                cases,
                failure_persistence: None,
                ..Default::default()
            });
            runner
                .run(&proptest::collection::vec(any::<i32>(), 0..100), |xs| {
                    let mut r = xs.clone();
                    r.reverse();
                    r.reverse();
                    proptest::prop_assert!(r == xs);
                    Ok(())
                })
                .unwrap();
            println!("proptest passed {cases}");
            return;
        }
        "runs" => {
            // Per-run overhead: many tiny failing runs (find + shrink + explain).
            let started = std::time::Instant::now();
            for seed in 0..u64::from(cases) {
                let c = Config { cases: 100, seed: Some(seed), database: None, ..Config::named("overhead") };
                let r = Property::new(gens::vec(speccheck::any::<u8>(), 0..10))
                    .config(c)
                    .explainer(speccheck::__private::default_explainer())
                    .run(|xs: Vec<u8>| xs.len() < 3 || xs[0] <= xs[1]);
                assert!(!r.passed());
            }
            println!("{} runs, {:.1} µs per run", cases, started.elapsed().as_secs_f64() * 1e6 / f64::from(cases));
            return;
        }
        "reverse_runs" => {
            let started = std::time::Instant::now();
            let mut last = String::new();
            for seed in 0..u64::from(cases) {
                let c = Config {
                    cases: 1000,
                    seed: Some(seed),
                    database: None,
                    timeout: None,
                    explain: speccheck::ExplainMode::Reduce,
                    ..Config::named("reverse")
                };
                let r = Property::new(speccheck::any::<Vec<i32>>())
                    .config(c)
                    .explainer(speccheck::__private::default_explainer())
                    .run(|xs: Vec<i32>| xs.iter().rev().copied().collect::<Vec<_>>() == xs);
                last = r.summary();
            }
            println!(
                "{last}\n{} runs, {:.1} µs per run",
                cases,
                started.elapsed().as_secs_f64() * 1e6 / f64::from(cases)
            );
            return;
        }
        "passing_runs" => {
            let started = std::time::Instant::now();
            for seed in 0..u64::from(cases) {
                let c = Config { cases: 1, seed: Some(seed), database: None, ..Config::named("overhead") };
                let r = Property::new(speccheck::any::<u8>()).config(c).run(|_: u8| true);
                assert!(r.passed());
            }
            println!("{} runs, {:.1} µs per run", cases, started.elapsed().as_secs_f64() * 1e6 / f64::from(cases));
            return;
        }
        other => panic!("unknown workload {other}"),
    };
    println!("{}", r.summary());
}
