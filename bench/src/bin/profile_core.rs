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
        other => panic!("unknown workload {other}"),
    };
    println!("{}", r.summary());
}
