//! The cost of a contract's run-time checks on a hot function, in one run:
//! the same function with no contract (`plain`), with its contract and
//! checks off (`off`: a release build's default: one flag read per call),
//! and with every call checked (`checked`: what tests and debug builds
//! do). Reports ns per call and the ratios to `plain` (mean / sd / p95
//! over the repeats).
//!
//! `cargo run --release -p speccheck-bench --bin contracts -- [--calls N] [--repeats R] [--out FILE]`

use std::hint::black_box;
use std::time::Instant;

use speccheck::contract;
use speccheck_bench::{Summary, Table, machine};

/// Adds with the sum clamped into `lo..=hi` (the hot function).
fn clamp_add_plain(x: i64, y: i64, lo: i64, hi: i64) -> i64 {
    (x.saturating_add(y)).clamp(lo, hi)
}

#[contract(
    requires(lo <= hi),
    ensures(lo <= result && result <= hi),
    ensures(lo <= x + y && x + y <= hi ==> result == x + y)
)]
fn clamp_add(x: i64, y: i64, lo: i64, hi: i64) -> i64 {
    (x.saturating_add(y)).clamp(lo, hi)
}

fn inputs(n: usize) -> Vec<(i64, i64, i64, i64)> {
    // A fixed linear congruential sequence: the same inputs for every mode.
    let mut s: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((s >> 33) % 2001) as i64 - 1000
    };
    (0..n)
        .map(|_| {
            let (a, b) = (next(), next());
            (next(), next(), a.min(b), a.max(b))
        })
        .collect()
}

fn time(xs: &[(i64, i64, i64, i64)], f: impl Fn(i64, i64, i64, i64) -> i64) -> f64 {
    let start = Instant::now();
    let mut acc = 0i64;
    for &(x, y, lo, hi) in xs {
        acc = acc.wrapping_add(f(black_box(x), black_box(y), black_box(lo), black_box(hi)));
    }
    black_box(acc);
    start.elapsed().as_secs_f64() * 1e9 / xs.len() as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str, default: usize| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (calls, repeats) = (flag("--calls", 200_000), flag("--repeats", 15));
    let out = args.iter().position(|a| a == "--out").and_then(|i| args.get(i + 1)).cloned();
    if cfg!(debug_assertions) {
        eprintln!("note: a debug build checks every call in `off` mode too; run with --release");
    }
    let xs = inputs(calls);
    let (mut plain, mut off, mut checked) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..repeats {
        // Interleaved, so drift in the machine's speed hits every mode.
        plain.push(time(&xs, clamp_add_plain));
        off.push(time(&xs, clamp_add));
        checked.push(speccheck::contracts::switch::forced(|| time(&xs, clamp_add)));
    }
    let ratio = |a: &[f64]| Summary::of(&a.iter().zip(&plain).map(|(x, p)| x / p).collect::<Vec<_>>());
    let mut t = Table::new(&["mode", "ns per call (mean / sd / p95)", "ratio to plain (mean / sd / p95)"]);
    for (name, v) in
        [("plain (no contract)", &plain), ("contract, checks off", &off), ("contract, every call checked", &checked)]
    {
        let (s, r) = (Summary::of(v), ratio(v));
        t.row(vec![
            name.into(),
            format!("{:.1} / {:.1} / {:.1}", s.mean, s.sd, s.p95),
            format!("{:.2} / {:.2} / {:.2}", r.mean, r.sd, r.p95),
        ]);
    }
    let page = format!(
        "# Contracts: run-time checking overhead on a hot function\n\nCommand: `cargo run --release -p speccheck-bench \
         --bin contracts -- --calls {calls} --repeats {repeats} --out bench/results/contracts.md`\n\nMachine: {}. `clamp_add(x, y, lo, hi)` with one \
         `requires` and two `ensures` clauses (one an implication), called {calls} times per repeat on the same \
         inputs in each mode; {repeats} repeats, modes interleaved. A checked call reads the arguments and the \
         result into the spec language's values and evaluates each clause with its interpreter (one scope per \
         call, scalar parts without building values); `off` is a release build's default (one flag read per call). Sampling (`SPECCHECK_CONTRACTS=0.01`) checks one call in a \
         hundred, so its cost lies between the two.\n\n{}",
        machine(),
        t.to_markdown()
    );
    print!("{page}");
    if let Some(path) = out {
        std::fs::write(&path, &page).expect("write the results");
    }
}
