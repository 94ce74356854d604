//! Tour stop: counterexample reduction and generalization (SmartCheck).
//! A failure is reduced to its essentials, generalized into a formula
//! whose holes were each re-tested, and — with precondition strengthening
//! — every distinct failure class is reported from one run.

use std::sync::Arc;

use speccheck::prelude::*;
use speccheck::reduce::{ReduceConfig, SmartCheck};
use speccheck::runner::Explainer;
use speccheck::{Config, ExplainMode, Property, RunReport};
use speccheck_fixtures::smartcheck::{div0, parser, stackset};

use super::{Expect, Finding, Stop, check_that};

pub fn stop() -> Stop {
    Stop { name: "reduce", title: "counterexample reduction, generalization and every failure class (SmartCheck)", run }
}

fn config(name: &str, seed: u64) -> Config {
    Config { seed: Some(seed), database: None, explain: ExplainMode::Generalize, ..Config::named(name) }
}

/// SmartCheck without the search for further classes: Div0 has one bug,
/// and its shapes (division by zero under each context) are all the same
/// bug; the parser below shows the search.
fn one_class() -> Arc<dyn Explainer> {
    Arc::new(SmartCheck::new(ReduceConfig { multi: false, ..ReduceConfig::default() }))
}

/// The report must carry a generalized formula.
fn generalized(r: &RunReport) -> Result<(), String> {
    let c = r.counterexample().ok_or("no counterexample")?;
    match c.explanation.iter().any(|s| s.title.starts_with("generalized")) {
        true => Ok(()),
        false => Err("the counterexample was not generalized".into()),
    }
}

/// Both parser bugs must be among the classes reported: some class fails
/// with each bug alone.
fn both_parser_bugs(r: &RunReport) -> Result<(), String> {
    let c = r.counterexample().ok_or("no counterexample")?;
    let classes: Vec<parser::Lang> = c.failure_classes().filter_map(speccheck::decode_value).collect();
    let only_mul = parser::Bugs { swap_or: false, mul_as_div: true };
    let swap_or = classes.iter().any(|l| !parser::round_trips(l, parser::Bugs::SWAP_OR));
    let mul_as_div = classes.iter().any(|l| !parser::round_trips(l, only_mul));
    println!(
        "{} classes reported; `Or` swapped: {}; `Mul` read as `Div`: {}",
        classes.len(),
        if swap_or { "found" } else { "MISSED" },
        if mul_as_div { "found" } else { "MISSED" },
    );
    match swap_or && mul_as_div {
        true => Ok(()),
        false => Err("one run did not report both bugs".into()),
    }
}

fn run(seed: u64) -> anyhow::Result<Vec<Finding>> {
    let mut out = Vec::new();
    out.push(check_that(
        "Div0: a literal-zero check lets a division by zero through",
        Expect::Bug,
        generalized,
        || {
            Property::with_render(any::<div0::Exp>(), |e: &div0::Exp| vec![("e".into(), e.to_term())])
                .config(config("reduce::div0", seed))
                .explainer(one_class())
                .run(|e: div0::Exp| {
                    assume(div0::div_sub_terms(&e));
                    div0::evaluates(&e)
                })
        },
    ));
    for (buggy, expect) in [(true, Expect::Bug), (false, Expect::Pass)] {
        let what = "XMonad StackSet: delete removes the focused window";
        let judge = move |r: &RunReport| if buggy { generalized(r) } else { Ok(()) };
        out.push(check_that(what, expect, judge, || {
            Property::with_render(any::<stackset::StackSet>(), |s: &stackset::StackSet| vec![("s".into(), s.to_term())])
                .config(config("reduce::stackset", seed))
                .explainer(speccheck::reduce::explainer())
                .run(move |s: stackset::StackSet| stackset::prop_delete(&s, buggy))
        }));
    }
    let parser_check = |bugs: parser::Bugs| {
        move || {
            Property::with_render(any::<parser::Lang>(), |l: &parser::Lang| vec![("program".into(), l.to_term())])
                .config(config("reduce::parser", seed))
                .explainer(speccheck::reduce::explainer())
                .run(move |l: parser::Lang| parser::round_trips(&l, bugs))
        }
    };
    out.push(check_that(
        "parser with two bugs: one run reports both classes",
        Expect::Bug,
        both_parser_bugs,
        parser_check(parser::Bugs::BOTH),
    ));
    out.push(check_that("parser: printing then parsing gives the program back", Expect::Pass, |_| Ok(()), {
        parser_check(parser::Bugs::NONE)
    }));
    Ok(out)
}
