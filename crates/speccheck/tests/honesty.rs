//! A run reports what it did: nothing that did not do what its settings
//! say passes silently.

use speccheck::prelude::*;
use speccheck::{Config, Property, RunVerdict, enumerate};

#[derive(Arbitrary, Debug, Clone)]
enum Big {
    A(i64),
    B(String),
    C(u8),
    D(Box<Big>, Box<Big>),
    E(Box<Big>),
}

fn quiet(name: &str) -> Config {
    Config { database: None, seed: Some(3), ..Config::named(name) }
}

/// The argument list `#[property] fn p(x: T)` expands to.
fn one_argument<T: speccheck::Arbitrary + 'static>() -> impl Generator<Value = (T,)> {
    gens::arguments((gens::slot(any::<T>(), "x"),))
}

#[test]
fn an_exhaustive_run_that_stops_at_its_limit_is_incomplete_not_a_pass() {
    let config = Config { exhaustive: Some(6), max_enumerated: 20_000, ..quiet("big") };
    let r = Property::new(one_argument::<Big>()).config(config).run(|_: (Big,)| true);
    let RunVerdict::Incomplete { reason } = &r.verdict else { panic!("expected an incomplete run, got {r}") };
    assert!(!r.passed());
    // It says what was covered, how big the depth is, and what to change.
    assert!(reason.contains("stopped after 20000 inputs"), "{reason}");
    assert!(reason.contains("depth 6 was not covered"), "{reason}");
    assert!(reason.contains("it has about"), "{reason}");
    assert!(reason.contains("allow_partial"), "{reason}");
    assert!(r.to_string().contains("INCOMPLETE"), "{r}");
}

#[test]
fn a_partial_exhaustive_run_passes_only_when_allowed_and_says_so() {
    let config = Config { exhaustive: Some(6), max_enumerated: 5_000, allow_partial: true, ..quiet("big-partial") };
    let r = Property::new(one_argument::<Big>()).config(config).run(|_: (Big,)| true);
    assert!(r.passed(), "{r}");
    assert!(r.summary().contains("PARTIAL"), "{}", r.summary());
}

#[test]
fn a_complete_exhaustive_run_says_how_many_inputs_the_depth_has() {
    let config = Config { exhaustive: Some(2), ..quiet("complete") };
    let r = Property::new(one_argument::<Vec<bool>>()).config(config).run(|_: (Vec<bool>,)| true);
    assert!(r.passed(), "{r}");
    assert!(r.summary().contains("every input up to depth 2: 7 inputs"), "{}", r.summary());
}

#[test]
fn one_depth_means_the_same_for_enumerate_and_for_a_property() {
    for depth in 1..=4 {
        let direct = enumerate(&any::<Vec<Option<bool>>>(), depth).count() as u64;
        let config = Config { exhaustive: Some(depth), ..quiet("depths") };
        let r = Property::new(one_argument::<Vec<Option<bool>>>()).config(config).run(|_: (Vec<Option<bool>>,)| true);
        assert_eq!(r.stats.passed, direct, "depth {depth}: {r}");
    }
}

#[property(exhaustive = 6, max_enumerated = 2_000)]
#[should_panic(expected = "INCOMPLETE")]
fn exhaustive_attribute_fails_when_the_depth_is_not_covered(_b: Big) {}

#[property(exhaustive = 2)]
fn exhaustive_attribute_covers_the_same_depth_as_enumerate(xs: Vec<bool>) {
    assert!(xs.len() <= 2);
}
