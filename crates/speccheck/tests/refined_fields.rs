//! Field refinements hold under every way of making inputs, the default
//! included: a plain `#[property]` over a `Targetable` type with
//! `#[refine]` fields, `any::<T>()` and exhaustive enumeration only ever
//! make values that satisfy them, and a run whose refinements rejected
//! most drawn values says so.

use speccheck::prelude::*;
use speccheck::{Config, Property, Targetable, enumerate, measure};

/// README.md's sorted list.
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

fn sorted(l: &Sorted) -> bool {
    match l {
        Sorted::Nil => true,
        Sorted::Cons(h, t) => at_least(t, *h) && sorted(t),
    }
}

fn length(l: &Sorted) -> usize {
    match l {
        Sorted::Nil => 0,
        Sorted::Cons(_, t) => 1 + length(t),
    }
}

/// A score and a weight no smaller (a refinement naming an
/// earlier field).
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
struct Scored {
    score: i64,
    #[refine(weight >= score)]
    weight: i64,
}

// No strategy and no argument refinement: the type's refinements still hold.
#[property]
fn a_plain_property_gets_sorted_lists(l: Sorted) {
    assert!(sorted(&l), "not sorted: {l:?}");
}

#[property]
fn a_plain_property_gets_refined_structs(s: Scored, v: Vec<Sorted>) {
    assert!(s.weight >= s.score, "{s:?}");
    assert!(v.iter().all(sorted), "{v:?}");
}

fn quiet(name: &str) -> Config {
    Config { database: None, seed: Some(11), ..Config::named(name) }
}

#[test]
fn generated_lists_are_sorted_and_not_only_trivial() {
    let r = Property::new(any::<Sorted>()).config(Config { cases: 300, ..quiet("sorted") }).run(|l: Sorted| {
        if length(&l) >= 2 {
            speccheck::label("two or more");
        }
        sorted(&l)
    });
    assert!(r.passed(), "{r}");
    let long = r.stats.labels.get("two or more").copied().unwrap_or(0);
    // The refinement is met by drawing again, not by keeping only the
    // empty and one-element lists.
    assert!(long >= 30, "only {long} of 300 lists had two elements or more: {r}");
}

#[test]
fn exhaustive_enumeration_yields_only_sorted_lists_each_once() {
    let all: Vec<Sorted> = enumerate(&any::<Sorted>(), 4).map(|(_, l)| l).collect();
    assert!(all.iter().all(sorted));
    assert!(all.iter().any(|l| length(l) == 3), "{all:?}");
    let mut distinct = all.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), all.len(), "a value came twice");
}

/// A refinement almost nothing meets.
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
struct Rare(#[refine(_0 == 123_456_789)] i64);

#[test]
fn a_run_whose_refinements_reject_most_values_says_so() {
    let r = Property::new(any::<Rare>()).config(quiet("rare")).run(|_: Rare| true);
    assert!(!r.passed(), "a run with no valid input passed: {r}");
    let text = r.to_string();
    assert!(text.contains("the refinement `_0 == 123_456_789` of field `0` of `Rare`"), "{text}");
}
