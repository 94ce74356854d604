//! README.md's Target sample (refinements on a type and an argument, a
//! measure, the SMT strategy), as a user copies it (tests/readme_samples.rs
//! checks the README shows exactly this).

use speccheck::prelude::*;
use speccheck::{Targetable, measure};

#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
enum Sorted {
    Nil,
    Cons(i64, #[refine(at_least(_1, _0))] Box<Sorted>),
}

#[measure]
fn at_least(l: &Sorted, x: i64) -> bool {
    match l {
        Sorted::Nil => true,
        Sorted::Cons(h, t) => *h >= x && at_least(t, x),
    }
}

fn insert(x: i64, l: Sorted) -> Sorted {
    match l {
        Sorted::Cons(h, t) if h < x => Sorted::Cons(h, Box::new(insert(x, *t))),
        l => Sorted::Cons(x, Box::new(l)),
    }
}

fn sorted(l: &Sorted) -> bool {
    match l {
        Sorted::Nil => true,
        Sorted::Cons(h, t) => at_least(t, *h) && sorted(t),
    }
}

#[property(strategy = smt, depth = 6)]
fn insert_keeps_order(l: Sorted, #[refine(x >= 0 && x <= 3)] x: i64) {
    assert!(sorted(&insert(x, l)));
}
