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
//! Run: `cargo run -p speccheck-examples --example contracts_quicksort`;
//! the tests: `cargo test -p speccheck-examples --example contracts_quicksort`.

use speccheck::contract;

/// The buggy quicksort.
#[contract(
    ensures(forall!(i in 0..len(result) - 1, result[i] <= result[i + 1])),
    ensures(len(result) == len(xs) && forall!(x in xs, count(result, x) == count(xs, x))),
    no_panic,
    deterministic,
    cost(steps <= len(xs) * len(xs) + 2 * len(xs) + 1),
    example(xs = vec![3, 1, 2] => result == vec![1, 2, 3]),
    test(strategy = smt, depth = 3, should_panic = "contract of `qsort` violated: the postcondition `len(result) == len(xs)")
)]
pub fn qsort(xs: Vec<i64>) -> Vec<i64> {
    speccheck::contracts::tick();
    let Some((&pivot, rest)) = xs.split_first() else { return Vec::new() };
    speccheck::contracts::tick_n(rest.len() as u64);
    let smaller: Vec<i64> = rest.iter().copied().filter(|&x| x < pivot).collect();
    let larger: Vec<i64> = rest.iter().copied().filter(|&x| x > pivot).collect(); // should be `>=`
    let mut out = qsort(smaller);
    out.push(pivot);
    out.extend(qsort(larger));
    out
}

/// The fixed quicksort: the same contract holds on every input up to
/// depth 4, and the examples pass.
#[contract(
    ensures(forall!(i in 0..len(result) - 1, result[i] <= result[i + 1])),
    ensures(len(result) == len(xs) && forall!(x in xs, count(result, x) == count(xs, x))),
    no_panic,
    deterministic,
    cost(steps <= len(xs) * len(xs) + 2 * len(xs) + 1),
    example(xs = vec![3, 1, 2] => result == vec![1, 2, 3]),
    example(xs = vec![2, 2] => result == vec![2, 2]),
    test(strategy = smt, depth = 4)
)]
pub fn qsort_fixed(xs: Vec<i64>) -> Vec<i64> {
    speccheck::contracts::tick();
    let Some((&pivot, rest)) = xs.split_first() else { return Vec::new() };
    speccheck::contracts::tick_n(rest.len() as u64);
    let smaller: Vec<i64> = rest.iter().copied().filter(|&x| x < pivot).collect();
    let larger: Vec<i64> = rest.iter().copied().filter(|&x| x >= pivot).collect();
    let mut out = qsort_fixed(smaller);
    out.push(pivot);
    out.extend(qsort_fixed(larger));
    out
}

/// Division that requires a non-zero divisor: a call breaking the
/// precondition is the caller's fault, and says so.
#[contract(requires(d != 0), ensures(result * d <= n || d < 0 || n < 0), example(n = 7, d = 2 => result == 3))]
pub fn divide(n: i64, d: i64) -> i64 {
    n / d
}

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
