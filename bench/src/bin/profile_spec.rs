//! Profiling aid for the spec evaluator: every valid input of a Target
//! benchmark at a small depth (made once by the lazy enumeration), then the
//! spec evaluated on each of them afresh, as the runner's re-check and a
//! postcondition do. Prints the mean time per evaluation. For `perf
//! record` and for timing one build against another with `farm-bench`.
//!
//! With `recheck`, the inputs are checked as the runner re-checks a
//! strategy's inputs instead (in the enumeration's order, remembering the
//! parts that held).
//!
//! `cargo run --release -p speccheck-bench --bin profile_spec -- [stackset|rbt|map|list] [rounds] [recheck]`

#[path = "target/subjects.rs"]
#[allow(dead_code)] // the functions under test are not run here
mod subjects;

use std::time::Instant;

use speccheck::spec::{Targetable, Ty};
use speccheck::target::ArgSpec;
use speccheck::target::lazy::Lazy;
use subjects::*;

fn arg<T: Targetable>(name: &str) -> (String, Ty) {
    (name.to_string(), T::ty())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "stackset".into());
    let rounds: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let recheck = args.next().is_some_and(|a| a == "recheck");
    let (spec, depth) = match which.as_str() {
        "stackset" => (ArgSpec::new(vec![arg::<StackSet>("s")], &[]).unwrap(), 5),
        "rbt" => (
            ArgSpec::new(vec![arg::<i64>("x"), arg::<Rbt>("t")], &[("is_rb(t) && bh_ok(t)", "is_rb(t) && bh_ok(t)")])
                .unwrap(),
            5,
        ),
        "map" => (ArgSpec::new(vec![arg::<i64>("k"), arg::<Map>("m")], &[]).unwrap(), 5),
        "list" => (ArgSpec::new(vec![arg::<i64>("x"), arg::<SList>("l")], &[]).unwrap(), 6),
        other => panic!("unknown benchmark {other}"),
    };
    let requires: Vec<_> = spec.requires.iter().map(|(_, e)| e.clone()).collect();
    let inputs: Vec<_> =
        Lazy::new(&spec.params, &requires, spec.measures, depth).map(|v| v.expect("the enumeration")).collect();
    let start = Instant::now();
    for _ in 0..rounds {
        let memo = std::cell::RefCell::default();
        for v in &inputs {
            if recheck {
                assert!(spec.recheck_remembering("lazy", v.clone(), &memo).is_ok(), "a valid input the spec rejects");
            } else {
                assert!(matches!(spec.violation(v), Ok(None)), "a valid input the spec rejects");
            }
        }
    }
    let n = inputs.len() as f64 * f64::from(rounds);
    println!(
        "{which}: {} inputs × {rounds}: {:.2} µs per evaluation",
        inputs.len(),
        start.elapsed().as_secs_f64() * 1e6 / n
    );
}
