//! The LPtest paper's quicksort under a contract (its partition keeps
//! only the elements strictly greater than the pivot on the right, so
//! equal elements are lost), the fixed one, and a division with a
//! precondition. Shared by `examples/contracts_quicksort.rs` and the tour;
//! the contracts' own tests run with this library's tests.

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

/// Division by a positive divisor: a call breaking the precondition is the
/// caller's fault, and says so. (With `requires(d != 0)` only, the
/// generated test finds `divide(i64::MIN, -1)`, which overflows.)
#[contract(
    requires(d > 0),
    ensures(n >= 0 ==> result * d <= n && n < (result + 1) * d),
    example(n = 7, d = 2 => result == 3)
)]
pub fn divide(n: i64, d: i64) -> i64 {
    n / d
}
