//! README.md's Target sample (refinements on a type and an argument, a
//! measure, the SMT strategy), as a user copies it (tests/readme_samples.rs
//! checks the README shows exactly this); and its `Sorted` under the default
//! generation, which honours the field refinement too.

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

// No strategy and no argument refinement: the field refinement still holds.
#[property]
fn a_plain_property_gets_sorted_lists(l: Sorted) {
    assert!(sorted(&l), "not sorted: {l:?}");
}

fn length(l: &Sorted) -> usize {
    match l {
        Sorted::Nil => 0,
        Sorted::Cons(_, t) => 1 + length(t),
    }
}

#[test]
fn generated_lists_are_sorted_and_not_only_trivial() {
    let config = speccheck::Config { cases: 300, database: None, seed: Some(11), ..speccheck::Config::named("sorted") };
    let r = speccheck::Property::new(any::<Sorted>()).config(config).run(|l: Sorted| {
        if length(&l) >= 2 {
            speccheck::label("two or more");
        }
        sorted(&l)
    });
    assert!(r.passed(), "{r}");
    // The refinement is met by drawing again, not by keeping only the
    // empty and one-element lists.
    let long = r.stats.labels.get("two or more").copied().unwrap_or(0);
    assert!(long >= 30, "only {long} of 300 lists had two elements or more: {r}");
}

#[test]
fn exhaustive_enumeration_yields_only_sorted_lists_each_once() {
    let all: Vec<Sorted> = speccheck::enumerate(&any::<Sorted>(), 4).map(|(_, l)| l).collect();
    assert!(all.iter().all(sorted));
    assert!(all.iter().any(|l| length(l) == 3), "{all:?}");
    let mut distinct = all.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), all.len(), "a value came twice");
}
