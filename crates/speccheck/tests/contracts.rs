//! `#[contract]`'s run-time checks: each part fires when it should and
//! only then; a violation names the part, the function, the inputs and
//! the result; a part that cannot be evaluated is a broken contract, not
//! a violation; nested calls blame the innermost contract; checks can be
//! turned off.

use speccheck::contract;
use speccheck::contracts::switch::forced;

fn failure(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let err = std::panic::catch_unwind(|| forced(f)).expect_err("the contract should fire");
    err.downcast_ref::<String>().cloned().unwrap_or_default()
}

fn holds(f: impl FnOnce() + std::panic::UnwindSafe) {
    if let Err(e) = std::panic::catch_unwind(|| forced(f)) {
        panic!("the contract fired: {}", e.downcast_ref::<String>().cloned().unwrap_or_default());
    }
}

#[contract(requires(n >= 0), ensures(result >= n), ensures(n > 10 ==> result == n), test(strategy = exhaustive, depth = 3))]
fn at_least_five(n: i64) -> i64 {
    if n > 10 { n } else { n.max(5) }
}

#[contract(ensures(result == a + b), test(strategy = exhaustive, depth = 3, should_panic = "the postcondition `result == a + b` is false"))]
fn sloppy_add(a: i64, b: i64) -> i64 {
    if a == 3 { a } else { a.wrapping_add(b) }
}

#[contract(no_panic, test(should_panic = "`no_panic` is false"))]
fn head(xs: &[i64]) -> i64 {
    xs[0]
}

#[contract(cost(steps <= len(xs)), test(strategy = exhaustive, depth = 3, should_panic = "the cost bound"))]
fn count_positive(xs: &[i64]) -> usize {
    if xs.len() == 2 {
        speccheck::contracts::tick(); // one step too many, for two elements only
    }
    xs.iter()
        .filter(|x| {
            speccheck::contracts::tick();
            **x > 0
        })
        .count()
}

#[contract(terminates_within(20), test(should_panic = "`terminates_within(20)` is false"))]
fn nap(ms: u8) -> u8 {
    std::thread::sleep(std::time::Duration::from_millis(u64::from(ms)));
    ms
}

#[contract(ensures(xs[5] == result), test(should_panic = "is broken"))]
fn sixth(xs: Vec<i64>) -> i64 {
    xs.get(5).copied().unwrap_or(0)
}

#[contract(no_panic, test(strategy = exhaustive, depth = 3, should_panic = "contract of `sloppy_add` violated"))]
fn outer(n: i64) -> i64 {
    sloppy_add(n, 1)
}

#[test]
fn a_contract_that_holds_does_not_fire() {
    holds(|| {
        at_least_five(0);
        at_least_five(11);
        sloppy_add(1, 2);
        head(&[1]);
        count_positive(&[1, -1, 2]);
        nap(0);
        sixth(vec![0, 1, 2, 3, 4, 5]);
    });
}

#[test]
fn a_false_postcondition_names_the_part_the_function_the_inputs_and_the_result() {
    let m = failure(|| {
        sloppy_add(3, 4);
    });
    assert!(m.contains("contract of `sloppy_add` violated: the postcondition `result == a + b` is false"), "{m}");
    assert!(m.contains("inputs: a = 3, b = 4") && m.contains("result: 3"), "{m}");
}

#[test]
fn a_false_precondition_is_the_callers_fault() {
    let m = failure(|| {
        at_least_five(-1);
    });
    assert!(m.contains("violated by a caller of `at_least_five`: the precondition `n >= 0` is false"), "{m}");
}

#[test]
fn no_panic_reports_the_panic_as_a_violation() {
    let m = failure(|| {
        head(&[]);
    });
    assert!(m.contains("`no_panic` is false") && m.contains("panicked: index out of bounds"), "{m}");
}

#[test]
fn a_nested_violation_passes_through_an_outer_no_panic() {
    let m = failure(|| {
        outer(3);
    });
    assert!(m.starts_with("contract of `sloppy_add` violated"), "{m}");
}

#[test]
fn the_cost_bound_counts_the_ticks_of_one_call() {
    let m = failure(|| {
        count_positive(&[1, 2]);
    });
    assert!(m.contains("the cost bound `steps <= len(xs)` is false") && m.contains("steps: 3"), "{m}");
}

#[test]
fn a_call_past_its_time_bound_is_reported() {
    let m = failure(|| {
        nap(60);
    });
    assert!(m.contains("`terminates_within(20)` is false") && m.contains("took"), "{m}");
}

#[test]
fn a_part_that_cannot_be_evaluated_is_a_broken_contract() {
    let m = failure(|| {
        sixth(vec![1]);
    });
    assert!(m.contains("contract of `sixth` is broken (this is not a violation by `sixth`)"), "{m}");
}

#[test]
fn unforced_checks_follow_the_build() {
    // Tests are debug builds here: checks are on without forcing them.
    let caught = std::panic::catch_unwind(|| sloppy_add(3, 4));
    assert_eq!(caught.is_err(), cfg!(debug_assertions));
}

/// Reports an error for almost every input, so its conditional
/// postcondition is checked on almost none.
#[contract(ensures(result >= 0 ==> result == n - 1000), test(strategy = exhaustive, depth = 3))]
fn above_a_thousand(n: i64) -> i64 {
    if n > 1000 { n - 1000 } else { -1 }
}

#[test]
fn a_generated_test_that_mostly_checks_nothing_warns() {
    use speccheck::{Property, gens};
    // What the generated test does, observed through the report.
    let report = Property::new(gens::ints(-50i64..50))
        .config(speccheck::Config { database: None, ..speccheck::Config::named("trivial") })
        .run(|n: i64| {
            forced(|| above_a_thousand(n));
            if let Some(met) = speccheck::contracts::check::last_call_met_a_condition() {
                speccheck::cover(50.0, met, "calls meeting the condition");
            }
        });
    assert!(report.passed(), "{report}");
    let w = report.warnings.join("\n");
    assert!(w.contains("only 0.0% of the") && w.contains("`calls meeting the condition`"), "{report}");
    // A run where the condition is mostly met has no such warning.
    let report = Property::new(gens::ints(1001i64..2000))
        .config(speccheck::Config { database: None, ..speccheck::Config::named("met") })
        .run(|n: i64| {
            forced(|| above_a_thousand(n));
            speccheck::cover(50.0, speccheck::contracts::check::last_call_met_a_condition() == Some(true), "met");
        });
    assert!(report.passed() && report.warnings.is_empty(), "{report}");
}

/// Ascending order, written once in Rust: the run-time check of the
/// contracts below and the filter of their generated inputs.
#[speccheck::predicate]
fn ascending(xs: &[i64]) -> bool {
    xs.windows(2).all(|w| w[0] <= w[1])
}

#[contract(
    requires(ascending(xs) && ascending(ys)),
    ensures(ascending(result) && len(result) == len(xs) + len(ys)),
    test(strategy = lazy, depth = 3)
)]
fn merge(xs: &[i64], ys: &[i64]) -> Vec<i64> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < xs.len() || j < ys.len() {
        if j == ys.len() || (i < xs.len() && xs[i] <= ys[j]) {
            out.push(xs[i]);
            i += 1;
        } else {
            out.push(ys[j]);
            j += 1;
        }
    }
    out
}

/// Takes the first element of `xs` first, whatever `ys` starts with.
#[contract(
    requires(ascending(xs) && ascending(ys)),
    ensures(ascending(result)),
    test(should_panic = "the postcondition `ascending(result)` is false")
)]
fn merge_sloppy(xs: &[i64], ys: &[i64]) -> Vec<i64> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < xs.len() && j < ys.len() {
        if i == 0 || xs[i] <= ys[j] {
            out.push(xs[i]);
            i += 1;
        } else {
            out.push(ys[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&ys[j..]);
    out.extend_from_slice(&xs[i..]);
    out
}

#[test]
fn a_rust_predicate_is_the_run_time_check() {
    let m = failure(|| {
        merge(&[2, 1], &[]);
    });
    assert!(m.contains("violated by a caller of `merge`: the precondition `ascending(xs) && ascending(ys)`"), "{m}");
    holds(|| {
        assert_eq!(merge(&[1, 3], &[2]), vec![1, 2, 3]);
    });
}

/// The same predicate refines a property's argument: every input the
/// enumeration hands over satisfies it.
#[speccheck::property(strategy = lazy, depth = 3)]
fn a_rust_predicate_refines_generated_inputs(#[refine(ascending(xs))] xs: Vec<i64>) -> bool {
    ascending(&xs)
}
