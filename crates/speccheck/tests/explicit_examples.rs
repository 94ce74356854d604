//! Explicit examples (`#[example(...)]`, `Property::example`): inputs run
//! first on every run, shrunk and reported like generated ones.

use speccheck::prelude::*;
use speccheck::{Property, RunVerdict, gens};

/// Only one value in 2^64 fails: random generation does not find it.
fn needle(x: u64) -> bool {
    x != 0x5eed_cafe_f00d
}

#[test]
fn a_failing_example_is_the_runs_counterexample() {
    let report = Property::new(any::<u64>()).example(7).example(0x5eed_cafe_f00d).run(needle);
    let RunVerdict::Failed(c) = &report.verdict else { panic!("the example was not run:\n{report}") };
    assert_eq!(c.source.as_deref(), Some("explicit example 2"), "{report}");
    assert!(report.to_string().contains(&format!("input = {}", 0x5eed_cafe_f00d_u64)), "{report}");
}

#[test]
fn a_failing_example_is_shrunk() {
    let report = Property::new(any::<u32>()).example(123_456).run(|x: u32| x < 1000);
    let RunVerdict::Failed(c) = &report.verdict else { panic!("{report}") };
    assert_eq!(c.source.as_deref(), Some("explicit example 1"), "{report}");
    assert!(report.to_string().contains("input = 1000"), "not shrunk:\n{report}");
}

#[test]
fn passing_examples_run_before_the_cases_and_are_counted() {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let report = Property::new(any::<u16>())
        .example(4321)
        .example(1234)
        .configure(|c| c.cases = 10)
        .run(move |x: u16| log.lock().unwrap().push(x));
    assert!(report.passed(), "{report}");
    assert_eq!(report.stats.examples_passed, 2);
    assert_eq!(&seen.lock().unwrap()[..2], &[4321, 1234], "examples run first, in order");
    assert!(report.summary().contains("passed 2 explicit examples and 10 cases"), "{}", report.summary());
}

#[test]
fn an_example_the_generator_cannot_encode_is_an_error_naming_it() {
    let report = Property::new(gens::ints(0..10u8).map(u32::from)).example(5).run(|_: u32| true);
    let RunVerdict::Error(e) = &report.verdict else { panic!("{report}") };
    assert!(e.contains("explicit example 1") && e.contains("cannot encode"), "{e}");
}

#[property]
#[example(0x5eed_cafe_f00d)]
#[should_panic(expected = "explicit example 1")]
fn a_positional_example_on_a_property(x: u64) {
    assert!(needle(x));
}

#[property]
#[example(name = String::from("b"), count = 3)]
#[example(count = 40_000, name = String::new())]
#[should_panic(expected = "explicit example 2")]
fn named_examples_in_any_order(name: String, count: u32) {
    assert!(count < 30_000 || !name.is_empty());
}

#[test]
fn phases_turn_examples_saved_failures_generation_and_targets_off() {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let report = Property::new(any::<u16>())
        .example(4321)
        .configure(|c| {
            c.set_phases("explicit").unwrap();
            c.database = None;
        })
        .run(move |x: u16| log.lock().unwrap().push(x));
    assert!(report.passed(), "{report}");
    assert_eq!(*seen.lock().unwrap(), vec![4321], "only the example ran");
    assert!(report.to_string().contains("generation is off"), "{report}");

    // Without `explicit`, the failing example is not run.
    let report = Property::new(any::<u16>())
        .example(60_000)
        .configure(|c| {
            c.set_phases("generate,shrink").unwrap();
            c.cases = 20;
            c.seed = Some(3);
            c.database = None;
        })
        .run(|x: u16| x < 50_000 || x % 7 != 3);
    assert!(report.stats.examples_passed == 0, "{report}");
    if let RunVerdict::Failed(c) = &report.verdict {
        assert_ne!(c.source.as_deref(), Some("explicit example 1"), "{report}");
    }

    let mut c = speccheck::Config::default();
    let e = c.set_phases("generate, shrnk").unwrap_err();
    assert!(e.contains("`shrnk` is not a phase"), "{e}");
}

#[property(phases = "explicit")]
#[example(7)]
fn only_the_example_runs(x: u8) {
    assert_eq!(x, 7, "generation is off: only the explicit example runs");
}
