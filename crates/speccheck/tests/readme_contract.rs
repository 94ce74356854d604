//! README.md's contract sample, as a user copies it: its run-time checks,
//! its example and its generated test run here (tests/readme_samples.rs
//! checks the README shows exactly this).

use speccheck::prelude::*;
use speccheck::{Targetable, contract, measure};

#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
enum List {
    Nil,
    Cons(i64, Box<List>),
}

#[measure]
fn size(l: &List) -> i64 {
    match l {
        List::Nil => 0,
        List::Cons(_, t) => 1 + size(t),
    }
}

#[measure]
fn at_least(l: &List, x: i64) -> bool {
    match l {
        List::Nil => true,
        List::Cons(h, t) => *h >= x && at_least(t, x),
    }
}

#[measure]
fn ordered(l: &List) -> bool {
    match l {
        List::Nil => true,
        List::Cons(h, t) => at_least(t, *h) && ordered(t),
    }
}

#[contract(
    requires(ordered(l)),
    ensures(ordered(result) && size(result) == size(l) + 1),
    no_panic,
    deterministic,
    cost(steps <= size(l) + 1),          // ticks counted by speccheck::contracts::tick()
    terminates_within(50),               // milliseconds
    example(l = List::Nil, x = 3 => size(&result) == 1),
    test(strategy = smt, depth = 5)
)]
fn insert(l: &List, x: i64) -> List {
    speccheck::contracts::tick();
    match l {
        List::Cons(h, t) if *h < x => List::Cons(*h, Box::new(insert(t, x))),
        l => List::Cons(x, Box::new(l.clone())),
    }
}
