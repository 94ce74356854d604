//! Field refinements hold under every way of making inputs, the default
//! included: a plain `#[property]` over a `Targetable` type with
//! `#[refine]` fields only gets values that satisfy them (README.md's
//! `Sorted`, with `any::<T>()` and exhaustive enumeration too, in
//! tests/readme_target.rs), and a run whose refinements rejected most
//! drawn values says so.

use speccheck::prelude::*;
use speccheck::{Config, Property, Targetable};

/// A score and a weight no smaller (a refinement naming an
/// earlier field).
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
struct Scored {
    score: i64,
    #[refine(weight >= score)]
    weight: i64,
}

// No strategy and no argument refinement: the types' refinements still
// hold (README.md's `Sorted` gets the same test in tests/readme_target.rs).
#[property]
fn a_plain_property_gets_refined_structs(s: Scored, v: Vec<Scored>) {
    assert!(s.weight >= s.score, "{s:?}");
    assert!(v.iter().all(|s| s.weight >= s.score), "{v:?}");
}

fn quiet(name: &str) -> Config {
    Config { database: None, seed: Some(11), ..Config::named(name) }
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
