//! Health checks: a run that cannot test what it claims fails loudly at
//! the default settings, with the figures.

use std::time::Duration;

use speccheck::{Property, RunVerdict, gens};

/// A generator that takes 150 ms an input.
fn slow() -> impl speccheck::Generator<Value = u8> {
    gens::from_fn(|tc: &mut speccheck::TestCase| {
        std::thread::sleep(Duration::from_millis(150));
        tc.draw(&gens::ints(0..=9u8))
    })
}

#[test]
fn a_generator_too_slow_to_test_with_is_an_error_with_the_figures() {
    let report = Property::new(slow()).configure(|c| c.database = None).run(|_: u8| true);
    let RunVerdict::Error(e) = &report.verdict else { panic!("a slow generator passed quietly:\n{report}") };
    assert!(e.contains("too slow") && e.contains("the first 10 took"), "{e}");
    assert!(e.contains("SPECCHECK_HEALTH_CHECKS=0"), "{e}");
}

#[test]
fn the_check_can_be_turned_off() {
    let report = Property::new(slow())
        .configure(|c| {
            c.database = None;
            c.cases = 12;
            c.health_checks = false;
        })
        .run(|_: u8| true);
    assert!(report.passed(), "{report}");
}
