//! What a failing property prints, as `cargo test` shows it: the test
//! binary runs its own ignored failing properties in a child process and
//! reads their output.

use std::process::Command;

use speccheck::prelude::*;

#[property]
#[ignore = "fails on purpose: run in a child process by the tests below"]
fn a_u8_property_that_fails(x: u8) {
    assert!(x < 100, "x is too large");
}

/// The output of this test binary running one ignored test.
fn run_child(test: &str) -> String {
    let out = Command::new(std::env::current_exe().expect("the test binary"))
        .args([test, "--exact", "--ignored", "--test-threads", "1"])
        .env("RUST_BACKTRACE", "1")
        .env("SPECCHECK_DATABASE", "off")
        .env("SPECCHECK_SEED", "7")
        .output()
        .expect("the child runs");
    assert!(!out.status.success(), "the child test should fail");
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

#[test]
fn a_failure_points_at_the_property_without_speccheck_s_stack() {
    let text = run_child("a_u8_property_that_fails");
    // The panic cargo shows is located at the property, not in speccheck.
    assert!(text.contains("panicked at crates/speccheck/tests/output.rs:9:1"), "{text}");
    assert!(!text.contains("speccheck-core/src/runner"), "{text}");
    assert!(!text.contains("speccheck_core::runner"), "{text}");
    assert!(!text.contains("stack backtrace:"), "{text}");
    // The property's own failure, its input and its replay line are there.
    assert!(text.contains("x = 100"), "{text}");
    assert!(text.contains("x is too large"), "{text}");
    assert!(text.contains("replay: SPECCHECK_REPLAY="), "{text}");
}

#[test]
fn a_failure_prints_only_what_tells_the_user_something() {
    let text = run_child("a_u8_property_that_fails");
    for noise in ["nothing to reduce", "no position generalizes", "more inputs tested", "backtrace:\n\n"] {
        assert!(!text.contains(noise), "`{noise}` in:\n{text}");
    }
}

#[property]
#[ignore = "fails on purpose: run in a child process by the tests below"]
fn a_property_failing_on_its_simplest_input(xs: Vec<u8>) {
    assert!(!xs.is_empty(), "no bytes");
}

#[test]
fn a_failure_on_the_simplest_input_says_so_and_nothing_of_shrinking() {
    let text = run_child("a_property_failing_on_its_simplest_input");
    assert!(text.contains("failed (panic) on its simplest input — nothing smaller to try"), "{text}");
    assert!(text.contains("xs = vec![]"), "{text}");
    assert!(!text.contains("shrunk from"), "{text}");
}

#[property]
#[ignore = "run in a child process by the tests below"]
#[should_panic(expected = "x is too large")]
fn an_expected_failure(x: u8) {
    println!("case ran");
    assert!(x < 100, "x is too large");
}

#[test]
fn an_expected_failure_is_neither_saved_nor_searched_further() {
    let db = std::env::temp_dir().join(format!("speccheck-expected-{}", std::process::id()));
    let out = Command::new(std::env::current_exe().expect("the test binary"))
        .args(["an_expected_failure", "--exact", "--ignored", "--nocapture", "--test-threads", "1"])
        .env("SPECCHECK_DATABASE", &db)
        .env("SPECCHECK_SEED", "7")
        .output()
        .expect("the child runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the expected failure happened: {text}");
    let saved = std::fs::read_dir(&db).map(|d| d.count()).unwrap_or(0);
    let _ = std::fs::remove_dir_all(&db);
    assert_eq!(saved, 0, "an expected failure was saved to {}", db.display());
    // The search, the shrink and the final replay; not a thousand inputs
    // more looking for other failure classes.
    let runs = text.matches("case ran").count();
    assert!(runs < 300, "{runs} cases ran for an expected failure");
}

#[property(cases = 30)]
#[ignore = "run in a child process by the tests below"]
fn a_passing_property_with_labels(x: u8) {
    speccheck::label(if x.is_multiple_of(2) { "even" } else { "odd" });
}

#[test]
fn labels_show_in_a_plain_cargo_test_when_asked_and_overrides_are_said() {
    let out = Command::new(std::env::current_exe().expect("the test binary"))
        .args(["a_passing_property_with_labels", "--exact", "--ignored", "--test-threads", "1"])
        .env("SPECCHECK_VERBOSITY", "stats")
        .env("SPECCHECK_CASES", "40")
        .env("SPECCHECK_DATABASE", "off")
        .output()
        .expect("the child runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("passed 40 cases"), "{text}");
    assert!(text.contains("labels:") && text.contains("% even") && text.contains("% odd"), "{text}");
    assert!(text.contains("SPECCHECK_CASES=40 overrides `cases = 30` set in code"), "{text}");
}
