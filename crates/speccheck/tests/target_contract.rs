//! `#[contract]`: a function's spec written once (`requires`, `ensures`,
//! the refinements of its types) and a generated test that calls it on the
//! valid inputs, by any strategy. The contracts below generate the tests
//! `insert_contract`, `insert_dedup_contract`, `nth_contract` and
//! `descending_contract` (the second and the last fail by design: their
//! `should_panic` checks what the report says).

use speccheck::{contract, measure};

mod common;
use common::{List, ordered, size};

#[measure]
fn count(l: &List, x: i64) -> i64 {
    match l {
        List::Nil => 0,
        List::Cons(h, t) => (if *h == x { 1 } else { 0 }) + count(t, x),
    }
}

/// Every valid input up to depth 4, found by the solver; the arguments
/// are borrowed, so the test generates owned ones and lends them.
#[contract(
    requires(ordered(l)),
    ensures(ordered(result) && size(result) == size(l) + 1),
    ensures(count(result, x) == count(l, x) + 1),
    test(strategy = smt, depth = 4)
)]
fn insert(l: &List, x: i64) -> List {
    match l {
        List::Cons(h, t) if *h < x => List::Cons(*h, Box::new(insert(t, x))),
        l => List::Cons(x, Box::new(l.clone())),
    }
}

/// Drops duplicates, which its contract does not allow: the generated test
/// fails on the smallest such input, and says which clause is false.
#[contract(
    requires(ordered(l)),
    ensures(size(result) == size(l) + 1),
    test(strategy = lazy, depth = 4, should_panic = "the postcondition `size(result) == size(l) + 1` is false")
)]
fn insert_dedup(l: List, x: i64) -> List {
    match l {
        List::Cons(h, t) if h < x => List::Cons(h, Box::new(insert_dedup(*t, x))),
        List::Cons(h, t) if h == x => List::Cons(h, t),
        l => List::Cons(x, Box::new(l)),
    }
}

/// A clause over two arguments refines the later one; a slice argument is
/// generated as a `Vec`.
#[contract(
    requires(i >= 0 && i < len(xs)),
    ensures(result == xs[i]),
    test(strategy = exhaustive, depth = 4)
)]
fn nth(xs: &[i64], i: i64) -> i64 {
    xs[i as usize]
}

/// Claims more than it does: the reduced counterexample is the smallest
/// list with two different elements.
#[contract(
    ensures(forall!(i in 0..len(result) - 1, result[i] >= result[i + 1])),
    test(strategy = smt, depth = 3, should_panic = "result: [")
)]
fn descending(xs: Vec<i64>) -> Vec<i64> {
    xs
}
