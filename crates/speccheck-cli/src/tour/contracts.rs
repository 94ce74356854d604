//! Tour stop: contracts (LPtest / Ciao) — one contract per function,
//! checked at run time on every call, classified statically by the solver,
//! and turned into a test on generated inputs: the paper's quicksort loses
//! equal elements, and the reduced counterexample is two of them.

use speccheck::contracts::switch::forced;
use speccheck::contracts::{Contract, classify};
use speccheck::{Config, Property, RunReport, gens};
use speccheck_fixtures::contracts::{divide, qsort, qsort_fixed};

use super::{Expect, Finding, Stop, check};

pub fn stop() -> Stop {
    Stop {
        name: "contracts",
        title: "one contract: run-time checks, static classification, generated tests (LPtest)",
        run,
    }
}

/// Calls `sort` on generated lists with every contract check on: a
/// violation is the failure, shrunk like any other.
fn run_sort(seed: u64, name: &str, sort: fn(Vec<i64>) -> Vec<i64>) -> RunReport {
    Property::new(gens::arguments((gens::argument::<Vec<i64>>("xs"),)))
        .config(Config { seed: Some(seed), database: None, ..Config::named(name) })
        .run(move |(xs,): (Vec<i64>,)| {
            forced(|| sort(xs));
        })
}

/// The report of the contract violation `f` makes (printed once, here,
/// not also by the panic hook).
fn violation(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(|| forced(f));
    std::panic::set_hook(hook);
    match outcome {
        Ok(()) => "(no violation)".into(),
        Err(e) => e.downcast_ref::<String>().cloned().unwrap_or_default(),
    }
}

fn run(seed: u64) -> anyhow::Result<Vec<Finding>> {
    println!(
        "`qsort` carries `ensures(sorted)`, `ensures(permutation of xs)`, `no_panic`, `deterministic` and a cost \
         bound over the steps it ticks (crates/speccheck-fixtures/src/contracts.rs). Every call is checked in tests and debug builds:\n"
    );
    println!(
        "qsort(vec![2, 1, 2]):\n{}\n",
        violation(|| {
            qsort(vec![2, 1, 2]);
        })
    );
    println!(
        "divide(1, 0):\n{}\n",
        violation(|| {
            divide(1, 0);
        })
    );
    let pre = [("d > 0", "d > 0")];
    let post = [("n >= 0 ==> result * d <= n", "(n >= 0) ==> (result * d <= n)"), ("d != 0", "d != 0")];
    let contract = Contract::new("divide", &pre, &post, None, false, None).map_err(anyhow::Error::msg)?;
    println!("Statically, with the solver (Ciao's checked / false / check):\n{}\n", classify(&contract));
    Ok(vec![
        check("qsort loses equal elements (generated inputs)", Expect::Bug, || run_sort(seed, "qsort", qsort)),
        check("qsort, fixed", Expect::Pass, || run_sort(seed, "qsort_fixed", qsort_fixed)),
    ])
}
