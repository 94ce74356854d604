//! The random-generation side of the fuzz benchmark (issue 42, "coverage
//! guidance earns its place"): the fuzz example's two properties
//! (`examples/fuzz`) run by speccheck's random generation and by proptest,
//! each for a fixed budget per seed, in one run. `bench/fuzz.sh` runs the
//! same properties under `cargo fuzz`; `bench/results/fuzz.md` puts the two
//! side by side.
//!
//! Both tools at their defaults but for the budget: speccheck's
//! `any::<Vec<u8>>()` and `#[derive(Arbitrary)]` commands, proptest's
//! `any::<Vec<u8>>()` and a `prop_oneof!` of the same four commands
//! (vectors of 0 to 99 elements, its default). Cases run until the first
//! failure or the budget; proptest runs in chunks of 10,000 cases (it has
//! no time budget), each chunk seeded from the seed and its number.
//!
//! `cargo run --release -p speccheck-bench --bin fuzz_random -- --seconds 600 --seeds 1,2`

use std::time::{Duration, Instant};

use clap::Parser;
use proptest::prelude::{Just, Strategy, any as pany, prop_oneof};
use proptest::test_runner::{Config as ProptestConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use speccheck::{Config, Property, RunVerdict, any};
use speccheck_fuzz_example::{frame, vault};

#[derive(Parser)]
struct Args {
    /// Budget per run, in seconds.
    #[arg(long, default_value_t = 600.0)]
    seconds: f64,
    /// Seeds.
    #[arg(long, value_delimiter = ',', default_value = "1,2")]
    seeds: Vec<u64>,
    /// Targets (`parse`, `vault`).
    #[arg(long, value_delimiter = ',', default_value = "parse,vault")]
    targets: Vec<String>,
}

/// How one run ended.
struct Ran {
    found: bool,
    cases: u64,
    seconds: f64,
}

fn parse_panics(data: &[u8]) -> bool {
    std::panic::catch_unwind(|| frame::parse(data)).is_err()
}

fn speccheck_run(target: &str, seed: u64, budget: Duration) -> Ran {
    let config = Config {
        cases: u32::MAX,
        time_budget: Some(budget),
        seed: Some(seed),
        database: None,
        shrink: false,
        timeout: None,
        ..Config::named(format!("fuzz_random::{target}"))
    };
    let started = Instant::now();
    let report = match target {
        "parse" => Property::new(any::<Vec<u8>>()).config(config).run(|d: Vec<u8>| !parse_panics(&d)),
        "vault" => Property::new(any::<Vec<vault::Command>>())
            .config(config)
            .run(|c: Vec<vault::Command>| vault::overdraft(&c).is_none()),
        other => panic!("unknown target {other}"),
    };
    let seconds = started.elapsed().as_secs_f64();
    match &report.verdict {
        RunVerdict::Failed(c) => Ran { found: true, cases: c.found_after, seconds },
        RunVerdict::Passed => Ran { found: false, cases: report.stats.passed, seconds },
        other => panic!("{target}: {other:?}\n{report}"),
    }
}

fn proptest_run(target: &str, seed: u64, budget: Duration) -> Ran {
    let command = prop_oneof![
        pany::<u32>().prop_map(vault::Command::Enter),
        pany::<u16>().prop_map(vault::Command::Deposit),
        pany::<u16>().prop_map(vault::Command::Withdraw),
        Just(vault::Command::Lock),
    ];
    let commands = proptest::collection::vec(command, 0..100);
    let started = Instant::now();
    let mut cases = 0u64;
    for chunk in 0u64.. {
        if started.elapsed() >= budget {
            break;
        }
        let config = ProptestConfig {
            cases: 10_000,
            failure_persistence: None,
            max_shrink_iters: 0,
            ..ProptestConfig::default()
        };
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        bytes[8..16].copy_from_slice(&chunk.to_le_bytes());
        let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
        let seen = std::cell::Cell::new(0u64);
        // Whether the chunk found it; the value does not matter here.
        let outcome: Result<(), String> = match target {
            "parse" => runner
                .run(&pany::<Vec<u8>>(), |d| {
                    seen.set(seen.get() + 1);
                    if parse_panics(&d) { Err(TestCaseError::fail("panicked")) } else { Ok(()) }
                })
                .map_err(|e| kind(&e)),
            "vault" => runner
                .run(&commands, |c| {
                    seen.set(seen.get() + 1);
                    if vault::overdraft(&c).is_some() { Err(TestCaseError::fail("overdrawn")) } else { Ok(()) }
                })
                .map_err(|e| kind(&e)),
            other => panic!("unknown target {other}"),
        };
        match outcome {
            Ok(()) => cases += seen.get(),
            Err(e) if e == "fail" => {
                return Ran { found: true, cases: cases + seen.get(), seconds: started.elapsed().as_secs_f64() };
            }
            Err(e) => panic!("{target}: proptest ended with {e}"),
        }
    }
    Ran { found: false, cases, seconds: started.elapsed().as_secs_f64() }
}

/// `"fail"` for a failure found, else what else ended the run.
fn kind<T: std::fmt::Debug>(e: &TestError<T>) -> String {
    match e {
        TestError::Fail(..) => "fail".into(),
        other => format!("{other}"),
    }
}

fn main() {
    let args = Args::parse();
    // A panicking parse is the finding: keep the default hook's messages out.
    std::panic::set_hook(Box::new(|_| {}));
    let budget = Duration::from_secs_f64(args.seconds);
    println!("| target | mode | seed | found | time (s) | cases | cases/s |");
    println!("|---|---|---|---|---|---|---|");
    for target in &args.targets {
        for &seed in &args.seeds {
            for (mode, run) in
                [("speccheck random", speccheck_run as fn(&str, u64, Duration) -> Ran), ("proptest", proptest_run)]
            {
                let r = run(target, seed, budget);
                // A run can also end at the most cases a run takes (`u32::MAX`).
                let time = match (r.found, r.seconds >= args.seconds) {
                    (true, _) => format!("{:.2}", r.seconds),
                    (false, true) => format!("{:.0} (budget)", r.seconds),
                    (false, false) => format!("{:.0} ({} cases, the most a run takes)", r.seconds, r.cases),
                };
                println!(
                    "| {target} | {mode} | {seed} | {} | {time} | {} | {:.0} |",
                    if r.found { "yes" } else { "no" },
                    r.cases,
                    r.cases as f64 / r.seconds
                );
            }
        }
    }
}
