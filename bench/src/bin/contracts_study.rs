//! The interval-domain case study (LPtest's abstract-domain study, in
//! small): the cost of finding each of the three bugs planted in
//! `speccheck_examples::intervals`, by input strategy, in one run. Each
//! test is the contract's generated test as `#[contract]` builds it: the
//! arguments' types, the `requires` clauses as the spec of valid inputs,
//! every call checked. Random runs over several seeds; lazy and smt
//! enumerate to depth 3, the same inputs every time, so they repeat for
//! the time only. Shrinking is off: the cost is that of finding.
//!
//! `cargo run --release -p speccheck-bench --bin contracts_study -- [--seeds N] [--repeats R] [--out FILE]`

use std::time::Instant;

use speccheck::contracts::switch::forced;
use speccheck::spec::Targetable;
use speccheck::target::{ArgSpec, Strategy, apply};
use speccheck::{Config, Property, RunVerdict, gens};
use speccheck_bench::{Summary, Table, machine};
use speccheck_examples::intervals::{Itv, join, less_is_sound, mul_is_sound};

/// Random tries before a run counts as "not found".
const RANDOM_CASES: u32 = 20_000;
const DEPTH: u32 = 3;

/// One run: the cases tried when the bug was found (none if it was not),
/// and the time taken.
struct Found {
    after: Option<u64>,
    secs: f64,
}

fn config(strategy: Strategy, seed: u64) -> Config {
    Config {
        cases: if strategy == Strategy::Random { RANDOM_CASES } else { 1_000_000 },
        seed: Some(seed),
        shrink: false,
        database: None,
        ..Config::named("contracts-study")
    }
}

fn outcome(verdict: &RunVerdict, secs: f64) -> Found {
    match verdict {
        RunVerdict::Failed(c) | RunVerdict::Flaky(c) => Found { after: Some(c.found_after), secs },
        // Not found: the run did all it was asked, or gave up on rejects.
        RunVerdict::Passed | RunVerdict::GaveUp { .. } => Found { after: None, secs },
        // Anything else says nothing about the bug: the study is void (the
        // panic hook is silenced, so say it and stop).
        other => {
            eprintln!("a study run ended without a verdict on the bug: {other:?}");
            std::process::exit(2)
        }
    }
}

fn spec(params: &[(&str, speccheck::spec::Ty)], requires: &[&str]) -> ArgSpec {
    let clauses: Vec<(&str, &str)> = requires.iter().map(|r| (*r, *r)).collect();
    ArgSpec::new(params.iter().map(|(n, t)| (n.to_string(), t.clone())).collect(), &clauses)
        .expect("the study's specs parse")
}

/// `join` is an upper bound of its arguments (no precondition).
fn join_run(strategy: Strategy, seed: u64) -> Found {
    let spec = spec(&[("a", Itv::ty()), ("b", Itv::ty())], &[]);
    let admit = spec.clone();
    let inputs = gens::arguments((gens::argument::<Itv>("a"), gens::argument::<Itv>("b")));
    let p = apply(Property::new(inputs).config(config(strategy, seed)), &spec, strategy, DEPTH, |v| {
        Some((Itv::reify(v.first()?)?, Itv::reify(v.get(1)?)?))
    });
    let started = Instant::now();
    let r = p.run(move |(a, b): (Itv, Itv)| {
        admit.admit(&[a.reflect(), b.reflect()]);
        forced(|| join(a, b));
    });
    outcome(&r.verdict, started.elapsed().as_secs_f64())
}

/// A soundness law over `has(a, x) && has(b, y)`.
fn sound_run(law: fn(Itv, Itv, i64, i64) -> bool, strategy: Strategy, seed: u64) -> Found {
    let spec =
        spec(&[("a", Itv::ty()), ("b", Itv::ty()), ("x", i64::ty()), ("y", i64::ty())], &["has(a, x) && has(b, y)"]);
    let admit = spec.clone();
    let inputs = gens::arguments((
        gens::argument::<Itv>("a"),
        gens::argument::<Itv>("b"),
        gens::argument::<i64>("x"),
        gens::argument::<i64>("y"),
    ));
    let p = apply(Property::new(inputs).config(config(strategy, seed)), &spec, strategy, DEPTH, |v| {
        Some((Itv::reify(v.first()?)?, Itv::reify(v.get(1)?)?, i64::reify(v.get(2)?)?, i64::reify(v.get(3)?)?))
    });
    let started = Instant::now();
    let r = p.run(move |(a, b, x, y): (Itv, Itv, i64, i64)| {
        admit.admit(&[a.reflect(), b.reflect(), x.reflect(), y.reflect()]);
        forced(|| law(a, b, x, y));
    });
    outcome(&r.verdict, started.elapsed().as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (seeds, repeats) = (flag("--seeds", 10), flag("--repeats", 5));
    let out = args.iter().position(|a| a == "--out").and_then(|i| args.get(i + 1)).cloned();
    // The contracts' own reports would print every found bug: keep the
    // output to the table.
    std::panic::set_hook(Box::new(|_| {}));

    type Run = Box<dyn Fn(Strategy, u64) -> Found>;
    let bugs: Vec<(&str, Run)> = vec![
        ("`join` with equal lower bounds", Box::new(join_run)),
        ("`mul` by exactly zero", Box::new(|s, seed| sound_run(mul_is_sound, s, seed))),
        ("`less` on touching intervals", Box::new(|s, seed| sound_run(less_is_sound, s, seed))),
    ];
    let mut t = Table::new(&[
        "planted bug",
        "strategy",
        "found",
        "cases to find (mean / sd / p95)",
        "ms to find (mean / sd / p95)",
    ]);
    for (bug, run) in &bugs {
        for strategy in [Strategy::Random, Strategy::Lazy, Strategy::Smt] {
            let runs: Vec<Found> = match strategy {
                Strategy::Random => (1..=seeds).map(|seed| run(strategy, seed)).collect(),
                _ => (0..repeats).map(|_| run(strategy, 0)).collect(),
            };
            let found: Vec<&Found> = runs.iter().filter(|f| f.after.is_some()).collect();
            let cases = Summary::of(&found.iter().map(|f| f.after.unwrap_or(0) as f64).collect::<Vec<_>>());
            let ms = Summary::of(&found.iter().map(|f| f.secs * 1e3).collect::<Vec<_>>());
            let cell = |s: Summary, digits: usize| {
                if found.is_empty() {
                    "—".to_string()
                } else {
                    format!("{:.*} / {:.*} / {:.*}", digits, s.mean, digits, s.sd, digits, s.p95)
                }
            };
            t.row(vec![
                bug.to_string(),
                strategy.to_string(),
                format!("{} of {}", found.len(), runs.len()),
                cell(cases, 0),
                cell(ms, 2),
            ]);
        }
    }
    let page = format!(
        "# Contracts: the interval-domain case study\n\nCommand: `cargo run --release -p speccheck-bench --bin \
         contracts_study -- --seeds {seeds} --repeats {repeats}`\n\nMachine: {}. Each row runs the planted bug's \
         contract test as `#[contract]` generates it (valid inputs by the strategy, every call checked), with \
         shrinking off. random: seeds 1..={seeds}, at most {RANDOM_CASES} cases each, inputs failing `requires` \
         discarded; lazy and smt: every valid input up to depth {DEPTH} in their order (deterministic: the cases \
         are the same in each of the {repeats} repeats, the time varies). \"found\" counts the runs that found the \
         bug (a random run that does not ends after its cases or gives up on too many rejected inputs); the \
         statistics are over those. \"cases to find\" counts the inputs tried, those rejected by `requires` \
         included.\n\n{}",
        machine(),
        t.to_markdown()
    );
    print!("{page}");
    if let Some(path) = out {
        std::fs::write(&path, &page).expect("write the results");
    }
}
