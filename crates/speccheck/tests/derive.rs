//! The derive and the attribute, as a user writes them.

use std::collections::BTreeMap;

use speccheck::prelude::*;
use speccheck::{Config, Property, RunVerdict, decode_value, encode_value, enumerate};

#[derive(Arbitrary, Debug, Clone, PartialEq)]
enum Expr {
    C(i32),
    Add(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
}

#[derive(Arbitrary, Debug, Clone, PartialEq)]
struct Workspace {
    #[speccheck(range = 0..10u32)]
    tag: u32,
    layout: i8,
    stack: Option<Vec<char>>,
    #[speccheck(opaque)]
    floating: BTreeMap<u8, u8>,
    #[speccheck(default)]
    cache: Vec<u64>,
}

#[derive(Arbitrary, Debug, Clone, PartialEq)]
struct Pair<T>(T, T);

#[derive(Arbitrary, Debug, Clone, PartialEq)]
enum Unit {
    A,
    #[speccheck(weight = 5)]
    B,
}

#[derive(Arbitrary, Debug, Clone, PartialEq)]
struct Rose {
    label: u8,
    kids: Vec<Rose>,
}

fn quiet(name: &str) -> Config {
    Config { database: None, seed: Some(9), ..Config::named(name) }
}

#[test]
fn derived_values_round_trip_through_their_choices() {
    let r = Property::new(speccheck::any::<(Expr, Workspace, Pair<u16>, Unit, Rose)>()).config(quiet("rt")).run(
        |v: (Expr, Workspace, Pair<u16>, Unit, Rose)| {
            let choices = encode_value(&v).expect("encodable");
            let back = decode_value::<(Expr, Workspace, Pair<u16>, Unit, Rose)>(&choices).expect("decodable");
            back == v
        },
    );
    assert!(r.passed(), "{r}");
}

#[test]
fn tree_view_of_derived_values() {
    let e = Expr::Div(Box::new(Expr::C(1)), Box::new(Expr::Add(Box::new(Expr::C(0)), Box::new(Expr::C(2)))));
    assert_eq!(e.constructor(), "Div");
    assert_eq!(e.constructors(), &["C", "Add", "Div"]);
    assert_eq!(e.children().len(), 2);
    assert_eq!(e.size(), 5);
    assert_eq!(e.to_term().to_line(), "Div(C(1), Add(C(0), C(2)))");
    let mut e2 = e.clone();
    e2.replace_child(1, Box::new(Box::new(Expr::C(7)))).unwrap();
    assert_eq!(e2.to_term().to_line(), "Div(C(1), C(7))");
    assert!(e2.replace_child(1, Box::new(3u8)).is_err());
    let w = Workspace { tag: 1, layout: -1, stack: None, floating: BTreeMap::new(), cache: vec![] };
    assert_eq!(w.children().len(), 3, "opaque and default fields are leaves");
    assert_eq!(w.to_term().to_line(), "Workspace { tag: 1, layout: -1, stack: None, floating: {}, cache: [] }");
}

#[test]
fn ranges_and_defaults_are_respected() {
    let r = Property::new(speccheck::any::<Workspace>())
        .config(quiet("ranges"))
        .run(|w: Workspace| w.tag < 10 && w.cache.is_empty());
    assert!(r.passed(), "{r}");
}

#[test]
fn recursive_types_terminate_and_shrink_to_small_terms() {
    // Any expression with a division fails: the smallest is Div(C(0), C(0)).
    fn has_div(e: &Expr) -> bool {
        match e {
            Expr::C(_) => false,
            Expr::Add(a, b) => has_div(a) || has_div(b),
            Expr::Div(..) => true,
        }
    }
    let r = Property::new(speccheck::any::<Expr>()).config(quiet("div")).run(|e: Expr| !has_div(&e));
    match &r.verdict {
        RunVerdict::Failed(c) => assert_eq!(c.inputs[0].1.to_line(), "Div(C(0), C(0))", "{r}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn enumeration_of_a_derived_type_by_depth() {
    let c = |n| Box::new(Expr::C(n));
    let depth1: Vec<Expr> = enumerate(&speccheck::any::<Expr>(), 1).map(|(_, e)| e).collect();
    assert_eq!(depth1, vec![Expr::C(0), Expr::Add(c(0), c(0)), Expr::Div(c(0), c(0))]);
    // Depth 2: C(0|1|-1), and Add/Div over the 3 values of depth 1 each.
    let depth2: Vec<Expr> = enumerate(&speccheck::any::<Expr>(), 2).map(|(_, e)| e).collect();
    assert_eq!(depth2.len(), 3 + 9 + 9);
    let mut unique = depth2.iter().map(|e| format!("{e:?}")).collect::<Vec<_>>();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), depth2.len());
}

#[property(cases = 50)]
fn reverse_is_an_involution(xs: Vec<i32>) {
    let mut r = xs.clone();
    r.reverse();
    r.reverse();
    assert_eq!(r, xs);
}

#[property]
fn custom_generators_and_interactive_draws(#[from(gens::ints(1..=5usize))] n: usize, tc: &mut TestCase) -> bool {
    let v = tc.draw(&gens::vec(gens::ints(0..10u8), n..=n));
    v.len() == n
}

#[property]
#[should_panic(expected = "reverse_is_not_identity")]
fn failing_properties_fail_the_test(xs: Vec<u8>) {
    let mut r = xs.clone();
    r.reverse();
    assert!(r == xs, "reverse_is_not_identity");
}

#[property(cases = 10)]
#[tokio::test]
async fn async_properties_run_on_a_runtime(x: u16) {
    let y = tokio::task::spawn(async move { x.wrapping_add(1) }).await.unwrap();
    assert_eq!(y, x.wrapping_add(1));
}

#[property(exhaustive = 3)]
fn exhaustive_properties_through_the_attribute(e: Expr) {
    // Every expression of depth ≤ 3 evaluates without panicking.
    fn eval(e: &Expr) -> Option<i64> {
        match e {
            Expr::C(n) => Some(i64::from(*n)),
            Expr::Add(a, b) => Some(eval(a)? + eval(b)?),
            Expr::Div(a, b) => eval(a)?.checked_div(eval(b)?),
        }
    }
    let _ = eval(&e);
}

#[test]
fn reports_name_the_command_that_reruns_the_test() {
    use speccheck::__private::{rerun_command, test_target};
    assert_eq!(
        rerun_command("speccheck", Some("--lib"), "speccheck::tests", "p"),
        "cargo test -p speccheck --lib -- tests::p --exact"
    );
    assert_eq!(rerun_command("x", None, "derive", "p"), "cargo test -p x -- p --exact");
    // This file is an integration test, run from `deps/`.
    assert_eq!(test_target(Some("derive"), None, true).as_deref(), Some("--test derive"));
    assert_eq!(test_target(Some("x"), None, false).as_deref(), Some("--lib"));
    assert_eq!(test_target(Some("x"), Some("tool"), false).as_deref(), Some("--bin tool"));
    assert_eq!(test_target(None, None, true), None);
}

/// What a failing property here prints: the target it was compiled in.
#[speccheck::property(cases = 5)]
#[should_panic(expected = "cargo test -p speccheck --test derive -- the_printed_replay_names_this_test_target --exact")]
fn the_printed_replay_names_this_test_target(x: u8) -> bool {
    x > 200
}

/// Recursive types that have finite values: the recursion is optional
/// (`Option<Box<…>>`), may be empty (`Vec`), or another variant ends it,
/// even one listed last. The derive's no-base-case check must take all of
/// them (see `ui/recursive_type_without_base_case.rs` for the ones it
/// refuses).
#[derive(Arbitrary, Debug, Clone, PartialEq)]
struct Chain {
    value: u8,
    next: Option<Box<Chain>>,
}

#[derive(Arbitrary, Debug, Clone, PartialEq)]
enum Nested {
    Pair(Box<Nested>, (u8, Box<Nested>)),
    Many(Vec<Nested>, Box<Nested>),
    End,
}

#[derive(Arbitrary, Debug, Clone, PartialEq)]
struct Forest(Vec<Forest>, [Option<Box<Forest>>; 2]);

#[test]
fn recursive_types_with_a_way_out_derive_and_generate_finite_values() {
    fn depth(n: &Nested) -> usize {
        match n {
            Nested::Pair(a, (_, b)) => 1 + depth(a).max(depth(b)),
            Nested::Many(v, b) => 1 + v.iter().map(depth).max().unwrap_or(0).max(depth(b)),
            Nested::End => 0,
        }
    }
    fn trees(f: &Forest) -> usize {
        1 + f.0.iter().map(trees).sum::<usize>() + f.1.iter().flatten().map(|b| trees(b)).sum::<usize>()
    }
    // `Forest` branches through two options a level: before options took
    // `None` past the depth limit, drawing one overflowed the stack.
    let r = Property::new(speccheck::any::<(Chain, Nested, Forest)>())
        .config(quiet("finite"))
        .run(|(_, n, f): (Chain, Nested, Forest)| depth(&n) < 1_000 && trees(&f) < 1_000_000);
    assert!(r.passed(), "{r}");
}
