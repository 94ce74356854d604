//! Scratch: the sampler's cost per input (not committed).
#[path = "target/subjects.rs"]
#[allow(dead_code)]
mod subjects;
use speccheck::spec::Targetable;
use speccheck::target::ArgSpec;
use speccheck::target::sample::Sampler;
use std::time::Instant;
use subjects::*;

fn probe<T: Targetable>(name: &str, names: (&str, &str), requires: &[(&str, &str)], size: u32, n: u64) {
    let spec = ArgSpec::new(vec![(names.0.to_string(), i64::ty()), (names.1.to_string(), T::ty())], requires).unwrap();
    let exprs: Vec<_> = requires.iter().map(|(_, e)| speccheck::spec::parse_str(e).unwrap()).collect();
    let mut s = Sampler::new(&spec.params, &exprs, spec.measures).unwrap();
    let t0 = Instant::now();
    let mut got = 0;
    let mut total_size = 0usize;
    for seed in 0..n {
        if let Some(v) = s.sample(seed, size).unwrap() {
            got += 1;
            let t = v[1].to_string();
            total_size += t.matches("Node").count() + t.matches("Bin").count() + t.matches("Cons").count();
        }
    }
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "{name} size {size}: {got}/{n} in {dt:.2}s = {:.1} ms/input, judged {:.0}/input, restarts {:.1}/input, mean nodes {:.1}",
        dt * 1000.0 / n as f64,
        s.evaluated as f64 / n as f64,
        s.restarts as f64 / n as f64,
        total_size as f64 / got.max(1) as f64
    );
}

fn main() {
    let n: u64 = std::env::args().nth(1).map(|a| a.parse().unwrap()).unwrap_or(30);
    let only = std::env::var("ONLY").unwrap_or_default();
    let on = |b: &str| only.is_empty() || only == b;
    for size in [16, 32, 64] {
        if on("rbt") {
            probe::<Rbt>("RBTree", ("x", "t"), &[("is_rb(t) && bh_ok(t)", "is_rb(t) && bh_ok(t)")], size, n);
        }
        if on("map") {
            probe::<Map>("Map", ("k", "m"), &[], size, n);
        }
        if on("list") {
            probe::<SList>("List", ("x", "l"), &[], size, n);
        }
    }
}
