//! The SmartCheck models behave as the tour and the benchmark claim: each
//! planted bug is found, the fixed code passes, and one run on the parser
//! with two bugs reports both as separate classes.

use speccheck::prelude::*;
use speccheck::{Config, ExplainMode, Property};
use speccheck_fixtures::smartcheck::{div0, parser, stackset};

fn config(name: &str, seed: u64, explain: ExplainMode) -> Config {
    Config { seed: Some(seed), database: None, explain, ..Config::named(name) }
}

#[test]
fn div0_precondition_lets_a_division_by_zero_through() {
    let r = Property::new(any::<div0::Exp>()).config(config("div0", 1, ExplainMode::Reduce)).run(|e: div0::Exp| {
        assume(div0::div_sub_terms(&e));
        div0::evaluates(&e)
    });
    let c = r.counterexample().expect("Div0 fails");
    let e: div0::Exp = speccheck::decode_value(&c.choices).unwrap();
    assert!(div0::div_sub_terms(&e) && !div0::evaluates(&e));
    assert_eq!(div0::size(&e), 5, "{r}");
}

#[test]
fn stackset_delete_bug_is_found_and_the_fix_passes() {
    for (buggy, fails) in [(true, true), (false, false)] {
        let r = Property::new(any::<stackset::StackSet>())
            .config(config("stackset", 3, ExplainMode::Off))
            .run(move |s: stackset::StackSet| stackset::prop_delete(&s, buggy));
        assert_eq!(r.counterexample().is_some(), fails, "{r}");
    }
}

#[test]
fn correct_parser_round_trips() {
    let r = Property::new(any::<parser::Lang>())
        .config(config("parser_fixed", 5, ExplainMode::Off))
        .run(|l: parser::Lang| parser::round_trips(&l, parser::Bugs::NONE));
    assert!(r.passed(), "{r}");
}

#[test]
fn one_run_reports_both_parser_bugs() {
    // Three seeds keep the debug build quick; the benchmark checks 100.
    for seed in 0..3 {
        let r = Property::new(any::<parser::Lang>())
            .config(config("parser_two_bugs", seed, ExplainMode::Generalize))
            .explainer(speccheck::reduce::explainer())
            .run(|l: parser::Lang| parser::round_trips(&l, parser::Bugs::BOTH));
        let c = r.counterexample().expect("the parser is wrong");
        let classes: Vec<parser::Lang> = c.failure_classes().filter_map(speccheck::decode_value).collect();
        assert!(classes.iter().all(|l| !parser::round_trips(l, parser::Bugs::BOTH)), "every class fails");
        let swap_or = classes.iter().any(|l| !parser::round_trips(l, parser::Bugs::SWAP_OR));
        let mul = classes.iter().any(|l| !parser::round_trips(l, parser::Bugs { swap_or: false, mul_as_div: true }));
        assert!(swap_or && mul, "seed {seed}: both bugs must be reported as classes\n{r}");
    }
}
