//! SmartCheck as a user meets it: a counterexample reduced to its
//! essentials, generalized into a formula (`forall x0 x1: …`), and further
//! failure classes found in the same run. Run with
//! `cargo run -p speccheck-examples --example smartcheck_reduce`.
//!
//! The programs under test are the paper's, in
//! `crates/speccheck-fixtures/src/smartcheck/` (plain Rust types with
//! `#[derive(Arbitrary)]`). With `#[property]` (or `speccheck::check`) none
//! of the wiring below is needed: SmartCheck is the default explanation
//! step. Here the properties are built by hand to show the settings
//! (`explain`, `ReduceConfig`).

use std::sync::Arc;

use speccheck::prelude::*;
use speccheck::reduce::{Format, ReduceConfig, SmartCheck};
use speccheck::runner::Explainer;
use speccheck::{Config, ExplainMode, Property};
use speccheck_examples::smartcheck::{div0, parser, stackset};

fn main() {
    let config =
        |name: &str| Config { database: None, seed: Some(11), explain: ExplainMode::Generalize, ..Config::named(name) };

    println!("== Div0: if no divisor is a literal zero, evaluation succeeds (it does not) ==");
    let report = Property::with_render(any::<div0::Exp>(), |e: &div0::Exp| vec![("e".into(), e.to_term())])
        .config(config("div0"))
        .explainer(speccheck::reduce::explainer())
        .run(|e: div0::Exp| {
            assume(div0::div_sub_terms(&e));
            div0::evaluates(&e)
        });
    println!("{report}");

    println!("== StackSet: deleting the focused window removes it (a typo says otherwise) ==");
    // One class is enough here: skip the search for further failure classes.
    let one_class = SmartCheck::new(ReduceConfig { multi: false, ..ReduceConfig::default() });
    let report =
        Property::with_render(any::<stackset::StackSet>(), |s: &stackset::StackSet| vec![("s".into(), s.to_term())])
            .config(config("stackset_delete"))
            .explainer(Arc::new(one_class) as Arc<dyn Explainer>)
            .run(|s: stackset::StackSet| stackset::prop_delete(&s, true));
    println!("{report}");

    println!("== The same formula, printed in SmartCheck's tree format ==");
    let tree = SmartCheck::new(ReduceConfig { multi: false, format: Format::Tree, ..ReduceConfig::default() });
    let report = Property::new(any::<stackset::StackSet>())
        .config(config("stackset_delete_tree"))
        .explainer(Arc::new(tree) as Arc<dyn Explainer>)
        .run(|s: stackset::StackSet| stackset::prop_delete(&s, true));
    if let Some(c) = report.counterexample()
        && let Some(g) = c.explanation.iter().find(|s| s.title.starts_with("generalized"))
    {
        println!("{}\n", g.body);
    }

    println!("== A parser with two independent bugs: one run, every failure class ==");
    let report = Property::with_render(any::<parser::Lang>(), |l: &parser::Lang| vec![("program".into(), l.to_term())])
        .config(config("parser_two_bugs"))
        .explainer(speccheck::reduce::explainer())
        .run(|l: parser::Lang| parser::round_trips(&l, parser::Bugs::BOTH));
    println!("{report}");
    if let Some(c) = report.counterexample() {
        // Each class's input, decoded back into a program.
        for (k, program) in c.failure_classes().filter_map(speccheck::decode_value::<parser::Lang>).enumerate() {
            let swap_or = !parser::round_trips(&program, parser::Bugs::SWAP_OR);
            println!("class {}: {}", k + 1, if swap_or { "disjunction swapped" } else { "`Mul` read as `Div`" });
        }
    }
}
