//! Contracts (LPtest / Ciao's assertions): the paper's quicksort, whose
//! partition keeps only the elements strictly greater than the pivot on
//! the right, so equal elements are lost.
//!
//! One contract says what `qsort` needs and gives; from it come
//! * run-time checks of every call, in tests and debug builds (`main`
//!   below shows one firing);
//! * unit examples (`example(...)`), run by `cargo test`;
//! * a generated test (`qsort_contract`) on inputs meeting `requires`,
//!   whose reduced counterexample is two equal elements;
//! * a static classification of each part (`qsort_contract_static`).
//!
//! The functions and their contracts are in
//! `crates/speccheck-fixtures/src/contracts.rs`.
//! Run: `cargo run -p speccheck-examples --example contracts_quicksort`;
//! the contracts' tests: `cargo test -p speccheck-fixtures --lib contracts`.

use speccheck_examples::contracts::{divide, qsort, qsort_fixed};

fn main() {
    // Run-time checks are on in debug builds: this call breaks `qsort`'s
    // contract (two equal elements), and the violation says which part.
    let caught = std::panic::catch_unwind(|| qsort(vec![2, 1, 2]));
    let verdict = if caught.is_err() { "violation reported (above)" } else { "unchecked (a release build)" };
    println!("qsort([2, 1, 2]) under its contract: {verdict}");
    println!("qsort_fixed([2, 1, 2]) = {:?}", qsort_fixed(vec![2, 1, 2]));
    let caught = std::panic::catch_unwind(|| divide(1, 0));
    println!(
        "divide(1, 0): {}",
        if caught.is_err() { "the caller broke the precondition (above)" } else { "unchecked" }
    );
}
