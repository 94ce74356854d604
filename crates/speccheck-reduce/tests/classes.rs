//! One report per bug: the multi-bug search (SmartCheck §5.3) counts a
//! failure that holds a known class — in another context, as an instance
//! of its formula, or among extra elements — as that class, and still
//! reports genuinely different bugs.

use speccheck::prelude::*;
use speccheck::{Config, ExplainMode, Property, RunReport};
use speccheck_examples::smartcheck::parser;

fn config(name: &str, seed: u64) -> Config {
    Config { seed: Some(seed), database: None, explain: ExplainMode::Generalize, ..Config::named(name) }
}

/// Failure classes a report counts (the reported counterexample and one
/// per "failure class" section).
fn classes(r: &RunReport) -> Vec<String> {
    let c = r.counterexample().unwrap_or_else(|| panic!("expected a failure: {r}"));
    let mut out = vec![c.inputs.iter().map(|(_, t)| t.to_line()).collect::<String>()];
    out.extend(c.explanation.iter().filter(|s| s.title.starts_with("failure class")).map(|s| s.body.clone()));
    out
}

#[derive(Arbitrary, Debug, Clone, PartialEq)]
enum Expr {
    Num(i64),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
}

fn eval(e: &Expr) -> i64 {
    match e {
        Expr::Num(n) => *n,
        Expr::Add(a, b) => eval(a).wrapping_add(eval(b)),
        Expr::Mul(a, b) => eval(a).wrapping_mul(eval(b)),
    }
}

/// Folds `e * 0` to `e` (one bug, reachable in any context).
fn optimize(e: &Expr) -> Expr {
    match e {
        Expr::Mul(a, b) if **b == Expr::Num(0) => optimize(a),
        Expr::Num(n) => Expr::Num(*n),
        Expr::Add(a, b) => Expr::Add(Box::new(optimize(a)), Box::new(optimize(b))),
        Expr::Mul(a, b) => Expr::Mul(Box::new(optimize(a)), Box::new(optimize(b))),
    }
}

#[test]
fn one_bug_in_many_contexts_is_one_class() {
    for seed in 0..6 {
        let r = Property::with_render(any::<Expr>(), |e: &Expr| vec![("e".into(), e.to_term())])
            .config(config("classes::optimize", seed))
            .explainer(speccheck::reduce::explainer())
            .run(|e: Expr| eval(&optimize(&e)) == eval(&e));
        let found = classes(&r);
        assert_eq!(found.len(), 1, "seed {seed}: one bug reported as {} classes:\n{r}", found.len());
    }
}

#[test]
fn the_parsers_two_bugs_are_two_classes() {
    for seed in 0..6 {
        let r = Property::with_render(any::<parser::Lang>(), |l: &parser::Lang| vec![("program".into(), l.to_term())])
            .config(config("classes::parser", seed))
            .explainer(speccheck::reduce::explainer())
            .run(|l: parser::Lang| parser::round_trips(&l, parser::Bugs::BOTH));
        let found = classes(&r);
        let all = found.join("\n");
        assert!(all.contains("Or(") && all.contains("Mul("), "seed {seed}: a bug is missing:\n{r}");
        assert_eq!(found.len(), 2, "seed {seed}: two bugs reported as {} classes:\n{r}", found.len());
    }
}

#[derive(Arbitrary, Debug, Clone, PartialEq)]
enum Op {
    Open,
    Deposit(#[speccheck(range = 0..4u8)] u8, #[speccheck(range = 1..100u32)] u32),
    Transfer(#[speccheck(range = 0..4u8)] u8, #[speccheck(range = 0..4u8)] u8, #[speccheck(range = 1..100u32)] u32),
}

/// A bank whose transfer to the same account credits without debiting.
fn total_is_kept(ops: &[Op]) -> bool {
    let mut balances: Vec<u64> = Vec::new();
    let mut deposited = 0u64;
    for op in ops {
        match *op {
            Op::Open => balances.push(0),
            Op::Deposit(a, n) => {
                if let Some(b) = balances.get_mut(usize::from(a)) {
                    *b += u64::from(n);
                    deposited += u64::from(n);
                }
            }
            Op::Transfer(from, to, n) => {
                let (f, t) = (usize::from(from), usize::from(to));
                if f < balances.len() && t < balances.len() && balances[f] >= u64::from(n) {
                    if f != t {
                        balances[f] -= u64::from(n);
                    }
                    balances[t] += u64::from(n);
                }
            }
        }
    }
    balances.iter().sum::<u64>() == deposited
}

#[test]
fn a_known_bug_among_irrelevant_operations_is_one_class() {
    for seed in 0..6 {
        let r = Property::with_render(any::<Vec<Op>>(), |ops: &Vec<Op>| vec![("ops".into(), ops.to_term())])
            .config(config("classes::bank", seed))
            .explainer(speccheck::reduce::explainer())
            .run(|ops: Vec<Op>| total_is_kept(&ops));
        let found = classes(&r);
        assert_eq!(found.len(), 1, "seed {seed}: transfer-to-self reported as {} classes:\n{r}", found.len());
    }
}
