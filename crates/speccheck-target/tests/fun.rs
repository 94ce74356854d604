//! Generated functions (`Fun`): each answer satisfies the refinement for
//! its input, the same input gets the same answer, a call outside the
//! precondition or with no valid output fails with a message saying so,
//! and a counterexample's report shows the answers the function gave.

use std::sync::Arc;

use speccheck::{Property, RunVerdict, gens};
use speccheck_target::{Fun, FunSpec};

fn spec(param: &str, source: &str) -> Arc<FunSpec> {
    Arc::new(FunSpec::new("f", param, source).unwrap())
}

fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let err = std::panic::catch_unwind(f).expect_err("the call should fail");
    err.downcast_ref::<String>().cloned().unwrap_or_default()
}

#[test]
fn every_answer_satisfies_the_refinement_for_its_input() {
    let raise = spec("s", "(0 <= s && s < 100) ==> (s <= result && result < 100)");
    for variant in [0u8, 1, 7, 200, 255] {
        let f = Fun::<i64, i64>::with_variant(variant).refined(&raise);
        for s in 0..100 {
            let v = f.call(s);
            assert!(s <= v && v < 100, "variant {variant}: f({s}) = {v}");
            assert_eq!(f.call(s), v, "the same input gets the same answer");
        }
    }
}

#[test]
fn variant_zero_answers_with_the_simplest_output_and_others_vary() {
    let up = spec("s", "s <= result");
    let simplest = Fun::<i64, i64>::with_variant(0).refined(&up);
    assert!((-20..20).all(|s| simplest.call(s) == s.max(0)), "the simplest output at least s is max(s, 0)");
    let raised = (1..=20u8).any(|variant| {
        let f = Fun::<i64, i64>::with_variant(variant).refined(&up);
        (0..20).any(|s| f.call(s) > s)
    });
    assert!(raised, "some variant answers above the simplest output");
}

#[test]
fn outputs_may_be_data_shaped_by_the_input() {
    let sized = spec("n", "(0 <= n && n <= 4) ==> (len(result) == n && forall!(x in result, x >= n))");
    for variant in [0u8, 3, 9] {
        let f = Fun::<i64, Vec<i64>>::with_variant(variant).refined(&sized);
        for n in 0..=4 {
            let xs = f.call(n);
            assert_eq!(xs.len() as i64, n, "variant {variant}: f({n}) = {xs:?}");
            assert!(xs.iter().all(|&x| x >= n), "variant {variant}: f({n}) = {xs:?}");
        }
    }
}

#[test]
fn a_call_outside_the_precondition_is_the_callers_fault() {
    let f = Fun::<i64, i64>::with_variant(0).refined(&spec("s", "(0 <= s && s < 100) ==> (s <= result)"));
    let msg = panic_message(move || {
        f.call(100);
    });
    assert!(msg.contains("`f` was called with s = 100, outside its precondition"), "{msg}");
}

#[test]
fn a_refinement_with_no_valid_output_says_so() {
    let f = Fun::<i64, i64>::with_variant(0).refined(&spec("s", "result > s && result < s"));
    let msg = panic_message(move || {
        f.call(3);
    });
    assert!(msg.contains("`f` has no valid output for s = 3"), "{msg}");
}

#[test]
fn a_refinement_naming_anything_else_is_an_error() {
    let e = FunSpec::new("f", "s", "result > t").unwrap_err();
    assert!(e.contains("mentions `t`"), "{e}");
}

#[test]
fn the_report_shows_the_answers_the_function_gave() {
    let up = spec("s", "s <= result");
    let p = Property::new(gens::arguments((gens::any::<Fun<i64, i64>>(), gens::ints(0i64..=10))))
        .configure(|c| c.database = None);
    let r = p.run(move |(f, s): (Fun<i64, i64>, i64)| {
        let f = f.refined(&up);
        assert_eq!(f.call(s), s, "f raised {s}");
    });
    let RunVerdict::Failed(c) = &r.verdict else { panic!("a raising variant exists: {}", r.summary()) };
    let answer = c.notes.iter().find(|n| n.starts_with("f(")).unwrap_or_else(|| panic!("{:?}", c.notes));
    let (input, output) = answer.trim_start_matches("f(").split_once(") = ").unwrap();
    assert!(output.parse::<i64>().unwrap() > input.parse::<i64>().unwrap(), "{answer}");
    assert!(r.to_string().contains(&format!("note: {answer}")), "{r}");
}
